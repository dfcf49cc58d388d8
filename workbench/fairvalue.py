"""Fair values: where a contrast (improvement when bought) crosses a target along a sweep.

The contrast of a variant is the win rate of group A minus that of group B over seat-games:
for a card, A = seats that bought it and B = seats that drafted it but never bought it
(analysis/cards.py's definition, counted here per game so games can be resampled); for a board
setting, A = the first player and B = the others. A line is fitted through (value, contrast)
by weighted least squares (weights 1 / the contrast's binomial variance) and solved for the
target. Its interval comes from a bootstrap over games: game i of every variant started from
the same seed, so a replicate resamples game indices jointly across variants (paired); with
independent seeds each variant is resampled on its own.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import duckdb
import numpy as np
import numpy.typing as npt

from workbench.analysis.source import GAME_ID_RUN, in_runs, query

Array = npt.NDArray[np.float64]
BOOTSTRAP = 2000
LEVEL = 0.95


@dataclass(frozen=True)
class Counts:
    """Per variant (rows) and game index (columns): seat-games and wins of groups A and B."""

    n_a: Array
    w_a: Array
    n_b: Array
    w_b: Array

    def contrast(self) -> tuple[Array, Array]:
        """Per variant: win rate A minus win rate B, and its binomial variance (NaN if empty)."""
        na, nb = self.n_a.sum(axis=1), self.n_b.sum(axis=1)
        return _contrast(self.w_a.sum(axis=1), na, self.w_b.sum(axis=1), nb)


def _contrast(wa: Array, na: Array, wb: Array, nb: Array) -> tuple[Array, Array]:
    with np.errstate(divide="ignore", invalid="ignore"):
        pa, pb = wa / na, wb / nb
        # a rate of 0 or 1 would get infinite weight: shrink towards 1/2 for the variance only
        sa, sb = (wa + 1) / (na + 2), (wb + 1) / (nb + 2)
        var = sa * (1 - sa) / na + sb * (1 - sb) / nb
    return pa - pb, var


def card_counts(con: duckdb.DuckDBPyConnection, runs: Sequence[int], card: str,
                games: int) -> Counts:
    """Group A: seats that bought `card`; B: seats that drafted it and never bought it."""
    df = query(con, f"""
    WITH store AS (SELECT DISTINCT game_id, player AS seat FROM picks
                   WHERE card = $card AND {in_runs('game_id', runs)}),
    bought AS (SELECT DISTINCT game_id, player AS seat FROM events
               WHERE kind = 'buy' AND card = $card AND {in_runs('game_id', runs)})
    SELECT gs.run_id, gs.game_id % {GAME_ID_RUN} AS game_index,
           count(*) FILTER (WHERE b.seat IS NOT NULL) AS n_a,
           count(*) FILTER (WHERE b.seat IS NOT NULL AND gs.won) AS w_a,
           count(*) FILTER (WHERE b.seat IS NULL) AS n_b,
           count(*) FILTER (WHERE b.seat IS NULL AND gs.won) AS w_b
    FROM store s JOIN game_seats gs USING (game_id, seat) LEFT JOIN bought b USING (game_id, seat)
    GROUP BY ALL""".replace("$card", _literal(card)))
    return _fill(df.rows(), runs, games)


def first_player_counts(con: duckdb.DuckDBPyConnection, runs: Sequence[int],
                        games: int) -> Counts:
    """Group A: the first player; B: the other seats (first-player advantage)."""
    df = query(con, f"""
    SELECT gs.run_id, gs.game_id % {GAME_ID_RUN} AS game_index,
           count(*) FILTER (WHERE gs.seat = g.first_player) AS n_a,
           count(*) FILTER (WHERE gs.seat = g.first_player AND gs.won) AS w_a,
           count(*) FILTER (WHERE gs.seat <> g.first_player) AS n_b,
           count(*) FILTER (WHERE gs.seat <> g.first_player AND gs.won) AS w_b
    FROM game_seats gs JOIN games g USING (game_id)
    WHERE {in_runs('gs.game_id', runs)} GROUP BY ALL""")
    return _fill(df.rows(), runs, games)


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _fill(rows: Sequence[tuple[object, ...]], runs: Sequence[int], games: int) -> Counts:
    arrays = np.zeros((4, len(runs), games))
    where = {r: i for i, r in enumerate(runs)}
    for run_id, index, *values in rows:
        arrays[:, where[int(str(run_id))], int(str(index))] = [float(str(v)) for v in values]
    return Counts(*arrays)


def fit_zero(x: Array, y: Array, w: Array, target: float = 0.0) -> Array:
    """Per row of y and w: the x where the weighted line through (x, y) reaches `target`
    (NaN for a flat line). Rows are bootstrap replicates; a weight of 0 leaves a point out."""
    y = np.where(w > 0, y, 0.0)
    sw = w.sum(axis=-1)
    mx = (w * x).sum(axis=-1) / sw
    my = (w * y).sum(axis=-1) / sw
    sxy = (w * (x - mx[..., None]) * (y - my[..., None])).sum(axis=-1)
    sxx = (w * (x - mx[..., None]) ** 2).sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = sxy / sxx
        root = mx + (target - my) / slope
    return np.where(np.isfinite(root) & (np.abs(slope) > 1e-12), root, np.nan)


@dataclass(frozen=True)
class FairValue:
    """Where the contrast crosses the target: estimate and interval (None: no crossing in the
    swept range, or an interval end beyond it), the fitted line and a plain-words note."""

    estimate: float | None
    low: float | None
    high: float | None
    intercept: float
    slope: float
    note: str


def _weights(var: Array) -> Array:
    return np.where(np.isfinite(var) & (var > 0), 1.0 / np.where(var > 0, var, 1.0), 0.0)


def fair_value(values: Sequence[int], counts: Counts, target: float = 0.0, paired: bool = True,
               replicates: int = BOOTSTRAP, seed: int = 0) -> FairValue:
    """The value where the fitted contrast equals `target`, with a bootstrap interval."""
    x = np.asarray(values, dtype=float)
    y, var = counts.contrast()
    w = _weights(var)
    if (w > 0).sum() < 2:
        return FairValue(None, None, None, math.nan, math.nan,
                         "fewer than two values have both groups: nothing to fit")
    y0 = np.where(w > 0, y, 0.0)
    mx, my = np.average(x, weights=w), np.average(y0, weights=w)
    slope = float(np.sum(w * (x - mx) * (y0 - my)) / np.sum(w * (x - mx) ** 2))
    intercept = float(my - slope * mx)
    roots = bootstrap_roots(x, counts, target, paired, replicates, seed)
    lo_x, hi_x = float(x.min()), float(x.max())
    inside = np.isfinite(roots) & (roots >= lo_x) & (roots <= hi_x)
    tail = (1 - LEVEL) / 2
    ends = np.nanquantile(np.where(np.isfinite(roots), roots, np.nan), [tail, 1 - tail]) \
        if np.isfinite(roots).any() else np.array([np.nan, np.nan])
    low = float(ends[0]) if inside.mean() >= 1 - tail and lo_x <= ends[0] else None
    high = float(ends[1]) if inside.mean() >= 1 - tail and ends[1] <= hi_x else None
    root = float(fit_zero(x, y0, w, target)) if slope else math.nan
    if not (math.isfinite(root) and lo_x <= root <= hi_x):
        side = "above" if (intercept + slope * hi_x > target) else "below"
        return FairValue(None, low, high, intercept, slope,
                         f"no crossing in the swept range {lo_x:g}..{hi_x:g}: the fitted "
                         f"improvement stays {side} {target:+.2f} throughout")
    bounded = "" if low is not None and high is not None else (
        f"; in {100 * (1 - inside.mean()):.0f}% of bootstrap replicates the crossing lies "
        "outside the swept range, so the interval is open on that side")
    return FairValue(root, low, high, intercept, slope,
                     f"weighted line {intercept:+.3f} {slope:+.3f} x value crosses "
                     f"{target:+.2f} at {root:.2f}; {LEVEL:.0%} interval from {replicates} "
                     f"{'paired' if paired else 'independent'} bootstrap replicates{bounded}")


def bootstrap_roots(x: Array, counts: Counts, target: float, paired: bool, replicates: int,
                    seed: int) -> Array:
    """The crossing in each bootstrap replicate of the games."""
    samples = resample(counts, paired, replicates, seed)
    y, var = _contrast(*samples)
    return fit_zero(x, y, _weights(var), target)


def resample(counts: Counts, paired: bool, replicates: int,
             seed: int) -> tuple[Array, Array, Array, Array]:
    """Bootstrap sums (replicates x variants) of w_a, n_a, w_b, n_b over resampled games."""
    rng = np.random.default_rng(seed)
    variants, games = counts.n_a.shape
    arrays = (counts.w_a, counts.n_a, counts.w_b, counts.n_b)
    if paired:
        draws = rng.multinomial(games, np.full(games, 1 / games), size=replicates)
        a, b, c, d = (draws @ x.T for x in arrays)
    else:
        weights = rng.multinomial(games, np.full(games, 1 / games), size=(replicates, variants))
        a, b, c, d = (np.einsum("rvg,vg->rv", weights, x) for x in arrays)
    return a, b, c, d


def difference_interval(counts: Counts, i: int, j: int, paired: bool,
                        replicates: int = BOOTSTRAP, seed: int = 0) -> tuple[float, float, float]:
    """Contrast of variant j minus variant i with its bootstrap interval."""
    y, _ = counts.contrast()
    wa, na, wb, nb = resample(counts, paired, replicates, seed)
    yb, _ = _contrast(wa, na, wb, nb)
    d = yb[:, j] - yb[:, i]
    lo, hi = np.nanquantile(d, [(1 - LEVEL) / 2, 1 - (1 - LEVEL) / 2])
    return float(y[j] - y[i]), float(lo), float(hi)
