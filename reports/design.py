"""Report sections of the design studies: sweeps, tuning, ablation and skill sensitivity."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl
from matplotlib.axes import Axes

from reports.charts import BLUE, GREY, RED, _legend_outside, _png, figure, text_only
from reports.html import Chart, Section, Table
from workbench.analysis.stats import MIN_SAMPLE
from workbench.studies.fairvalue import FairValue, in_words

CARD_PANELS = (
    ("pick_rate", "seen", "pick rate when seen"),
    ("buy_rate", "in_store", "buy rate"),
    ("wr_bought", "bought", "win rate when bought"),
    ("bought_gain", "bought", "improvement when bought"),
)
CONTRAST = "the improvement when bought"
BOARD_CONTRAST = "the first player's advantage"
"""What a card's and a board setting's fair value balances, in words."""
BOARD_PANELS = (
    ("first_win_rate", "first_games", "first player's win rate"),
    ("first_advantage", "first_games", "first-player advantage"),
    ("draw_rate", "games", "draw rate"),
)


@text_only
def bands(
    df: pl.DataFrame,
    x: str,
    panels: Sequence[tuple[str, str, str]],
    title: str,
    fair: FairValue | None = None,
    target: float = 0.0,
    xlabel: str = "value",
) -> str:
    """One panel per metric against x with its 95% band; grey points have small samples. The
    last panel shows the fitted line and the fair value with its interval."""
    fig = figure(3.4 * len(panels), 3.2)
    axes = fig.subplots(1, len(panels), squeeze=False)
    d = df.filter(pl.col(x).is_not_null()).sort(x)
    xs = d.get_column(x).to_list()
    for ax, (col, n, label) in zip(axes[0], panels, strict=True):
        ys, lo, hi = (d.get_column(c).to_list() for c in (col, f"{col}_lo", f"{col}_hi"))
        ok = [i for i, y in enumerate(ys) if y is not None]
        ax.fill_between(
            [xs[i] for i in ok], [lo[i] for i in ok], [hi[i] for i in ok], color=BLUE, alpha=0.18
        )
        ax.plot([xs[i] for i in ok], [ys[i] for i in ok], color=BLUE)
        sizes = d.get_column(n).to_list()
        ax.scatter(
            [xs[i] for i in ok],
            [ys[i] for i in ok],
            s=18,
            zorder=3,
            color=[BLUE if (sizes[i] or 0) >= MIN_SAMPLE else GREY for i in ok],
        )
        ax.set_title(label, fontsize=9)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(
            "win-rate difference" if col.endswith(("gain", "advantage")) else "rate", fontsize=8
        )
        ax.set_xticks(xs)
    if fair is not None:
        _fair_panel(axes[0][-1], xs, fair, target)
    for ax in axes[0]:
        axis_start(ax)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return _png(fig)


def _fair_panel(ax: Axes, xs: Sequence[float], fair: FairValue, target: float) -> None:
    """The target, the fitted line and the fair value with its interval on the last panel."""
    ax.axhline(target, color="#888", linestyle=":")
    if xs:
        ax.plot(
            xs,
            [fair.intercept + fair.slope * v for v in xs],
            color="#555",
            linestyle="--",
            label="weighted fit",
        )
    if fair.estimate is not None:
        ax.axvline(fair.estimate, color=RED, label=f"fair {fair.estimate:.2f}")
        ax.axvspan(
            fair.low if fair.low is not None else min(xs),
            fair.high if fair.high is not None else max(xs),
            color=RED,
            alpha=0.12,
        )
    _legend_outside(ax)


def axis_start(ax: Axes) -> str:
    """Say on the panel where its y axis starts when that is not 0 (a rate from 0.40 up makes a
    small change look large); the words written, "" when the axis holds 0."""
    low, high = ax.get_ylim()
    if low <= 0 <= high:
        return ""
    words = f"y axis from {low:.2f}, not 0" if low > 0 else f"y axis up to {high:.2f}, not 0"
    ax.text(
        0.02,
        0.02 if low > 0 else 0.95,
        words,
        transform=ax.transAxes,
        fontsize=7,
        color="#555",
        verticalalignment="bottom" if low > 0 else "top",
    )
    return words


@text_only
def category_bars(
    df: pl.DataFrame, label: str, panels: Sequence[tuple[str, str, str]], title: str
) -> str:
    """One panel per metric: a point with its 95% interval per category (agents, variants)."""
    fig = figure(3.4 * len(panels), 3.2)
    axes = fig.subplots(1, len(panels), squeeze=False)
    names = [str(v) for v in df.get_column(label).to_list()]
    for ax, (col, n, text) in zip(axes[0], panels, strict=True):
        for i, r in enumerate(df.iter_rows(named=True)):
            if r[col] is None:
                continue
            colour = BLUE if (r[n] or 0) >= MIN_SAMPLE else GREY
            ax.errorbar(
                [i],
                [r[col]],
                yerr=[[r[col] - r[f"{col}_lo"]], [r[f"{col}_hi"] - r[col]]],
                fmt="o",
                color=colour,
                capsize=3,
            )
        ax.set_xticks(range(len(names)), names, rotation=20, fontsize=7)
        ax.set_title(text, fontsize=9)
        if col.endswith(("gain", "change")):
            ax.axhline(0, color="#888", linestyle=":")
    fig.suptitle(title, fontsize=10)
    return _png(fig)


CARD_RATES = {
    "pick_rate": "seen",
    "buy_rate": "in_store",
    "wr_bought": "bought",
    "wr_never_bought": "never_bought",
    "wr_in_store": "in_store",
    "bought_gain": "bought",
}


def estimate_text(fair: FairValue) -> str:
    """ "2.49 (95% interval 2.10 – open)", or "no estimate"."""
    if fair.estimate is None:
        return "no estimate"
    return (
        f"{fair.estimate:.2f} (95% interval "
        f"{'open' if fair.low is None else f'{fair.low:.2f}'} – "
        f"{'open' if fair.high is None else f'{fair.high:.2f}'})"
    )


CARD_METRICS = ("run_id", "seen", "pick_rate", "in_store", "buy_rate", "bought", "wr_bought")
"""A card's metrics in a run, as every study's table shows them first."""
CARD_COLUMNS = (
    "variant",
    "value",
    *CARD_METRICS,
    "never_bought",
    "wr_never_bought",
    "bought_gain",
    "bought_gain_p",
)
BOARD_RATES = {
    "first_win_rate": "first_games",
    "others_win_rate": "first_games",
    "draw_rate": "games",
    "first_advantage": "first_games",
}
BOARD_COLUMNS = (
    "variant",
    "value",
    "run_id",
    "games",
    "first_win_rate",
    "others_win_rate",
    "first_advantage",
    "draw_rate",
    "mean_rounds",
    "round_limit",
)


def sweep_section(
    name: str,
    what: str,
    metrics: pl.DataFrame,
    fair: FairValue,
    target: float,
    card: str,
    swept: str = "value",
    lead: str = "",
) -> Section:
    """A sweep: metrics against the value with bands, the fair value (with what would close an
    open interval), the table. `swept` names the field on the x axis (`Dud.buy`); `lead`
    opens the text (a tuning's decision)."""
    panels: Sequence[tuple[str, str, str]]
    show: Sequence[str]
    if card:
        panels, rates, show = CARD_PANELS, CARD_RATES, CARD_COLUMNS
        intro = _card_sweep_intro(what, target)
    else:
        panels, rates, show = BOARD_PANELS, BOARD_RATES, BOARD_COLUMNS
        intro = _board_sweep_intro(what, target)
    estimate = estimate_text(fair)
    values = [int(v) for v in metrics.get_column("value").drop_nulls().to_list()]
    words = in_words(fair, values, swept, CONTRAST if card else BOARD_CONTRAST, target)
    return Section(
        name,
        what,
        f"{lead}{intro} {words} How it was found: {fair.note.rstrip('.')}.",
        [
            Chart(
                f"{what} (fair value: {estimate})",
                bands(metrics, "value", panels, what, fair, target, xlabel=swept),
            ),
            Table(
                f"{name}_fair_value",
                "Fair value",
                _fair_value_frame(fair),
                show=["estimate", "low", "high"],
                note="Low or high empty: that end of the interval is open (see above).",
            ),
            Table(f"{name}_variants", "Per value", metrics, rates, show),
        ],
    )


def _card_sweep_intro(what: str, target: float) -> str:
    """What a card sweep shows and where its fair value lies: the improvement when bought."""
    return (
        f"{what}: pick rate when seen, buy rate, win rate when bought and the "
        f"improvement when bought (bought minus drafted but never bought; Newcombe "
        f"interval) at every value, all variants on the same seeds. The fair value is "
        f"where a weighted line through the improvement crosses {target:+.2f}."
    )


def _board_sweep_intro(what: str, target: float) -> str:
    """What a board sweep shows and where its neutral value lies: the first player's
    advantage."""
    return (
        f"{what}: the first player's win rate against the others', draws and game "
        f"length at every value, all variants on the same seeds. The neutral value is "
        f"where the first player's advantage crosses {target:+.2f}."
    )


def _fair_value_frame(fair: FairValue) -> pl.DataFrame:
    """The fair value and its interval as a one-row table (typed, so an open end stays an empty
    float cell)."""
    return pl.DataFrame(
        {"estimate": [fair.estimate], "low": [fair.low], "high": [fair.high], "note": [fair.note]},
        schema={"estimate": pl.Float64, "low": pl.Float64, "high": pl.Float64, "note": pl.String},
    )
