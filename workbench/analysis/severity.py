"""The form every finding takes: its record (`Finding`), the thresholds that turn a measure into
one (`Thresholds`, the options of `workbench report`), its severity from the estimate, interval
and sample (see workbench/analysis/findings.py for what each severity means), and the words and
numbers of its sentence."""

from __future__ import annotations

import math
from dataclasses import dataclass

from workbench.analysis.evenness import BAND, EPS, MIN_SAMPLE, beyond_band

SEVERITIES = ("high", "medium", "low")


@dataclass(frozen=True)
class Thresholds:
    """Where a measure turns into a finding (every field is a `report --threshold` option)."""

    band: float = BAND
    """A seat's or set's win rate within this of its even share is balanced."""
    card_band: float = 0.05
    """A card's causal effect within this of zero is fine (workbench/analysis/verdicts.py)."""
    strong_gain: float = 0.10
    """A card significant after Holm is high when its effect (or improvement when bought) is
    this large."""
    rare_buy: float = 0.05
    """A drafted card bought in fewer of its games than this is rarely bought; a card affordable
    at fewer of its store's buy steps than this is (almost) never affordable."""
    stall: float = 0.75
    """The economy stalls from the round on which upkeep takes at least this share of income."""
    buy_stop: float = 0.20
    """Buying has stopped from the round on which fewer player-turns than this buy a card."""
    late: float = 0.25
    """A stall or buying stop counts only if its rounds hold at least this share of the turns."""
    hoard: float = 3.0
    """Resource held beyond this many turns of income is piling up (runaway) or unused."""
    round_limit: float = 0.20
    """More games than this decided by the round limit."""
    draws: float = 0.10
    """More draws than this."""
    guard: float = 0.01
    """More games than this stopped by the action guard (R21.18)."""
    short_rounds: int = 3
    """A game of at most this many rounds is very short ..."""
    short_games: float = 0.05
    """... and more very short games than this share is a finding."""
    kraken_drafted: float = 0.25
    """A card drafted in at least this share of a board's games ..."""
    kraken_bought: float = 0.02
    """... and bought in at most this share of the seat-games it was drafted in is Kraken-like
    (drafted and never bought, workbench.analysis.drafted)."""
    min_sample: int = MIN_SAMPLE
    """Fewer observations than this make a finding low at most; rounds with fewer player-turns
    are left out of the economy's round-by-round checks."""


@dataclass(frozen=True)
class Finding:
    """One thing to look at. `value`, `low`, `high` and `n` are the sentence's numbers."""

    kind: str
    severity: str
    text: str
    value: float
    low: float | None
    high: float | None
    n: int
    section: str
    subject: str = ""
    excess: float = 0.0
    """How far beyond its threshold, for ranking within a severity."""


# --- words and numbers ------------------------------------------------------------------------


def pct(v: float) -> str:
    return f"{100 * v:.1f}%"


def span(lo: float | None, hi: float | None, n: int, unit: str = "%") -> str:
    """`(30.1–43.0%, n=200)`: the 95% interval and the sample size; `unit` "%" shows
    proportions in percent, " points" differences in percentage points, "" plain numbers."""
    if lo is None or hi is None or math.isnan(lo) or math.isnan(hi):
        return f"(n={n:,})"
    a, b = (100 * lo, 100 * hi) if unit else (lo, hi)
    return f"({num(a)}{' to ' if a < 0 else '–'}{num(b)}{unit}, n={n:,})"


def counted(n: int, word: str, plural: str = "") -> str:
    """`1 time`, `2 times`, `1,200 games`: a count with its word, plural right (`plural` for
    words that do not take an s)."""
    return f"{n:,} {word if n == 1 else plural or f'{word}s'}"


def num(v: float, sign: bool = False) -> str:
    """One decimal, with a typographic minus (and a plus when `sign`)."""
    return (f"{v:+.1f}" if sign else f"{v:.1f}").replace("-", "\u2212")


def seat_label(seat: int) -> str:
    """A 0-based database seat as people count it."""
    return f"seat {seat + 1}"


def two_sided(v: float, lo: float, hi: float, fair: float, n: int, th: Thresholds) -> str | None:
    """v outside fair ± band (evenness.beyond_band at these thresholds)."""
    return beyond_band(v, lo, hi, fair, n, th.band, th.min_sample)


def beyond(
    v: float, lo: float, hi: float, limit: float, n: int, th: Thresholds, above: bool = True
) -> str | None:
    """One-sided: v above (or below) the limit."""
    if (v <= limit + EPS) if above else (v >= limit - EPS):
        return None
    if n < th.min_sample:
        return "low"
    return "high" if ((lo > limit) if above else (hi < limit)) else "medium"


def furthest(rate: float, fair: float) -> tuple[float, float]:
    """Sort key: the furthest from the even share; on a tie (two seats) the one ahead."""
    return round(abs(rate - fair), 9), rate


def on_board(board: str, boards: int) -> str:
    """` on BOARD` when the run has several boards, else nothing."""
    return f" on {board}" if boards > 1 else ""
