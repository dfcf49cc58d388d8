"""`workbench report`: the HTML balance report of one or more runs, tables as CSV and Parquet."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import Any

from reports import balance, html
from workbench.analysis.findings import Thresholds
from workbench.analysis.runs import Runs, design_runs
from workbench.analysis.source import AnalysisError, open_db, resolve_runs
from workbench.analysis.stability import setup_difference

DEFAULT_DB = "runs.duckdb"
DESCRIPTION = (
    "Write one self-contained HTML balance report with every table as CSV and Parquet beside "
    "it. It opens with the findings, ranked: seat, set and card balance (every card's verdict "
    "with its estimator, from a run of `simulate --design causal` where there is one), dead "
    "cards and why, the economy, game shape, agent caveats; then seats and sets, cards, cost "
    "curves, draft, economy, game shape, boards. Several --run are analysed together. With "
    "--skill-run the cards table says whether each card's verdict is the same in another run "
    "of the same setup played by other agents."
)
CAUSAL_HELP = (
    "a run of the same sets and boards played with `simulate --design causal`, repeatable: "
    "every card's verdict rests on its causal effect there (default: the reported runs if they "
    "played the design, else every such run of the file with the same sets, boards and "
    "content; with none, the observational improvement when bought, marked as such)"
)


def add_parser(subparsers: Any) -> None:
    defaults = Thresholds()
    names = ", ".join(
        f"{f.name} ({getattr(defaults, f.name):g})" for f in dataclasses.fields(Thresholds)
    )
    parser = subparsers.add_parser(
        "report",
        help="write the HTML balance report of a run",
        description=DESCRIPTION,
    )
    parser.add_argument("--db", default=DEFAULT_DB, help=f"DuckDB file (default: {DEFAULT_DB})")
    parser.add_argument(
        "--run",
        type=int,
        action="append",
        metavar="ID",
        help="run to report on, repeatable (default: the latest run)",
    )
    parser.add_argument(
        "--skill-run",
        type=int,
        action="append",
        default=[],
        metavar="ID",
        help="a run of the same sets and boards played by other agents (a "
        "stronger or weaker player, e.g. `simulate --agents "
        "search:budget=16` with the same --seed, or a run of a "
        "`workbench skill` study), repeatable: the cards table gains the "
        "column across_skill (stable, or which agents disagree on the "
        "card's verdict), a table of the verdicts per agent, and a finding "
        "listing the verdicts that depend on the player's skill",
    )
    parser.add_argument(
        "--causal-run",
        type=int,
        action="append",
        default=[],
        metavar="ID",
        help=CAUSAL_HELP,
    )
    parser.add_argument("--out", default="report", help="output folder (default: report)")
    parser.add_argument(
        "--band",
        type=float,
        metavar="WIDTH",
        help="a seat's or set's win rate within WIDTH of an even share is "
        f"balanced (default: {defaults.band:g})",
    )
    parser.add_argument(
        "--threshold",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=f"set a finding's threshold, repeatable; names (defaults): {names}",
    )


def thresholds(band: float | None, settings: list[str]) -> Thresholds:
    """Thresholds from --band and --threshold NAME=VALUE; AnalysisError names a bad one."""
    values: dict[str, Any] = {}
    kinds = {f.name: f.type for f in dataclasses.fields(Thresholds)}
    for text in settings:
        name, sep, value = text.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or name not in kinds:
            raise AnalysisError(
                f"--threshold {text!r}: write NAME=VALUE with NAME one of {', '.join(kinds)}"
            )
        try:
            values[name] = int(value) if kinds[name] in (int, "int") else float(value)
        except ValueError:
            raise AnalysisError(f"--threshold {text!r}: {value!r} is not a number") from None
    if band is not None:
        values["band"] = band
    return Thresholds(**values)


def write_report(
    db: str | Path,
    runs: list[int] | None,
    out: str | Path,
    th: Thresholds | None = None,
    skill_runs: list[int] | None = None,
    causal_runs: list[int] | None = None,
) -> Path:
    """Write the report and return the page's path; AnalysisError for a bad db or run, a
    skill run of another setup, or a causal run of another setup or without the design. One
    context reads every run the page shows (analysis/runs.py)."""
    con = open_db(db)
    try:
        chosen = resolve_runs(con, runs)
        others = resolve_runs(con, skill_runs) if skill_runs else []
        for r in others:
            why = setup_difference(con, chosen, [r])
            if why is not None:
                raise AnalysisError(
                    f"--skill-run {r}: {why}; give a run of the same sets and "
                    "boards played by other agents"
                )
        design = _causal_runs(con, chosen, causal_runs or [])
        title = f"Balance report: run {', '.join(map(str, chosen))}"
        shown = [*chosen, *others, *(d for d in design if d not in chosen)]
        return html.write(
            Path(out),
            title,
            balance.run_summary(con, shown),
            balance.sections(Runs(con, chosen, th, design, others)),
        )
    finally:
        con.close()


def _causal_runs(con: Any, chosen: list[int], wanted: list[int]) -> list[int]:
    """The --causal-run runs, checked: each of the reported setup, each with the design."""
    runs = resolve_runs(con, wanted) if wanted else []
    for r in runs:
        why = setup_difference(con, chosen, [r])
        if why is None and not design_runs(con, [r]):
            why = "it did not play the randomised design (no assignments)"
        if why is not None:
            raise AnalysisError(
                f"--causal-run {r}: {why}; give a run of `simulate --design causal` with the "
                "same sets and boards"
            )
    return runs


def run(args: argparse.Namespace) -> int:
    try:
        page = write_report(
            args.db,
            args.run,
            args.out,
            thresholds(args.band, args.threshold),
            args.skill_run,
            args.causal_run,
        )
    except AnalysisError as exc:
        print(f"workbench report: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"workbench report: cannot write the report to {args.out}: {exc}", file=sys.stderr)
        return 2
    print(page)
    return 0
