"""Ranges (R10.1, R12.10, R17.1, R21.17, R21.23): every attack within the attacker's reach,
measured with the referee's own formula; every effect with a range within it of its origin --
the source permanent's field, the field it left when it died or was sacrificed, or for a spell
(an intention too, R17.1, R21.23) any permanent of its controller. A chosen target is measured
as it stood when its action resolved, an `each` effect's matches when that effect began (R6.4).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Effect
from engine.markers import Marker
from engine.vocab import DamageCause, DestroyCause
from workbench.check.core import GameCheck, Hook

EFFECT_VERBS = {m.value: m.verb for m in Marker}
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
        g.flag(
            "R12.10",
            f"{g.name(a.cid)} attacked {g.name(d.cid)} at distance {dist}; its "
            f"attack reaches {reach(g, a.cid)}",
        )
    stated = g.ev.detail[i].partition(";")[0].removeprefix("distance ")
    if stated.isdigit() and int(stated) != dist:
        g.flag(
            "R10.1",
            f"the engine measured {stated} from {g.name(a.cid)} to "
            f"{g.name(d.cid)}; R10.1 gives {dist}",
        )


def effect_lists(g: GameCheck) -> list[Sequence[Effect]]:
    """The effect lists the resolving action may be carrying out (its card's, by kind)."""
    r, card = g.resolving, g.resolving_card
    if r is None or card is None:
        return []
    if r.kind in ("card", "intention"):  # R17.3: the Tyrant carries the intention out
        return [card.effects]
    if r.kind == "trigger":
        out: list[Sequence[Effect]] = [
            t.effects for t in card.triggers if t.event == r.word or not r.word
        ]
        return [*out, card.effects] if r.word in ("enters", "") else out
    if r.kind == "free":
        granted = g.t.board.fields[r.field].actions if r.field >= 0 else ()
        return [fa.effects for fa in (*card.free_actions, *granted)]
    if r.kind == "unit" and r.verb == "full":
        return list(card.full_actions)
    return []


def _origins(g: GameCheck) -> list[int]:
    """R10.1: a range has an origin -- the source permanent's field (where it stood if it has
    left the board); a spell's ranges count from its controller's permanents. An intention is
    a spell (R17.1): the Tyrant's unit carries it out, but its effect is the intention's, not
    the unit's (R21.23), so its ranges count from every permanent of the Tyrant's side."""
    r = g.resolving
    assert r is not None
    src = g.piece(r.source) if r.kind != "intention" else None
    if src is not None and g.t.field_of(src) >= 0:
        return [g.t.field_of(src)]
    if r.kind != "intention" and g.t.left_from.get(r.source, -1) >= 0:
        return [g.t.left_from[r.source]]
    return [
        g.t.field_of(p)
        for p in g.t.pieces.values()
        if p.controller == r.player and g.t.field_of(p) >= 0
    ]


def _verb(g: GameCheck, i: int) -> str:
    kind, detail = g.ev.kind[i], g.ev.detail[i]
    if kind == "marker":
        return EFFECT_VERBS.get(detail, "") if g.ev.amount[i] > 0 else ""
    if kind in ("damage", "prevent"):
        return "damage" if detail == DamageCause.EFFECT else ""
    if kind in ("push", "push_stop"):
        return "push"
    if kind in ("death", "destroy"):
        return "destroy" if detail.startswith(DestroyCause.BY_CARD) else ""
    if kind == "durability":
        return "repair" if g.ev.amount[i] > 0 else ""
    return kind if kind == "heal" else ""


def _aim(g: GameCheck, i: int) -> None:
    """R6.4: an action's chosen target was announced with it and is checked when the action
    resolves; note where it stood then and where the action's ranges counted from."""
    r = g.resolving
    p = g.piece(r.target) if r is not None and r.target >= 0 else None
    if p is None or g.t.field_of(p) < 0:
        return
    if any(e.target.is_chosen for effects in effect_lists(g) for e in effects):
        g.aimed = (g.t.field_of(p), _origins(g))


def _judge(g: GameCheck, verb: str, cid: int, origins: list[int], here: int, radius: int) -> None:
    if origins and min(g.t.grid.dist(o, here) for o in origins) > radius:
        near = min(origins, key=lambda o: g.t.grid.dist(o, here))
        g.flag(
            "R10.1",
            f"{g.resolving_card.name if g.resolving_card else '?'}'s {verb} "
            f"(range {radius}) reached {g.name(cid)} at {g.t.grid.xy(here)}, "
            f"{g.t.grid.dist(near, here)} from its origin {g.t.grid.xy(near)}",
        )


def _effect(g: GameCheck, i: int) -> None:
    """Every permanent an effect reaches lay within the effect's range of its origin: the
    action's chosen target when the action resolved (R6.4: announced with it, its effects
    carried out at once, so an earlier effect that moves the target or destroys the permanent
    the range counted from does not take it out of range), an `each` effect's matches where
    they stood when that effect began, so a later step of a push, a later destruction of the
    same effect, or an equipment that dropped where its pushed carrier died (R11.6) is not
    measured again on a table the effect has already changed."""
    verb = _verb(g, i)
    p, r = g.piece(g.ev.card_id[i]), g.resolving
    if not verb or p is None or r is None:
        return
    specs = [e.target for effects in effect_lists(g) for e in effects if e.verb == verb]
    if not specs or any(t.range is None for t in specs):
        return
    began = g.began.setdefault(verb, {q.cid: g.t.field_of(q) for q in g.t.pieces.values()})
    at_start = began.get(p.cid, -1)
    here = g.touched.setdefault((verb, p.cid), at_start if at_start >= 0 else g.t.field_of(p))
    if here < 0:
        return
    chosen = [t.range or 0 for t in specs if t.is_chosen]
    if chosen and p.cid == r.target and g.aimed is not None:
        aimed_at, froms = g.aimed
        if len(chosen) == len(specs) or min(
            (g.t.grid.dist(o, aimed_at) for o in froms), default=0
        ) <= max(chosen):
            _judge(g, verb, p.cid, froms, aimed_at, max(chosen))
            return
    radius = max(t.range or 0 for t in specs)
    _judge(g, verb, p.cid, g.reach_from.setdefault(verb, _origins(g)), here, radius)


def _carried_out(g: GameCheck, i: int) -> None:
    """R17.3 with R6.4: the Tyrant's full action names no target when announced; its target is
    the unit the intention's marker is on, which the `intention carried out` event names, and
    its ranges are checked then, as a chosen target's are when an action resolves."""
    r = g.resolving
    if g.ev.detail[i] != "intention carried out" or r is None or r.kind != "intention":
        return
    g.resolving = r._replace(target=g.ev.target_id[i])
    _aim(g, i)


BEFORE: dict[str, list[Hook]] = {
    "combat": [_combat],
    **{
        k: [_effect]
        for k in (
            "marker",
            "damage",
            "prevent",
            "push",
            "push_stop",
            "death",
            "destroy",
            "durability",
            "heal",
        )
    },
}
AFTER: dict[str, list[Hook]] = {"resolve": [_aim], "marker": [_carried_out]}
