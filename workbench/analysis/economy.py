"""The resource economy per round (R5, R7, R8.6, R18), from the snapshots table.

Snapshots are taken at the end of each player's turn. Their money columns are read as that
turn's flows, as the engine writes them (`Player.reset_counters` at every turn start; the
schema document's "cumulative" does not match the engine). Income is split into base, per unit and fields with the board's
numbers: base = the board's income, per unit = unit_income x units at the end of the player's
previous turn (an estimate: units can die in between), fields = the rest. Held = resource at the
end of the previous turn plus this turn's income (what the player had to spend); unspent = the
resource left at the end of the turn.
"""

from __future__ import annotations

from collections.abc import Sequence

import duckdb
import polars as pl

from workbench.analysis.source import in_runs, query

FLOWS = ("income", "spend_buy", "spend_play", "spend_upkeep", "spend_free", "discard_gain",
         "upkeep_paid", "upkeep_deaths")


def _turns(runs: Sequence[int]) -> str:
    """SQL: one row per player-turn with this turn's flows and the income split."""
    flows = ", ".join(f"s.{c}" for c in FLOWS)
    return f"""
    SELECT s.game_id, s.round, s.player, g.board, gs.agent, s.resource AS unspent,
           coalesce(lag(s.resource) OVER w, 0) AS before, coalesce(lag(s.units) OVER w, 0)
               AS units_before, coalesce(b.income, 0) AS board_income,
           coalesce(b.unit_income, 0) AS board_unit_income,
           {flows}
    FROM snapshots s JOIN games g USING (game_id)
    JOIN game_seats gs ON gs.game_id = s.game_id AND gs.seat = s.player
    LEFT JOIN run_boards b ON b.run_id = g.run_id AND b.board = g.board
    WHERE {in_runs('s.game_id', runs)}
    WINDOW w AS (PARTITION BY s.game_id, s.player ORDER BY s.round)
    """


def per_round(con: duckdb.DuckDBPyConnection, runs: Sequence[int],
              by: Sequence[str] = ()) -> pl.DataFrame:
    """Mean per player-turn, per round (and board / agent): held, income split, spends, unspent."""
    if not set(by) <= {"board", "agent"}:
        raise ValueError(f"group the economy by board and/or agent, not {list(by)}")
    keys = "".join(f"{k}, " for k in by)
    return query(con, f"""
    WITH t AS ({_turns(runs)}),
    split AS (
        SELECT *, before + income AS held,
               greatest(least(board_income, income), 0) AS income_base,
               greatest(least(board_unit_income * units_before,
                              income - greatest(least(board_income, income), 0)), 0)
                   AS income_units
        FROM t)
    SELECT {keys}round, count(*) AS turns, avg(held) AS held, avg(income) AS income,
           avg(income_base) AS income_base, avg(income_units) AS income_units,
           avg(income - income_base - income_units) AS income_fields,
           avg(spend_buy) AS spend_buy, avg(spend_play) AS spend_play,
           avg(spend_upkeep) AS spend_upkeep, avg(spend_free) AS spend_free,
           avg(discard_gain) AS discard_gain, avg(unspent) AS unspent,
           sum(upkeep_deaths) AS upkeep_deaths
    FROM split GROUP BY ALL ORDER BY ALL
    """)


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
