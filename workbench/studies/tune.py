"""Tuning a set by causal effects: flag the cards whose effect in a run of the
randomised buying design (workbench/analysis/causal.py) lies wholly outside a band, ranked by
how far; for each, search the cost (buy, play or upkeep, any card type) whose effect falls
inside the band, and check that cost on fresh seeds.

A probe is inside the band when its effect's 95% interval reaches into it (the run cannot tell
the card from a balanced one there). The search (`search`) assumes only that a dearer cost does
not make a card stronger. It steps the way the flag points by 1, 2, 4, 8... (a card priced out
of play: straight to the floor) until the effect leaves the flag's side (or the cost reaches its
floor or CAP), then halves the bracket towards the current cost. The proposal is where the line
through the probes nearest the band crosses its middle (`crossing`): at 400 games an effect's
interval is about +-11 points, twice a +-5 band, so the nearest value one probe cannot tell from
balanced stops short of the fair cost, and a point estimate alone lands wherever the noise does;
the crossing is held to REACH steps beyond the values probed. Every probe is a design run of the
changed set on the judging run's seed (the same drafts' deals, seats and arms, so probes differ
by the cost alone). A value whose effect lands inside the band is played again on a fresh seed;
the proposal says whether that check agrees. When no cost in range gets inside the band (the
effect jumps over it between two neighbouring values, or stays outside up to the floor or CAP)
the proposal is the value nearest the band's middle, and the note says that no price gets there,
so the card's other numbers must change too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

import duckdb
import numpy as np
import polars as pl
from rich.console import Console

from workbench.analysis import causal, verdicts
from workbench.analysis.source import open_db
from workbench.analysis.stats import LEVEL
from workbench.store import RunSpec
from workbench.studies.ab import z_of
from workbench.studies.study import Study, record_results, run_study
from workbench.studies.sweep import card_variants

STRONG, WEAK, NOT_USED = verdicts.TOO_STRONG, verdicts.TOO_WEAK, verdicts.NOT_USED
FLOOR = {"buy": 1, "play": 0, "upkeep": 0}
"""The lowest value a tuned cost may take (a buy price of 0 would make the card free)."""
CAP = 99
"""The highest (the card language's limit for costs, docs/card-language.md)."""
PROBES = 10
"""Design runs a card's search may play per cost field, the fresh check included (a price
30 too dear for a fair 4 takes 9: 29, 28, 26, 22, 14, then halving)."""
FRESH = 1_000_003
"""Added to the judging seed for the fresh check (seeds no probe used)."""
FIT = 4
"""Probes the line that places the proposal goes through (the nearest to the band)."""
REACH = 2
"""How far beyond the probes the line goes through a proposal may lie: 2 steps put 77% of
400 noisy searches within 1 of a fair 6 (1 step: 60%, no limit: 70%, which also puts 3% more
than 3 away; tests/test_cli_studies.py has the search)."""


def flag(effects: pl.DataFrame, cards: list[str], band: tuple[float, float]) -> pl.DataFrame:
    """The set's `cards` with their causal effects (causal.card_effects) and `verdict`: too
    strong when the whole 95% interval lies above the band, too weak when below or when its
    price keeps it out of play (verdicts.priced_out), "agents do not use it" when the seats
    made to buy it hardly play it (verdicts: no verdict then), else "". Sorted by `beyond`
    (how far the interval lies outside the band), largest first."""
    low, high = band
    df = effects.filter(pl.col("card").is_in(cards))
    rows = list(df.iter_rows(named=True))
    unused = pl.Series([verdicts.unused(r) for r in rows], dtype=pl.Boolean)
    priced_out = pl.Series([verdicts.priced_out(r) for r in rows], dtype=pl.Boolean)
    verdict = (
        pl.when(priced_out)
        .then(pl.lit(WEAK))
        .when(unused)
        .then(pl.lit(NOT_USED))
        .when(pl.col("low") > high)
        .then(pl.lit(STRONG))
        .when(pl.col("high") < low)
        .then(pl.lit(WEAK))
        .otherwise(pl.lit(""))
    )
    beyond = (
        pl.when(pl.col("verdict") == STRONG)
        .then(pl.col("low") - high)
        .when(pl.col("verdict") == WEAK)
        .then(pl.max_horizontal(low - pl.col("high"), 0.0))
        .otherwise(0.0)
    )
    return (
        df.with_columns(verdict.fill_null("").alias("verdict"))
        .with_columns(beyond.alias("beyond"))
        .sort(["beyond", "card"], descending=[True, False])
    )


def direction(verdict: str) -> int:
    """+1: the cost should rise (too strong); -1: it should fall (too weak)."""
    return 1 if verdict == STRONG else -1


@dataclass(frozen=True)
class Probe:
    """One cost tried: the card's effect there (None: no estimate) with its interval and the
    seats it rests on, the run, and whether the run was the fresh-seed check."""

    value: int
    effect: float | None
    low: float | None
    high: float | None
    n: int
    run_id: int
    fresh: bool = False
    priced_out: bool = False
    """Hardly any seat made to buy it could pay for it there (verdicts.priced_out)."""


def interval(p: Probe) -> tuple[float, float] | None:
    """The probe's 95% interval (its point estimate where a bound is missing), None without an
    estimate."""
    if p.effect is None:
        return None
    return (
        p.low if p.low is not None else p.effect,
        p.high if p.high is not None else p.effect,
    )


def side(p: Probe, band: tuple[float, float]) -> int:
    """+1 when the effect's whole 95% interval lies above the band, -1 below (or the card is
    priced out of play), 0 when the interval reaches into the band: the run cannot tell the
    card from a balanced one there."""
    if p.priced_out:
        return -1
    bounds = interval(p)
    if bounds is None:
        return 0
    low, high = bounds
    return 1 if low > band[1] else -1 if high < band[0] else 0


@dataclass(frozen=True)
class Outcome:
    """What the search found: the value proposed (None: none), whether its effect lies inside
    the band on the judging seeds (`reached`) and on fresh ones (`confirmed`), every probe, and
    the reason in words."""

    proposed: int | None
    reached: bool
    confirmed: bool
    probes: tuple[Probe, ...]
    note: str


def search(
    measure: Callable[[int, bool], Probe],
    start: Probe,
    way: int,
    band: tuple[float, float],
    floor: int,
    cap: int = CAP,
    budget: int = PROBES,
) -> Outcome:
    """The cost nearest `start` (the current cost, on the flag's side) whose effect falls
    inside `band`, moving `way` (+1 dearer, -1 cheaper): bracket by steps of 1, 2, 4..., then
    halve towards the current cost; the value found is played again on fresh seeds. At most
    `budget` runs, the fresh one included. `measure(value, fresh)` plays a design run."""
    flagged = side(start, band)
    probes = {start.value: start}
    near, far, inside = start.value, None, None
    # near: the last value on the flag's side; far: the nearest one beyond it (inside the band
    # or over it); inside: the nearest one inside. A card priced out of play is far from its
    # price: the floor first, then halving (30 to a fair 3 in 6 runs, not 9)
    step = abs(start.value - floor) if start.priced_out and way < 0 else 1
    while len(probes) < budget - 1:
        if far is None:
            value = max(floor, min(cap, start.value + way * step))
            if value == near:
                break  # at the floor or the cap
            step *= 2
        elif abs(far - near) > 1:
            value = (near + far) // 2
        else:
            break
        p = probes[value] = measure(value, False)
        if p.effect is None and not p.priced_out:
            return Outcome(
                None,
                False,
                False,
                _ordered(probes),
                f"no estimate at {value} (too few seats held it forced and banned): nothing "
                "is proposed; more games per run would give one",
            )
        s = side(p, band)
        if s == flagged:
            near = value
        else:
            far = value
            inside = value if s == 0 else inside
    if inside is not None:
        value, line = crossing(probes, inside, band, start.value, way, floor, cap)
        return _check(measure, probes.get(value) or probes[inside], value, line, probes, band)
    return _missed(start, probes, near, far, way, band, floor, cap, budget)


Z_LEVEL = z_of(1 - LEVEL)
"""z of the probes' intervals (causal.estimate's LEVEL): a standard error is the width / 2z."""


def crossing(
    probes: dict[int, Probe],
    inside: int,
    band: tuple[float, float],
    current: int,
    way: int,
    floor: int,
    cap: int,
    nearest: int = FIT,
) -> tuple[int, int | None]:
    """The cost where the effect crosses the band's middle, read off the weighted least-squares
    line through the `nearest` probes to `inside` (the nearest value whose interval reaches the
    band; priced-out probes and those without an estimate left out, weights 1/se^2): one probe's
    interval is about +-11 points at 400 games, so the nearest value it cannot tell from the band
    stops short of the fair cost, and the line through several probes reads it closer. Rounded,
    kept within floor and cap, on the flag's side of `current`, and at most REACH steps beyond
    the probes the line goes through: a line nearly flat in the cost crosses the middle far from
    anything played (a price 3-7 probed and 28 read off the line; BENCHMARKS.md, "Cost of tune
    on a 30-card set"), where nothing says the effect still follows it. `inside` when the probes
    do not show the effect falling as the cost rises. Returns the value and where the line
    crosses (None without a line), which differ when the crossing was held back."""
    usable = [p for p in probes.values() if p.effect is not None and not p.priced_out]
    near = sorted(usable, key=lambda p: (abs(p.value - inside), p.value))[:nearest]
    if len({p.value for p in near}) < 2:
        return inside, None
    x = np.array([p.value for p in near], dtype=float)
    y = np.array([float(p.effect or 0.0) for p in near])
    se = np.array([max(((p.high or 0.0) - (p.low or 0.0)) / (2 * Z_LEVEL), 1e-6) for p in near])
    slope, icept = np.polyfit(x, y, 1, w=1 / se)  # polyfit weights the residuals: 1/se
    if slope >= 0:
        return inside, None
    line = round(((band[0] + band[1]) / 2 - icept) / slope)
    value = max(floor, int(x.min()) - REACH, min(cap, int(x.max()) + REACH, line))
    return (value if (value - current) * way > 0 else current + way), line


def _ordered(probes: dict[int, Probe]) -> tuple[Probe, ...]:
    return tuple(sorted(probes.values(), key=lambda p: p.value))


def _missed(
    start: Probe,
    probes: dict[int, Probe],
    near: int,
    far: int | None,
    way: int,
    band: tuple[float, float],
    floor: int,
    cap: int,
    budget: int,
) -> Outcome:
    """No value inside the band: the one nearest its middle, and why none gets there."""
    mid = (band[0] + band[1]) / 2
    best = min(
        probes.values(),
        key=lambda p: (p.priced_out, abs((p.effect or mid) - mid), abs(p.value - start.value)),
    )
    if far is not None and abs(far - near) <= 1:
        what = f"between {min(near, far)} and {max(near, far)} its effect jumps over the band"
    else:
        limit = (
            f"{near} is the {'floor' if way < 0 else 'cap'}"
            if near in (floor, cap)
            else f"the search's {budget} runs are spent"
        )
        what = f"at {near} its effect is still outside the band, and {limit}"
    moved = best.value != start.value
    return Outcome(
        best.value if moved else None,
        False,
        False,
        _ordered(probes),
        f"no price in range gets its effect inside the band: {what}; "
        + (
            f"{best.value} is the nearest ({_effect(best)}); change its other numbers too"
            if moved
            else "no other price comes nearer; change its other numbers instead"
        ),
    )


def _check(
    measure: Callable[[int, bool], Probe],
    p: Probe,
    value: int,
    line: int | None,
    probes: dict[int, Probe],
    band: tuple[float, float],
) -> Outcome:
    """The value found (`value`; `p` its probe, or the nearest one inside the band when the
    line through the probes put it between them or beyond them; `line` where that
    line crosses the band's middle), played again on fresh seeds."""
    again = measure(value, True)
    ok = side(again, band) == 0
    crosses = f"the line through the probes crosses the band's middle at {line}"
    found = (
        f"{_effect(p)} at {p.value}"
        if p.value == value
        else f"{_effect(p)} at {p.value}; {crosses}"
        if line == value
        else f"{_effect(p)} at {p.value}; {crosses}, far beyond the values played, so "
        f"{value}, {REACH} steps past them, is proposed"
    )
    return Outcome(
        value,
        True,
        ok,
        (*_ordered(probes), again),
        f"{found}; on fresh seeds {_effect(again)}, {_fresh_words(again, band)}",
    )


def _fresh_words(p: Probe, band: tuple[float, float]) -> str:
    """What the fresh-seed check says: inside the band only when the whole interval is; an
    interval that reaches into the band and out of it cannot tell the card from a balanced one
    (side 0) and is said so."""
    if side(p, band) != 0:
        return "outside the band: not confirmed, more games"
    bounds = interval(p)
    if bounds is not None and band[0] <= bounds[0] and bounds[1] <= band[1]:
        return "inside the band too"
    return "not told apart from the band (its interval reaches beyond it): more games to be sure"


def _effect(p: Probe) -> str:
    if p.priced_out:
        return "priced out of play"
    if p.effect is None:
        return "no estimate"
    low, high = 100 * (p.low or 0.0), 100 * (p.high or 0.0)
    return f"effect {100 * p.effect:+.1f} points ({low:+.1f} to {high:+.1f})"


@dataclass(frozen=True)
class CardTuning:
    """One flagged card and cost field: its effect in the judging run, the search's outcome."""

    card: str
    field: str
    current: int
    verdict: str
    effect: float
    low: float
    high: float
    outcome: Outcome

    @property
    def proposed(self) -> int | None:
        return self.outcome.proposed

    @property
    def note(self) -> str:
        return self.outcome.note


def card_effect(con: duckdb.DuckDBPyConnection, run: int, card: str) -> Probe:
    """The card's effect in design run `run` (value 0: the caller sets it)."""
    df = causal.card_effects(con, [run]).filter(pl.col("card") == card)
    if df.height == 0:
        return Probe(0, None, None, None, 0, run)
    r = df.row(0, named=True)
    return Probe(
        0, r["effect"], r["low"], r["high"], int(r["n"]), run, priced_out=verdicts.priced_out(r)
    )


def tune_card(
    db: str,
    base: RunSpec,
    card: str,
    field: str,
    start: Probe,
    verdict: str,
    band: tuple[float, float],
    workers: int,
    console: Console,
    budget: int = PROBES,
) -> CardTuning:
    """Search `field` of `card` from its judging-run effect `start` (its value the current
    cost) the way `verdict` points, in at most `budget` design runs, recorded as one `tune`
    study."""
    study: Study | None = None

    def measure(value: int, fresh: bool) -> Probe:
        nonlocal study
        spec = dataclasses.replace(base, seed=base.seed + FRESH) if fresh else base
        [variant] = card_variants(card, field, [value])
        if fresh:
            variant = dataclasses.replace(variant, label=f"{variant.label} fresh")
        study = run_study(db, spec, "tune", card, field, [variant], workers, console, extend=study)
        run = study.runs[-1][1]
        con = open_db(db)
        try:
            p = card_effect(con, run, card)
        finally:
            con.close()
        console.print(
            f"tune: {card}.{field}={value}{' (fresh seeds)' if fresh else ''}: {_effect(p)}",
            highlight=False,
        )
        return dataclasses.replace(p, value=value, fresh=fresh)

    out = search(measure, start, direction(verdict), band, FLOOR.get(field, 0), CAP, budget)
    if study is not None:
        _record(db, study.sweep_id, card, field, out)
    return CardTuning(
        card,
        field,
        start.value,
        verdict,
        float(start.effect or 0.0),
        float(start.low or 0.0),
        float(start.high or 0.0),
        out,
    )


def _record(db: str, sweep_id: int, card: str, field: str, out: Outcome) -> None:
    """The search's probes and proposal as the study's sweep_results rows."""
    rows = [
        (
            card,
            f"effect@{field}={p.value}{' fresh' if p.fresh else ''}",
            p.effect,
            p.low,
            p.high,
            f"run {p.run_id}, n={p.n}",
        )
        for p in out.probes
    ]
    est = None if out.proposed is None else float(out.proposed)
    record_results(db, sweep_id, [*rows, (card, f"proposed_{field}", est, None, None, out.note)])
