"""`workbench tune`: flag a set's cards whose improvement when bought lies outside a band,
propose new costs by sweeping, and write a marked copy of the set's spreadsheet (never the
original) with a before/after report."""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any

import polars as pl
from rich.console import Console

from app.console import consoles
from app.errors import UsageError, run_command
from app.study_args import add_run_options, base_spec
from engine.cards import Card
from reports import balance, design, html
from reports.html import Section, Table
from workbench.analysis.source import open_db, resolve_runs
from workbench.content.proposals import Proposal, write_copy
from workbench.content.setup import DEFAULT_SETS, load_setup
from workbench.play.jobs import Job, create_prepared_run, prepare
from workbench.play.pool import WorkerPool
from workbench.play.runner import execute
from workbench.store import RunSpec, load_run, open_store
from workbench.studies import findings as study_findings
from workbench.studies.tune import (
    NEVER_MIN_STORE,
    RARE_SHARE,
    CardTuning,
    before_after,
    flag,
    rare_rate,
    tune_card,
)


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "tune",
        help="propose new costs for a set's outliers",
        description="Judge the cards of --set in a run of --sets (or --run): a card is flagged "
        "too strong or too weak when the 95% interval of its improvement when bought (win rate "
        "when bought minus drafted but never bought) lies entirely above or below --band, and "
        "never or rarely bought when its price may keep it out of play. Each flagged card's "
        "cost is swept on shared seeds the way the flag points (up for too strong, down "
        "otherwise), the range widened on its own while no crossing is found, and the integer "
        "nearest to where the improvement reaches the band's middle is proposed; a proposal "
        "always moves the cost the way the flag points, or there is none and the reason is "
        "given. Writes a copy of the set's spreadsheet with the proposed cells changed and "
        "marked, proposals.csv and a before/after report into --out; the original file is "
        "never written.",
    )
    parser.add_argument("--set", required=True, help="the set to tune (a name or a path)")
    parser.add_argument(
        "--band", required=True, help="LOW,HIGH of an acceptable improvement, e.g. -0.05,0.05"
    )
    parser.add_argument(
        "--run",
        type=int,
        help="judge the cards in this run of --db and sweep "
        "with its sets, board and agents (default: play a new run of --sets)",
    )
    parser.add_argument(
        "--fields",
        default="buy",
        help="costs to sweep, in order of preference: buy, upkeep or both (default: buy)",
    )
    parser.add_argument(
        "--span",
        type=int,
        default=2,
        help="steps swept the way the flag points, plus one step back (default: 2)",
    )
    parser.add_argument(
        "--widen",
        type=int,
        default=3,
        help="times the sweep may be widened "
        "the way the flag points when it finds no crossing, each time by "
        "--span more values (default: 3)",
    )
    add_run_options(
        parser,
        explore=True,
        sets_help="card sets the judging run and the sweeps "
        "play, comma-separated, --set among them (default: the shipped pair when "
        f"--set is one of them ({', '.join(DEFAULT_SETS)}), else --set alone)",
    )


def _band(text: str) -> tuple[float, float]:
    try:
        low, high = (float(v) for v in text.split(","))
    except ValueError:
        raise UsageError(f"--band wants LOW,HIGH like -0.05,0.05, not {text!r}") from None
    if not (math.isfinite(low) and math.isfinite(high)):
        raise UsageError(f"--band {text}: LOW and HIGH must be numbers")
    if low > high:
        raise UsageError(f"--band {text}: LOW is above HIGH")
    return low, high


def _judging_spec(args: argparse.Namespace) -> tuple[RunSpec, int | None]:
    """The spec the cards are judged in and swept with, and the run to judge if it exists
    already (--run); checks that --set is among its sets before any game."""
    if args.run is not None:
        if args.sets is not None:
            raise UsageError("--run judges an existing run, whose sets are fixed; drop --sets")
        con = open_db(args.db)
        try:
            spec, _, _ = load_run(con, args.run)
        finally:
            con.close()
        return spec, args.run
    if args.sets is None:
        shipped = args.set.casefold() in (s.casefold() for s in DEFAULT_SETS)
        args.sets = ",".join(DEFAULT_SETS) if shipped else args.set
    return base_spec(args), None


def _check_set(setup_sets: Any, name: str, sets: tuple[str, ...]) -> None:
    names = [s.name for s in setup_sets]
    if name.casefold() not in (n.casefold() for n in names):
        raise UsageError(
            f"--set {name!r} is not among the judging run's sets "
            f"({', '.join(sets)}: {', '.join(names)})"
        )


