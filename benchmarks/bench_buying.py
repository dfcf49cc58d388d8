"""Which cards an agent buys, and the economy it runs: every seat of the
same games played (and drafted) by one agent, the default sets, on each board.

Per agent and board:
- dead: pool cards bought in under 2% of the seat-games whose store held them affordable at
  a buy step (the legal buys of a buy step, R7.1), of the pool's cards ("never offered": held
  affordable in no seat-game, not counted as dead), with the dead ones' card types;
- buys per seat-game;
- upkeep share: upkeep paid over income (the snapshots' `spend_upkeep` / `income`, R5) over
  the player-turns of rounds 5-9 and from round 10, and the share of those turns that bought;
- with --truth DIR, the dead cards against the randomised buying design's causal effects of
  the same sets on the board (DIR/BOARD.json, `cards`: card -> causal.card_effects row, as
  bench_recovery keeps its truths; --truth-games N plays the missing ones, `simulate --design
  causal`, seed --seed + 1): of the dead, how many have an effect whose 95% interval lies above
  0 (the agent's loss, not the card's fault), below 0, or holds 0.

    .venv/bin/python benchmarks/bench_buying.py --agents heuristic,valued --games 100 \
        --workers 2 --truth truths --truth-games 4000 --out benchmarks/buying.json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.actions import Action
from engine.agents.registry import make_agent
from engine.game import Game
from engine.play import Agent, derive_seed, play_game
from engine.vocab import ActionKind, Phase
from workbench.content.setup import DEFAULT_SETS, load_setup
from workbench.training.train_agent import BOARDS

RARE = 0.02
"""A card bought in fewer than this share of the seat-games that offered it is dead."""


class Watched:
    """An agent whose buy steps are watched: the names offered and the names bought."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.name = getattr(agent, "name", "agent")
        self.offered: set[str] = set()
        self.bought: set[str] = set()

    def act(self, game: Game, legal: list[Action], rng: random.Random) -> Action:
        a = self.agent.act(game, legal, rng)
        s = game.state
        if s.phase == Phase.BUY and not s.pending and not s.priority:
            self.offered.update(s.cards[b.card].name for b in legal if b.kind is ActionKind.BUY)
            if a.kind is ActionKind.BUY:
                self.bought.add(s.cards[a.card].name)
        return a


_SETUPS: dict[str, Any] = {}


def play_one(job: tuple[str, str, int, int]) -> dict[str, Any]:
    spec, board, i, seed = job
    if board not in _SETUPS:
        _SETUPS[board] = load_setup(list(DEFAULT_SETS), board)
    cfg = _SETUPS[board].config
    seats = [Watched(make_agent(spec)) for _ in range(cfg.players)]
    r = play_game(cfg, derive_seed(seed, board, i), seats)
    snaps = r.snapshots.data
    econ = {"mid": [0, 0, 0, 0], "late": [0, 0, 0, 0]}  # income, upkeep, turns, turns bought
    for rnd, inc, up, bought in zip(
        snaps["round"], snaps["income"], snaps["spend_upkeep"], snaps["bought"], strict=True
    ):
        w = "late" if int(rnd) >= 10 else "mid" if int(rnd) >= 5 else None  # type: ignore[call-overload]
        if w:
            e = econ[w]
            e[0] += int(inc)  # type: ignore[call-overload]
            e[1] += int(up)  # type: ignore[call-overload]
            e[2] += 1
            e[3] += int(bought)  # type: ignore[call-overload]
    buys = sum(int(b) for b in snaps["bought"])  # type: ignore[call-overload]
    return {
        "spec": spec,
        "board": board,
        "offered": [sorted(w.offered) for w in seats],
        "bought": [sorted(w.bought) for w in seats],
        "econ": econ,
        "buys": buys,
        "seats": cfg.players,
    }


