"""Store and runner speed on the default sets and board, random agents: matches per second with
event logging on and off (their ratio is the logging overhead), events per second ingested into
DuckDB by the writer (16-game batches, as workers build them, gathered into large commits) and
the Arrow build per worker core, runner games per second with 1 and 2 workers (the
parallel speed-up), database size per 1,000 games, and peak memory. Medians of the repeats.
Single-process rates are per CPU-second (time.process_time), so other load on a shared machine
does not distort them; the runner rates are wall-clock, printed with the load average.
Not a test: run it by hand.

    .venv/bin/python benchmarks/bench_store.py [--games N] [--repeats R]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this tree's engine, not the installed one

import duckdb
from rich.console import Console

from engine.agents.registry import make_agent
from engine.play import derive_seed, play_game
from engine.state import GameConfig
from workbench.content.setup import DEFAULT_BOARD, DEFAULT_SETS
from workbench.play.jobs import Job, Prepared, create_prepared_run, prepare
from workbench.play.pool import WorkerPool
from workbench.play.runner import execute
from workbench.store import (
    FLUSH_ROWS,
    BatchWriter,
    PlayedGame,
    RunSpec,
    batch_tables,
    open_store,
)

SPEC = RunSpec(
    DEFAULT_SETS,
    (DEFAULT_BOARD,),
    0,
    2,
    ("random", "random"),
    ("random", "random"),
    seed=1,
    label="bench",
)


def play(config: GameConfig, games: int) -> tuple[float, list[PlayedGame]]:
    """CPU seconds for `games` games and the games themselves."""
    agents = [make_agent("random"), make_agent("random")]
    t = time.process_time()
    played = [
        PlayedGame(
            i,
            config.board.name,
            0,
            SPEC.agents,
            SPEC.drafters,
            play_game(config, derive_seed(SPEC.seed, i), agents),
        )
        for i in range(games)
    ]
    return time.process_time() - t, played


def new_store(path: Path, prep: Prepared, games: int) -> tuple[duckdb.DuckDBPyConnection, int]:
    con = open_store(path)
    spec = dataclasses.replace(SPEC, games=games)
    return con, create_prepared_run(con, spec, prep, "local", 1)


def ingest(played: list[PlayedGame], prep: Prepared, path: Path) -> tuple[float, float]:
    """(events/s of the Arrow build, as a worker does it per 16-game batch; events/s of the
    writer storing those batches as the runner does, store.BatchWriter)."""
    con, run_id = new_store(path, prep, len(played))
    events = sum(len(g.record.events) for g in played)
    t0 = time.process_time()
    batches = [batch_tables(run_id, played[i : i + 16]) for i in range(0, len(played), 16)]
    t1 = time.process_time()
    writer = BatchWriter(con)
    for tables in batches:
        writer.add(16, tables)
    writer.flush()
    t2 = time.process_time()
    con.close()
    return events / (t1 - t0), events / (t2 - t1)


def batch_peak(prep: Prepared, config: GameConfig) -> int:
    """Traced peak bytes of what a worker holds for one batch: 16 games played, then their
    Arrow tables (tracemalloc slows Python down, so this is measured apart from the times)."""
    tracemalloc.start()
    _, played = play(config, 16)
    batch_tables(1, played)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def run(prep: Prepared, games: int, workers: int, path: Path) -> tuple[float, int]:
    """(games/s through the whole runner, bytes the games added to the file). Timed as
    `simulate` runs: from the workers' start (forked before the store is opened) through the
    run's creation, its games and its summary tables to the finished run."""
    t = time.perf_counter()
    pool = WorkerPool(workers, once=True, fork=True)
    con, run_id = new_store(path, prep, games)
    con.execute("CHECKPOINT")
    empty = path.stat().st_size
    job = Job(run_id, dataclasses.replace(SPEC, games=games), prep.configs)
    execute(con, job, range(games), pool, Console(quiet=True))
    rate = games / (time.perf_counter() - t)
    con.execute("CHECKPOINT")
    con.close()
    return rate, path.stat().st_size - empty


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    prep = prepare(SPEC)
    config = prep.configs[DEFAULT_BOARD]
    quiet = dataclasses.replace(config, log_events=False)
    on: list[float] = []
    off: list[float] = []
    build: list[float] = []
    writer_rates: list[float] = []
    sizes: list[int] = []
    rates: dict[int, list[float]] = {1: [], 2: []}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.repeats):
            t_on, played = play(config, args.games)
            t_off, _ = play(quiet, args.games)
            on.append(args.games / t_on)
            off.append(args.games / t_off)
            b, a = ingest(played, prep, Path(tmp) / f"ingest{r}.duckdb")
            build.append(b)
            writer_rates.append(a)
            events = sum(len(g.record.events) for g in played) / args.games
            del played  # the runner's forked workers would inherit them
            for workers in (1, 2):
                rate, size = run(prep, args.games, workers, Path(tmp) / f"run{r}-{workers}.duckdb")
                rates[workers].append(rate)
                sizes.append(size)
    traced = batch_peak(prep, config)
    med = statistics.median
    mb = 1024 * 1024
    print(
        f"default setup ({', '.join(DEFAULT_SETS)} on {DEFAULT_BOARD}), random agents, "
        f"{args.games} games x {args.repeats} repeats, medians; {events:.0f} events/game"
    )
    print(f"matches/s, logging on       {med(on):8.1f}")
    print(f"matches/s, logging off      {med(off):8.1f}   overhead {med(off) / med(on):.2f}x")
    print(
        f"events/s ingested (writer)  {med(writer_rates):10,.0f} (16-game batches gathered into "
        f"commits of {FLUSH_ROWS:,} rows)"
    )
    print(
        f"events/s Arrow build        {med(build):10,.0f} (per worker core; build + writer in "
        f"one process {1 / (1 / med(build) + 1 / med(writer_rates)):,.0f})"
    )
    print(f"load average                {os.getloadavg()[0]:8.1f} on {os.cpu_count()} cores")
    for workers in (1, 2):
        print(
            f"runner games/s, {workers} worker{'s' if workers > 1 else ' '}   "
            f"{med(rates[workers]):8.1f}   ({args.games / med(rates[workers]):.2f} s wall)"
        )
    print(f"runner speed-up, 2 workers  {med(rates[2]) / med(rates[1]):8.2f}x")
    print(f"database size per 1,000     {med(sizes) / args.games * 1000 / mb:8.1f} MB")
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"peak memory                 {own:8.0f} MB RSS of this process (writer; holds the "
        f"{args.games} benchmark games too); {traced / mb:.0f} MB traced per 16-game worker "
        "batch"
    )


if __name__ == "__main__":
    main()
