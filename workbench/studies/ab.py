"""A/B studies that stop when the answer is clear: the difference of a card metric between two
values of one card field (value B minus value A), played on paired seeds and looked at a few
times placed by the spread seen so far (`workbench ab`, docs/design-studies.md).

**The metric** is counted per game by abgames.card_groups (equal to fairvalue.card_counts over
stored games), the per-game form of
analysis/cards.py's definitions: the improvement when bought (win rate of the seats that bought
the card minus that of the seats that drafted it and never bought it) or the holders' win rate
(every seat that drafted it). Both are combinations of ratios of sums over games, Σ c_j W_j /
Σ N_j (wins over seat-games of a group, per value).

**The interval of one look** comes from the delta method with the game as the unit: game g
contributes u_g = Σ_j c_j (w_gj − R_j n_gj) / mean(n_j), and the difference's standard error is
sd(u) / sqrt(G) over the G paired games. Game i of both values started from the same seed, so
u_g holds both values of the pair and their correlation is counted (the analytic form of the
paired bootstrap over game indices that sweeps use), as is the correlation of seats of one game.

**Looks placed by information, alpha spent by a fixed split with a Bonferroni bound.** At most
K looks (--looks, default 4). Look 1 is a pilot of --first-look paired games; every later look
is placed where the standard deviations of the u_g seen so far predict that each metric's
interval reaches ±precision at that look's level, times MARGIN (games = MARGIN (z sd /
precision)^2, at least GROWTH times the games before; capped at --max-games). The error rate is
split before the study in fixed shares (SPEND: 5% of alpha at the pilot, 80% at the first
placed look, the rest evenly over the later ones, which only catch an underestimated sd), so
z = 3.02 at the pilot, 2.05 at look 2 and 2.90 at looks 3 and 4 for alpha 0.05, against 3.48
at each of the 100 equal looks this module took before. By the union bound the chance that any
look's interval misses the truth is at most the sum of the shares, alpha, whatever the
dependence between the looks; so the interval the study stops at covers at least at 1 − alpha
however the stopping depended on the data (as far as each look's normal approximation holds).

That a look's own interval holds its level although its time was chosen from the data rests
on the times depending on the data only through the variance, never on the estimate: Lan &
DeMets (1983, "Discrete sequential boundaries for clinical trials", Biometrika 70(3)) spend
alpha at looks whose number and times need not be fixed in advance, and Lan & DeMets (1989,
"Changing frequency of interim analysis in sequential monitoring", Biometrics 45) and Jennison
& Turnbull (2000, "Group Sequential Methods with Applications to Clinical Trials", ch. 7,
unpredictable information sequences) require only that the times (the information) not be
chosen from the estimates; a sample size set from a first sample's variance is Stein's
two-stage procedure (1945, Ann. Math. Stat. 16) and the fixed-width sequential interval of
Chow & Robbins (1965, Ann. Math. Stat. 36). For normal data the mean of a sample is
independent of its variance, so the mean at a look placed from earlier variances has the
variance its interval assumes. `tests/test_ab.py` checks on a constructed case that every look
of a study covers the truth at once in at least 1 − alpha of the studies (the validity under
repeated looks whatever the stopping rule), a check that 20 looks at the naive 1.96 fail.

**Stopping**: after a look whose half-width is at most the precision, or at the last look.
A look can settle only when every ratio of the metric has at least MIN_SAMPLE seat-games and at
least MIN_SAMPLE games came out differently for the two values: in a paired design only those
games carry the difference (as McNemar's test counts discordant pairs), and a few of them can
show no spread by chance, a zero-width interval that would stop the study on nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats

from workbench.analysis.stats import MIN_SAMPLE
from workbench.studies.fairvalue import Array, Counts

METRICS = {"improvement": "improvement when bought", "win_rate": "holders' win rate"}
"""--metric choices and their words."""


SPEND = (0.05, 0.80)
"""Shares of alpha at the pilot and at the first look placed by information; the rest is split
evenly over the later looks."""
MARGIN = 1.2
"""A placed look has this many times the games predicted to reach ±precision (the sd moves)."""
GROWTH = 1.1
"""A placed look has at least this many times the games of the look before."""


def look_alphas(looks: int, alpha: float) -> list[float]:
    """The error rate spent at each of at most `looks` looks (SPEND; they sum to alpha)."""
    if looks < 1:
        raise ValueError(f"at least one look, not {looks}")
    if looks == 1:
        return [alpha]
    if looks == 2:
        return [SPEND[0] * alpha, (1 - SPEND[0]) * alpha]
    rest = (1 - sum(SPEND)) * alpha / (looks - 2)
    return [SPEND[0] * alpha, SPEND[1] * alpha] + [rest] * (looks - 2)


def terms(counts: Counts, metric: str) -> list[tuple[float, Array, Array]]:
    """(coefficient, wins per game, seat-games per game) of every ratio of the metric's value B
    (row 1 of `counts`) minus value A (row 0)."""
    if metric == "improvement":
        return [
            (1.0, counts.w_a[1], counts.n_a[1]),
            (-1.0, counts.w_b[1], counts.n_b[1]),
            (-1.0, counts.w_a[0], counts.n_a[0]),
            (1.0, counts.w_b[0], counts.n_b[0]),
        ]
    if metric == "win_rate":
        return [
            (1.0, counts.w_a[1] + counts.w_b[1], counts.n_a[1] + counts.n_b[1]),
            (-1.0, counts.w_a[0] + counts.w_b[0], counts.n_a[0] + counts.n_b[0]),
        ]
    raise ValueError(f"no metric {metric!r}; choose one of {', '.join(METRICS)}")


@dataclass(frozen=True)
class Look:
    """One metric at one look: how many paired games, the difference B − A with its interval at
    1 − alpha, the standard deviation of u_g (what places the next look), the fewest seat-games
    behind any ratio (0: the metric is not defined yet) and the games whose counts differ
    between the two values."""

    metric: str
    look: int
    games: int
    estimate: float
    low: float
    high: float
    alpha: float
    sd: float
    smallest: int
    discordant: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


def look_at(counts: Counts, metric: str, k: int, alpha: float) -> Look:
    """The difference after the games in `counts` (one column per paired game) at look k, with
    its interval at 1 − alpha; NaNs while a ratio has no seat-game."""
    parts = terms(counts, metric)
    games = counts.n_a.shape[1]
    smallest = int(min(n.sum() for _, _, n in parts))
    discordant = int(
        np.any(
            [x[0] != x[1] for x in (counts.n_a, counts.w_a, counts.n_b, counts.w_b)], axis=0
        ).sum()
    )
    if smallest == 0 or games < 2:
        nan = math.nan
        return Look(metric, k, games, nan, nan, nan, alpha, nan, smallest, discordant)
    estimate = 0.0
    u = np.zeros(games)
    for c, w, n in parts:
        rate = w.sum() / n.sum()
        estimate += c * rate
        u += c * (w - rate * n) / n.mean()
    sd = float(np.std(u, ddof=1))
    half = z_of(alpha) * sd / math.sqrt(games)
    low, high = estimate - half, estimate + half
    return Look(metric, k, games, estimate, low, high, alpha, sd, smallest, discordant)


def z_of(alpha: float) -> float:
    """The two-sided normal quantile of an interval at 1 − alpha."""
    return float(stats.norm.ppf(1 - alpha / 2))


def settled(look: Look, precision: float) -> bool:
    """Stop here: the interval is within ±precision, every ratio has enough seat-games and
    enough games differ between the values."""
    return min(look.smallest, look.discordant) >= MIN_SAMPLE and look.half_width <= precision


def place(found: Sequence[Look], precision: float, alpha: float, limit: int) -> int:
    """The paired games of the next look, at error rate alpha: MARGIN times the games at which
    every metric's sd predicts ±precision, at least GROWTH times the games so far (twice them
    while a metric has no sd yet), at most `limit`. Only the sds enter, never an estimate."""
    games = found[0].games
    need = [
        (z_of(alpha) * f.sd / precision) ** 2 if math.isfinite(f.sd) else 2.0 * games for f in found
    ]
    return min(limit, max(math.ceil(MARGIN * max(need)), math.ceil(GROWTH * games), games + 1))


def sequential(
    games_upto: Callable[[int], Counts],
    metrics: Sequence[str],
    precision: float,
    first: int,
    limit: int,
    alphas: Sequence[float],
    on_look: Callable[[list[Look]], object] | None = None,
) -> list[list[Look]]:
    """Look at `first` paired games, then at the games `place` predicts, until every metric is
    settled, the looks (one per error rate in `alphas`) are spent or `limit` games are played;
    `games_upto(n)` returns the first n paired games (fewer if some failed). Every look, each
    a Look per metric; the last is the answer. `on_look` hears each look as it closes, before
    the games of the next are awaited (`workbench ab` prints it then)."""
    out: list[list[Look]] = []
    games = min(first, limit)
    for k, alpha in enumerate(alphas, 1):
        counts = games_upto(games)
        out.append([look_at(counts, m, k, alpha) for m in metrics])
        if on_look is not None:
            on_look(out[-1])
        if all(settled(f, precision) for f in out[-1]) or games >= limit or k == len(alphas):
            break
        games = place(out[-1], precision, alphas[k], limit)
    return out


def answer(look: Look, precision: float, a: str, b: str) -> str:
    """The answer in words: no difference that matters when the whole interval lies within
    ±precision (an equivalence reading, the sign beside: a difference that small is one the
    designer said does not matter, even where the interval excludes 0), else which value gives
    the higher metric, no difference within ±precision, or not clear yet."""
    what = METRICS[look.metric]
    if math.isnan(look.estimate):
        return (
            f"no answer: the {what} is not defined in these games (a group of seats "
            "without any seat-game)"
        )
    level = f"{1 - look.alpha:.4g}"
    shown = (
        f"{100 * look.estimate:+.1f} points [{100 * look.low:+.1f}, "
        f"{100 * look.high:+.1f}] ({b} minus {a}; interval at {level}, "
        f"{look.games} paired games)"
    )
    if settled(look, precision) and -precision <= look.low and look.high <= precision:
        side = "above" if look.estimate > 0 else "below" if look.estimate < 0 else "level with"
        return (
            f"no difference that matters in the {what}: the whole interval lies within "
            f"±{100 * precision:g} points; {b} is {side} {a} by {shown}"
        )
    if look.low > 0 or look.high < 0:
        higher, lower = (b, a) if look.low > 0 else (a, b)
        return f"{higher} gives a higher {what} than {lower}: {shown}"
    if settled(look, precision):
        return (
            f"no difference within ±{100 * precision:g} points (the interval's half-width) "
            f"in the {what}: {shown}"
        )
    if look.half_width > precision:
        why = f"wider than ±{100 * precision:g} points"
    elif look.smallest < MIN_SAMPLE:
        why = (
            f"from only {look.smallest} seat-games in its smallest group (fewer than {MIN_SAMPLE})"
        )
    else:
        why = (
            f"from only {look.discordant} games that came out differently for the two values "
            f"(fewer than {MIN_SAMPLE})"
        )
    return (
        f"not clear at the limit: the {what} differs by {shown}, {why}; more games "
        "(--max-games) would settle it"
    )
