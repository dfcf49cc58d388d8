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

import polars as pl

from workbench.analysis.runs import Runs
from workbench.analysis.source import in_runs, query, run_list
from workbench.analysis.stats import with_rate
from workbench.store import summary

FLOWS = summary.FLOWS


def _rounds(runs: Sequence[int]) -> str:
    """SQL: the per-round sums of the runs (workbench/store/summary.py)."""
    return f"SELECT * FROM summary_rounds WHERE run_id IN ({run_list(runs)})"


def _players(runs: Sequence[int]) -> str:
    """SQL: one row per seat-game with snapshots: its board, agent, flow sums and final
    resource (workbench/store/summary.py)."""
    return f"""
    SELECT g.board, gs.agent, t.* FROM summary_seats t JOIN games g USING (game_id)
    JOIN game_seats gs ON gs.game_id = t.game_id AND gs.seat = t.seat
    WHERE t.turns > 0 AND {in_runs("t.game_id", runs)}"""


def per_round(r: Runs, by: Sequence[str] = ()) -> pl.DataFrame:
    """Mean per player-turn, per round (and board / agent): resource carried over from the
    previous turn, held, income split, gains, spends, losses, unspent; upkeep's share of income;
    buys with their share of turns (Wilson) and the resource and store cards at the buy step."""
    if not set(by) <= {"board", "agent"}:
        raise ValueError(f"group the economy by board and/or agent, not {list(by)}")
    keys = "".join(f"{k}, " for k in by)
    means = ", ".join(f"sum(s_{c}) / sum(turns) AS {c}" for c in summary.TURN_MEANS)
    df = query(
        r.con,
        f"""
    SELECT {keys}round, sum(turns) AS turns, sum(s_before) / sum(turns) AS carried, {means},
           sum(s_spend_upkeep) / nullif(sum(s_income), 0) AS upkeep_share,
           sum(s_bought) AS buys, sum(s_buy_resource) / sum(turns) AS buy_resource,
           sum(s_store_cards) / sum(turns) AS store_cards, sum(s_upkeep_deaths) AS upkeep_deaths
    FROM ({_rounds(r.runs)}) GROUP BY ALL ORDER BY ALL
    """,
    )
    return with_rate(df, "buys", "turns", "buy_share")


def round_sums(r: Runs) -> pl.DataFrame:
    """Per board and round: player-turns, buys, and the sums, squares and cross products of
    income, upkeep and unspent resource (for intervals of means and ratios, stats.py)."""
    return query(
        r.con,
        f"""
    SELECT board, round, sum(turns) AS turns, sum(s_bought) AS buys,
           sum(s_income) AS s_income, sum(s_spend_upkeep) AS s_upkeep,
           sum(ss_income) AS ss_income, sum(ss_upkeep) AS ss_upkeep,
           sum(s_income_upkeep) AS s_income_upkeep,
           sum(s_unspent) AS s_unspent, sum(ss_unspent) AS ss_unspent
    FROM ({_rounds(r.runs)}) GROUP BY ALL ORDER BY ALL""",
    )


def final_sums(r: Runs) -> pl.DataFrame:
    """Per board: player-games and the sum and squares of the resource left at the end."""
    return query(
        r.con,
        f"""
    SELECT board, count(*) AS player_games, sum(final_resource) AS s_final,
           sum(final_resource * final_resource) AS ss_final
    FROM ({_players(r.runs)}) GROUP BY ALL ORDER BY ALL""",
    )


def totals(r: Runs, by: Sequence[str] = ()) -> pl.DataFrame:
    """Whole-game means per player (and board / agent): where the resource went."""
    if not set(by) <= {"board", "agent"}:
        raise ValueError(f"group the economy by board and/or agent, not {list(by)}")
    keys = "".join(f"{k}, " for k in by)
    means = ", ".join(f"avg({c}) AS {c}" for c in FLOWS)
    return query(
        r.con,
        f"""
    SELECT {keys.rstrip(", ") or "'all' AS scope"}, count(*) AS player_games, {means},
           avg(final_resource) AS final_resource
    FROM ({_players(r.runs)}) GROUP BY ALL ORDER BY ALL
    """,
    )
