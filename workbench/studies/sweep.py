"""Cost sweeps: one card field or one board setting over given values, every value a paired
variant run; the card's metrics per value and the fair value where the improvement when bought
crosses the target (workbench/studies/fairvalue.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import duckdb
import polars as pl
from rich.console import Console

from workbench.analysis import cards, draft, shape
from workbench.analysis.runs import Runs
from workbench.analysis.sets import win_rates
from workbench.analysis.source import open_db
from workbench.analysis.stats import with_gain_ci as with_gain_ci
from workbench.content.variants import Change
from workbench.store import RunSpec
from workbench.studies.fairvalue import (
    Counts,
    FairValue,
    card_counts,
    fair_value,
    first_player_counts,
)
from workbench.studies.study import Study, Variant, record_results, run_study


def card_variants(card: str, field: str, values: Sequence[int | None]) -> list[Variant]:
    return [
        Variant(
            Change(card=card, field=field, value=v).label(),
            (Change(card=card, field=field, value=v),),
            v,
        )
        for v in values
    ]


def board_variants(setting: str, values: Sequence[int]) -> list[Variant]:
    return [
        Variant(Change(setting=setting, value=v).label(), (Change(setting=setting, value=v),), v)
        for v in values
    ]


def card_metrics(r: Runs, study: Study, card: str) -> pl.DataFrame:
    """Per variant: the card's pick rate, buy rate, win rates and improvement when bought (`r`:
    a context over the study's runs)."""
    rows = []
    for v, run in study.runs:
        res = cards.card_results(r.of([run])).filter(pl.col("card") == card)
        picks = draft.card_picks(r.of([run])).filter(pl.col("card") == card)
        if res.height == 0 or picks.height == 0:
            res = res.clear(1)
            picks = picks.clear(1)
        rows.append(
            pl.concat(
                [
                    pl.DataFrame(
                        {"variant": [v.label], "value": [v.value], "run_id": [run]},
                        schema={"variant": pl.String, "value": pl.Int64, "run_id": pl.Int64},
                    ),
                    res.drop("card", "set"),
                    picks.select("seen", "picks", "pick_rate", "pick_rate_lo", "pick_rate_hi"),
                ],
                how="horizontal",
            )
        )
    return with_gain_ci(pl.concat(rows, how="vertical_relaxed"))


def board_metrics(r: Runs, study: Study) -> pl.DataFrame:
    """Per variant: first-player win rate, draws, game length (`r`: a context over the study's
    runs)."""
    rows = []
    for v, run in study.runs:
        first = win_rates(r.of([run]), ["first"])
        lead = (
            first.filter(pl.col("first"))
            .select(
                pl.col("seats").alias("first_games"),
                pl.col("wins").alias("first_wins"),
                "win_rate",
                "win_rate_lo",
                "win_rate_hi",
            )
            .rename(lambda c: c.replace("win_rate", "first_win_rate"))
        )
        others = first.filter(~pl.col("first")).select(
            pl.col("win_rate").alias("others_win_rate"),
            pl.col("win_rate_lo").alias("others_win_rate_lo"),
            pl.col("win_rate_hi").alias("others_win_rate_hi"),
        )
        summ = shape.summary(r.of([run])).filter(pl.col("board") == "all").drop("board")
        rows.append(
            pl.concat(
                [
                    pl.DataFrame(
                        {"variant": [v.label], "value": [v.value], "run_id": [run]},
                        schema={"variant": pl.String, "value": pl.Int64, "run_id": pl.Int64},
                    ),
                    lead,
                    others,
                    summ,
                ],
                how="horizontal",
            )
        )
    return with_gain_ci(
        pl.concat(rows, how="vertical_relaxed"),
        "first_win_rate",
        "others_win_rate",
        "first_advantage",
    ).with_columns((pl.col("first_win_rate") - pl.col("others_win_rate")).alias("first_advantage"))


@dataclass(frozen=True)
class SweepResult:
    """A sweep's metrics per variant and its fair value."""

    study: Study
    metrics: pl.DataFrame
    fair: FairValue
    counts: Counts
    quantity: str


def analyse(
    con: duckdb.DuckDBPyConnection,
    study: Study,
    games: int,
    target: float = 0.0,
    paired: bool = True,
) -> SweepResult:
    """Metrics per variant and the fair value (card: improvement when bought; board setting:
    the first player's advantage)."""
    values = [v.value if v.value is not None else 0 for v, _ in study.runs]
    r = Runs(con, study.run_ids)
    if study.card:
        counts = card_counts(con, study.run_ids, study.card, games)
        metrics = card_metrics(r, study, study.card)
        quantity = "fair_value"
    else:
        counts = first_player_counts(con, study.run_ids, games)
        metrics = board_metrics(r, study)
        quantity = "first_player_neutral_value"
    return SweepResult(study, metrics, fair_value(values, counts, target, paired), counts, quantity)


def result_rows(
    res: SweepResult,
) -> list[tuple[str, str, float | None, float | None, float | None, str]]:
    """sweep_results rows: the fair value and the contrast at every value."""
    f = res.fair
    rows: list[tuple[str, str, float | None, float | None, float | None, str]] = [
        (res.study.card, res.quantity, f.estimate, f.low, f.high, f.note)
    ]
    name = "bought_gain" if res.study.card else "first_advantage"
    for r in res.metrics.iter_rows(named=True):
        rows.append(
            (
                res.study.card,
                f"{name}@{r['variant']}",
                r[name],
                r[f"{name}_lo"],
                r[f"{name}_hi"],
                f"run {r['run_id']}",
            )
        )
    return rows


def sweep_study(
    db: str | Path,
    base: RunSpec,
    card: str,
    field: str,
    variants: list[Variant],
    target: float,
    independent: bool,
    workers: int,
    console: Console,
) -> tuple[Study, SweepResult]:
    """Play one run per variant (`workbench sweep`: a card's `field`, or a board setting when
    `card` is empty), analyse it against `target` and record the result."""
    study = run_study(
        db, base, "sweep", card, field, variants, workers, console, independent=independent
    )
    with open_db(db) as con:
        res = analyse(con, study, base.games, target, not independent)
    record_results(db, study.sweep_id, result_rows(res))
    return study, res
