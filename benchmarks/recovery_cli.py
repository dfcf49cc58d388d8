"""The recovery benchmark's runs of the workbench CLI (benchmarks/bench_recovery.py, and
bench_buying's truths): a command with its CPU seconds, the games a run database holds, and a
design run's causal effect per card."""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import duckdb

from workbench.analysis import causal

ROOT = Path(__file__).resolve().parents[1]


def children_cpu() -> float:
    return sum(resource.getrusage(resource.RUSAGE_CHILDREN)[:2])


def cli(args: Sequence[str], log: Path) -> float:
    """Run `workbench ARGS` (output to `log`); its CPU seconds, workers included."""
    before = children_cpu()
    with log.open("a", encoding="utf-8") as fh:
        fh.write("$ workbench " + " ".join(args) + "\n")
        fh.flush()
        done = subprocess.run(
            [sys.executable, "-m", "app.cli", *args], stdout=fh, stderr=subprocess.STDOUT, cwd=ROOT
        )
    if done.returncode not in (0, 1):  # 1: some games failed and were kept (simulate)
        raise RuntimeError(f"workbench {args[0]} exited {done.returncode}; see {log}")
    return children_cpu() - before


def games_in(db: Path) -> int:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return int(con.execute("SELECT coalesce(sum(games), 0) FROM runs").fetchall()[0][0])
    finally:
        con.close()


def simulate(files: Sequence[Path], board: str, db: Path, seed: int, workers: int) -> list[str]:
    """`workbench simulate` of these sets on the board into `db`, with the seed and workers."""
    args = ["simulate", "--sets", ",".join(map(str, files)), "--board", board, "--db", str(db)]
    return [*args, "--seed", str(seed), "--workers", str(workers)]


def design_effects(
    files: Sequence[Path], board: str, folder: Path, games: int, seed: int, opts: argparse.Namespace
) -> dict[str, Any]:
    """`simulate --design causal` (`games` games of `seed`) on these sets, and every card's
    causal effect in it (analysis/causal.card_effects): the run's games, CPU seconds and, per
    card, the effect row."""
    folder.mkdir(parents=True, exist_ok=True)
    db, log = folder / "truth.duckdb", folder / "truth.txt"
    db.unlink(missing_ok=True)
    args = [*simulate(files, board, db, seed, opts.workers), "--design", "causal"]
    cpu = cli([*args, "--games", str(games)], log)
    con = duckdb.connect(str(db))
    try:
        rows = causal.card_effects(con, [1]).to_dicts()
    finally:
        con.close()
    played = games_in(db)
    if not opts.keep_db:
        db.unlink()
    return {"games": played, "cpu": round(cpu, 1), "cards": {r["card"]: r for r in rows}}
