"""`workbench report`: the HTML balance report of one or more runs, tables as CSV and Parquet."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from reports import balance, html
from workbench.analysis.source import AnalysisError, open_db, resolve_runs

DEFAULT_DB = "runs.duckdb"


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "report", help="write the HTML balance report of a run",
        description="Write one self-contained HTML balance report (draft, cards, sets, cost "
                    "curves, economy, game shape, boards) with every table as CSV and Parquet "
                    "beside it. Several --run are analysed together.")
    parser.add_argument("--db", default=DEFAULT_DB, help=f"DuckDB file (default: {DEFAULT_DB})")
    parser.add_argument("--run", type=int, action="append", metavar="ID",
                        help="run to report on, repeatable (default: the latest run)")
    parser.add_argument("--out", default="report", help="output folder (default: report)")


def write_report(db: str | Path, runs: list[int] | None, out: str | Path) -> Path:
    """Write the report and return the page's path; AnalysisError for a bad db or run."""
    con = open_db(db)
    try:
        chosen = resolve_runs(con, runs)
        title = f"Balance report: run {', '.join(map(str, chosen))}"
        return html.write(Path(out), title, balance.run_summary(con, chosen),
                          balance.sections(con, chosen))
    finally:
        con.close()


def run(args: argparse.Namespace) -> int:
    if Path(args.out).exists() and not Path(args.out).is_dir():
        print(f"workbench report: --out {args.out} is a file; the report is a folder "
              "(index.html and tables/): name a folder", file=sys.stderr)
        return 2
    try:
        page = write_report(args.db, args.run, args.out)
    except AnalysisError as exc:
        print(f"workbench report: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"workbench report: cannot write the report to {args.out}: {exc}", file=sys.stderr)
        return 2
    print(page)
    return 0
