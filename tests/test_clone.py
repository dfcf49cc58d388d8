"""GameState.clone: a search plays out clones, so a clone must copy every part of the state it
may change, and changing anything in a clone must leave the original as it was."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from engine.agents.registry import make_agent
from engine.game import Game
from engine.play import derive_seed
from engine.state import GameState
from workbench.config import load_setup

SHARED = {"config", "events"}
"""Shared by design (the immutable configuration) or replaced (a clone records no events)."""


def _played(board: str, steps: int) -> GameState:
    cfg = load_setup(["iron-legion", "tide-callers"], board).config
    game = Game(cfg, derive_seed("clone", board))
    agent, rng = make_agent("heuristic"), random.Random(1)
    for _ in range(steps):
        if game.is_terminal():
            break
        game.apply(agent.act(game, game.legal_actions(), rng), check=False)
    return game.state


def _frozen(x: Any) -> bool:
    return dataclasses.is_dataclass(x) and x.__dataclass_params__.frozen  # type: ignore[union-attr]


def _plain(x: Any, depth: int = 0) -> Any:
    """A comparable picture of a value: containers and slotted objects unfolded."""
    if depth > 6 or isinstance(x, (int, float, str, bool, type(None), random.Random)):
        return x.getstate() if isinstance(x, random.Random) else x
    if _frozen(x):
        return id(x)  # immutable: the same object in both
    if isinstance(x, (list, tuple)):
        return [_plain(v, depth + 1) for v in x]
    if isinstance(x, dict):
        return sorted((repr(k), _plain(v, depth + 1)) for k, v in x.items())
    slots = getattr(type(x), "__slots__", None)
    if slots:
        return (type(x).__name__, [_plain(getattr(x, n, None), depth + 1) for n in slots])
    if hasattr(x, "__dict__"):
        return (type(x).__name__, sorted((k, _plain(v, depth + 1)) for k, v in vars(x).items()))
    return repr(x)


def _mutate(x: Any, depth: int = 0) -> None:
    """Change every mutable part reachable from x (lists, dicts, slotted records)."""
    if depth > 4 or _frozen(x):
        return
    if isinstance(x, list):
        for v in x:
            _mutate(v, depth + 1)
        x.append(-99)
    elif isinstance(x, dict):
        for v in x.values():
            _mutate(v, depth + 1)
        x[-99] = -99
    elif isinstance(x, random.Random):
        x.random()
    elif getattr(type(x), "__slots__", None):
        for n in type(x).__slots__:
            v = getattr(x, n, None)
            if isinstance(v, int) and not isinstance(v, bool):
                setattr(x, n, v + 7)
            else:
                _mutate(v, depth + 1)


@pytest.mark.parametrize("board, steps", [("kings-crossing", 40), ("kings-crossing", 900),
                                          ("tyrants-throne", 700), ("four-banners", 600)])
def test_changing_a_clone_leaves_the_original_unchanged(board: str, steps: int) -> None:
    """Every attribute of the state is copied (or shared by design), and mutating every list,
    dict and record of a clone changes nothing in the original (the draft's VIPs were once
    shared: finishing a draft on a clone wrote into the original game)."""
    s = _played(board, steps)
    c = s.clone()
    assert set(vars(c)) == set(vars(s))
    saved = {k: _plain(v) for k, v in vars(s).items() if k not in SHARED}
    for k, v in vars(c).items():
        if k not in SHARED:
            _mutate(v)
            assert v is not getattr(s, k) or isinstance(v, (int, str, tuple, type(None))), k
    assert {k: _plain(v) for k, v in vars(s).items() if k not in SHARED} == saved
