"""Playing a run's games on local processes, with one writer storing whole batches, or on a
Ray cluster whose workers write Parquet shards that the driver ingests (workbench/shards.py).

Game i is seeded from (run seed, i) and its board and seat rotation follow from i alone, so the
stored content is the same whatever the workers, the backend, the batching or the interruptions.
Workers stream finished games back in small batches; at most two full batches' games per worker
are in flight, and the writer commits what arrived every few hundred thousand rows or two seconds
(store.BatchWriter), which keeps memory flat however many games a run has.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import pickle
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, fields
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
from workbench.analysis.interval import wilson
from workbench.config import content_hash, load_setup
from workbench.store import (
    BatchWriter,
    BoardSource,
    FailedGame,
    PlayedGame,
    RunSpec,
    batch_tables,
    create_run,
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


def create_prepared_run(
    con: duckdb.DuckDBPyConnection, spec: RunSpec, prep: Prepared, backend: str, workers: int
) -> int:
    """The run's row with its cards and boards as `prep` loaded them (store.create_run); its
    run_id."""
    return create_run(
        con,
        spec,
        prep.boards,
        prep.cards,
        prep.pool,
        prep.params,
        prep.files,
        prep.content_hash,
        backend,
        workers,
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


def play_each(
    job: Job, indices: Sequence[int], configs: dict[str, GameConfig] | None = None
) -> Iterator[PlayedGame | FailedGame]:
    """Each of the given games of the run played (with `configs` instead of the job's, per
    board), in order: the game, or if it raised, its failure (seed, board, traceback).

    A game that raises is kept as a failed game and the others go on: one crash found by odd
    content must not cost the rest of a run (issue 20)."""
    spec = job.spec
    for i in indices:
        board, rotation = spec.board_of(i), spec.rotation_of(i)
        agents, drafters = seat_specs(spec.agents, rotation), seat_specs(spec.drafters, rotation)
        config = (configs or job.configs)[board]
        seed = derive_seed(spec.seed, i)
        try:
            record = play_game(
                config, seed, [make_agent(a) for a in agents], [make_agent(d) for d in drafters]
            )
        except Exception as exc:  # noqa: BLE001  # stored with its traceback, never hidden
            yield FailedGame(
                i,
                config.board.name,
                seed,
                rotation,
                agents,
                drafters,
                f"{type(exc).__name__}: {exc}",
                traceback.format_exc(),
            )
            continue
        yield PlayedGame(i, config.board.name, rotation, agents, drafters, record)


def play_games(job: Job, indices: Sequence[int]) -> Batch:
    """Play the given games of the run and return them as one batch (spawn- and Ray-safe)."""
    played, failed = [], []
    for game in play_each(job, indices):
        if isinstance(game, FailedGame):
            failed.append(game)
        else:
            played.append(game)
    return len(indices), batch_tables(job.run_id, played, failed)


def chunks(indices: Sequence[int], workers: int) -> list[list[int]]:
    """Batches of at most BATCH_GAMES that shrink towards the end (a quarter of each worker's
    share of what is left; guided self-scheduling): the last ones are single games, so the
    workers finish together, and none plays a whole batch alone while the others wait."""
    out: list[list[int]] = []
    start = 0
    while start < len(indices):
        size = min(BATCH_GAMES, -(-(len(indices) - start) // (4 * workers)))
        out.append(list(indices[start : start + size]))
        start += size
    return out


def exit_with_parent(parent: int) -> None:
    """In a worker: exit when the parent process dies (a killed run leaves no orphans)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _started() -> None:
    """A worker's first task: once it is done, the worker has imported what it plays with."""


_JOBS: dict[bytes, Job] = {}
"""In a worker: the jobs it has unpickled, by their pickle."""


def unpickled(job: bytes) -> Job:
    """In a worker: the job of these bytes, unpickled once, not once per task (a job's
    GameConfigs take milliseconds to unpickle, a batch may be a single game, and every task of
    the job plays the same card objects, which the agents' caches find by identity)."""
    if job not in _JOBS:
        if len(_JOBS) >= 64:  # a study of many variants: memory stays bounded
            _JOBS.clear()
        _JOBS[job] = pickle.loads(job)
    return _JOBS[job]


