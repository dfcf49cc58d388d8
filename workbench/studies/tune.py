"""Tuning a set: flag the cards whose improvement when bought lies significantly outside a band
(or that are never or rarely bought), sweep their cost on shared seeds in the direction the flag
points, widening the range while no crossing is found, and propose the integer nearest to the
value where the improvement reaches the band's middle.

A proposal always moves the cost the way the flag says: up for a card that is too strong, down
for one that is too weak or that nobody buys. When the sweep cannot support such a move (the
improvement does not fall as the cost rises, the fit crosses on the wrong side, the cost is
already at its floor, the widest sweep allowed found no crossing) there is no proposal and the
note says why.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import duckdb
import polars as pl
from rich.console import Console

from workbench.analysis import cards
from workbench.store import RunSpec
from workbench.studies.fairvalue import FairValue
from workbench.studies.study import Study, record_results, run_study
from workbench.studies.sweep import (
    SweepResult,
    analyse,
    card_variants,
    result_rows,
    with_gain_ci,
)

STRONG, WEAK, NEVER, RARE = "too strong", "too weak", "never bought", "rarely bought"
NEVER_MIN_STORE = 10
"""Seat-games with the card in store before "never bought" is a verdict and not chance."""
RARE_SHARE = 0.25
"""A card is rarely bought when its buy rate's 95% upper bound is below this share of the
set's median buy rate."""
FLOOR = {"buy": 1, "upkeep": 0}
"""The lowest value a tuned cost may take (a buy price of 0 would make the card free)."""


def flag(
    con: duckdb.DuckDBPyConnection, run: int, set_name: str, band: tuple[float, float]
) -> pl.DataFrame:
    """The set's cards with their improvement when bought and interval; `verdict` is
    'too strong' when the whole interval is above the band, 'too weak' when below, 'never
    bought' (in store at least NEVER_MIN_STORE times, never bought) or 'rarely bought' (see
    RARE_SHARE) for cards whose price may keep them out of play, else ''."""
    df = with_gain_ci(cards.card_results(con, [run])).filter(
        pl.col("set").str.to_lowercase() == set_name.casefold()
    )
    low, high = band
    rare = rare_rate(df)
    verdict = (
        pl.when(pl.col("bought_gain_lo") > high)
        .then(pl.lit(STRONG))
        .when(pl.col("bought_gain_hi") < low)
        .then(pl.lit(WEAK))
        .when((pl.col("bought") == 0) & (pl.col("in_store") >= NEVER_MIN_STORE))
        .then(pl.lit(NEVER))
        .when((pl.col("bought") > 0) & (pl.col("buy_rate_hi") < rare))
        .then(pl.lit(RARE))
        .otherwise(pl.lit(""))
    )
    return df.with_columns(verdict.fill_null("").alias("verdict"))


def rare_rate(df: pl.DataFrame) -> float:
    """The buy rate below which a card of the set counts as hardly bought: RARE_SHARE of the
    set's median buy rate in the judging run."""
    median = df.get_column("buy_rate").median() if df.height else None
    return RARE_SHARE * float(median) if isinstance(median, (int, float)) else 0.0


def direction(verdict: str) -> int:
    """+1: the cost should rise (too strong); -1: it should fall (too weak, never or rarely
    bought)."""
    return 1 if verdict == STRONG else -1


def first_values(current: int, span: int, verdict: str, floor: int) -> list[int]:
    """The first sweep: `span` steps the way the flag points and one step back (for the slope);
    a card nobody buys only downwards (above its price nobody buys it either)."""
    if verdict in (NEVER, RARE):
        values = range(current - span, current + 1)
    elif direction(verdict) > 0:
        values = range(current - 1, current + span + 1)
    else:
        values = range(current - span, current + 2)
    return [v for v in values if v >= floor]


