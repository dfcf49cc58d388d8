"""Scoring the recovery benchmark (benchmarks/bench_recovery.py): which cards
a report's tables name and which way, whether a planted card is named the planted way (recall),
the cards named in a planted run that the unplanted run of the same seeds does not name (false
alarms), how far tune's proposal lands from the original cost (correction), and the summary by
plant size, card type and victory kind.

A report names a card when its verdicts table (`tables/card_verdicts.csv` or `verdicts.csv`: a
`card` and a `verdict` column) gives it a verdict that points one way; a report without that
table is read as reports were read before there was one: the cards table's verdict
(analysis/card_findings.card_verdict, the one the Findings use), and the dead and the
Kraken-like (drafted, never bought) cards as too weak, as the Findings list them.
"""

from __future__ import annotations

import csv
import math
import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.analysis.card_findings import TOO_STRONG, TOO_WEAK, card_verdict
from workbench.analysis.stats import LEVEL
from workbench.analysis.verdicts import priced_out, unused
from workbench.studies.ab import z_of
from workbench.studies.plants import COSTS, Direction, Size

VERDICT_TABLES = ("card_verdicts.csv", "verdicts.csv")
"""A report's table of a verdict per card, by the names it may have (the first found counts)."""
Named = dict[str, frozenset[Direction]]
"""Card -> the ways a report names it (usually one)."""

_NONE = ("no verdict", "no estimate", "fine", "not use", "cannot tell")
_STRONG = ("strong", "cheap", "underpriced")
_WEAK = ("weak", "dear", "expensive", "overpriced", "dead", "never bought", "rarely bought")


def direction_of(verdict: str) -> Direction | None:
    """The way a verdict's words name a card: too strong (or too cheap), too weak (or too dear,
    dead, never or rarely bought), or neither (fine, no estimate, no verdict)."""
    text = verdict.casefold()
    if not text or any(w in text for w in _NONE):
        return None
    if any(w in text for w in _STRONG):
        return Direction.STRONG
    if any(w in text for w in _WEAK):
        return Direction.WEAK
    return None


def _rows(path: Path) -> list[dict[str, str]]:
    if not path.is_file():
        return []
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _number(text: str | None) -> float | None:
    return None if text is None or text.strip() == "" else float(text)


def named_cards(tables: Path) -> Named:
    """The cards a report (its `tables/` folder) names, and which way."""
    found: dict[str, set[Direction]] = {}

    def name(card: str, way: Direction | None) -> None:
        if way is not None:
            found.setdefault(card, set()).add(way)

    verdicts = [tables / f for f in VERDICT_TABLES if (tables / f).is_file()]
    if verdicts:
        for r in _rows(verdicts[0]):
            name(r["card"], direction_of(r["verdict"]))
        return {c: frozenset(w) for c, w in found.items()}
    words = {TOO_STRONG: Direction.STRONG, TOO_WEAK: Direction.WEAK}
    for r in _rows(tables / "cards.csv"):
        verdict = card_verdict(_number(r["bought_gain"]), _number(r["bought_gain_bh"]))
        name(r["card"], words.get(verdict))
    for r in _rows(tables / "dead_cards.csv"):
        name(r["card"], Direction.WEAK)
    for r in _rows(tables / "drafted_cards.csv"):
        if r["kraken"].casefold() == "true":
            name(r["card"], Direction.WEAK)
    return {c: frozenset(w) for c, w in found.items()}


@dataclass(frozen=True)
class CaseScore:
    """A planted run's report against the unplanted one: the planted card named the planted
    way (and whether the unplanted run named it so too: a report that names every card too
    weak recalls every plant made weaker), how many cards the planted run names, and those of
    them (the run's planted cards aside) named in a way the unplanted run does not name them."""

    recalled: bool
    named: int
    false_alarms: tuple[str, ...]
    named_before: bool = False


def score(
    card: str,
    direction: Direction,
    planted: Named,
    unplanted: Named,
    others: Iterable[str] = (),
) -> CaseScore:
    """Recall and false alarms of one case (card names compared casefolded); `others`: the
    cards planted in the same run besides `card`, never false alarms."""
    key = card.casefold()
    skip = {key, *(c.casefold() for c in others)}
    before = {c.casefold(): w for c, w in unplanted.items()}
    ways = {c.casefold(): w for c, w in planted.items()}
    alarms = sorted(
        c
        for c, w in planted.items()
        if c.casefold() not in skip and w - before.get(c.casefold(), set())
    )
    recalled = direction in ways.get(key, frozenset())
    return CaseScore(
        recalled, len(planted), tuple(alarms), direction in before.get(key, frozenset())
    )


def proposal(proposals: Path, card: str, field: str) -> int | None:
    """Tune's proposed value of the card's field (its proposals.csv), None without one."""
    for r in _rows(proposals):
        if r["card"].lstrip("'").casefold() == card.casefold() and r["field"] == field:
            return int(r["new"])
    return None


# --- tune's cases ------------------------------------------------------------------------------


