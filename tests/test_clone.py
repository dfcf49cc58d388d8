"""GameState.clone: a search plays out clones, so a clone must copy every part of the state it
may change, and changing anything in a clone must leave the original as it was. Every field has
a copy rule (`engine.copying`: `CLONE_RULES`, the records' `PERM_FIELDS` and `PLAYER_FIELDS`),
and the copies, written out (the classes are compiled), follow the rules."""

from __future__ import annotations

import dataclasses
import enum
import random
from typing import Any

import pytest

from engine.agents.registry import make_agent
from engine.copying import CLONE_RULES, PERM_FIELDS, PLAYER_FIELDS, SAME, CopyRule
from engine.game import Game
from engine.play import derive_seed
from engine.state import GameState
from workbench.content.setup import load_setup

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
    return tuple(getattr(t, "__mypyc_attrs__", None) or getattr(t, "__slots__", None) or ())


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
    return {k: _plain(getattr(s, k)) for k in CLONE_RULES if k not in SHARED}


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
    """Another value for an immutable field, of its type (a compiled state's fields check it)."""
    if isinstance(v, enum.Enum):
        return next(m for m in type(v) if m is not v)
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
    saved = _picture(s)
    c = s.clone()
    assert {k: v for k, v in _picture(c).items() if k not in DERIVED} == {
        k: v for k, v in saved.items() if k not in DERIVED
    }
    for name in CLONE_RULES:
        if name in SHARED:
            continue
        v = getattr(c, name)
        assert v is not getattr(s, name) or CLONE_RULES[name] is None or v is None, name
        _mutate(v)  # a container shared by a wrong rule would change the original here
        if CLONE_RULES[name] is None:
            setattr(c, name, _changed(v))
    assert _picture(s) == saved


def _disturb(record: Any, rules: dict[str, CopyRule]) -> None:
    """Give every field of `record` a value of its own (numbers apart, flags flipped, lists and
    dicts grown), so a copy that takes a field from the wrong one, or leaves one at its start
    value, differs from the rule's."""
    for i, name in enumerate(rules):
        v = getattr(record, name)
        if type(v) is bool:
            setattr(record, name, not v)
        elif type(v) is int:
            setattr(record, name, 1000 + i)
        elif isinstance(v, list) and rules[name] is list:
            v.append(-1000 - i)
        elif isinstance(v, dict) and rules[name] is dict and not v:
            v[-1000 - i] = i


def _follows(copy: Any, original: Any, rules: dict[str, CopyRule]) -> None:
    """Each field of `copy` is the original's own (SAME) or what its rule makes of the original's,
    a new object where the rule makes one."""
    for name, rule in rules.items():
        v, mine = getattr(original, name), getattr(copy, name)
        if rule is SAME:  # a compiled class keeps numbers unboxed: equal, not one object
            assert mine is v or (type(v) in (int, float) and type(mine) is type(v) and mine == v), (
                name
            )
        else:
            assert _plain(mine) == _plain(rule(v)), name
            assert mine is not v or mine is None, name


def test_every_field_has_a_copy_rule() -> None:
    """A new state, a played one and their clones have exactly the fields of CLONE_RULES, each
    set (the compiled class's fields are those its code sets; the source's slots are the rules'
    keys, and setting another field fails); so does every Perm and Player, by their rules."""
    s = _played("four-banners", 600)
    fresh = GameState(s.config, 1)
    for state in (fresh, s, fresh.clone(), s.clone()):
        assert _slots(state) == tuple(CLONE_RULES)
        assert all(hasattr(state, n) for n in CLONE_RULES)
    for rec, rules in [(p, PERM_FIELDS) for p in s.perms.values()] + [
        (p, PLAYER_FIELDS) for p in s.players
    ]:
        for r in (rec, rec.copy()):
            assert _slots(r) == tuple(rules)
            assert all(hasattr(r, n) for n in rules)
    with pytest.raises(AttributeError):
        s.added_later = []  # type: ignore[attr-defined]


def test_copies_follow_their_rules() -> None:
    """GameState.clone, Perm.copy and Player.copy give every field what its copy rule gives, from
    that same field of the original: a rule's list and dicts are new objects, SAME the
    original's own."""
    s = _played("four-banners", 600)
    perms, players = list(s.perms.values()), list(s.players)
    assert perms and players
    for rec in perms:
        _disturb(rec, PERM_FIELDS)
        _follows(rec.copy(), rec, PERM_FIELDS)
    for pl in players:
        _disturb(pl, PLAYER_FIELDS)
        _follows(pl.copy(), pl, PLAYER_FIELDS)
    _disturb(s, CLONE_RULES)
    _follows(s.clone(), s, CLONE_RULES)


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
