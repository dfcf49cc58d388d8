"""Card value by ablation: the card against a plain baseline of the same costs on the same seeds.

A causal measure beside the observational ones: the seats that drafted the card in the original
run are compared with the very same seats and seeds in the run where the card was replaced by
its baseline (`variants.baseline_of`, same name), so the only difference is the card. The
interval comes from a bootstrap over game indices (paired), and a sign test on the seat-games
whose result changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import duckdb
import numpy as np
import polars as pl
from rich.console import Console
from scipy import stats

from workbench.analysis.runs import Runs
from workbench.analysis.source import in_runs, open_db, query
from workbench.content.variants import Change
from workbench.store import RunSpec
from workbench.store.keys import GAME_ID_BASE
from workbench.studies.fairvalue import BOOTSTRAP, LEVEL
from workbench.studies.study import Study, Variant, record_results, run_study
from workbench.studies.sweep import card_metrics


@dataclass(frozen=True)
class Ablation:
    """Win rate of the card's seats with the card and with the baseline, and the change."""

    seats: int
    with_card: float
    with_baseline: float
    change: float
    low: float
    high: float
    p_value: float
    gained: int
    lost: int


def ablate(
    con: duckdb.DuckDBPyConnection,
    original: int,
    baseline: int,
    card: str,
    replicates: int = BOOTSTRAP,
    seed: int = 0,
) -> Ablation:
    """Paired comparison over the seat-games where the original run's seat drafted `card`."""
    name = "'" + card.replace("'", "''") + "'"
    df = query(
        con,
        f"""
    WITH holders AS (SELECT DISTINCT game_id % {GAME_ID_BASE} AS game_index, player AS seat
                     FROM picks WHERE card = {name} AND {in_runs("game_id", [original])}),
    o AS (SELECT game_id % {GAME_ID_BASE} AS game_index, seat, won::INT AS won FROM game_seats
          WHERE run_id = {int(original)}),
    b AS (SELECT game_id % {GAME_ID_BASE} AS game_index, seat, won::INT AS won FROM game_seats
          WHERE run_id = {int(baseline)})
    SELECT h.game_index, o.won AS won_card, b.won AS won_base
    FROM holders h JOIN o USING (game_index, seat) JOIN b USING (game_index, seat)
    ORDER BY h.game_index""",
    )
    if df.height == 0:
        raise ValueError(f"no seat drafted {card!r} in run {original}: nothing to compare")
    games = df.get_column("game_index").to_numpy()
    a = df.get_column("won_card").to_numpy().astype(float)
    b = df.get_column("won_base").to_numpy().astype(float)
    uniq, idx = np.unique(games, return_inverse=True)
    per_a, per_b, per_n = (
        np.bincount(idx, weights=w, minlength=uniq.size) for w in (a, b, np.ones_like(a))
    )
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(uniq.size, np.full(uniq.size, 1 / uniq.size), size=replicates)
    diff = (draws @ per_a - draws @ per_b) / (draws @ per_n)
    tail = (1 - LEVEL) / 2
    lo, hi = np.quantile(diff, [tail, 1 - tail])
    gained, lost = int(((a == 1) & (b == 0)).sum()), int(((a == 0) & (b == 1)).sum())
    p = float(stats.binomtest(gained, gained + lost).pvalue) if gained + lost else 1.0
    return Ablation(
        int(a.size),
        float(a.mean()),
        float(b.mean()),
        float(a.mean() - b.mean()),
        float(lo),
        float(hi),
        p,
        gained,
        lost,
    )


@dataclass(frozen=True)
class AblationStudy:
    """A played ablation: the stored study, the change, and the card's metrics in both runs."""

    study: Study
    result: Ablation
    metrics: pl.DataFrame


def ablation_study(
    db: str | Path, base: RunSpec, card: str, workers: int, console: Console
) -> AblationStudy:
    """Play `card` and its baseline on the same seeds (`workbench ablate`) and record the
    change in the study's results."""
    variants = [Variant("original"), Variant("baseline", (Change(card=card, baseline=True),))]
    st = run_study(db, base, "ablate", card, "baseline", variants, workers, console)
    with open_db(db) as con:
        result = ablate(con, st.run_ids[0], st.run_ids[1], card)
        metrics = card_metrics(Runs(con, st.run_ids), st, card)
    record_results(
        db,
        st.sweep_id,
        [
            (
                card,
                "ablation_win_rate_change",
                result.change,
                result.low,
                result.high,
                f"{result.seats} seat-games: win rate {result.with_card:.3f} with the card, "
                f"{result.with_baseline:.3f} with the baseline; results changed in "
                f"{result.gained + result.lost} (sign test p = {result.p_value:.3g})",
            )
        ],
    )
    return AblationStudy(st, result, metrics)
