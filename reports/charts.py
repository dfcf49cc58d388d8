"""Matplotlib charts as base64 PNG, so the report is one self-contained file.

Charts that tell the truth: small samples are drawn in grey (never dropped); rankings sort by an
empirical-Bayes estimate, so a card bought once at 100% never tops a list; scatter labels
never overlap (a label that would is left out: every point is in the table beside the chart);
legends sit outside the plot; every axis is labelled; counts over integer values sit on them.
"""

from __future__ import annotations

import base64
import io
import statistics
from collections.abc import Sequence

import matplotlib
import polars as pl
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_hex
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator
from matplotlib.transforms import Bbox

from workbench.analysis.stats import MIN_SAMPLE, shrunk_rates

BLUE, GREY, RED = "#2b6cb0", "#b8b8b8", "#c53030"
text_only = matplotlib.rc_context({"text.parse_math": False})
"""A chart's decorator: its labels are card names, never mathtext (`$$` is no formula)."""

MAX_LABELS = 24
"""At most this many names on a scatter; the table beside it has every point."""


def figure(width: float, height: float) -> Figure:
    """A figure on its own Agg canvas. No pyplot: its backend is process-wide state that the
    first import would choose, and its figure list must be closed by hand."""
    fig = Figure(figsize=(width, height))
    FigureCanvasAgg(fig)
    return fig


def _png(fig: Figure) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
    return base64.b64encode(buf.getvalue()).decode("ascii")


def grey_rounds(ax: Axes, sparse: Sequence[int], label: str) -> None:
    """Grey bands over the x values (rounds) in `sparse`, whose points rest on fewer than
    MIN_SAMPLE observations: drawn, never dropped, and named once in the legend."""
    for i, x in enumerate(sorted(sparse)):
        ax.axvspan(
            x - 0.5, x + 0.5, color=GREY, alpha=0.45, linewidth=0, label=label if i == 0 else None
        )


def _legend_outside(ax: Axes) -> None:
    """The legend right of the plot, where it can cover no line or bar."""
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)


@text_only
def rate_bars(
    df: pl.DataFrame,
    label: str,
    rate: str,
    n: str,
    title: str,
    xlabel: str,
    limit: int = 30,
    even: float | None = None,
) -> str:
    """Horizontal bars of a rate with its Wilson interval, ranked by the empirical-Bayes
    estimate (drawn as a dot; stats.shrunk_rates) so that a handful of lucky games never tops
    the list (top `limit`); the sample size beside each name; `even` draws a reference line."""
    d = df.filter(pl.col(rate).is_not_null())
    sizes_all = d.get_column(n).cast(pl.Int64).to_list()
    wins = [round(v * k) for v, k in zip(d.get_column(rate).to_list(), sizes_all, strict=True)]
    shrunk, _ = shrunk_rates(wins, sizes_all)
    d = (
        d.with_columns(pl.Series("_shrunk", shrunk, dtype=pl.Float64))
        .sort(["_shrunk", rate], descending=True)
        .head(limit)
    )
    fig = figure(7, 0.28 * max(d.height, 3) + 1.2)
    ax = fig.subplots()
    sizes = d.get_column(n).to_list()
    labels = [f"{v} (n={k})" for v, k in zip(d.get_column(label), sizes, strict=True)]
    vals = d.get_column(rate).to_list()
    lo = [v - lo_ for v, lo_ in zip(vals, d.get_column(f"{rate}_lo").to_list(), strict=True)]
    hi = [hi_ - v for v, hi_ in zip(vals, d.get_column(f"{rate}_hi").to_list(), strict=True)]
    colours = [BLUE if k >= MIN_SAMPLE else GREY for k in sizes]
    ax.barh(range(d.height), vals, xerr=[lo, hi], color=colours, ecolor="#555", capsize=2)
    ax.scatter(
        d.get_column("_shrunk").to_list(),
        range(d.height),
        color="#111",
        s=12,
        zorder=3,
        label="empirical-Bayes estimate",
    )
    ax.set_yticks(range(d.height), labels, fontsize=8)
    for tick, k in zip(ax.get_yticklabels(), sizes, strict=True):
        if k < MIN_SAMPLE:
            tick.set_color("#888")
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    if even is not None:
        ax.axvline(even, color="#555", linestyle=":", linewidth=1, label="even share")
    _legend_outside(ax)
    ax.set_xlabel(xlabel)
    ax.set_title(
        f"{title}\nranked by the empirical-Bayes estimate (dot); bars: observed rate, "
        f"95% interval; grey: n < {MIN_SAMPLE}",
        fontsize=9,
    )
    return _png(fig)


