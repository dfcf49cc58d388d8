"""The evidence set beside each card's verdict: how the seats that drafted
it fared against the run's base rate, how often it was first-picked, and what it did per
resource paid for it against the set's curve.

The verdict itself rests on the causal effect (verdicts.py); these figures are the agents'
own play when they come from an observational run, so they show what the agents made of the
card, not what it is worth. Each is read from a statistic defined elsewhere
(cards.card_table: win rate when drafted, damage dealt; draft.card_picks: first-pick rate) or
from the summary tables' resource paid and gained (workbench/store/summary.py).
"""

from __future__ import annotations

import polars as pl

from workbench.analysis import cards, draft
from workbench.analysis.runs import Runs, design_runs
from workbench.analysis.source import in_runs, query, run_list

OWN_PLAY = "agents' own play"
DESIGN = "randomised buying design"

SCHEMA: dict[str, type[pl.DataType]] = {
    "evidence": pl.String,
    "drafted": pl.Int64,
    "wr_drafted": pl.Float64,
    "wr_drafted_lo": pl.Float64,
    "wr_drafted_hi": pl.Float64,
    "wr_base": pl.Float64,
    "seen_first": pl.Int64,
    "first_pick": pl.Float64,
    "first_pick_lo": pl.Float64,
    "first_pick_hi": pl.Float64,
    "paid": pl.Int64,
    "damage": pl.Int64,
    "gained": pl.Int64,
    "dmg_per_paid": pl.Float64,
    "dmg_curve": pl.Float64,
    "gain_per_paid": pl.Float64,
    "gain_curve": pl.Float64,
}
"""The evidence columns (documented in verdicts.SCHEMA, whose table they join)."""

RATIOS = (("damage", "dmg_per_paid", "dmg_curve"), ("gained", "gain_per_paid", "gain_curve"))
"""What a card did, its amount per resource paid and the curve that amount is set against."""


def label(r: Runs) -> str:
    """Whose play the evidence shows: the design's when the runs played it, else the agents'."""
    kind = DESIGN if design_runs(r.con, r.runs) else OWN_PLAY
    return f"{kind} (run {', '.join(map(str, r.runs))})"


def _paid_and_gained(r: Runs) -> pl.DataFrame:
    """Per card, the resource paid for it (summary_cards.paid) and gained by its effects
    (summary_damage.gained) in the runs."""
    return query(
        r.con,
        f"""
    WITH paid AS (SELECT card, sum(paid) AS paid FROM summary_cards
                  WHERE {in_runs("game_id", r.runs)} GROUP BY card),
    gained AS (SELECT card, sum(gained) AS gained FROM summary_damage
               WHERE {in_runs("game_id", r.runs)} GROUP BY card)
    SELECT card, paid, gained FROM paid FULL JOIN gained USING (card)""",
    )


def card_evidence(r: Runs, pool: pl.DataFrame) -> pl.DataFrame:
    """Every card of `pool` (card, set, type) with its evidence columns from the runs: counts 0
    and rates NULL for a card they never drafted, saw or paid for."""
    picks = draft.card_picks(r)
    base = r.con.execute(
        f"SELECT avg(won::INT) FROM game_seats WHERE run_id IN ({run_list(r.runs)})"
    ).fetchall()[0][0]
    money = _paid_and_gained(r)
    drafted = cards.card_table(r).select(
        "card",
        pl.col("in_store").alias("drafted"),
        pl.col("wr_in_store").alias("wr_drafted"),
        pl.col("wr_in_store_lo").alias("wr_drafted_lo"),
        pl.col("wr_in_store_hi").alias("wr_drafted_hi"),
        pl.col("damage_dealt").alias("damage"),
    )
    first = picks.select(
        "card",
        "seen_first",
        pl.col("first_pick_rate").alias("first_pick"),
        pl.col("first_pick_rate_lo").alias("first_pick_lo"),
        pl.col("first_pick_rate_hi").alias("first_pick_hi"),
    )
    out = (
        pool.select("card", "set", "type")
        .join(money, on="card", how="left")
        .join(drafted, on="card", how="left")
        .join(first, on="card", how="left")
        .with_columns(
            pl.col("drafted", "seen_first", "paid", "damage", "gained").fill_null(0),
            pl.lit(label(r)).alias("evidence"),
            pl.lit(base, pl.Float64).alias("wr_base"),
        )
        .with_columns(
            pl.when(pl.col("paid") > 0).then(pl.col(did) / pl.col("paid")).alias(ratio)
            for did, ratio, _ in RATIOS
        )
        # the set's curve: the median ratio over the pool cards of the same set and type
        # (the card included; a card never paid for has no ratio and does not count)
        .with_columns(
            pl.col(ratio).median().over("set", "type").alias(curve) for _, ratio, curve in RATIOS
        )
    )
    return out.select(pl.col("card"), *(pl.col(c).cast(t) for c, t in SCHEMA.items()))
