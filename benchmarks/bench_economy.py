"""Whose habit is the upkeep lock: the same seeds played by several agents.

Each agent plays every seat (and drafts) of the same games, one run per agent in one DuckDB file
(`workbench simulate`); the economy per round comes from the report's own definition
(`workbench.analysis.economy.per_round`). Printed per agent, over rounds 1-4, 5-9 and 10 on:
income, upkeep paid and its share of income, the share of turns that bought a card, and the
resource left unspent; then the cards bought per seat and game.
If the lock is the game's, every agent shows it; if it is one agent's habit, the others do not.

    .venv/bin/python benchmarks/bench_economy.py --agents heuristic,tuned,search:budget=16 \
        --games 60 --seed 7 --db /tmp/econ.duckdb
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from workbench.analysis.economy import per_round
from workbench.analysis.runs import Runs
from workbench.analysis.source import in_runs, open_db, query

WINDOWS = ((1, 4), (5, 9), (10, 99))


def simulate(db: Path, agent: str, games: int, seed: int, board: str, workers: int) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "app.cli",
            "simulate",
            "--games",
            str(games),
            "--seed",
            str(seed),
            "--agents",
            agent,
            "--board",
            board,
            "--db",
            str(db),
            "--workers",
            str(workers),
            "--label",
            agent,
        ],
        check=True,
        cwd=ROOT,
    )


def windows(df: pl.DataFrame) -> list[dict[str, float]]:
    """Turn-weighted means of a per-round table over each window of rounds."""
    out = []
    for lo, hi in WINDOWS:
        w = df.filter(pl.col("round").is_between(lo, hi))
        turns = w["turns"].sum()
        if not turns:
            out.append({})
            continue

        def mean(col: str, frame: pl.DataFrame = w, n: int = turns) -> float:
            return float((frame[col] * frame["turns"]).sum() / n)

        income = mean("income")
        out.append(
            {
                "income": income,
                "upkeep": mean("spend_upkeep"),
                "share": mean("spend_upkeep") / income if income else float("nan"),
                "buy_share": float(w["buys"].sum() / turns),
                "unspent": mean("unspent"),
            }
        )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agents", default="heuristic,tuned")
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--board", default="kings-crossing")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--db", type=Path, default=Path("/tmp/bench_economy.duckdb"))
    ap.add_argument(
        "--reuse",
        action="store_true",
        help="read the runs already in --db (one per agent, by its spec)",
    )
    args = ap.parse_args()
    args.agents_given = "--agents" in sys.argv
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    if not args.reuse:
        args.db.unlink(missing_ok=True)
        for agent in agents:
            simulate(args.db, agent, args.games, args.seed, args.board, args.workers)
    con = open_db(args.db)
    # every seat one agent: the run's first seat names it
    runs = {
        a.split(",")[0]: r
        for a, r in con.execute("SELECT agents, run_id FROM runs ORDER BY run_id").fetchall()
    }
    if args.reuse and not args.agents_given:
        agents = list(runs)
    print("| agent | rounds | income | upkeep paid | upkeep share | turns buying | unspent |")
    print("|---|---|---|---|---|---|---|")
    for agent in agents:
        for (lo, hi), w in zip(WINDOWS, windows(per_round(Runs(con, [runs[agent]]))), strict=True):
            if w:
                span = f"{lo}-{hi}" if hi < 99 else f"{lo}+"
                print(
                    f"| {agent} | {span} | {w['income']:.2f} | {w['upkeep']:.2f} | "
                    f"{w['share']:.0%} | {w['buy_share']:.0%} | {w['unspent']:.2f} |"
                )
    print()
    print("| agent | seat-games | buys a seat-game |")
    print("|---|---|---|")
    for agent in agents:
        run = runs[agent]
        seats = query(
            con, f"SELECT count(*) AS n FROM game_seats WHERE {in_runs('game_id', [run])}"
        )["n"][0]
        buys = per_round(Runs(con, [run]))["buys"].sum()
        print(f"| {agent} | {seats} | {buys / seats:.1f} |")


if __name__ == "__main__":
    main()
