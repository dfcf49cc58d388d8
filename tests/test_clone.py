"""GameState.clone: a search plays out clones, so a clone must copy every part of the state it
may change, and changing anything in a clone must leave the original as it was. Every field has
a copy rule (`CLONE_RULES`, the records' `PERM_FIELDS` and `PLAYER_FIELDS`); a field without
one stops the clone instead of being shared."""

from __future__ import annotations

import copy
import dataclasses
import random
from typing import Any

import pytest

from engine.agents.registry import make_agent
from engine.copying import SAME, slot_copier
from engine.game import Game
from engine.play import derive_seed
from engine.state import CLONE_RULES, GameState, Perm, Player
from workbench.config import load_setup

SHARED = {"config"}
"""Shared by design: the immutable configuration (a frozen dataclass, though it holds dicts)."""
DERIVED = ("events", "reach_cache", "fast_cache")
"""Not copied: a clone logs no events and derives its caches afresh."""


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


def _slots(x: Any) -> tuple[str, ...]:
    """The attributes of a slotted object, or of a compiled one (docs/compiled.md)."""
    t = type(x)
    return getattr(t, "__slots__", None) or getattr(t, "__mypyc_attrs__", None) or ()


def _plain(x: Any, depth: int = 0) -> Any:
    """A comparable picture of a value: containers and slotted objects unfolded, frozen
    dataclasses (card definitions) compared by value."""
    if isinstance(x, random.Random):
        return x.getstate()
    if depth > 6 or _frozen(x) or isinstance(x, (int, float, str, bool, type(None))):
        return x
    if isinstance(x, (list, tuple)):
        return [_plain(v, depth + 1) for v in x]
    if isinstance(x, dict):
        return sorted((repr(k), _plain(v, depth + 1)) for k, v in x.items())
    slots = _slots(x)
    if slots:
        return (type(x).__name__, [_plain(getattr(x, n, None), depth + 1) for n in slots])
    if hasattr(x, "__dict__"):
        return (type(x).__name__, sorted((k, _plain(v, depth + 1)) for k, v in vars(x).items()))
    return repr(x)


def _picture(s: GameState) -> dict[str, Any]:
    return {k: _plain(v) for k, v in vars(s).items() if k not in SHARED}


def _mutate(x: Any, depth: int = 0) -> None:
    """Change, in place, every mutable part reachable from x (lists, dicts, slotted records,
    random generators)."""
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
    elif _slots(x):
        for n in _slots(x):
            v = getattr(x, n, None)
            if isinstance(v, int) and not isinstance(v, bool):
                setattr(x, n, v + 7)
            else:
                _mutate(v, depth + 1)


def _changed(v: Any) -> Any:
    """Another value for an immutable field."""
    if isinstance(v, bool):
        return not v
    if isinstance(v, int):
        return v + 7
    if isinstance(v, str):
        return v + "?"
    return ("changed", v)


@pytest.mark.parametrize(
    "board, steps",
    [
        ("kings-crossing", 40),
        ("kings-crossing", 900),
        ("tyrants-throne", 700),
        ("four-banners", 600),
    ],
)
def test_changing_a_clone_leaves_the_original_unchanged(board: str, steps: int) -> None:
    """Mutating every list, dict, record and generator of a clone, and giving every other field
    another value, changes nothing in the original: it still equals a deep copy saved before
    (the draft's VIPs were once shared: finishing a draft on a clone wrote into the original)."""
    s = _played(board, steps)
    saved = copy.deepcopy(s)
    c = s.clone()
    assert list(vars(c)) == list(vars(s))
    assert {k: v for k, v in _picture(c).items() if k not in DERIVED} == {
        k: v for k, v in _picture(s).items() if k not in DERIVED
    }
    for name, v in vars(c).items():
        if name in SHARED:
            continue
        assert v is not getattr(s, name) or CLONE_RULES[name] is None or v is None, name
        _mutate(v)  # a container shared by a wrong rule would change the original here
        if CLONE_RULES[name] is None:
            setattr(c, name, _changed(v))
    assert _picture(s) == _picture(saved)


def test_every_field_has_a_copy_rule() -> None:
    """A new state and a played one have exactly the fields of CLONE_RULES; a field added
    without a rule stops the clone rather than being shared with the original."""
    s = _played("kings-crossing", 300)
    fresh = GameState(s.config, 1)
    assert list(vars(fresh)) == list(CLONE_RULES) == list(vars(s))
    s.added_later = []  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="added_later"):
        s.clone()


def test_records_are_declared_by_their_copy_rules() -> None:
    """Perm and Player copy every slot (their slots are their copy rules' keys), their lists
    as new lists; a record whose slots and rules differ cannot get a copy function."""
    s = _played("four-banners", 600)
    for rec in [*s.perms.values(), *s.players]:
        twin = rec.copy()
        assert _plain(twin) == _plain(rec)
        for n in type(rec).__slots__:
            v = getattr(rec, n)
            assert getattr(twin, n) is not v or not isinstance(v, list), n

    class Odd:
        __slots__ = ("a", "b")

    with pytest.raises(TypeError, match="Odd"):
        slot_copier(Odd, {"a": SAME})
    assert slot_copier(Odd, {"a": SAME, "b": list}) is not None
    assert Perm.__slots__ and Player.__slots__


def test_rows_added_to_a_clones_tables_stay_its_own() -> None:
    """The picks and snapshots tables share their rows with a clone until one adds a row: the
    row goes into that table alone, whichever of the two adds it."""
    s = _played("kings-crossing", 900)
    picks, snapshots = s.picks.rows(), s.snapshots.rows()
    c = s.clone()
    c.picks.add(*range(len(c.picks.names)))
    c.snapshots.add(*range(len(c.snapshots.names)))
    assert (s.picks.rows(), s.snapshots.rows()) == (picks, snapshots)
    s.snapshots.add(*(-1 for _ in s.snapshots.names))
    assert c.snapshots.rows() == [*snapshots, tuple(range(len(c.snapshots.names)))]
    assert c.picks.rows() == [*picks, tuple(range(len(c.picks.names)))]
    assert len(snapshots) > 0 and len(picks) > 0
