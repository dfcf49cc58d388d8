"""The resource economy per round (R5, R7, R8.6, R18), from the snapshots table.

Every player-turn balances: resource at the start + income + gains from discarding (R8.6) and
from cards (spells, stealing, field actions) = spending on buys, plays, upkeep and free actions
+ losses to cards + resource left. "Held" is the left side, what the player had to spend;
"unspent" is the resource left at the end of the turn. Income is split with the board's
numbers: base = the board's income, per unit = its unit income times the units at the end of
the player's previous turn (an estimate: units can die in between), fields = the rest. Buying
is measured at the buy step (R4.5, R7.2): the share of player-turns that bought a card, and the
resource and store cards held when the step began.
"""

from __future__ import annotations

from collections.abc import Sequence

import duckdb
import polars as pl

from workbench.analysis.source import in_runs, query
from workbench.analysis.stats import with_rate

FLOWS = ("income", "card_gain", "discard_gain", "spend_buy", "spend_play", "spend_upkeep",
         "spend_free", "card_loss", "upkeep_paid", "upkeep_deaths", "bought")


def _turns(runs: Sequence[int]) -> str:
    """SQL: one row per player-turn with this turn's flows and the income split."""
    flows = ", ".join(f"s.{c}" for c in FLOWS)
    return f"""
    SELECT s.game_id, s.round, s.player, g.board, gs.agent, s.resource AS unspent,
           s.resource_start AS before, s.buy_resource, s.store AS store_cards,
           coalesce(lag(s.units) OVER w, 0) AS units_before,
           coalesce(b.income, 0) AS board_income, coalesce(b.unit_income, 0) AS board_unit_income,
           {flows}
    FROM snapshots s JOIN games g USING (game_id)
    JOIN game_seats gs ON gs.game_id = s.game_id AND gs.seat = s.player
    LEFT JOIN run_boards b ON b.run_id = g.run_id AND b.board = g.board
    WHERE {in_runs('s.game_id', runs)}
    WINDOW w AS (PARTITION BY s.game_id, s.player ORDER BY s.round)
    """


def per_round(con: duckdb.DuckDBPyConnection, runs: Sequence[int],
              by: Sequence[str] = ()) -> pl.DataFrame:
    """Mean per player-turn, per round (and board / agent): resource carried over from the
    previous turn, held, income split, gains, spends, losses, unspent; upkeep's share of income; buys with their share of turns (Wilson) and the
    resource and store cards at the buy step."""
    if not set(by) <= {"board", "agent"}:
        raise ValueError(f"group the economy by board and/or agent, not {list(by)}")
    keys = "".join(f"{k}, " for k in by)
    df = query(con, f"""
    WITH t AS ({_turns(runs)}),
    split AS (
        SELECT *, before + income + discard_gain + card_gain AS held,
               greatest(least(board_income, income), 0) AS income_base,
               greatest(least(board_unit_income * units_before,
                              income - greatest(least(board_income, income), 0)), 0)
                   AS income_units
        FROM t)
    SELECT {keys}round, count(*) AS turns, avg(before) AS carried, avg(held) AS held,
           avg(income) AS income,
           avg(income_base) AS income_base, avg(income_units) AS income_units,
           avg(income - income_base - income_units) AS income_fields,
           avg(discard_gain) AS discard_gain, avg(card_gain) AS card_gain,
           avg(spend_buy) AS spend_buy, avg(spend_play) AS spend_play,
           avg(spend_upkeep) AS spend_upkeep, avg(spend_free) AS spend_free,
           avg(card_loss) AS card_loss, avg(unspent) AS unspent,
           sum(spend_upkeep) / nullif(sum(income), 0) AS upkeep_share,
           sum(bought) AS buys, avg(buy_resource) AS buy_resource,
           avg(store_cards) AS store_cards, sum(upkeep_deaths) AS upkeep_deaths
    FROM split GROUP BY ALL ORDER BY ALL
    """)
    return with_rate(df, "buys", "turns", "buy_share")


def round_sums(con: duckdb.DuckDBPyConnection, runs: Sequence[int]) -> pl.DataFrame:
    """Per board and round: player-turns, buys, and the sums, squares and cross products of
    income, upkeep and unspent resource (for intervals of means and ratios, stats.py)."""
    return query(con, f"""
    SELECT board, round, count(*) AS turns, sum(bought) AS buys,
           sum(income) AS s_income, sum(spend_upkeep) AS s_upkeep,
           sum(income * income) AS ss_income, sum(spend_upkeep * spend_upkeep) AS ss_upkeep,
           sum(income * spend_upkeep) AS s_income_upkeep,
           sum(unspent) AS s_unspent, sum(unspent * unspent) AS ss_unspent
    FROM ({_turns(runs)}) GROUP BY ALL ORDER BY ALL""")


def final_sums(con: duckdb.DuckDBPyConnection, runs: Sequence[int]) -> pl.DataFrame:
    """Per board: player-games and the sum and squares of the resource left at the end."""
    return query(con, f"""
    SELECT board, count(*) AS player_games, sum(final) AS s_final, sum(final * final) AS ss_final
    FROM (SELECT board, game_id, player, arg_max(unspent, round) AS final
          FROM ({_turns(runs)}) GROUP BY ALL) GROUP BY ALL ORDER BY ALL""")


def totals(con: duckdb.DuckDBPyConnection, runs: Sequence[int],
           by: Sequence[str] = ()) -> pl.DataFrame:
    """Whole-game means per player (and board / agent): where the resource went."""
    if not set(by) <= {"board", "agent"}:
        raise ValueError(f"group the economy by board and/or agent, not {list(by)}")
    keys = "".join(f"{k}, " for k in by)
    sums = ", ".join(f"sum({c}) AS {c}" for c in FLOWS)
    means = ", ".join(f"avg({c}) AS {c}" for c in FLOWS)
    return query(con, f"""
    WITH t AS ({_turns(runs)}),
    player AS (SELECT {keys}game_id, player, {sums}, arg_max(unspent, round) AS final_resource
               FROM t GROUP BY ALL)
    SELECT {keys.rstrip(', ') or "'all' AS scope"}, count(*) AS player_games, {means},
           avg(final_resource) AS final_resource
    FROM player GROUP BY ALL ORDER BY ALL
    """)
