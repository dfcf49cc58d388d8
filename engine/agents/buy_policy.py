"""The heuristic agent's buy policy (R7): a card's value for money given the board and the
upkeep its income can carry, the resource race's rule, and saving for a clearly better card
affordable next turn. The heuristic drafter projects the same policy (`engine.agents.projection`).
"""

from __future__ import annotations

from engine import verbs
from engine.actions import Action
from engine.agents.values import View, board_affinity, card_cost, card_value
from engine.agents.weights import DEFAULT, Weights
from engine.board import VictoryKind
from engine.cards import Card, CardType
from engine.vocab import ActionKind

# Enum members as module constants: reading one (`CardType.UNIT`) costs ~0.15 us on Python 3.11,
# and these are read per permanent at every decision.
_UNIT = CardType.UNIT


def seat_income(v: View) -> int:
    """The seat's income next upkeep (R5.1, R18.2), worked out once per decision."""
    if v._income is None:
        b = v.board
        cards = v.s.cards
        units = [p for p in v.mine if cards[p.cid].type is _UNIT]
        v._income = (
            b.income + b.unit_income * len(units) + sum(b.fields[p.field].income for p in units)
        )
    return v._income


def upkeep_load(v: View) -> int:
    """The upkeep of the seat's units on the board (R5.3)."""
    if v._upkeep is None:
        cards = v.s.cards
        v._upkeep = sum(cards[p.cid].upkeep or 0 for p in v.mine if cards[p.cid].type is _UNIT)
    return v._upkeep


def buy_value(
    card: Card, kind: VictoryKind, deck_units_upkeep: int, income: int, w: Weights = DEFAULT
) -> float:
    """Value for money of buying `card` now."""
    val = card_value(card) + board_affinity(card, kind)
    if card.type is CardType.UNIT:
        val *= w.buy_unit
    elif card.type is CardType.SPELL:
        val *= w.buy_spell
    else:
        val *= w.buy_other
    cost = card_cost(card, w.upkeep_turns)
    ratio = val / max(1.5, cost)
    # the upkeep plan: units whose upkeep the income cannot carry are worth less
    if (
        card.type is CardType.UNIT
        and (card.upkeep or 0) > 0
        and deck_units_upkeep + (card.upkeep or 0) > income + w.buy_margin
    ):
        ratio *= w.buy_overload
    return ratio * w.buy_ratio + w.buy_raw * val


def race_buy(card: Card, resource: float, target: int, round_: int, w: Weights = DEFAULT) -> float:
    """The resource race (R19.2): buy only cheap cards that gain or steal, early and while far
    from the target (a unit's upkeep counted against it by `race_upkeep`); anything else scores
    below passing."""
    used = {e.verb for e in card.effects} | {e.verb for t in card.triggers for e in t.effects}
    if (
        resource - (card.buy or 0) < 0.35 * target
        and round_ < 8
        and any(verbs.VERBS[v].gains for v in used)
        and (card.buy or 0) <= 4
    ):
        return 1.0 + card_value(card) / 10 - w.race_upkeep * (card.upkeep or 0)
    return -1.0


def saves(save_for: float, score: float, w: Weights = DEFAULT) -> bool:
    """The plan: pass on a card of `score` to buy a clearly better one (`save_for`) next turn."""
    return save_for > score * w.buy_save + 1.0


class WeightedBuyPolicy:
    """The heuristic's buy policy under `weights` (the projection's `BuyPolicy`): what a drafter
    projects when no agent of its own is given."""

    def __init__(self, weights: Weights = DEFAULT) -> None:
        self.weights = weights

    def buy_value(self, card: Card, kind: VictoryKind, deck_up: int, income: int) -> float:
        return buy_value(card, kind, deck_up, income, self.weights)

    def race_buy(self, card: Card, resource: float, target: int, round_: int) -> float:
        return race_buy(card, resource, target, round_, self.weights)

    def saves(self, save_for: float, score: float) -> bool:
        return saves(save_for, score, self.weights)


def buy_score(v: View, a: Action) -> float:
    """A buy step's action (R7): the best card by value for money, or passing."""
    s = v.s
    pl = s.players[v.seat]
    if a.kind != ActionKind.BUY:
        return v.w.buy_min
    card = s.cards[a.card]
    if v.kind is VictoryKind.RESOURCE:
        return race_buy(card, pl.resource, v.board.victory.target, s.round, v.w)
    deck_up, save_for = _buy_plan(v)
    score = _store_value(v, a.card, deck_up)
    return v.w.buy_min - 0.5 if saves(save_for, score, v.w) else score


def store_score(v: View, cid: int) -> float:
    """A store card's score as a buy (`buy_score` without the plan to save for a better one),
    whatever the resource; not on the resource race."""
    return _store_value(v, cid, _buy_plan(v)[0])


def _store_value(v: View, cid: int, deck_up: int) -> float:
    """`buy_value` of a store card (a pure function of its arguments), kept per weights: a
    store's copies share a card, and the next buy step, turn and game see the same cards under
    the same plan."""
    w = v.w
    kept = _KEPT.get(id(w))
    if kept is None or kept[0] is not w or len(kept[1]) >= 4096:
        if len(_KEPT) >= 16:
            _KEPT.clear()
        kept = _KEPT[id(w)] = (w, {})
    card = v.s.cards[cid]
    key = (card, v.kind, deck_up, seat_income(v))
    x = kept[1].get(key)
    if x is None:
        x = kept[1][key] = buy_value(card, v.kind, deck_up, key[3], w)
    return x


_KEPT: dict[int, tuple[Weights, dict[tuple[Card, VictoryKind, int, int], float]]] = {}
"""`_store_value`'s answers per weights (the entry keeps its weights, so a reused id cannot
hit a stale entry), at most 4096 a weights and 16 weights."""


def _buy_plan(v: View) -> tuple[int, float]:
    """(upkeep the deck's units will ask, value of the best card affordable only next turn)."""
    plan = v._plan
    if plan is None:
        s = v.s
        pl = s.players[v.seat]
        deck_up = sum(
            s.cards[c].upkeep or 0
            for c in pl.deck + pl.discard + pl.hand
            if s.cards[c].type is CardType.UNIT
        ) // 2 + upkeep_load(v)
        nxt = pl.resource + seat_income(v)
        seen: set[str] = set()
        best = 0.0
        for c in pl.store:
            oc = s.cards[c]
            if oc.name not in seen and pl.resource < (oc.buy or 0) <= nxt:
                seen.add(oc.name)
                best = max(best, _store_value(v, c, deck_up))
        plan = v._plan = (deck_up, best)
    return plan
