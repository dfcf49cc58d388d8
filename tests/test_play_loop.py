"""The play loop's shortcut changes its speed, never its games: a
seat whose agent declares `engine.play.Passer` has its response-window passes (R21.6) applied
without the legal actions being listed, and plays the game the full list gives it; an agent
whose pass there is not certain (`eps` draws a random action) does not declare it."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from engine.agents.heuristic import HeuristicAgent
from engine.agents.registry import make_agent
from engine.game import Game
from engine.play import Agent, Passer, derive_seed, play_game
from engine.record import GameRecord
from engine.state import GameConfig, GameState
from engine.vocab import Phase
from tests.rules import rules
from tests.test_search_speed import short_config
from workbench.content.setup import load_setup


def full_list_game(config: GameConfig, seed: int, agents: Sequence[Agent]) -> GameRecord:
    """The loop before the shortcut: every decision lists its legal actions and asks the seat."""
    game = Game(config, seed)
    rngs = [random.Random(derive_seed(seed, "seat", s)) for s in range(len(agents))]
    while not game.is_terminal():
        seat = game.current_player()
        legal = game.legal_actions()
        game.apply(agents[seat].act(game, legal, rngs[seat]), check=False)
    return game.record()


class Counted(HeuristicAgent):
    """The heuristic, counting the windows it tells it passes."""

    def __init__(self) -> None:
        super().__init__()
        self.skipped = 0

    def passes(self, state: GameState) -> bool:
        out = super().passes(state)
        self.skipped += out
        return out


@rules("R21.6", "R8.6")
@pytest.mark.parametrize(
    "specs", [["explorer"], ["heuristic", "random"], ["heuristic:eps=0.2"], ["lookahead"]]
)
def test_passers_play_the_games_of_the_full_list(specs: list[str]) -> None:
    """Every seat's actions, in order, and the result equal the full list's, seat mixes too."""
    cfg = load_setup().config
    agents = [make_agent(specs[s % len(specs)]) for s in range(cfg.players)]
    for seed in range(3):
        fast, full = play_game(cfg, seed, agents), full_list_game(cfg, seed, agents)
        assert fast.actions == full.actions
        assert (fast.winners, fast.reason, fast.rounds) == (full.winners, full.reason, full.rounds)


@rules("R21.6", "R8.6")
def test_windows_are_passed_without_asking_and_only_by_certain_passers() -> None:
    """The shortcut is taken (response windows in which the seat could convert, R8.6, are
    common) by the search as well, and `heuristic:eps` never declares a pass."""
    cfg = load_setup().config
    seat = Counted()
    play_game(cfg, 1, [seat] * cfg.players)
    assert seat.skipped > 20
    search = make_agent("search:budget=2")
    short = short_config("kings-crossing", 3)
    fast = play_game(short, 2, [search] * short.players)
    assert fast.actions == full_list_game(short, 2, [search] * short.players).actions
    noisy = make_agent("heuristic:eps=0.2")
    assert isinstance(noisy, Passer) and isinstance(search, Passer)
    game, rng = Game(cfg, 0), random.Random(0)
    while not (game.state.priority and game.state.phase != Phase.DRAFT):
        game.apply(seat.act(game, game.legal_actions(), rng), check=False)
    assert not noisy.passes(game.state) and HeuristicAgent().passes(game.state)
