"""Playing a run's games on local processes, with one writer storing whole batches, or on a
Ray cluster whose workers write Parquet shards that the driver ingests (workbench/shards.py).

Game i is seeded from (run seed, i) and its board and seat rotation follow from i alone, so the
stored content is the same whatever the workers, the backend, the batching or the interruptions.
Workers stream finished games back in small batches; at most two batches per worker are in
flight, and the writer commits what arrived every few hundred thousand rows or two seconds
(store.BatchWriter), which keeps memory flat however many games a run has.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, fields
from functools import partial
from typing import TYPE_CHECKING, Final, Self

import duckdb
import pyarrow as pa
from rich.console import Console, Group
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from engine.cards import Card
from engine.play import derive_seed, play_game
from engine.state import GameConfig
from workbench.agents import make_agent
from workbench.config import content_hash, load_setup
from workbench.store import (
    BatchWriter,
    BoardSource,
    FailedGame,
    PlayedGame,
    RunSpec,
    batch_tables,
    failed_games,
    finish_run,
)
from workbench.variants import apply_change

if TYPE_CHECKING:
    from workbench.shards import Cluster

BATCH_GAMES = 16
"""Most games per batch: about 30k events, a few MB of Arrow, one transaction."""

Batch = tuple[int, dict[str, pa.Table]]
"""Number of games in a batch and their tables."""


@dataclass(frozen=True)
class Job:
    """What a worker needs: the run's id and spec and one loaded GameConfig per board."""

    run_id: int
    spec: RunSpec
    configs: dict[str, GameConfig]


@dataclass(frozen=True)
class Prepared:
    """A spec's setups loaded once in the main process, before any game is played."""

    configs: dict[str, GameConfig]
    boards: tuple[BoardSource, ...]
    cards: tuple[Card, ...]
    pool: tuple[Card, ...]
    params: dict[str, object]
    files: tuple[str, ...]
    content_hash: str


def prepare(spec: RunSpec) -> Prepared:
    """Load every board with the sets; raises LookupError/ValueError/ValidationError as is."""
    configs: dict[str, GameConfig] = {}
    boards: list[BoardSource] = []
    files: list[str] = []
    for name in spec.boards:
        setup = load_setup(spec.sets, name, spec.players or None)
        for change in spec.changes:
            setup = apply_change(setup, change)
        _check_draft(setup.config)
        configs[name] = setup.config
        boards.append(BoardSource(setup.board, setup.files[-1], setup.content_hash))
        files += [f for f in setup.files if f not in files]
    config = next(iter(configs.values()))
    params: dict[str, object] = {
        f.name: getattr(config, f.name)
        for f in fields(config)
        if f.init and f.name not in ("pool", "catalog", "board", "players")
    }
    if spec.changes:
        params["changes"] = [asdict(c) for c in spec.changes]
    return Prepared(
        configs,
        tuple(boards),
        tuple(config.catalog.values()),
        config.pool,
        params,
        tuple(files),
        content_hash(sorted(files), [c.label() for c in spec.changes]),
    )


def _check_draft(config: GameConfig) -> None:
    """R3.2, R3.3: the draft deals every seat a pack; with fewer copies it could not start."""
    copies = sum(c.copies for c in config.pool if c.draftable)
    if copies < config.players * config.pack_size:
        raise ValueError(
            f"the chosen sets have {copies} draftable copies (cards with a buy "
            f"price, R3.1): too few for the draft, which deals a pack of "
            f"{config.pack_size} to each of the {config.players} players (R3.2, "
            "R3.3); add copies or sets"
        )


def seat_specs(specs: Sequence[str], rotation: int) -> tuple[str, ...]:
    """Seat s gets base entry (s + rotation) % players."""
    return tuple(specs[(s + rotation) % len(specs)] for s in range(len(specs)))


