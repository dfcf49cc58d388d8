"""Typed specs back into the card language (docs/card-language.md): the inverse of
`engine.language` and `engine.keywords`, so a run can store every card as it was, behaviour
included, and a stored card reads the way a designer writes it. `parse_X(render_X(spec)) == spec`
for every spec the parser makes (tested on every shipped card).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import verbs
from engine.cards import (
    Card,
    Cost,
    Effect,
    FreeAction,
    Keywords,
    Modifiers,
    Protection,
    Side,
    Target,
    TargetKind,
    Trigger,
)

_EVENTS = {
    "enters": "when this enters",
    "dies": "when this dies",
    "upkeep": "at upkeep",
    "attacks": "when this attacks",
    "kills": "when this kills",
}
_PLURAL = {
    "unit": "units",
    "spell": "spells",
    "artifact": "artifacts",
    "equipment": "equipment",
    "potion": "potions",
    "intention": "intentions",
}


def render_target(t: Target) -> str:
    """`self`, `target enemy unit in range 3`, `each opponent`, or "" for no target."""
    if t.kind is TargetKind.NONE:
        return ""
    if t.kind is TargetKind.SELF:
        return "self"
    words = ["each" if t.each else "target"]
    if t.side is not Side.ANY:
        words.append(t.side.value)
    words.append(t.kind.value)
    if t.range is not None:
        words += ["in", "range", str(t.range)]
    return " ".join(words)


def render_effect(e: Effect) -> str:
    """`damage 2 to target enemy unit in range 3`, `create 2 Skeleton`, `draw 1`: written from
    the verb's entry (`engine.verbs`), the way the language parses it."""
    spec = verbs.VERBS[e.verb]
    words = [e.verb]
    if spec.amount:
        words.append(str(e.amount))
    if spec.card:
        words.append(e.card or "")
        return " ".join(words)
    target = render_target(e.target)
    if target and spec.amount:
        words.append("from" if e.target.kind is TargetKind.OPPONENT else "to")
    if target:
        words.append(target)
    return " ".join(words)


def render_effects(effects: Sequence[Effect]) -> str:
    return ", ".join(render_effect(e) for e in effects)


def render_triggers(triggers: Sequence[Trigger]) -> str:
    return "; ".join(f"{_EVENTS[t.event]}: {render_effects(t.effects)}" for t in triggers)


def render_cost(c: Cost) -> str:
    parts = [f"pay {c.resource}"] if c.resource or not (c.discard or c.sacrifice) else []
    if c.discard:
        parts.append(f"discard {c.discard}")
    if c.sacrifice:
        parts.append("sacrifice")
    return ", ".join(parts)


def render_free_actions(actions: Sequence[FreeAction]) -> str:
    return "; ".join(f"{render_cost(a.cost)}: {render_effects(a.effects)}" for a in actions)


def render_full_actions(actions: Sequence[Sequence[Effect]]) -> str:
    return "; ".join(render_effects(a) for a in actions)


def _protection(p: Protection) -> str:
    if p.card is not None:
        return f"protection from {p.card}"
    what = _PLURAL[p.type.value] if p.type is not None else "cards"
    condition = f" with {p.stat} {p.op} {p.value}" if p.stat is not None else ""
    return f"protection from {what}{condition}"


def render_keywords(k: Keywords) -> str:
    """`armor 1; crew 2; swimming; protection from units with buy > 7; moves on plain`."""
    parts = [f"{name} {getattr(k, name)}" for name in ("armor", "crew") if getattr(k, name)]
    parts += [
        name for name in ("swimming", "veiled", "building", "staff", "tyrant") if getattr(k, name)
    ]
    if k.solid is not None:
        parts.append(f"solid {k.solid}")
    parts += [_protection(p) for p in k.protections]
    if k.moves_on is not None:
        parts.append("moves on " + ", ".join(sorted(k.moves_on)))
    return "; ".join(parts)


def render_modifiers(m: Modifiers) -> str:
    """`+1 attack; +1 range; +2 armor; veiled`."""
    parts = [
        f"{value:+d} {name}"
        for name in ("attack", "range", "life", "move", "armor")
        if (value := getattr(m, name))
    ]
    if m.keywords is not None and (words := render_keywords(m.keywords)):
        parts.append(words)
    return "; ".join(parts)


def card_behaviour(card: Card) -> dict[str, str]:
    """A card's behaviour columns as the card language writes them ("" where empty)."""
    return {
        "keywords": render_keywords(card.keywords),
        "effect": render_effects(card.effects),
        "trigger": render_triggers(card.triggers),
        "free_action": render_free_actions(card.free_actions),
        "full_action": render_full_actions(card.full_actions),
        "modifiers": render_modifiers(card.modifiers),
    }
