"""Drafters: who picks what from a pack (R3). A drafter answers draft picks (`Picker`); an agent
drafts with its drafter, and a drafter named as a whole agent (`numbers`, `ratings`) is the
heuristic agent drafting with it (engine/agents/registry.py).

- `random`: the random agent (registry), a uniformly random pick.
- `heuristic`: values a card by what its own agent will do with it (the model below): its
  numbers and its synergy with what it already holds (set concentration, cost curve, units vs
  support, equipment needs bodies, crew wants riders, swimmers want water).
- `numbers`: the older heuristic drafter: a card's numbers, cost and the board's victory
  condition, plus the same synergy; it drafts cards its agent never buys (Kraken), and
  stays for comparison.
- `ratings`: reads card ratings (name -> score, e.g. the win rate of seats whose drafted store
  held the card) and picks the best rated card; cards without a rating fall back to the
  heuristic drafter's value. The drafter receives its ratings as data: the spec's
  `ratings:ratings_file=PATH` (a JSON object `{"Card name": score}` or
  `{"Card name": {"score": s, "games": n}}`) and `ratings:db=PATH` are read by the workbench
  (`workbench.play.agents.make_agent`), since the engine opens no files. Parameter `weight=W`
  (default 1) scales ratings against the heuristic value used to break ties; `min_games=N`
  ignores ratings seen in fewer games.

The heuristic drafter's model: a card is worth what the seat's agent will do with it. Only
cards it buys ever leave the store (R7.1), at most one a turn (R7.2), out of a store of 30, so
most picks are never bought; a card the agent never buys is worth nothing to its seat however
good its numbers. Before each pick the drafter projects the agent's buy steps over the game:
- the store: the cards held, plus the picks still to come, stood in for by cards spread evenly
  over the rest of the pool (the sets are public) ranked by the agent's buy value, so that an
  early pick meets the competition a full store will give it;
- the economy, turn by turn up to the board's round limit: the board's income (R5.1, R18), unit
  and field income, the upkeep triggers that gain resource, and the start deck's and bought
  spells' gains at the rate a hand of 3 draws them (R4.2, diluted as the deck grows); bought
  cards come round one deck cycle later and are played then for their play cost, a unit only
  while its upkeep stays payable next turn (the agent's deploy rule); deployed units pay upkeep
  (R5.3), and units whose upkeep the resource cannot meet are lost;
- the buy step (R7): the agent's own buy policy, asked through its methods `buy_value`,
  `race_buy` and `saves` (engine.agents.buy_policy: value for money with the upkeep plan,
  the resource race's rule, saving for a clearly better card affordable next turn), so a
  retuned agent drafts with its own valuation.
A candidate is then walked along that projection: it is bought at the first buy step where it
is affordable and beats what the agent buys there, or where the agent would save for it, and
played at the first later turn with its play cost there (a unit: with its upkeep payable next
turn). Its value is its value by numbers (`numbers_value`: stats, effects, cost with upkeep,
the board's victory condition) and its synergy with the store, times its use: the share of the
game still to come when it is played, above a floor of `NEVER` for a card never bought or never
played (the projection is rough, and a pick also keeps the card from the next seat). The agent's
policy says whether and when a card is used; the numbers say what it is worth when it is (the
policy's own scores are not comparable across boards: the resource race scores every card it
buys 1 to 3).
Not modelled: combat losses, the opponent's needs. The projection: `engine.agents.projection`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Protocol

from engine.actions import Action
from engine.agents.buy_policy import WeightedBuyPolicy
from engine.agents.held import CURVE, Held, bucket
from engine.agents.projection import BuyPolicy, Economy, Projection
from engine.agents.values import board_affinity, card_cost, card_value
from engine.board import Terrain, VictoryKind
from engine.cards import Card, CardType
from engine.state import GameConfig, GameState

# --- synergy: what a pick adds to the store held so far ----------------------------------------


@lru_cache(maxsize=4096)
def numbers_value(card: Card, kind: VictoryKind) -> float:
    """A card's value for money by its numbers and the board's victory condition alone (a pure
    function of both, cached: a drafter asks for every card offered at every pick)."""
    val = card_value(card) + board_affinity(card, kind)
    ratio = val / max(2.0, card_cost(card))
    return 2.0 * ratio + 0.2 * val


_UNIT, _DEEP_WATER, _BUILDINGS = CardType.UNIT, Terrain.DEEP_WATER, VictoryKind.BUILDINGS
"""Module constants: on Python 3.11 reading an enum member goes through EnumType.__getattr__,
slow once per card offered."""


def synergy(s: GameState, card: Card, h: Held) -> float:
    """What `card` adds to the store held so far (set, cost curve, card kinds, terrain)."""
    board = s.config.board
    kind = board.victory.kind
    score = 0.0
    n = h.n
    kw = card.keywords
    is_unit = card.type is _UNIT
    if n:
        # set concentration: cards of the set most held work together
        score += 0.8 * h.sets.get(card.set, 0) / n
        # cost curve
        b = bucket(card)
        score += 1.5 * (CURVE[b] - h.buckets[b] / n)
        if is_unit:
            score += 1.0 if h.units / n < 0.55 else -0.3
        if card.type.is_equipment:
            score += 0.5 if h.units >= 3 else -0.8
        if kw.crew:
            score += 0.3 * min(h.ranged, 3)
        if is_unit and (card.range or 1) > 1:
            score += 0.3 * min(2, h.crew)
    if kw.swimming:
        water = sum(1 for f in board.fields if f.terrain is _DEEP_WATER)
        if water < len(board.fields) // 10:
            score -= 1.0
    if kind is _BUILDINGS and kw.building:
        score += 1.0
    return score


def draft_value(s: GameState, seat: int, card: Card, held: Held | None = None) -> float:
    """The `numbers` drafter's value of taking `card` given the store held so far."""
    h = held if held is not None else Held(s, seat)
    return numbers_value(card, s.config.board.victory.kind) + synergy(s, card, h)


