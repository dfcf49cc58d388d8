"""Confidence intervals, two-proportion tests and multiple-testing corrections (scipy.stats).

Rates come with a Wilson interval (scipy's binomtest), which behaves at 0 % and 100 % and with
small samples, where the normal interval does not. Differences between two rates use the pooled
two-proportion z test; with one test per card, Holm (family-wise) and Benjamini-Hochberg (false
discovery rate) adjust the p-values, and `expected_by_chance` says how many "significant" cards
noise alone would give.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import polars as pl
from scipy import stats

from workbench.analysis.evenness import MIN_SAMPLE as MIN_SAMPLE

ALPHA = 0.05
LEVEL = 0.95


def proportion_ci(k: int, n: int, level: float = LEVEL) -> tuple[float, float]:
    """Wilson interval of k successes in n trials; NaNs when there is no trial."""
    if n <= 0:
        return math.nan, math.nan
    ci = stats.binomtest(int(k), int(n)).proportion_ci(confidence_level=level, method="wilson")
    return float(ci.low), float(ci.high)


def with_rate(df: pl.DataFrame, k: str, n: str, name: str) -> pl.DataFrame:
    """Add `name` = k/n with `name_lo`, `name_hi` (Wilson); NULL where n is 0."""
    ks = df.get_column(k).cast(pl.Int64).fill_null(0).to_list()
    ns = df.get_column(n).cast(pl.Int64).fill_null(0).to_list()
    cis = [proportion_ci(a, b) for a, b in zip(ks, ns, strict=True)]
    return df.with_columns(
        pl.Series(
            name, [a / b if b else None for a, b in zip(ks, ns, strict=True)], dtype=pl.Float64
        ),
        pl.Series(
            f"{name}_lo", [c[0] if not math.isnan(c[0]) else None for c in cis], dtype=pl.Float64
        ),
        pl.Series(
            f"{name}_hi", [c[1] if not math.isnan(c[1]) else None for c in cis], dtype=pl.Float64
        ),
    )


def two_proportion_p(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided p-value of the pooled z test that k1/n1 and k2/n2 are equal; NaN if undefined."""
    if n1 <= 0 or n2 <= 0:
        return math.nan
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return 1.0
    z = (k1 / n1 - k2 / n2) / se
    return float(2 * stats.norm.sf(abs(z)))


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm step-down adjusted p-values (family-wise error); NaNs stay NaN and are not counted."""
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    idx = np.flatnonzero(~np.isnan(p))
    m = idx.size
    if m == 0:
        return [float(x) for x in out]
    order = idx[np.argsort(p[idx], kind="stable")]
    adjusted = np.maximum.accumulate((m - np.arange(m)) * p[order])
    out[order] = np.minimum(adjusted, 1.0)
    return [float(x) for x in out]


def benjamini_hochberg(pvalues: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg adjusted p-values (q-values); NaNs stay NaN and are not counted."""
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if ok.any():
        out[ok] = stats.false_discovery_control(p[ok], method="bh")
    return [float(x) for x in out]


def expected_by_chance(tests: int, alpha: float = ALPHA) -> float:
    """How many of `tests` true-null comparisons come out below alpha on average."""
    return tests * alpha


def with_difference_tests(
    df: pl.DataFrame, k1: str, n1: str, k2: str, n2: str, prefix: str
) -> pl.DataFrame:
    """Add `prefix_p`, `prefix_holm`, `prefix_bh` and `prefix_significant` (Holm < ALPHA)."""
    rows = zip(
        *(df.get_column(c).cast(pl.Int64).fill_null(0).to_list() for c in (k1, n1, k2, n2)),
        strict=True,
    )
    ps = [two_proportion_p(a, b, c, d) for a, b, c, d in rows]
    adj = holm(ps)
    return df.with_columns(
        pl.Series(f"{prefix}_p", ps, dtype=pl.Float64).fill_nan(None),
        pl.Series(f"{prefix}_holm", adj, dtype=pl.Float64).fill_nan(None),
        pl.Series(f"{prefix}_bh", benjamini_hochberg(ps), dtype=pl.Float64).fill_nan(None),
        pl.Series(
            f"{prefix}_significant",
            [a < ALPHA if not math.isnan(a) else False for a in adj],
            dtype=pl.Boolean,
        ),
    )


