"""The heuristic's use of spells, equipment, artifacts and potions checked against search:
at action-phase decisions (R6.8) of real games where a non-unit card can be
played or a potion or equipment's free action used, what the heuristic chooses against what
search chooses from the same position.

Games: `--agent` in every seat (default the heuristic; `valued` buys the spells, equipment and
potions the heuristic never buys, so their positions come up), the default sets, on each
board; the heuristic's choice is the one compared (the valued agent's action phase is the
heuristic's). At each such decision
(every one, up to `--per-game` a game) the search (`--search`, by default budget 16 with all 8
of the heuristic's best candidates) is asked on a clone of the game. Per card type, counted
over the decisions where either plays a card of that type: both play the same card; only the
search plays one (the heuristic too shy); only the heuristic does (too eager); both, but
different cards; then the cards of the disagreements. The game goes on with `--agent`'s
choice.

    .venv/bin/python benchmarks/bench_card_use.py --games 20 --workers 2
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.actions import Action
from engine.agents.registry import make_agent
from engine.game import Game
from engine.play import derive_seed
from engine.state import GameState
from engine.vocab import ActionKind, Phase
from workbench.content.setup import DEFAULT_SETS, load_setup
from workbench.training.train_agent import BOARDS


def support(s: GameState, a: Action) -> str | None:
    """The card type of a non-unit card `a` plays, or whose free action it uses; else None."""
    if a.kind is ActionKind.PLAY or a.kind is ActionKind.FREE:
        t = s.cards[a.card].type.value
        return None if t == "unit" else t
    return None


def play_one(job: tuple[str, int, int, str, int, str]) -> list[tuple[str, str, str]]:
    """One game; (card type, verdict, card names) per compared decision."""
    board, i, seed, search_spec, per_game, spec = job
    cfg = load_setup(list(DEFAULT_SETS), board).config
    h = make_agent("heuristic")
    player = make_agent(spec)
    sr = make_agent(search_spec)
    game = Game(cfg, derive_seed(seed, board, i))
    rngs = [random.Random(derive_seed(seed, "seat", k)) for k in range(cfg.players)]
    out: list[tuple[str, str, str]] = []
    while not game.is_terminal():
        s = game.state
        seat = game.current_player()
        legal = game.legal_actions()
        a = h.act(game, legal, rngs[seat])
        if (
            len(out) < per_game
            and s.phase is Phase.ACTION
            and s.activated < 0
            and not s.pending
            and not s.priority
            and any(support(s, b) for b in legal)
        ):
            b = sr.act(game.clone(), legal, random.Random(derive_seed(seed, "search", i, len(out))))
            th, ts = support(s, a), support(s, b)
            if th and ts:
                same = s.cards[a.card].name == s.cards[b.card].name
                names = f"{s.cards[a.card].name} / {s.cards[b.card].name}"
                out.append((th, "same card" if same else "different cards", names))
            elif ts:
                out.append((ts, "only search plays one", s.cards[b.card].name))
            elif th:
                out.append((th, "only the heuristic plays one", s.cards[a.card].name))
            else:
                out.append(("-", "neither", ""))
        if spec != "heuristic":
            a = player.act(game, legal, rngs[seat])
        game.apply(a, check=False)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boards", default=",".join(BOARDS))
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--per-game", type=int, default=12)
    ap.add_argument("--search", default="search:budget=16+width=8")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=33)
    ap.add_argument("--agent", default="heuristic", help="who plays the games (every seat)")
    args = ap.parse_args()
    jobs = [
        (b, i, args.seed, args.search, args.per_game, args.agent)
        for b in args.boards.split(",")
        for i in range(args.games)
    ]
    with ProcessPoolExecutor(args.workers) as pool:
        rows = [r for game in pool.map(play_one, jobs) for r in game]
    counts = Counter((t, v) for t, v, _ in rows)
    types = sorted({t for t, _, _ in rows if t != "-"})
    verdicts = (
        "same card",
        "different cards",
        "only search plays one",
        "only the heuristic plays one",
    )
    print(f"decisions compared: {len(rows)}; neither plays one: {counts[('-', 'neither')]}")
    print("| card type | " + " | ".join(verdicts) + " |")
    print("|---|" + "---|" * len(verdicts))
    for t in types:
        print(f"| {t} | " + " | ".join(str(counts[(t, v)]) for v in verdicts) + " |")
    for v in verdicts[1:]:
        named = Counter(n for _, vv, n in rows if vv == v)
        print(f"{v}: " + ", ".join(f"{n} {k}" for n, k in named.most_common(12)))


if __name__ == "__main__":
    main()
