"""The recovery benchmark's options and its runs of the workbench CLI
(benchmarks/bench_recovery.py, and bench_buying's truths): a command with its CPU seconds, the
games a run database holds, and a design run's causal effect per card."""

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
from workbench.studies import plants as pl

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


def options(argv: Sequence[str] | None, description: str) -> argparse.Namespace:
    """bench_recovery's options (`description`: its first paragraph)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--cases", type=int, default=40, help="the first N cases of the list")
    parser.add_argument("--skip", type=int, default=0, help="of those, leave out the first N")
    parser.add_argument("--games", type=int, help="simulate --games (default: simulate's own)")
    parser.add_argument(
        "--pipeline",
        choices=("causal", "own"),
        default="causal",
        help="causal: simulate --design causal + report (verdicts by randomised buying); own: "
        "simulate with the agents' own buying + report (the observational verdicts)",
    )
    parser.add_argument(
        "--confirm-games", type=int, default=4000, help="games of each design run for the truth"
    )
    parser.add_argument(
        "--reconfirm-games", type=int, default=0, help="N: leaning plants' second truth run"
    )
    parser.add_argument(
        "--tune-cases", type=int, default=40, help="tune on at most this many large cost plants"
    )
    parser.add_argument("--tune-games", type=int, help="tune --games (default: tune's own)")
    parser.add_argument(
        "--tune-again",
        action="store_true",
        help="run tune again on the runs already tuned (e.g. after tune's defaults changed)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("recovery"))
    parser.add_argument("--keep-db", action="store_true", help="keep the case databases")
    parser.add_argument(
        "--simulate-arg", action="append", default=[], help="extra simulate argument"
    )
    parser.add_argument(
        "--simulate",
        action="append",
        default=[],
        metavar="ARGS",
        help="another simulate run into the file before the report (e.g. '--design causal')",
    )
    parser.add_argument("--report-arg", action="append", default=[], help="extra report argument")
    parser.add_argument("--tune-arg", action="append", default=[], help="extra tune argument")
    case_options(parser)
    return parser.parse_args(argv)


def case_options(parser: argparse.ArgumentParser) -> None:
    """The options of --make-cases, which writes the case list."""
    parser.add_argument(
        "--make-cases", type=int, metavar="N", help="write N cases to the list and stop"
    )
    parser.add_argument("--append", action="store_true", help="--make-cases: add to the list")
    parser.add_argument(
        "--kinds",
        default=",".join(t.value for t in pl.TYPES),
        help="--make-cases: the card types the cases cycle through (default: all five)",
    )
    parser.add_argument(
        "--contents",
        help="--make-cases: the boards and set pairs the runs take in turn, e.g. "
        "'three-hills=iron-legion,tide-callers;zwei-burgen=tide-callers,sky-wardens' "
        "(default: each board with its pair in BOARDS)",
    )
    parser.add_argument(
        "--fields",
        help="--make-cases: the fields to plant, in turn (default: each type's own, "
        f"{', '.join(pl.FIELDS[:3])}, {pl.EFFECT}; a unit's {' and '.join(pl.STATS)} only so)",
    )