def play_games(job: Job, indices: Sequence[int]) -> Batch:
    """Play the given games of the run and return them as one batch (spawn- and Ray-safe).

    A game that raises is kept as a failed game (seed, board, traceback) and the others go on:
    one crash found by odd content must not cost the rest of a run (issue 20)."""
    spec = job.spec
    played = []
    failed = []
    for i in indices:
        board, rotation = spec.board_of(i), spec.rotation_of(i)
        agents, drafters = seat_specs(spec.agents, rotation), seat_specs(spec.drafters, rotation)
        config = job.configs[board]
        seed = derive_seed(spec.seed, i)
        try:
            record = play_game(
                config, seed, [make_agent(a) for a in agents], [make_agent(d) for d in drafters]
            )
        except Exception as exc:  # noqa: BLE001  # stored with its traceback, never hidden
            failed.append(
                FailedGame(
                    i,
                    config.board.name,
                    seed,
                    rotation,
                    agents,
                    drafters,
                    f"{type(exc).__name__}: {exc}",
                    traceback.format_exc(),
                )
            )
            continue
        played.append(PlayedGame(i, config.board.name, rotation, agents, drafters, record))
    return len(indices), batch_tables(job.run_id, played, failed)


def chunks(indices: Sequence[int], workers: int) -> list[list[int]]:
    """Small batches early enough that every worker stays busy to the end."""
    size = max(1, min(BATCH_GAMES, len(indices) // (workers * 4) or 1))
    return [list(indices[i : i + size]) for i in range(0, len(indices), size)]


_JOB: Job | None = None


def exit_with_parent(parent: int) -> None:
    """In a worker: exit when the parent process dies (a killed run leaves no orphans)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _init_worker(job: Job, parent: int) -> None:
    """Keep the job in the worker; exit if the parent dies."""
    global _JOB
    _JOB = job
    exit_with_parent(parent)


def _play_in_worker(indices: list[int]) -> Batch:
    assert _JOB is not None, "worker started without a job"
    return play_games(_JOB, indices)


def stream_local(job: Job, indices: Sequence[int], workers: int) -> Iterator[Batch]:
    """Batches from a pool of spawned processes (in this process for one worker)."""
    todo = chunks(indices, workers)
    if workers == 1:
        for chunk in todo:
            yield play_games(job, chunk)
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        workers, mp_context=context, initializer=_init_worker, initargs=(job, os.getpid())
    ) as pool:
        yield from _drain([partial(pool.submit, _play_in_worker, c) for c in todo], workers)


def _drain(tasks: Sequence[Callable[[], Future[Batch]]], workers: int) -> Iterator[Batch]:
    """Submit the tasks keeping at most two per worker in flight; batches as they finish."""
    pending: set[Future[Batch]] = set()
    try:
        for submit in tasks:
            if len(pending) >= 2 * workers:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                yield from (f.result() for f in done)
            pending.add(submit())
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            yield from (f.result() for f in done)
    finally:
        for f in pending:
            f.cancel()


class WorkerPool:
    """Spawned worker processes that live for a whole study and serve every run and round of
    it, so a study pays the start-up once, not once per variant or round (issue 19). The job
    travels with each batch (about 50 KB pickled, milliseconds against a batch's seconds of
    play); one worker plays in this process."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.executor = (
            None
            if workers == 1
            else ProcessPoolExecutor(
                workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=exit_with_parent,
                initargs=(os.getpid(),),
            )
        )

    def stream(self, work: Sequence[tuple[Job, Sequence[int]]]) -> Iterator[Batch]:
        """Batches of the given games of every job (runs interleaved, so no worker waits for
        one run's last batch); whole games per batch, in any order."""
        todo = [(job, chunk) for job, indices in work for chunk in chunks(indices, self.workers)]
        todo.sort(key=lambda t: t[1][0])
        executor = self.executor
        if executor is None:
            for job, chunk in todo:
                yield play_games(job, chunk)
            return
        yield from _drain(
            [partial(executor.submit, play_games, job, chunk) for job, chunk in todo], self.workers
        )

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(cancel_futures=True)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


BACKENDS: Final = ("local", "ray")
"""Local processes (stream_local, WorkerPool), or a Ray cluster writing shards (shards.py)."""


def progress_bar(console: Console) -> Progress:
    """Games stored of the run's total, games per second, time left."""
    columns = (
        TextColumn("[bold]simulate"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]:.1f} games/s"),
        TimeRemainingColumn(),
    )
    return Progress(*columns, console=console, transient=False)


