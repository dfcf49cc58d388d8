"""`workbench sweep`: one card field or board setting over given values on shared seeds; the
card's metrics against the value with bands, and its fair value, into the database and a report.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console

from app.consoles import consoles
from app.errors import UsageError, run_command
from app.study_args import add_run_options, base_spec, int_list
from reports import design
from reports import sweep as sweep_page
from workbench.content.variants import BOARD_SETTINGS, CARD_FIELDS
from workbench.studies.fairvalue import in_words
from workbench.studies.sweep import SweepResult, board_variants, card_variants, sweep_study


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "sweep",
        help="vary one card field or board setting; fair value",
        description="Play one run per value of a card field (or board setting), every run on "
        "the same seeds, and chart the card's pick rate, buy rate, win rate when bought and "
        "improvement when bought against the value, with the fair value: where the "
        "improvement when bought crosses --target (a board setting: where the first player's "
        "advantage does), with a 95% interval; an open end of the interval, or no crossing, is "
        "explained in words with what would settle it (a wider range, more games). Runs, "
        "grouping and estimates go into --db (tables sweeps, sweep_results).",
    )
    parser.add_argument("--card", help="the card to vary")
    parser.add_argument("--field", choices=CARD_FIELDS, help="its field")
    parser.add_argument("--board-setting", choices=BOARD_SETTINGS, help="or a board setting")
    parser.add_argument("--values", required=True, help="values, comma-separated (none = empty)")
    parser.add_argument(
        "--target", type=float, default=0.0, help="the improvement counted as fair (default: 0)"
    )
    parser.add_argument(
        "--independent",
        action="store_true",
        help="give every value its own seed (to measure what pairing saves)",
    )
    add_run_options(parser, explore=True)


def sweep(args: argparse.Namespace, console: Console) -> SweepResult:
    """Run and analyse the sweep the arguments describe, record it and write the report."""
    if bool(args.board_setting) == bool(args.card or args.field):
        raise UsageError("give --card and --field, or --board-setting")
    if args.card and not args.field:
        raise UsageError("--card needs --field")
    values = int_list(args.values)
    base = base_spec(args)
    if args.card:
        variants = card_variants(args.card, args.field, values)
        card, field = args.card, args.field
    else:
        if None in values:
            raise UsageError("a board setting needs numbers, not none")
        variants = board_variants(args.board_setting, [v for v in values if v is not None])
        card, field = "", args.board_setting
    study, res = sweep_study(
        args.db, base, card, field, variants, args.target, args.independent, args.workers, console
    )
    seeds = (
        "independent per value"
        if args.independent
        else f"shared: seed {base.seed} for every value (paired)"
    )
    sweep_page.write_page(Path(args.out), args.db, study, res, card, field, args.target, seeds)
    return res


def run(args: argparse.Namespace) -> int:
    console, err = consoles()
    return run_command(
        "sweep", err, lambda: sweep(args, err), lambda res: _show(args, res, console)
    )


def _show(args: argparse.Namespace, res: SweepResult, console: Console) -> int:
    """The fair value in a plain sentence, how it was found, and where the page is."""
    values = [int(v) for v in res.metrics.get_column("value").drop_nulls().to_list()]
    contrast = design.CONTRAST if args.card else design.BOARD_CONTRAST
    swept = f"{args.card}.{args.field}" if args.card else f"board {args.board_setting}"
    console.print(
        in_words(res.fair, values, swept, contrast, args.target), markup=False, highlight=False
    )
    console.print(f"how it was found: {res.fair.note}", markup=False, highlight=False)
    console.print(str(Path(args.out) / "index.html"), markup=False, highlight=False)
    return 0
