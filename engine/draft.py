"""Setup and the booster draft (R2, R3, R21.1, R21.2): the draft fixes each store (R1.2).

Picks are logically simultaneous: in each pick step every seat, in seat order, takes one card
from the pack in front of it; then all packs pass to the next seat (or alternate direction per
pack round when the parameter says so).
"""

from __future__ import annotations

from engine.actions import Action
from engine.board import TYRANT
from engine.cards import Card
from engine.permanents import put_onto_board
from engine.state import GameState
from engine.turn import start_turn
from engine.vocab import EventKind
from engine.zones import draw


def new_card(state: GameState, card: Card, owner: int, token: bool = False) -> int:
    cid = len(state.cards)
    state.cards.append(card)
    state.owner.append(owner)
    state.token.append(token)
    return cid


def deal_packs(state: GameState) -> None:
    """R2.1, R3.1, R3.2, R3.4: shuffle every draftable copy, deal packs; the rest is out."""
    cfg = state.config
    pool = sorted((c for c in cfg.pool if c.draftable), key=lambda c: (c.set, c.name))
    ids = [new_card(state, c, -1) for c in pool for _ in range(c.copies)]
    state.rng.shuffle(ids)
    size = cfg.pack_size
    full = len(ids) // size * size
    state.unopened = [ids[i : i + size] for i in range(0, full, size)]
    state.out.extend(ids[full:])
    state.emit(
        EventKind.DEAL, -1, amount=len(state.unopened), detail=f"{len(ids) - full} left over"
    )
    open_pack_round(state)


def open_pack_round(state: GameState) -> bool:
    """R3.3: while at least as many packs remain as players and everyone holds fewer than the
    target, each player takes a pack. Returns False when the draft is over."""
    n = len(state.players)
    if len(state.unopened) < n or any(
        len(p.store) >= state.config.draft_target for p in state.players
    ):
        for pack in state.unopened:
            state.out.extend(pack)
        state.unopened = []
        return False
    state.pack_round += 1
    state.packs = [state.unopened.pop() for _ in range(n)]
    state.draft_seat = 0
    return True


def pick(state: GameState, a: Action) -> None:
    """The current seat takes card `a.card` from the pack in front of it (R3.3)."""
    cid = a.card
    seat = state.draft_seat
    pack = state.packs[seat]
    state.picks_made[seat] += 1
    state.picks.add(
        state.picks_made[seat],
        state.pack_round,
        seat,
        state.cards[cid].name,
        "|".join(state.cards[c].name for c in pack),
    )
    pack.remove(cid)
    state.owner[cid] = seat
    state.players[seat].store.append(cid)
    state.emit(EventKind.PICK, seat, cid, amount=state.picks_made[seat])
    state.draft_seat += 1
    if state.draft_seat < len(state.players):
        return
    state.draft_seat = 0
    n = len(state.players)
    backwards = state.config.alternate_pass and state.pack_round % 2 == 0
    shift = -1 if not backwards else 1
    state.packs = [state.packs[(s + shift) % n] for s in range(n)]
    if not any(state.packs) and not open_pack_round(state):
        start_game(state)


def start_game(state: GameState) -> None:
    """R2.2-R2.4: stores are the drafted cards; decks the start cards, shuffled; starting
    hands; the board's placements; the Tyrant's deck."""
    cfg = state.config
    board = cfg.board
    state.packs = []
    for seat, pl in enumerate(state.players):
        for name, count in board.start_cards:
            card = cfg.catalog[name.casefold()]
            pl.deck.extend(new_card(state, card, seat) for _ in range(count))
        state.rng.shuffle(pl.deck)
    for seat in range(len(state.players)):
        draw(state, seat, board.starting_hand)
    for pl_ in board.placements:
        if pl_.owner >= len(state.players):
            continue
        card = cfg.catalog[pl_.card.casefold()]
        owner = pl_.owner
        cid = new_card(state, card, owner)
        put_onto_board(state, cid, owner, pl_.y * board.width + pl_.x)
        if pl_.vip and owner >= 0:
            state.vips[owner] = cid
    for name, count in board.tyrant_deck:  # R17.1: the Tyrant's intentions, its own deck
        card = cfg.catalog[name.casefold()]
        state.tyrant_deck.extend(new_card(state, card, TYRANT) for _ in range(count))
    state.rng.shuffle(state.tyrant_deck)
    state.round = 1
    state.active = 0
    state.emit(EventKind.ROUND, -1, amount=1)
    start_turn(state)
