"""The look-ahead agent ("selective look-ahead on close calls"): it looks ahead
only on close calls, the look-ahead spares a unit the heuristic's choice loses to the answer,
and it plays every board deterministically per seed."""

from __future__ import annotations

import random

import pytest

from engine.actions import Action
from engine.agents.heuristic import HeuristicAgent, score_actions
from engine.agents.lookahead import LookaheadAgent, close_calls
from engine.agents.registry import make_agent
from engine.agents.search import play_on, rest_of_turn
from engine.board import Victory, VictoryKind
from engine.game import Game
from engine.vocab import ActionKind
from tests.builder import Position, board, unit
from tests.test_agents import BOARDS, SETS, play_checked, short_config


def _knight_before_the_area() -> tuple[Game, int]:
    """Seat 0's Knight (life 2) activated one field before a capture area (R19.3); the enemy
    Brute (move 1, attack 3) stands two fields beyond the area's near field."""
    knight = unit("Knight", life=2, move=1, attack=2)
    brute = unit("Brute", life=5, move=1, attack=3)
    vic = Victory(VictoryKind.CAPTURE, target=3)
    pos = Position(board(". . . A A . . .", victory=vic), [knight, brute])
    pos.idle(0, 0, 0)
    pos.idle(1, 7, 0)
    k = pos.put(knight, 0, 2, 0)
    pos.put(brute, 1, 5, 0)
    game = pos.game()
    game.apply(next(a for a in game.legal_actions() if a.kind == "activate" and a.card == k))
    return game, k


def _survives_the_answer(game: Game, knight: int, first: Action) -> bool:
    """Whether the Knight still stands after `first`, the rest of the turn and the enemy's
    turn, everyone playing the heuristic."""
    h = HeuristicAgent()
    end = rest_of_turn(game, first, h)
    play_on(end, 0, random.Random(1), end.state.turn + 1, 0.0, h)
    return knight in end.state.perms


def test_the_look_ahead_spares_the_unit_the_heuristics_move_loses() -> None:
    """The heuristic steps onto the area (R19.3), where the Brute's answer defeats the Knight
    (R12.2); 2 points ahead of ending the activation. With a margin of 2.5 that is a close
    call: looking through the answer, the agent stays and the Knight survives. With a margin
    of 1 it is not, and the agent plays the heuristic's move without looking."""
    game, knight = _knight_before_the_area()
    legal = game.legal_actions()
    scored = sorted(score_actions(game.state, legal), key=lambda x: -x[0])
    move, tap = scored[0][1], scored[1][1]
    assert (move.kind, tap.kind) == (ActionKind.MOVE, ActionKind.TAP)
    assert scored[0][0] - scored[1][0] == pytest.approx(2.0)
    assert not _survives_the_answer(game, knight, move)
    assert _survives_the_answer(game, knight, tap)
    wide = LookaheadAgent(margin=2.5, horizon=1, focus=False)
    assert wide.act(game, legal, random.Random(1)) == tap
    assert wide.looks == 1
    narrow = LookaheadAgent(margin=1.0, horizon=1, focus=False)
    assert narrow.act(game, legal, random.Random(1)) == move
    assert narrow.looks == 0


def test_focused_close_calls_are_about_passing_attacking_or_free_actions() -> None:
    """Within the margin and the width, best first; focused, a tie between two activations
    (which unit first) is no close call, one between an activation and a pass is."""
    act_a, act_b = Action(ActionKind.ACTIVATE, 1), Action(ActionKind.ACTIVATE, 2)
    pass_ = Action(ActionKind.PASS)
    scored = [(0.5, act_a), (3.0, act_b), (2.5, pass_)]
    assert close_calls(scored, 2, 1.0, focus=False) == [act_b, pass_]
    assert close_calls(scored, 2, 0.4, focus=False) == [act_b]
    assert close_calls(scored, 3, 3.0, focus=False) == [act_b, pass_, act_a]
    assert close_calls(scored, 2, 1.0) == [act_b, pass_]
    alike = [(3.0, act_a), (3.0, act_b), (0.0, pass_)]
    assert close_calls(alike, 2, 1.0, focus=False) == [act_a, act_b]
    assert close_calls(alike, 2, 1.0) == [act_a]


@pytest.mark.parametrize("board_name", BOARDS)
def test_lookahead_agent_plays_every_board_deterministically(board_name: str) -> None:
    cfg = short_config(board_name, SETS[0], 4)
    a = play_checked(cfg, 11, ["lookahead", "heuristic"]).state.action_log
    b = play_checked(cfg, 11, ["lookahead", "heuristic"]).state.action_log
    assert a == b
    assert make_agent("lookahead:margin=0.5+width=3+horizon=1+focus=0").name == "lookahead"


def test_later_close_calls_of_a_turn_reuse_the_plan() -> None:
    """Whole games on zwei-burgen: the agent looks ahead, and a close call on the path its last
    look-ahead chose takes that path's value instead of playing it again (fewer rollouts than
    two a look)."""
    cfg = short_config("zwei-burgen", SETS[0], 5)
    agent = LookaheadAgent(focus=False)
    game = Game(cfg, 3)
    h = HeuristicAgent()
    rngs = [random.Random(s) for s in range(cfg.players)]
    while not game.is_terminal():
        seat = game.current_player()
        who = agent if seat == 0 and game.state.phase != "draft" else h
        game.apply(who.act(game, game.legal_actions(), rngs[seat]), check=True)
    assert agent.looks > 10
    assert agent.rollouts < 2 * agent.looks
