"""Playing one whole game between agents: the draft with drafters, the match with agents.

Every seat gets its own random generator seeded from (game seed, seat), so a game is the same
whatever process plays it (determinism).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from engine.actions import PASS_ACTION, Action
from engine.game import Game
from engine.record import GameRecord
from engine.state import GameConfig, GameState
from engine.vocab import Phase


class Agent(Protocol):
    """Whoever takes a seat: picks one of the legal actions. Defined beside the loop that asks
    it, so the game loop stands without the agents package (engine/agents implements it)."""

    name: str

    def act(self, game: Game, legal: list[Action], rng: random.Random) -> Action: ...


@runtime_checkable
class Passer(Protocol):
    """An agent that can tell from the state alone that it passes: `passes(state)` True
    promises that `act` would return the pass here whatever the legal actions, drawing nothing
    from its rng and changing nothing in itself. The loop then applies the pass without
    listing the actions (the heuristic's response windows, R21.6: a seat holding two cards may
    convert, R8.6, so the list is built on demand only)."""

    def passes(self, state: GameState) -> bool: ...


def derive_seed(*parts: int | str) -> int:
    """A 63-bit seed from any parts, stable across processes and Python versions."""
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def play_game(
    config: GameConfig, seed: int, agents: Sequence[Agent], drafters: Sequence[Agent] | None = None
) -> GameRecord:
    """Play one game to its end and return its record. A `Passer` seat's passes are applied
    without asking it (the same game: it would have passed)."""
    game = Game(config, seed)
    drafters = drafters or agents
    rngs = [random.Random(derive_seed(seed, "seat", s)) for s in range(len(agents))]
    passers = [a.passes if isinstance(a, Passer) else None for a in agents]
    while not game.is_terminal():
        seat = game.current_player()
        s = game.state
        if s.phase == Phase.DRAFT:
            who = drafters[seat]
        else:
            passes = passers[seat]
            if passes is not None and passes(s):
                game.apply(PASS_ACTION, check=False)
                continue
            who = agents[seat]
        game.apply(who.act(game, game.legal_actions(), rngs[seat]), check=False)
    return game.record()
