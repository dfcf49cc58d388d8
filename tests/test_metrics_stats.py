"""The statistics helpers against numbers worked out by hand."""

from __future__ import annotations

import math

import polars as pl
import pytest

from workbench.analysis import stats


def test_wilson_interval_by_hand() -> None:
    z = 1.959963984540054
    n, p = 10, 0.3
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert stats.proportion_ci(3, 10) == pytest.approx((centre - half, centre + half))
    assert all(math.isnan(v) for v in stats.proportion_ci(0, 0))  # no trial, no interval


def test_two_proportion_z() -> None:
    # 30/100 against 50/100: pooled 0.4, se = sqrt(0.4 * 0.6 * 0.02), z = -0.2 / se
    z = 0.2 / math.sqrt(0.4 * 0.6 * 0.02)
    assert stats.two_proportion_p(30, 100, 50, 100) == pytest.approx(math.erfc(z / math.sqrt(2)))
    assert stats.two_proportion_p(0, 5, 0, 5) == 1.0
    assert math.isnan(stats.two_proportion_p(1, 0, 1, 5))


def test_holm_and_bh_by_hand() -> None:
    p = [0.01, 0.04, 0.03, float("nan"), 0.005]
    # Holm over the 4 real p-values, sorted 0.005, 0.01, 0.03, 0.04: x4, x3, x2, x1, running max
    holm = stats.holm(p)
    assert holm[4] == pytest.approx(0.02) and holm[0] == pytest.approx(0.03)
    assert holm[2] == pytest.approx(0.06) and holm[1] == pytest.approx(0.06)
    assert math.isnan(holm[3])
    # BH: p * m / rank, then the running minimum from the top: 0.02, 0.02, 0.04, 0.04
    bh = stats.benjamini_hochberg(p)
    assert [bh[4], bh[0], bh[2], bh[1]] == pytest.approx([0.02, 0.02, 0.04, 0.04])
    assert stats.expected_by_chance(40) == pytest.approx(2.0)


def test_difference_tests_mark_only_corrected_significance() -> None:
    df = pl.DataFrame(
        {"k1": [90, 52, 10], "n1": [100, 100, 20], "k2": [40, 48, 10], "n2": [100, 100, 20]}
    )
    out = stats.with_difference_tests(df, "k1", "n1", "k2", "n2", "d")
    assert out.get_column("d_significant").to_list() == [True, False, False]
    s = stats.difference_summary(out, "d")
    assert s == {
        "tests": 3,
        "raw_below_alpha": 1,
        "expected_by_chance": pytest.approx(0.15),
        "holm_significant": 1,
        "bh_significant": 1,
    }
