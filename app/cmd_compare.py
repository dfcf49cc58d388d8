"""`workbench compare`: two runs side by side. The answers first, in the terminal and at the
top of the page: what changed in the runs' stored spreadsheets and settings, and which rates
moved significantly after the correction for multiple tests; then every rate."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from app.cmd_report import DEFAULT_DB
from reports.comparison import summary_lines, write_comparison
from workbench.analysis.source import AnalysisError


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "compare",
        help="compare two runs, significant differences marked",
        description="Print, and show at the top of a page, what changed between two runs "
        "(every card and board field whose value differs, and the run settings) "
        "and which rates moved significantly: each rate is tested per card, set "
        "and seat with a two-proportion z test, Holm-corrected for the number of "
        "rows tested. The page then holds every rate of both runs.",
    )
    parser.add_argument("--db", default=DEFAULT_DB, help=f"DuckDB file (default: {DEFAULT_DB})")
    parser.add_argument("base", type=int, metavar="BASE", help="the run to compare against")
    parser.add_argument("candidate", type=int, metavar="CANDIDATE", help="the changed run")
    parser.add_argument("--out", default="compare", help="output folder (default: compare)")


def run(args: argparse.Namespace) -> int:
    try:
        page, c = write_comparison(args.db, args.base, args.candidate, args.out)
    except AnalysisError as exc:
        print(f"workbench compare: {exc}", file=sys.stderr)
        return 2
    print("\n".join(summary_lines(c, args.base, args.candidate)))
    print(page)
    return 0
