"""The search agent: rollouts over sampled hidden information, the heuristic as rollout policy
and a heuristic evaluation at the leaves; its strength grows with its budget.

At each decision of its own action phase (R6.8: plays, activations, unit actions, fast actions)
it takes the heuristic's best `width` candidate actions (more with a bigger budget), in two
stages:
1. every candidate is applied to a `determinize`d clone (what the seat cannot see re-dealt) and
   the rest of the seat's turn is played by the heuristic, greedily; the position at the end of
   the turn is scored by `evaluation.evaluate` (material, resource, victory progress, the units
   left in the reach of the side that moves next, in [-1, 1]; a finished game is +1/-1/0). Its
   own turn barely depends on hidden information, so one rollout per candidate tells them apart.
2. with budget left (and `horizon` > 0), the candidates within `margin` of the best are played
   on through the next `horizon` player turns after the seat's, by default through its own next
   turn: every other player's answer (on a Tyrant board the Tyrant's turn at the end of the
   round too) and then the seat's next turn, so that what a move prepares (an attack, a walk to
   the staff, an area) is scored after the answer to it. This is how budget buys strength: with
   only the answer seen (1 turn) the 4x-budget search won 21-15, 23-17 and 21-19 of the first 40
   games against budget 4 on kings-crossing, zwei-burgen and drowned-sanctum, through its own
   next turn 29-8, 26-13 and 38-2 (on four-banners the seat's next turn is the fourth; the
   ladder in BENCHMARKS.md has the 4x budget ahead on every board). Successive halving: each
   round gives every remaining candidate the same rollouts, then drops the worse half by the
   mean value. Rollout k of every candidate uses the same determinization and random numbers
   (common random numbers), so candidates are compared on the same sampled worlds. The others
   play with a little randomness (`eps`); the seat's own continuation stays greedy, as noise
   there blurred the comparison (measured: budget 16 with noise in its own moves lost to budget
   4 on zwei-burgen, 3-9; without, it won 8-4).
Stage 2 only breaks stage 1's near-ties: allowed to overrule clear stage-1 preferences (with a
look-ahead through the answer only) it chose passive moves, the answer punishing exposure at
once while the gain of an advance came later, and budget 16 lost to budget 4 on kings-crossing,
0-5 and 2-7 in trials. The best candidate wins; ties keep the heuristic's order. Other decisions
(draft, response windows, upkeep, discards, buys) are the heuristic's.

Speed (issue 16; `benchmarks/bench_search.py`, BENCHMARKS.md "Search speed"): the time goes to
the rollouts' steps, about half to the engine (legal actions, above all an activated unit's
destinations; resolving) and half to the heuristic choosing (above all scoring an activated
unit's moves); cloning, determinizing and evaluating take a few percent. Stage 2 takes about
four fifths: the seat's rest of turn a fifth of it, the others' turns and the seat's next turn
the rest. Two candidates often differ only in order (activate X then Y, or Y then X) and leave
the turn in the same position; a stage-2 rollout that leaves the seat's turn exactly where an
earlier candidate's rollout with the same seed did (`fingerprint`: the whole state that steers
play, with the random states and step counts, see `Transposition`) takes that one's value
instead of playing the rest again. The decisions are the same as without it (tested on whole
games).

Parameters (`search:budget=64+horizon=1`): `budget` rollouts per decision (default 32),
`horizon` the player turns after the seat's looked through in stage 2 (default from budget 16
up: through the seat's own next turn, that is as many turns as there are seats; below 16: 0, no
stage 2), `eps` the others' random share in stage 2 (default 0.1), `width` the candidate count
(default 2 + budget // 2, at most 12), `margin` how close to the best end-of-turn value a
candidate must be for stage 2 (default 0.05), `steps` a cap on the actions of one rollout
(default 300).
"""

from __future__ import annotations

import random
from typing import NamedTuple

from engine.actions import Action
from engine.agents.evaluation import evaluate
from engine.agents.heuristic import HeuristicAgent, choose, score_actions
from engine.game import Game
from engine.state import GameState, Perm, Player
from engine.vocab import Phase

_NOT_PLAY = frozenset({"events", "picks", "snapshots", "action_log", "reach_cache", "steps"})
"""GameState attributes that do not steer play: the records (written, never read, while a
game runs), a cache of derived data, and the game guard's step count (R21.18; `Transposition`
checks it apart, as two paths to one position may take different numbers of steps)."""

