"""The card language's effect grammar: the `effect`, `trigger`, `free action` and `full action`
columns, cell text -> typed specs (docs/card-language.md); the keyword grammar is
`engine.keywords`.

Pure parsing, no I/O. Every cell is read once at load time; nothing is evaluated as code. Words
match case-insensitively, German umlauts may be written as ae/oe/ue, and an unknown word raises a
`LanguageError` (`engine.words`) that names it and the nearest known words.
"""

from __future__ import annotations

import re

from engine import verbs
from engine.cards import Cost, Effect, FreeAction, Side, Target, TargetKind, Trigger
from engine.verbs import Verb
from engine.words import LanguageError, aliases, is_number, lookup, nearest, norm, whole_number

# --- triggers -------------------------------------------------------------------------------

_TRIGGER_WORDS = aliases(
    {
        "enters": (
            "when this enters",
            "whenever this enters",
            "enter",
            "wenn dies eintritt",
            "eintritt",
        ),
        "dies": ("when this dies", "whenever this dies", "die", "wenn dies stirbt", "stirbt"),
        "upkeep": ("at upkeep", "in upkeep", "im unterhalt", "unterhalt"),
        "attacks": (
            "when this attacks",
            "whenever this attacks",
            "attack",
            "wenn dies angreift",
            "angreift",
        ),
        "kills": ("when this kills", "whenever this kills", "kill", "wenn dies tötet", "tötet"),
    }
)
TRIGGER_EVENTS: frozenset[str] = frozenset(_TRIGGER_WORDS.values())
"""The canonical trigger events stored in `Trigger.event` (R6.1)."""

# --- targets --------------------------------------------------------------------------------

_TARGET_STARTS = aliases(
    {
        "self": ("selbst", "this", "dies"),
        "target": ("ziel",),
        "each": ("every", "all", "jede", "jeder", "jedes", "jeden", "alle"),
    }
)
_SIDES = aliases(
    {
        "enemy": ("enemies", "gegnerische", "gegnerischen", "gegnerischer", "gegnerisches"),
        "friendly": ("own", "your", "eigene", "eigenen", "eigener", "eigenes"),
    }
)
_KINDS = aliases(
    {
        "unit": ("units", "einheit", "einheiten"),
        "permanent": ("permanents",),
        "artifact": ("artifacts", "artefakt", "artefakte"),
        "equipment": ("ausrüstung",),
        "opponent": ("opponents", "gegner"),
    }
)
_KIND_OF = {
    "unit": TargetKind.UNIT,
    "permanent": TargetKind.PERMANENT,
    "artifact": TargetKind.ARTIFACT,
    "equipment": TargetKind.EQUIPMENT,
    "opponent": TargetKind.OPPONENT,
}
_PREPOSITIONS = {norm(w) for w in ("to", "on", "from", "at", "an", "auf", "von", "zu", "gegen")}
_RANGE = ("in", "range")
_RANGE_DE = ("in", "reichweite")
_FILLER = {
    norm(w) for w in ("card", "cards", "karte", "karten", "resource", "ressource", "ressourcen")
}


def _parse_target(words: list[str], spec: Verb) -> Target:
    """`self` or `target|each [enemy|friendly] KIND [in range N]`."""
    start = lookup(words[0], _TARGET_STARTS, "target word")
    if start == "self":
        if len(words) > 1:
            raise LanguageError(f"unexpected {' '.join(words[1:])!r} after {words[0]!r}")
        kind = TargetKind.SELF
        target = Target(kind=kind)
    else:
        each = start == "each"
        rest = words[1:]
        side = Side.ANY
        if rest and norm(rest[0]) in _SIDES:
            side = Side(_SIDES[norm(rest[0])])
            rest = rest[1:]
        if not rest:
            raise LanguageError(
                f"target {' '.join(words)!r} names no unit, permanent, artifact, "
                "equipment or opponent"
            )
        kind = _KIND_OF[lookup(rest[0], _KINDS, "target kind")]
        rest = rest[1:]
        reach: int | None = None
        if len(rest) == 3 and tuple(norm(w) for w in rest[:2]) in (_RANGE, _RANGE_DE):
            reach = whole_number(rest[2], "range")
            rest = []
        if rest:
            raise LanguageError(
                f"unexpected {' '.join(rest)!r} after the target; write 'in range N' or nothing"
            )
        if kind is TargetKind.OPPONENT and (side is not Side.ANY or reach is not None):
            raise LanguageError(f"an opponent has no side or range: {' '.join(words)!r}")
        target = Target(kind=kind, side=side, each=each, range=reach)
    if kind not in spec.targets:
        allowed = ", ".join(sorted(k.value for k in spec.targets)) or "nothing"
        raise LanguageError(f"{spec.name} cannot target {kind.value} (it targets {allowed})")
    if spec.own:
        if target.side is Side.ENEMY:
            raise LanguageError(f"{spec.name} takes only a permanent you control (R11.3)")
        if kind is not TargetKind.SELF:
            target = Target(kind=kind, side=Side.FRIENDLY, each=target.each, range=target.range)
    return target


def _verb(word: str) -> Verb:
    """The registered verb `word` names (`engine.verbs`), or a LanguageError."""
    verb = verbs.VERBS.named(word)
    if verb is None:
        raise LanguageError(f"unknown verb {word!r}", nearest(word, verbs.VERBS.words()))
    return verb