def _play(args: argparse.Namespace, spec: RunSpec, console: Console) -> int:
    prep = prepare(spec)
    con = open_store(args.db)
    try:
        run_id = create_prepared_run(con, spec, prep, "local", args.workers)
        console.print(f"tune: judging run {run_id} ({', '.join(spec.sets)})", highlight=False)
        job = Job(run_id, spec, prep.configs)
        execute(con, job, range(spec.games), WorkerPool(args.workers, once=True), console)
    finally:
        con.close()
    return run_id


def tune(args: argparse.Namespace, console: Console) -> tuple[list[CardTuning], Path | None]:
    """Flag, sweep, propose, write the copy and the report."""
    band, fields = _options(args)
    base, run_id = _judging_spec(args)
    set_name = _set_name(args.set, base)
    setup = load_setup(base.sets, base.boards[0])
    _check_set(setup.sets, set_name, base.sets)
    played = run_id is None
    if run_id is None:
        run_id = _play(args, base, console)
    con = open_db(args.db)
    try:
        resolve_runs(con, [run_id])
        flagged = flag(con, run_id, set_name, band)
    finally:
        con.close()
    current = {c.name: c for s in setup.sets for c in s.cards}
    base_run = run_id if played else None
    tunings = _tune_flagged(args, base, flagged, current, fields, band, base_run, console)
    proposals = [
        Proposal(t.card, t.field, t.current, t.proposed) for t in tunings if t.proposed is not None
    ]
    out = Path(args.out)
    copy = None
    if proposals:
        source = _source(setup.sets, set_name)
        copy = write_copy(source, out, proposals, run_id)
    judged = {str(c) for c in flagged.get_column("card")}
    unseen = sorted(
        c.name
        for s in setup.sets
        if s.name.casefold() == set_name.casefold()
        for c in s.cards
        if c.name not in judged
    )
    _report(out, run_id, band, flagged, tunings, copy, unseen)
    return tunings, copy


def _options(args: argparse.Namespace) -> tuple[tuple[float, float], list[str]]:
    """--band, and the --fields to sweep; UsageError for a bad one, before any game."""
    band = _band(args.band)
    fields = [f.strip() for f in args.fields.split(",") if f.strip()]
    if not fields or not set(fields) <= {"buy", "upkeep"}:
        raise UsageError(f"--fields takes buy and/or upkeep, not {args.fields!r}")
    if args.span < 1 or args.widen < 0:
        raise UsageError("--span must be at least 1 and --widen at least 0")
    return band, fields


def _tune_flagged(
    args: argparse.Namespace,
    base: RunSpec,
    flagged: pl.DataFrame,
    current: dict[str, Card],
    fields: list[str],
    band: tuple[float, float],
    base_run: int | None,
    console: Console,
) -> list[CardTuning]:
    """Sweep each flagged card's costs in the order of --fields, up to the first cost that
    gets a proposal (a cost the card does not have is skipped); `base_run`: the judging run when
    it was played here with exactly `base`, reused as each sweep's current value."""
    tunings: list[CardTuning] = []
    for r in flagged.filter(pl.col("verdict") != "").iter_rows(named=True):
        for field in fields:
            value = getattr(current[r["card"]], field)
            if value is None:
                continue
            t = tune_card(
                args.db,
                base,
                r["card"],
                field,
                int(value),
                r["verdict"],
                args.span,
                band,
                args.workers,
                console,
                args.widen,
                base_run,
                rare_rate(flagged),
            )
            tunings.append(t)
            if t.proposed is not None:
                break
    return tunings


def _set_name(given: str, base: RunSpec) -> str:
    """A set given as a path is named after its file (the loader's rule)."""
    path = Path(given)
    return path.stem if path.suffix else given


def _source(sets: Any, name: str) -> Path:
    for s in sets:
        if s.name.casefold() == name.casefold():
            return Path(s.source.split("#")[0])
    raise UsageError(f"set {name!r} is not among the run's sets")


def move(t: CardTuning) -> str:
    """`Windfall (too strong): buy 1 -> 5`, or `... buy 1, no proposal`."""
    return f"{t.card} ({t.verdict}): " + (
        f"{t.field} {t.current} -> {t.proposed}"
        if t.proposed is not None
        else f"{t.field} {t.current}, no proposal"
    )


def line(t: CardTuning) -> str:
    """One card's outcome in words: the move, or why there is none."""
    return f"{move(t)} ({t.note})"