def next_values(
    values: Sequence[int], way: int, reach: float | None, span: int, floor: int
) -> list[int]:
    """Values beyond the swept range the way the flag points, at most `span` of them, evenly
    spread and ending at the far end, none below `floor`. The far end: where the fitted line
    reaches the target (`reach`; at least `span`, at most 2 * `span` steps beyond the edge);
    with no line that reaches it that way (nobody bought the card, or its improvement does not
    fall with the price) 2 * `span` steps up, or down halfway to the floor, so that a price far
    beyond every purse is left in a few rounds."""
    edge = max(values) if way > 0 else min(values)
    far = edge + way * span
    if reach is not None and math.isfinite(reach) and (reach - edge) * way > 0:
        wanted = math.ceil(reach) + 1 if way > 0 else math.floor(reach) - 1
        far = edge + way * min(2 * span, max(span, abs(wanted - edge)))
    elif way < 0:
        far = min(far, floor + (edge - floor) // 2)
    else:
        far = edge + 2 * span
    far = max(far, floor)
    new = list(range(edge + way, far + way, way)) if (far - edge) * way > 0 else []
    if len(new) > span:
        new = [new[round((i + 1) * len(new) / span) - 1] for i in range(span)]
    return sorted(new)


@dataclass(frozen=True)
class Decision:
    """What a sweep supports: a proposal (None: none, with the reason in `note`), or `widen`:
    sweep further the way the flag points and decide again."""

    proposed: int | None
    note: str
    widen: bool = False


@dataclass(frozen=True)
class Point:
    """One swept value: the seat-games that bought the card there, and its buy rate."""

    bought: int
    buy_rate: float


def decide(
    fair: FairValue,
    points: dict[int, Point],
    current: int,
    verdict: str,
    field: str,
    target: float,
    floor: int,
    can_widen: bool,
    rare: float = 0.0,
) -> Decision:
    """The proposal a sweep supports, never against the flag. `points`: every swept value;
    `rare`: a buy rate below which the card is hardly bought, so that a too strong card is
    never priced where nobody buys it (its numbers, not its price, are then the problem)."""
    sweep = _Sweep(fair, points, current, verdict, field, target, floor, can_widen, rare)
    if not math.isfinite(fair.slope):
        return sweep.unmeasured()
    if fair.slope >= 0:
        return sweep.flat()
    if fair.estimate is None:
        return sweep.uncrossed()
    return sweep.crossed(fair.estimate)


class _Sweep:
    """What `decide` reasons with: the sweep, the flag's direction and what follows from them
    (the far edge swept, the prices where the card is hardly bought, whether to widen)."""

    def __init__(
        self,
        fair: FairValue,
        points: dict[int, Point],
        current: int,
        verdict: str,
        field: str,
        target: float,
        floor: int,
        can_widen: bool,
        rare: float,
    ) -> None:
        self.fair, self.points, self.current, self.verdict = fair, points, current, verdict
        self.field, self.target, self.floor, self.rare = field, target, floor, rare
        self.way = way = direction(verdict)
        self.values = values = sorted(points)
        self.edge = edge = values[-1] if way > 0 else values[0]
        self.at_floor = way < 0 and edge <= floor
        self.more = "more games per value" if can_widen else "more games, or a larger --widen"
        self.dead = [v for v in values if way > 0 and v > current and points[v].buy_rate < rare]
        self.bought_at = [v for v in values if current < v < min(self.dead, default=edge + 1)]
        self.widen = can_widen and not self.at_floor and not self.dead

    def dearest(self, why: str) -> Decision:
        """A too strong card that dearer prices price out of play: the dearest price at
        which it is still bought, or nothing."""
        dead, points, verdict = self.dead, self.points, self.verdict
        hardly = (
            f"at {self.field} {dead[0]} it is hardly bought (buy rate "
            f"{points[dead[0]].buy_rate:.0%})"
        )
        if not self.bought_at:
            return Decision(
                None,
                f"{verdict}, {why}, but already {hardly}: its price alone "
                "cannot balance it; change its numbers instead",
            )
        v = self.bought_at[-1]
        return Decision(
            v,
            f"{verdict}, {why}; {hardly}, so {v}, the dearest price at which it "
            f"is still bought ({points[v].buy_rate:.0%}), is proposed: its price "
            "alone cannot balance it; change its numbers too",
        )

    def cheaper(self, why: str) -> Decision | None:
        """A card nobody (or hardly anybody) buys, when the fit gives no lower price: the
        dearest swept price below the current one at which it is no longer hardly bought."""
        verdict, points, current, field = self.verdict, self.points, self.current, self.field
        if verdict not in (NEVER, RARE):
            return None
        now = points[current].buy_rate if current in points else 0.0
        for v in reversed(self.values):
            if v < current and points[v].buy_rate > now and points[v].buy_rate >= self.rare:
                return Decision(
                    v,
                    f"{verdict} at {field} {current} (buy rate {now:.0%}), "
                    f"bought at {v} (buy rate {points[v].buy_rate:.0%}); {why}; {v} "
                    "is the dearest swept price at which it is no longer hardly "
                    "bought",
                )
        return None

    def unmeasured(self) -> Decision:
        """No slope: too few seats bought the card (or all did) to fit its improvement."""
        if self.widen:
            return Decision(None, self.fair.note, widen=True)
        return self.cheaper("too few seats bought it to measure its improvement") or Decision(
            None,
            f"{self.verdict}, but too few seats bought it (or all did) in the sweep "
            f"{self.values[0]}..{self.values[-1]} to measure its improvement: {self.fair.note}",
        )

    def flat(self) -> Decision:
        """The improvement does not fall as the price rises: the price does not decide it."""
        if self.widen:  # a narrow range far from the fair value looks flat
            return Decision(None, self.fair.note, widen=True)
        field, way = self.field, self.way
        return self.cheaper("its improvement does not fall as its price rises") or Decision(
            None,
            (
                f"{self.verdict}, but in the sweep {self.values[0]}..{self.values[-1]} its "
                f"improvement does not fall as its {field} rises (fitted slope "
                f"{self.fair.slope:+.3f} per step): it is {'strong' if way > 0 else 'weak'} at "
                f"every {field} swept, so its {field} does not decide its worth and no "
                f"{'higher' if way > 0 else 'lower'} {field} is proposed; change its other "
                f"numbers, or try {self.more} or another field"
            ),
        )

    def uncrossed(self) -> Decision:
        """The fitted line does not reach the target inside the sweep."""
        fair, field, target, verdict = self.fair, self.field, self.target, self.verdict
        edge, current = self.edge, self.current
        line = fair.intercept + fair.slope * edge
        if (line - target) * self.way <= 0:
            return self.cheaper(
                f"where it is bought its improvement is above {target:+.2f}: "
                "it is worth its price once it can be bought"
            ) or Decision(
                None,
                (
                    f"{verdict} in the judging run, but the sweep's fitted improvement is on "
                    f"the other side of {target:+.2f} throughout ({fair.note}): the two "
                    f"disagree, so nothing is proposed; {self.more} would settle it"
                ),
            )
        # still on the flag's side at the far end
        if self.widen:
            return Decision(None, fair.note, widen=True)
        side = "above" if self.way > 0 else "below"
        if self.dead:
            return self.dearest(f"still {side} {target:+.2f} up to {field} {self.dead[0]}")
        if edge == current:  # nowhere to go: already at the floor
            return Decision(
                None,
                (
                    f"{verdict} at {field} {current}, already the lowest allowed (fitted "
                    f"improvement {line:+.3f}): no lower {field} exists; change its other "
                    "numbers instead"
                ),
            )
        limit = (
            f"{self.floor}, the lowest allowed"
            if self.at_floor
            else f"{edge}, the widest sweep allowed"
        )
        return Decision(
            edge,
            (
                f"{verdict} and still {side} {target:+.2f} at {field} {limit} (fitted "
                f"improvement {line:+.3f} there), so {edge} is proposed as the step that goes "
                "furthest toward the band"
                + (
                    "; change its other numbers too"
                    if self.at_floor
                    else f"; {self.more} would show how far it must go"
                )
            ),
        )

    def crossed(self, estimate: float) -> Decision:
        """The fitted line reaches the target at `estimate`: propose its nearest allowed
        integer if that moves the way the flag points."""
        current, verdict, note = self.current, self.verdict, self.fair.note
        proposed = max(self.floor, round(estimate))
        if (proposed - current) * self.way > 0:
            if self.dead and proposed >= self.dead[0]:
                return self.dearest(f"its fair value {estimate:.2f} lies where it is hardly bought")
            return Decision(proposed, note)
        if proposed == current:
            return self.cheaper(
                f"the fair value {estimate:.2f} where it is bought rounds to the current {current}"
            ) or Decision(
                None,
                (
                    f"the fair value {estimate:.2f} rounds to the current {current}, so the sweep "
                    f"does not support the verdict {verdict!r} by a whole step: {note}"
                ),
            )
        return self.cheaper(
            f"where it is bought its fair value is {estimate:.2f}, not below "
            f"the current {current}: it is worth its price once it can be "
            "bought"
        ) or Decision(
            None,
            (
                f"{verdict} in the judging run, but the sweep puts the fair value at "
                f"{estimate:.2f}, {'below' if self.way > 0 else 'above'} the current {current}: "
                f"the two disagree, so nothing is proposed ({note}); {self.more} would settle it"
            ),
        )


@dataclass(frozen=True)
class CardTuning:
    """One flagged card: its sweep and the proposal (None when the sweep supports none)."""

    card: str
    field: str
    current: int
    verdict: str
    sweep: SweepResult | None
    proposed: int | None
    note: str


def _points(res: SweepResult) -> dict[int, Point]:
    return {
        int(v): Point(int(b or 0), float(r or 0.0))
        for v, b, r in res.metrics.select("value", "bought", "buy_rate").iter_rows()
    }


def tune_card(
    db: str,
    base: RunSpec,
    card: str,
    field: str,
    current: int,
    verdict: str,
    span: int,
    band: tuple[float, float],
    workers: int,
    console: Console,
    widen: int = 3,
    base_run: int | None = None,
    rare: float = 0.0,
) -> CardTuning:
    """Sweep `field` of `card` from `current` the way `verdict` points, widening up to `widen`
    times while no crossing is found, and decide (`rare`: see `decide`). `base_run`: a run of
    exactly `base`, reused as the sweep's current value."""
    target = (band[0] + band[1]) / 2
    floor = FLOOR.get(field, 0)
    if direction(verdict) < 0 and current <= floor:
        return _at_floor(card, field, current, verdict)
    values = first_values(current, span, verdict, floor)
    variants = card_variants(card, field, values)
    reuse = {v.label: base_run for v in variants if v.value == current and base_run is not None}
    study: Study | None = None
    for step in range(widen + 1):
        study = run_study(
            db, base, "tune", card, field, variants, workers, console, extend=study, reuse=reuse
        )
        res = _analysed(db, study, base.games, target)
        swept = [int(v.value) for v, _ in study.runs if v.value is not None]
        new = (
            next_values(swept, direction(verdict), res.fair.reach(target), span, floor)
            if step < widen
            else []
        )
        d = decide(res.fair, _points(res), current, verdict, field, target, floor, bool(new), rare)
        if not d.widen:
            break
        console.print(
            f"tune: {card} ({verdict}): {_unfit(res.fair)} in {min(swept)}..{max(swept)}; "
            f"widening to {', '.join(map(str, new))}",
            highlight=False,
        )
        variants = card_variants(card, field, new)
    widened = len({v.value for v, _ in res.study.runs}) > len(values)
    note = d.note + (f" (range widened to {min(swept)}..{max(swept)})" if widened else "")
    proposal = (
        card,
        f"proposed_{field}",
        None if d.proposed is None else float(d.proposed),
        res.fair.low,
        res.fair.high,
        f"{verdict}; current {current}; {note}",
    )
    record_results(db, res.study.sweep_id, [*result_rows(res), proposal])
    return CardTuning(card, field, current, verdict, res, d.proposed, note)


def _at_floor(card: str, field: str, current: int, verdict: str) -> CardTuning:
    """A card to make cheaper whose field is already the lowest allowed: nothing to sweep."""
    return CardTuning(
        card,
        field,
        current,
        verdict,
        None,
        None,
        (
            f"{verdict} at {field} {current}, already the lowest allowed: no lower {field} "
            "exists, so nothing was swept; change its other numbers instead"
        ),
    )


def _analysed(db: str, study: Study, games: int, target: float) -> SweepResult:
    """The study's sweep as it stands, read from `db`."""
    from workbench.analysis.source import open_db

    con = open_db(db)
    try:
        return analyse(con, study, games, target)
    finally:
        con.close()


def _unfit(fair: FairValue) -> str:
    """Why a sweep gives no crossing yet, as the widening message says it."""
    if not math.isfinite(fair.slope):
        return "too few buyers to fit a line"
    return "no falling line" if fair.slope >= 0 else "no crossing"
