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

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass

import duckdb
import numpy as np
import numpy.typing as npt

from workbench.analysis.source import in_runs, query
from workbench.store.keys import GAME_ID_BASE

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


def card_counts(
    con: duckdb.DuckDBPyConnection, runs: Sequence[int], card: str, games: int
) -> Counts:
    """Group A: seats that bought `card`; B: seats that drafted it and never bought it."""
    df = query(
        con,
        f"""
    WITH store AS (SELECT DISTINCT game_id, player AS seat FROM picks
                   WHERE card = $card AND {in_runs("game_id", runs)}),
    bought AS (SELECT DISTINCT game_id, player AS seat FROM events
               WHERE kind = 'buy' AND card = $card AND {in_runs("game_id", runs)})
    SELECT gs.run_id, gs.game_id % {GAME_ID_BASE} AS game_index,
           count(*) FILTER (WHERE b.seat IS NOT NULL) AS n_a,
           count(*) FILTER (WHERE b.seat IS NOT NULL AND gs.won) AS w_a,
           count(*) FILTER (WHERE b.seat IS NULL) AS n_b,
           count(*) FILTER (WHERE b.seat IS NULL AND gs.won) AS w_b
    FROM store s JOIN game_seats gs USING (game_id, seat) LEFT JOIN bought b USING (game_id, seat)
    GROUP BY ALL""".replace("$card", _literal(card)),
    )
    return _fill(df.rows(), runs, games)