def tuned_cases(scored: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The scored run's cases tune is scored on: confirmed large plants of a cost (an effect
    or a stat plant has no original cost for tune to return to, and tune's correction of a
    plant that is none measures nothing)."""
    return [
        c
        for c in scored
        if is_confirmed(c)
        and c["plant"]["field"] in COSTS
        and c["plant"]["size"] == Size.LARGE.value
    ]


def untune(scored: Sequence[dict[str, Any]]) -> None:
    """Forget the run's tune results (--tune-again) and take their games and CPU off the
    run's cost (one tune per field, shared by the run's cases)."""
    done = {r["plant"]["field"]: r["tune"] for r in scored if r["tune"] is not None}
    games = sum(t["games"] for t in done.values())
    cpu = sum(t["cpu"] for t in done.values())
    for result in scored:
        result.update(tune=None, games=result["games"] - games, cpu=round(result["cpu"] - cpu, 1))


# --- the summary ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class CaseResult:
    """What the summary needs of one scored case. `confirmed`: the randomised run moved the
    planted card's effect the planted way; `correction`: |tune's proposal - original cost|, None
    when tune ran and proposed nothing for the planted field; `tuned`: whether tune ran.
    `named`, `false_alarms`, `games` and `cpu` are the whole run's, which the cases planted in
    one run (`run`) share: the summary counts each run once."""

    type: str
    victory: str
    size: Size
    confirmed: bool
    recalled: bool
    named: int
    false_alarms: int
    tuned: bool
    correction: int | None
    games: int
    cpu: float
    run: str = ""
    field: str = ""


def case_result(r: dict[str, Any]) -> CaseResult:
    """A case as the benchmark's results file keeps it (bench_recovery.run_case)."""
    tuned = r["tune"] is not None
    return CaseResult(
        r["plant"]["type"],
        r["victory"],
        Size(r["plant"]["size"]),
        is_confirmed(r),
        r["recalled"],
        r["named_count"],
        len(r["false_alarms"]),
        tuned,
        r["tune"]["correction"] if tuned else None,
        r["games"],
        r["cpu"],
        r.get("run", r["id"]),
        r["plant"]["field"],
    )


def case_line(r: dict[str, Any], label: str) -> str:
    """One scored case (bench_recovery's results) in a line: the plant (`label`), the truth,
    the report's names and tune's proposal, the games and CPU."""
    c = r["confirm"]

    def points(x: float | None) -> str:
        return "n/a" if x is None else f"{100 * x:+.1f}"

    truth = (
        f"effect {points(c['effect'])} [{points(c['low'])}, {points(c['high'])}], "
        f"shift {points(c['shift'])} [{points(c['shift_low'])}, {points(c['shift_high'])}]"
        + (", priced out" if c["priced_out"] else "")
    )
    again = r.get("reconfirm")
    if again is not None:
        truth += (
            f"; again ({again['games']:,} games, seed {again['seed']}): effect "
            f"{points(again['effect'])} [{points(again['low'])}, {points(again['high'])}], "
            f"shift {points(again['shift'])}"
        )
    tune_text = ""
    if r["tune"] is not None:
        t = r["tune"]
        tune_text = f"; tune {t['proposal']} (|d| {t['correction']})"
    return (
        f"{r['id']} {r['board']}: {label}: truth {truth} points: "
        f"{'confirmed' if is_confirmed(r) else 'not confirmed'}; named {r['named_count']}, "
        f"recalled {'yes' if r['recalled'] else 'no'}, false alarms {len(r['false_alarms'])}"
        f"{tune_text}; {r['games']:,} games, {r['cpu']:.0f} CPU s"
    )


def _share(hits: int, total: int) -> str:
    return f"{hits}/{total} ({100 * hits / total:.0f}%)" if total else "-"


def summary_row(group: str, cases: Sequence[CaseResult]) -> dict[str, str]:
    """One line of the summary: recall on confirmed large and moderate plants (and the plants
    named the planted way, confirmed or not), false alarms as a share of the cards named, tune
    within 1 of the original on confirmed large plants that tune ran on, and the pipeline's
    median games and CPU seconds per run (the names, alarms and costs of a run counted once
    however many of its cases the group holds)."""
    sure = [c for c in cases if c.confirmed]
    large = [c for c in sure if c.size is Size.LARGE]
    moderate = [c for c in sure if c.size is Size.MODERATE]
    tuned = [c for c in large if c.tuned]
    close = [c for c in tuned if c.correction is not None and c.correction <= 1]
    runs = list({c.run or str(i): c for i, c in enumerate(cases)}.values())
    named = sum(c.named for c in runs)
    alarms = sum(c.false_alarms for c in runs)

    def median(values: Iterable[float]) -> str:
        got = list(values)
        return f"{statistics.median(got):,.0f}" if got else "-"

    return {
        "group": group,
        "cases": str(len(cases)),
        "confirmed": str(len(sure)),
        "recall large": _share(sum(c.recalled for c in large), len(large)),
        "recall moderate": _share(sum(c.recalled for c in moderate), len(moderate)),
        "named, any plant": _share(sum(c.recalled for c in cases), len(cases)),
        "false alarms": _share(alarms, named),
        "tune within 1 (large)": _share(len(close), len(tuned)),
        "runs": str(len(runs)),
        "games/run": median(c.games for c in runs),
        "CPU s/run": median(c.cpu for c in runs),
    }


