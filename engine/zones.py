"""Moving cards between a player's zones, and the resource (R4.1, R4.2, R8, R18, R21.3)."""

from __future__ import annotations

from engine.actions import Action
from engine.state import GameState
from engine.vocab import DiscardReason, EventKind, LeaveReason, ResourceReason

HAND_SIZE = 3
"""R4.2: draw until the hand holds 3 cards."""


def shuffle_discard_into_deck(state: GameState, seat: int) -> None:
    """R4.1: the discard pile, shuffled, becomes the deck (tokens never get here, R8.8)."""
    pl = state.players[seat]
    pl.deck = pl.discard + pl.deck
    pl.discard = []
    state.rng.shuffle(pl.deck)
    state.emit(EventKind.SHUFFLE, seat, amount=len(pl.deck))


def draw(state: GameState, seat: int, n: int) -> int:
    """Draw up to n cards from the top (end) of the deck; an empty deck gives nothing (R21.3)."""
    pl = state.players[seat]
    drawn = 0
    while drawn < n and pl.deck:
        cid = pl.deck.pop()
        pl.hand.append(cid)
        state.emit(EventKind.DRAW, seat, cid)
        drawn += 1
    return drawn


def gain(state: GameState, seat: int, n: int, reason: ResourceReason) -> None:
    """Gain resource (R18.1: it is saved from turn to turn), counted by source for the
    snapshot: income (R5.1), discarding 2 (R8.6), or a card (spells, stealing, field actions)."""
    if n <= 0:
        return
    pl = state.players[seat]
    pl.resource += n
    if reason is ResourceReason.INCOME:
        pl.income += n
    elif reason is ResourceReason.DISCARD_TWO:
        pl.discard_gain += n
    else:
        pl.card_gain += n
    state.emit(EventKind.GAIN, seat, amount=n, detail=reason)


def pay(state: GameState, seat: int, n: int, reason: ResourceReason) -> None:
    """Spend resource; callers check it is there (no resource ever goes negative)."""
    if n <= 0:
        return
    pl = state.players[seat]
    assert pl.resource >= n, "paid more than the player has"
    pl.resource -= n
    if reason is ResourceReason.BUY:
        pl.spend_buy += n
    elif reason is ResourceReason.PLAY:
        pl.spend_play += n
    elif reason is ResourceReason.UPKEEP:
        pl.spend_upkeep += n
    else:
        pl.spend_free += n
    state.emit(EventKind.SPEND, seat, amount=n, detail=reason)


def lose(state: GameState, seat: int, n: int, reason: ResourceReason) -> int:
    """Lose up to n resource to an effect (R19.2 burning, stealing) or a negative income;
    returns what was lost."""
    pl = state.players[seat]
    taken = min(n, pl.resource)
    if taken:
        pl.resource -= taken
        if reason is ResourceReason.INCOME:
            pl.income -= taken
        else:
            pl.card_loss += taken
        state.emit(EventKind.LOSE, seat, amount=taken, detail=reason)
    return taken


def discard_from_hand(state: GameState, seat: int, cid: int, reason: DiscardReason) -> None:
    """A hand card goes to the discard pile (a token leaves the game instead, R8.8)."""
    pl = state.players[seat]
    pl.hand.remove(cid)
    state.emit(EventKind.DISCARD, seat, cid, detail=reason)
    if state.token[cid]:
        state.out.append(cid)
        state.emit(EventKind.LEAVE, seat, cid, detail=LeaveReason.TOKEN)
    else:
        pl.discard.append(cid)


def discard_at_end_of_turn(state: GameState, a: Action) -> None:
    """R4.6: after buying, the player may discard any number of hand cards, one at a time."""
    discard_from_hand(state, state.active, a.card, DiscardReason.END_OF_TURN)
