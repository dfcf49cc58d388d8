"""The search agent: rollouts over sampled hidden information, the heuristic as rollout policy
and a heuristic evaluation at the leaves; its strength grows with its budget.

At each decision of its own action phase (R6.8: plays, activations, unit actions, fast actions)
it takes the heuristic's best `width` candidate actions (more with a bigger budget), in two
stages:
1. every candidate is applied to a clone of one `determinize`d world (what the seat cannot see
   re-dealt) and the rest of the seat's turn is played by the heuristic, greedily; the position
   at the end of the turn is scored by `evaluation.evaluate` (material, resource, victory
   progress, the units left in the reach of the side that moves next, in [-1, 1]; a finished
   game is +1/-1/0). Its own turn barely depends on hidden information, so one rollout per
   candidate tells them apart.
2. with budget left (and `horizon` > 0), the candidates within `margin` of the best are played
   on from where stage 1 left the turn through the next `horizon` player turns after the
   seat's, by default through its own next turn: every other player's answer (on a Tyrant
   board the Tyrant's turn at the end of the round too) and then the seat's next turn, so that
   what a move prepares (an attack, a walk to the staff, an area) is scored after the answer to
   it. Each of these rollouts first re-deals what the seat cannot see (by its seed). This is
   how budget buys strength: with only the answer seen (1 turn) the 4x-budget search won 21-15,
   23-17 and 21-19 of the first 40 games against budget 4 on kings-crossing, zwei-burgen and
   drowned-sanctum, through its own next turn 29-8, 26-13 and 38-2 (on four-banners the seat's
   next turn is the fourth; the ladder in BENCHMARKS.md has the 4x budget ahead on every
   board). Successive halving: each round gives every remaining candidate the same seeds
   (common random numbers, so candidates are compared on the same sampled worlds), then drops
   the worse half by the total; two candidates are compared seed by seed, and a comparison
   that two seeds settle (`_clear`) takes no more. The others play with a little randomness
   (`eps`); the seat's own continuation stays greedy, as noise there blurred the comparison
   (measured: budget 16 with noise in its own moves lost to budget 4 on zwei-burgen, 3-9;
   without, it won 8-4).
Stage 2 only breaks stage 1's near-ties: allowed to overrule clear stage-1 preferences (with a
look-ahead through the answer only) it chose passive moves, the answer punishing exposure at
once while the gain of an advance came later, and budget 16 lost to budget 4 on kings-crossing,
0-5 and 2-7 in trials. The best candidate wins; ties keep the heuristic's order. Other decisions
(draft, response windows, upkeep, discards, buys) are the rollout policy's: the heuristic, or
with `policy=valued` the valued agent (`engine.agents.valued`), whose buy steps (R7) and draft
(R3) follow learned card values; the rollouts then buy as it does too, while the candidates
stay the heuristic's best (the valued agent plays the action phase as the heuristic does).

Speed (`benchmarks/bench_search.py`, BENCHMARKS.md "Search speed"): the time goes to
the rollouts' steps, about half to the engine (legal actions, above all an activated unit's
destinations; resolving) and half to the heuristic choosing (above all scoring an activated
unit's moves). So the search plays fewer of them: stage 2 starts from stage 1's end of turn
instead of replaying the seat's turn, and a seat's searches within one turn share their random
numbers (`_Turn`: stage 1's world, stage 2's seeds) and stage 2's values (`Answers`): a
rollout from a re-dealt position that an earlier rollout of the turn started from (the same
`fingerprint`, game steps and seed: it would be played identically) takes that one's value.
Two candidates that differ only in order (activate X then Y, or Y then X) end the turn in the
same position, and the next decision's candidates reach the positions the last one's reached,
so about three in five stage-2 rollouts are taken from there. Each decision is searched as
before in distribution (its world and seeds are as random), not sample for sample.

Parameters (`search:budget=64+horizon=1`): `budget` rollouts per decision (default 32),
`horizon` the player turns after the seat's looked through in stage 2 (default from budget 16
up: through the seat's own next turn, that is as many turns as there are seats; below 16: 0, no
stage 2), `eps` the others' random share in stage 2 (default 0.1), `width` the candidate count
(default 2 + budget // 2, at most 8: budget 16 chose the heuristic's 9th or 10th best in 2 of
718 decisions), `margin` how close to the best end-of-turn value a candidate must be for stage
2 (default 0.05), `steps` a cap on the actions of one rollout (default 300), `policy` the
rollout policy that also takes the decisions outside the action phase (`heuristic`, the
default, or `valued`).
"""

from __future__ import annotations

import random
from operator import attrgetter

from mypy_extensions import mypyc_attr

