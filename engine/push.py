"""Push X (R14, R21.9): straight-line, involuntary steps away from an origin field."""

from __future__ import annotations

from engine.cards import CardType
from engine.permanents import deal_damage, destroy, is_swimming, relocate, standing, terrain_ok
from engine.state import GameState, Perm
from engine.vocab import DamageCause, DestroyCause, EventKind, PushStop


def push(state: GameState, origin: int, p: Perm, steps: int, player: int) -> None:
    """Push `p` up to `steps` steps along the line from `origin` through its field.

    R14.3: onto an occupied field the push ends and a unit takes 1 damage from what it hit.
    R14.4: onto a free field unavailable to it (deep water for a non-swimmer) it is destroyed.
    R21.9: each step is (sign dx, sign dy); the board's edge stops the push without damage.
    A permanent in a stack is not pushed on its own; it moves with the permanent beneath.
    """
    if p.under >= 0:
        return
    geo = state.config.geometry
    card = state.cards[p.cid]
    swimming = is_swimming(state, p)
    for _ in range(steps):
        nxt = geo.push_step(origin, p.field)
        if nxt is None:
            state.emit(EventKind.PUSH_STOP, player, p.cid, field_=p.field, detail=PushStop.EDGE)
            return
        occupant = state.occ[nxt]
        if occupant >= 0:
            state.emit(
                EventKind.PUSH_STOP, player, p.cid, occupant, p.field, detail=PushStop.COLLISION
            )
            if card.type is CardType.UNIT:
                deal_damage(state, p, 1, state.cards[occupant], player, DamageCause.COLLISION)
            return
        if not terrain_ok(state, card, swimming, nxt):
            state.emit(EventKind.PUSH, player, p.cid, field_=nxt, amount=1)
            relocate(state, p, nxt)
            destroy(state, p, DestroyCause.PUSHED_OFF, player)
            return
        relocate(state, p, nxt)
        state.emit(EventKind.PUSH, player, p.cid, field_=nxt, amount=1)


def push_origin(state: GameState, source: int, chosen: int) -> int:
    """R14.1: a push starts from the pushing permanent's field (the field it left, if it is
    gone, the field it dropped from while it waits for its own, R11.6); when no permanent
    pushes (a spell), from the field its controller chose."""
    if not state.cards[source].type.is_permanent:
        return chosen
    sp = state.perms.get(source)
    if sp is not None:
        return standing(state, sp)
    return state.left_from.get(source, -1)
