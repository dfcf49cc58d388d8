"""Time and peak memory of `workbench report` on synthetic databases of 10,000 and 100,000 games.

The databases are generated in DuckDB SQL (not simulated): a run of 2 seats, 4 sets of 10 cards,
2 boards, 30 picks per seat, 20 rounds of snapshots and about 170 events per game (buys, plays,
combats with their damage, effect damage after a resolve, upkeep and other deaths), then their
summary tables stored as `workbench simulate` stores them (workbench/store/summary.py). Each report
runs in a fresh process so its peak resident memory is its own.

    .venv/bin/python benchmarks/bench_report.py [GAMES ...]    (default: 10000 100000)
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from workbench.store import open_store
from workbench.store.keys import GAME_ID_BASE
from workbench.store.summary import write as write_summaries

G = GAME_ID_BASE


def synthesise(path: Path, games: int) -> None:
    """Fill a fresh store with one finished run of `games` games."""
    con = open_store(path)
    con.execute(f"""INSERT INTO runs VALUES (1, 'synthetic', 'finished', 1, {games}, 2,
        's0,s1,s2,s3', 'b0,b1', 'random,heuristic', 'random,heuristic', '{{}}', '[]', 'h',
        'bench', 'local', 1, now(), now())""")
    con.execute("""INSERT INTO run_cards SELECT 1, 'card' || i, 's' || (i // 10),
        CASE WHEN i % 3 = 0 THEN 'spell' ELSE 'unit' END, true, 2, 1 + i % 6, i % 4,
        CASE WHEN i % 3 = 0 THEN NULL ELSE i % 3 END, 1 + i % 5, 1 + i % 2, i % 4, 1, 0, NULL,
        '', '', '', '', '', '', '' FROM range(40) t(i)""")
    con.execute("""INSERT INTO run_boards SELECT 1, i, 'b' || i, 'b.csv', 'h', 2, 8, 8,
        CASE i WHEN 0 THEN 'vip' ELSE 'capture' END, 5, '', 0, 2, 1, 20, 'units', 0, '', '', '',
        '{}', '', false, '' FROM range(2) t(i)""")
    con.execute(f"""INSERT INTO games SELECT {G} + i, 1, i, 'b' || (i % 2), i, 2, 0, 0,
        CASE WHEN hash(i) % 10 = 0 THEN [] ELSE [(hash(i) % 2)::INT] END,
        hash(i) % 10 = 0, CASE WHEN hash(i) % 10 = 0 THEN 'round limit' ELSE 'VIP defeated' END,
        10 + hash(i, 1) % 11, false, 170, 0 FROM range({games}) t(i)""")
    con.execute("""INSERT INTO game_seats SELECT g.game_id, 1, s, s,
        CASE s WHEN 0 THEN 'random' ELSE 'heuristic' END,
        CASE s WHEN 0 THEN 'random' ELSE 'heuristic' END,
        list_contains(g.winners, s), CASE WHEN g.draw THEN 0 WHEN list_contains(g.winners, s)
        THEN 1 ELSE -1 END, '' FROM games g, range(2) t(s)""")
    con.execute(f"""INSERT INTO picks SELECT {G} + g, p + 1, p // 10 + 1, s,
        'card' || hash(g, s, p) % 40,
        array_to_string(list_transform(range(10 - p % 10),
                                       lambda k: 'card' || hash(g, s, p, k) % 40)
                        || ['card' || hash(g, s, p) % 40], '|')
        FROM range({games}) a(g), range(2) b(s), range(30) c(p)""")
    con.execute(f"""INSERT INTO snapshots SELECT {G} + g, r, s, hash(g, r, s) % 5, 2 + s,
        hash(g, r) % 4, hash(g, r, 1) % 3, CASE WHEN r > 4 THEN 1 + hash(g, r, s) % 3 ELSE 0 END,
        0, hash(g, r, 2) % 2, 0, hash(g, r, s, 3) % 10 = 0, 3, 10, 5, 20, hash(g, r, s) % 6,
        hash(g, r, s, 4) % 4, 0, hash(g, r, 5) % 2, 0, hash(g, r, s, 6) % 6,
        (hash(g, r, s, 7) % 3 = 0)::INT
        FROM range({games}) a(g), range(1, 21) b(r), range(2) c(s)""")
    # ~170 events per game: 20 buys, 30 plays, 30 combats (3 events each), 20 effect damages
    # (2 events each), 5 deaths, and filler kinds the analysis skips
    con.execute(f"""INSERT INTO events SELECT {G} + g, e, 1 + e // 9, 1 + e // 9, 'main',
        e % 2,
        CASE WHEN e < 20 THEN 'buy' WHEN e < 50 THEN 'play'
             WHEN e < 140 THEN CASE (e - 50) % 3 WHEN 2 THEN 'combat' ELSE 'damage' END
             WHEN e < 160 THEN CASE e % 2 WHEN 0 THEN 'resolve' ELSE 'damage' END
             WHEN e < 165 THEN 'death' ELSE 'move' END,
        'card' || hash(g, e) % 40, 'card' || hash(g, e, 1) % 40, -1, -1, 1 + e % 3,
        CASE WHEN e BETWEEN 50 AND 139 THEN CASE (e - 50) % 3 WHEN 0 THEN 'attack'
                                                 WHEN 1 THEN 'retaliation' ELSE '' END
             WHEN e BETWEEN 140 AND 159 AND e % 2 = 1 THEN 'effect'
             WHEN e BETWEEN 160 AND 164 THEN CASE WHEN e = 160 THEN 'upkeep' ELSE 'damage' END
             ELSE '' END, -1, -1
        FROM range({games}) a(g), range(170) b(e)""")
    con.close()


CHILD = """
import re, sys, time
sys.path.insert(0, {root!r})
from app.cmd_report import write_report
t = time.perf_counter()
write_report({db!r}, None, {out!r})
took = time.perf_counter() - t
with open("/proc/self/status") as status:
    print(took, re.search(r"VmHWM:\\s+(\\d+)", status.read()).group(1))
"""
"""The report in a fresh process; its peak is VmHWM (kB), which starts afresh at exec, where
getrusage's maximum would carry over the parent's from before the exec."""


def summarise(path: Path) -> None:
    """Store the run's summary tables, as `workbench simulate` does when a run is complete."""
    con = open_store(path)
    con.execute("SET memory_limit = '1GB'")
    write_summaries(con, 1)
    con.close()


def bench(games: int, tmp: Path) -> tuple[float, float, float, float, int]:
    """(synthesis s, summaries s, report s, peak MB, db MB) for one size."""
    db = tmp / f"bench{games}.duckdb"
    t = time.perf_counter()
    synthesise(db, games)
    made = time.perf_counter() - t
    t = time.perf_counter()
    summarise(db)
    summed = time.perf_counter() - t
    out = (
        subprocess.run(
            [
                sys.executable,
                "-c",
                CHILD.format(root=str(ROOT), db=str(db), out=str(tmp / f"rep{games}")),
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        .stdout.split("\n")[-2]
        .split()
    )
    size = db.stat().st_size // 2**20
    db.unlink()
    return made, summed, float(out[0]), int(out[1]) / 1024, size


def main(sizes: list[int]) -> None:
    print(
        "| games | events | synthesis | summaries | report | peak memory (report process) | "
        "db size |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as d:
        for games in sizes:
            made, summed, took, peak, size = bench(games, Path(d))
            print(
                f"| {games:,} | {games * 170:,} | {made:.1f} s | {summed:.1f} s | {took:.1f} s | "
                f"{peak:,.0f} MB | {size:,} MB |",
                flush=True,
            )


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [10_000, 100_000])
