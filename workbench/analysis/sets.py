"""Win rates by set, set pair, board, seat and agent.

A seat's dominant set is the set with the most cards in its drafted store ("mixed" on a tie);
its pair is its two most drafted sets, in name order ("A + B"; a single set when it drafted one).
Draws count as not won, so win rates of a seat can sum to less than one per game.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from workbench.analysis.runs import Runs
from workbench.analysis.source import query, run_list
from workbench.analysis.stats import with_rate


def _seat_sets(runs: Sequence[int]) -> str:
    """SQL: one row per seat-game with its dominant set and set pair (workbench/store/summary.py's
    summary_seats)."""
    return f"""
    SELECT s.game_id, s.seat, s.agent, s.won::INT AS won, g.board,
           coalesce(b.victory_kind, '?') AS victory, s.seat = g.first_player AS first,
           t.dominant, t.pair
    FROM game_seats s JOIN games g USING (game_id)
    LEFT JOIN summary_seats t USING (game_id, seat)
    LEFT JOIN run_boards b ON b.run_id = g.run_id AND b.board = g.board
    WHERE s.run_id IN ({run_list(runs)})
    """


def win_rates(r: Runs, by: Sequence[str]) -> pl.DataFrame:
    """Win rate (+CI) of seat-games grouped by any of: dominant, pair, board, victory (the
    board's victory kind), seat, first, agent."""
    allowed = {"dominant", "pair", "board", "victory", "seat", "first", "agent"}
    if not by or not set(by) <= allowed:
        raise ValueError(f"group by a non-empty subset of {sorted(allowed)}, not {list(by)}")
    keys = ", ".join(by)
    df = query(
        r.con,
        f"""
        SELECT {keys}, count(*) AS seats, sum(won) AS wins FROM ({_seat_sets(r.runs)})
        GROUP BY ALL ORDER BY ALL""",
    )
    return with_rate(df, "wins", "seats", "win_rate")


def seat_balance(r: Runs) -> pl.DataFrame:
    """Per board: seat win rates and Ludii's balance, one minus the largest gap between seats."""
    seats = win_rates(r, ["board", "seat"])
    return (
        seats.group_by("board")
        .agg(
            pl.col("seats").sum().alias("seat_games"),
            pl.col("win_rate").max().alias("best_seat_rate"),
            pl.col("win_rate").min().alias("worst_seat_rate"),
        )
        .with_columns(
            (1 - (pl.col("best_seat_rate") - pl.col("worst_seat_rate"))).alias("balance"),
        )
        .sort("board")
    )


def store_sets(r: Runs) -> pl.DataFrame:
    """Per seat-game: dominant set and pair (for notebooks that slice further)."""
    return query(r.con, _seat_sets(r.runs))
