"""Matplotlib charts as base64 PNG, so the report is one self-contained file.

Small samples are drawn in grey (never dropped), as in the tables.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)
from matplotlib.figure import Figure  # noqa: E402
import polars as pl  # noqa: E402

from workbench.analysis.stats import MIN_SAMPLE  # noqa: E402

BLUE, GREY, RED = "#2b6cb0", "#b8b8b8", "#c53030"
text_only = matplotlib.rc_context({"text.parse_math": False})
"""A chart's decorator: its labels are card names, never mathtext (`$$` is no formula)."""


def _png(fig: Figure) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


@text_only
def rate_bars(df: pl.DataFrame, label: str, rate: str, n: str, title: str,
              limit: int = 30) -> str:
    """Horizontal bars of a rate with its Wilson interval, highest first (top `limit`)."""
    d = df.filter(pl.col(rate).is_not_null()).sort(rate, descending=True).head(limit)
    fig, ax = plt.subplots(figsize=(7, 0.28 * max(d.height, 3) + 1))
    labels = [str(v) for v in d.get_column(label)]
    vals = d.get_column(rate).to_list()
    lo = [v - lo_ for v, lo_ in zip(vals, d.get_column(f"{rate}_lo").to_list(), strict=True)]
    hi = [hi_ - v for v, hi_ in zip(vals, d.get_column(f"{rate}_hi").to_list(), strict=True)]
    colours = [BLUE if k >= MIN_SAMPLE else GREY for k in d.get_column(n).to_list()]
    ax.barh(range(d.height), vals, xerr=[lo, hi], color=colours, ecolor="#555", capsize=2)
    ax.set_yticks(range(d.height), labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_title(f"{title} (grey: n < {MIN_SAMPLE})")
    return _png(fig)


@text_only
def scatter(df: pl.DataFrame, x: str, y: str, label: str, n: str, title: str,
            xlabel: str, ylabel: str, flag: str | None = None,
            line: tuple[float, float] | None = None) -> str:
    """Cards as points, named; small samples grey, flagged rows red."""
    d = df.filter(pl.col(x).is_not_null() & pl.col(y).is_not_null())
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for r in d.iter_rows(named=True):
        colour = GREY if (r[n] or 0) < MIN_SAMPLE else (
            RED if flag and r.get(flag) else BLUE)
        ax.scatter(r[x], r[y], color=colour, s=22)
        ax.annotate(str(r[label]), (r[x], r[y]), fontsize=7, xytext=(3, 2),
                    textcoords="offset points")
    if line is not None and d.height:
        xs = [float(d.get_column(x).min()), float(d.get_column(x).max())]  # type: ignore[arg-type]
        ax.plot(xs, [line[0] + line[1] * v for v in xs], color="#888", linestyle="--")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    return _png(fig)


@text_only
def lines(df: pl.DataFrame, x: str, ys: Sequence[str], title: str, ylabel: str,
          group: str | None = None) -> str:
    """One line per column (and per group value, if any) against x."""
    fig, ax = plt.subplots(figsize=(7, 4))
    groups = [(None, df)] if group is None else [
        (k, df.filter(pl.col(group) == k)) for k in df.get_column(group).unique().sort()]
    for key, d in groups:
        for y in ys:
            name = y if key is None else f"{key}: {y}"
            ax.plot(d.get_column(x).to_list(), d.get_column(y).to_list(), label=name,
                    marker=".")
    ax.set_xlabel(x)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=7)
    return _png(fig)


@text_only
def grouped_counts(df: pl.DataFrame, panel: str, x: str, group: str, value: str,
                   title: str) -> str:
    """One panel per `panel` value: bars of `value` against `x`, side by side per `group`."""
    panels = df.get_column(panel).unique().sort().to_list()
    fig, axes = plt.subplots(1, max(len(panels), 1), figsize=(4 * max(len(panels), 1), 3.2),
                             squeeze=False)
    groups = df.get_column(group).unique().sort().to_list()
    width = 0.8 / max(len(groups), 1)
    for ax, p in zip(axes[0], panels, strict=False):
        d = df.filter(pl.col(panel) == p)
        for i, g in enumerate(groups):
            dg = d.filter(pl.col(group) == g)
            ax.bar([v + i * width for v in dg.get_column(x).to_list()],
                   dg.get_column(value).to_list(), width=width, label=str(g))
        ax.set_title(f"{title}: {p}")
        ax.set_xlabel(x)
        ax.legend(fontsize=7)
    return _png(fig)