def first_player_counts(con: duckdb.DuckDBPyConnection, runs: Sequence[int], games: int) -> Counts:
    """Group A: the first player; B: the other seats (first-player advantage)."""
    df = query(
        con,
        f"""
    SELECT gs.run_id, gs.game_id % {GAME_ID_BASE} AS game_index,
           count(*) FILTER (WHERE gs.seat = g.first_player) AS n_a,
           count(*) FILTER (WHERE gs.seat = g.first_player AND gs.won) AS w_a,
           count(*) FILTER (WHERE gs.seat <> g.first_player) AS n_b,
           count(*) FILTER (WHERE gs.seat <> g.first_player AND gs.won) AS w_b
    FROM game_seats gs JOIN games g USING (game_id)
    WHERE {in_runs("gs.game_id", runs)} GROUP BY ALL""",
    )
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
    with np.errstate(divide="ignore", invalid="ignore"):  # a replicate without any weight
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
    swept range, or an interval end beyond it), the fitted line, a plain-words note, and how the
    bootstrap replicates fell: the share whose crossing lies below or above the swept range or
    that have none (a flat line), which say what would close an open interval."""

    estimate: float | None
    low: float | None
    high: float | None
    intercept: float
    slope: float
    note: str
    below: float = 0.0
    above: float = 0.0
    flat: float = 0.0

    def reach(self, target: float) -> float | None:
        """Where the fitted line reaches `target`, inside the swept range or not (None: flat)."""
        if not math.isfinite(self.slope) or abs(self.slope) < 1e-12:
            return None
        return (target - self.intercept) / self.slope


def _weights(var: Array) -> Array:
    return np.where(np.isfinite(var) & (var > 0), 1.0 / np.where(var > 0, var, 1.0), 0.0)


def fair_value(
    values: Sequence[int],
    counts: Counts,
    target: float = 0.0,
    paired: bool = True,
    replicates: int = BOOTSTRAP,
    seed: int = 0,
) -> FairValue:
    """The value where the fitted contrast equals `target`, with a bootstrap interval.

    An interval end is the 2.5% (97.5%) point of the replicates' crossings, a replicate without
    a crossing counting as beyond both ends; an end outside the swept range is open (None)."""
    x = np.asarray(values, dtype=float)
    y, var = counts.contrast()
    w = _weights(var)
    if (w > 0).sum() < 2:
        return FairValue(
            None,
            None,
            None,
            math.nan,
            math.nan,
            "fewer than two values have both groups (buyers and seats that never "
            "bought): nothing to fit; more games, or values where both occur",
        )
    y0 = np.where(w > 0, y, 0.0)
    mx, my = np.average(x, weights=w), np.average(y0, weights=w)
    slope = float(np.sum(w * (x - mx) * (y0 - my)) / np.sum(w * (x - mx) ** 2))
    intercept = float(my - slope * mx)
    roots = bootstrap_roots(x, counts, target, paired, replicates, seed)
    lo_x, hi_x = float(x.min()), float(x.max())
    low, high, shares = _interval(roots, lo_x, hi_x)
    games = counts.n_a.shape[1]
    line = FairValue(None, low, high, intercept, slope, "", **shares)
    root = float(fit_zero(x, y0, w, target)) if slope else math.nan
    if not (math.isfinite(root) and lo_x <= root <= hi_x):
        side = "above" if (intercept + slope * hi_x > target) else "below"
        return dataclasses.replace(
            line,
            note=(
                f"no crossing in the swept range {lo_x:g}..{hi_x:g}: the fitted line stays {side} "
                f"{target:+.2f} throughout; " + _beyond(line, target, lo_x, hi_x, games)
            ),
        )
    fit = (
        f"weighted line {intercept:+.3f} {slope:+.3f} x value crosses {target:+.2f} at "
        f"{root:.2f}; {LEVEL:.0%} interval from {replicates} "
        f"{'paired' if paired else 'independent'} bootstrap replicates"
    )
    opened = open_interval_words(line, lo_x, hi_x, games, replicates)
    return dataclasses.replace(line, estimate=root, note=fit + (f". {opened}" if opened else ""))


def _interval(
    roots: Array, lo_x: float, hi_x: float
) -> tuple[float | None, float | None, dict[str, float]]:
    """The interval's ends from the replicates' crossings (None: open, outside the swept range
    `lo_x`..`hi_x`) and the shares of replicates crossing below it, above it, or nowhere."""
    found = np.isfinite(roots)
    tail = (1 - LEVEL) / 2
    q_low = float(np.quantile(np.where(found, roots, -np.inf), tail, method="inverted_cdf"))
    q_high = float(np.quantile(np.where(found, roots, np.inf), 1 - tail, method="inverted_cdf"))
    low = q_low if math.isfinite(q_low) and q_low >= lo_x else None
    high = q_high if math.isfinite(q_high) and q_high <= hi_x else None
    shares = {
        "below": float((found & (roots < lo_x)).mean()),
        "above": float((found & (roots > hi_x)).mean()),
        "flat": float((~found).mean()),
    }
    return low, high, shares


def _beyond(f: FairValue, target: float, lo_x: float, hi_x: float, games: int) -> str:
    """What would find a crossing that the swept range does not hold (values are never
    negative: a line that reaches the target only below 0 is said to reach it nowhere)."""
    reach = f.reach(target)
    if reach is None or not math.isfinite(reach):
        return (
            f"the line is flat: more games per value (now {games}) would tell whether this "
            "value moves it at all"
        )
    if lo_x <= reach <= hi_x:  # the line crosses, but the estimate was refused (flat)
        return f"more games per value (now {games}) would steady the fit"
    if reach < 0:
        return (
            f"extended, the line would reach {target:+.2f} only at {reach:.1f}, and no "
            "value is below 0: no value of this field gets there"
        )
    side, edge = ("above", hi_x) if reach > hi_x else ("below", lo_x)
    return (
        f"extended, the line would reach {target:+.2f} near {reach:.1f}: values {side} "
        f"{edge:g} (a wider range) would show whether it does"
    )


def open_interval_words(f: FairValue, lo_x: float, hi_x: float, games: int, replicates: int) -> str:
    """A plain-words reason for each open end of the interval and what would close it: values
    beyond the swept range where replicates cross there, more games where the line is unsure
    (both help a wide interval); "" when both ends are known."""
    if f.low is not None and f.high is not None:
        return ""
    ends = (
        "open – open"
        if f.low is None and f.high is None
        else "open below"
        if f.low is None
        else "open above"
    )
    why = []
    if f.below >= 0.005:
        why.append(f"{f.below:.0%} cross below {lo_x:g} (the lowest value swept)")
    if f.above >= 0.005:
        why.append(f"{f.above:.0%} cross above {hi_x:g} (the highest)")
    if f.flat >= 0.005:
        why.append(f"{f.flat:.0%} never cross (a flat line)")
    wider = []
    if f.low is None and f.below >= (1 - LEVEL) / 2 and lo_x > 0:
        wider.append(f"below {lo_x:g}")
    if f.high is None and f.above >= (1 - LEVEL) / 2:
        wider.append(f"above {hi_x:g}")
    close = f"values {' and '.join(wider)} (a wider range) and " if wider else ""
    return (
        f"The {LEVEL:.0%} interval is {ends}: of {replicates} bootstrap replicates, "
        f"{', '.join(why) or 'too many cross outside the swept range'}. To close it: "
        f"{close}more games per value (now {games})."
    )


def in_words(fair: FairValue, values: Sequence[int], swept: str, what: str, target: float) -> str:
    """The fair value in one plain sentence: the value with its interval, how far an open
    interval is known, or why there is none (no crossing among `values`, swept as `swept`;
    `what` names the contrast, e.g. "the improvement when bought")."""
    lo_x, hi_x = min(values, default=0), max(values, default=0)
    swept_range = f"{lo_x:g} to {hi_x:g}"
    if fair.estimate is not None:
        est = f"The fair {swept} is {fair.estimate:.1f}"
        if fair.low is not None and fair.high is not None:
            return (
                f"{est} (95% interval {fair.low:.1f} to {fair.high:.1f}): there {what} crosses "
                f"{target:+.2f}."
            )
        if fair.low is not None:
            return (
                f"{est}, at least {fair.low:.1f}: its 95% interval reaches above the values "
                f"swept ({swept_range}), so how much higher is not known."
            )
        if fair.high is not None:
            return (
                f"{est}, at most {fair.high:.1f}: its 95% interval reaches below the values "
                f"swept ({swept_range}), so how much lower is not known."
            )
        return (
            f"{est} at a guess: its 95% interval reaches beyond the values swept "
            f"({swept_range}) at both ends."
        )
    none = f"There is no fair {swept} among the values swept ({swept_range})"
    if not math.isfinite(fair.slope):
        return (
            f"{none}: fewer than two of them have both buyers and seats that never bought it, "
            f"so {what} cannot be measured."
        )
    reach = fair.reach(target)
    if reach is None:
        return f"{none}: {what} does not change with {swept} in these games."
    side = "above" if fair.intercept + fair.slope * hi_x > target else "below"
    stays = f"{what} stays {side} {target:+.2f} at every value swept"
    if reach < 0:
        return (
            f"{none}: {stays}, and its line would reach it only at {reach:.1f}, below 0, where "
            f"no {swept} lies."
        )
    if lo_x <= reach <= hi_x:
        return f"{none}: {what} is too unsure to place a crossing; more games per value would."
    more, edge = ("higher", hi_x) if reach > hi_x else ("lower", lo_x)
    return (
        f"{none}: {stays}; its line would reach it near {reach:.1f}, so {more} values than "
        f"{edge:g} would show where."
    )


def bootstrap_roots(
    x: Array, counts: Counts, target: float, paired: bool, replicates: int, seed: int
) -> Array:
    """The crossing in each bootstrap replicate of the games."""
    samples = resample(counts, paired, replicates, seed)
    y, var = _contrast(*samples)
    return fit_zero(x, y, _weights(var), target)


def resample(
    counts: Counts, paired: bool, replicates: int, seed: int
) -> tuple[Array, Array, Array, Array]:
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


def difference_interval(
    counts: Counts, i: int, j: int, paired: bool, replicates: int = BOOTSTRAP, seed: int = 0
) -> tuple[float, float, float]:
    """Contrast of variant j minus variant i with its bootstrap interval."""
    y, _ = counts.contrast()
    wa, na, wb, nb = resample(counts, paired, replicates, seed)
    yb, _ = _contrast(wa, na, wb, nb)
    d = yb[:, j] - yb[:, i]
    lo, hi = np.nanquantile(d, [(1 - LEVEL) / 2, 1 - (1 - LEVEL) / 2])
    return float(y[j] - y[i]), float(lo), float(hi)
