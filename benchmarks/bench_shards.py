"""One DuckDB writer against Parquet shards plus a bulk ingest (docs/scale.md), on the
same games: the default setup, random agents (the most events a game). Events per second of

- the writer: 16-game batches as workers build them, stored by store.BatchWriter (today's
  local path, all in one process);
- shard writing: the same games as 64-game batches written by shards.write_shards (what each
  Ray worker does after playing; per worker core, so it scales with the cluster);
- the bulk ingest: shards.ingest of those shards into a fresh file (the driver, once a run's
  games are played);

with bytes per game of the file and of the shards, and the heuristic agent's CPU seconds per
game (the default agent) for the paper cost of large runs. Medians of the repeats; rates per
wall second and per CPU second of this process (DuckDB uses every core it is given).
Not a test: run it by hand.

    .venv/bin/python benchmarks/bench_shards.py [--games N] [--repeats R] [--heuristic N]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import duckdb
import pyarrow as pa

from engine.agents.registry import make_agent
from engine.play import derive_seed, play_game
from workbench.content.setup import DEFAULT_BOARD, DEFAULT_SETS
from workbench.play.jobs import Prepared, create_prepared_run, prepare
from workbench.play.shards import SHARD_GAMES, claim, ingest, write_shards
from workbench.store import (
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


def timed(work: Callable[[], object]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) of `work`."""
    w, c = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - w, time.process_time() - c


def new_store(path: Path, prep: Prepared, games: int) -> tuple[duckdb.DuckDBPyConnection, int]:
    con = open_store(path)
    spec = dataclasses.replace(SPEC, games=games)
    return con, create_prepared_run(con, spec, prep, "ray", 1)


def size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def write(con: duckdb.DuckDBPyConnection, batches: list[dict[str, pa.Table]]) -> None:
    """Today's path: the batches through one BatchWriter."""
    writer = BatchWriter(con)
    for tables in batches:
        writer.add(16, tables)
    writer.flush()
    con.execute("CHECKPOINT")


def shard(folder: Path, batches: list[tuple[int, int, dict[str, pa.Table]]]) -> None:
    """What the Ray workers do after playing, here one after the other."""
    for first, last, tables in batches:
        write_shards(folder, first, last, tables)


def bulk(con: duckdb.DuckDBPyConnection, run_id: int, folder: Path) -> None:
    """The driver's ingest at the end of a run."""
    ingest(con, run_id, folder)
    con.execute("CHECKPOINT")


def per_game_cpu(prep: Prepared, agent: str, games: int) -> float:
    """CPU seconds per game of `agent` in every seat and as drafter, default setup."""
    config = prep.configs[DEFAULT_BOARD]
    t = time.process_time()
    for i in range(games):
        play_game(
            config,
            derive_seed(7, i),
            [make_agent(agent), make_agent(agent)],
            [make_agent(agent), make_agent(agent)],
        )
    return (time.process_time() - t) / games


def measure(
    prep: Prepared, played: list[PlayedGame], repeats: int
) -> tuple[dict[str, list[tuple[float, float]]], dict[str, list[int]]]:
    """(wall, CPU) seconds of each path and the bytes each leaves, per repeat."""
    rates: dict[str, list[tuple[float, float]]] = {"writer": [], "shards": [], "ingest": []}
    sizes: dict[str, list[int]] = {"file": [], "shards": []}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(repeats):
            root = Path(tmp) / str(r)
            root.mkdir()
            # today's path: batches built by workers, one writer in the main process
            con, run_id = new_store(root / "writer.duckdb", prep, len(played))
            batches = [batch_tables(run_id, played[i : i + 16]) for i in range(0, len(played), 16)]
            con.execute("CHECKPOINT")
            empty = size(root)

            rates["writer"].append(timed(partial(write, con, batches)))
            con.close()
            sizes["file"].append(size(root) - empty)
            # shards: what each Ray worker writes, then the driver's bulk ingest
            con, run_id = new_store(root / "ingest.duckdb", prep, len(played))
            folder = root / "ingest.shards" / f"run-{run_id}"
            claim(folder, con, run_id)
            shard_batches = [
                (
                    i,
                    min(i + SHARD_GAMES, len(played)) - 1,
                    batch_tables(run_id, played[i : i + SHARD_GAMES]),
                )
                for i in range(0, len(played), SHARD_GAMES)
            ]

            rates["shards"].append(timed(partial(shard, folder, shard_batches)))
            sizes["shards"].append(size(folder))

            rates["ingest"].append(timed(partial(bulk, con, run_id, folder)))
            con.close()
    return rates, sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=640)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--heuristic", type=int, default=40, help="heuristic games for the CPU seconds per game"
    )
    args = parser.parse_args()
    prep = prepare(SPEC)
    config = prep.configs[DEFAULT_BOARD]
    agents = [make_agent("random"), make_agent("random")]
    played = [
        PlayedGame(
            i,
            config.board.name,
            0,
            SPEC.agents,
            SPEC.drafters,
            play_game(config, derive_seed(SPEC.seed, i), agents),
        )
        for i in range(args.games)
    ]
    events = sum(len(g.record.events) for g in played)
    rates, sizes = measure(prep, played, args.repeats)
    med = statistics.median
    print(
        f"default setup ({', '.join(DEFAULT_SETS)} on {DEFAULT_BOARD}), random agents, "
        f"{args.games} games ({events / args.games:.0f} events/game) x {args.repeats} "
        f"repeats, medians; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    for name, what in (
        ("writer", "one writer, 16-game batches (today's local path)"),
        ("shards", f"shard writing, {SHARD_GAMES}-game batches (per Ray worker)"),
        ("ingest", "bulk ingest of those shards (the driver)"),
    ):
        wall = med(w for w, _ in rates[name])
        cpu = med(c for _, c in rates[name])
        print(
            f"{what:58s} {events / wall:12,.0f} events/s wall {events / cpu:12,.0f} per CPU second"
        )
    writer = med(w for w, _ in rates["writer"])
    ingest_wall = med(w for w, _ in rates["ingest"])
    print(
        f"driver: the writer {writer:.2f} s against the ingest {ingest_wall:.2f} s for the "
        f"same games ({writer / ingest_wall:.1f}x)"
    )
    mb = 1024 * 1024
    print(
        f"bytes per game: file {med(sizes['file']) / args.games / 1024:.1f} KB, shards "
        f"{med(sizes['shards']) / args.games / 1024:.1f} KB "
        f"({med(sizes['file']) / args.games * 1e6 / mb / 1024:.0f} GB and "
        f"{med(sizes['shards']) / args.games * 1e6 / mb / 1024:.0f} GB per million games)"
    )
    if args.heuristic:
        for agent in ("heuristic", "random"):
            cpu = per_game_cpu(prep, agent, args.heuristic)
            print(f"{agent:9s} CPU seconds per game {cpu:.3f} ({1 / cpu:.1f} games/s per core)")


if __name__ == "__main__":
    main()
