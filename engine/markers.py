"""The markers a permanent carries (R13): one table of their names, the verb that puts each on
and its rule.

A permanent keeps its markers in `Perm.markers`, a dict keyed by `Marker` (every marker present,
0 when none). The names are the `detail` of a `marker` event and the words a picture shows.
How each wears off is its rule's: paralysis by an action spent on it (R13.1, `game`); poison
never, it grows by one on each activation (R13.2, `flow.activate`); panic and rage lose one on
each activation (R13.3, R13.4, `flow.activate`); protection by the damage it prevents (R13.5,
`permanents.deal_damage`).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Self


class Marker(StrEnum):
    """A marker: its name (the value), the verb that puts it on, its rule, and whether only a
    unit can carry it (protection goes on any permanent a card protects).

    (`__new__`'s defaults only let a type checker accept `Marker("poison")`, the lookup by
    name; every member gives all four.)"""

    verb: str
    rule: str
    units_only: bool

    def __new__(cls, name: str, verb: str = "", rule: str = "", units_only: bool = True) -> Self:
        member = str.__new__(cls, name)
        member._value_ = name
        member.verb = verb
        member.rule = rule
        member.units_only = units_only
        return member

    PARALYSIS = ("paralysis", "paralyse", "R13.1", True)
    POISON = ("poison", "poison", "R13.2", True)
    PANIC = ("panic", "panic", "R13.3", True)
    RAGE = ("rage", "rage", "R13.4", True)
    PROTECTION = ("protection", "protect", "R13.5", False)


def no_markers() -> dict[Marker, int]:
    """A new permanent's markers: none of each."""
    return dict.fromkeys(Marker, 0)


__all__ = ["Marker", "no_markers"]
