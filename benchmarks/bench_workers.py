"""The whole `workbench simulate` command, 1 worker against 2 (the bar: 2 workers at least
1.9x one): wall seconds from start to exit of `python -m app.cli simulate --games N --seed S
--workers 1|2`, the runs alternated (and alternated between the checkouts given with --tree, e.g.
an old commit unpacked by `git archive`), medians, the ratio, the load average before every run,
and each run's CPU seconds (its workers included). Wall-clock ratios mean something only on a
quiet machine (load below about 1.5 on 2 cores); the CPU seconds say what load hides. Not a test:
run it by hand.

    .venv/bin/python benchmarks/bench_workers.py [--games 400] [--seed 5] [--repeats 3]
        [--agents heuristic] [--tree DIR ...]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def run(tree: Path, workers: int, args: argparse.Namespace, db: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the command and its workers) of one simulate run."""
    db.unlink(missing_ok=True)
    command = [sys.executable, "-m", "app.cli", "simulate", "--games", str(args.games)]
    command += ["--seed", str(args.seed), "--workers", str(workers), "--db", str(db)]
    if args.agents:
        command += ["--agents", args.agents]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, cwd=tree, env=env, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--agents", help="simulate's --agents (default: simulate's default)")
    parser.add_argument(
        "--tree", action="append", type=Path, help="a checkout to run (default: this one)"
    )
    args = parser.parse_args()
    trees = [t.resolve() for t in args.tree or [HERE]]
    walls: dict[tuple[Path, int], list[float]] = {(t, w): [] for t in trees for w in (1, 2)}
    cpus: dict[tuple[Path, int], list[float]] = {k: [] for k in walls}
    loads: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.repeats):
            for tree in trees:
                for workers in (1, 2):
                    loads.append(os.getloadavg()[0])
                    wall, cpu = run(tree, workers, args, Path(tmp) / "bench.duckdb")
                    walls[tree, workers].append(wall)
                    cpus[tree, workers].append(cpu)
                    print(
                        f"repeat {r + 1} {tree.name} {workers} worker(s): {wall:6.2f} s wall, "
                        f"{cpu:6.2f} s CPU, load before {loads[-1]:.2f}",
                        flush=True,
                    )
    loads.append(os.getloadavg()[0])
    med = statistics.median
    print(
        f"\nsimulate --games {args.games} --seed {args.seed}"
        f"{f' --agents {args.agents}' if args.agents else ''}, medians of {args.repeats}; "
        f"load average {min(loads):.2f}-{max(loads):.2f} on {os.cpu_count()} cores"
    )
    for tree in trees:
        one, two = med(walls[tree, 1]), med(walls[tree, 2])
        print(
            f"{tree!s:40s} 1 worker {one:6.2f} s, 2 workers {two:6.2f} s, "
            f"ratio {one / two:.2f}x; CPU {med(cpus[tree, 1]):6.2f} s and "
            f"{med(cpus[tree, 2]):6.2f} s"
        )


if __name__ == "__main__":
    main()
