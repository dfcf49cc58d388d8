"""The strength ladder of the match agents (issue: AI players that play well enough to judge
balance).

Rungs, each on every shipped board, seats swapped every other game (A takes the even seats in
even games, the odd seats in odd games; on the two-team four-player board that is one team; the
table also gives A's wins of decided games per seat, "A first seat" being the even games):
  heuristic vs random, search:budget=B vs heuristic, search:budget=4B vs heuristic,
  search:budget=4B vs search:budget=B.
On the Tyrant board the players are one team against the game, so a rung there compares
whole tables: the same seed is played by an all-A table and an all-B table, and a pair counts
as decided when exactly one table wins (A "beats" B when its table won and B's did not). A
second row for that board, "(ties by rounds)", also decides the pairs both tables won: the
sooner win is the better (`table_rank`).

Every figure is the share of decided games A won, with the game count and the 95% Clopper-
Pearson interval of scipy.stats.binomtest(...).proportion_ci(). Drafts use the heuristic
drafter for every seat, so the rungs compare match play; with `--drafters DA DB` A's seats
(or table) draft with DA and B's with DB, so `--pair heuristic heuristic --drafters heuristic
numbers` compares two drafters under the same match agent. The sets rotate over the pairs of the
four shipped sets by game index.

Also measured: decisions per second of each agent (time inside `act`), and full drafted
heuristic matches per second on one core.

Usage (writes results as they come to --out, a JSON file, and prints a Markdown table):
    .venv/bin/python benchmarks/bench_ladder.py --games 40 --budget 4 --workers 2
    .venv/bin/python benchmarks/bench_ladder.py --speed-only [--speed-agent tuned]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.actions import Action
from engine.agents.registry import make_agent
from engine.game import Game
from engine.play import Agent, derive_seed, play_game
from workbench.training.train_agent import BOARDS, setup_for, table_rank

Row = dict[str, Any]


class Timed:
    """Wraps an agent and counts its decisions and the time it spends in `act`."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.name = agent.name
        self.calls = 0
        self.seconds = 0.0

    def act(self, game: Game, legal: list[Action], rng: random.Random) -> Action:
        t = time.perf_counter()
        a = self.agent.act(game, legal, rng)
        self.seconds += time.perf_counter() - t
        self.calls += 1
        return a


def play_one(job: tuple[str, str, str, int, int, str, str]) -> Row:
    """One game (or, on the Tyrant board, one pair of tables) of rung A vs B, A's seats
    drafting with the first drafter spec and B's with the second."""
    board, spec_a, spec_b, i, run_seed, draft_a, draft_b = job
    setup = setup_for(board, i)
    cfg = setup.config
    n = cfg.players
    seed = derive_seed(run_seed, board, i)
    da, db = make_agent(draft_a), make_agent(draft_b)
    ta, tb = Timed(make_agent(spec_a)), Timed(make_agent(spec_b))
    t = time.perf_counter()
    extra: Row = {}
    if cfg.board.victory.kind.value == "tyrant":
        ra = play_game(cfg, seed, [ta] * n, [da] * n)
        rb = play_game(cfg, seed, [tb] * n, [db] * n)
        a_won = any(w >= 0 for w in ra.winners)
        b_won = any(w >= 0 for w in rb.winners)
        result = "draw" if a_won == b_won else ("A" if a_won else "B")
        reason = f"{ra.reason} / {rb.reason}"
        ka, kb = table_rank(ra), table_rank(rb)
        extra = {
            "a_rounds": ra.rounds,
            "b_rounds": rb.rounds,
            "by_rounds": "draw" if ka == kb else ("A" if ka > kb else "B"),
        }
    else:
        a_seats = {s for s in range(n) if (s + i) % 2 == 0}
        agents = [ta if s in a_seats else tb for s in range(n)]
        r = play_game(cfg, seed, agents, [da if s in a_seats else db for s in range(n)])
        w = set(r.winners)
        result = "draw" if not w else ("A" if w & a_seats else "B")
        reason = r.reason
    _, label_a, label_b = play_labels(job)
    return {
        "board": board,
        "a": label_a,
        "b": label_b,
        "i": i,
        "result": result,
        "reason": reason,
        "seconds": time.perf_counter() - t,
        "a_calls": ta.calls,
        "a_time": ta.seconds,
        "b_calls": tb.calls,
        "b_time": tb.seconds,
        **extra,
    }