def summary(cases: Sequence[CaseResult]) -> list[dict[str, str]]:
    """The summary over all cases, then per card type, per victory kind and per planted field
    (a cost or an effect number)."""
    rows = [summary_row("all", cases)]
    keys: list[tuple[str, Callable[[CaseResult], str]]] = [
        ("type", lambda c: c.type),
        ("victory", lambda c: c.victory),
        ("field", lambda c: c.field),
    ]
    for what, key in keys:
        for value in sorted({key(c) for c in cases}):
            rows.append(summary_row(f"{what} {value}", [c for c in cases if key(c) == value]))
    return rows


def markdown(rows: Sequence[dict[str, str]]) -> str:
    """The summary as a Markdown table."""
    if not rows:
        return ""
    head = list(rows[0])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r[h] for h in head) + " |" for r in rows]
    return "\n".join(lines)


# --- the truth: a large run of the design --------------------------------------------------


@dataclass(frozen=True)
class Truth:
    """What a large run of the randomised buying design says of a planted card: its effect
    there with its 95% interval, the original card's effect in the original content's run, the
    shift between the two with its interval, whether the seats made to buy it could hardly pay
    for it (verdicts.priced_out), and whether the plant is one (`confirmed`)."""

    effect: float | None
    low: float | None
    high: float | None
    original: float | None
    shift: float | None
    shift_low: float | None
    shift_high: float | None
    priced_out: bool
    confirmed: bool


def confirmed(
    planted: dict[str, Any] | None,
    original: dict[str, Any] | None,
    direction: Direction,
    band: float,
    level: float = LEVEL,
) -> Truth:
    """Whether a plant is one, from the design runs' effect rows (causal.card_effects) of the
    planted card in the planted and the original content: its effect lies beyond the verdicts'
    band the planted way with the whole interval (a card the report should name), and it moved
    that way from the original's effect (the shift's interval, the two runs independent,
    excludes zero: the plant made it so). A card made weaker is also confirmed when the plant
    prices it out of play and the original was not. A card the forced seats do not play
    (verdicts.unused) is never confirmed: the agents cannot tell its worth."""
    sign = 1.0 if direction is Direction.STRONG else -1.0
    out_now = planted is not None and priced_out(planted)
    out_before = original is not None and priced_out(original)

    def value(row: dict[str, Any] | None, key: str) -> float | None:
        return None if row is None or row.get(key) is None else float(row[key])

    e, lo, hi = value(planted, "effect"), value(planted, "low"), value(planted, "high")
    e0, se, se0 = value(original, "effect"), value(planted, "se"), value(original, "se")
    shift = shift_low = shift_high = None
    if e is not None and e0 is not None and se is not None and se0 is not None:
        half = z_of(1 - level) * math.hypot(se, se0)
        shift, shift_low, shift_high = e - e0, e - e0 - half, e - e0 + half
    used = planted is not None and not unused(planted)
    beyond = lo is not None and hi is not None and (lo > band if sign > 0 else hi < -band)
    moved = (
        shift_low is not None
        and shift_high is not None
        and (shift_low > 0 if sign > 0 else shift_high < 0)
    )
    priced = sign < 0 and out_now and not out_before
    return Truth(
        e,
        lo,
        hi,
        e0,
        shift,
        shift_low,
        shift_high,
        out_now,
        bool(priced or (used and not out_now and beyond and moved)),
    )


def finite(x: float | None) -> float | None:
    """None for a missing or NaN number (JSON has no NaN)."""
    return None if x is None or math.isnan(x) else x


def leaning(truth: Truth, direction: Direction, band: float) -> bool:
    """Whether an unconfirmed plant leans the planted way in its truth run: its effect's point
    estimate beyond the band that way and its shift's estimate that way too. Only such a plant
    is played again on fresh seeds (bench_recovery --reconfirm-games); the second run decides
    on its own, so that choosing it on the first run's estimates biases nothing."""
    if truth.confirmed or truth.effect is None or truth.shift is None:
        return False
    sign = 1.0 if direction is Direction.STRONG else -1.0
    return sign * truth.effect > band and sign * truth.shift > 0


def is_confirmed(case: dict[str, Any]) -> bool:
    """Whether a scored case's plant is one: its truth run confirmed it, or it leaned the
    planted way there (`leaning`) and the independent second run (`reconfirm`) confirmed it.
    Each run's test errs the planted way at most 2.5% of the time, so the two together at most
    5%."""
    again = case.get("reconfirm")
    return bool(case["confirm"]["confirmed"] or (again is not None and again["confirmed"]))