def summarize(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for spec, board in sorted({(r["spec"], r["board"]) for r in rows}):
        rs = [r for r in rows if (r["spec"], r["board"]) == (spec, board)]
        offered: Counter[str] = Counter()
        bought: Counter[str] = Counter()
        for r in rs:
            for names in r["offered"]:
                offered.update(names)
            for names in r["bought"]:
                bought.update(names)
        pool = _SETUPS.get(board) or load_setup(list(DEFAULT_SETS), board)
        types = {c.name: c.type.value for c in pool.config.pool}
        dead = sorted(n for n in types if offered[n] and bought[n] < RARE * offered[n])
        never = sorted(n for n in types if not offered[n])
        econ = {w: [sum(r["econ"][w][k] for r in rs) for k in range(4)] for w in ("mid", "late")}
        seat_games = sum(r["seats"] for r in rs)
        out.append(
            {
                "agent": spec,
                "board": board,
                "games": len(rs),
                "pool": len(types),
                "dead": len(dead),
                "dead_types": dict(Counter(types[n] for n in dead)),
                "dead_cards": dead,
                "never_offered": never,
                "buys_per_seat_game": sum(r["buys"] for r in rs) / seat_games,
                "upkeep_share_5_9": econ["mid"][1] / max(1, econ["mid"][0]),
                "upkeep_share_10": econ["late"][1] / max(1, econ["late"][0]),
                "turns_10": econ["late"][2],
                "bought_share_10": econ["late"][3] / max(1, econ["late"][2]),
            }
        )
    return out


def truths(folder: Path, boards: list[str], games: int, seed: int, workers: int) -> dict[str, Any]:
    """Per board, the causal effect rows of the default sets' design run (DIR/BOARD.json),
    played where missing when `games` is given."""
    from recovery_cli import design_effects

    folder.mkdir(parents=True, exist_ok=True)
    found: dict[str, Any] = {}
    for board in boards:
        path = folder / f"{board}.json"
        if not path.is_file() and games:
            opts = argparse.Namespace(workers=workers, keep_db=False)
            sets = [Path(n) for n in DEFAULT_SETS]
            made = design_effects(sets, board, folder / board, games, seed, opts)
            made |= {"seed": seed, "sets": list(DEFAULT_SETS)}
            path.write_text(json.dumps(made, indent=1), encoding="utf-8")
        if path.is_file():
            found[board] = json.loads(path.read_text(encoding="utf-8"))["cards"]
    return found


def judged(dead: list[str], cards: dict[str, Any]) -> dict[str, list[str]]:
    """The dead cards by where randomised buying puts their effect's 95% interval: above 0,
    below 0, or holding 0 (no estimate counts so). Not the report's words: its "worth buying"
    and "worthless" (verdicts.worth_buying) judge against the band."""
    out: dict[str, list[str]] = {"above 0": [], "below 0": [], "holds 0": []}
    for name in dead:
        row = cards.get(name) or {}
        low, high = row.get("low"), row.get("high")
        key = (
            "above 0"
            if low is not None and low > 0
            else "below 0"
            if high is not None and high < 0
            else "holds 0"
        )
        out[key].append(name)
    return out


def print_tables(summary: list[dict[str, Any]], judged_too: bool) -> None:
    """The summary as Markdown tables; `judged_too`: the dead cards against the truth too."""
    print(
        "| agent | board | games | dead of pool | dead types | buys a seat-game "
        "| upkeep share 5-9 | upkeep share 10+ (turns) | turns buying 10+ |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for s in summary:
        print(
            f"| {s['agent']} | {s['board']} | {s['games']} | {s['dead']} of {s['pool']} | "
            f"{', '.join(f'{k} {v}' for k, v in sorted(s['dead_types'].items()))} | "
            f"{s['buys_per_seat_game']:.1f} | {s['upkeep_share_5_9']:.0%} | "
            f"{s['upkeep_share_10']:.0%} ({s['turns_10']}) | {s['bought_share_10']:.0%} |"
        )
    if judged_too:
        print("\n| agent | board | dead | effect above 0 | below 0 | holds 0 | those above 0 |")
        print("|---|---|---|---|---|---|---|")
        for s in summary:
            if "dead_judged" in s:
                j = s["dead_judged"]
                print(
                    f"| {s['agent']} | {s['board']} | {s['dead']} | {len(j['above 0'])} | "
                    f"{len(j['below 0'])} | {len(j['holds 0'])} | "
                    f"{', '.join(j['above 0'])} |"
                )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agents", default="heuristic,valued")
    ap.add_argument("--boards", default=",".join(BOARDS))
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=33)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--truth", type=Path, default=None, help="folder of BOARD.json truths")
    ap.add_argument("--truth-games", type=int, default=0, help="play missing truths of N games")
    args = ap.parse_args()
    jobs = [
        (spec, board, i, args.seed)
        for spec in args.agents.split(",")
        for board in args.boards.split(",")
        for i in range(args.games)
    ]
    with ProcessPoolExecutor(args.workers) as pool:
        rows = list(pool.map(play_one, jobs, chunksize=4))
    summary = summarize(rows)
    if args.truth is not None:
        boards = args.boards.split(",")
        truth = truths(args.truth, boards, args.truth_games, args.seed + 1, args.workers)
        for row in summary:
            if row["board"] in truth:
                row["dead_judged"] = judged(row["dead_cards"], truth[row["board"]])
    if args.out:
        args.out.write_text(
            json.dumps(
                {
                    "args": vars(args) | {"out": str(args.out), "truth": str(args.truth)},
                    "summary": summary,
                },
                indent=1,
            )
        )
    print_tables(summary, args.truth is not None)


if __name__ == "__main__":
    main()
