"""The turn (R4): its steps in order, the end of the action phase (R21.5), the end of the turn
and of the round (R21.13, R21.15), and the guards against endless games (R21.18)."""

from __future__ import annotations

from engine import tyrant
from engine.actions import Action
from engine.board import VictoryKind
from engine.cards import CardType
from engine.stack import pass_priority
from engine.state import GameState
from engine.victory import end_game, round_limit_reached
from engine.vocab import EventKind, Phase
from engine.zones import HAND_SIZE, draw, shuffle_discard_into_deck


def set_phase(state: GameState, phase: Phase) -> None:
    """Enter a step of the turn (R4), with its event."""
    state.phase = phase
    state.emit(EventKind.PHASE, state.active, detail=phase)


def start_turn(state: GameState) -> None:
    """R21.4 untap; R4.1 refill an empty deck; R4.2 draw up to 3 (R1.4); then upkeep (R4.3)."""
    seat = state.active
    state.turn += 1
    state.actions_this_turn = 0
    pl = state.players[seat]
    pl.bought = False
    set_phase(state, Phase.START)
    state.emit(EventKind.TURN, seat, amount=state.turn)
    for p in state.perms.values():
        if p.controller == seat:
            p.tapped = False
            p.used_move = p.used_attack = False
    if not pl.deck and pl.discard:
        shuffle_discard_into_deck(state, seat)
    draw(state, seat, HAND_SIZE - len(pl.hand))
    set_phase(state, Phase.UPKEEP)


def end_action_phase(state: GameState) -> None:
    """R21.5: remaining untapped permanents are tapped; then buy (R4.5)."""
    for p in state.perms.values():
        if p.controller == state.active:
            p.tapped = True
    state.activated = -1
    set_phase(state, Phase.BUY)


def end_buy_step(state: GameState, held: int) -> None:
    """The buy step ends (R4.5) with a card bought or none; `held`, the resource the player
    bought or passed with, is snapshotted: what the store's prices were measured against (fast
    actions in the buy step, R21.24, may have gained some since it began). Then the discard
    step (R4.6)."""
    state.players[state.active].buy_resource = held
    set_phase(state, Phase.DISCARD)


def pass_(state: GameState, _: Action) -> None:
    """Pass: in a response window, let the stack resolve (R21.6); in the action phase, end it
    (R21.5); in the buy step, buy nothing (R4.5, R7)."""
    if state.priority:
        pass_priority(state)
    elif state.phase == Phase.ACTION:
        end_action_phase(state)
    elif state.phase == Phase.BUY:
        end_buy_step(state, state.players[state.active].resource)


def end_turn(state: GameState) -> None:
    """Snapshot the economy; the next seat, or the Tyrant and a new round (R21.15)."""
    seat = state.active
    pl = state.players[seat]
    units = sum(
        1
        for p in state.perms.values()
        if p.controller == seat and state.cards[p.cid].type is CardType.UNIT
    )
    state.snapshots.add(
        state.round,
        seat,
        pl.resource,
        pl.income,
        pl.spend_buy,
        pl.spend_play,
        pl.spend_upkeep,
        pl.spend_free,
        pl.discard_gain,
        pl.upkeep_paid,
        pl.upkeep_deaths,
        len(pl.hand),
        len(pl.deck),
        len(pl.discard),
        len(pl.store),
        units,
        pl.points,
        pl.resource_start,
        pl.card_gain,
        pl.card_loss,
        pl.buy_resource,
        int(pl.bought),
    )
    pl.reset_counters()
    state.emit(EventKind.END_TURN, seat)
    if seat + 1 < len(state.players):
        state.active = seat + 1
        start_turn(state)
        return
    if state.config.board.victory.kind is VictoryKind.TYRANT and tyrant.begin_turn(state):
        return  # the Tyrant's turn runs as a behaviour; the new round follows it
    next_round(state)


def end(state: GameState, _: Action) -> None:
    """R4.6: done discarding, the turn ends."""
    end_turn(state)


def next_round(state: GameState) -> None:
    """The round limit (R21.13), else a new round from the first seat."""
    if round_limit_reached(state):
        return
    state.round += 1
    state.active = 0
    state.emit(EventKind.ROUND, -1, amount=state.round)
    start_turn(state)


def guard(state: GameState) -> bool:
    """R21.18: a turn with more than the guard's number of actions ends the game as a draw."""
    state.actions_this_turn += 1
    if state.actions_this_turn > state.config.action_guard:
        state.guard_stopped = True
        end_game(state, (), "action guard")
        return True
    return False


def stop_at_game_guard(state: GameState) -> None:
    """R21.18 for a whole game: the per-turn guard misses an endless round limit on a board
    nobody can win, and a chain of triggers that needs no decision; a game that takes more
    than the game guard's number of steps (`state.steps`, counted by the game's loop) ends as
    a draw, flagged like the per-turn guard."""
    state.guard_stopped = True
    end_game(state, (), "game guard")


def team_of(state: GameState, seat: int) -> tuple[int, ...]:
    """The seats that win with `seat` (R19, R21.15)."""
    team = state.players[seat].team
    return tuple(s for s, pl in enumerate(state.players) if pl.team == team)