_PLAYER_PLAY = (
    "deck",
    "hand",
    "discard",
    "store",
    "resource",
    "points",
    "bought",
    "equip_next",
    "team",
)
"""The Player attributes that steer play; the others are the snapshot table's economy
counters, written and never read while a game runs."""


def fingerprint(s: GameState) -> tuple[object, ...]:
    """Everything in `s` that steers the rest of the game, as comparable data: two states with
    equal fingerprints play on identically under the same decisions and random numbers (dict
    and list orders included, since the engine and the agents iterate them), as long as
    neither reaches the game guard."""
    return tuple((name, _frozen(value)) for name, value in vars(s).items() if name not in _NOT_PLAY)


def _frozen(v: object) -> object:
    t = type(v)
    if t is list:
        seq: list[object] = v  # type: ignore[assignment]
        if seq and type(seq[0]) in (list, Perm, Player):
            return tuple(_frozen(x) for x in seq)
        return tuple(seq)
    if t is dict:
        d: dict[object, object] = v  # type: ignore[assignment]
        return tuple((k, _frozen(x)) for k, x in d.items())
    if t is Perm:
        return tuple(_frozen(getattr(v, n)) for n in Perm.__slots__)
    if t is Player:
        return tuple(_frozen(getattr(v, n)) for n in _PLAYER_PLAY)
    if t is random.Random:
        return v.getstate()  # type: ignore[attr-defined]
    return v


class Transposition(NamedTuple):
    """Where a stage-2 rollout left the seat's turn (`key`: the state's fingerprint and the
    rollout's random state; `steps`, `game_steps`: the rollout's and the game's step counts
    then) and what followed (`used`, `game_used`: the steps the rest took; `capped`: it
    stopped at the rollout's step cap; `value`: its result)."""

    key: tuple[object, ...]
    steps: int
    game_steps: int
    used: int
    game_used: int
    capped: bool
    value: float

    def value_for(
        self, key: tuple[object, ...], steps: int, game_steps: int, cap: int, guard: int
    ) -> float | None:
        """The value of a rollout at the same point, when the rest would be played the same:
        the same key, and neither step cap nor game guard (R21.18) stops it where they did
        not stop this one (with the same count, a cap that stopped this one stops it too)."""
        if key != self.key or game_steps + self.game_used > guard:
            return None
        if steps == self.steps or (not self.capped and steps + self.used <= cap):
            return self.value
        return None


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
        p.hand = pool[i : i + nh]
        i += nh
        p.deck = pool[i : i + nd]
        i += nd
    if 0 <= seat < len(s.players):
        rng.shuffle(s.players[seat].deck)
    rng.shuffle(s.tyrant_deck)
    s.rng = random.Random(rng.getrandbits(64))
    return g


