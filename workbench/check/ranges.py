"""Ranges (R10.1, R12.10, R21.17): every attack within the attacker's reach, measured with the
referee's own formula; every effect with a range within it of its origin -- the source
permanent's field, the field it left when it died or was sacrificed, or for a spell any
permanent of its controller.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Effect
from workbench.check.core import GameCheck, Hook

EFFECT_VERBS = {"paralysis": "paralyse", "poison": "poison", "panic": "panic", "rage": "rage",
                "protection": "protect"}
"""A marker's name -> the card-language verb that puts it on (docs/card-language.md)."""


def reach(g: GameCheck, cid: int) -> int:
    """The farthest distance at which a stack deals damage (R12.5, R12.7)."""
    p = g.piece(cid)
    return max((r for a, r in g.t.profile(p) if a > 0), default=0) if p else 0


def _combat(g: GameCheck, i: int) -> None:
    """R12.10: the attacked permanent differs from the attacker and is within the attack's
    range; the distance is R10.1's (R21.17)."""
    a, d = g.piece(g.ev.card_id[i]), g.piece(g.ev.target_id[i])
    if a is None or d is None:
        return
    if a is d:
        g.flag("R12.10", f"{g.name(a.cid)} attacked itself")
        return
    dist = g.t.grid.dist(g.t.field_of(a), g.t.field_of(d))
    if dist > reach(g, a.cid):
        g.flag("R12.10", f"{g.name(a.cid)} attacked {g.name(d.cid)} at distance {dist}; its "
                         f"attack reaches {reach(g, a.cid)}")
    stated = g.ev.detail[i].partition(";")[0].removeprefix("distance ")
    if stated.isdigit() and int(stated) != dist:
        g.flag("R10.1", f"the engine measured {stated} from {g.name(a.cid)} to "
                        f"{g.name(d.cid)}; R10.1 gives {dist}")


def effect_lists(g: GameCheck) -> list[Sequence[Effect]]:
    """The effect lists the resolving action may be carrying out (its card's, by kind)."""
    r, card = g.resolving, g.resolving_card
    if r is None or card is None:
        return []
    if r.kind == "card":
        return [card.effects]
    if r.kind == "trigger":
        out: list[Sequence[Effect]] = [t.effects for t in card.triggers
                                       if t.event == r.word or not r.word]
        return out + [card.effects] if r.word in ("enters", "") else out
    if r.kind == "free":
        granted = g.t.board.fields[r.field].actions if r.field >= 0 else ()
        return [fa.effects for fa in (*card.free_actions, *granted)]
    if r.kind == "unit" and r.verb == "full":
        return list(card.full_actions)
    return []


def _origins(g: GameCheck) -> list[int]:
    """R10.1: a range has an origin -- the source permanent's field (where it stood if it has
    left the board); a spell's ranges count from its controller's permanents."""
    r = g.resolving
    assert r is not None
    src = g.piece(r.source)
    if src is not None and g.t.field_of(src) >= 0:
        return [g.t.field_of(src)]
    if g.t.left_from.get(r.source, -1) >= 0:
        return [g.t.left_from[r.source]]
    return [g.t.field_of(p) for p in g.t.pieces.values()
            if p.controller == r.player and g.t.field_of(p) >= 0]


def _verb(g: GameCheck, i: int) -> str:
    kind, detail = g.ev.kind[i], g.ev.detail[i]
    if kind == "marker":
        return EFFECT_VERBS.get(detail, "") if g.ev.amount[i] > 0 else ""
    if kind in ("damage", "prevent"):
        return "damage" if detail == "effect" else ""
    if kind in ("push", "push_stop"):
        return "push"
    if kind in ("death", "destroy"):
        return "destroy" if detail.startswith("destroyed by") else ""
    if kind == "durability":
        return "repair" if g.ev.amount[i] > 0 else ""
    return kind if kind == "heal" else ""


def _effect(g: GameCheck, i: int) -> None:
    """Every permanent an effect reaches lay within the effect's range of its origin when the
    effect began: an action's effects are carried out at once on the targets announced, `each`
    on what matched then (R6.4), so a later step of a push or a later destruction of the same
    effect is not measured again from a table it has already changed."""
    verb = _verb(g, i)
    p = g.piece(g.ev.card_id[i])
    if not verb or p is None or g.resolving is None:
        return
    here = g.touched.setdefault((verb, p.cid), g.t.field_of(p))
    specs = [e for effects in effect_lists(g) for e in effects if e.verb == verb]
    if not specs or any(e.target.range is None for e in specs) or here < 0:
        return
    radius = max(e.target.range or 0 for e in specs)
    origins = g.reach_from.setdefault(verb, _origins(g))
    if origins and min(g.t.grid.dist(o, here) for o in origins) > radius:
        near = min(origins, key=lambda o: g.t.grid.dist(o, here))
        g.flag("R10.1", f"{g.resolving_card.name if g.resolving_card else '?'}'s {verb} "
                        f"(range {radius}) reached {g.name(p.cid)} at {g.t.grid.xy(here)}, "
                        f"{g.t.grid.dist(near, here)} from its origin {g.t.grid.xy(near)}")


BEFORE: dict[str, list[Hook]] = {
    "combat": [_combat], **{k: [_effect] for k in (
        "marker", "damage", "prevent", "push", "push_stop", "death", "destroy", "durability",
        "heal")},
}
AFTER: dict[str, list[Hook]] = {}
