"""The speed of the search agent: decisions per second of `search:budget=16`,
and a hash of the games it played, so that a faster engine can be shown to play the same games.

Plays fixed games: on each board `--games` games (seats swapped every other game, as in
bench_ladder.py: the search agent takes the even seats in even games), the search agent against
the heuristic, heuristic drafters, seeds from `engine.play.derive_seed`, the sets rotating over
the pairs of the shipped sets. A game stops at its end or after `--decisions` decisions of the
search agent (0: no cap), which keeps a run short. Reported: the search agent's decisions per
CPU second inside `act` (process time, so the other load on the shared machine counts less; wall
time too), the heuristic's, and the sha256 of the games' action logs and results: the same hash
means the same decisions.

`--against DIR` measures another tree (e.g. a worktree of the old commit) in the same run: the
two trees are timed alternately, `--repeats` times each, in fresh processes; the report gives
each tree's median, the ratio new/old of the medians and whether the hashes agree.

Usage:
    .venv/bin/python benchmarks/bench_search.py                      # this tree, one pass
    .venv/bin/python benchmarks/bench_search.py --against /work/wt/speed-base --repeats 3
    .venv/bin/python benchmarks/bench_search.py --profile 40 > profile.txt
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the engine is imported from --root when the games are played
    from engine.actions import Action
    from engine.game import Game
    from engine.play import Agent
    from engine.state import GameConfig, GameState

ROOT = Path(__file__).resolve().parents[1]
BOARDS = [
    "kings-crossing",
    "gold-rush",
    "three-hills",
    "four-banners",
    "zwei-burgen",
    "drowned-sanctum",
    "tyrants-throne",
]
SETS = ["iron-legion", "tide-callers", "pestgericht", "sky-wardens"]


class Timed:
    """Counts an agent's decisions and its time in `act` (process and wall)."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.name = agent.name
        self.calls = 0
        self.cpu = 0.0
        self.wall = 0.0

    def act(self, game: Game, legal: list[Action], rng: random.Random) -> Action:
        c, w = time.process_time(), time.perf_counter()
        a = self.agent.act(game, legal, rng)
        self.cpu += time.process_time() - c
        self.wall += time.perf_counter() - w
        self.calls += 1
        return a


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Play the fixed games with the engine of `args.root`; the figures as a dict."""
    sys.path.insert(0, str(Path(args.root).resolve()))
    from engine.agents.registry import make_agent
    from engine.play import derive_seed
    from workbench.content.setup import load_setup

    pairs = list(itertools.combinations(SETS, 2))
    search, heur = Timed(make_agent(args.spec)), Timed(make_agent("heuristic"))
    drafter = make_agent("heuristic")
    digest = hashlib.sha256()
    games = 0
    for board in args.boards.split(","):
        for i in range(args.games):
            cfg = load_setup(list(pairs[i % len(pairs)]), board).config
            agents: list[Agent] = [search if (s + i) % 2 == 0 else heur for s in range(cfg.players)]
            seed = derive_seed(args.seed, board, i)
            s = _play(cfg, seed, agents, drafter, search, args.decisions)
            digest.update(
                "\n".join(
                    [board, str(i), *s.action_log, repr((s.winners, s.reason, s.round))]
                ).encode()
            )
            games += 1
    return {
        "root": str(Path(args.root).resolve()),
        "games": games,
        "search_decisions": search.calls,
        "search_cpu": search.cpu,
        "search_wall": search.wall,
        "search_per_cpu_s": search.calls / search.cpu,
        "search_per_wall_s": search.calls / search.wall,
        "heuristic_decisions": heur.calls,
        "heuristic_per_cpu_s": heur.calls / heur.cpu if heur.cpu else 0.0,
        "hash": digest.hexdigest()[:16],
    }


def _play(
    cfg: GameConfig, seed: int, agents: list[Agent], drafter: Agent, search: Timed, cap: int
) -> GameState:
    """One game (heuristic drafters), to its end or until the search agent has made `cap`
    decisions in it (0: no cap); its final state."""
    from engine.game import Game
    from engine.play import derive_seed

    game = Game(cfg, seed)
    rngs = [random.Random(derive_seed(seed, "seat", s)) for s in range(cfg.players)]
    start = search.calls
    while not game.is_terminal():
        if cap and search.calls - start >= cap:
            break
        seat = game.current_player()
        legal = game.legal_actions()
        who = drafter if game.state.phase == "draft" else agents[seat]
        game.apply(who.act(game, legal, rngs[seat]), check=False)
    return game.state


def compare(args: argparse.Namespace) -> None:
    """Time this tree and `--against` alternately in fresh processes; print the medians."""
    trees = {"old": str(Path(args.against).resolve()), "new": str(Path(args.root).resolve())}
    base = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--json",
        "--games",
        str(args.games),
        "--boards",
        args.boards,
        "--decisions",
        str(args.decisions),
        "--seed",
        str(args.seed),
        "--spec",
        args.spec,
    ]
    results: dict[str, list[dict[str, Any]]] = {k: [] for k in trees}
    for r in range(args.repeats):
        for name, root in trees.items():
            out = subprocess.run(
                [*base, "--root", root], check=True, capture_output=True, text=True
            ).stdout
            results[name].append(json.loads(out))
            x = results[name][-1]
            print(
                f"repeat {r + 1} {name}: {x['search_per_cpu_s']:.1f} decisions/CPU s "
                f"({x['search_per_wall_s']:.1f}/wall s), hash {x['hash']}",
                flush=True,
            )
    med = {k: statistics.median(x["search_per_cpu_s"] for x in v) for k, v in results.items()}
    hmed = {k: statistics.median(x["heuristic_per_cpu_s"] for x in v) for k, v in results.items()}
    first = results["old"][0]
    print(
        f"\n{args.spec}, {first['games']} games ({args.boards}), "
        f"{first['search_decisions']} search decisions per pass, {args.repeats} passes each"
    )
    for k, root in trees.items():
        print(
            f"{k} ({root}): median {med[k]:.1f} search decisions/CPU s, heuristic "
            f"{hmed[k]:,.0f}/CPU s, hash {results[k][0]['hash']}"
        )
    print(
        f"ratio new/old: {med['new'] / med['old']:.2f}x (heuristic "
        f"{hmed['new'] / hmed['old']:.2f}x)"
    )
    hashes = {x["hash"] for v in results.values() for x in v}
    print(
        "decisions identical (same hash)"
        if len(hashes) == 1
        else f"DIFFERENT games: hashes {sorted(hashes)}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2, help="games per board (seats swapped)")
    ap.add_argument("--boards", default=",".join(BOARDS))
    ap.add_argument(
        "--decisions",
        type=int,
        default=40,
        help="stop a game after this many search decisions (0: play it out)",
    )
    ap.add_argument("--spec", default="search:budget=16")
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--root", default=str(ROOT), help="the tree whose engine is timed")
    ap.add_argument("--against", help="another tree to time alternately with --root")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument(
        "--profile",
        type=int,
        metavar="N",
        help="cProfile the pass (with --decisions N) and print the top functions",
    )
    args = ap.parse_args()
    if args.against:
        compare(args)
        return
    if args.profile:
        import cProfile
        import pstats

        args.decisions = args.profile
        prof = cProfile.Profile()
        prof.enable()
        res = run(args)
        prof.disable()
        print(json.dumps(res, indent=1))
        st = pstats.Stats(prof)
        st.sort_stats("cumulative").print_stats(45)
        st.sort_stats("tottime").print_stats(45)
        return
    res = run(args)
    print(json.dumps(res, indent=None if args.json else 1))


if __name__ == "__main__":
    main()