def difference_summary(df: pl.DataFrame, prefix: str, alpha: float = ALPHA) -> dict[str, float]:
    """Tests run, raw p < alpha, expected by chance, significant after Holm and after BH."""
    p = df.get_column(f"{prefix}_p").drop_nulls()
    return {
        "tests": float(p.len()),
        "raw_below_alpha": float((p < alpha).sum()),
        "expected_by_chance": expected_by_chance(p.len(), alpha),
        "holm_significant": float((df.get_column(f"{prefix}_holm").drop_nulls() < alpha).sum()),
        "bh_significant": float((df.get_column(f"{prefix}_bh").drop_nulls() < alpha).sum()),
    }


def with_gain_ci(
    df: pl.DataFrame, a: str = "wr_bought", b: str = "wr_never_bought", name: str = "bought_gain"
) -> pl.DataFrame:
    """Newcombe's interval of a difference of two rates from their Wilson intervals."""
    lo = (
        pl.col(a)
        - pl.col(b)
        - ((pl.col(a) - pl.col(f"{a}_lo")) ** 2 + (pl.col(f"{b}_hi") - pl.col(b)) ** 2).sqrt()
    )
    hi = (
        pl.col(a)
        - pl.col(b)
        + ((pl.col(f"{a}_hi") - pl.col(a)) ** 2 + (pl.col(b) - pl.col(f"{b}_lo")) ** 2).sqrt()
    )
    return df.with_columns(lo.alias(f"{name}_lo"), hi.alias(f"{name}_hi"))


def mean_ci(
    n: int, total: float, squares: float, level: float = LEVEL
) -> tuple[float, float, float]:
    """Mean with its t interval from the count, sum and sum of squares (aggregated in SQL, so
    100,000 games never reach Python row by row); NaNs for no value."""
    if n <= 0:
        return math.nan, math.nan, math.nan
    m = total / n
    if n == 1:
        return m, m, m
    var = max(squares - total * total / n, 0.0) / (n - 1)
    half = float(stats.t.ppf((1 + level) / 2, n - 1)) * math.sqrt(var / n)
    return m, m - half, m + half


def ratio_ci(
    n: int, sx: float, sy: float, sxx: float, syy: float, sxy: float, level: float = LEVEL
) -> tuple[float, float, float]:
    """sum(x) / sum(y) over n observations (e.g. upkeep's share of income over player-turns)
    with a delta-method interval, from sums, squares and cross products; NaNs when y sums to 0."""
    if n <= 0 or sy == 0:
        return math.nan, math.nan, math.nan
    r = sx / sy
    if n == 1:
        return r, r, r
    var = max(sxx - 2 * r * sxy + r * r * syy, 0.0) / (n - 1)
    se = math.sqrt(var / n) / (sy / n)
    z = float(stats.norm.ppf((1 + level) / 2))
    return r, r - z * se, r + z * se


def shrunk_rates(wins: Sequence[int], trials: Sequence[int]) -> tuple[list[float | None], float]:
    """Empirical-Bayes rates: each k/n pulled toward the pooled rate by a beta prior whose
    strength K is fitted to the rows by the method of moments (K large when the rows differ
    little beyond binomial noise), so (k + K m) / (n + K). A card bought once and won ranks
    near the average, not at the top. Returns the rates (None where n = 0) and K."""
    k = np.asarray(wins, dtype=float)
    n = np.asarray(trials, dtype=float)
    ok = n > 0
    if not ok.any():
        return [None] * len(n), 0.0
    total = n[ok].sum()
    m = float(k[ok].sum() / total)
    p = k[ok] / n[ok]
    spread = float((n[ok] * (p - m) ** 2).sum()) - m * (1 - m) * (ok.sum() - 1)
    weight = float(total - (n[ok] ** 2).sum() / total)
    between = spread / weight if weight > 0 else 0.0
    strength = (m * (1 - m) / between - 1) if between > 0 else float(total)
    strength = min(max(strength, 1.0), float(total))
    return [
        float((a + strength * m) / (b + strength)) if b > 0 else None
        for a, b in zip(k, n, strict=True)
    ], strength