def _play_pickled(job: bytes, indices: Sequence[int]) -> Batch:
    """In a worker: play_games of a job sent pickled (`unpickled`)."""
    return play_games(unpickled(job), indices)


class WorkerPool:
    """Worker processes that can live for a whole study and serve every run and round of it,
    so a study pays the start-up once, not once per variant or round (issue 19); one worker
    plays in this process. The workers start when the pool is made, so they start while this
    process sets up; until all have, this process plays the last (smallest) batches itself. A
    batch carries its job pickled (once per run), unpickled once per worker.

    `once`: the pool serves one stream and lets its workers go when the last batch is in, so
    they exit while the run is finished. `fork`: the workers are forked, ready at once with
    this process's imports rather than spawned to import them again (half a second of CPU
    each); only for a caller that holds no database connection (a fork would copy its threads
    mid-work) and runs no other thread, as simulate before it opens its store; on Linux."""

    def __init__(self, workers: int, once: bool = False, fork: bool = False) -> None:
        self.workers, self.once = workers, once
        forking = (
            fork
            and workers > 1
            and threading.active_count() == 1
            and sys.platform == "linux"  # macOS's system libraries are not fork-safe
        )
        self.executor = (
            None
            if workers == 1
            else ProcessPoolExecutor(
                workers,
                mp_context=multiprocessing.get_context("fork" if forking else "spawn"),
                initializer=exit_with_parent,
                initargs=(os.getpid(),),
            )
        )
        if forking:  # the workers' collections leave what they inherit alone: no copying
            gc.freeze()
        try:  # a submit spawns a worker while none is idle (forks all): every worker starts now
            self.starting = (
                []
                if self.executor is None
                else [self.executor.submit(_started) for _ in range(workers)]
            )
        finally:
            if forking:
                gc.unfreeze()

    def stream(self, work: Sequence[tuple[Job, Sequence[int]]]) -> Iterator[Batch]:
        """Batches of the given games of every job (runs interleaved, so no worker waits for
        one run's last batch); whole games per batch, in any order."""
        todo = [(job, chunk) for job, indices in work for chunk in chunks(indices, self.workers)]
        todo.sort(key=lambda t: t[1][0])
        try:
            if self.executor is None:
                for job, chunk in todo:
                    yield play_games(job, chunk)
            else:
                pickled = {id(job): pickle.dumps(job) for job, _ in work}
                yield from self._drain(self.executor, deque(todo), pickled)
        finally:
            if self.once:
                self.close()

    def _drain(
        self,
        executor: ProcessPoolExecutor,
        todo: deque[tuple[Job, list[int]]],
        pickled: dict[int, bytes],
    ) -> Iterator[Batch]:
        """Keep two full batches' games per worker in flight, in order (the last, small
        batches all at once, so that no worker runs dry while the writer commits); batches as
        they finish. While a worker is still starting, play the last batch here."""
        pending: dict[Future[Batch], int] = {}
        try:
            while todo or pending:
                while todo and sum(pending.values()) < 2 * self.workers * BATCH_GAMES:
                    job, chunk = todo.popleft()
                    pending[executor.submit(_play_pickled, pickled[id(job)], chunk)] = len(chunk)
                if todo and not all(f.done() for f in self.starting):
                    yield play_games(*todo.pop())
                    continue
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for f in done:
                    del pending[f]
                    yield f.result()
        finally:
            for f in pending:
                f.cancel()

    def close(self, wait: bool = False) -> None:
        """Let the workers go; they exit in the background (joined when this process ends), or
        with `wait` before this returns, so that their CPU time counts in this process's
        RUSAGE_CHILDREN."""
        if self.executor is not None:
            self.executor.shutdown(wait=wait, cancel_futures=True)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


BACKENDS: Final = ("local", "ray")
"""Local processes (WorkerPool), or a Ray cluster writing shards (shards.py)."""


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
        stream = (pool or WorkerPool(workers, once=True)).stream([(job, indices)])
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
            lo, hi = wilson(wins, n)
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
