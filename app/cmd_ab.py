"""`workbench ab`: two values of one card field on paired seeds, looked at a few times until the
difference of the card's metrics is known to ±precision (workbench/studies/ab.py: the metrics, the
intervals, where the looks go and why they stay valid), or until --max-games."""

from __future__ import annotations

import argparse
import math
import resource
import time
from typing import Any

import duckdb
from rich.console import Console

from app.console import consoles
from app.errors import UsageError, run_command
from app.study_args import add_run_options, base_spec, int_list
from workbench.content.variants import CARD_FIELDS
from workbench.play.jobs import BATCH_GAMES, Job, Prepared, create_prepared_run, prepare
from workbench.play.pool import WorkerPool
from workbench.store import (
    MAX_GAMES,
    BatchWriter,
    RunSpec,
    finish_run,
    open_store,
    set_execution,
)
from workbench.studies import ab
from workbench.studies.abgames import Games
from workbench.studies.study import Variant, record_results, variant_spec
from workbench.studies.sweep import card_variants

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


def _create_run(
    con: duckdb.DuckDBPyConnection,
    spec: RunSpec,
    prep: Prepared,
    args: argparse.Namespace,
    console: Console,
) -> int:
    """One value's run (with --store)."""
    run_id = create_prepared_run(con, spec, prep, "local", args.workers)
    set_execution(con, run_id, "local", args.workers)
    console.print(f"run {run_id} = {spec.label}", highlight=False)
    return run_id


Done = tuple[list[list[ab.Look]], str, str, int, int]
"""Every look, the labels of A and B, the games played per value and the study's id."""


def run_ab(args: argparse.Namespace, console: Console) -> Done:
    """Play the study (into --db with --store) and record its answer."""
    values = check(args)
    base = base_spec(argparse.Namespace(**{**vars(args), "games": args.max_games}))
    variants = card_variants(args.card, args.field, list(values))
    specs = [variant_spec(base, "ab", v, i, False) for i, v in enumerate(variants)]
    prepared = [prepare(s) for s in specs]  # a bad card or value costs no games
    catalog = next(iter(prepared[0].configs.values())).catalog
    card = catalog[args.card.casefold()].name
    con = open_store(args.db)
    try:
        study = int(
            con.execute("SELECT coalesce(max(sweep_id), 0) + 1 FROM sweeps").fetchall()[0][0]
        )
        runs = [
            _create_run(con, s, p, args, console) if args.store else None
            for s, p in zip(specs, prepared, strict=True)
        ]
        for v, run_id in zip(variants, runs, strict=True):
            con.execute(
                "INSERT INTO sweeps VALUES (?, ?, ?, ?, ?, ?, ?)",
                [study, "ab", run_id, card, args.field, v.value, v.label],
            )
        jobs = [Job(r or 0, s, p.configs) for r, s, p in zip(runs, specs, prepared, strict=True)]
        found, played = _looks(con if args.store else None, jobs, card, args, console)
        for run_id in runs:
            if run_id is not None:
                con.execute("UPDATE runs SET games = ? WHERE run_id = ?", [played, run_id])
                finish_run(con, run_id)
    finally:
        con.close()
    _record(args, study, card, variants, found[-1])
    return found, variants[0].label, variants[1].label, played, study


def _looks(
    con: duckdb.DuckDBPyConnection | None,
    jobs: list[Job],
    card: str,
    args: argparse.Namespace,
    console: Console,
) -> tuple[list[list[ab.Look]], int]:
    """Look as ab.sequential places the looks, printing each; the looks and the games played
    per value (a few past the last look: the workers play on while a look is computed)."""
    writer = BatchWriter(con) if con is not None else None
    chunk = max(1, min(BATCH_GAMES, args.first_look // (4 * args.workers)))
    alphas = ab.look_alphas(args.looks, 1 - args.level)
    with WorkerPool(args.workers) as pool:
        store = writer.add if writer is not None else None
        games = Games(pool.executor, args.workers, jobs, card, chunk, store)
        found = []
        for step in ab.sequential(
            lambda n: games.upto(n, args.max_games),
            metrics(args),
            args.precision,
            args.first_look,
            args.max_games,
            alphas,
        ):
            found.append(step)
            for look in step:
                console.print(
                    f"look {look.look}: {look.games} paired games, {look.metric} "
                    f"{100 * look.estimate:+.1f} ± {100 * look.half_width:.1f} points "
                    f"(at {1 - look.alpha:.4g})",
                    highlight=False,
                )
        if writer is None:
            for f in games.pending:
                f.cancel()
        else:
            games.finish()
            writer.flush()
        pool.close(wait=True)  # the workers' CPU time counts in the answer's (cpu_seconds)
    return found, games.played()


def _record(
    args: argparse.Namespace, study: int, card: str, variants: list[Variant], last: list[ab.Look]
) -> None:
    """Store the last look's interval of every metric as the study's results, B minus A."""
    rows = []
    for look in last:
        low, estimate, high = (
            None if math.isnan(x) else x for x in (look.low, look.estimate, look.high)
        )
        note = (
            f"{variants[1].label} minus {variants[0].label}; {look.games} paired games in "
            f"{look.look} looks, seed {args.seed}; interval at {1 - look.alpha:.4g} (alpha "
            f"spending, {args.level:g} over all looks)"
        )
        rows.append((card, f"ab:{look.metric}", estimate, low, high, note))
    record_results(args.db, study, rows)


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