from engine.actions import PASS_ACTION, Action
from engine.agents.evaluation import evaluate
from engine.agents.heuristic import HeuristicAgent, passes, score_actions
from engine.copying import CLONE_RULES, PERM_FIELDS
from engine.game import Game
from engine.state import GameState, Perm, Player
from engine.vocab import Phase

_NOT_PLAY = frozenset(
    {"events", "picks", "snapshots", "action_log", "reach_cache", "fast_cache", "changes", "steps"}
)
"""GameState attributes that do not steer play: the records (written, never read, while a
game runs), caches of derived data with the count of changes that keys one, and the game
guard's step count (R21.18; `Transposition`
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
    return tuple(
        [(name, _frozen(value)) for name, value in zip(_PLAY, _PLAY_PARTS(s), strict=True)]
    )


_PLAIN = frozenset({int, bool, str, float, type(None)})
"""Types `_frozen` returns as they are (checked first: most values are)."""

_PLAY = tuple(name for name in CLONE_RULES if name not in _NOT_PLAY)
"""The GameState fields that steer play, in the order of its fields (`CLONE_RULES`)."""
_PLAY_PARTS = attrgetter(*_PLAY)
_PERM_PARTS = attrgetter(*PERM_FIELDS)
_PLAYER_PARTS = attrgetter(*_PLAYER_PLAY)


def _frozen(v: object) -> object:
    t = type(v)
    if t is list:
        seq: list[object] = v  # type: ignore[assignment]
        if seq and type(seq[0]) in (list, Perm, Player):
            return tuple([_frozen(x) for x in seq])
        return tuple(seq)
    if t is dict:
        d: dict[object, object] = v  # type: ignore[assignment]
        return tuple([(k, x if type(x) in _PLAIN else _frozen(x)) for k, x in d.items()])
    if t is Perm:
        return tuple([x if type(x) in _PLAIN else _frozen(x) for x in _PERM_PARTS(v)])
    if t is Player:
        return tuple([x if type(x) in _PLAIN else _frozen(x) for x in _PLAYER_PARTS(v)])
    if t is random.Random:
        return v.getstate()  # type: ignore[attr-defined]
    return v


def determinize(game: Game, seat: int, rng: random.Random) -> Game:
    """A clone in which everything `seat` cannot see is re-dealt at random: the other players'
    hands and decks as one pool (sizes kept), the seat's own deck order, the Tyrant's deck order
    and the game's future shuffles. Only the hidden parts change; the public state and the
    seat's own hand stay as they are. Each hidden part is sorted before it is shuffled, so the
    deal depends on which cards are hidden where, not on their order before: two states that
    differ only in what the seat cannot see get the same deal from the same `rng`."""
    g = game.clone()
    s = g.state
    others = [p for x, p in enumerate(s.players) if x != seat]
    pool = sorted(c for p in others for part in (p.hand, p.deck) for c in part)
    rng.shuffle(pool)
    i = 0
    for p in others:
        nh, nd = len(p.hand), len(p.deck)
        p.hand = pool[i : i + nh]
        i += nh
        p.deck = pool[i : i + nd]
        i += nd
    if 0 <= seat < len(s.players):
        deck = s.players[seat].deck
        deck.sort()
        rng.shuffle(deck)
    s.tyrant_deck.sort()
    rng.shuffle(s.tyrant_deck)
    s.rng = random.Random(rng.getrandbits(64))
    return g


_GREEDY = random.Random(0)
"""The heuristic's random numbers in stage 1: its choices in the action phase use none."""


def rest_of_turn(world: Game, first: Action, policy: HeuristicAgent, steps: int = 300) -> Game:
    """A clone of `world` with `first` played and then the rest of the turn, greedily, by
    `policy` (the search's stage 1): where the turn ends, or the game, or the `steps` cap."""
    g = world.clone()
    s = g.state
    start = s.turn
    g.apply(first, check=False)
    n = 0
    while s.winners is None and n < steps and s.turn == start:
        if passes(s):
            g.apply(PASS_ACTION, check=False)
            n += 1
            continue
        legal = g.legal_actions()
        if not legal:
            break
        g.apply(policy.act(g, legal, _GREEDY), check=False)
        n += 1
    return g


def play_on(
    g: Game,
    seat: int,
    rng: random.Random,
    stop: int,
    eps: float,
    policy: HeuristicAgent,
    steps: int = 300,
) -> None:
    """Play `g` on in place up to player turn `stop` (or the game's end, or the `steps` cap)
    with `policy`; the others take a random action with probability `eps`, `seat` stays
    greedy, so noise does not blur the comparison of its candidates."""
    s = g.state
    n = 0
    while s.winners is None and n < steps and s.turn < stop:
        legal = None if passes(s) else g.legal_actions()  # a window's list only on demand
        if legal == []:
            break
        if eps and g.current_player() != seat and rng.random() < eps:
            options = g.legal_actions() if legal is None else legal
            a = options[rng.randrange(len(options))]
        else:
            a = PASS_ACTION if legal is None else policy.act(g, legal, rng)
        g.apply(a, check=False)
        n += 1


