"""The action stack and its response windows (R6.4, R6.9, R21.6): announcing an action,
resolving the top one, then deaths (R12.2, R13.2), triggers (R6.1) and victory (R19); one
resolver per kind of stack item (`StackKind`), one per unit verb (`UnitVerb`)."""

from __future__ import annotations

from collections.abc import Callable

from engine import tyrant
from engine.actions import permanent_target
from engine.behaviours import path_to
from engine.cards import CardType
from engine.choices import TargetChoice
from engine.combat import combat
from engine.effects import candidates, chosen_spec, free_action_of, resolve
from engine.markers import Marker
from engine.permanents import (
    attach,
    available,
    can_swap,
    can_take_rider,
    destroy,
    detach,
    drop,
    is_defeated,
    max_range,
    profile,
    put_onto_board,
    relocate,
)
from engine.state import GameState, Perm, StackItem
from engine.victory import check_victory
from engine.vocab import DestroyCause, EventKind, ResourceReason, StackKind, UnitVerb
from engine.zones import gain

# --- the response windows and the action stack (R6.9, R21.6) --------------------------------


def open_priority(state: GameState) -> None:
    """R21.6: every other player in seat order, then the active player, may respond."""
    n = len(state.players)
    if state.active < 0:
        state.priority = list(range(n))
        return
    state.priority = [(state.active + k) % n for k in range(1, n)] + [state.active]


def announce(state: GameState, item: StackItem) -> None:
    """R6.4, R6.9: an announced action (its cost already paid) goes on the stack."""
    state.stack.append(item)
    state.emit(
        EventKind.ANNOUNCE,
        item.player,
        item.source,
        permanent_target(item.target),
        item.field,
        detail=item.kind + (":" + item.verb if item.verb else ""),
    )
    open_priority(state)


def pass_priority(state: GameState) -> None:
    """R21.6: the player in the window passes; once everyone has, the top action resolves."""
    state.priority.pop(0)
    if not state.priority and state.stack:
        resolve_top(state)


def resolve_top(state: GameState) -> None:
    """Resolve the top of the stack (last in, first out), then the state-based checks."""
    item = state.stack.pop()
    state.acting = item.player
    state.emit(EventKind.RESOLVE, item.player, item.source, detail=item.kind)
    RESOLVERS[item.kind](state, item)
    after_resolution(state)


def after_resolution(state: GameState) -> None:
    """Deaths (R12.2, R13.2), triggers of what died or entered (R6.1), victory (R19)."""
    check_deaths(state)
    while state.entered:
        cid = state.entered.pop(0)
        if cid in state.perms:
            card = state.cards[cid]
            if card.effects:
                queue_trigger(state, cid, -1, state.perms[cid].controller)
            queue_triggers(state, cid, "enters", state.perms[cid].controller)
    while state.dead:
        cid, controller, _ = state.dead.pop(0)
        queue_triggers(state, cid, "dies", controller)
    if state.activated >= 0 and state.activated not in state.perms:
        state.activated = -1
    check_victory(state)
    if state.stack and not state.priority and state.winners is None:
        open_priority(state)


def check_deaths(state: GameState) -> None:
    """Destroy every defeated permanent, repeatedly (a death can drop a stack). One with no
    damage, no poison and no stack is not asked: a card's life and solid X are never negative,
    so it is not defeated (R12.2, R13.2, R15.4)."""
    poison = Marker.POISON
    while True:
        doomed = [
            p
            for p in state.perms.values()
            if (p.field >= 0 or p.under >= 0)
            and (p.damage or p.markers[poison] or p.stack)
            and is_defeated(state, p)
        ]
        if not doomed:
            return
        for p in doomed:
            if p.cid in state.perms:
                cause = (
                    DestroyCause.POISON
                    if p.markers[Marker.POISON] > p.damage
                    else DestroyCause.DAMAGE
                )
                destroy(state, p, cause, state.acting)


def queue_triggers(state: GameState, cid: int, event: str, controller: int) -> None:
    for i, trig in enumerate(state.cards[cid].triggers):
        if trig.event == event:
            queue_trigger(state, cid, i, controller)


