"""Upkeep (R5): the staff and capture points at its start (R21.12, R21.14), income (R5.1,
R18.2), upkeep triggers (R5.2), then paying for each unit or refusing (R5.3, R21.7, R21.16,
R21.21)."""

from __future__ import annotations

from engine.actions import Action
from engine.board import VictoryKind
from engine.cards import CardType
from engine.permanents import destroy
from engine.stack import after_resolution, queue_triggers
from engine.state import GameState
from engine.turn import set_phase, team_of
from engine.victory import check_victory, end_game, score_capture_points, staff_holder
from engine.vocab import DestroyCause, EventKind, Phase, ResourceReason
from engine.zones import gain, lose, pay


def upkeep(state: GameState) -> None:
    """R5: the staff (R21.12) and capture points (R21.14) at its start, income (R5.1, R18.2),
    upkeep triggers (R5.2); paying for units follows once the triggers resolved (R5.3)."""
    seat = state.active
    board = state.config.board
    if board.victory.kind is VictoryKind.STAFF and staff_holder(state) == seat:
        end_game(state, team_of(state, seat), "staff of victory")
        return
    if board.victory.kind is VictoryKind.CAPTURE:
        score_capture_points(state, seat)
        if state.winners is not None:
            return
    units = [
        p
        for p in state.perms.values()
        if p.controller == seat and state.cards[p.cid].type is CardType.UNIT
    ]
    fields_income = sum(board.fields[p.field].income for p in units if p.field >= 0)
    income = board.income + board.unit_income * len(units) + fields_income
    if income > 0:
        gain(state, seat, income, ResourceReason.INCOME)
    elif income < 0:
        lose(state, seat, -income, ResourceReason.INCOME)
    check_victory(state)
    for cid in sorted(p.cid for p in state.perms.values() if p.controller == seat):
        queue_triggers(state, cid, "upkeep", seat)
    set_phase(state, Phase.UPKEEP_PAY)


def queue_upkeep(state: GameState) -> None:
    """R5.3, R21.16: once the upkeep triggers resolved (R5.2), the units that cost upkeep are
    due; paying is the player's decision (R21.21, phase `upkeep_due`)."""
    seat = state.active
    cards = state.cards
    state.upkeep_due = [
        cid
        for cid in sorted(state.perms)
        if state.perms[cid].controller == seat
        and cards[cid].type is CardType.UNIT
        and (cards[cid].upkeep or 0) > 0
    ]
    set_phase(state, Phase.UPKEEP_DUE if state.upkeep_due else Phase.ACTION)


def upkeep_owed(state: GameState) -> bool:
    """Whether units still wait for payment; drops the ones that left the board or changed
    controller (a fast action may have removed them)."""
    due = state.upkeep_due
    if due:
        due[:] = [c for c in due if c in state.perms and state.perms[c].controller == state.active]
    return bool(due)


def pay_upkeep(state: GameState, a: Action) -> None:
    """R5.3: pay one due unit's upkeep."""
    cid = a.card
    seat = state.active
    up = state.cards[cid].upkeep or 0
    pay(state, seat, up, ResourceReason.UPKEEP)
    state.players[seat].upkeep_paid += up
    state.upkeep_due.remove(cid)
    state.emit(EventKind.UPKEEP, seat, cid, amount=up, detail="paid")


def refuse_upkeep(state: GameState, _: Action) -> None:
    """R5.3, R21.7: the player pays no more; every unit still unpaid is defeated."""
    seat = state.active
    pl = state.players[seat]
    for cid in state.upkeep_due:
        p = state.perms.get(cid)
        if p is None:  # gone with a stack destroyed before it (R11.6)
            continue
        state.emit(
            EventKind.UPKEEP, seat, cid, amount=state.cards[cid].upkeep or 0, detail="refused"
        )
        pl.upkeep_deaths += 1
        destroy(state, p, DestroyCause.UPKEEP, seat)
    state.upkeep_due.clear()
    after_resolution(state)


def end_upkeep(state: GameState) -> None:
    """Every due unit is paid for or defeated: the action phase begins (R4.4)."""
    set_phase(state, Phase.ACTION)
