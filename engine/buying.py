"""Buying (R4.5, R7): in the buy step the player may buy one card (R7.2) from their own store
(R7.1) by paying its buy price (R7.3: a card without one cannot be bought); it goes to the
discard pile (R7.2), and the turn moves on to discarding (R4.6). Before buying the player may
take fast and free actions (R21.24), e.g. to gain the resource a dearer card needs."""

from __future__ import annotations

from engine.actions import Action
from engine.state import GameState
from engine.turn import end_buy_step
from engine.vocab import EventKind, ResourceReason
from engine.zones import pay


def buy(state: GameState, a: Action) -> None:
    """R7.1, R7.2: pay the buy price; the card leaves the store for the discard pile. Fast and
    free actions may come first (R21.24: they resolve back in the buy step)."""
    seat, price = state.active, state.cards[a.card].buy or 0
    pl = state.players[seat]
    held = pl.resource
    pay(state, seat, price, ResourceReason.BUY)
    pl.store.remove(a.card)
    pl.discard.append(a.card)
    pl.bought = True
    state.emit(EventKind.BUY, seat, a.card, amount=price)
    end_buy_step(state, held)