def execute(
    con: duckdb.DuckDBPyConnection,
    job: Job,
    indices: Sequence[int],
    backend: str,
    workers: int,
    console: Console,
    pool: WorkerPool | None = None,
    cluster: Cluster | None = None,
) -> None:
    """Play the missing games (on `pool` if given, e.g. a study's), write the batches as they
    arrive, then mark the run finished (which stores its summary tables);
    say how many of them failed (stored in failed_games), so no study misses it.
    Backend "ray" plays on `cluster` (a local Ray if None) through shards (shards.py)."""
    if backend == "ray":
        from workbench import shards  # it imports this module

        shards.execute(con, job, indices, workers, console, cluster or shards.Cluster(None))
        return
    total = job.spec.games
    start = time.perf_counter()
    failed = 0
    with progress_bar(console) as progress:
        task = progress.add_task("games", total=total, completed=total - len(indices), rate=0.0)
        played = 0
        writer = BatchWriter(con)
        stream = (
            pool.stream([(job, indices)])
            if pool is not None
            else stream_local(job, indices, workers)
        )
        for n, tables in stream:
            stored = writer.add(n, tables)
            failed += tables["failed_games"].num_rows
            if stored:
                played += stored
                progress.update(
                    task, advance=stored, rate=played / max(time.perf_counter() - start, 1e-9)
                )
        progress.update(task, advance=writer.flush())
    finish_run(con, job.run_id)
    if failed:
        console.print(
            f"run {job.run_id}: {failed} of {len(indices)} games failed and are left "
            "out (table failed_games: seed, board, traceback)",
            markup=False,
        )


def who_played(specs: str) -> str:
    """`heuristic,heuristic` -> "heuristic in every seat"; else "seat 1 random, seat 2 ..."."""
    seats = specs.split(",")
    if len(set(seats)) == 1:
        return f"{seats[0]} in every seat"
    return ", ".join(f"seat {i + 1} {a}" for i, a in enumerate(seats))


def summary(con: duckdb.DuckDBPyConnection, run_id: int, db_path: str) -> Group:
    """One screen: games, win rate by seat and by agent with 95% Wilson intervals, draws."""
    # scipy takes a second to import: spawned workers, which import this module, never need it
    from workbench.analysis.stats import proportion_ci

    games, draws, guard, rounds, tyrant = con.execute(
        "SELECT count(*), count(*) FILTER (draw), count(*) FILTER (guard_stopped), "
        "avg(rounds), count(*) FILTER (list_contains(winners, -2)) FROM games WHERE run_id = ?",
        [run_id],
    ).fetchall()[0]
    label, status, seed, boards, agents, drafters = con.execute(
        "SELECT label, status, seed, boards, agents, drafters FROM runs WHERE run_id = ?", [run_id]
    ).fetchall()[0]
    table = Table(
        title=f"run {run_id}{f' ({label})' if label else ''}: {status}",
        show_header=True,
        title_justify="left",
    )
    table.add_column("")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("95% CI (Wilson)", justify="right")
    for what, key in (("seat", "seat + 1"), ("agent", "agent")):
        rows = con.execute(
            f"SELECT {key}, count(*) FILTER (won), count(*) FROM game_seats "
            f"WHERE run_id = ? GROUP BY ALL ORDER BY 1",
            [run_id],
        ).fetchall()
        if what == "agent" and len(rows) < 2:
            continue
        for name, wins, n in rows:
            lo, hi = proportion_ci(wins, n)
            table.add_row(f"{what} {name}", str(wins), f"{wins / n:.1%}", f"{lo:.1%} – {hi:.1%}")
    failed = failed_games(con, run_id)
    by_board = con.execute(
        "SELECT board, count(*), count(*) FILTER (draw), avg(rounds) "
        "FROM games WHERE run_id = ? GROUP BY ALL ORDER BY 1",
        [run_id],
    ).fetchall()
    facts = (
        f"{games} games on {boards}, seed {seed}; draws {draws} (stopped by the guard, "
        f"R21.18: {guard})"
        + (f"; Tyrant wins {tyrant}" if tyrant else "")
        + (f"; mean rounds {rounds:.1f}" if rounds is not None else "")
        + "".join(
            f"\n  {b}: {n} games, draws {d}, mean rounds {r:.1f}"
            for b, n, d, r in by_board
            if len(by_board) > 1
        )
        + (
            f"\nfailed games: {len(failed)} (table failed_games: seed, board, traceback)"
            if failed
            else ""
        )
        + f"\nagents: {who_played(agents)}; drafters: {who_played(drafters)}"
        + f"\ndata: {db_path}, run_id = {run_id}"
    )
    return Group(table, Text(facts))
