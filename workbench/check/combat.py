"""Damage (R11.4, R12.7, R12.8, R12.11, R13.5, R21.10, R21.20): what each side of a combat
deals and takes, and what armor and protection markers do with any damage.

A combat's events are the damage and protection markers of both sides followed by the
`combat` event naming attacker and defender; the referee recomputes both sides from the stack
on each field and compares what was applied.
"""

from __future__ import annotations

from engine.cards import Card, CardType, Protection
from engine.markers import Marker
from engine.vocab import DamageCause
from workbench.check.core import GameCheck, Hook
from workbench.check.ranges import effect_lists, reach
from workbench.check.table import Piece

COMBAT = (DamageCause.ATTACK, DamageCause.RETALIATION)
"""The damage a combat deals (R12.10, R12.11)."""
OUTSIDE_COMBAT = (DamageCause.EFFECT, DamageCause.COLLISION)
"""The damage from a card's effect or a push (R14.3), which protection meets outside combat."""
_COMPARE = {"<": int.__lt__, "<=": int.__le__, ">": int.__gt__, ">=": int.__ge__, "=": int.__eq__}


_COUNTS_AS = {
    CardType.ARTIFACT: frozenset(t for t in CardType if t.is_artifact),
    CardType.SPELL: frozenset({CardType.SPELL, CardType.INTENTION}),
}
"""Types a protection names along with their own: equipment and potions are artifacts (R15.5,
R15.8), intentions spells (R17.1, R21.23)."""


def _matches(pr: Protection, card: Card) -> bool:
    """`protection from X` (R11.4): X a card, a card type (`_COUNTS_AS`), or a type with a
    condition on a number of the card."""
    if pr.card is not None:
        return pr.card.casefold() == card.name.casefold()
    if pr.type is not None and card.type not in _COUNTS_AS.get(pr.type, {pr.type}):
        return False
    if pr.stat is None:
        return True
    value = getattr(card, pr.stat, None)
    compare = _COMPARE.get(pr.op or "")
    return isinstance(value, int) and compare is not None and compare(value, pr.value)


def protected_from(g: GameCheck, p: Piece, source: Card | None) -> bool:
    return source is not None and any(
        _matches(pr, source) for k in g.t.keywords(p) for pr in k.protections
    )


def hit(g: GameCheck, p: Piece, amount: int, source: Card | None, markers: int) -> tuple[int, int]:
    """(damage taken, protection markers spent) when `amount` damage from `source` meets `p`
    with `markers` protection markers: X's protection stops it (R11.4); armor reduces it first
    (R12.8, R21.20); markers prevent what is left, however much, one marker per point (R13.5)."""
    if amount <= 0 or protected_from(g, p, source):
        return 0, 0
    left = max(0, amount - g.t.armor(p))
    if left and markers:
        return 0, min(markers, left)
    return left, 0


def _why(g: GameCheck, p: Piece, source: Card | None, markers: int) -> str:
    """The rule that decides how `p` takes damage, for naming a wrong outcome."""
    if protected_from(g, p, source):
        return "R21.23" if source is not None and source.type is CardType.INTENTION else "R11.4"
    armor = g.t.armor(p)
    if markers:
        return "R21.20" if armor else "R13.5"
    return "R12.8" if armor else "R12.7"


def _stated(detail: str) -> dict[str, int]:
    """`distance 1; dealt 2; back 1; took 0` -> {"distance": 1, "dealt": 2, ...}."""
    out = {}
    for part in detail.split(";"):
        word, _, n = part.strip().partition(" ")
        if n.lstrip("-").isdigit():
            out[word] = int(n)
    return out