def parse_effect(text: str) -> Effect:
    """One effect: `VERB [N] [NAME] [to|on|from TARGET]`."""
    words = text.split()
    if not words:
        raise LanguageError("empty effect")
    spec = _verb(words[0])
    rest = words[1:]
    amount = 1
    if rest and is_number(rest[0]):
        if not spec.amount:
            raise LanguageError(f"{spec.name} takes no number: {text.strip()!r}")
        amount = int(rest[0])
        rest = rest[1:]
    if rest and any(norm(rest[-1]) == norm(w) for w in spec.particles):
        rest = rest[:-1]  # German "wirf N ab"
    if rest and norm(rest[0]) in _FILLER and not spec.card:
        rest = rest[1:]
    if spec.card:
        if not rest:
            raise LanguageError(f"{spec.name} needs a card name: {text.strip()!r}")
        return Effect(spec.name, amount, Target(), " ".join(rest))
    if rest and norm(rest[0]) in _PREPOSITIONS:
        rest = rest[1:]
    if rest:
        if not spec.takes_target:
            raise LanguageError(f"{spec.name} takes no target: {' '.join(rest)!r}")
        return Effect(spec.name, amount, _parse_target(rest, spec))
    if spec.takes_target:
        if spec.default is None:
            raise LanguageError(
                f"{spec.name} needs a target, e.g. '{spec.name} 1 to target enemy unit in range 1'"
            )
        return Effect(spec.name, amount, Target(kind=spec.default))
    return Effect(spec.name, amount)


_AND = re.compile(r"\s+(?:and|und)\s+", re.IGNORECASE)


def _split_effects(text: str) -> list[str]:
    """Split on `,`, and on `and`/`und` where a verb follows (so card names may contain "and")."""
    pieces: list[str] = []
    for part in text.split(","):
        start = 0
        for match in _AND.finditer(part):
            following = part[match.end() :].split(maxsplit=1)
            if following and verbs.VERBS.named(following[0]) is not None:
                pieces.append(part[start : match.start()])
                start = match.end()
        pieces.append(part[start:])
    return [p.strip() for p in pieces]


def _effect_list(text: str) -> tuple[Effect, ...]:
    pieces = _split_effects(text)
    if any(not p for p in pieces):
        raise LanguageError(f"empty effect in {text.strip()!r}")
    return tuple(parse_effect(p) for p in pieces)


def _items(text: str) -> list[str]:
    """The `;`-separated items of a cell, blank items dropped."""
    return [item.strip() for item in text.split(";") if item.strip()]


def parse_effects(text: str) -> tuple[Effect, ...]:
    """The `effect` column: effects joined by `;`, `,` or `and`."""
    return tuple(e for item in _items(text) for e in _effect_list(item))


def _split_colon(item: str, what: str, example: str) -> tuple[str, str]:
    head, colon, tail = item.partition(":")
    if not colon or not head.strip() or not tail.strip():
        raise LanguageError(f"{what} {item!r} needs the form {example}")
    return head.strip(), tail.strip()


def parse_triggers(text: str) -> tuple[Trigger, ...]:
    """The `trigger` column: `EVENT: EFFECTS; ...` (R6.1)."""
    triggers = []
    for item in _items(text):
        event, effects = _split_colon(item, "trigger", "'when this dies: gain 2'")
        canon = lookup(" ".join(event.split()), _TRIGGER_WORDS, "trigger event")
        triggers.append(Trigger(canon, _effect_list(effects)))
    return tuple(triggers)


_COST_WORDS = aliases(
    {
        "pay": ("zahle", "zahlen"),
        "discard": ("wirf", "abwerfen"),
        "sacrifice": ("opfern", "opfere"),
        "use": ("benutzen", "benutze"),
    }
)


def _parse_cost(text: str) -> Cost:
    """`pay N`, `discard N`, `sacrifice`, `use` (R6.7, R15.8), joined by `,` or `and`."""
    resource = discard = 0
    sacrifice = False
    for piece in re.split(r",|\s+(?:and|und)\s+", text, flags=re.IGNORECASE):
        words = piece.split()
        if not words:
            raise LanguageError(f"empty cost in {text!r}")
        kind = lookup(words[0], _COST_WORDS, "cost")
        rest = [w for w in words[1:] if norm(w) not in ({"ab", "self", "selbst"} | _FILLER)]
        if kind in ("sacrifice", "use"):
            if rest:
                raise LanguageError(f"cost {kind} takes nothing more: {piece.strip()!r}")
            sacrifice = True  # a used potion is gone like a sacrificed one (R15.8)
            continue
        if len(rest) > 1:
            raise LanguageError(f"unexpected {' '.join(rest[1:])!r} in cost {piece.strip()!r}")
        n = whole_number(rest[0], f"cost {kind}") if rest else 1
        if kind == "pay":
            resource += n
        else:
            discard += n
    return Cost(resource=resource, discard=discard, sacrifice=sacrifice)


def parse_free_actions(text: str) -> tuple[FreeAction, ...]:
    """The `free action` column: `COST: EFFECTS; ...` (R6.7)."""
    actions = []
    for item in _items(text):
        cost, effects = _split_colon(item, "free action", "'discard 1: draw 1'")
        actions.append(FreeAction(_parse_cost(cost), _effect_list(effects)))
    return tuple(actions)


def parse_full_actions(text: str) -> tuple[tuple[Effect, ...], ...]:
    """The `full action` column: alternatives separated by `;`, each a list of effects (R12.4)."""
    return tuple(_effect_list(item) for item in _items(text))


__all__ = [
    "TRIGGER_EVENTS",
    "parse_effect",
    "parse_effects",
    "parse_free_actions",
    "parse_full_actions",
    "parse_triggers",
]
