"""The look-ahead agent: the heuristic agent that looks ahead on its close calls only
("selective look-ahead on close calls").

At a decision of its own action phase (R6.8) where the heuristic's best `width` actions score
within `margin` of its best (`close_calls`), it decides between them as the search agent's
stage 1 does (`engine.agents.search`): in one world where what the seat cannot see is re-dealt
(`determinize`), each of them is played and then the rest of the seat's turn greedily by the
heuristic (`rest_of_turn`); with `horizon` > 0 each end of turn is played on through the next
`horizon` player turns (the answer to it), every player greedy (the search's `answer`, with
its kept values: an end of turn already answered this turn is not played again). The end
positions are scored by the search's `evaluate`; the best wins, ties keep the heuristic's
order. A later close call of the same turn on the path the last look-ahead chose takes that
path's value for the heuristic's choice (`_Plan`), so it plays only the alternative. Every
other decision (clear calls, draft, upkeep, responses, buys, discards, pending choices) is the
heuristic's, so its cost is the heuristic's plus the look-aheads, which the margin and the
focus bound.

Measured (BENCHMARKS.md "The look-ahead agent"): by default (focused, margin 1, the seat's
turn only) 57% of decided games against the heuristic at about 0.62x its speed; looking at
every close call and through the answer (`focus=0+horizon=1`) 70% at about a tenth of it.
Neither reaches the bars set for it (75% against the heuristic at 15 matches a second).

Parameters (`lookahead:margin=1+width=2+horizon=0+focus=1`): `margin` how close to the
heuristic's best score a candidate must be (default `MARGIN`), `width` the most candidates
compared (default 2), `horizon` the player turns after the seat's played on (default 0: the
seat's turn only), `focus` 1 to look only at close calls that involve a pass, an attack, a
free action or a convert, 0 at all (default 1), `steps` a cap on the actions of one
look-ahead (default 300).
"""

from __future__ import annotations

import random

from engine.actions import Action
from engine.agents.evaluation import evaluate
from engine.agents.heuristic import HeuristicAgent, choose, score_actions
from engine.agents.search import Answers, answer, determinize, rest_of_turn
from engine.game import Game
from engine.state import GameState
from engine.vocab import ActionKind, Phase

_ACTION = Phase.ACTION
_FOCUS = frozenset({ActionKind.PASS, ActionKind.ATTACK, ActionKind.FREE, ActionKind.CONVERT})
"""The kinds of action a focused look-ahead is about: ending the turn, an exchange, a free
action or a convert; see `close_calls`."""

MARGIN = 1.0
"""The default margin in the heuristic's score."""


def close_calls(
    scored: list[tuple[float, Action]], width: int, margin: float, focus: bool = True
) -> list[Action]:
    """The heuristic's best `width` actions that score within `margin` of its best, best
    first (ties keep the engine's order, so the first is the heuristic's own choice). With
    `focus`, only its best if none of them is a pass, an attack, a free action or a convert:
    the close calls between alike actions (which unit to activate first, which field to move
    to, which card to play) are the most frequent and, measured by the look-ahead's own
    values, the least often decided otherwise per unit of time (BENCHMARKS.md)."""
    order = sorted(range(len(scored)), key=lambda i: -scored[i][0])
    best = scored[order[0]][0]
    close = [scored[i][1] for i in order[:width] if scored[i][0] >= best - margin]
    if focus and not any(a.kind in _FOCUS for a in close):
        return close[:1]
    return close


class _Plan:
    """The end of turn the look-ahead expects after its last choice: the actions the greedy
    continuation of that choice played (as the game's action log writes them) and its value.
    A later close call of the same turn, while the game has followed those actions, takes the
    value for the heuristic's choice from here instead of playing it again."""

    __slots__ = ("log", "mark", "state", "turn", "value")

    def __init__(self, state: GameState, log: list[str], value: float) -> None:
        self.state = state
        self.turn = state.turn
        self.mark = len(state.action_log)
        self.log = log
        self.value = value

    def value_of(self, s: GameState, first: Action) -> float | None:
        """The kept value when `s` is this plan's game and turn, the actions since the plan
        are its first ones and `first` is its next; else None."""
        if s is not self.state or s.turn != self.turn:
            return None
        done = s.action_log[self.mark :]
        n = len(done)
        if n >= len(self.log) or self.log[:n] != done or self.log[n] != first.text():
            return None
        return self.value


class LookaheadAgent(HeuristicAgent):
    """The heuristic with a look-ahead on its close calls; see the module docstring."""

    def __init__(
        self,
        margin: float = MARGIN,
        width: int = 2,
        horizon: int = 0,
        focus: bool = True,
        steps: int = 300,
    ) -> None:
        super().__init__(name="lookahead")
        self.margin = max(0.0, margin)
        self.width = max(1, width)
        self.horizon = max(0, horizon)
        self.focus = focus
        self.steps = max(1, steps)
        self.params = {
            "margin": self.margin,
            "width": float(self.width),
            "horizon": float(self.horizon),
            "focus": float(focus),
        }
        self._policy = HeuristicAgent()
        self._turn: tuple[GameState, int, int] | None = None
        self._plan: _Plan | None = None
        self._answers: Answers = {}
        self.looks = 0
        self.rollouts = 0

    @classmethod
    def from_params(cls, params: dict[str, str]) -> LookaheadAgent:
        return cls(
            margin=float(params.get("margin", MARGIN)),
            width=int(params.get("width", 2)),
            horizon=int(params.get("horizon", 0)),
            focus=int(params.get("focus", 1)) != 0,
            steps=int(params.get("steps", 300)),
        )

    def act(self, game: Game, legal: list[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        s = game.state
        if s.phase != _ACTION or s.pending or s.priority:
            return choose(s, legal, rng, self)
        scored = score_actions(s, legal, self.weights)
        close = close_calls(scored, self.width, self.margin, self.focus)
        if len(close) == 1:
            return close[0]
        self.looks += 1
        seat = game.current_player()
        seed = self._world_seed(s, rng)
        world = determinize(game, seat, random.Random(seed))
        plan = self._plan
        kept = plan.value_of(s, close[0]) if plan is not None else None
        best, pick, end = -2.0, 0, None
        for i, a in enumerate(close):
            if i == 0 and kept is not None:
                value, log = kept, None
            else:
                g = rest_of_turn(world, a, self._policy, self.steps)
                self.rollouts += 1
                value, log = self._value(g, seat, seed), g.state.action_log
            if value > best:
                best, pick, end = value, i, log
        if end is not None:
            self._plan = _Plan(s, end[len(s.action_log) :], best)
        return close[pick]

    def _value(self, end: Game, seat: int, seed: int) -> float:
        """The value for `seat` of the end of its turn `end`, played on through the next
        `horizon` player turns (the others' hidden cards re-dealt by `seed`) when asked; an
        answer to an end of turn already answered this turn is taken from there."""
        if not self.horizon:
            return evaluate(end.state, seat)
        stop = end.state.turn + self.horizon
        value, played = answer(end, seat, seed, stop, 0.0, self._policy, self.steps, self._answers)
        self.rollouts += played
        return value

    def _world_seed(self, s: GameState, rng: random.Random) -> int:
        """The seed of this turn's sampled world: drawn from `rng` at the seat's first
        look-ahead of the turn, kept for its later ones (as the search's `_Turn`)."""
        t = self._turn
        if t is None or t[0] is not s or t[1] != s.turn:
            t = self._turn = (s, s.turn, rng.getrandbits(64))
            self._answers = {}
        return t[2]


__all__ = ["MARGIN", "LookaheadAgent", "close_calls"]
