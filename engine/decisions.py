"""The answers to the choices the rules hand a player in the middle of the flow (`Decision`):
a discard (R6.7, R8.6, effects), where a dropped permanent goes (R11.6), the target of a
triggered action (R6.4)."""

from __future__ import annotations

from dataclasses import replace

from engine.actions import Action
from engine.choices import Decision, DiscardChoice, PlaceChoice
from engine.permanents import destroy, place
from engine.stack import after_resolution, announce
from engine.state import GameState, StackItem
from engine.vocab import DestroyCause, DiscardReason, StackKind
from engine.zones import discard_from_hand


def answer(state: GameState, a: Action) -> None:
    """The player answers the first waiting decision."""
    pd = state.pending.pop(0)
    if isinstance(pd, DiscardChoice):
        discard_from_hand(state, pd.player, a.card, DiscardReason.EFFECT)
        if pd.count > 1:
            state.pending.insert(0, replace(pd, count=pd.count - 1))
    elif isinstance(pd, PlaceChoice):
        place(state, state.perms[pd.card], a.field)
        # R12.2, R13.2: the checks the drop's resolution ran skipped it while it waited
        after_resolution(state)
    else:
        announce(
            state,
            StackItem(
                StackKind.TRIGGER,
                pd.player,
                pd.source,
                -1 if pd.trigger is None else pd.trigger,
                a.target,
            ),
        )


def settle(state: GameState) -> bool:
    """Drop the void decisions: a choice about a permanent that has since left the board, a
    discard from an empty hand. A dropped permanent with no available field left is destroyed
    (R11.6); returns True when that happened (the state-based checks follow)."""
    while state.pending and _stale(state, state.pending[0]):
        state.pending.pop(0)
    pd = state.pending[0] if state.pending else None
    if isinstance(pd, PlaceChoice) and all(state.occ[f] >= 0 for f in pd.fields):
        state.pending.pop(0)
        destroy(state, state.perms[pd.card], DestroyCause.NO_ROOM_TO_DROP, pd.player, pd.origin)
        after_resolution(state)
        return True
    return False


def _stale(state: GameState, pd: Decision) -> bool:
    if isinstance(pd, DiscardChoice):
        return not state.players[pd.player].hand
    return isinstance(pd, PlaceChoice) and pd.card not in state.perms
