"""Drafters: who picks what from a pack (R3). A drafter is an agent asked for draft picks; every
drafter here also plays the match (with the heuristic) if it is used as an agent.

- `random`: the random agent (registry), a uniformly random pick.
- `heuristic`: values cards by their numbers, cost, the board's victory condition and synergy
  with what it already holds (set concentration, cost curve, units vs support, equipment needs
  bodies, crew wants riders, swimmers want water).
- `ratings`: reads card ratings (name -> score, e.g. the win rate of seats whose drafted store
  held the card) and picks the best rated card; cards without a rating fall back to the
  heuristic drafter's value. Ratings come from the spec's parameters:
  `ratings:ratings_file=PATH` (a JSON object `{"Card name": score}` or
  `{"Card name": {"score": s, "games": n}}`), or `ratings:db=PATH` through a loader the
  workbench registers (`register_ratings_loader`, done by `workbench.ratings`), so the engine
  never imports a database driver. Parameter `weight=W` (default 1) scales ratings against the
  heuristic value used to break ties; `min_games=N` ignores ratings seen in fewer games.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from engine.actions import Action
from engine.agents.heuristic import choose
from engine.agents.values import board_affinity, card_cost, card_value
from engine.board import Terrain, VictoryKind
from engine.cards import Card, CardType
from engine.game import Game
from engine.state import GameState

# --- the heuristic drafter -----------------------------------------------------------------------

CURVE = {1: 0.15, 2: 0.3, 3: 0.3, 4: 0.15, 5: 0.1}
"""Share of the store the drafter wants at each buy price (5 = 5 and more)."""


def _bucket(card: Card) -> int:
    return max(1, min(5, card.buy or 1))


class Held:
    """What a seat's store holds so far, counted once per pick (not once per card offered)."""

    def __init__(self, s: GameState, seat: int) -> None:
        held = [s.cards[c] for c in s.players[seat].store]
        self.n = len(held)
        self.sets: dict[str, int] = {}
        self.buckets = {b: 0 for b in CURVE}
        self.units = self.ranged = self.crew = 0
        for h in held:
            self.sets[h.set] = self.sets.get(h.set, 0) + 1
            self.buckets[_bucket(h)] += 1
            if h.type is CardType.UNIT:
                self.units += 1
                self.ranged += (h.range or 1) > 1
            self.crew += bool(h.keywords.crew)


def draft_value(s: GameState, seat: int, card: Card, held: Held | None = None) -> float:
    """The heuristic drafter's value of taking `card` given the store held so far."""
    board = s.config.board
    kind = board.victory.kind
    h = held if held is not None else Held(s, seat)
    val = card_value(card) + board_affinity(card, kind)
    ratio = val / max(2.0, card_cost(card))
    score = 2.0 * ratio + 0.2 * val
    n = h.n
    if n:
        # set concentration: cards of the set most held work together
        score += 0.8 * h.sets.get(card.set, 0) / n
        # cost curve
        b = _bucket(card)
        score += 1.5 * (CURVE[b] - h.buckets[b] / n)
        if card.type is CardType.UNIT:
            score += 1.0 if h.units / n < 0.55 else -0.3
        if card.type.is_equipment:
            score += 0.5 if h.units >= 3 else -0.8
        if card.keywords.crew:
            score += 0.3 * min(h.ranged, 3)
        if card.type is CardType.UNIT and (card.range or 1) > 1:
            score += 0.3 * min(2, h.crew)
    if card.keywords.swimming or (card.type is CardType.UNIT and card.keywords.moves_on):
        water = sum(1 for f in board.fields if f.terrain is Terrain.DEEP_WATER)
        if card.keywords.swimming and water < len(board.fields) // 10:
            score -= 1.0
    if kind is VictoryKind.BUILDINGS and card.keywords.building:
        score += 1.0
    return score


class HeuristicDrafter:
    """Picks the card of highest `draft_value`; plays the match as the heuristic agent."""

    name = "heuristic"

    def pick(self, s: GameState, legal: list[Action]) -> Action:
        seat = s.draft_seat
        held = Held(s, seat)
        return max(legal, key=lambda a: (draft_value(s, seat, s.cards[a.card], held), -a.card))

    def act(self, game: Game, legal: list[Action], rng: random.Random) -> Action:
        s = game.state
        if s.phase == "draft":
            return self.pick(s, legal)
        return choose(s, legal, rng)


# --- the ratings drafter -------------------------------------------------------------------------

RatingsLoader = Callable[[str, dict[str, str]], dict[str, float]]
_LOADERS: list[RatingsLoader] = []


def register_ratings_loader(loader: RatingsLoader) -> None:
    """Let the workbench turn `db=PATH` into ratings (the engine stays free of databases)."""
    if loader not in _LOADERS:
        _LOADERS.append(loader)


def read_ratings_file(path: str) -> dict[str, float]:
    """A JSON file `{"name": score}` or `{"name": {"score": s, "games": n}}`."""
    with open(path, encoding="utf-8") as f:
        raw = json.load(f)
    if isinstance(raw, dict) and "ratings" in raw and isinstance(raw["ratings"], dict):
        raw = raw["ratings"]
    out: dict[str, float] = {}
    for name, v in raw.items():
        out[name] = float(v["score"]) if isinstance(v, dict) else float(v)
    return out


class RatingsDrafter:
    """Picks the best rated card; unrated cards get the mean rating. A win-rate difference of
    0.025 outweighs one point of the heuristic value (about 0..10, scaled by 0.1), which only
    breaks near-ties."""

    name = "ratings"

    def __init__(self, ratings: dict[str, float], weight: float = 1.0,
                 params: dict[str, str] | None = None) -> None:
        self.ratings = {k.casefold(): v for k, v in ratings.items()}
        self.weight = weight
        self.params = dict(params or {})
        vals = list(self.ratings.values())
        self.mean = sum(vals) / len(vals) if vals else 0.5

    def pick(self, s: GameState, legal: list[Action]) -> Action:
        seat = s.draft_seat
        held = Held(s, seat)

        def key(a: Action) -> tuple[float, int]:
            card = s.cards[a.card]
            r = self.ratings.get(card.name.casefold(), self.mean)
            # ratings dominate; the heuristic value (about 0..10) only breaks near-ties
            h = draft_value(s, seat, card, held)
            return (self.weight * (r - self.mean) * 40.0 + 0.1 * h,
                    -a.card)
        return max(legal, key=key)

    def act(self, game: Game, legal: list[Action], rng: random.Random) -> Action:
        s = game.state
        if s.phase == "draft":
            return self.pick(s, legal)
        return choose(s, legal, rng)


def make_ratings_drafter(params: dict[str, str]) -> RatingsDrafter:
    """The `ratings` factory: `ratings_file=PATH`, or `db=PATH` through a registered loader,
    or no source at all (every card unrated: the heuristic drafter's picks)."""
    ratings: dict[str, float] = {}
    if "ratings_file" in params:
        ratings = read_ratings_file(params["ratings_file"])
    elif "db" in params:
        if not _LOADERS:
            # the workbench's loader registers itself on import; the engine itself never
            # imports a database driver (only this optional hook reaches the workbench)
            try:
                import importlib
                importlib.import_module("workbench.ratings")
            except ImportError:
                pass
        if not _LOADERS:
            raise ValueError("ratings:db=PATH needs the workbench's loader (import "
                             "workbench.ratings), or pass ratings_file=PATH")
        ratings = _LOADERS[-1](params["db"], params)
    return RatingsDrafter(ratings, float(params.get("weight", 1.0)), params)
