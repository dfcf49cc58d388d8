"""A win rate against its even share, judged as the report's seat and set findings judge it,
with the standard library alone: `simulate`'s closing summary gives each seat this verdict
without loading scipy, numpy or polars. severity.two_sided is this judgement with
the report's thresholds."""

from __future__ import annotations

BAND = 0.05
"""A win rate within this of its even share is balanced (`report --band`)."""
MIN_SAMPLE = 30
"""Below this many observations a rate is shown greyed (never hidden) and judged low at most."""
EPS = 1e-9
"""Rates on a threshold's edge stay inside (0.55 - 0.5 is 0.05000000000000004 in floats)."""


def beyond_band(
    v: float,
    lo: float,
    hi: float,
    fair: float,
    n: int,
    band: float = BAND,
    min_sample: int = MIN_SAMPLE,
) -> str | None:
    """The severity of a rate v (95% interval lo..hi, n observations) outside fair ± band:
    high when the whole interval lies beyond the band, medium when it excludes the even share,
    low when the sample cannot tell it from noise; None inside the band."""
    if abs(v - fair) <= band + EPS:
        return None
    if n < min_sample:
        return "low"
    if lo > fair + band or hi < fair - band:
        return "high"
    if lo > fair or hi < fair:
        return "medium"
    return "low"
