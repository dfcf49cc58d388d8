"""Playing a run's missing games on an executor -- local worker processes (`pool.WorkerPool`)
or a Ray cluster whose workers write Parquet shards that the driver ingests (`shards.Cluster`)
-- storing whole batches as they arrive, and the run's closing summary.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Final

import duckdb
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from workbench.analysis.evenness import BAND, beyond_band
from workbench.analysis.interval import wilson
from workbench.play import shards
from workbench.play.jobs import Job
from workbench.play.pool import WorkerPool
from workbench.play.progress import progress_bar
from workbench.play.shards import Cluster
from workbench.store import BatchWriter, failed_games, finish_run

BACKENDS: Final = ("local", "ray")
"""Local processes (WorkerPool), or a Ray cluster writing shards (shards.py)."""

Executor = WorkerPool | Cluster
"""Where a run's games are played."""


def execute(
    con: duckdb.DuckDBPyConnection,
    job: Job,
    indices: Sequence[int],
    executor: Executor,
    console: Console,
) -> None:
    """Play the missing games on `executor` (a study's pool serves all its runs), write the
    batches as they arrive, then mark the run finished (which stores its summary tables); say
    how many of them failed (stored in failed_games), so no study misses it. A cluster plays
    through shards (shards.py)."""
    if isinstance(executor, Cluster):
        shards.execute(con, job, indices, console, executor)
        return
    total = job.spec.games
    start = time.perf_counter()
    failed = 0
    with progress_bar(console) as progress:
        task = progress.add_task("games", total=total, completed=total - len(indices), rate=0.0)
        played = 0
        writer = BatchWriter(con)
        stream = executor.stream([(job, indices)])
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


def _seat_table(con: duckdb.DuckDBPyConnection, run_id: int, title: str) -> Table:
    """Wins and win rate with its interval per seat (and per agent when several played), each
    seat beside its even share and its verdict."""
    won, seat_games = con.execute(
        "SELECT count(*) FILTER (won), count(*) FROM game_seats WHERE run_id = ?", [run_id]
    ).fetchall()[0]
    even = won / seat_games if seat_games else None
    table = Table(
        title=title,
        show_header=True,
        title_justify="left",
        caption=(
            f"even share {even:.1%}: every seat's win rate in an even game, (1 - draw rate) / "
            f"players; verdict: even within ±{100 * BAND:g} points, else ahead or behind with "
            "the report's severity"
            if even is not None
            else None
        ),
        caption_justify="left",
    )
    table.add_column("")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("95% CI (Wilson)", justify="right")
    table.add_column("even share", justify="right")
    table.add_column("verdict")
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
            judged = (
                (f"{even:.1%}", seat_verdict(wins / n, lo, hi, even, n))
                if what == "seat" and even is not None
                else ("", "")
            )
            table.add_row(
                f"{what} {name}", str(wins), f"{wins / n:.1%}", f"{lo:.1%} – {hi:.1%}", *judged
            )
    return table


def seat_verdict(rate: float, lo: float, hi: float, even: float, n: int) -> str:
    """`even` within the report's band around the even share, else `ahead` or `behind` with the
    severity the report's seat finding would give (evenness.beyond_band)."""
    sev = beyond_band(rate, lo, hi, even, n)
    if sev is None:
        return "even"
    return f"{'ahead' if rate > even else 'behind'} ({sev})"


def who_played(specs: str) -> str:
    """`heuristic,heuristic` -> "heuristic in every seat"; else "seat 1 random, seat 2 ..."."""
    seats = specs.split(",")
    if len(set(seats)) == 1:
        return f"{seats[0]} in every seat"
    return ", ".join(f"seat {i + 1} {a}" for i, a in enumerate(seats))


def summary(con: duckdb.DuckDBPyConnection, run_id: int, db_path: str) -> Group:
    """One screen: games, win rate by seat and by agent with 95% Wilson intervals, draws; each
    seat beside its even share and the report's verdict on it (seat_verdict)."""
    games, draws, guard, rounds, tyrant = con.execute(
        "SELECT count(*), count(*) FILTER (draw), count(*) FILTER (guard_stopped), "
        "avg(rounds), count(*) FILTER (list_contains(winners, -2)) FROM games WHERE run_id = ?",
        [run_id],
    ).fetchall()[0]
    label, status, seed, boards, agents, drafters = con.execute(
        "SELECT label, status, seed, boards, agents, drafters FROM runs WHERE run_id = ?", [run_id]
    ).fetchall()[0]
    table = _seat_table(con, run_id, f"run {run_id}{f' ({label})' if label else ''}: {status}")
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
