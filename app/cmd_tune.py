"""`workbench tune`: flag a set's cards whose causal effect (the randomised buying design) lies
outside a band, search the cost that brings it inside, check it on fresh seeds, and write a
marked copy of the set's spreadsheet (never the original) with a before/after report."""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any

from rich.console import Console

from app.cmd_simulate import DESIGN_GAMES
from app.consoles import consoles
from app.errors import UsageError, run_command
from app.study_args import add_run_options, base_spec
from reports import tuning as tuning_page
from reports.tuning import line
from workbench.content.card_sets import COSTS
from workbench.content.setup import DEFAULT_SETS
from workbench.store import RunSpec
from workbench.studies.tune import PROBES
from workbench.studies.tune_set import DESIGN, SetTuning, judging_run, tune_set


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
        "--judge-games",
        type=int,
        default=DESIGN_GAMES,
        help="games of the judging run when tune plays one (no --run; default: "
        f"{DESIGN_GAMES}, what `simulate --design causal` plays for the report's verdicts, so "
        "tune flags what the report would); --games is each probe's",
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
        return judging_run(args.db, args.run)
    if args.sets is None:
        shipped = args.set.casefold() in (s.casefold() for s in DEFAULT_SETS)
        args.sets = ",".join(DEFAULT_SETS) if shipped else args.set
    return base_spec(args, DESIGN), None


def tune(args: argparse.Namespace, console: Console) -> SetTuning:
    """Flag, search, propose, write the copy and the report."""
    band, fields = _options(args)
    base, run_id = _judging_spec(args)
    out = Path(args.out)
    done = tune_set(
        args.db,
        out,
        base,
        run_id,
        args.set,
        band,
        fields,
        args.probes,
        args.workers,
        console,
        args.judge_games,
    )
    tuning_page.write_page(out, done)
    return done


def _options(args: argparse.Namespace) -> tuple[tuple[float, float], list[str]]:
    """--band, and the --fields to search; UsageError for a bad one, before any game."""
    band = _band(args.band)
    fields = [f.strip() for f in args.fields.split(",") if f.strip()]
    if not fields or not set(fields) <= set(COSTS):
        raise UsageError(f"--fields takes {', '.join(COSTS)}, not {args.fields!r}")
    if args.probes < 2:
        raise UsageError("--probes must be at least 2 (one probe and its fresh check)")
    if args.judge_games < 1:
        raise UsageError(f"--judge-games must be at least 1, not {args.judge_games}")
    return band, fields


def run(args: argparse.Namespace) -> int:
    console, err = consoles()
    return run_command(
        "tune", err, lambda: tune(args, err), lambda done: _show(args, done, console)
    )


def _show(args: argparse.Namespace, done: SetTuning, console: Console) -> int:
    """Each card's outcome, the marked copy and the page."""
    tunings, copy = done.tunings, done.copy
    for t in tunings:
        console.print(line(t), markup=False, highlight=False)
    if not tunings:
        console.print("no card's effect lies outside the band", highlight=False)
    if copy:
        console.print(str(copy), markup=False, highlight=False)
    console.print(str(Path(args.out) / "index.html"), markup=False, highlight=False)
    return 0
