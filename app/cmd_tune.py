"""`workbench tune`: flag a set's cards whose causal effect (the randomised buying design) lies
outside a band, search the cost that brings it inside, check it on fresh seeds, and write a
marked copy of the set's spreadsheet (never the original) with a before/after report."""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any

import polars as pl
from rich.console import Console

from app.consoles import consoles
from app.errors import UsageError, run_command
from app.study_args import add_run_options, base_spec
from engine.cards import Card
from reports import balance, html
from reports.html import Section, Table
from workbench.analysis import causal, verdicts
from workbench.analysis.source import open_db, resolve_runs
from workbench.content.card_sets import COSTS
from workbench.content.proposals import Proposal, write_copy
from workbench.content.setup import DEFAULT_SETS, load_setup
from workbench.play.jobs import Job, create_prepared_run, prepare
from workbench.play.pool import WorkerPool
from workbench.play.runner import execute
from workbench.store import RunSpec, load_run, open_store
from workbench.studies import findings as study_findings
from workbench.studies.tune import (
    FLOOR,
    NOT_USED,
    PROBES,
    CardTuning,
    Probe,
    before_after,
    flag,
    probe_table,
    tune_card,
)

DESIGN = "factorial"
"""The judging run's and every probe's agent: the randomised buying design."""


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "tune",
        help="propose new costs for a set's outliers",
        description="Judge the cards of --set by their causal effect in a run of the "
        "randomised buying design (`simulate --design causal`: each store card forced or "
        "banned by a coin): a card is flagged too strong or too weak when the 95% interval of "
        "its effect lies entirely above or below --band; flags are ranked by how far. For each "
        "flagged card the first of --fields it has (buy, play, upkeep; any card type) is "
        "searched the way the flag points (steps of 1, 2, 4... then halving, every probe a "
        "design run on the judging seed) for the cost whose effect falls inside the band, "
        "which is then played again on fresh seeds; when no cost in range gets there, the "
        "nearest is proposed and the CSV, the marked cell's comment and the page say so. "
        "Writes a copy of the set's spreadsheet with the proposed cells changed and marked, "
        "proposals.csv and a before/after report into --out; the original file is never "
        "written.",
    )
    parser.add_argument("--set", required=True, help="the set to tune (a name or a path)")
    parser.add_argument(
        "--band", required=True, help="LOW,HIGH of an acceptable effect, e.g. -0.05,0.05"
    )
    parser.add_argument(
        "--run",
        type=int,
        help="judge the cards by this run of --db if it played the design, else by its "
        "design companion (a design run of the same sets, boards and content), and search "
        "with its sets and boards (default: play a new design run of --sets)",
    )
    parser.add_argument(
        "--fields",
        default="buy",
        help="costs to search, in order of preference: any of buy, play, upkeep, "
        "comma-separated; the next is tried when one gets no cost inside the band "
        "(default: buy)",
    )
    parser.add_argument(
        "--probes",
        type=int,
        default=PROBES,
        help=f"design runs per card and field, the fresh check included (default: {PROBES})",
    )
    add_run_options(
        parser,
        agents=False,
        sets_help="card sets the judging run and the probes "
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
    """The design run's spec the cards are judged in and searched with, and that run if it
    exists already (--run, or its design companion); checks --set before any game."""
    if args.run is not None:
        if args.sets is not None:
            raise UsageError("--run judges an existing run, whose sets are fixed; drop --sets")
        con = open_db(args.db)
        try:
            resolve_runs(con, [args.run])
            design = causal.companion_runs(con, [args.run])
            if not design:
                raise UsageError(
                    f"run {args.run} did not play the randomised buying design and the file "
                    "holds no design run of its setup: play one with `workbench simulate "
                    "--design causal` and the same sets and boards, or drop --run"
                )
            spec, _, _ = load_run(con, design[0])
        finally:
            con.close()
        return spec, design[0]
    if args.sets is None:
        shipped = args.set.casefold() in (s.casefold() for s in DEFAULT_SETS)
        args.sets = ",".join(DEFAULT_SETS) if shipped else args.set
    return base_spec(args, DESIGN), None


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
    """Flag, search, propose, write the copy and the report."""
    band, fields = _options(args)
    base, run_id = _judging_spec(args)
    set_name = _set_name(args.set, base)
    setup = load_setup(base.sets, base.boards[0])
    _check_set(setup.sets, set_name, base.sets)
    if run_id is None:
        run_id = _play(args, base, console)
    names = [
        c.name for s in setup.sets if s.name.casefold() == set_name.casefold() for c in s.cards
    ]
    con = open_db(args.db)
    try:
        flagged = flag(causal.card_effects(con, [run_id]), names, band)
    finally:
        con.close()
    current = {c.name: c for s in setup.sets for c in s.cards}
    tunings = _tune_flagged(args, base, run_id, flagged, current, fields, band, console)
    chosen = _chosen(tunings)
    proposals = [
        Proposal(
            t.card,
            t.field,
            t.current,
            t.current if t.proposed is None else t.proposed,
            "" if t.outcome.confirmed else t.note,
        )
        for t in chosen
    ]
    out = Path(args.out)
    copy = None
    if proposals:
        copy = write_copy(_source(setup.sets, set_name), out, proposals, run_id)
    judged = set(flagged.get_column("card").to_list())
    unseen = sorted(n for n in names if n not in judged)
    _report(out, run_id, band, flagged, tunings, copy, unseen)
    return tunings, copy


def _chosen(tunings: list[CardTuning]) -> list[CardTuning]:
    """Per card, the field to change: the first whose cost gets inside the band, else the first
    searched (whose note says no price gets there)."""
    best: dict[str, CardTuning] = {}
    for t in tunings:
        if t.card not in best or (t.outcome.reached and not best[t.card].outcome.reached):
            best[t.card] = t
    return list(best.values())


def _options(args: argparse.Namespace) -> tuple[tuple[float, float], list[str]]:
    """--band, and the --fields to search; UsageError for a bad one, before any game."""
    band = _band(args.band)
    fields = [f.strip() for f in args.fields.split(",") if f.strip()]
    if not fields or not set(fields) <= set(COSTS):
        raise UsageError(f"--fields takes {', '.join(COSTS)}, not {args.fields!r}")
    if args.probes < 2:
        raise UsageError("--probes must be at least 2 (one probe and its fresh check)")
    return band, fields


def _tune_flagged(
    args: argparse.Namespace,
    base: RunSpec,
    run_id: int,
    flagged: pl.DataFrame,
    current: dict[str, Card],
    fields: list[str],
    band: tuple[float, float],
    console: Console,
) -> list[CardTuning]:
    """Search each flagged card's costs in the order of --fields (largest effect first), up to
    the first cost that gets inside the band (a cost the card does not have is skipped, and so
    is one already at its floor when the card must get cheaper)."""
    tunings: list[CardTuning] = []
    flags = flagged.filter(pl.col("verdict").is_in(["too strong", "too weak"]))
    for r in flags.iter_rows(named=True):
        for field in fields:
            value = getattr(current[r["card"]], field)
            if value is None or (r["verdict"] == "too weak" and value <= FLOOR[field]):
                continue
            start = Probe(
                int(value),
                r["effect"],
                r["low"],
                r["high"],
                int(r["n"]),
                run_id,
                priced_out=verdicts.priced_out(r),
            )
            t = tune_card(
                args.db,
                base,
                r["card"],
                field,
                start,
                r["verdict"],
                band,
                args.workers,
                console,
                args.probes,
            )
            tunings.append(t)
            if t.outcome.reached:
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
    """One card's outcome in words: the move, and its effect or why no price gets there."""
    return f"{move(t)} ({t.note})"


CARD_COLUMNS = [
    "card",
    "verdict",
    "effect",
    "low",
    "high",
    "n",
    "n_forced",
    "n_banned",
    "wr_forced",
    "wr_banned",
    "bought_forced",
    "played_forced",
]
"""The columns of the judged cards' table."""
FINDINGS_INTRO = (
    "What to look at first, the largest effects first: each proposal with the causal effect "
    "that flagged the card (high: its effect lands inside the band on the judging seeds and "
    "on fresh ones; medium: not confirmed on fresh seeds, or no cost in range gets inside "
    "the band), then the cards not tuned. Intervals are 95%; n the probes played."
)
NOTHING_FOUND = "No card was flagged: every card's effect lies within the band."


def _report(
    out: Path,
    run_id: int,
    band: tuple[float, float],
    flagged: pl.DataFrame,
    tunings: list[CardTuning],
    copy: Path | None,
    unseen: list[str],
) -> None:
    """The page: the findings, the proposals with every probe, the cards judged."""
    unused = flagged.filter(pl.col("verdict") == NOT_USED).get_column("card").to_list()
    found = study_findings.tune_findings(tunings, unused, unseen)
    html.write(
        out,
        f"Tuning run {run_id}",
        [
            ("judging run", f"{run_id} (randomised buying)"),
            ("band", f"{band[0]:+.2f}..{band[1]:+.2f}"),
        ],
        [
            balance.findings_list(found, FINDINGS_INTRO, NOTHING_FOUND),
            _proposals_section(tunings, copy),
            _judged_section(run_id, band, flagged, unseen),
        ],
    )


def _proposals_section(tunings: list[CardTuning], copy: Path | None) -> Section:
    """Every move in words, the effects before and after, and every probe."""
    moves = " ".join(f"{line(t)}." for t in tunings) or "No card was flagged."
    return Section(
        "proposals",
        "Proposals",
        f"{moves} "
        + (
            f"Marked copy: {copy.name}; every change in proposals.csv, with a note where no "
            "cost in range gets the card inside the band."
            if copy
            else "No proposal, so no copy."
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
                    "effect_before",
                    "effect_after",
                    "effect_fresh",
                    "reaches_band",
                    "confirmed",
                    "probes",
                ],
                note="The causal effect at the current cost (judging run), at the proposed "
                "cost (same seeds) and there on fresh seeds; reaches_band: the proposed "
                "cost's effect lies inside the band; the reasons are above and in the note "
                "column of the CSV.",
            ),
            Table(
                "tune_probes",
                "Every probe",
                probe_table(tunings),
                note="Each cost tried: the card's effect there with its 95% interval, the "
                "seats holding it (n), its design run, and whether it was the fresh-seed "
                "check.",
            ),
        ],
    )


def _judged_section(
    run_id: int, band: tuple[float, float], flagged: pl.DataFrame, unseen: list[str]
) -> Section:
    """The set's cards with their effects and verdicts, and the cards never judged."""
    return Section(
        "flagged",
        "Cards judged",
        f"Causal effect in design run {run_id} (win rate of the seats holding the card forced "
        f"minus banned, adjusted for the other cards' arms) against the band "
        f"{band[0]:+.2f}..{band[1]:+.2f}: too strong or too weak when its whole 95% interval "
        "lies above or below it; agents do not use it when the seats made to buy it hardly "
        "play it (not tuned: no verdict)."
        + (f" Never drafted, so not judged: {', '.join(unseen)}." if unseen else ""),
        [
            Table(
                "tune_cards",
                "The set's cards",
                flagged,
                {"wr_forced": "n_forced", "wr_banned": "n_banned"},
                CARD_COLUMNS,
            )
        ],
    )


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
        console.print("no card's effect lies outside the band", highlight=False)
    if copy:
        console.print(str(copy), markup=False, highlight=False)
    console.print(str(Path(args.out) / "index.html"), markup=False, highlight=False)
    return 0