def play_labels(job: tuple[str, str, str, int, int, str, str]) -> tuple[str, str, str]:
    """(board, A's label, B's label) as play_one stores them (for --resume)."""
    board, spec_a, spec_b, _, _, draft_a, draft_b = job
    if (draft_a, draft_b) != ("heuristic", "heuristic"):
        spec_a, spec_b = f"{spec_a} drafting {draft_a}", f"{spec_b} drafting {draft_b}"
    return board, spec_a, spec_b


def ci(wins: int, n: int) -> tuple[float, float]:
    from scipy.stats import binomtest

    if n == 0:
        return (0.0, 1.0)
    c = binomtest(wins, n).proportion_ci(confidence_level=0.95)
    return (c.low, c.high)


def summarize(rows: list[Row]) -> list[Row]:
    out = []
    keys = sorted(
        {(r["a"], r["b"], r["board"]) for r in rows},
        key=lambda k: (k[0], k[1], BOARDS.index(k[2]) if k[2] in BOARDS else 99),
    )
    tied = [
        {**r, "board": r["board"] + " (ties by rounds)", "result": r["by_rounds"]}
        for r in rows
        if "by_rounds" in r
    ]
    rows = rows + tied
    keys += sorted({(r["a"], r["b"], r["board"]) for r in tied})
    keys.sort(
        key=lambda k: (
            k[0],
            k[1],
            BOARDS.index(k[2].split(" ")[0]) if k[2].split(" ")[0] in BOARDS else 99,
            k[2],
        )
    )
    for a, b, board in keys:
        rs = [r for r in rows if (r["a"], r["b"], r["board"]) == (a, b, board)]
        wa = sum(r["result"] == "A" for r in rs)
        wb = sum(r["result"] == "B" for r in rs)
        lo, hi = ci(wa, wa + wb)
        # per seat: A in the first seat (even games) and A in the second seat (odd games)
        first = [r for r in rs if r["i"] % 2 == 0]
        second = [r for r in rs if r["i"] % 2 == 1]
        out.append(
            {
                "a": a,
                "b": b,
                "board": board,
                "games": len(rs),
                "a_wins": wa,
                "b_wins": wb,
                "draws": len(rs) - wa - wb,
                "share": wa / (wa + wb) if wa + wb else float("nan"),
                "ci": [lo, hi],
                "a_first": [
                    sum(r["result"] == "A" for r in first),
                    sum(r["result"] != "draw" for r in first),
                ],
                "a_second": [
                    sum(r["result"] == "A" for r in second),
                    sum(r["result"] != "draw" for r in second),
                ],
                "sec_per_game": sum(r["seconds"] for r in rs) / len(rs),
            }
        )
    return out


