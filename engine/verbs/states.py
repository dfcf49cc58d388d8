"""Verbs that put a marker on a unit (R13): paralyse, poison, panic, rage, protect. Each is
named by its marker (`engine.markers.Marker.verb`)."""

from __future__ import annotations

from engine.cards import CardType, Effect, TargetKind
from engine.markers import Marker
from engine.state import GameState, Perm
from engine.verbs.entry import (
    UNITS,
    Act,
    Appraiser,
    PerTarget,
    Verb,
    friendly,
    on_each,
    perms,
    sign,
)
from engine.vocab import EventKind


def _mark(marker: Marker) -> Act:
    def apply(
        state: GameState, player: int, source: int, e: Effect, targets: list[int], origin: int
    ) -> None:
        for p in perms(state, targets):
            if marker.units_only and state.cards[p.cid].type is not CardType.UNIT:
                continue
            p.markers[marker] += e.amount
            state.emit(EventKind.MARKER, player, p.cid, amount=e.amount, detail=marker)

    return apply


def _hindrance(weight: float, spares_tyrant: bool) -> PerTarget:
    """A marker that keeps a unit from acting well: `weight` of its worth per marker (at most
    all of it); the Tyrant, if spared, a flat 0.5."""

    def value(a: Appraiser, source: int, e: Effect, p: Perm, origin: int) -> float:
        card = a.s.cards[p.cid]
        is_unit = card.type is CardType.UNIT
        if (is_unit and not card.keywords.tyrant) or not spares_tyrant:
            return sign(a, p) * a.pv(p) * min(1.0, weight * e.amount)
        return sign(a, p) * 0.5 if is_unit else 0.0

    return value


def _rage_value(a: Appraiser, source: int, e: Effect, p: Perm, origin: int) -> float:
    return -0.3 if friendly(a, p) else 0.3


def _protect_value(a: Appraiser, source: int, e: Effect, p: Perm, origin: int) -> float:
    s = a.s
    if s.cards[p.cid].type is not CardType.UNIT:
        return 0.0
    threat = a.danger(s.perm_field(p)) if p.field >= 0 else 0
    return -sign(a, p) * min(e.amount, 2) * (0.3 + (0.5 if threat else 0.0)) * a.pv(p) / 4.0


VERBS: tuple[Verb, ...] = (
    Verb(
        Marker.PARALYSIS.verb,
        ("paralyze", "lähme"),
        _mark(Marker.PARALYSIS),
        on_each(_hindrance(0.25, True)),
        1.2,
        UNITS,
    ),
    Verb(
        Marker.POISON.verb,
        ("gift", "vergifte"),
        _mark(Marker.POISON),
        on_each(_hindrance(0.15, False)),
        1.0,
        UNITS,
    ),
    Verb(
        Marker.PANIC.verb,
        ("panik",),
        _mark(Marker.PANIC),
        on_each(_hindrance(0.15, True)),
        0.8,
        UNITS,
    ),
    Verb(Marker.RAGE.verb, ("wut",), _mark(Marker.RAGE), on_each(_rage_value), 0.5, UNITS),
    Verb(
        Marker.PROTECTION.verb,
        ("schutz", "schütze"),
        _mark(Marker.PROTECTION),
        on_each(_protect_value),
        1.0,
        UNITS,
        TargetKind.SELF,
    ),
)
"""The verbs of this family, one entry each."""
