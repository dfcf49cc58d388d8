"""Verbs on permanents: damage, heal, push, destroy, sacrifice, repair (R11.2, R11.3, R12.8,
R13.5, R14, R15.7)."""

from __future__ import annotations

from engine.board import Terrain
from engine.cards import CardType, Effect, TargetKind
from engine.markers import Marker
from engine.permanents import armor, deal_damage, destroy, hp_left, life, protected_from
from engine.push import push, push_origin
from engine.state import GameState, Perm
from engine.verbs.entry import (
    PERMANENTS,
    Appraiser,
    PerTarget,
    Verb,
    friendly,
    on_each,
    perms,
    sign,
)
from engine.vocab import DamageCause, DestroyCause, EventKind


def _damage(
    state: GameState, player: int, source: int, e: Effect, targets: list[int], origin: int
) -> None:
    for p in perms(state, targets):
        deal_damage(state, p, e.amount, state.cards[source], player, DamageCause.EFFECT)


def _heal(
    state: GameState, player: int, source: int, e: Effect, targets: list[int], origin: int
) -> None:
    for p in perms(state, targets):
        healed = min(p.damage, e.amount)
        if healed:
            p.damage -= healed
            state.emit(EventKind.HEAL, player, p.cid, amount=healed)


def _push(
    state: GameState, player: int, source: int, e: Effect, targets: list[int], origin: int
) -> None:
    """R14.1: every push of the action starts from one origin (`push_origin`); a permanent in
    a stack or on the origin itself is not pushed (R14.2: no line)."""
    start = push_origin(state, source, origin)
    if start < 0:
        return
    for p in perms(state, targets):
        if p.field >= 0 and p.field != start:
            push(state, start, p, e.amount, player)


def _destroy(
    state: GameState, player: int, source: int, e: Effect, targets: list[int], origin: int
) -> None:
    """R11.2; a target that went with an earlier one (equipment breaking as its unit's stack
    drops, R15.7) is not destroyed twice."""
    for p in perms(state, targets):
        if p.cid in state.perms:
            destroy(state, p, DestroyCause.BY_CARD, player, by=state.cards[source].name)


def _sacrifice(
    state: GameState, player: int, source: int, e: Effect, targets: list[int], origin: int
) -> None:
    """R11.3: only permanents the acting player controls can be sacrificed (each once)."""
    for p in perms(state, targets):
        if p.controller == player and p.cid in state.perms:
            destroy(state, p, DestroyCause.SACRIFICED, player)


def _repair(
    state: GameState, player: int, source: int, e: Effect, targets: list[int], origin: int
) -> None:
    for p in perms(state, targets):
        if state.cards[p.cid].type.is_equipment:
            p.durability += e.amount
            state.emit(EventKind.DURABILITY, player, p.cid, amount=e.amount)


# --- values to the agents: for one permanent reached, positive when it helps the seat ---------


def _damage_value(a: Appraiser, source: int, e: Effect, p: Perm, origin: int) -> float:
    s = a.s
    if protected_from(s, p, s.cards[source]) or p.markers[Marker.PROTECTION] > 0:
        return 0.0
    pv = a.pv(p)
    dealt = max(0, e.amount - armor(s, p))
    left = hp_left(s, p)
    val = pv + 2.0 if dealt >= left else pv * 0.7 * dealt / max(1, left)
    if p.cid in a.objectives:
        val += 5.0 * dealt
    return sign(a, p) * val


def _heal_value(a: Appraiser, source: int, e: Effect, p: Perm, origin: int) -> float:
    card = a.s.cards[p.cid]
    if card.type is CardType.UNIT and friendly(a, p):
        return min(p.damage, e.amount) * 0.6 * a.card_value(card) / max(1, life(a.s, p))
    return 0.0


def _push_value(a: Appraiser, source: int, e: Effect, p: Perm, origin: int) -> float:
    drowns = _drowns(a.s, source, p, e.amount, origin)
    return sign(a, p) * (1.0 + drowns * (a.pv(p) + 2.0))


def _drowns(s: GameState, source: int, p: Perm, n: int, chosen: int) -> float:
    """1 when pushing `p` n steps from its origin (R14.1) would drown it (R14.4), else 0."""
    origin = push_origin(s, source, chosen)
    if p.field < 0 or origin < 0 or origin == p.field:
        return 0.0
    geo = s.config.geometry
    fields = s.config.board.fields
    swim = s.cards[p.cid].keywords.swimming
    cur = p.field
    for _ in range(n):
        nxt = geo.push_step(origin, cur)
        if nxt is None or s.occ[nxt] >= 0:
            return 0.0
        terr = fields[nxt].terrain
        if (terr is Terrain.DEEP_WATER) != swim or terr is Terrain.BLOCKED:
            return 1.0
        cur = nxt
    return 0.0


def _removal(share: float) -> PerTarget:
    """Taking a permanent off the board: its worth and a little more, `share` of that."""

    def value(a: Appraiser, source: int, e: Effect, p: Perm, origin: int) -> float:
        return sign(a, p) * (a.pv(p) + 1.0) * share

    return value


def _repair_value(a: Appraiser, source: int, e: Effect, p: Perm, origin: int) -> float:
    return -sign(a, p) * 0.4 * e.amount


DAMAGE = Verb("damage", ("schaden",), _damage, on_each(_damage_value), 1.5, PERMANENTS, hurts=True)
HEAL = Verb(
    "heal", ("heile", "heilen"), _heal, on_each(_heal_value), 0.5, PERMANENTS, TargetKind.SELF
)
PUSH = Verb(
    "push", ("schieben", "schiebe"), _push, on_each(_push_value), 0.8, PERMANENTS, pushes=True
)
DESTROY = Verb(
    "destroy",
    ("zerstöre", "zerstören"),
    _destroy,
    on_each(_removal(1.0)),
    5.0,
    PERMANENTS,
    amount=False,
    hurts=True,
)
SACRIFICE = Verb(
    "sacrifice",
    ("opfere", "opfern"),
    _sacrifice,
    on_each(_removal(0.9)),
    -1.5,
    PERMANENTS,
    TargetKind.SELF,
    amount=False,
    own=True,
    hurts=True,
)
REPAIR = Verb(
    "repair",
    ("repariere", "reparieren"),
    _repair,
    on_each(_repair_value),
    0.4,
    frozenset({TargetKind.SELF, TargetKind.ARTIFACT, TargetKind.EQUIPMENT}),
    TargetKind.SELF,
)

VERBS: tuple[Verb, ...] = (DAMAGE, HEAL, PUSH, DESTROY, SACRIFICE, REPAIR)
"""The verbs of this family, one entry each."""
