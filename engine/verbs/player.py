"""Verbs of the acting player and its opponents: draw, gain, steal, burn, discard, score, create
(R8.8, R18, R19.2)."""

from __future__ import annotations

from engine.actions import target_seats
from engine.board import VictoryKind
from engine.cards import Effect, TargetKind
from engine.choices import DiscardChoice
from engine.permanents import available, origins, put_onto_board
from engine.state import GameState
from engine.verbs.entry import PLAYERS, Appraiser, Value, Verb, seats
from engine.vocab import EventKind, LeaveReason, ResourceReason
from engine.zones import draw, gain, lose


def _draw(
    state: GameState, player: int, source: int, e: Effect, targets: list[int], origin: int
) -> None:
    if player >= 0:
        draw(state, player, e.amount)


def _gain(
    state: GameState, player: int, source: int, e: Effect, targets: list[int], origin: int
) -> None:
    if player >= 0:
        gain(state, player, e.amount, ResourceReason.EFFECT)


def _steal(
    state: GameState, player: int, source: int, e: Effect, targets: list[int], origin: int
) -> None:
    for seat in seats(state, player, targets):
        taken = lose(state, seat, e.amount, ResourceReason.STOLEN)
        if player >= 0:
            gain(state, player, taken, ResourceReason.STEAL)


def _burn(
    state: GameState, player: int, source: int, e: Effect, targets: list[int], origin: int
) -> None:
    for seat in seats(state, player, targets):
        lose(state, seat, e.amount, ResourceReason.BURNED)


def _discard(
    state: GameState, player: int, source: int, e: Effect, targets: list[int], origin: int
) -> None:
    """The acting player discards N cards, one choice at a time: as many as the hand holds
    when they choose (another discard of the same action may have emptied it)."""
    if player >= 0 and e.amount > 0:
        state.pending.append(DiscardChoice(player, e.amount, source))


def _score(
    state: GameState, player: int, source: int, e: Effect, targets: list[int], origin: int
) -> None:
    if player >= 0:
        state.players[player].points += e.amount
        state.emit(EventKind.POINTS, player, amount=e.amount, detail="effect")


def _create(
    state: GameState, player: int, source: int, e: Effect, targets: list[int], origin: int
) -> None:
    """R8.8: tokens are created in play; permanent tokens on free available fields in range 1
    of the source (R10.1: of the field it died on, for a death trigger), else in the creator's
    deploy zone; with no room they never enter."""
    card = state.config.catalog[(e.card or "").casefold()]
    geo = state.config.geometry
    here = origins(state, player, source) if state.cards[source].type.is_permanent else []
    near = [f for o in here for f in geo.in_range_fields(o, 1)]
    for _ in range(e.amount):
        cid = len(state.cards)
        state.cards.append(card)
        state.owner.append(player)
        state.token.append(True)
        state.emit(EventKind.CREATE, player, cid)
        if not card.type.is_permanent:
            if player >= 0:
                state.players[player].hand.append(cid)
            else:
                state.out.append(cid)
            continue
        zone = list(state.config.deploy[player]) if player >= 0 else []
        spot = next((f for f in near + zone if available(state, cid, f)), -1)
        if spot < 0:
            state.out.append(cid)
            state.emit(EventKind.LEAVE, player, cid, detail=LeaveReason.NO_ROOM)
        else:
            put_onto_board(state, cid, player, spot)
            state.entered.append(cid)


# --- values to the agents -------------------------------------------------------------------


def _gain_value(a: Appraiser, source: int, e: Effect, targets: list[int], origin: int) -> float:
    return e.amount * a.resource_value()


def _draw_value(a: Appraiser, source: int, e: Effect, targets: list[int], origin: int) -> float:
    return 1.3 * e.amount


def _score_value(a: Appraiser, source: int, e: Effect, targets: list[int], origin: int) -> float:
    return 4.0 * e.amount if a.kind is VictoryKind.CAPTURE else 0.2 * e.amount


def _discard_value(a: Appraiser, source: int, e: Effect, targets: list[int], origin: int) -> float:
    return -0.8 * e.amount


def _create_value(a: Appraiser, source: int, e: Effect, targets: list[int], origin: int) -> float:
    card = a.s.config.catalog.get((e.card or "").casefold())
    return e.amount * (0.7 * a.card_value(card) if card is not None else 1.0)


def _robbery(share: float) -> Value:
    """What taking resource from opponents is worth: what they hold of it, `share` of a
    resource each, twice that on the resource race (R19.2)."""

    def value(a: Appraiser, source: int, e: Effect, targets: list[int], origin: int) -> float:
        s = a.s
        robbed = (
            target_seats(targets) or [x for x in range(len(s.players)) if s.enemies(a.seat, x)][:1]
        )
        got = sum(min(e.amount, s.players[x].resource) for x in robbed)
        mult = share * 2.0 if a.kind is VictoryKind.RESOURCE else share
        return got * mult * a.resource_value()

    return value


VERBS: tuple[Verb, ...] = (
    Verb("draw", ("ziehe", "ziehen"), _draw, _draw_value, 1.3),
    Verb("gain", ("erhalte", "erhalten"), _gain, _gain_value, 1.0, gains=True),
    Verb(
        "steal",
        ("stehle", "stehlen"),
        _steal,
        _robbery(2.0),
        1.6,
        PLAYERS,
        TargetKind.OPPONENT,
        gains=True,
        drains=True,
    ),
    Verb(
        "burn",
        ("vernichte", "vernichten"),
        _burn,
        _robbery(0.7),
        0.7,
        PLAYERS,
        TargetKind.OPPONENT,
        drains=True,
    ),
    Verb("discard", ("wirf", "abwerfen"), _discard, _discard_value, -0.8, particles=("ab",)),
    Verb("create", ("erzeuge", "erzeugen"), _create, _create_value, 2.5, card=True),
    Verb("score", ("punkte",), _score, _score_value, 2.0, scores=True),
)
"""The verbs of this family, one entry each."""
