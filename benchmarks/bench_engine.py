"""Engine speed: drafted games per second with random agents, events per second, the cost of
`clone()` and of legal-action generation, with peak memory. Not a test: run it by hand.

    .venv/bin/python benchmarks/bench_engine.py [--games N] [--repeats R]
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this tree's engine, not the installed one

from engine.agents.registry import make_agent
from engine.game import Game
from engine.legal import legal_actions
from engine.play import play_game
from engine.vocab import Phase
from workbench.content.setup import DEFAULT_BOARD, DEFAULT_SETS, load_setup


def games_per_second(games: int, log_events: bool) -> tuple[float, float]:
    """(games/s, events/s) for `games` drafted games of random agents."""
    setup = load_setup(log_events=log_events)
    agents = [make_agent("random")] * setup.config.players
    events = 0
    t = time.perf_counter()
    for i in range(games):
        events += len(play_game(setup.config, i, agents).events)
    dt = time.perf_counter() - t
    return games / dt, events / dt


def midgame_positions(count: int) -> list[Game]:
    """Positions in the action phase of round 5+ of random games (for clone and legal)."""
    setup = load_setup()
    out: list[Game] = []
    seed = 0
    while len(out) < count:
        game, rng = Game(setup.config, seed), random.Random(seed)
        seed += 1
        while not game.is_terminal():
            if game.state.round >= 5 and game.state.phase == Phase.ACTION:
                out.append(game.clone())
                break
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))], check=False)
    return out


def per_call_us(fn: object, items: list[Game], reps: int) -> float:
    t = time.perf_counter()
    for _ in range(reps):
        for g in items:
            fn(g)  # type: ignore[operator]
    return (time.perf_counter() - t) / (reps * len(items)) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    on, off = [], []
    for _ in range(args.repeats):  # interleaved, so drift on a shared machine hits both
        on.append(games_per_second(args.games, True))
        off.append(games_per_second(args.games, False))
    positions = midgame_positions(50)
    clone = statistics.median(
        per_call_us(lambda g: g.clone(), positions, 20) for _ in range(args.repeats)
    )
    legal = statistics.median(
        per_call_us(lambda g: legal_actions(g.state), positions, 20) for _ in range(args.repeats)
    )
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    gps_on = statistics.median(g for g, _ in on)
    gps_off = statistics.median(g for g, _ in off)
    print(
        f"setup: sets {','.join(DEFAULT_SETS)}, board {DEFAULT_BOARD}, random agents, "
        f"{args.games} games x {args.repeats} repeats (medians)"
    )
    print(f"drafted games/s, events logged   : {gps_on:8.1f}")
    print(
        f"drafted games/s, events off      : {gps_off:8.1f}  (logging costs "
        f"{(gps_off / gps_on - 1) * 100:.0f}%)"
    )
    print(f"events/s                         : {statistics.median(e for _, e in on):8.0f}")
    print(f"clone() of a mid-game state      : {clone:8.1f} us")
    print(f"legal_actions() mid-game         : {legal:8.1f} us ({1e6 / legal:,.0f} generations/s)")
    print(f"peak memory (RSS)                : {peak_mb:8.0f} MB")


if __name__ == "__main__":
    main()
