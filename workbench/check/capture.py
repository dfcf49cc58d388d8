"""Capture points (R19.3, R21.14): at the start of its own upkeep a player scores one point per
area it holds -- where it controls more units than anyone else. Units in a stack are units in
the area: a stack's field is that of the permanent beneath (R11.5), so riders on a crew unit
count.
"""

from __future__ import annotations

from engine.board import VictoryKind
from workbench.check.core import GameCheck, Hook


def held(g: GameCheck, seat: int) -> list[str]:
    """The areas `seat` holds now (R19.3): strictly the most units in it of every controller."""
    counts: dict[str, dict[int, int]] = {}
    fields = g.t.board.fields
    for p in g.t.pieces.values():
        f = g.t.field_of(p) if p.is_unit else -1
        area = fields[f].area if f >= 0 else None
        if area is not None:
            per = counts.setdefault(area, {})
            per[p.controller] = per.get(p.controller, 0) + 1
    return sorted(
        area
        for area, per in counts.items()
        if per.get(seat, 0) > max((n for s, n in per.items() if s != seat), default=0)
    )


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
        g.flag("R19.3", _scored(g, g.ev.amount[i]))
    g.capture_due = None


def _scored(g: GameCheck, points: int) -> str:
    areas = ", ".join(g.capture_areas) or "none"
    return (
        f"seat {g.active + 1} scored {points} capture points; it holds "
        f"{g.capture_due} areas ({areas})"
    )


def _upkeep_goes_on(g: GameCheck, i: int) -> None:
    """The start of upkeep passed: a seat holding areas has scored for them."""
    if g.capture_due is not None and g.ev.detail[i] != "upkeep":
        if g.capture_due:
            g.flag("R19.3", _scored(g, 0))
        g.capture_due = None


BEFORE: dict[str, list[Hook]] = {"phase": [_upkeep_goes_on, _upkeep_starts], "points": [_points]}
AFTER: dict[str, list[Hook]] = {}