class SearchAgent:
    name = "search"

    def __init__(
        self,
        budget: int = 32,
        horizon: int | None = None,
        eps: float = 0.1,
        width: int | None = None,
        steps: int = 300,
        margin: float = 0.05,
    ) -> None:
        self.budget = max(1, budget)
        # None: through the seat's own next turn (resolved per game: as many turns as seats)
        self.horizon = (
            max(0, horizon) if horizon is not None else (None if self.budget >= 16 else 0)
        )
        self.eps = eps
        self.width = width if width is not None else min(12, 2 + self.budget // 2)
        self.steps = steps
        self.margin = max(0.0, margin)
        self.params = {
            "budget": self.budget,
            "horizon": "own turn" if self.horizon is None else self.horizon,
            "eps": eps,
            "width": self.width,
            "margin": margin,
        }
        self._policy = HeuristicAgent()
        self.rollouts = 0

    @classmethod
    def from_params(cls, params: dict[str, str]) -> SearchAgent:
        return cls(
            budget=int(params.get("budget", 32)),
            horizon=int(params["horizon"]) if "horizon" in params else None,
            eps=float(params.get("eps", 0.1)),
            width=int(params["width"]) if "width" in params else None,
            steps=int(params.get("steps", 300)),
            margin=float(params.get("margin", 0.05)),
        )

    def act(self, game: Game, legal: list[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        s = game.state
        if s.phase != Phase.ACTION or s.pending or s.priority:
            return choose(s, legal, rng, self._policy)
        scored = score_actions(s, legal)
        order = sorted(range(len(scored)), key=lambda i: -scored[i][0])
        cands = [scored[i][1] for i in order[: self.width]]
        if len(cands) == 1:
            return cands[0]
        seat = game.current_player()
        # stage 1: every candidate, the rest of the turn played greedily (no randomness: the
        # seat's own turn barely depends on what it cannot see)
        seed0 = rng.getrandbits(64)
        first = [self._rollout(game, seat, a, seed0, 0, 0.0) for a in cands]
        ranked = sorted(range(len(cands)), key=lambda i: (-first[i], i))
        left = self.budget - len(cands)
        horizon = self.turns_ahead(s)
        if horizon == 0 or left < 4:
            return cands[ranked[0]]
        # stage 2: the best few through the others' answers and the seat's next turn, by
        # successive halving; rollout k of every candidate uses the same determinization
        # (common random numbers)
        best = first[ranked[0]]
        alive = [i for i in ranked if first[i] >= best - self.margin][: max(2, left // 4)]
        if len(alive) == 1:
            return cands[alive[0]]
        seeds = [rng.getrandbits(64) for _ in range(left)]
        # per rollout index: the states where earlier candidates' rollouts left the seat's
        # turn, with their values (two candidates that differ only in order often get there)
        memos: dict[int, list[Transposition]] = {}
        totals = [0.0] * len(cands)
        levels = (len(alive) - 1).bit_length()
        done = 0
        while len(alive) > 1:
            n = max(1, left // (levels * len(alive)))
            for i in alive:
                for k in range(done, done + n):
                    totals[i] += self._rollout(
                        game,
                        seat,
                        cands[i],
                        seeds[k % len(seeds)],
                        horizon,
                        self.eps,
                        memos.setdefault(k, []),
                    )
            done += n
            alive.sort(key=lambda i: (-totals[i], ranked.index(i)))
            alive = alive[: (len(alive) + 1) // 2]
        return cands[alive[0]]

    def turns_ahead(self, s: GameState) -> int:
        """Stage 2's look-ahead in player turns; by default through the seat's own next turn."""
        return len(s.players) if self.horizon is None else self.horizon

    def _rollout(
        self,
        game: Game,
        seat: int,
        first: Action,
        seed: int,
        horizon: int,
        eps: float,
        memo: list[Transposition] | None = None,
    ) -> float:
        """The value for `seat` of playing `first` and then the rollout policy. With `memo`
        (the rollouts of other candidates with the same seed), a rollout that leaves the
        seat's turn where one of them left it (the same state, random state and step counts,
        see `Transposition`) has that one's value: the rest would be played identically."""
        self.rollouts += 1
        rng = random.Random(seed)
        g = determinize(game, seat, rng)
        s: GameState = g.state
        # horizon 0: to the end of this turn; h: through the next h player turns after it (a
        # Tyrant's turn at the end of a round falls between two of them). Counted from before
        # `first`: a candidate that ends the turn at once is scored at the same point as the
        # others.
        start = s.turn
        stop = start + 1 + horizon
        g.apply(first, check=False)
        steps = 0
        here: tuple[tuple[object, ...], int, int] | None = None
        while s.winners is None and steps < self.steps and s.turn < stop:
            if memo is not None and here is None and s.turn > start:
                here = ((fingerprint(s), rng.getstate()), steps, s.steps)
                for seen in memo:
                    value = seen.value_for(*here, self.steps, s.config.game_guard)
                    if value is not None:
                        return value
            legal = g.legal_actions()
            if not legal:
                break
            # only the others play with randomness: the seat's own continuation stays its
            # greedy plan, so noise does not blur the comparison of its candidates
            if eps and g.current_player() != seat and rng.random() < eps:
                a = legal[rng.randrange(len(legal))]
            else:
                a = choose(s, legal, rng, self._policy)
            g.apply(a, check=False)
            steps += 1
        value = evaluate(s, seat)
        if here is not None and memo is not None:
            capped = steps >= self.steps and s.winners is None and s.turn < stop
            memo.append(
                Transposition(
                    here[0], here[1], here[2], steps - here[1], s.steps - here[2], capped, value
                )
            )
        return value


__all__ = ["SearchAgent", "Transposition", "determinize", "fingerprint"]