def queue_trigger(state: GameState, cid: int, index: int, controller: int) -> None:
    """Put a triggered action on the stack; a chosen target is the controller's choice (R6.4).
    The `trigger` event's amount is the number of targets the controller chooses among, 0 when
    the action is announced at once (no choice, or one target) or fizzles: it tells a reader
    which announcement belongs to which trigger (R6.1, R6.9: those that wait come later)."""
    card = state.cards[cid]
    effects = card.effects if index < 0 else card.triggers[index].effects
    spec = chosen_spec(effects)
    options = [] if spec is None else candidates(state, controller, cid, spec, targeting=True)
    waits = len(options) > 1 and controller >= 0
    state.emit(
        EventKind.TRIGGER,
        controller,
        cid,
        amount=len(options) if waits else 0,
        detail="enters" if index < 0 else card.triggers[index].event,
    )
    if spec is None:
        announce(state, StackItem(StackKind.TRIGGER, controller, cid, index))
        return
    if not options:
        state.emit(EventKind.FIZZLE, controller, cid, detail="no target")
    elif not waits:
        announce(state, StackItem(StackKind.TRIGGER, controller, cid, index, options[0]))
    else:
        state.pending.append(
            TargetChoice(controller, cid, None if index < 0 else index, tuple(options))
        )


# --- resolvers, one per kind of stack item ---------------------------------------------------


def _resolve_card(state: GameState, item: StackItem) -> None:
    cid = item.source
    card = state.cards[cid]
    if card.type.is_permanent:
        if item.field < 0:
            state.players[item.player].equip_next.append(cid)
            state.emit(EventKind.EQUIP_NEXT, item.player, cid)
            return
        if not available(state, cid, item.field):
            state.emit(EventKind.FIZZLE, item.player, cid, field_=item.field)
            _card_to_discard(state, cid)
            return
        p = put_onto_board(state, cid, item.player, item.field)
        state.entered.append(cid)
        if card.type is CardType.UNIT:
            pl = state.players[item.player]
            for eq in pl.equip_next:
                e = put_onto_board(state, eq, item.player, item.field)
                state.occ[item.field] = cid
                e.field = -1
                attach(state, p, e)
            pl.equip_next.clear()
        return
    resolve(state, item.player, cid, card.effects, item.target, item.field)  # R14.1 origin
    _card_to_discard(state, cid)


def _card_to_discard(state: GameState, cid: int) -> None:
    """R16.1: a spell goes to the discard pile after it resolves (a token leaves, R8.8)."""
    owner = state.owner[cid]
    if state.token[cid] or owner < 0:
        state.out.append(cid)
    else:
        state.players[owner].discard.append(cid)


def _resolve_free(state: GameState, item: StackItem) -> None:
    fa = free_action_of(state, item.source, item.index, item.field)
    resolve(state, item.player, item.source, fa.effects, item.target)


def _resolve_convert(state: GameState, item: StackItem) -> None:
    """R8.6: discard 2 cards: gain 1 resource (the discards were the cost)."""
    gain(state, item.player, 1, ResourceReason.DISCARD_TWO)


def _resolve_trigger(state: GameState, item: StackItem) -> None:
    card = state.cards[item.source]
    effects = card.effects if item.index < 0 else card.triggers[item.index].effects
    resolve(state, item.player, item.source, effects, item.target)


def _resolve_unit(state: GameState, item: StackItem) -> None:
    """A unit's action resolves; its targets and path are checked again (R6.4)."""
    unit = state.perms.get(item.source)
    if unit is None:
        state.emit(EventKind.FIZZLE, item.player, item.source, detail=item.verb or "")
        return
    assert item.verb is not None, "a unit's action names its verb"
    UNIT_VERBS[item.verb](state, item, unit)


def _move(state: GameState, item: StackItem, unit: Perm) -> bool:
    """R10.3: a move names its destination. It resolves (R6.4) only if the unit still stands
    where it was announced and the destination is still in reach, along the cheapest path now
    (the announced one unless a response blocked it). Onto a crew unit it joins the stack, and a
    rider's move (from the stack's field, R11.5) takes it off its crew unit first (R12.9).
    Returns whether the unit moved."""
    dest = item.path[-1] if item.path else -1
    path = (
        path_to(state, unit, dest)
        if (dest >= 0 and state.perm_field(unit) == item.origin)
        else None
    )
    occupant = state.occ[dest] if dest >= 0 else -1
    if path is None or (occupant >= 0 and not can_take_rider(state, state.perms[occupant], unit)):
        state.emit(EventKind.FIZZLE, item.player, unit.cid, field_=dest, detail="move")
        return False
    w = state.config.board.width
    state.emit(
        EventKind.MOVE,
        item.player,
        unit.cid,
        field_=dest,
        amount=len(path),
        detail=" ".join(f"{f % w},{f // w}" for f in path),
    )
    detach(state, unit)
    if occupant >= 0:
        attach(state, state.perms[occupant], unit)
    else:
        relocate(state, unit, dest)
    return True


