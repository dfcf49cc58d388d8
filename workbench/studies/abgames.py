"""The games of an A/B study as the per-game counts its metrics need (workbench/studies/ab.py),
played in a worker without an event log and without building Arrow tables or database rows.

A seat's groups for a card follow from the record alone: it drafted the card if a pick names
it, and it bought a copy if fewer copies are left in its store at the end than it drafted (the
store gains cards only by drafting, R2.2, and loses them only by buying, R7.2). The counts
equal those `fairvalue.card_counts` reads from the stored `picks` and `buy` events (tested), so
the study need not log, ship or store the ~1,600 events of a game it only counts.
"""

from __future__ import annotations

import dataclasses
import pickle
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from engine.record import GameRecord
from workbench.play.jobs import Job, play_each
from workbench.play.pool import unpickled
from workbench.store import FailedGame, batch_tables
from workbench.studies.fairvalue import Counts

Played = tuple[list[int], npt.NDArray[np.float64], dict[str, pa.Table] | None]
"""Game indices, their counts (4 x games: n_a, w_a, n_b, w_b; NaN for a failed game) and,
when the games are stored, their tables."""


def card_groups(record: GameRecord, card: str) -> tuple[int, int, int, int]:
    """Seat-games and wins of the seats that drafted `card` and bought a copy (n_a, w_a) and of
    those that drafted it and never bought it (n_b, w_b)."""
    picks = record.picks.data
    drafted = Counter(
        int(str(p)) for p, c in zip(picks["player"], picks["card"], strict=True) if c == card
    )
    n_a = w_a = n_b = w_b = 0
    for seat, copies in drafted.items():
        won = int(seat in record.winners)
        if copies > record.stores[seat].count(card):
            n_a, w_a = n_a + 1, w_a + won
        else:
            n_b, w_b = n_b + 1, w_b + won
    return n_a, w_a, n_b, w_b


def play_counts(job: Job, card: str, indices: Sequence[int], store: bool) -> Played:
    """Play the given games of the run (spawn-safe); events are logged only to be stored.

    A game that raises gets NaN counts (its pair is left out) and, when storing, is kept as a
    failed game with its traceback (jobs.play_each)."""
    counts = np.full((4, len(indices)), np.nan)
    played, failed = [], []
    configs = {b: dataclasses.replace(c, log_events=store) for b, c in job.configs.items()}
    for column, game in enumerate(play_each(job, indices, configs)):
        if isinstance(game, FailedGame):
            failed.append(game)
            continue
        counts[:, column] = card_groups(game.record, card)
        if store:
            played.append(game)
    tables = batch_tables(job.run_id, played, failed) if store else None
    return list(indices), counts, tables


def _play_counts_pickled(job: bytes, card: str, indices: Sequence[int], store: bool) -> Played:
    """In a worker: play_counts of a job sent pickled, unpickled once per worker
    (pool.unpickled), not once per task."""
    return play_counts(unpickled(job), card, indices, store)


class Games:
    """The paired games of a study as they come back from a worker pool kept busy: up to two
    tasks per worker stay in flight past the games a look waits for, so the workers play on
    while the look is computed and the next one placed (those tasks are the most played for
    nothing when the study stops). Game i of every value has the same seed."""

    def __init__(
        self,
        executor: Executor | None,
        workers: int,
        jobs: Sequence[Job],
        card: str,
        chunk: int,
        store: Callable[[int, dict[str, pa.Table]], object] | None = None,
        progress: Callable[[int, int], object] | None = None,
    ) -> None:
        self.executor, self.workers, self.jobs, self.card = executor, workers, jobs, card
        self.chunk, self.store, self.progress = chunk, store, progress
        self.pickled = [pickle.dumps(job) for job in jobs] if executor is not None else []
        self.counts = np.zeros((len(jobs), 4, 0))
        self.done = np.zeros((len(jobs), 0), dtype=bool)
        self.queued = 0
        self.pending: dict[Future[Played], int] = {}

    def _take(self, value: int, played: Played) -> None:
        indices, counts, tables = played
        self.counts[value][:, indices] = counts
        self.done[value, indices] = True
        if tables is not None and self.store is not None:
            self.store(len(indices), tables)

    def _grow(self, limit: int) -> None:
        """Room for the counts of the first `limit` games of every value."""
        grow = limit - self.done.shape[1]
        if grow > 0:
            values = len(self.jobs)
            self.counts = np.concatenate([self.counts, np.full((values, 4, grow), np.nan)], 2)
            self.done = np.concatenate([self.done, np.zeros((values, grow), dtype=bool)], 1)

    def _queue(self, limit: int) -> None:
        """Keep two tasks per worker in flight up to game `limit` (without workers: play the
        next chunk of every value here)."""
        while self.queued < limit and len(self.pending) < 2 * self.workers:
            chunk = range(self.queued, min(self.queued + self.chunk, limit))
            self.queued = chunk.stop
            for value, job in enumerate(self.jobs):
                store = self.store is not None
                if self.executor is None:
                    self._take(value, play_counts(job, self.card, chunk, store))
                else:
                    task = (self.pickled[value], self.card, chunk, store)
                    self.pending[self.executor.submit(_play_counts_pickled, *task)] = value
            if self.executor is None:
                return

    def upto(self, games: int, ahead: int) -> Counts:
        """The first `games` paired games (a pair with a failed game left out), queueing games
        up to `ahead` meanwhile and after; `progress` hears the pairs done of `games` as they
        come back."""
        self._grow(max(games, ahead))
        while not self.done[:, :games].all():
            self._queue(max(games, ahead))
            if self.pending:
                finished, _ = wait(self.pending, return_when=FIRST_COMPLETED)
                for f in finished:
                    self._take(self.pending.pop(f), f.result())
            if self.progress is not None:
                self.progress(int(self.done[:, :games].all(axis=0).sum()), games)
        if self.executor is not None:  # in this process, play on only when asked
            self._queue(max(games, ahead))
        counts = self.counts[:, :, :games]
        keep = ~np.isnan(counts).any(axis=(0, 1))
        return Counts(*(counts[:, i, keep] for i in range(4)))

    def finish(self) -> None:
        """Wait for the games in flight (stored if storing)."""
        for f in wait(self.pending).done:
            self._take(self.pending.pop(f), f.result())

    def played(self) -> int:
        """Games played of each value (the most of any value)."""
        return int(self.done.sum(axis=1).max(initial=0))