def table(summary: list[Row]) -> str:
    lines = [
        "| rung (A vs B) | board | games | A wins | B wins | draws | A share of decided "
        "| 95% CI | A first seat | A second seat | s/game |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for s in summary:
        f, sc = s.get("a_first", [0, 0]), s.get("a_second", [0, 0])
        lines.append(
            f"| {s['a']} vs {s['b']} | {s['board']} | {s['games']} | {s['a_wins']} | "
            f"{s['b_wins']} | {s['draws']} | {s['share']:.0%} | "
            f"{s['ci'][0]:.2f}-{s['ci'][1]:.2f} | {f[0]}/{f[1]} | {sc[0]}/{sc[1]} | "
            f"{s['sec_per_game']:.2f} |"
        )
    return "\n".join(lines)


def speeds(rows: list[Row]) -> dict[str, float]:
    calls: dict[str, int] = {}
    secs: dict[str, float] = {}
    for r in rows:
        for side in ("a", "b"):
            calls[r[side]] = calls.get(r[side], 0) + r[f"{side}_calls"]
            secs[r[side]] = secs.get(r[side], 0.0) + r[f"{side}_time"]
    return {k: calls[k] / secs[k] for k in calls if secs[k] > 0}


def match_speed(games: int = 12, repeats: int = 5, spec: str = "heuristic") -> dict[str, float]:
    """Full drafted matches per CPU second (one core; process time, so other load on the
    machine counts less), `spec` drafting and playing every seat, `games` per board; the median of
    `repeats` runs over all boards (the shared machines vary by a quarter from minute to
    minute). "all boards" is the median of the runs' overall figure (games / total time)."""
    runs: dict[str, list[float]] = {b: [] for b in [*BOARDS, "all boards"]}
    h = make_agent(spec)
    for board in BOARDS:
        for i in range(games):
            setup_for(board, i)
    for _ in range(repeats):
        total = 0.0
        for board in BOARDS:
            t = time.process_time()
            for i in range(games):
                setup = setup_for(board, i)
                play_game(
                    setup.config,
                    derive_seed("speed", board, i),
                    [h] * setup.config.players,
                    [h] * setup.config.players,
                )
            took = time.process_time() - t
            total += took
            runs[board].append(games / took)
        runs["all boards"].append(games * len(BOARDS) / total)
    return {k: statistics.median(v) for k, v in runs.items()}


def main() -> None:
    args = _arguments().parse_args()
    if args.table_from:
        _report([r for f in args.table_from for r in json.loads(Path(f).read_text())["rows"]])
        return
    if args.speed_only:
        print(json.dumps(match_speed(spec=args.speed_agent), indent=1))
        return
    rows: list[Row] = []
    jobs = _jobs(args)
    if args.resume and Path(args.out).is_file():
        # keep the games already played; play only the missing ones
        rows = json.loads(Path(args.out).read_text())["rows"]
        have = {(r["board"], r["a"], r["b"], r["i"]) for r in rows}
        jobs = [j for j in jobs if (*play_labels(j), j[3]) not in have]
    _play(jobs, rows, args)
    _report(rows)


def _arguments() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=40, help="games per rung and board")
    ap.add_argument("--budget", type=int, default=4, help="search budget B (and 4B)")
    ap.add_argument("--boards", default=",".join(BOARDS))
    ap.add_argument(
        "--rungs",
        default="hr,sh,Sh,ss",
        help="hr: heuristic-random, sh: search "
        "B vs heuristic, Sh: search 4B vs heuristic, ss: search 4B vs B",
    )
    ap.add_argument(
        "--pair",
        nargs=2,
        metavar=("A", "B"),
        help="any two agent specs as rung `ab` (e.g. to try parameters)",
    )
    ap.add_argument(
        "--drafters",
        nargs=2,
        metavar=("DA", "DB"),
        default=("heuristic", "heuristic"),
        help="drafter specs of A's and B's seats (default: heuristic)",
    )
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "ladder_results.json"))
    ap.add_argument(
        "--resume", action="store_true", help="keep the games already in --out and play the rest"
    )
    ap.add_argument("--speed-only", action="store_true")
    ap.add_argument(
        "--speed-agent", default="heuristic", help="the agent of --speed-only (default heuristic)"
    )
    ap.add_argument("--table-from", nargs="*", help="print the table of stored result files")
    return ap


def _jobs(args: argparse.Namespace) -> list[tuple[Any, ...]]:
    """Every game of the run: round robin over games, rungs and boards, so that a run stopped
    early is balanced across them."""
    b = args.budget
    rung_specs = {
        "hr": ("heuristic", "random"),
        "sh": (f"search:budget={b}", "heuristic"),
        "Sh": (f"search:budget={4 * b}", "heuristic"),
        "ss": (f"search:budget={4 * b}", f"search:budget={b}"),
    }
    if args.pair:
        rung_specs["ab"] = tuple(args.pair)
    boards = args.boards.split(",")
    return [
        (board, *rung_specs[r], i, args.seed, *args.drafters)
        for i in range(args.games)
        for r in args.rungs.split(",")
        for board in boards
    ]


def _play(jobs: list[tuple[Any, ...]], rows: list[Row], args: argparse.Namespace) -> None:
    """Play `jobs`, adding their rows to `rows` and writing them to --out as they come."""
    t0 = time.time()

    def flush() -> None:
        # written whole to a side file, then renamed: a run stopped mid-write keeps its games
        out = Path(args.out)
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_text(
            json.dumps(
                {
                    "args": vars(args),
                    "elapsed": time.time() - t0,
                    "summary": summarize(rows),
                    "decisions_per_second": speeds(rows),
                    "rows": rows,
                },
                indent=1,
            )
        )
        tmp.replace(out)

    if args.workers > 1:
        with mp.Pool(args.workers) as pool:
            for k, row in enumerate(pool.imap_unordered(play_one, jobs)):
                rows.append(row)
                if k % 5 == 0:
                    flush()
    else:
        for k, job in enumerate(jobs):
            rows.append(play_one(job))
            if k % 5 == 0:
                flush()
    flush()


def _report(rows: list[Row]) -> None:
    """The Markdown table of the rungs, then each agent's decisions per second."""
    print(table(summarize(rows)))
    print()
    for name, dps in sorted(speeds(rows).items()):
        print(f"{name}: {dps:,.0f} decisions/s")


if __name__ == "__main__":
    main()
