"""Announcing a player's action with its cost paid (R6.2, R6.4, R6.7, R8.6): playing a card
(its play cost), a free action (resource, discards, sacrificing its source) and every player's
free action of R8.6 (discard 2 cards: gain 1 resource). Each then goes on the stack."""

from __future__ import annotations

from engine.actions import Action, permanent_target
from engine.choices import DiscardChoice
from engine.effects import free_action_of
from engine.legal import current_player
from engine.permanents import destroy
from engine.stack import announce
from engine.state import GameState, StackItem
from engine.victory import check_victory
from engine.vocab import DestroyCause, EventKind, ResourceReason, StackKind
from engine.zones import pay


def play(state: GameState, a: Action) -> None:
    """R6.2, R6.4: pay the play cost, the card leaves the hand onto the stack."""
    seat = current_player(state)
    card = state.cards[a.card]
    pay(state, seat, card.play or 0, ResourceReason.PLAY)
    state.players[seat].hand.remove(a.card)
    state.emit(
        EventKind.PLAY, seat, a.card, permanent_target(a.target), a.field, amount=card.play or 0
    )
    announce(state, StackItem(StackKind.CARD, seat, a.card, target=a.target, field=a.field))


def free(state: GameState, a: Action) -> None:
    """R6.7: pay the cost (resource, discards, sacrifice), then the action is announced."""
    seat = current_player(state)
    where = state.perm_field(state.perms[a.card])
    fa = free_action_of(state, a.card, a.index, where)
    pay(state, seat, fa.cost.resource, ResourceReason.FREE_ACTION)
    item = StackItem(StackKind.FREE, seat, a.card, a.index, a.target, where)
    if fa.cost.discard:
        state.pending.append(DiscardChoice(seat, fa.cost.discard, a.card))
    if fa.cost.sacrifice and a.card in state.perms:
        destroy(state, state.perms[a.card], DestroyCause.SACRIFICED, seat)
        check_victory(state)  # R19: a VIP or building paid as a cost is lost at once
        if state.winners is not None:
            return
    announce(state, item)


def convert(state: GameState, _: Action) -> None:
    """R8.6: discard 2 cards (the cost, chosen next), then gain 1 resource as it resolves."""
    seat = current_player(state)
    state.pending.append(DiscardChoice(seat, 2))
    announce(state, StackItem(StackKind.CONVERT, seat, -1))
