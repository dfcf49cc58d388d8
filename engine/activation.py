"""A unit's activation and its actions (R6.8, R12.4): the markers that act on activation
(R13.2 poison, R13.3 panic, R13.4 rage; R13.1 paralysis; the Tyrant's unit too, R21.25), the
behaviours that then choose its actions (R20), and the actions a player takes with it: move,
attack, full action (R12.4), carry (R15.2), swap (R15.3), equip (R15.6), removing paralysis
(R13.1), tapping it."""

from __future__ import annotations

from engine import actions as A
from engine import tyrant
from engine.actions import Action
from engine.behaviours import next_action, path_to
from engine.markers import Marker
from engine.stack import after_resolution, announce
from engine.state import BehaviourRun, GameState, Perm, StackItem
from engine.turn import next_round
from engine.vocab import ActionKind, BehaviourKind, EventKind, Phase, StackKind, UnitVerb


def activate(state: GameState, a: Action) -> None:
    """R6.8: the player activates a unit (`wake`).

    A paralysed unit takes none of its actions (R13.1), a behaviour's neither: panic or rage
    still loses its marker on activation, the unit does nothing and is done for the turn."""
    cid = a.card
    p = state.perms[cid]
    state.activated = cid
    behaviour = wake(state, p)
    if cid not in state.perms:
        state.activated = -1
    elif behaviour is not None:
        if p.markers[Marker.PARALYSIS] > 0:
            finish_unit(state, p)
            state.activated = -1
        else:
            state.behaviour = BehaviourRun(behaviour, cid)


def wake(state: GameState, p: Perm) -> BehaviourKind | None:
    """A unit's activation (R6.8; the Tyrant's too, R21.25): R13.2 poison grows, and may
    defeat it; R13.3/R13.4 one panic or rage marker goes, and the behaviour it names (shy,
    aggressive) is returned to take the unit's actions. Panic goes first when it has both
    (docs/engine.md, "Readings")."""
    cid = p.cid
    state.emit(EventKind.ACTIVATE, p.controller, cid)
    if p.markers[Marker.POISON] > 0:
        p.markers[Marker.POISON] += 1
        state.emit(EventKind.MARKER, p.controller, cid, amount=1, detail=Marker.POISON)
        after_resolution(state)
        if cid not in state.perms:
            return None
    for marker, behaviour in (
        (Marker.PANIC, BehaviourKind.SHY),
        (Marker.RAGE, BehaviourKind.AGGRESSIVE),
    ):
        if p.markers[marker] > 0:
            p.markers[marker] -= 1
            state.emit(EventKind.MARKER, p.controller, cid, amount=-1, detail=marker)
            return behaviour
    return None


def continue_behaviour(state: GameState, run: BehaviourRun) -> None:
    """Announce the running behaviour's next action (it goes on the stack, R21.6), or end the
    behaviour: the unit's activation (R13.3, R13.4) or the Tyrant's turn (R21.15).

    R21.25: the Tyrant's unit is activated when its turn begins (its run's first step), like a
    player's unit; panic or rage then runs its behaviour for it once the intention is played
    (`tyrant.next_action`), and that behaviour's end is the end of the Tyrant's turn."""
    if run.kind == BehaviourKind.TYRANT:
        unit = state.perms.get(run.unit)
        if run.step == 0 and unit is not None:
            run = state.behaviour = run._replace(instead=wake(state, unit))
            if state.winners is not None:
                return  # poison defeated it (R13.2)
        item = tyrant.next_action(state, run)
        if item is None and run.instead is not None:
            run = state.behaviour = BehaviourRun(run.instead, run.unit)
            item = _behaviour_action(state, run)
    else:
        item = _behaviour_action(state, run)
    if item is not None:
        announce(state, item)
        return
    state.behaviour = None
    if state.phase == Phase.TYRANT:
        next_round(state)
        return
    if run.unit in state.perms:
        finish_unit(state, state.perms[run.unit])
    state.activated = -1


def _behaviour_action(state: GameState, run: BehaviourRun) -> StackItem | None:
    """A shy or aggressive behaviour's next action; none for a unit paralysed (R13.1: at its
    activation, or meanwhile by a response)."""
    unit = state.perms.get(run.unit)
    if unit is None or unit.markers[Marker.PARALYSIS] > 0:
        return None
    return next_action(state, run)


def finish_unit(state: GameState, p: Perm) -> None:
    """The unit is done for the turn: tapped, its actions used (R6.8, R21.5)."""
    p.tapped = True
    p.used_move = p.used_attack = True
    state.emit(EventKind.TAP, p.controller, p.cid)


def tap(state: GameState, a: Action) -> None:
    """R6.8: the player taps the activated unit instead of taking more of its actions."""
    finish_unit(state, state.perms[a.card])
    state.activated = -1


def unparalyse(state: GameState, a: Action) -> None:
    """R13.1: a paralysed unit spends one of its actions to remove one paralysis marker."""
    p = state.perms[a.card]
    _spend(p, a.index)
    p.markers[Marker.PARALYSIS] -= 1
    state.emit(EventKind.MARKER, p.controller, p.cid, amount=-1, detail=Marker.PARALYSIS)
    _after_unit_action(state, p.cid)


def unit_action(state: GameState, a: Action) -> None:
    """R6.3: using a unit is an action, announced onto the stack. R12.4: move and attack use
    their action; a full action (carry too, R15.2) uses both;
    swapping and equipping use the one the player chose (R15.3, R15.6). The action goes on the
    stack with the path of a move and the field it was announced from (R6.4)."""
    p = state.perms[a.card]
    path: tuple[int, ...] = ()
    if a.kind in (ActionKind.MOVE, ActionKind.CARRY):
        path = path_to(state, p, a.field) or (a.field,)
    if a.kind == ActionKind.MOVE:
        p.used_move = True
    elif a.kind == ActionKind.ATTACK:
        p.used_attack = True
    elif a.kind in (ActionKind.FULL, ActionKind.CARRY):
        p.used_move = p.used_attack = True
    else:
        _spend(p, a.index)
    announce(
        state,
        StackItem(
            StackKind.UNIT,
            p.controller,
            p.cid,
            a.index,
            a.target,
            a.field,
            _VERBS[a.kind],
            path,
            a.other,
            state.perm_field(p),
        ),
    )
    _after_unit_action(state, p.cid)


_VERBS = {ActionKind(verb.value): verb for verb in UnitVerb}
"""The unit verb each unit action announces (a dict: calling `UnitVerb(kind)` costs ~1 us)."""


def _after_unit_action(state: GameState, cid: int) -> None:
    """A unit whose move and attack are both used is done (R12.4)."""
    p = state.perms.get(cid)
    if p is not None and p.used_move and p.used_attack:
        finish_unit(state, p)
        state.activated = -1


def _spend(p: Perm, which: int) -> None:
    """Spend the action a swap, an equip or removing paralysis names (R13.1, R15.3, R15.6)."""
    if which == A.SPEND_ATTACK:
        p.used_attack = True
    else:
        p.used_move = True
