"""The Wilson interval with the standard library alone: a run's closing summary (runner.summary)
needs one interval per seat, not scipy, numpy and polars, whose import and exit cost every
`simulate` most of a second. stats.proportion_ci, scipy's, stays the reports' own."""

from __future__ import annotations

import math
from statistics import NormalDist


def wilson(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of k successes in n trials, as scipy's binomtest computes it
    (Newcombe 1998, without continuity correction); NaNs when there is no trial."""
    if n <= 0:
        return math.nan, math.nan
    z = NormalDist().inv_cdf(0.5 + 0.5 * level)
    p = k / n
    denom = 2 * (n + z**2)
    center = (2 * n * p + z**2) / denom
    delta = z / denom * math.sqrt(4 * n * p * (1 - p) + z**2)
    return 0.0 if k == 0 else center - delta, 1.0 if k == n else center + delta
