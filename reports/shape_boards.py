"""The report's sections on the games and the boards they are played on: game shape (length,
draws, leads, endings) and each board's rules, side by side when the run compares boards."""

from __future__ import annotations

import polars as pl

from reports import charts
from reports.html import Chart, FindingList, Section, Table
from workbench.analysis import board_balance, sets, shape
from workbench.analysis.runs import Runs
from workbench.analysis.source import query, run_list


def shape_section(r: Runs) -> Section:
    summary = shape.summary(r)
    if r.boards == 1:
        summary = summary.filter(pl.col("board") != "all")
    lengths = shape.lengths(r)
    return Section(
        "shape",
        "Game shape",
        shape.__doc__.replace("\n", " ") if shape.__doc__ else "",
        [
            Chart(
                "Game length",
                charts.grouped_counts(
                    lengths.with_columns(pl.lit("rounds").alias("panel")),
                    "panel",
                    "rounds",
                    "board",
                    "games",
                    "Games per length",
                    "rounds played",
                    "games",
                ),
            ),
            Table(
                "shape",
                "Length, draws and leads" + (" per board" if r.boards > 1 else ""),
                summary,
                {"draw_rate": "games", "round_limit_rate": "games"},
            ),
            Table("endings", "How games ended", shape.endings(r), {"share": "board_games"}),
            Table("lengths", "Games per length", lengths),
        ],
    )


def boards_section(r: Runs) -> Section:
    items: list[Table | Chart | FindingList] = [Table("boards", "Rules of each board", _rules(r))]
    if r.boards > 1:
        items.append(
            Table(
                "boards_compared",
                "Boards compared",
                board_balance.table(board_balance.balances(r)),
                note="One column per board. Seat spread: the highest seat win rate minus the "
                "lowest; set spread: the same over the sets that dominate a store (mixed stores "
                "left out); both in points with a 95% bootstrap interval over the board's "
                "games. Game length: mean rounds (t interval); the round limit's share: Wilson "
                "interval. The Findings say which board is more balanced and by how much.",
            )
        )
        items.append(
            Table(
                "boards_side_by_side",
                "Boards side by side",
                _side_by_side(r),
                {
                    "first_player_win_rate": "seat_games",
                    "draw_rate": "games",
                    "ending_share": "board_games",
                },
                note="balance: one minus the largest gap between the seats' win "
                "rates (Ludii's; 1 = every seat wins equally often).",
            )
        )
    return Section(
        "boards",
        "Boards",
        "The rules of each board played"
        + (
            ", and their balance side by side (in a comparison run every board "
            "plays the same sets, agents and seeds)"
            if r.boards > 1
            else ""
        )
        + ".",
        items,
    )


def _rules(r: Runs) -> pl.DataFrame:
    """Each board's victory condition, income, round limit, size and seats, as the run stored
    them."""
    return query(
        r.con,
        f"""SELECT board, any_value(victory_kind) AS victory_kind,
                           any_value(victory_target) AS victory_target,
                           any_value(income) AS income, any_value(unit_income) AS unit_income,
                           any_value(round_limit) AS round_limit,
                           any_value(width) || 'x' || any_value(height) AS size,
                           any_value(players) AS players
                           FROM run_boards WHERE run_id IN ({run_list(r.runs)})
                           GROUP BY board ORDER BY board""",
    )


def _side_by_side(r: Runs) -> pl.DataFrame:
    """One row per board: seat balance, the first player's win rate, length and draws, and the
    most common ending, so boards compare at a glance."""
    return (
        sets.seat_balance(r)
        .join(_first_player(r), on="board", how="left")
        .join(
            shape.summary(r).select(
                "board",
                "games",
                "mean_rounds",
                "draws",
                "draw_rate",
                "draw_rate_lo",
                "draw_rate_hi",
            ),
            on="board",
            how="left",
        )
        .join(_main_ending(r), on="board", how="left")
    )


def _first_player(r: Runs) -> pl.DataFrame:
    """The first player's win rate per board, with its interval."""
    return (
        sets.win_rates(r, ["board", "first"])
        .filter(pl.col("first"))
        .select(
            "board",
            pl.col("win_rate").alias("first_player_win_rate"),
            pl.col("win_rate_lo").alias("first_player_win_rate_lo"),
            pl.col("win_rate_hi").alias("first_player_win_rate_hi"),
        )
    )


def _main_ending(r: Runs) -> pl.DataFrame:
    """The most common way games end on each board, with its share of the board's games."""
    ends = shape.endings(r)
    top_end = ends.sort("games", descending=True).group_by("board", maintain_order=True).first()
    return top_end.select(
        "board",
        pl.col("reason").alias("main_ending"),
        pl.col("share").alias("ending_share"),
        pl.col("share_lo").alias("ending_share_lo"),
        pl.col("share_hi").alias("ending_share_hi"),
        pl.col("board_games"),
    )
