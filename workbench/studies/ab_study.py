"""Playing an A/B study (`workbench ab`): the two values' runs on paired seeds, looked at as
`ab.sequential` places the looks, with a bar of the paired games inside a look and each look
printed as it closes, and the last look's intervals recorded as the study's results."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import duckdb
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)

from workbench.play.jobs import BATCH_GAMES, Job, Prepared, create_prepared_run, prepare
from workbench.play.pool import WorkerPool
from workbench.store import BatchWriter, RunSpec, finish_run, open_store, set_execution
from workbench.studies import ab
from workbench.studies.abgames import Games
from workbench.studies.study import Variant, record_results, variant_spec
from workbench.studies.sweep import card_variants


@dataclass(frozen=True)
class Plan:
    """When to look and when to stop: the metrics, the precision each must reach, the level
    over all looks, the games of the first look, the looks and the most games a value plays."""

    metrics: list[str]
    precision: float
    level: float
    first_look: int
    looks: int
    max_games: int


Done = tuple[list[list[ab.Look]], str, str, int, int]
"""Every look, the labels of A and B, the games played per value and the study's id."""


def ab_study(
    db: str,
    base: RunSpec,
    card: str,
    field: str,
    values: tuple[int | None, int | None],
    plan: Plan,
    store: bool,
    workers: int,
    console: Console,
) -> Done:
    """Play `card`'s `field` at the two `values` on paired seeds (`workbench ab`), look as
    `plan` says (into `db`, events and all, with `store`), and record the answer."""
    variants = card_variants(card, field, list(values))
    specs = [variant_spec(base, "ab", v, i, False) for i, v in enumerate(variants)]
    prepared = [prepare(s) for s in specs]  # a bad card or value costs no games
    catalog = next(iter(prepared[0].configs.values())).catalog
    card = catalog[card.casefold()].name
    con = open_store(db)
    try:
        study = int(
            con.execute("SELECT coalesce(max(sweep_id), 0) + 1 FROM sweeps").fetchall()[0][0]
        )
        runs = [
            _create_run(con, s, p, workers, console) if store else None
            for s, p in zip(specs, prepared, strict=True)
        ]
        for v, run_id in zip(variants, runs, strict=True):
            con.execute(
                "INSERT INTO sweeps VALUES (?, ?, ?, ?, ?, ?, ?)",
                [study, "ab", run_id, card, field, v.value, v.label],
            )
        jobs = [Job(r or 0, s, p.configs) for r, s, p in zip(runs, specs, prepared, strict=True)]
        found, played = _looks(con if store else None, jobs, card, plan, workers, console)
        for run_id in runs:
            if run_id is not None:
                con.execute("UPDATE runs SET games = ? WHERE run_id = ?", [played, run_id])
                finish_run(con, run_id)
    finally:
        con.close()
    _record(db, base.seed, plan.level, study, card, variants, found[-1])
    return found, variants[0].label, variants[1].label, played, study


def _create_run(
    con: duckdb.DuckDBPyConnection,
    spec: RunSpec,
    prep: Prepared,
    workers: int,
    console: Console,
) -> int:
    """One value's run (with --store)."""
    run_id = create_prepared_run(con, spec, prep, "local", workers)
    set_execution(con, run_id, "local", workers)
    console.print(f"run {run_id} = {spec.label}", highlight=False)
    return run_id


def _looks(
    con: duckdb.DuckDBPyConnection | None,
    jobs: list[Job],
    card: str,
    plan: Plan,
    workers: int,
    console: Console,
) -> tuple[list[list[ab.Look]], int]:
    """Look as ab.sequential places the looks, with a bar of the paired games inside a look
    and each look printed as it closes; the looks and the games played per value (a few past
    the last look: the workers play on while a look is computed)."""
    writer = BatchWriter(con) if con is not None else None
    chunk = max(1, min(BATCH_GAMES, plan.first_look // (4 * workers)))
    alphas = ab.look_alphas(plan.looks, 1 - plan.level)
    start = time.perf_counter()
    with WorkerPool(workers) as pool, _look_bar(console) as bar:
        task = bar.add_task("", total=min(plan.first_look, plan.max_games), look=1)
        store = writer.add if writer is not None else None

        def advance(done: int, games: int) -> None:
            bar.update(task, completed=done, total=games)

        def closed(step: list[ab.Look]) -> None:
            bar.console.print(_look_line(step, time.perf_counter() - start), highlight=False)
            bar.reset(task, look=step[0].look + 1)

        games = Games(pool.executor, workers, jobs, card, chunk, store, advance)
        found = ab.sequential(
            lambda n: games.upto(n, plan.max_games),
            plan.metrics,
            plan.precision,
            plan.first_look,
            plan.max_games,
            alphas,
            closed,
        )
        bar.remove_task(task)
        if writer is None:
            for f in games.pending:
                f.cancel()
        else:
            games.finish()
            writer.flush()
        pool.close(wait=True)  # the workers' CPU time counts in the answer's (cpu_seconds)
    return found, games.played()


def _look_bar(console: Console) -> Progress:
    """The paired games of the look under way, on a terminal (gone when the look closes)."""
    columns = (
        TextColumn("[bold]ab[/] look {task.fields[look]}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("paired games"),
        TimeElapsedColumn(),
    )
    return Progress(*columns, console=console, transient=True, disable=not console.is_terminal)


def _look_line(step: list[ab.Look], seconds: float) -> str:
    """`look 2 closed: 4,210 paired games, improvement +0.7 [-0.6, +2.0] ± 1.3 points (at
    0.96); 84.1 s`."""
    metrics = "; ".join(
        f"{look.metric} no estimate yet"
        if math.isnan(look.estimate)
        else f"{look.metric} {100 * look.estimate:+.1f} [{100 * look.low:+.1f}, "
        f"{100 * look.high:+.1f}] ± {100 * look.half_width:.1f} points"
        for look in step
    )
    first = step[0]
    return (
        f"look {first.look} closed: {first.games:,} paired games, {metrics} (at "
        f"{1 - first.alpha:.4g}); {seconds:.1f} s"
    )


def _record(
    db: str,
    seed: int,
    level: float,
    study: int,
    card: str,
    variants: list[Variant],
    last: list[ab.Look],
) -> None:
    """Store the last look's interval of every metric as the study's results, B minus A."""
    rows = []
    for look in last:
        low, estimate, high = (
            None if math.isnan(x) else x for x in (look.low, look.estimate, look.high)
        )
        note = (
            f"{variants[1].label} minus {variants[0].label}; {look.games} paired games in "
            f"{look.look} looks, seed {seed}; interval at {1 - look.alpha:.4g} (alpha "
            f"spending, {level:g} over all looks)"
        )
        rows.append((card, f"ab:{look.metric}", estimate, low, high, note))
    record_results(db, study, rows)
