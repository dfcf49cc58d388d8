"""The search agent: rollouts over sampled hidden information, the heuristic as rollout policy
and a heuristic evaluation at the leaves; its strength grows with its budget.

At each decision of its own action phase (R6.8: plays, activations, unit actions, fast actions)
it takes the heuristic's best `K` candidate actions (K grows with the budget) and gives each
`budget // K` rollouts. A rollout: `determinize` a clone (re-deal what the seat cannot see),
apply the candidate, let the heuristic (with a little randomness, `eps`) play on to the end of
the seat's turn plus `horizon` further turns, then score the position with
`heuristic.evaluate` (material, resource, victory progress, in [-1, 1]; a finished game is
+1/-1/0). The candidate with the best mean wins; ties keep the heuristic's order. Other
decisions (draft, response windows, upkeep, discards, buys) are the heuristic's.

Parameters (`search:budget=64+horizon=1`): `budget` rollouts per decision (default 32),
`horizon` extra turns after the current one (default 0), `eps` the rollout policy's random
share (default 0.1), `width` the candidate count (default: 2 + budget // 8, at most 12),
`steps` a cap on the actions of one rollout (default 200).
"""

from __future__ import annotations

import random

from engine import actions as A
from engine.actions import Action
from engine.agents.heuristic import HeuristicAgent, choose, evaluate, score_actions
from engine.game import Game
from engine.state import GameState


def determinize(game: Game, seat: int, rng: random.Random) -> Game:
    """A clone in which everything `seat` cannot see is re-dealt at random: the other players'
    hands and decks as one pool (sizes kept), the seat's own deck order, the Tyrant's deck order
    and the game's future shuffles. Only the hidden parts change; the public state and the
    seat's own hand stay as they are."""
    g = game.clone()
    s = g.state
    others = [p for x, p in enumerate(s.players) if x != seat]
    pool: list[int] = []
    for p in others:
        pool.extend(p.hand)
        pool.extend(p.deck)
    rng.shuffle(pool)
    i = 0
    for p in others:
        nh, nd = len(p.hand), len(p.deck)
        p.hand = pool[i:i + nh]
        i += nh
        p.deck = pool[i:i + nd]
        i += nd
    if 0 <= seat < len(s.players):
        rng.shuffle(s.players[seat].deck)
    rng.shuffle(s.tyrant_deck)
    s.rng = random.Random(rng.getrandbits(64))
    return g


class SearchAgent:
    name = "search"

    def __init__(self, budget: int = 32, horizon: int = 0, eps: float = 0.1,
                 width: int | None = None, steps: int = 200) -> None:
        self.budget = max(1, budget)
        self.horizon = max(0, horizon)
        self.eps = eps
        self.width = width if width is not None else min(12, 2 + self.budget // 8)
        self.steps = steps
        self.params = {"budget": self.budget, "horizon": self.horizon, "eps": eps,
                       "width": self.width}
        self._policy = HeuristicAgent()
        self.rollouts = 0

    @classmethod
    def from_params(cls, params: dict[str, str]) -> SearchAgent:
        return cls(budget=int(params.get("budget", 32)), horizon=int(params.get("horizon", 0)),
                   eps=float(params.get("eps", 0.1)),
                   width=int(params["width"]) if "width" in params else None,
                   steps=int(params.get("steps", 200)))

    def act(self, game: Game, legal: list[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        s = game.state
        if s.phase != "main" or s.pending or s.priority:
            return choose(s, legal, rng, self._policy)
        scored = score_actions(s, legal)
        order = sorted(range(len(scored)), key=lambda i: -scored[i][0])
        cands = [scored[i][1] for i in order[:self.width]]
        if len(cands) == 1:
            return cands[0]
        seat = game.current_player()
        per = max(1, self.budget // len(cands))
        best, best_val = cands[0], -9.0
        for rank, a in enumerate(cands):
            total = 0.0
            for r in range(per):
                total += self._rollout(game, seat, a, rng, eps=0.0 if r == 0 else self.eps)
            val = total / per - 1e-4 * rank
            if val > best_val:
                best, best_val = a, val
        return best

    def _rollout(self, game: Game, seat: int, first: Action, rng: random.Random,
                 eps: float) -> float:
        self.rollouts += 1
        g = determinize(game, seat, rng)
        s: GameState = g.state
        g.apply(first, check=False)
        turn0 = s.turn
        end_turn = turn0 + self.horizon
        steps = 0
        while s.winners is None and steps < self.steps:
            if s.turn > end_turn:
                break
            legal = g.legal_actions()
            if not legal:
                break
            if eps and rng.random() < eps:
                a = legal[rng.randrange(len(legal))]
            else:
                a = choose(s, legal, rng, self._policy)
            g.apply(a, check=False)
            steps += 1
        return evaluate(s, seat)


__all__ = ["SearchAgent", "determinize", "A"]
