"""Local worker processes that play a run's batches (`WorkerPool`); the batches shrink towards
the end so that the workers finish together (`chunks`).

Workers stream finished games back in small batches; at most two full batches' games per worker
are in flight, and the caller's writer commits what arrived (store.BatchWriter), which keeps
memory flat however many games a run has.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import pickle
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Self

from workbench.play.jobs import BATCH_GAMES, Batch, Job, play_games


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
    so a study pays the start-up once, not once per variant or round; one worker
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