def _label_without_overlap(
    fig: Figure, ax: Axes, points: Sequence[tuple[float, float, str]], limit: int = MAX_LABELS
) -> int:
    """Name points in the order given, each where its text overlaps no earlier label and no
    other point and stays inside the axes; a point with no free place stays unnamed. Returns
    how many were named."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    frame = ax.get_window_extent(renderer)
    dots = [
        Bbox.from_extents(px - 3, py - 3, px + 3, py + 3)
        for px, py in ax.transData.transform([(x, y) for x, y, _ in points])
    ]
    placed: list[Bbox] = []
    for (x, y, text), dot in zip(points, dots, strict=True):
        if len(placed) >= limit:
            break
        for dx, dy, ha, va in (
            (4, 3, "left", "bottom"),
            (-4, 3, "right", "bottom"),
            (4, -3, "left", "top"),
            (-4, -3, "right", "top"),
        ):
            note = ax.annotate(
                text, (x, y), xytext=(dx, dy), textcoords="offset points", fontsize=7, ha=ha, va=va
            )
            box = note.get_window_extent(renderer).padded(3)
            inside = (
                box.x0 >= frame.x0
                and box.x1 <= frame.x1
                and box.y0 >= frame.y0
                and box.y1 <= frame.y1
            )
            if (
                inside
                and not any(box.overlaps(other) for other in placed)
                and not any(box.overlaps(d) for d in dots if d is not dot)
            ):
                placed.append(box)
                break
            note.remove()
    return len(placed)


@text_only
def scatter(
    df: pl.DataFrame,
    x: str,
    y: str,
    label: str,
    n: str,
    title: str,
    xlabel: str,
    ylabel: str,
    flag: str | None = None,
    line: tuple[float, float] | None = None,
) -> str:
    """Cards as points: small samples grey, flagged rows red. Names go to the flagged points
    first, then to the points furthest from the middle with enough samples, as long as they
    overlap nothing (the table beside the chart names every point)."""
    d = df.filter(pl.col(x).is_not_null() & pl.col(y).is_not_null())
    fig = figure(7.5, 4.8)
    ax = fig.subplots()
    rows = list(d.iter_rows(named=True))
    for r in rows:
        colour = GREY if (r[n] or 0) < MIN_SAMPLE else (RED if flag and r.get(flag) else BLUE)
        ax.scatter(r[x], r[y], color=colour, s=22, zorder=3)
    if line is not None and d.height:
        xs = [float(d.get_column(x).min()), float(d.get_column(x).max())]  # type: ignore[arg-type]
        ax.plot(
            xs,
            [line[0] + line[1] * v for v in xs],
            color="#888",
            linestyle="--",
            label="fitted line",
        )
        _legend_outside(ax)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.margins(0.08)
    named = 0
    if rows:
        xs, ys = (d.get_column(c).cast(pl.Float64).to_list() for c in (x, y))
        mx, my = statistics.median(xs), statistics.median(ys)
        sx, sy = statistics.pstdev(xs) or 1.0, statistics.pstdev(ys) or 1.0
        order = sorted(
            rows,
            key=lambda r: (
                not (flag and r.get(flag)),
                (r[n] or 0) < MIN_SAMPLE,
                -(((r[x] - mx) / sx) ** 2 + ((r[y] - my) / sy) ** 2),
            ),
        )
        named = _label_without_overlap(fig, ax, [(r[x], r[y], str(r[label])) for r in order])
    ax.set_title(
        f"{title}\n{named} of {len(rows)} named (flagged and outlying first); "
        f"grey: n < {MIN_SAMPLE}",
        fontsize=10,
    )
    return _png(fig)


@text_only
def lines(
    df: pl.DataFrame,
    x: str,
    ys: Sequence[tuple[str, str]],
    title: str,
    xlabel: str,
    ylabel: str,
    group: str | None = None,
    refs: Sequence[tuple[float, str, str]] = (),
    sparse: Sequence[int] = (),
    sparse_label: str = "",
) -> str:
    """One line per (column, name) (and per group value, if any) against x; a column with
    `_lo`/`_hi` beside it gets its interval as a band; `refs` are dotted reference levels
    (level, name, the column whose colour they take); x values in `sparse` are greyed
    (grey_rounds, named `sparse_label`)."""
    fig = figure(7.5, 4)
    ax = fig.subplots()
    groups = (
        [(None, df)]
        if group is None
        else [(k, df.filter(pl.col(group) == k)) for k in df.get_column(group).unique().sort()]
    )
    colour: dict[str, str] = {}
    for key, d in groups:
        xs = d.get_column(x).to_list()
        for col, name in ys:
            shown = name if key is None else f"{key}: {name}"
            drawn = ax.plot(xs, d.get_column(col).to_list(), label=shown, marker=".")
            colour.setdefault(col, to_hex(drawn[0].get_color()))
            if f"{col}_lo" in d.columns:
                ax.fill_between(
                    xs,
                    d.get_column(f"{col}_lo").to_list(),
                    d.get_column(f"{col}_hi").to_list(),
                    alpha=0.15,
                    color=drawn[0].get_color(),
                    linewidth=0,
                )
    for level, name, col in refs:
        ax.axhline(level, color=colour.get(col, "#555"), linestyle=":", linewidth=1.2, label=name)
    grey_rounds(ax, sparse, sparse_label)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    _legend_outside(ax)
    return _png(fig)


@text_only
def stacked(
    df: pl.DataFrame,
    x: str,
    ys: Sequence[tuple[str, str]],
    title: str,
    xlabel: str,
    ylabel: str,
    ymax: float | None = None,
    sparse: Sequence[int] = (),
    sparse_label: str = "",
) -> str:
    """Areas stacked in the order given (the first at the bottom) against x; x values in
    `sparse` are greyed over (grey_rounds, named `sparse_label`)."""
    fig = figure(7.5, 4)
    ax = fig.subplots()
    ax.stackplot(
        df.get_column(x).to_list(),
        *(df.get_column(c).fill_null(0).to_list() for c, _ in ys),
        labels=[name for _, name in ys],
        alpha=0.85,
    )
    grey_rounds(ax, sparse, sparse_label)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if ymax is not None:
        ax.set_ylim(0, ymax)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    handles, labels = ax.get_legend_handles_labels()
    ax.legend(
        handles[::-1],
        labels[::-1],
        fontsize=7,
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        borderaxespad=0,
    )  # top of the legend = top area
    return _png(fig)


@text_only
def grouped_counts(
    df: pl.DataFrame,
    panel: str,
    x: str,
    group: str,
    value: str,
    title: str,
    xlabel: str,
    ylabel: str,
) -> str:
    """One panel per `panel` value: bars of `value` against the integer `x`, side by side per
    `group` and centred on each value."""
    panels = df.get_column(panel).unique().sort().to_list()
    fig = figure(3.6 * max(len(panels), 1) + 1.2, 3.2)
    axes = fig.subplots(1, max(len(panels), 1), squeeze=False)
    groups = df.get_column(group).unique().sort().to_list()
    width = 0.8 / max(len(groups), 1)
    for ax, p in zip(axes[0], panels, strict=False):
        d = df.filter(pl.col(panel) == p)
        for i, g in enumerate(groups):
            dg = d.filter(pl.col(group) == g)
            shift = (i - (len(groups) - 1) / 2) * width
            ax.bar(
                [v + shift for v in dg.get_column(x).to_list()],
                dg.get_column(value).to_list(),
                width=width,
                label=str(g),
            )
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_title(f"{title}: {p}" if len(panels) > 1 else title, fontsize=10)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
    if panels:
        _legend_outside(axes[0][-1])
    return _png(fig)
