"""Properties of whole games (hypothesis): random seeds, random choices of the shipped sets,
every shipped board, random agents. The default profile "ci" keeps this bounded; run
`HYPOTHESIS_PROFILE=long pytest -m slow` for 200 examples each.

Checked at every step: every card is in exactly one zone (R8), no resource is negative (R18.1,
R7.1), no field holds two permanents outside a stack (R9.2, R11.5); the game always ends
(R21.13, R21.18); replaying the recorded actions from the seed gives the identical events.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.actions import parse_action
from engine.agents.random_agent import RandomAgent
from engine.game import Game
from engine.play import derive_seed, play_game
from engine.state import GameState

BOARDS = ["drowned-sanctum", "four-banners", "gold-rush", "kings-crossing", "three-hills",
          "tyrants-throne", "zwei-burgen"]
SETS = ["iron-legion", "pestgericht", "sky-wardens", "tide-callers"]

seeds = st.integers(min_value=0, max_value=2**40)
set_choices = st.lists(st.sampled_from(SETS), min_size=2, max_size=3, unique=True)
boards = st.sampled_from(BOARDS)


def zone_occurrences(state: GameState) -> Counter[int]:
    """How many zone lists hold each card id (the board counts permanents and their stacks)."""
    count: Counter[int] = Counter()
    for pl in state.players:
        for z in (pl.deck, pl.hand, pl.discard, pl.store, pl.equip_next):
            count.update(z)
    count.update(state.perms.keys())
    count.update(it.source for it in state.stack if it.kind in ("card", "play_intention"))
    count.update(state.set_aside)
    count.update(state.tyrant_deck)
    count.update(state.tyrant_discard)
    count.update(state.out)
    for p in state.packs:
        count.update(p)
    for p in state.unopened:
        count.update(p)
    return count


def check_invariants(state: GameState) -> None:
    occ = zone_occurrences(state)
    n = len(state.cards)
    doubles = {c: k for c, k in occ.items() if k != 1}
    assert not doubles, f"cards in more than one zone: {doubles}"
    missing = [c for c in range(n) if occ[c] == 0]
    assert not missing, f"cards in no zone: {missing}"
    assert all(state.zone_of(c) != "nowhere" for c in range(0, n, max(1, n // 25)))
    assert all(pl.resource >= 0 for pl in state.players)
    on_field: Counter[int] = Counter()
    for cid, p in state.perms.items():
        if p.field >= 0:
            on_field[p.field] += 1
            assert state.occ[p.field] == cid, f"occ of field {p.field} is not {cid}"
        if p.under >= 0:
            assert cid in state.perms[p.under].stack and p.field < 0
    assert all(k == 1 for k in on_field.values()), "two permanents on one field"
    assert sum(1 for o in state.occ if o >= 0) == len(on_field)


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
    return list(zip(ev.round, ev.turn, ev.phase, ev.player, ev.kind, ev.card, ev.target, ev.x,
                    ev.y, ev.amount, ev.detail))


@given(seed=seeds, sets=set_choices, board=boards)
def test_R8_R9_2_R18_1_invariants_at_every_step_and_the_game_ends(shipped, seed, sets, board):
    setup = _setup(shipped, sets, board)
    game = play_checked(setup.config, seed)
    s = game.state
    assert s.winners is not None
    assert s.round <= setup.config.board.round_limit


@given(seed=seeds, sets=set_choices, board=boards)
def test_replay_of_recorded_actions_gives_identical_events(shipped, seed, sets,
                                                                         board):
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
