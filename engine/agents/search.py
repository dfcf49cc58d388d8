"""The search agent: rollouts over sampled hidden information, the heuristic as rollout policy
and a heuristic evaluation at the leaves; its strength grows with its budget.

At each decision of its own action phase (R6.8: plays, activations, unit actions, fast actions)
it takes the heuristic's best `width` candidate actions (more with a bigger budget) and shares
`budget` rollouts among them by successive halving: every round gives each remaining candidate
the same number of rollouts, then drops the worse half, so the budget goes to the close calls.
Rollout k of every candidate uses the same determinization and the same random numbers (common
random numbers): candidates are compared on the same sampled worlds, which removes most of the
noise of the comparison. A rollout: `determinize` a clone (re-deal what the seat cannot see),
apply the candidate, let the heuristic (with a little randomness, `eps`) play on to the end of
the seat's turn plus `horizon` further turns, then score the position with
`heuristic.evaluate` (material, resource, victory progress, in [-1, 1]; a finished game is
+1/-1/0). The best mean wins; ties keep the heuristic's order. Other decisions (draft, response
windows, upkeep, discards, buys) are the heuristic's.

Parameters (`search:budget=64+horizon=1`): `budget` rollouts per decision (default 32),
`horizon` extra turns after the current one (default: 1 from budget 16 up, so that a bigger
budget also sees the opponents' answer, else 0), `eps` the rollout policy's random share
(default 0.1), `width` the candidate count (default 2 + budget // 4, at most 10), `steps` a cap
on the actions of one rollout (default 300).
"""

from __future__ import annotations

import random

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

    def __init__(self, budget: int = 32, horizon: int | None = None, eps: float = 0.1,
                 width: int | None = None, steps: int = 300) -> None:
        self.budget = max(1, budget)
        self.horizon = max(0, horizon) if horizon is not None else int(self.budget >= 16)
        self.eps = eps
        self.width = width if width is not None else min(10, 2 + self.budget // 4)
        self.steps = steps
        self.params = {"budget": self.budget, "horizon": self.horizon, "eps": eps,
                       "width": self.width}
        self._policy = HeuristicAgent()
        self.rollouts = 0

    @classmethod
    def from_params(cls, params: dict[str, str]) -> SearchAgent:
        return cls(budget=int(params.get("budget", 32)),
                   horizon=int(params["horizon"]) if "horizon" in params else None,
                   eps=float(params.get("eps", 0.1)),
                   width=int(params["width"]) if "width" in params else None,
                   steps=int(params.get("steps", 300)))

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
        # one seed per rollout index, shared by all candidates (common random numbers)
        seeds = [rng.getrandbits(64) for _ in range(self.budget)]
        totals = [0.0] * len(cands)
        alive = list(range(len(cands)))
        levels = (len(cands) - 1).bit_length()
        done = 0
        while len(alive) > 1:
            n = max(1, self.budget // (levels * len(alive)))
            for i in alive:
                for k in range(done, done + n):
                    totals[i] += self._rollout(game, seat, cands[i], seeds[k % len(seeds)])
            done += n
            # all alive candidates share the same rollouts: rank by total, then heuristic order
            alive.sort(key=lambda i: (-totals[i], i))
            alive = alive[:(len(alive) + 1) // 2]
        return cands[alive[0]]

    def _rollout(self, game: Game, seat: int, first: Action, seed: int) -> float:
        self.rollouts += 1
        rng = random.Random(seed)
        g = determinize(game, seat, rng)
        s: GameState = g.state
        g.apply(first, check=False)
        end_turn = s.turn + self.horizon
        steps = 0
        while s.winners is None and steps < self.steps and s.turn <= end_turn:
            legal = g.legal_actions()
            if not legal:
                break
            if self.eps and rng.random() < self.eps:
                a = legal[rng.randrange(len(legal))]
            else:
                a = choose(s, legal, rng, self._policy)
            g.apply(a, check=False)
            steps += 1
        return evaluate(s, seat)


__all__ = ["SearchAgent", "determinize"]
