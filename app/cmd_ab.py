"""`workbench ab`: two values of one card field on paired seeds, looked at a few times until the
difference of the card's metrics is known to ±precision (workbench/studies/ab.py: the metrics, the
intervals, where the looks go and why they stay valid), or until --max-games."""

from __future__ import annotations

import argparse
import resource
import time
from typing import Any

from rich.console import Console

from app.consoles import consoles
from app.errors import UsageError, run_command
from app.study_args import add_run_options, base_spec, int_list
from workbench.content.variants import CARD_FIELDS
from workbench.store import MAX_GAMES
from workbench.studies import ab
from workbench.studies.ab_study import Done, Plan, ab_study

FIRST_LOOK = 1000
LOOKS = 4
MAX_AB_GAMES = 40_000
LEVEL = 0.95
BOTH = "both"


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "ab",
        help="two values of a card field until the difference is clear",
        description="Play two values of one card field on the same seeds (paired); look at "
        "the difference (value B minus value A) of the card's improvement when bought and its "
        "holders' win rate after --first-look games per value, then where the spread seen so "
        "far predicts an interval within ±--precision, at most --looks times, and stop when "
        "every chosen metric is within it, or at --max-games. The intervals stay valid under "
        "the repeated looks by alpha spending with a Bonferroni bound: shares of alpha = "
        "1 - --level fixed in advance, look times set only by the spread (Lan & DeMets 1983, "
        "1989). Prints the answer, the games it took and the time; the answer goes into --db "
        "as an `ab` study (sweeps, sweep_results), the games too with --store.",
    )
    parser.add_argument("--card", required=True, help="the card to vary")
    parser.add_argument("--field", required=True, choices=CARD_FIELDS, help="its field")
    parser.add_argument("--values", required=True, help="A,B: the two values (none = empty)")
    parser.add_argument(
        "--metric",
        choices=[BOTH, *sorted(ab.METRICS)],
        default=BOTH,
        help="improvement (when bought), win_rate (of the seats that drafted the card) or "
        "both (the default: stop when both are within --precision)",
    )
    parser.add_argument(
        "--precision",
        type=float,
        default=0.02,
        help="stop when the interval is within ± this (default: 0.02, two points)",
    )
    parser.add_argument(
        "--level",
        type=float,
        default=LEVEL,
        help=f"confidence over all looks together (default: {LEVEL})",
    )
    parser.add_argument(
        "--first-look",
        type=int,
        default=FIRST_LOOK,
        help=f"games per value before the first look (default: {FIRST_LOOK})",
    )
    parser.add_argument("--looks", type=int, default=LOOKS, help=f"most looks (default: {LOOKS})")
    parser.add_argument(
        "--max-games",
        type=int,
        default=MAX_AB_GAMES,
        help=f"most games per value (default: {MAX_AB_GAMES})",
    )
    parser.add_argument(
        "--store",
        action="store_true",
        help="store both runs' games in --db (events and all, for report and compare; "
        "slower): without it only the per-game counts the metrics need are played",
    )
    add_run_options(parser, explore=True, games=False, out=False)


def check(args: argparse.Namespace) -> tuple[int | None, int | None]:
    """The two values; UsageError names the first bad argument (before anything is written)."""
    try:
        values = int_list(args.values)
    except ValueError as exc:
        raise UsageError(f"--values: {exc}") from None
    if len(values) != 2 or values[0] == values[1]:
        raise UsageError(f"--values takes two different values A,B, not {args.values!r}")
    if not 0 < args.precision < 1:
        raise UsageError(f"--precision must lie between 0 and 1, not {args.precision}")
    if not 0 < args.level < 1:
        raise UsageError(f"--level must lie between 0 and 1, not {args.level}")
    if args.first_look < 2:
        raise UsageError(f"--first-look must be at least 2, not {args.first_look}")
    if args.looks < 1:
        raise UsageError(f"--looks must be at least 1, not {args.looks}")
    if not args.first_look <= args.max_games <= MAX_GAMES:
        raise UsageError(
            f"--max-games must be {args.first_look} (--first-look) to "
            f"{MAX_GAMES}, not {args.max_games}"
        )
    return values[0], values[1]


def metrics(args: argparse.Namespace) -> list[str]:
    return sorted(ab.METRICS) if args.metric == BOTH else [args.metric]


def run_ab(args: argparse.Namespace, console: Console) -> Done:
    """Play the study (into --db with --store) and record its answer."""
    values = check(args)
    base = base_spec(argparse.Namespace(**{**vars(args), "games": args.max_games}))
    plan = Plan(
        metrics(args), args.precision, args.level, args.first_look, args.looks, args.max_games
    )
    return ab_study(
        args.db, base, args.card, args.field, values, plan, args.store, args.workers, console
    )


def run(args: argparse.Namespace) -> int:
    console, err = consoles()
    start = time.perf_counter()
    return run_command(
        "ab", err, lambda: run_ab(args, err), lambda done: _answer(args, done, start, console)
    )


def cpu_seconds() -> float:
    """CPU time of this process and of its finished workers (user and system)."""
    return sum(
        u.ru_utime + u.ru_stime
        for u in (
            resource.getrusage(resource.RUSAGE_SELF),
            resource.getrusage(resource.RUSAGE_CHILDREN),
        )
    )


def _answer(args: argparse.Namespace, done: Done, start: float, console: Console) -> int:
    """The answers, the games they took, the time and where the study is."""
    looks, a, b, played, study = done
    last = looks[-1]
    wall, cpu = time.perf_counter() - start, cpu_seconds()
    lines = [ab.answer(look, args.precision, a, b) for look in last]
    lines += [
        (
            f"games: {last[0].games} paired games per value in the answer ({2 * last[0].games} "
            f"in all), {len(looks)} look{'s' if len(looks) > 1 else ''}; {played} per value "
            "played (the workers play on while a look is computed)"
        ),
        f"time: {wall:.1f} s wall, {cpu:.1f} s CPU ({2 * played / max(cpu, 1e-9):.1f} games "
        "per CPU second)",
        f"ab {study} in {args.db}",
    ]
    for line in lines:
        console.print(line, markup=False, highlight=False, soft_wrap=True)
    return 0
