"""`workbench check --db PATH [--run RUN]`: the referee re-checks stored games from their events.

Exit 0 when every game keeps the rules, 1 when there are violations (each printed with game,
turn, event and rule id, then a count per rule id), 2 when the database or run cannot be read.
The database is opened read-only: nothing is ever written.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from workbench.check.run import CheckError, Report, check_store


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "check",
        help="re-check stored games against the rules (the referee)",
        description="Re-check every stored game of a DuckDB store (or one run) from its events "
        "alone, with the referee's own reading of the rules (docs/check.md): the draft, each "
        "turn's steps, income and upkeep, the resource balance, moves and ranges, combat "
        "damage, markers, capture points and the result. Prints every violation with game, "
        "turn and rule id and a count per rule id; exit 1 if there are any.",
    )
    parser.add_argument("--db", required=True, type=Path, help="the DuckDB store")
    parser.add_argument("--run", type=int, metavar="RUN", help="only this run (default: all)")
    parser.add_argument(
        "--limit",
        type=int,
        default=100,
        metavar="N",
        help="print at most N violations (default 100; the counts cover all)",
    )


def run(args: argparse.Namespace) -> int:
    if args.limit < 0:
        print(f"--limit {args.limit}: give 0 or more")
        return 2
    try:
        report = check_store(args.db, args.run)
    except CheckError as exc:
        print(f"cannot check: {exc}")
        return 2
    for v in report.violations[: args.limit]:
        print(v)
    hidden = len(report.violations) - args.limit
    if hidden > 0:
        print(f"... and {hidden} more (--limit)")
    print(summary(report))
    return 1 if report.violations else 0


def summary(report: Report) -> str:
    """One line of totals and speed, then the violations per rule id."""
    per_1000 = report.seconds / report.games * 1000 if report.games else 0.0
    runs = ", ".join(map(str, report.runs)) or "none"
    lines = [
        (
            f"checked {report.games} games ({report.events} events) of run {runs} in "
            f"{report.seconds:.1f} s ({per_1000:.1f} s per 1,000 games): "
            f"{len(report.violations)} violations"
        )
    ]
    if report.skipped:
        lines.append(f"{report.skipped} games were stored without events and not checked")
    lines += [f"  {rule:<7} {count}" for rule, count in report.counts()]
    return "\n".join(lines)
