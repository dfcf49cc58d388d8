"""The Tyrant's side (R17, R21.15, R21.19, R21.23, R21.25): intentions, their markers and the
Tyrant's own turn.

Intentions are spells in the Tyrant's own deck (R17.1), shuffled at the start (`draft.start_game`).
The game drives it: after the last player each round its unit is activated like a player's
(R21.25, `engine.activation`), then it plays the top intention when no marker is on the board
(R17.2). Adjacent to a marker that was on the board when the turn began, before it has moved, it
uses the full action of R17.3 to carry the intention out; an intention played this turn waits
for its next turn (R21.19). Otherwise it moves toward the marker (R20.2) and may attack an enemy
permanent in range, never the one that carries its marker (R21.19). Each of these actions goes
on the stack with a response window like any other (R21.6): `next_action` gives the next one,
the flow announces it. An intention is a spell: protection from spells keeps it off a permanent
and its effect from damaging it, protection from units does not (R21.23).
"""

from __future__ import annotations

from engine.behaviours import approach, in_reach, nearest_target
from engine.board import TYRANT
from engine.effects import candidates, chosen_spec, resolve, target_legal
from engine.markers import Marker
from engine.state import BehaviourRun, GameState, Perm, StackItem
from engine.vocab import BehaviourKind, EventKind, Phase, StackKind, UnitVerb


def tyrant_unit(state: GameState) -> Perm | None:
    for p in state.perms.values():
        if state.cards[p.cid].keywords.tyrant:
            return p
    return None


def marker_field(state: GameState) -> int:
    if state.marker_perm >= 0 and state.marker_perm in state.perms:
        return state.perm_field(state.perms[state.marker_perm])
    return state.marker_field


def next_to_marker(state: GameState, unit: Perm) -> bool:
    """R17.3: the intention marker gives its full action to the unit next to it."""
    return state.config.geometry.dist(state.perm_field(unit), marker_field(state)) <= 1


def begin_turn(state: GameState) -> bool:
    """R21.15: the Tyrant's turn after the last player's; False when it has no unit."""
    unit = tyrant_unit(state)
    if unit is None:
        return False
    state.phase = Phase.TYRANT
    state.acting = TYRANT
    state.emit(EventKind.TURN, TYRANT, detail="tyrant")
    unit.used_move = unit.used_attack = False
    # R21.19: only a marker already on the board now may be carried out this turn
    state.behaviour = BehaviourRun(BehaviourKind.TYRANT, unit.cid, target=state.marker_card)
    return True


def next_action(state: GameState, run: BehaviourRun) -> StackItem | None:
    """The Tyrant's next action this turn, or None when its turn is over (or, with panic or
    rage, when the intention is played and the behaviour takes over: `run.instead`, R21.25)."""
    unit = state.perms.get(run.unit)
    if unit is None:
        return None
    steps = _STEPS if run.instead is None else _STEPS[:1]
    for step in range(run.step, len(steps)):
        state.behaviour = run._replace(step=step + 1)
        item = steps[step](state, unit, run)
        if item is not None:
            return item
    return None


def _intend(state: GameState, unit: Perm, run: BehaviourRun) -> StackItem | None:
    """R17.2: with no marker on the board, the top intention is played onto its target (the
    nearest legal one). R21.23: an intention is a spell, so the intention card, not the
    Tyrant's unit, is what a target's protection is checked against."""
    if state.marker_card >= 0:
        return None
    if not state.tyrant_deck and state.tyrant_discard:
        state.tyrant_deck = state.tyrant_discard
        state.tyrant_discard = []
        state.rng.shuffle(state.tyrant_deck)
        state.emit(EventKind.SHUFFLE, TYRANT, amount=len(state.tyrant_deck), detail="tyrant")
    if not state.tyrant_deck:
        return None
    cid = state.tyrant_deck.pop()
    spec = chosen_spec(state.cards[cid].effects)
    geo = state.config.geometry
    here = state.perm_field(unit)
    target = -1
    if spec is not None:
        options = [
            t for t in candidates(state, TYRANT, cid, spec, targeting=True) if t in state.perms
        ]
        if not options:
            state.tyrant_discard.append(cid)
            state.emit(EventKind.FIZZLE, TYRANT, cid, detail="intention without target")
            return None
        target = min(options, key=lambda t: (geo.dist(here, state.perm_field(state.perms[t])), t))
    return StackItem(
        StackKind.PLAY_INTENTION, TYRANT, cid, target=target, field=here, other=unit.cid
    )


