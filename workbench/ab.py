"""A/B studies that stop when the answer is clear: the difference of a card metric between two
values of one card field (value B minus value A), played on paired seeds in rounds and looked
at after every round (`workbench ab`, docs/design-studies.md).

**The metric** is counted per game by fairvalue.card_counts, the per-game form of
analysis/cards.py's definitions: the improvement when bought (win rate of the seats that bought
the card minus that of the seats that drafted it and never bought it) or the holders' win rate
(every seat that drafted it). Both are combinations of ratios of sums over games, Σ c_j W_j /
Σ N_j (wins over seat-games of a group, per value).

**The interval of one look** comes from the delta method with the game as the unit: game g
contributes u_g = Σ_j c_j (w_gj − R_j n_gj) / mean(n_j), and the difference's standard error is
sd(u) / sqrt(G) over the G paired games. Game i of both values started from the same seed, so
u_g holds both values of the pair and their correlation is counted (the analytic form of the
paired bootstrap over game indices that sweeps use), as is the correlation of seats of one game.

**Valid under repeated looks: alpha spending with a Bonferroni bound** (Lan & DeMets 1983,
"Discrete sequential boundaries for clinical trials", Biometrika 70(3), with the linear spending
function alpha·t: spend the error rate in proportion to the games played). With K looks allowed
(K = --max-games / --round-games, rounded up) every look is an interval at error rate alpha / K.
By the union bound the chance that any look's interval misses the truth is at most K · alpha / K
= alpha whatever the dependence between looks, so the interval the study stops at covers the
truth at least at 1 − alpha (as far as each look's normal approximation holds), however the
stopping depended on the data. It is conservative: the looks are strongly correlated, so the
true coverage is higher. The price of K looks grows slowly (z = 3.48 for 100 looks at alpha
0.05, 4.06 for 1,000, against 1.96 for one). Spending more on early looks (alpha / 2^k, or
alpha / (k (k + 1))) was rejected: a study stops on the interval's width, which only the later
looks of a run can reach, and those would get the widest intervals.

**Stopping**: after a look whose half-width is at most the precision, or at the last look.
A look can settle only when every ratio of the metric has at least MIN_SAMPLE seat-games and at
least MIN_SAMPLE games came out differently for the two values: in a paired design only those
games carry the difference (as McNemar's test counts discordant pairs), and a few of them can
show no spread by chance, a zero-width interval that would stop the study on nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import stats

from workbench.analysis.stats import MIN_SAMPLE
from workbench.fairvalue import Array, Counts

METRICS = {"improvement": "improvement when bought", "win_rate": "holders' win rate"}
"""--metric choices and their words."""


def look_alpha(k: int, looks: int, alpha: float) -> float:
    """The error rate spent at look k (1-based) of at most `looks`: alpha / looks (they sum to
    alpha)."""
    if not 1 <= k <= looks:
        raise ValueError(f"look {k} is not one of 1..{looks}")
    return alpha / looks


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
    """One look: how many paired games, the difference B − A with its interval at 1 − alpha_k,
    the fewest seat-games behind any ratio (0: the metric is not defined yet) and the games
    whose counts differ between the two values."""

    look: int
    games: int
    estimate: float
    low: float
    high: float
    alpha: float
    smallest: int
    discordant: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


def look_at(counts: Counts, metric: str, k: int, looks: int, alpha: float) -> Look:
    """The difference after the games in `counts` (one column per paired game) at look k;
    NaNs while a ratio has no seat-game."""
    parts = terms(counts, metric)
    games = counts.n_a.shape[1]
    smallest = int(min(n.sum() for _, _, n in parts))
    discordant = int(
        np.any(
            [x[0] != x[1] for x in (counts.n_a, counts.w_a, counts.n_b, counts.w_b)], axis=0
        ).sum()
    )
    a = look_alpha(k, looks, alpha)
    if smallest == 0 or games < 2:
        return Look(k, games, math.nan, math.nan, math.nan, a, smallest, discordant)
    estimate = 0.0
    u = np.zeros(games)
    for c, w, n in parts:
        rate = w.sum() / n.sum()
        estimate += c * rate
        u += c * (w - rate * n) / n.mean()
    se = float(np.std(u, ddof=1)) / math.sqrt(games)
    half = float(stats.norm.ppf(1 - a / 2)) * se
    return Look(k, games, estimate, estimate - half, estimate + half, a, smallest, discordant)


def settled(look: Look, precision: float) -> bool:
    """Stop here: the interval is within ±precision, every ratio has enough seat-games and
    enough games differ between the values."""
    return min(look.smallest, look.discordant) >= MIN_SAMPLE and look.half_width <= precision


def sequential(
    next_round: Callable[[], Counts], metric: str, precision: float, looks: int, alpha: float
) -> list[Look]:
    """Look after every round (`next_round` plays one and returns every paired game so far)
    until a look is settled or `looks` have been taken; every look, the last the answer."""
    out: list[Look] = []
    for k in range(1, looks + 1):
        out.append(look_at(next_round(), metric, k, looks, alpha))
        if settled(out[-1], precision):
            break
    return out


def answer(look: Look, precision: float, a: str, b: str, metric: str) -> str:
    """The answer in words: which value gives the higher metric, no difference within
    ±precision, or not clear yet."""
    what = METRICS[metric]
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
    if look.low > 0 or look.high < 0:
        higher, lower = (b, a) if look.low > 0 else (a, b)
        return f"{higher} gives a higher {what} than {lower}: {shown}"
    if settled(look, precision):
        return (
            f"no difference within ±{100 * precision:g} points (the interval's half-width) "
            f"in the {what}: {shown}"
        )
    return (
        f"not clear at the limit: the {what} differs by {shown}, wider than "
        f"±{100 * precision:g} points; more games (--max-games) would narrow it"
    )
