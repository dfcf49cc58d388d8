"""`workbench ab`: two values of one card field on paired seeds, played in rounds until the
difference of a card metric is known to ±precision (workbench/ab.py: the metric, the interval
and why it stays valid under repeated looks), or until --max-games."""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

import duckdb
import numpy as np
from rich.console import Console

from app.errors import UsageError, run_command
from app.study_args import add_run_options, base_spec, int_list
from workbench import ab
from workbench.fairvalue import Counts, card_counts
from workbench.runner import Job, Prepared, WorkerPool, prepare
from workbench.store import (
    MAX_GAMES,
    BatchWriter,
    RunSpec,
    create_run,
    finish_run,
    open_store,
    set_execution,
)
from workbench.study import Variant, record_results, variant_spec
from workbench.sweep import card_variants
from workbench.variants import CARD_FIELDS

ROUND_GAMES = 100
MAX_AB_GAMES = 10_000
LEVEL = 0.95


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "ab",
        help="two values of a card field until the difference is clear",
        description="Play two values of one card field on the same seeds (paired) in rounds "
        "of --round-games games per value; after every round compute the interval of the "
        "difference (value B minus value A) of the card's improvement when bought or its "
        "holders' win rate, and stop when its half-width is within ±--precision, or at "
        "--max-games. The intervals stay valid under the repeated looks by alpha spending "
        "with a Bonferroni bound: each of the K looks --max-games allows is an interval at "
        "error rate alpha/K, alpha = 1 - --level (Lan & DeMets 1983). Prints the answer, the games "
        "it took and the time; both runs go into --db as an `ab` study (tables sweeps, "
        "sweep_results), so report and compare read them like any run.",
    )
    parser.add_argument("--card", required=True, help="the card to vary")
    parser.add_argument("--field", required=True, choices=CARD_FIELDS, help="its field")
    parser.add_argument("--values", required=True, help="A,B: the two values (none = empty)")
    parser.add_argument(
        "--metric",
        choices=sorted(ab.METRICS),
        default="improvement",
        help="improvement (when bought, the default) or win_rate (of the "
        "seats that drafted the card)",
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
        "--round-games",
        type=int,
        default=ROUND_GAMES,
        help=f"games per value in a round (default: {ROUND_GAMES})",
    )
    parser.add_argument(
        "--max-games",
        type=int,
        default=MAX_AB_GAMES,
        help=f"most games per value (default: {MAX_AB_GAMES})",
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
    if args.round_games < 1:
        raise UsageError(f"--round-games must be at least 1, not {args.round_games}")
    if not args.round_games <= args.max_games <= MAX_GAMES:
        raise UsageError(
            f"--max-games must be {args.round_games} (--round-games) to "
            f"{MAX_GAMES}, not {args.max_games}"
        )
    if args.workers < 1:
        raise UsageError(f"--workers must be at least 1, not {args.workers}")
    return values[0], values[1]


def paired(counts: Counts, a: set[int], b: set[int]) -> Counts:
    """Only the game indices stored in both runs (a failed game leaves its pair out)."""
    keep = np.array(sorted(a & b), dtype=np.int64)
    return Counts(
        counts.n_a[:, keep], counts.w_a[:, keep], counts.n_b[:, keep], counts.w_b[:, keep]
    )


def _create_run(
    con: duckdb.DuckDBPyConnection,
    study: int,
    card: str,
    v: Variant,
    spec: RunSpec,
    prep: Prepared,
    args: argparse.Namespace,
    console: Console,
) -> Job:
    """One value's run, recorded as a member of the study."""
    run_id = create_run(
        con,
        spec,
        prep.boards,
        prep.cards,
        prep.pool,
        prep.params,
        prep.files,
        prep.content_hash,
        "local",
        args.workers,
    )
    con.execute(
        "INSERT INTO sweeps VALUES (?, ?, ?, ?, ?, ?, ?)",
        [study, "ab", run_id, card, args.field, v.value, v.label],
    )
    set_execution(con, run_id, "local", args.workers)
    console.print(f"ab {study}: run {run_id} = {v.label}", highlight=False)
    return Job(run_id, spec, prep.configs)


def run_ab(args: argparse.Namespace, console: Console) -> tuple[list[ab.Look], str, str, int, int]:
    """Play the study into --db; every look, the labels of A and B, the games played per value
    and the study's id."""
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
        jobs = [
            _create_run(con, study, card, v, spec, prep, args, console)
            for v, spec, prep in zip(variants, specs, prepared, strict=True)
        ]
        found, played = _rounds(con, jobs, card, args, console)
        for j in jobs:
            con.execute("UPDATE runs SET games = ? WHERE run_id = ?", [played, j.run_id])
            finish_run(con, j.run_id)
    finally:
        con.close()
    _record(args, study, card, variants, found[-1])
    return found, variants[0].label, variants[1].label, played, study


def _rounds(
    con: duckdb.DuckDBPyConnection,
    jobs: list[Job],
    card: str,
    args: argparse.Namespace,
    console: Console,
) -> tuple[list[ab.Look], int]:
    """Play rounds of --round-games games per value until ab.sequential stops, printing each
    look; the looks and the games played per value."""
    runs = [j.run_id for j in jobs]
    looks = math.ceil(args.max_games / args.round_games)
    played = 0
    with WorkerPool(args.workers) as pool:

        def next_round() -> Counts:
            nonlocal played
            indices = range(played, min(played + args.round_games, args.max_games))
            writer = BatchWriter(con)
            for n, tables in pool.stream([(j, indices) for j in jobs]):
                writer.add(n, tables)
            writer.flush()
            played = indices.stop
            stored = [
                {
                    int(r[0])
                    for r in con.execute(
                        "SELECT game_index FROM games WHERE run_id = ?", [r]
                    ).fetchall()
                }
                for r in runs
            ]
            return paired(card_counts(con, runs, card, played), *stored)

        found = []
        for look in ab.sequential(next_round, args.metric, args.precision, looks, 1 - args.level):
            found.append(look)
            console.print(
                f"look {look.look}: {look.games} paired games, "
                f"{100 * look.estimate:+.1f} ± {100 * look.half_width:.1f} points "
                f"(at {1 - look.alpha:.4g})",
                highlight=False,
            )
    return found, played


def _record(
    args: argparse.Namespace, study: int, card: str, variants: list[Variant], last: ab.Look
) -> None:
    """Store the last look's interval as the study's result, B minus A."""
    low, estimate, high = (
        None if math.isnan(x) else x for x in (last.low, last.estimate, last.high)
    )
    note = (
        f"{variants[1].label} minus {variants[0].label}; {last.games} paired games in "
        f"{last.look} looks; interval at {1 - last.alpha:.4g} (alpha spending, "
        f"{args.level:g} over all looks)"
    )
    record_results(args.db, study, [(card, f"ab:{args.metric}", estimate, low, high, note)])


def run(args: argparse.Namespace) -> int:
    console, err = Console(), Console(stderr=True)
    start = time.perf_counter()
    return run_command(
        "ab", err, lambda: run_ab(args, err), lambda done: _answer(args, done, start, console)
    )


def _answer(
    args: argparse.Namespace,
    done: tuple[list[ab.Look], str, str, int, int],
    start: float,
    console: Console,
) -> int:
    """The answer, the games it took, the time and where the study is."""
    looks, a, b, played, study = done
    last = looks[-1]
    for line in (
        ab.answer(last, args.precision, a, b, args.metric),
        (
            f"games: {played} per value ({2 * played} in all), {last.look} "
            f"round{'s' if last.look > 1 else ''} of up to {args.round_games}"
        ),
        f"time: {time.perf_counter() - start:.1f} s",
        f"ab {study} in {args.db}",
    ):
        console.print(line, markup=False, highlight=False, soft_wrap=True)
    return 0
