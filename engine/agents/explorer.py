"""The explorer: the heuristic agent with randomised purchases, for design studies.

Cost studies compare seats that bought a card with seats that drafted it and never bought it.
When the purchase is the agent's own judgement of the game state, that comparison is
confounded (a strong card is always bought, so nobody is left to compare with; a player who is
ahead is the one who can afford an expensive card). The explorer plays every decision like the
heuristic agent except the buy phase (R7), where with probability `p` (default 1) it takes a
uniformly random legal buy action, `pass` included, from the rng the game gives it (the same
seed gives the same choices). Which affordable card a seat buys is then a coin flip, not a
judgement, so bought and never-bought seats differ by the purchase (and by what the same
resource bought instead), which is what a cost study wants to measure. The fast and free
actions the buy step offers too (R21.24) are never among the random choices: with `p` 1 the
explorer takes none there (the purchase is the coin's, not one the heuristic gained resource
for); otherwise the heuristic decides.

It drafts with the `numbers` drafter (a card's numbers and synergy): the heuristic drafter
projects the heuristic's purchases, which are not the explorer's, and a cost study needs every
card drafted by what it is worth rather than by one agent's buying habits.

Parameters: `p=F` in [0, 1] (`explorer:p=0.5`); `p=0` is the heuristic agent (but for the
draft).
"""

from __future__ import annotations

import random

from engine.actions import Action
from engine.agents.drafters import NumbersDrafter
from engine.agents.heuristic import HeuristicAgent
from engine.game import Game
from engine.state import GameState
from engine.vocab import ActionKind, Phase

_BUY_OR_PASS = (ActionKind.BUY, ActionKind.PASS)
"""The buy step's own choices (R7): a buy or none."""


class ExplorerAgent:
    """The heuristic agent whose buy decisions are random with probability `p`."""

    name = "explorer"

    def __init__(self, p: float = 1.0) -> None:
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"explorer: p must lie in [0, 1], not {p}")
        self.p = p
        self.params = {"p": p}
        self.heuristic = HeuristicAgent()
        self.drafter = NumbersDrafter()

    def act(self, game: Game, legal: list[Action], rng: random.Random) -> Action:
        s = game.state
        if s.phase == Phase.DRAFT:
            return self.drafter.pick(s, legal)
        if s.phase == Phase.BUY and not s.pending and not s.priority:
            buys = [a for a in legal if a.kind in _BUY_OR_PASS]
            if len(buys) > 1 and (self.p >= 1.0 or rng.random() < self.p):
                return buys[rng.randrange(len(buys))]
            if self.p >= 1.0:
                return buys[0]
        return self.heuristic.act(game, legal, rng)

    def passes(self, state: GameState) -> bool:
        """Whether `act` passes whatever the legal actions (`engine.play.Passer`): the
        heuristic's response windows (its random buys are never in one)."""
        return self.heuristic.passes(state)

    @classmethod
    def from_params(cls, params: dict[str, str]) -> ExplorerAgent:
        """`explorer:p=0.5`; unknown parameters are an error (a typo would silently not
        randomise)."""
        unknown = set(params) - {"p"}
        if unknown:
            raise ValueError(f"explorer takes only p=F, not {', '.join(sorted(unknown))}")
        return cls(float(params.get("p", 1.0)))
