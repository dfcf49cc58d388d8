"""`workbench ablate`: a card's causal value, the change in its holders' win rate when it is
replaced by a plain baseline card of the same costs on the same seeds."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console

from app.consoles import consoles
from app.errors import run_command
from app.study_args import add_run_options, base_spec
from reports import ablation as ablation_page
from workbench.studies.ablation import Ablation, AblationStudy, ablation_study


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "ablate",
        help="a card against a plain baseline on the same seeds",
        description="Play the setup twice on the same seeds, once as it is and once with --card "
        "replaced by a plain card of the same type and costs (a unit gets the median body of "
        "the pool's units at its buy price; a spell gains its play cost plus one). Reports the "
        "win rate of the seats that drafted the card against the same seats and seeds with the "
        "baseline: a causal measure beside the observational improvement when bought.",
    )
    parser.add_argument("--card", required=True, help="the card to replace")
    add_run_options(parser)


def study(args: argparse.Namespace, console: Console) -> AblationStudy:
    """Play the card and its baseline on the same seeds, record the change, write the page."""
    base = base_spec(args)
    done = ablation_study(args.db, base, args.card, args.workers, console)
    ablation_page.write_page(Path(args.out), args.db, args.card, base.seed, done)
    return done


def run(args: argparse.Namespace) -> int:
    console, err = consoles()
    return run_command(
        "ablate", err, lambda: study(args, err), lambda done: _show(args, done.result, console)
    )


def _show(args: argparse.Namespace, r: Ablation, console: Console) -> int:
    """The change in one line, and where the page is."""
    console.print(
        f"{args.card}: win rate of its holders {r.with_card:.1%} with it, "
        f"{r.with_baseline:.1%} with the baseline; change {r.change:+.1%} "
        f"(95% {r.low:+.1%} .. {r.high:+.1%}, {r.seats} seat-games)",
        markup=False,
        highlight=False,
    )
    console.print(str(Path(args.out) / "index.html"), markup=False, highlight=False)
    return 0
