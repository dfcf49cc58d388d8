"""Tuning a set: flag the cards whose improvement when bought lies significantly outside a band,
sweep their cost around the current one on shared seeds, and propose the integer nearest to the
value where the improvement reaches the band's middle."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import duckdb
import polars as pl
from rich.console import Console

from workbench.analysis import cards
from workbench.store import RunSpec
from workbench.study import record_results, run_study
from workbench.sweep import SweepResult, analyse, card_variants, result_rows, with_gain_ci


def flag(con: duckdb.DuckDBPyConnection, run: int, set_name: str,
         band: tuple[float, float]) -> pl.DataFrame:
    """The set's cards with their improvement when bought and interval; `verdict` is
    'too strong' when the whole interval is above the band, 'too weak' when below, else ''."""
    df = with_gain_ci(cards.card_results(con, [run])).filter(
        pl.col("set").str.to_lowercase() == set_name.casefold())
    low, high = band
    verdict = (pl.when(pl.col("bought_gain_lo") > high).then(pl.lit("too strong"))
               .when(pl.col("bought_gain_hi") < low).then(pl.lit("too weak"))
               .otherwise(pl.lit("")))
    return df.with_columns(verdict.fill_null("").alias("verdict"))


def sweep_values(current: int, span: int, minimum: int = 0) -> list[int]:
    """The current value and `span` steps either side, never below `minimum`."""
    return [v for v in range(current - span, current + span + 1) if v >= minimum]


@dataclass(frozen=True)
class CardTuning:
    """One flagged card: its sweep and the proposal (None when the sweep found none)."""

    card: str
    field: str
    current: int
    verdict: str
    sweep: SweepResult
    proposed: int | None
    note: str


def tune_card(db: str, base: RunSpec, card: str, field: str, current: int, verdict: str,
              span: int, band: tuple[float, float], workers: int,
              console: Console) -> CardTuning:
    """Sweep `field` of `card` around `current` and propose the fair value, rounded."""
    from workbench.analysis.source import open_db

    target = (band[0] + band[1]) / 2
    values = sweep_values(current, span, 1 if field == "buy" else 0)
    study = run_study(db, base, "tune", card, field, card_variants(card, field, values), workers,
                      console)
    con = open_db(db)
    try:
        res = analyse(con, study, base.games, target)
    finally:
        con.close()
    proposed = None if res.fair.estimate is None else round(res.fair.estimate)
    note = res.fair.note
    if proposed is not None and proposed == current:
        note = f"the fair value rounds to the current {current}; " + note
        proposed = None
    rows = result_rows(res)
    rows.append((card, f"proposed_{field}", None if proposed is None else float(proposed),
                 res.fair.low, res.fair.high, f"{verdict}; current {current}; {note}"))
    record_results(db, study.sweep_id, rows)
    return CardTuning(card, field, current, verdict, res, proposed, note)


def before_after(tunings: Sequence[CardTuning]) -> pl.DataFrame:
    """Per flagged card: the improvement at the current and at the proposed value."""
    rows = []
    for t in tunings:
        m = t.sweep.metrics

        def at(value: int | None, col: str, m: pl.DataFrame = m) -> float | None:
            if value is None:
                return None
            hit = m.filter(pl.col("value") == value)
            return None if hit.height == 0 else hit.get_column(col)[0]
        f = t.sweep.fair
        rows.append({"card": t.card, "field": t.field, "verdict": t.verdict,
                     "current": t.current, "proposed": t.proposed,
                     "fair_value": f.estimate, "fair_low": f.low, "fair_high": f.high,
                     "gain_before": at(t.current, "bought_gain"),
                     "gain_after": at(t.proposed, "bought_gain"),
                     "buy_rate_before": at(t.current, "buy_rate"),
                     "buy_rate_after": at(t.proposed, "buy_rate"), "note": t.note})
    schema = {"card": pl.String, "field": pl.String, "verdict": pl.String, "current": pl.Int64,
              "proposed": pl.Int64, "fair_value": pl.Float64, "fair_low": pl.Float64,
              "fair_high": pl.Float64, "gain_before": pl.Float64, "gain_after": pl.Float64,
              "buy_rate_before": pl.Float64, "buy_rate_after": pl.Float64, "note": pl.String}
    return pl.DataFrame(rows, schema=schema)
