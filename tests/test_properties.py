"""Properties of whole games (hypothesis): random seeds, random choices of the shipped sets,
every shipped board, random agents. The default profile "ci" keeps this bounded; run
`HYPOTHESIS_PROFILE=long pytest -m slow` for 200 examples each.

Checked at every step (engine/invariants.py): every card is in exactly one zone (R8), no resource
is negative (R18.1, R7.1), no field holds two permanents outside a stack and none a ghost (R9.2,
R11.5, R11.6), terrain is respected (R9.5); the game always ends
(R21.13, R21.18); replaying the recorded actions from the seed gives the identical events.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.actions import parse_action
from engine.agents.random_agent import RandomAgent
from engine.game import Game
from engine.invariants import check_invariants
from engine.play import derive_seed, play_game
from tests.rules import rules

BOARDS = [
    "drowned-sanctum",
    "four-banners",
    "gold-rush",
    "kings-crossing",
    "three-hills",
    "tyrants-throne",
    "zwei-burgen",
]
SETS = ["iron-legion", "pestgericht", "sky-wardens", "tide-callers"]

seeds = st.integers(min_value=0, max_value=2**40)
set_choices = st.lists(st.sampled_from(SETS), min_size=2, max_size=3, unique=True)
boards = st.sampled_from(BOARDS)


def _setup(shipped, sets, board):
    return shipped.setup(tuple(sets), board)


def play_checked(config, seed: int) -> Game:
    game = Game(config, seed)
    agent = RandomAgent()
    rngs = [random.Random(derive_seed(seed, "seat", s)) for s in range(config.players)]
    steps = 0
    check_invariants(game.state)
    while not game.is_terminal():
        seat = game.current_player()
        legal = game.legal_actions()
        assert legal, "a live game with no legal action"
        game.apply(agent.act(game, legal, rngs[seat]), check=False)
        check_invariants(game.state)
        steps += 1
        assert steps < 100_000
    return game


def events_of(state_or_record) -> list[tuple[object, ...]]:
    ev = state_or_record.events
    return list(
        zip(
            ev.round,
            ev.turn,
            ev.phase,
            ev.player,
            ev.kind,
            ev.card,
            ev.target,
            ev.x,
            ev.y,
            ev.amount,
            ev.detail,
            strict=True,
        )
    )


@rules("R8", "R9.2", "R18.1")
@given(seed=seeds, sets=set_choices, board=boards)
def test_invariants_at_every_step_and_the_game_ends(shipped, seed, sets, board):
    setup = _setup(shipped, sets, board)
    game = play_checked(setup.config, seed)
    s = game.state
    assert s.winners is not None
    assert s.round <= setup.config.board.round_limit


@given(seed=seeds, sets=set_choices, board=boards)
def test_replay_of_recorded_actions_gives_identical_events(shipped, seed, sets, board):
    setup = _setup(shipped, sets, board)
    n = setup.config.players
    record = play_game(setup.config, seed, [RandomAgent() for _ in range(n)])
    replay = Game(setup.config, seed)
    for text in record.actions:
        replay.apply(parse_action(text, 0))
    assert replay.is_terminal()
    assert events_of(replay.state) == events_of(record)
    assert (replay.state.winners or ()) == record.winners


@pytest.mark.parametrize("board", BOARDS)
def test_every_shipped_board_plays_to_the_end(shipped, board):
    setup = _setup(shipped, ("iron-legion", "tide-callers"), board)
    game = play_checked(setup.config, derive_seed("board", board))
    assert game.is_terminal()


@pytest.mark.slow
@given(seed=seeds, sets=set_choices, board=boards)
def test_long_invariants(shipped, seed, sets, board):
    setup = _setup(shipped, sets, board)
    play_checked(setup.config, seed)


@given(seed=seeds, sets=set_choices, board=boards)
def test_the_referee_finds_nothing_in_random_games(shipped, seed, sets, board):
    """`workbench check`'s referee (a second reading of the rules, docs/check.md) over the
    events of random games on the shipped content: no violation."""
    from workbench.fuzz import referee

    game = play_checked(_setup(shipped, sets, board).config, seed)
    assert referee(game) == []
