"""The random agent: a uniformly random legal action (tests, baselines)."""

from __future__ import annotations

import random

from engine.actions import Action
from engine.game import Game


class RandomAgent:
    name = "random"

    def act(self, game: Game, legal: list[Action], rng: random.Random) -> Action:
        return legal[rng.randrange(len(legal))]