Answers = dict[tuple[object, ...], list[tuple[tuple[object, ...], float]]]
"""Stage 2's values within one turn: per cheap key (seed, stop, seat and a few counts) the
fingerprints of the re-dealt positions a rollout started from, with its value."""


def _clear(diffs: list[float]) -> bool:
    """Paired differences that settle a comparison: a non-zero total that none of them
    contradicts (ties allowed)."""
    total = sum(diffs)
    return total != 0 and all(d * total >= 0 for d in diffs)


class _Turn:
    """What a seat's searches share within one of its turns: the random numbers (one world for
    stage 1, one seed per stage-2 rollout) and stage 2's values (`Answers`). Each decision of
    the turn is searched as if alone (its own world and seeds would be as random), but on the
    same sampled worlds, so a position an earlier decision's rollouts reached costs nothing."""

    __slots__ = ("answers", "seeds", "state", "turn", "world")

    def __init__(self, state: GameState, rng: random.Random, seeds: int) -> None:
        self.state = state
        self.turn = state.turn
        self.world = rng.getrandbits(64)
        self.seeds = [rng.getrandbits(64) for _ in range(seeds)]
        self.answers: Answers = {}


@mypyc_attr(allow_interpreted_subclasses=True)  # a designer's agent may build on it
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
        policy: HeuristicAgent | None = None,
    ) -> None:
        self.budget = max(1, budget)
        # None: through the seat's own next turn (resolved per game: as many turns as seats)
        self.horizon = (
            max(0, horizon) if horizon is not None else (None if self.budget >= 16 else 0)
        )
        self.eps = eps
        self.width = width if width is not None else min(8, 2 + self.budget // 2)
        self.steps = steps
        self.margin = max(0.0, margin)
        self.params = {
            "budget": self.budget,
            "horizon": "own turn" if self.horizon is None else self.horizon,
            "eps": eps,
            "width": self.width,
            "margin": margin,
        }
        self._policy = policy if policy is not None else HeuristicAgent()
        if policy is not None:
            self.params["policy"] = policy.name
        self._turn: _Turn | None = None
        self.rollouts = 0

    @classmethod
    def from_params(
        cls, params: dict[str, str], policy: HeuristicAgent | None = None
    ) -> SearchAgent:
        """The agent of a spec's parameters (`policy`: the agent `policy=NAME` names, built
        by the registry, which knows the names)."""
        return cls(
            budget=int(params.get("budget", 32)),
            horizon=int(params["horizon"]) if "horizon" in params else None,
            eps=float(params.get("eps", 0.1)),
            width=int(params["width"]) if "width" in params else None,
            steps=int(params.get("steps", 300)),
            margin=float(params.get("margin", 0.05)),
            policy=policy,
        )

    def passes(self, state: GameState) -> bool:
        """Whether `act` passes whatever the legal actions (`engine.play.Passer`): the
        heuristic's response windows."""
        return passes(state)

    def act(self, game: Game, legal: list[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        s = game.state
        if s.phase != Phase.ACTION or s.pending or s.priority:
            return self._policy.act(game, legal, rng)
        cands = self.candidates(s, legal)
        if len(cands) == 1:
            return cands[0]
        seat = game.current_player()
        turn = self._turn_of(s, rng)
        # stage 1: every candidate, the rest of the turn played greedily in one sampled world
        # (no randomness: the seat's own turn barely depends on what it cannot see)
        world = determinize(game, seat, random.Random(turn.world))
        ends = [self._own_turn(world, seat, a) for a in cands]
        first = [evaluate(g.state, seat) for g in ends]
        ranked = sorted(range(len(cands)), key=lambda i: (-first[i], i))
        left = self.budget - len(cands)
        horizon = self.turns_ahead(s)
        if horizon == 0 or left < 4:
            return cands[ranked[0]]
        # stage 2: the best few on from where stage 1 left the turn, through the others'
        # answers and the seat's next turn, by successive halving; rollout k of every
        # candidate uses the same seed (common random numbers)
        best = first[ranked[0]]
        alive = [i for i in ranked if first[i] >= best - self.margin][: max(2, left // 4)]
        if len(alive) == 1:
            return cands[alive[0]]
        stop = s.turn + 1 + horizon
        seeds = turn.seeds[:left]
        return cands[self._halve(alive, ranked, ends, seat, stop, seeds, turn.answers)]

    def _halve(
        self,
        alive: list[int],
        ranked: list[int],
        ends: list[Game],
        seat: int,
        stop: int,
        seeds: list[int],
        answers: Answers,
    ) -> int:
        """Stage 2's successive halving over the candidates `alive` (indices into `ends`,
        stage 1's ends of turn): each round gives every one the same seeds, then keeps the
        better half by the total; ties keep `ranked`'s order. Two left are compared seed by
        seed, and the comparison ends once at least two seeds are in and none of them
        disagrees with the total (a clear case: a third seed overturned 1 of 54 such)."""
        totals = [0.0] * len(ends)
        levels = (len(alive) - 1).bit_length()
        done = 0
        while len(alive) > 1:
            n = max(1, len(seeds) // (levels * len(alive)))
            diffs: list[float] = []
            for k in range(done, done + n):
                seed = seeds[k % len(seeds)]
                got = [self._answer(ends[i], seat, seed, stop, self.eps, answers) for i in alive]
                for i, v in zip(alive, got, strict=True):
                    totals[i] += v
                if len(alive) == 2:
                    diffs.append(got[0] - got[1])
                    if len(diffs) >= 2 and _clear(diffs):
                        break
            done += n
            alive.sort(key=lambda i: (-totals[i], ranked.index(i)))
            alive = alive[: (len(alive) + 1) // 2]
        return alive[0]

    def candidates(self, s: GameState, legal: list[Action]) -> list[Action]:
        """The heuristic's best `width` actions, best first (ties in the engine's order): the
        heuristic's own choice always among them."""
        scored = score_actions(s, legal)
        order = sorted(range(len(scored)), key=lambda i: -scored[i][0])
        return [scored[i][1] for i in order[: self.width]]

    def turns_ahead(self, s: GameState) -> int:
        """Stage 2's look-ahead in player turns; by default through the seat's own next turn."""
        return len(s.players) if self.horizon is None else self.horizon

    def _turn_of(self, s: GameState, rng: random.Random) -> _Turn:
        """This turn's shared random numbers and values: drawn from `rng` at the seat's first
        search of the turn in this game, kept for its later ones."""
        t = self._turn
        if t is None or t.state is not s or t.turn != s.turn:
            t = self._turn = _Turn(s, rng, self.budget)
        return t

    def _rollout(
        self, game: Game, seat: int, first: Action, seed: int, horizon: int, eps: float
    ) -> float:
        """The value for `seat` of playing `first` and then the rollout policy through the
        rest of the turn and the next `horizon` player turns, in the world dealt by `seed`."""
        stop = game.state.turn + 1 + horizon
        end = self._own_turn(determinize(game, seat, random.Random(seed)), seat, first)
        return self._answer(end, seat, seed, stop, eps, None)

    def _own_turn(self, world: Game, seat: int, first: Action) -> Game:
        """A clone of `world` with `first` played and then the rest of the turn, greedily, by
        the rollout policy (stage 1)."""
        self.rollouts += 1
        return rest_of_turn(world, first, self._policy, self.steps)

    def _answer(
        self, end: Game, seat: int, seed: int, stop: int, eps: float, answers: Answers | None
    ) -> float:
        """The value for `seat` of playing on from `end` (stage 1's end of the seat's turn,
        what the seat cannot see re-dealt by `seed`) up to player turn `stop`, the others
        with `eps` randomness, the seat greedily. With `answers`, a rollout from a re-dealt
        position one of them started from (the same fingerprint, game steps and seed, so the
        same play) takes its value."""
        value, played = answer(end, seat, seed, stop, eps, self._policy, self.steps, answers)
        self.rollouts += played
        return value


def answer(
    end: Game,
    seat: int,
    seed: int,
    stop: int,
    eps: float,
    policy: HeuristicAgent,
    steps: int = 300,
    answers: Answers | None = None,
) -> tuple[float, bool]:
    """The value for `seat` of playing on from `end` (an end of the seat's turn, what the
    seat cannot see re-dealt by `seed`) up to player turn `stop` with `policy`, the others
    with `eps` randomness, the seat greedily (stage 2's rollout), and whether it was played:
    with `answers`, a rollout from a re-dealt position one of them started from (the same
    fingerprint, game steps and seed, so the same play) takes its value."""
    if end.state.winners is not None or end.state.turn >= stop:
        return evaluate(end.state, seat), False
    rng = random.Random(seed)
    g = determinize(end, seat, rng)
    s: GameState = g.state
    key: tuple[object, ...] = (seed, stop, seat, s.steps, s.turn, s.phase, tuple(s.occ))
    here = fingerprint(s) if answers is not None else ()
    known = answers.setdefault(key, []) if answers is not None else []
    for seen, value in known:
        if seen == here:
            return value, False
    play_on(g, seat, rng, stop, eps, policy, steps)
    value = evaluate(s, seat)
    if answers is not None:
        known.append((here, value))
    return value, True


__all__ = [
    "Answers",
    "SearchAgent",
    "answer",
    "determinize",
    "fingerprint",
    "play_on",
    "rest_of_turn",
]
