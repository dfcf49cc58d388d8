"""`workbench tune`: flag a set's cards whose improvement when bought lies outside a band,
propose new costs by sweeping, and write a marked copy of the set's spreadsheet (never the
original) with a before/after report."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import polars as pl
from rich.console import Console

from reports import design, html
from reports.html import Section, Table
from workbench.analysis.source import AnalysisError, open_db, resolve_runs
from workbench.cmd_simulate import UsageError
from workbench.config import load_setup
from workbench.tables import ValidationError
from workbench.proposals import Proposal, write_copy
from workbench.runner import Job, execute, prepare
from workbench.store import RunSpec, StoreError, create_run, load_run, open_store
from workbench.study_args import add_run_options, base_spec
from workbench.tune import CardTuning, before_after, flag, tune_card


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "tune", help="propose new costs for a set's outliers",
        description="Find the cards of --set whose improvement when bought (win rate when "
        "bought minus drafted but never bought) has a 95% interval entirely outside --band, "
        "sweep their cost around the current one on shared seeds, and propose the integer "
        "nearest to where the improvement reaches the band's middle. Writes a copy of the "
        "set's spreadsheet with the proposed cells changed and marked, proposals.csv and a "
        "before/after report into --out; the original file is never written.")
    parser.add_argument("--set", required=True, help="the set to tune (a name or a path)")
    parser.add_argument("--band", required=True, help="LOW,HIGH of an acceptable improvement, "
                        "e.g. -0.05,0.05")
    parser.add_argument("--run", type=int, help="judge the cards from this run of --db "
                        "(default: play a new run of --sets, default the set alone)")
    parser.add_argument("--fields", default="buy", help="costs to sweep, in order of "
                        "preference: buy, upkeep or both (default: buy)")
    parser.add_argument("--span", type=int, default=2, help="steps swept either side of the "
                        "current cost (default: 2)")
    add_run_options(parser, explore=True)


def _band(text: str) -> tuple[float, float]:
    try:
        low, high = (float(v) for v in text.split(","))
    except ValueError:
        raise UsageError(f"--band wants LOW,HIGH like -0.05,0.05, not {text!r}") from None
    if low > high:
        raise UsageError(f"--band {text}: LOW is above HIGH")
    return low, high


def _base_run(args: argparse.Namespace, console: Console) -> tuple[int, RunSpec]:
    if args.run is not None:
        con = open_store(args.db)
        try:
            spec, _, _ = load_run(con, args.run)
        finally:
            con.close()
        return args.run, spec
    if args.sets is None:
        args.sets = args.set
    spec = base_spec(args)
    prep = prepare(spec)
    con = open_store(args.db)
    try:
        run_id = create_run(con, spec, prep.boards, prep.cards, prep.pool, prep.params,
                            prep.files, prep.content_hash, "local", args.workers)
        console.print(f"tune: base run {run_id}", highlight=False)
        execute(con, Job(run_id, spec, prep.configs), range(spec.games), "local", args.workers,
                console)
    finally:
        con.close()
    return run_id, spec


def tune(args: argparse.Namespace, console: Console) -> tuple[list[CardTuning], Path | None]:
    """Flag, sweep, propose, write the copy and the report."""
    band = _band(args.band)
    fields = [f.strip() for f in args.fields.split(",") if f.strip()]
    if not fields or not set(fields) <= {"buy", "upkeep"}:
        raise UsageError(f"--fields takes buy and/or upkeep, not {args.fields!r}")
    run_id, base = _base_run(args, console)
    con = open_db(args.db)
    try:
        resolve_runs(con, [run_id])
        flagged = flag(con, run_id, _set_name(args.set, base), band)
    finally:
        con.close()
    setup = load_setup(base.sets, base.boards[0])
    current = {c.name: c for s in setup.sets for c in s.cards}
    tunings: list[CardTuning] = []
    for r in flagged.filter(pl.col("verdict") != "").iter_rows(named=True):
        for field in fields:
            value = getattr(current[r["card"]], field)
            if value is None:
                continue
            t = tune_card(args.db, base, r["card"], field, int(value), r["verdict"], args.span,
                          band, args.workers, console)
            tunings.append(t)
            if t.proposed is not None:
                break
    proposals = [Proposal(t.card, t.field, t.current, t.proposed) for t in tunings
                 if t.proposed is not None]
    out = Path(args.out)
    copy = None
    if proposals:
        source = _source(setup.sets, _set_name(args.set, base))
        copy = write_copy(source, out, proposals, run_id)
    _report(out, run_id, band, flagged, tunings, copy)
    return tunings, copy


def _set_name(given: str, base: RunSpec) -> str:
    """A set given as a path is named after its file (the loader's rule)."""
    path = Path(given)
    return path.stem if path.suffix else given


def _source(sets: Any, name: str) -> Path:
    for s in sets:
        if s.name.casefold() == name.casefold():
            return Path(s.source.split("#")[0])
    raise UsageError(f"set {name!r} is not among the run's sets")


def _report(out: Path, run_id: int, band: tuple[float, float], flagged: pl.DataFrame,
            tunings: list[CardTuning], copy: Path | None) -> None:
    show = ["card", "in_store", "buy_rate", "bought", "wr_bought", "never_bought",
            "wr_never_bought", "bought_gain", "verdict"]
    rates = {"buy_rate": "in_store", "wr_bought": "bought", "wr_never_bought": "never_bought",
             "bought_gain": "bought"}
    sections = [Section("flagged", "Cards judged", f"Improvement when bought in run {run_id} "
                        f"against the band {band[0]:+.2f}..{band[1]:+.2f}: a card is flagged "
                        "when its whole 95% interval (Newcombe) lies outside the band.", [
                            Table("tune_cards", "The set's cards", flagged, rates, show)]),
                Section("proposals", "Before and after", "Per flagged card: the cost now and "
                        "proposed, the fair value with its interval, and the improvement and "
                        "buy rate at both costs (from the sweep, same seeds)." +
                        (f" Marked copy: {copy.name}; every change in proposals.csv."
                         if copy else " No proposal, so no copy."), [
                            Table("tune_proposals", "Proposals", before_after(tunings))])]
    for i, t in enumerate(tunings):
        sections.append(design.sweep_section(f"sweep{i}", f"{t.card}.{t.field}",
                                             t.sweep.metrics, t.sweep.fair,
                                             (band[0] + band[1]) / 2, t.card,
                                             f"{t.card}.{t.field}"))
    html.write(out, f"Tuning run {run_id}", [("base run", str(run_id)),
                                             ("band", f"{band[0]:+.2f}..{band[1]:+.2f}")],
               sections)


def run(args: argparse.Namespace) -> int:
    console, err = Console(), Console(stderr=True)
    try:
        tunings, copy = tune(args, err)
    except (UsageError, StoreError, LookupError, ValueError, ValidationError,
            AnalysisError) as exc:
        err.print(f"workbench tune: error: {exc}", markup=False, highlight=False,
                  soft_wrap=True)
        return 2
    for t in tunings:
        console.print(f"{t.card} ({t.verdict}): {t.field} {t.current} -> "
                      f"{t.proposed if t.proposed is not None else 'no proposal'} ({t.note})",
                      markup=False, highlight=False)
    if not tunings:
        console.print("no card lies significantly outside the band", highlight=False)
    if copy:
        console.print(str(copy), markup=False, highlight=False)
    console.print(str(Path(args.out) / "index.html"), markup=False, highlight=False)
    return 0
