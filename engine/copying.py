"""The copy rules of the game state's records: how a copy of a GameState, a Perm or a Player
(`engine.state`, cloned for a search's look-ahead) gets each of its fields, one rule a field. The
classes declare their fields by these rules' keys and write their copies out by them (a compiled
class can run no generated code); tests/test_clone.py checks the copies against the rules, and
that every field has one.

This module and engine/state.py import each other on purpose, the one circle the layer test
allows: the state calls these copies, and the copies name the state's classes as types (only
for mypy and mypyc, under TYPE_CHECKING), so that the compiled copies call them directly
(docs/architecture.md)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.events import EventLog
from engine.record import Columns

if TYPE_CHECKING:
    from engine.state import Perm, Player

CopyRule = Callable[[Any], Any] | None
"""How a copy gets a field: None keeps the object itself (an immutable value: a number, a flag,
a string, a tuple, a NamedTuple record, a frozen dataclass), a function makes the copy's own from
the original's (`list` for a list of immutable values such as card ids)."""
SAME: CopyRule = None


def copy_rng(rng: random.Random) -> random.Random:
    """The generator in the same state (`__new__` skips `Random.__init__`'s seeding from the
    OS, which `setstate` overwrites anyway; the generator is the dearest field to copy)."""
    copy = random.Random.__new__(random.Random)
    copy.setstate(rng.getstate())
    return copy


def copy_lists(lists: list[list[int]]) -> list[list[int]]:
    return [list(x) for x in lists]


def copy_players(players: list[Player]) -> list[Player]:
    return [p.copy() for p in players]


def copy_perms(perms: dict[int, Perm]) -> dict[int, Perm]:
    return {k: p.copy() for k, p in perms.items()}


def no_cache(_: object) -> None:
    """Derived data, rebuilt on demand."""


def no_events(_: EventLog) -> EventLog:
    """A clone looks ahead: it records no events."""
    return EventLog(enabled=False)


PERM_FIELDS: dict[str, CopyRule] = {
    "cid": SAME,
    "controller": SAME,
    "field": SAME,
    "damage": SAME,
    "markers": dict.copy,
    "used_move": SAME,
    "used_attack": SAME,
    "tapped": SAME,
    "stack": list,
    "under": SAME,
    "durability": SAME,
    "intention": SAME,
}
"""Perm's fields, in the order `Perm.__init__` sets them, and how `Perm.copy` copies each."""

PLAYER_FIELDS: dict[str, CopyRule] = {
    "deck": list,
    "hand": list,
    "discard": list,
    "store": list,
    "resource": SAME,
    "points": SAME,
    "bought": SAME,
    "equip_next": list,
    "team": SAME,
    "resource_start": SAME,
    "income": SAME,
    "spend_buy": SAME,
    "spend_play": SAME,
    "spend_upkeep": SAME,
    "spend_free": SAME,
    "discard_gain": SAME,
    "upkeep_paid": SAME,
    "upkeep_deaths": SAME,
    "card_gain": SAME,
    "card_loss": SAME,
    "buy_resource": SAME,
}
"""Player's fields, in the order `Player.__init__` sets them, and how `Player.copy` copies
each."""

CLONE_RULES: dict[str, CopyRule] = {
    "config": SAME,
    "seed": SAME,
    "rng": copy_rng,
    "cards": list,
    "owner": list,
    "token": list,
    "players": copy_players,
    "perms": copy_perms,
    "occ": list,
    "stack": list,
    "set_aside": list,
    "out": list,
    "packs": copy_lists,
    "unopened": copy_lists,
    "draft_seat": SAME,
    "pack_round": SAME,
    "picks_made": list,
    "phase": SAME,
    "active": SAME,
    "round": SAME,
    "turn": SAME,
    "actions_this_turn": SAME,
    "steps": SAME,
    "pending": list,
    "upkeep_due": list,
    "priority": list,
    "activated": SAME,
    "behaviour": SAME,
    "winners": SAME,
    "reason": SAME,
    "guard_stopped": SAME,
    "tyrant_deck": list,
    "tyrant_discard": list,
    "intentions_done": SAME,
    "marker_card": SAME,
    "marker_perm": SAME,
    "marker_field": SAME,
    "killer": SAME,
    "dead": list,
    "left_from": dict,
    "entered": list,
    "vips": dict,
    "reach_cache": no_cache,
    "changes": SAME,
    "fast_cache": no_cache,
    "acting": SAME,
    "events": no_events,
    "picks": Columns.copy,
    "snapshots": Columns.copy,
    "action_log": list,
}
"""GameState's fields, in the order `GameState.__init__` sets them, and how `GameState.clone`
copies each (SAME shares the frozen config, numbers, strings, tuples and NamedTuple records)."""