CARD_COLUMNS = [
    "card",
    "in_store",
    "buy_rate",
    "bought",
    "wr_bought",
    "never_bought",
    "wr_never_bought",
    "bought_gain",
    "verdict",
]
"""The columns of the judged cards' table."""
CARD_RATES = {
    "buy_rate": "in_store",
    "wr_bought": "bought",
    "wr_never_bought": "never_bought",
    "bought_gain": "bought",
}
"""Its rates and the count each is a share of."""
FINDINGS_INTRO = (
    "What to look at first: each proposal with the improvement when bought that flagged the "
    "card and the fair value (high: its 95% interval is closed; medium: one end is open), each "
    "flagged card without a proposal and why, and the cards never judged. Intervals are 95%, n "
    "the buyers in the judging run."
)
NOTHING_FOUND = (
    "No card was flagged: every card's improvement when bought lies within the band, and every "
    "card is bought."
)


def _report(
    out: Path,
    run_id: int,
    band: tuple[float, float],
    flagged: pl.DataFrame,
    tunings: list[CardTuning],
    copy: Path | None,
    unseen: list[str],
) -> None:
    """The page: the findings, the proposals, the cards judged, then each card's sweep."""
    found = study_findings.tune_findings(tunings, flagged, unseen)
    html.write(
        out,
        f"Tuning run {run_id}",
        [("judging run", str(run_id)), ("band", f"{band[0]:+.2f}..{band[1]:+.2f}")],
        [
            balance.findings_list(found, FINDINGS_INTRO, NOTHING_FOUND),
            _proposals_section(tunings, copy),
            _judged_section(run_id, band, flagged, unseen),
            *_sweep_sections(tunings, band),
        ],
    )


def _proposals_section(tunings: list[CardTuning], copy: Path | None) -> Section:
    """Every move in words (proposals first), and the costs and rates before and after."""
    ordered = sorted(tunings, key=lambda t: t.proposed is None)
    moves = (
        " ".join(f"{move(t)}." if t.sweep else f"{line(t)}." for t in ordered)
        or "No card was flagged."
    )
    return Section(
        "proposals",
        "Proposals",
        (
            f"{moves} The reason for each is in the card's own section below and "
            "in the note column of tune_proposals.csv. "
            + (
                f"Marked copy: {copy.name}; every change in proposals.csv."
                if copy
                else "No proposal, so no copy."
            )
        ),
        [
            Table(
                "tune_proposals",
                "Before and after",
                before_after(tunings),
                show=[
                    "card",
                    "field",
                    "verdict",
                    "current",
                    "proposed",
                    "fair_value",
                    "fair_low",
                    "fair_high",
                    "gain_before",
                    "gain_after",
                    "buy_rate_before",
                    "buy_rate_after",
                ],
                note="The cost now and proposed, the fair value with its "
                "interval, and the improvement and buy rate at both costs "
                "(from the sweep, same seeds); the reasons are above and in "
                "the CSV's note column.",
            )
        ],
    )


def _judged_section(
    run_id: int, band: tuple[float, float], flagged: pl.DataFrame, unseen: list[str]
) -> Section:
    """The set's cards with the verdicts that flagged them, and the cards never judged."""
    return Section(
        "flagged",
        "Cards judged",
        f"Improvement when bought in run {run_id} "
        f"against the band {band[0]:+.2f}..{band[1]:+.2f}: too strong or too "
        "weak when its whole 95% interval (Newcombe) lies above or below the "
        f"band; never bought when in store at least {NEVER_MIN_STORE} times and "
        "never bought; rarely bought when its buy rate's 95% upper bound is "
        f"below {RARE_SHARE:.0%} of the set's median buy rate."
        + (f" Never drafted, so not judged: {', '.join(unseen)}." if unseen else ""),
        [Table("tune_cards", "The set's cards", flagged, CARD_RATES, CARD_COLUMNS)],
    )


def _sweep_sections(tunings: list[CardTuning], band: tuple[float, float]) -> list[Section]:
    """One section per card cost swept, aimed at the band's middle."""
    return [
        design.sweep_section(
            f"sweep{i}",
            f"{t.card}.{t.field}",
            t.sweep.metrics,
            t.sweep.fair,
            (band[0] + band[1]) / 2,
            t.card,
            f"{t.card}.{t.field}",
            f"{line(t)}. ",
        )
        for i, t in enumerate(tunings)
        if t.sweep is not None
    ]


def run(args: argparse.Namespace) -> int:
    console, err = consoles()
    return run_command(
        "tune", err, lambda: tune(args, err), lambda done: _show(args, *done, console)
    )


def _show(
    args: argparse.Namespace, tunings: list[CardTuning], copy: Path | None, console: Console
) -> int:
    """Each card's outcome, the marked copy and the page."""
    for t in tunings:
        console.print(line(t), markup=False, highlight=False)
    if not tunings:
        console.print(
            "no card lies significantly outside the band, and every card is bought", highlight=False
        )
    if copy:
        console.print(str(copy), markup=False, highlight=False)
    console.print(str(Path(args.out) / "index.html"), markup=False, highlight=False)
    return 0
