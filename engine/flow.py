"""The flow of a game: each player action reaches the rule it carries out through one table
keyed by its kind (`ACTIONS`), and `advance` runs every automatic step (the turn's steps, the
stack's resolutions, behaviours, void decisions) until some player has a real decision (more
than one legal action) or the game is over. Forced single choices are taken here, so agents only
see real decisions and a replay of the recorded actions reproduces the game.

The rules live in the modules named after them: `draft` (R3), `turn` (R4, R21.5, R21.18),
`upkeep` (R5), `costs` (R6.2, R6.7, R8.6), `activation` (R6.8, R12.4, R13), `stack` (R6.9,
R21.6), `buying` (R7), `zones` (R4.6, R8), `decisions` (R6.4, R11.6).
"""

from __future__ import annotations

from collections.abc import Callable

from engine import activation, buying, costs, decisions, draft, turn, upkeep, zones
from engine.actions import Action
from engine.legal import legal_actions, may_respond
from engine.stack import pass_priority, resolve_top
from engine.state import GameState
from engine.vocab import ActionKind, Phase

ACTIONS: dict[ActionKind, Callable[[GameState, Action], None]] = {
    ActionKind.PICK: draft.pick,
    ActionKind.PAY: upkeep.pay_upkeep,
    ActionKind.REFUSE: upkeep.refuse_upkeep,
    ActionKind.PLAY: costs.play,
    ActionKind.FREE: costs.free,
    ActionKind.CONVERT: costs.convert,
    ActionKind.ACTIVATE: activation.activate,
    ActionKind.TAP: activation.tap,
    ActionKind.UNPARALYSE: activation.unparalyse,
    ActionKind.MOVE: activation.unit_action,
    ActionKind.ATTACK: activation.unit_action,
    ActionKind.FULL: activation.unit_action,
    ActionKind.CARRY: activation.unit_action,
    ActionKind.SWAP: activation.unit_action,
    ActionKind.EQUIP: activation.unit_action,
    ActionKind.PASS: turn.pass_,
    ActionKind.BUY: buying.buy,
    ActionKind.DISCARD: zones.discard_at_end_of_turn,
    ActionKind.END: turn.end,
    ActionKind.PLACE: decisions.answer,
    ActionKind.TARGET: decisions.answer,
}
"""The rule each kind of action carries out. While a decision waits (`state.pending`), every
legal action answers it (`decisions.answer`), a discard too."""

STEPS: dict[Phase, Callable[[GameState], None]] = {
    Phase.START: turn.start_turn,
    Phase.UPKEEP: upkeep.upkeep,
    Phase.UPKEEP_PAY: upkeep.queue_upkeep,
    Phase.UPKEEP_DUE: upkeep.end_upkeep,
}
"""The automatic step each phase without a decision takes."""

_DECIDING = (Phase.DRAFT, Phase.ACTION, Phase.BUY, Phase.DISCARD)
"""The phases in which the current player has a decision, stack or not."""


def apply(state: GameState, a: Action) -> None:
    """Carry out one action of the current player (counted by the turn's guard, R21.18)."""
    if state.phase != Phase.DRAFT and turn.guard(state):
        return
    if state.pending:
        decisions.answer(state, a)
        return
    handler = ACTIONS.get(a.kind)
    if handler is None:
        raise ValueError(f"unknown action kind {a.kind!r}")
    handler(state, a)


def advance(state: GameState) -> list[Action] | None:
    """Run automatic steps, taking forced single choices (they are not logged), until a player
    has a real decision or the game is over: the decision's legal actions, or None when they
    were not needed to tell (the game is over, or a response window in which the player may
    convert, R8.6, R21.6: `legal_actions` lists them when asked)."""
    limit = state.config.game_guard
    draft_, upkeep_due = Phase.DRAFT, Phase.UPKEEP_DUE  # a member read is slow on Python 3.11
    while state.winners is None:
        state.steps += 1
        if state.steps > limit:
            turn.stop_at_game_guard(state)
            return None
        if state.priority and not state.pending and state.phase != draft_:
            seat = state.priority[0]
            if len(state.players[seat].hand) >= 2:
                return None  # R8.6: it may convert, a real decision (listed on demand)
            if not may_respond(state, seat):
                pass_priority(state)  # only passing: the window does not need the seat (R21.6)
                continue
        if state.pending and decisions.settle(state):  # only a waiting decision can be void
            continue
        if state.behaviour is not None and not (state.pending or state.priority or state.stack):
            activation.continue_behaviour(state, state.behaviour)
            continue
        if not (
            state.pending
            or state.priority
            or state.phase in _DECIDING
            or (state.phase == upkeep_due and upkeep.upkeep_owed(state))
        ):
            if state.stack:
                resolve_top(state)
            else:
                STEPS[state.phase](state)
            continue
        waiting = state.phase == draft_ or bool(state.pending)
        if not waiting and not state.priority and state.stack:
            resolve_top(state)
            continue
        options = legal_actions(state)
        if not waiting and state.priority and len(options) == 1:
            pass_priority(state)  # only passing: the window does not need the seat (R21.6)
            continue
        if len(options) > 1:
            return options
        if not options:
            raise RuntimeError(f"no legal action in phase {state.phase}")
        apply(state, options[0])
    return None
