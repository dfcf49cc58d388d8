"""`workbench demo`: the README's main job. Simulate the shipped defaults with the heuristic
agents, write the balance report, print its path.

It drives `workbench simulate` through the command line's own entry point, so the demo runs
exactly what a designer would type, and then `workbench report` on that run.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from app.cmd_report import write_report
from app.cmd_simulate import DEFAULT_AGENT as AGENT
from app.workers import add_workers_option
from workbench.analysis.source import AnalysisError

DEFAULT_GAMES = 300
CAUSAL_GAMES = 1200
"""Games of the demo's causal companion run (`simulate --design causal`), from which every
card's verdict is estimated."""


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="simulate the shipped defaults and write the balance report",
        description=f"Play {DEFAULT_GAMES} drafted games of the shipped default sets and board "
        f"between {AGENT} agents into OUT/demo.duckdb, and {CAUSAL_GAMES} of the randomised "
        "buying design (`simulate --design causal`, from which the report estimates every "
        "card's causal effect), write the balance report to OUT/report/index.html and print "
        "its path.",
    )
    parser.add_argument("--out", default="demo", help="output folder (default: demo)")
    parser.add_argument(
        "--games",
        type=int,
        default=DEFAULT_GAMES,
        help=f"games to simulate (default: {DEFAULT_GAMES})",
    )
    parser.add_argument(
        "--causal-games",
        type=int,
        default=CAUSAL_GAMES,
        help=f"games of the causal companion run (default: {CAUSAL_GAMES})",
    )
    add_workers_option(parser)
    parser.add_argument("--seed", type=int, default=1, help="run seed (default: 1)")


DATABASE = "demo.duckdb"
"""The demo's database in its --out folder: a fresh file every time, so its one run is run 1 (the
README opens the notebooks on it)."""


def run(args: argparse.Namespace) -> int:
    from app.cli import main as workbench_main

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    db = out / DATABASE
    if db.exists():
        db.unlink()  # the demo's own file: a fresh run every time, so its report is the latest
    common = ["--db", str(db), "--workers", str(args.workers), "--seed", str(args.seed)]
    for run in (
        ["--games", str(args.games), "--agents", AGENT, "--label", "demo"],
        ["--games", str(args.causal_games), "--design", "causal", "--label", "demo causal"],
    ):
        code = workbench_main(["simulate", *common, *run])
        if code != 0:
            print(f"workbench demo: the simulation failed (exit {code})", file=sys.stderr)
            return code
    try:
        page = write_report(db, [1], out / "report")
    except AnalysisError as exc:
        print(f"workbench demo: {exc}", file=sys.stderr)
        return 2
    print(page.resolve())
    return 0