def _next_to(state: GameState, unit: Perm, other: Perm | None) -> bool:
    """R15.2, R15.3, R15.6, checked again when the action resolves (R6.4): the permanent is
    still on the board next to the unit (a response may have pushed either away)."""
    return (
        other is not None
        and other.field >= 0
        and state.config.geometry.dist(state.perm_field(unit), other.field) <= 1
    )


def _attack(state: GameState, item: StackItem, unit: Perm) -> None:
    target = state.perms.get(item.target)
    geo = state.config.geometry
    if (
        target is None
        or target.field < 0
        or geo.dist(state.perm_field(unit), target.field) > max_range(profile(state, unit))
    ):
        state.emit(
            EventKind.FIZZLE, item.player, unit.cid, item.target if target else -1, detail="attack"
        )
        return
    combat(state, unit, target, item.player)
    check_deaths(state)
    if unit.cid in state.perms:
        queue_triggers(state, unit.cid, "attacks", unit.controller)
        if item.target not in state.perms:
            queue_triggers(state, unit.cid, "kills", unit.controller)


def _full(state: GameState, item: StackItem, unit: Perm) -> None:
    resolve(
        state, item.player, unit.cid, state.cards[unit.cid].full_actions[item.index], item.target
    )


def _carry(state: GameState, item: StackItem, unit: Perm) -> None:
    """R15.2: carry an adjacent artifact as far as the unit moves; it lands next to the unit."""
    art = state.perms.get(item.other)
    if (
        art is None
        or art.field < 0
        or state.perm_field(unit) != item.origin
        or state.config.geometry.dist(item.origin, art.field) > 1
    ):
        state.emit(EventKind.FIZZLE, item.player, unit.cid, detail="carry")
        return
    if not _move(state, item, unit):
        return
    origin = state.perm_field(unit)
    state.occ[art.field] = -1
    art.field = -1
    state.emit(EventKind.CARRY, item.player, unit.cid, art.cid, origin)
    drop(state, art, origin, item.player, wear=False)  # R15.2: carrying is no drop (R15.7)


def _swap(state: GameState, item: StackItem, unit: Perm) -> None:
    """R15.3: swap fields with an adjacent artifact; both must still stand where the swap was
    announced, next to each other (R6.4)."""
    art = state.perms.get(item.other)
    if (
        art is None
        or art.field < 0
        or unit.field != item.origin
        or state.config.geometry.dist(unit.field, art.field) > 1
        or not can_swap(state, unit, art)
    ):  # R9.5: each ends on a field available to it
        state.emit(EventKind.FIZZLE, item.player, unit.cid, detail="swap")
        return
    a, b = unit.field, art.field
    unit.field, art.field = b, a
    state.occ[a], state.occ[b] = art.cid, unit.cid
    state.emit(EventKind.SWAP, item.player, unit.cid, art.cid, b)


def _equip(state: GameState, item: StackItem, unit: Perm) -> None:
    """R15.6: equip an equipment in range 1; it joins the unit's stack."""
    eq = state.perms.get(item.other)
    if eq is None or not _next_to(state, unit, eq):
        state.emit(EventKind.FIZZLE, item.player, unit.cid, detail="equip")
        return
    eq.controller = unit.controller
    attach(state, unit, eq)


UNIT_VERBS: dict[UnitVerb, Callable[[GameState, StackItem, Perm], object]] = {
    UnitVerb.MOVE: _move,
    UnitVerb.ATTACK: _attack,
    UnitVerb.FULL: _full,
    UnitVerb.CARRY: _carry,
    UnitVerb.SWAP: _swap,
    UnitVerb.EQUIP: _equip,
}
RESOLVERS: dict[StackKind, Callable[[GameState, StackItem], None]] = {
    StackKind.CARD: _resolve_card,
    StackKind.FREE: _resolve_free,
    StackKind.CONVERT: _resolve_convert,
    StackKind.TRIGGER: _resolve_trigger,
    StackKind.UNIT: _resolve_unit,
    StackKind.PLAY_INTENTION: tyrant.resolve_play,
    StackKind.INTENTION: tyrant.resolve_intention,
}
