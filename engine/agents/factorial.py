"""The factorial buyer: the heuristic agent whose purchases (R7) follow a randomised design.

A card's verdict is a claim about the game, so it must rest on a comparison the agents did not
choose (DESIGN.md, "Verdicts"). In every game, for every seat, each distinct card name in the
seat's store (R8.3) is assigned at random to one of two arms: **forced** (bought) or **banned**
(never bought). The forced names are bought in a random order: at a buy step the seat buys the
first forced name of its order that still has a copy in the store and that it can pay for
(copies go round: a name's second copy comes after every other forced name's first). When the
first of them is dearer than the seat's resource, the seat saves for it, passing up to WAIT buy
steps; after that it buys the next affordable forced name instead, and the first stays first,
bought as soon as the resource allows. Buying whatever forced card is affordable would starve
the dear ones (a seat spending every turn on a 2-cost card never holds 6, and dear cards were
bought by 3-5% of the seats forced to buy them in 600 games of the default setup); saving
without limit makes one unaffordable card stop a seat's buying for the rest of the game (half
the forced names went unbought). With WAIT, a dear card shows its cost, the turns waited for it
included, without halting the seat.
Everything else (the draft, upkeep, actions, discards) is the heuristic's.

One run then compares, for every card at once, the seats that had to buy it with the seats that
could not, among the seats whose store holds it: a randomised factorial experiment
(docs/design-studies.md, "Causal card effects"). The arm and the order are pure functions of
(game seed, seat, card name) (`forced`, `rank`), so the workbench records the arms beside the
game (the `assignments` table) without asking the agent, and the same seed gives the same arms
in any process. Parameters: `p=F` in [0, 1] (`factorial:p=0.25`, the default), the chance that
a card is forced. A seat of the default setup drafts about 27 names and can pay for about 7
purchases a game (the heuristic's 6.4 in 300 games); at p = 1/2 only 53% of the forced seats
bought their card, which halves every effect, while at 1/4 most forced names are bought.
"""

from __future__ import annotations

import random

from engine.actions import Action
from engine.agents.heuristic import HeuristicAgent
from engine.game import Game
from engine.play import derive_seed
from engine.state import GameState
from engine.vocab import ActionKind, Phase

SCALE = 2**63
"""derive_seed's range: a seed below p * SCALE is forced."""
WAIT = 3
"""Buy steps a seat saves for the first forced name of its order before it buys others."""


def forced(seed: int, seat: int, card: str, p: float = 0.25) -> bool:
    """Whether `card` is forced (else banned) for `seat` in the game of `seed`: a coin of
    weight `p` drawn from the three alone."""
    return derive_seed(seed, "arm", seat, card) < p * SCALE


def rank(seed: int, seat: int, card: str) -> int:
    """The card's place in the seat's random buying order (lowest first)."""
    return derive_seed(seed, "order", seat, card)


class FactorialAgent:
    """The heuristic agent buying by the randomised design (the module says how)."""

    name = "factorial"

    def __init__(self, p: float = 0.25) -> None:
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"factorial: p must lie in [0, 1], not {p}")
        self.p = p
        self.params = {"p": p}
        self.heuristic = HeuristicAgent()
        self._plans: dict[tuple[int, int], dict[str, tuple[int, int]]] = {}
        self._waits: dict[tuple[int, int], tuple[str, int]] = {}

    def plan(self, s: GameState, seat: int) -> dict[str, tuple[int, int]]:
        """The seat's forced names with (copies drafted, rank), from its picks (R2.2), kept per
        game and seat (every buy step of the game asks the same)."""
        key = (s.seed, seat)
        hit = self._plans.get(key)
        if hit is None:
            if len(self._plans) >= 64:
                self._plans.clear()
                self._waits.clear()
            drafted: dict[str, int] = {}
            for player, card in zip(s.picks.data["player"], s.picks.data["card"], strict=True):
                if player == seat:
                    drafted[str(card)] = drafted.get(str(card), 0) + 1
            hit = self._plans[key] = {
                c: (n, rank(s.seed, seat, c))
                for c, n in drafted.items()
                if forced(s.seed, seat, c, self.p)
            }
        return hit

    def act(self, game: Game, legal: list[Action], rng: random.Random) -> Action:
        s = game.state
        if s.phase != Phase.BUY or s.pending or s.priority:
            return self.heuristic.act(game, legal, rng)
        # R7.1, R7.2: one card a turn from the store; the design says which, and when
        seat = s.active
        plan = self.plan(s, seat)
        left: dict[str, int] = {}
        for c in s.players[seat].store:
            name = s.cards[c].name
            if name in plan:
                left[name] = left.get(name, 0) + 1
        order = sorted(left, key=lambda n: (plan[n][0] - left[n], plan[n][1]))
        buys = {s.cards[a.card].name: a for a in legal if a.kind == ActionKind.BUY}
        if order and order[0] not in buys:
            key = (s.seed, seat)
            name, waited = self._waits.get(key, ("", 0))
            waited = waited + 1 if name == order[0] else 1
            self._waits[key] = (order[0], waited)
            if waited <= WAIT:
                order = []  # save for it
        for name in order:
            if name in buys:
                return buys[name]
        return next(a for a in legal if a.kind != ActionKind.BUY)

    def passes(self, state: GameState) -> bool:
        """Whether `act` passes whatever the legal actions (`engine.play.Passer`): the
        heuristic's response windows (a buy step is never one)."""
        return self.heuristic.passes(state)

    @classmethod
    def from_params(cls, params: dict[str, str]) -> FactorialAgent:
        """`factorial:p=0.25`; unknown parameters are an error."""
        unknown = set(params) - {"p"}
        if unknown:
            raise ValueError(f"factorial takes only p=F, not {', '.join(sorted(unknown))}")
        return cls(float(params.get("p", 0.25)))
