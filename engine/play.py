"""Playing one whole game between agents: the draft with drafters, the match with agents.

Every seat gets its own random generator seeded from (game seed, seat), so a game is the same
whatever process plays it (issue 3: determinism).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import Protocol

from engine.actions import Action
from engine.game import Game
from engine.record import GameRecord
from engine.state import GameConfig
from engine.vocab import Phase


class Agent(Protocol):
    """Whoever takes a seat: picks one of the legal actions. Defined beside the loop that asks
    it, so the game loop stands without the agents package (engine/agents implements it)."""

    name: str

    def act(self, game: Game, legal: list[Action], rng: random.Random) -> Action: ...


def derive_seed(*parts: int | str) -> int:
    """A 63-bit seed from any parts, stable across processes and Python versions."""
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def play_game(
    config: GameConfig, seed: int, agents: Sequence[Agent], drafters: Sequence[Agent] | None = None
) -> GameRecord:
    """Play one game to its end and return its record."""
    game = Game(config, seed)
    drafters = drafters or agents
    rngs = [random.Random(derive_seed(seed, "seat", s)) for s in range(len(agents))]
    while not game.is_terminal():
        seat = game.current_player()
        legal = game.legal_actions()
        who = drafters[seat] if game.state.phase == Phase.DRAFT else agents[seat]
        game.apply(who.act(game, legal, rngs[seat]), check=False)
    return game.record()