class Picker(Protocol):
    """What drafts: a pick from the legal picks of the state's draft seat (R3.3)."""

    def pick(self, s: GameState, legal: list[Action]) -> Action: ...


class NumbersDrafter:
    """Picks the card of highest `draft_value` (numbers and synergy); plays as the heuristic."""

    name = "numbers"

    def pick(self, s: GameState, legal: list[Action]) -> Action:
        seat = s.draft_seat
        held = Held(s, seat)
        return max(legal, key=lambda a: (draft_value(s, seat, s.cards[a.card], held), -a.card))


# --- the heuristic drafter: what its agent will buy ----------------------------------------------

NEVER = 0.1
"""The share of its value by numbers that a card the projection never buys or plays keeps."""


class HeuristicDrafter:
    """Picks the card its agent will make most of (see the module docstring); plays the match as
    the heuristic agent. `policy` is the agent whose buy decisions it projects."""

    name = "heuristic"

    def __init__(self, policy: BuyPolicy | None = None) -> None:
        self.policy: BuyPolicy = policy if policy is not None else WeightedBuyPolicy()
        self._eco: Economy | None = None

    def economy(self, cfg: GameConfig) -> Economy:
        """The setup's economy, worked out once per game (configs are shared and immutable)."""
        if self._eco is None or self._eco.config is not cfg:
            self._eco = Economy(cfg, self.policy)
        return self._eco

    def values(self, s: GameState, legal: list[Action]) -> dict[int, float]:
        """The drafter's value of each card offered, by card id."""
        seat = s.draft_seat
        held = Held(s, seat)
        proj = Projection(self.economy(s.config), held)
        kind = s.config.board.victory.kind
        out: dict[int, float] = {}
        for a in legal:
            card = s.cards[a.card]
            use = NEVER + (1.0 - NEVER) * proj.use(card)
            out[a.card] = use * (numbers_value(card, kind) + synergy(s, card, held))
        return out

    def pick(self, s: GameState, legal: list[Action]) -> Action:
        vals = self.values(s, legal)
        return max(legal, key=lambda a: (vals[a.card], -a.card))


# --- the ratings drafter -------------------------------------------------------------------------

RATINGS_SOURCES = ("ratings_file", "db")
"""The spec parameters naming where ratings are read from (by the workbench, not here)."""


class RatingsDrafter:
    """Picks the best rated card; unrated cards get the mean rating. A win-rate difference of
    0.025 outweighs one point of the heuristic value (about 0..10, scaled by 0.1), which only
    breaks near-ties."""

    name = "ratings"

    def __init__(
        self, ratings: dict[str, float], weight: float = 1.0, params: dict[str, str] | None = None
    ) -> None:
        self.ratings = {k.casefold(): v for k, v in ratings.items()}
        self.weight = weight
        self.params = dict(params or {})
        vals = list(self.ratings.values())
        self.mean = sum(vals) / len(vals) if vals else 0.5
        self._heuristic = HeuristicDrafter()

    def pick(self, s: GameState, legal: list[Action]) -> Action:
        heuristic = self._heuristic.values(s, legal)

        def key(a: Action) -> tuple[float, int]:
            card = s.cards[a.card]
            r = self.ratings.get(card.name.casefold(), self.mean)
            # ratings dominate; the heuristic value (about 0..10) only breaks near-ties
            return (self.weight * (r - self.mean) * 40.0 + 0.1 * heuristic[a.card], -a.card)

        return max(legal, key=key)


def make_ratings_drafter(
    params: dict[str, str], ratings: Mapping[str, float] | None = None
) -> RatingsDrafter:
    """The `ratings` factory: the ratings read from the spec's source (`RATINGS_SOURCES`) by the
    workbench, or no source at all (every card unrated: the heuristic drafter's picks)."""
    source = next((k for k in RATINGS_SOURCES if k in params), None)
    if ratings is None and source is not None:
        raise ValueError(
            f"ratings:{source}=PATH is read by the workbench "
            "(workbench.play.agents.make_agent): the engine opens no files"
        )
    return RatingsDrafter(dict(ratings or {}), float(params.get("weight", 1.0)), params)
