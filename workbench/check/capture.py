"""Capture points (R19.3, R21.14): at the start of its own upkeep a player scores one point per
area its side holds -- where its side controls more units than any other side. A side is a
team on a board with teams (R21.26: the members' units count together), else the seat alone;
neutral and Tyrant units are sides that hold nothing. Units in a stack are units in the area:
a stack's field is that of the permanent beneath (R11.5), so riders on a crew unit count.
"""

from __future__ import annotations

from engine.board import VictoryKind
from workbench.check.core import GameCheck, Hook


def held(g: GameCheck, seat: int) -> list[str]:
    """The areas `seat`'s side holds now (R19.3, R21.26): strictly the most units in it of
    every side."""
    counts: dict[str, dict[tuple[int, ...], int]] = {}
    fields = g.t.board.fields
    for p in g.t.pieces.values():
        f = g.t.field_of(p) if p.is_unit else -1
        area = fields[f].area if f >= 0 else None
        if area is not None:
            side = g.t.team(p.controller) if p.controller >= 0 else (p.controller,)
            per = counts.setdefault(area, {})
            per[side] = per.get(side, 0) + 1
    mine = g.t.team(seat)
    return sorted(
        area
        for area, per in counts.items()
        if per.get(mine, 0) > max((n for s, n in per.items() if s != mine), default=0)
    )


def _rule(g: GameCheck) -> str:
    """R21.26 on a board with teams (the side is the team), else R19.3."""
    return "R21.26" if g.t.board.teams else "R19.3"


def _upkeep_starts(g: GameCheck, i: int) -> None:
    if (
        g.ev.detail[i] != "upkeep"
        or g.active < 0
        or g.t.board.victory.kind is not VictoryKind.CAPTURE
    ):
        return
    g.capture_areas = held(g, g.active)
    g.capture_due = len(g.capture_areas)


def _points(g: GameCheck, i: int) -> None:
    """The points scored for areas are what the areas held give, and only then (R21.14)."""
    if g.ev.detail[i] != "capture":
        return
    if g.capture_due is None:
        g.flag(
            "R21.14",
            f"seat {g.ev.player[i] + 1} scored {g.ev.amount[i]} capture points "
            "outside the start of its upkeep",
        )
    elif g.ev.amount[i] != g.capture_due:
        g.flag(_rule(g), _scored(g, g.ev.amount[i]))
    g.capture_due = None


def _scored(g: GameCheck, points: int) -> str:
    areas = ", ".join(g.capture_areas) or "none"
    who = "its team holds" if g.t.board.teams else "it holds"
    return (
        f"seat {g.active + 1} scored {points} capture points; {who} {g.capture_due} areas ({areas})"
    )


def _upkeep_goes_on(g: GameCheck, i: int) -> None:
    """The start of upkeep passed: a seat holding areas has scored for them."""
    if g.capture_due is not None and g.ev.detail[i] != "upkeep":
        if g.capture_due:
            g.flag(_rule(g), _scored(g, 0))
        g.capture_due = None


BEFORE: dict[str, list[Hook]] = {"phase": [_upkeep_goes_on, _upkeep_starts], "points": [_points]}
AFTER: dict[str, list[Hook]] = {}