def _combat(g: GameCheck, i: int) -> None:
    """R12.7, R12.11, R21.10: the attacker deals its stack's attack at the distance; an
    attacked unit strikes back with its own if the attacker is within its range; artifacts
    and buildings do not strike back. Each side then takes it through R12.8 and R13.5."""
    a, d = g.piece(g.ev.card_id[i]), g.piece(g.ev.target_id[i])
    if a is None or d is None or a is d:
        return
    taken = {a.cid: 0, d.cid: 0}
    spent = {a.cid: 0, d.cid: 0}
    j = i - 1
    while j >= 0 and g.ev.game_id[j] == g.info.game_id:
        kind, cid = g.ev.kind[j], g.ev.card_id[j]
        if kind == "damage" and g.ev.detail[j] in COMBAT and cid in taken:
            taken[cid] += g.ev.amount[j]
        elif kind == "marker" and g.ev.detail[j] == Marker.PROTECTION and cid in spent:
            spent[cid] -= g.ev.amount[j]
        elif kind != "prevent":
            break
        j -= 1
    dist = g.t.grid.dist(g.t.field_of(a), g.t.field_of(d))
    dealt = sum(atk for atk, r in g.t.profile(a) if r >= dist)
    back = (
        sum(atk for atk, r in g.t.profile(d) if r >= dist)
        if (d.is_unit and dist <= reach(g, d.cid))
        else 0
    )
    stated = _stated(g.ev.detail[i])
    for p, amount, source, told, rule in (
        (d, dealt, a.card, stated.get("dealt"), "R12.7"),
        (a, back, d.card, stated.get("back"), "R21.10"),
    ):
        markers = p.markers[Marker.PROTECTION] + spent[p.cid]
        want = hit(g, p, amount, source, markers)
        if want == (taken[p.cid], spent[p.cid]):
            continue
        side = "dealt" if p is d else "struck back"
        why = rule if told is not None and told != amount else _why(g, p, source, markers)
        g.flag(
            why,
            f"{g.name(p.cid)} took {taken[p.cid]} and spent {spent[p.cid]} protection "
            f"markers; {g.name(a.cid if p is d else d.cid)} {side} {amount} at "
            f"distance {dist}, which gives {want[0]} taken and {want[1]} spent (armor "
            f"{g.t.armor(p)}, {markers} markers)",
        )


def _prevent(g: GameCheck, i: int) -> None:
    """R13.5, R21.20: outside combat, markers prevent only what armor left, one per point."""
    if g.ev.detail[i] not in OUTSIDE_COMBAT:
        return
    p = g.piece(g.ev.card_id[i])
    if p is None:
        return
    j = i + 1
    spent = (
        -g.ev.amount[j]
        if (
            j < len(g.ev)
            and g.ev.kind[j] == "marker"
            and g.ev.detail[j] == Marker.PROTECTION
            and g.ev.card_id[j] == p.cid
        )
        else 0
    )
    markers, armor = p.markers[Marker.PROTECTION], g.t.armor(p)
    want = min(markers, max(0, g.ev.amount[i] - armor))
    if spent != want:
        g.flag(
            "R21.20" if armor else "R13.5",
            f"{g.name(p.cid)} spent {spent} protection markers on {g.ev.amount[i]} damage; "
            f"with armor {armor} and {markers} markers it spends {want}",
        )


def _damage(g: GameCheck, i: int) -> None:
    """R12.8, R13.5 for damage from an effect (when the card names one amount) or from a
    collision (R14.3: 1 damage)."""
    detail = g.ev.detail[i]
    p = g.piece(g.ev.card_id[i])
    if p is None or detail not in OUTSIDE_COMBAT:
        return
    if detail == DamageCause.COLLISION:
        amounts = {1}
    else:
        amounts = {e.amount for effects in effect_lists(g) for e in effects if e.verb == "damage"}
    if len(amounts) != 1:
        return
    raw = amounts.pop()
    source = g.resolving_card if detail == DamageCause.EFFECT else None
    want = hit(g, p, raw, source, p.markers[Marker.PROTECTION])
    if want != (g.ev.amount[i], 0):
        g.flag(
            _why(g, p, source, p.markers[Marker.PROTECTION]),
            f"{g.name(p.cid)} took {g.ev.amount[i]} of {raw} {detail} damage; with armor "
            f"{g.t.armor(p)} and {p.markers[Marker.PROTECTION]} protection markers it takes "
            f"{want[0]}",
        )


BEFORE: dict[str, list[Hook]] = {"combat": [_combat], "prevent": [_prevent], "damage": [_damage]}
AFTER: dict[str, list[Hook]] = {}
