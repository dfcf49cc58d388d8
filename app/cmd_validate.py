"""`workbench validate [PATH...]`: every problem in card sets and boards, one line each."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from workbench.content.card_sets import CONTENT_DIR
from workbench.content.validate import validate


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "validate",
        help="check card sets and boards",
        description="Check card sets and boards (.csv, .xlsx, .ods; folders are searched) and "
        "report every problem with file, sheet, row and column. Card names resolve against "
        "all files given plus the shipped card sets. Exit 2 if anything is wrong.",
    )
    parser.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help=f"files or folders (default: the shipped {CONTENT_DIR})",
    )


def run(args: argparse.Namespace) -> int:
    report = validate(args.paths or [Path(os.path.relpath(CONTENT_DIR))])
    for problem in report.problems:
        print(problem)
    for warning in report.warnings:
        print(f"warning: {warning}")
    if not report.ok:
        print(f"{len(report.problems)} problem(s) found")
        return 2
    for summary in report.sets:
        print(summary)
    for board in report.boards:
        print(board)
    if not report.sets and not report.boards:
        print("nothing to check: no card sets or boards found")
    return 0