def _shake_off(state: GameState, unit: Perm, run: BehaviourRun) -> StackItem | None:
    """R13.1: a paralysed Tyrant takes none of its actions; it spends each unused one to remove
    a paralysis marker (the move first), and acts with what is left once it is free."""
    if unit.markers[Marker.PARALYSIS] > 0 and not unit.used_move:
        unit.used_move = True
        _remove_paralysis(state, unit)
    if unit.markers[Marker.PARALYSIS] > 0 and not unit.used_attack:
        unit.used_attack = True
        _remove_paralysis(state, unit)
    return None


def _remove_paralysis(state: GameState, unit: Perm) -> None:
    unit.markers[Marker.PARALYSIS] -= 1
    state.emit(EventKind.MARKER, unit.controller, unit.cid, amount=-1, detail=Marker.PARALYSIS)


def _act(state: GameState, unit: Perm, run: BehaviourRun) -> StackItem | None:
    """R21.19: adjacent to its marker before moving, the full action of R17.3 (it uses both
    actions); otherwise a move toward the marker (R20.2). A marker played this turn was not on
    the board when the turn began (`run.target`): the Tyrant only moves toward it, the players
    get a round to answer. With no marker out it does nothing. A move spent on paralysis
    (R13.1) leaves it neither."""
    if unit.used_move:
        return None
    mf = marker_field(state)
    if state.marker_card < 0 or mf < 0:
        unit.used_move = unit.used_attack = True
        return None
    if state.marker_card == run.target and next_to_marker(state, unit):
        unit.used_move = unit.used_attack = True
        return StackItem(StackKind.INTENTION, TYRANT, unit.cid, state.marker_card)
    unit.used_move = True
    return approach(state, unit, mf)


def _attack(state: GameState, unit: Perm, run: BehaviourRun) -> StackItem | None:
    """R21.19: after moving, attack the nearest enemy permanent in range (R20.2: ties, the
    weakest), never the one that carries the Tyrant's own marker. Paralysed meanwhile (a
    response), it spends the attack on a paralysis marker instead (R13.1)."""
    if unit.markers[Marker.PARALYSIS] > 0:
        return _shake_off(state, unit, run)
    if unit.used_attack:
        return None
    unit.used_attack = True
    t = nearest_target(state, unit, exclude=state.marker_perm)
    if t is None or not in_reach(state, unit, t):
        return None
    return StackItem(StackKind.UNIT, TYRANT, unit.cid, target=t.cid, verb=UnitVerb.ATTACK)


_STEPS = (_intend, _shake_off, _act, _attack)


def resolve_play(state: GameState, item: StackItem) -> None:
    """R17.2: the intention's marker goes onto its target, re-checked now (R6.4; against the
    intention, a spell, R21.23); the card is set aside until the marker leaves the board.
    Without its target it is discarded."""
    cid, target = item.source, item.target
    spec = chosen_spec(state.cards[cid].effects)
    if target >= 0 and (
        spec is None
        or item.other not in state.perms
        or not target_legal(state, TYRANT, cid, spec, target)
    ):
        state.tyrant_discard.append(cid)
        state.emit(
            EventKind.FIZZLE,
            TYRANT,
            cid,
            target if target in state.perms else -1,
            detail="intention",
        )
        return
    field_ = state.perm_field(state.perms[target]) if target >= 0 else item.field
    state.set_aside.append(cid)
    state.marker_card, state.marker_perm = cid, target
    state.marker_field = field_ if target < 0 else -1
    state.emit(EventKind.INTENTION, TYRANT, cid, target, field_)


def resolve_intention(state: GameState, item: StackItem) -> None:
    """R17.3: remove the marker and apply the intention's effect; the card is discarded. The
    action fizzles when the marker has left the board meanwhile (R17.4), or when the Tyrant no
    longer stands next to it (a response pushed one of them away: checked again, R6.4).
    R21.23: the effect is the intention's, a spell's: its target and damage are checked against
    the intention card (protection from spells stops it, from units does not); a push in it
    starts from the Tyrant's field (R14.1: the field chosen for it)."""
    cid, target = state.marker_card, state.marker_perm
    tyrant = state.perms.get(item.source)
    if cid < 0 or cid != item.index or tyrant is None or not next_to_marker(state, tyrant):
        state.emit(EventKind.FIZZLE, TYRANT, item.source, detail="intention")
        return
    state.emit(EventKind.MARKER, TYRANT, cid, target, detail="intention carried out")
    state.set_aside.remove(cid)
    state.marker_card = state.marker_perm = state.marker_field = -1
    resolve(state, TYRANT, cid, state.cards[cid].effects, target, state.perm_field(tyrant))
    state.tyrant_discard.append(cid)
    state.intentions_done += 1
    state.emit(EventKind.INTENTIONS, TYRANT, amount=state.intentions_done)
