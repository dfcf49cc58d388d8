"""`workbench compare`: two runs side by side, the card changes between them, the significant
differences marked."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import polars as pl

from reports import balance, html
from reports.html import Section, Table
from workbench.analysis import compare, shape
from workbench.analysis.source import AnalysisError, open_db, resolve_runs
from workbench.analysis.stats import ALPHA, difference_summary
from workbench.cmd_report import DEFAULT_DB


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "compare", help="compare two runs, significant differences marked",
        description="The balance metrics of two runs side by side, with what changed in the "
                    "card data between them; differences are tested per card with a two-"
                    "proportion z test, Holm-corrected for the number of cards.")
    parser.add_argument("--db", default=DEFAULT_DB, help=f"DuckDB file (default: {DEFAULT_DB})")
    parser.add_argument("base", type=int, metavar="BASE", help="the run to compare against")
    parser.add_argument("candidate", type=int, metavar="CANDIDATE", help="the changed run")
    parser.add_argument("--out", default="compare", help="output folder (default: compare)")


def _tested(name: str, title: str, df: pl.DataFrame, rates: dict[str, str],
            prefixes: list[str], key: list[str]) -> Table:
    notes = []
    for p in prefixes:
        s = difference_summary(df, f"{p}_change")
        notes.append(f"{p}: {s['tests']:.0f} tests, {s['raw_below_alpha']:.0f} below p = "
                     f"{ALPHA} (about {s['expected_by_chance']:.1f} expected by chance), "
                     f"{s['holm_significant']:.0f} after Holm, {s['bh_significant']:.0f} after "
                     f"Benjamini-Hochberg")
    show = key + [c for p in prefixes for c in (f"{p}_base", f"{p}_cand", f"{p}_change",
                                                 f"{p}_change_holm")]
    return Table(name, title, df, rates, show, "; ".join(notes) + ". Red: significant (Holm).",
                 {f"{p}_change_significant": f"{p}_change" for p in prefixes})


def sections(con: Any, base: int, cand: int) -> list[Section]:
    cards = compare.card_metrics(con, base, cand)
    rates = {f"{r}_{side}": f"{n}_{side}" for r, _, n in
             (*compare.CARD_METRICS, ("pick_rate", "picks", "seen")) for side in ("base", "cand")}
    set_df = compare.set_metrics(con, base, cand)
    seat_df = compare.seat_metrics(con, base, cand)
    seat_rates = {f"win_rate_{s}": f"seats_{s}" for s in ("base", "cand")}
    shapes = pl.concat([shape.summary(con, [r]).with_columns(pl.lit(r).alias("run"))
                        for r in (base, cand)], how="vertical_relaxed")
    return [
        Section("changes", "What changed in the card data", "Cards added, removed or edited "
                "between the two runs (run_cards).", [
            Table("card_changes", "Card changes", compare.card_changes(con, base, cand))]),
        Section("cards", "Cards", "Per-card rates of both runs; change = candidate - base.", [
            _tested("compare_cards", "Per card", cards, rates,
                    ["wr_in_store", "wr_bought", "buy_rate", "pick_rate"], ["card"])]),
        Section("sets", "Sets and seats", "Win rate by dominant set and by board and seat.", [
            _tested("compare_sets", "By dominant set", set_df, seat_rates, ["win_rate"],
                    ["dominant"]),
            _tested("compare_seats", "By board and seat", seat_df, seat_rates, ["win_rate"],
                    ["board", "seat"])]),
        Section("shape", "Game shape", "Length, draws, round-limit stops and leads per run.", [
            Table("compare_shape", "Per board and run", shapes,
                  {"draw_rate": "games", "round_limit_rate": "games"})]),
    ]


def write_comparison(db: str | Path, base: int, cand: int, out: str | Path) -> Path:
    """Write the comparison page and return its path; AnalysisError for a bad db or run."""
    con = open_db(db)
    try:
        resolve_runs(con, [base, cand])
        return html.write(Path(out), f"Run {base} against run {cand}",
                          balance.run_summary(con, [base, cand]), sections(con, base, cand))
    finally:
        con.close()


def run(args: argparse.Namespace) -> int:
    try:
        page = write_comparison(args.db, args.base, args.candidate, args.out)
    except AnalysisError as exc:
        print(f"workbench compare: {exc}", file=sys.stderr)
        return 2
    print(page)
    return 0
