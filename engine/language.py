"""The card language: cell text -> typed specs (docs/card-language.md).

Pure parsing, no I/O. Every cell is read once at load time; nothing is evaluated as code. Words
match case-insensitively, German umlauts may be written as ae/oe/ue, and an unknown word raises a
`LanguageError` that names it and the nearest known words, so a designer can fix a typo at once.
"""

from __future__ import annotations

import re

from engine import verbs
from engine.board import Terrain
from engine.cards import (
    CardType,
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
from engine.verbs import Verb
from engine.words import aliases, nearest, norm


class LanguageError(ValueError):
    """A cell that is not card language: `message` names the bad word, `suggestions` the nearest."""

    def __init__(self, message: str, suggestions: tuple[str, ...] = ()) -> None:
        self.message = message
        self.suggestions = suggestions
        hint = f"; did you mean {' or '.join(repr(s) for s in suggestions)}?" if suggestions else ""
        super().__init__(message + hint)


def _lookup(word: str, table: dict[str, str], what: str) -> str:
    """`table[norm(word)]`, or a LanguageError naming `word` and the nearest keys."""
    key = norm(word)
    if key in table:
        return table[key]
    raise LanguageError(f"unknown {what} {word!r}", nearest(word, list(table)))


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


def _is_number(word: str) -> bool:
    return word.isascii() and word.isdigit()


def _int(word: str, what: str) -> int:
    """A whole number >= 0 written in a cell's text."""
    if not _is_number(word):
        raise LanguageError(f"{what} must be a whole number, not {word!r}")
    return int(word)


def _parse_target(words: list[str], spec: Verb) -> Target:
    """`self` or `target|each [enemy|friendly] KIND [in range N]`."""
    start = _lookup(words[0], _TARGET_STARTS, "target word")
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
        kind = _KIND_OF[_lookup(rest[0], _KINDS, "target kind")]
        rest = rest[1:]
        reach: int | None = None
        if len(rest) == 3 and tuple(norm(w) for w in rest[:2]) in (_RANGE, _RANGE_DE):
            reach = _int(rest[2], "range")
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
    if rest and _is_number(rest[0]):
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
        canon = _lookup(" ".join(event.split()), _TRIGGER_WORDS, "trigger event")
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
        kind = _lookup(words[0], _COST_WORDS, "cost")
        rest = [w for w in words[1:] if norm(w) not in ({"ab", "self", "selbst"} | _FILLER)]
        if kind in ("sacrifice", "use"):
            if rest:
                raise LanguageError(f"cost {kind} takes nothing more: {piece.strip()!r}")
            sacrifice = True  # a used potion is gone like a sacrificed one (R15.8)
            continue
        if len(rest) > 1:
            raise LanguageError(f"unexpected {' '.join(rest[1:])!r} in cost {piece.strip()!r}")
        n = _int(rest[0], f"cost {kind}") if rest else 1
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


# --- keywords -------------------------------------------------------------------------------

_KEYWORD_WORDS = aliases(
    {
        "armor": ("armour", "rüstung"),
        "crew": ("bemannen",),
        "swimming": ("schwimmend",),
        "veiled": ("verhüllt",),
        "protection from": ("schutz vor",),
        "solid": (),
        "building": ("gebäude",),
        "staff": ("stab",),
        "tyrant": ("tyrann",),
        "moves on": ("bewegt auf",),
    }
)
_NUMBERED_KEYWORDS = {"armor", "crew", "solid"}
_TERRAIN_WORDS = aliases(
    {
        Terrain.PLAIN.value: ("ebene",),
        Terrain.HIGH_GROUND.value: ("high", "hügel"),
        Terrain.DEEP_WATER.value: ("water", "wasser", "tiefes wasser"),
    }
)
CARD_TYPE_WORDS: dict[CardType, tuple[str, ...]] = {
    CardType.UNIT: ("units", "einheit", "einheiten"),
    CardType.SPELL: ("spells", "zauber"),
    CardType.ARTIFACT: ("artifacts", "artefakt", "artefakte"),
    CardType.EQUIPMENT: ("ausrüstung",),
    CardType.POTION: ("potions", "trank", "tränke"),
    CardType.INTENTION: ("intentions",),
}
"""Each card type's other words (plural, German): the one table for the card sheets' `type`
column (workbench.loader) and `protection from X` (R11.4)."""
_TYPE_WORDS = aliases(
    {
        **{t.value: words for t, words in CARD_TYPE_WORDS.items()},
        "card": ("cards", "karte", "karten"),
    }
)
_STATS = aliases(
    {
        "buy": ("kaufpreis",),
        "play": ("spielkosten",),
        "upkeep": ("unterhalt",),
        "life": ("leben",),
        "move": ("bewegung",),
        "attack": ("angriff",),
        "range": ("reichweite",),
    }
)
_OPS = {"<": "<", "<=": "<=", ">": ">", ">=": ">=", "=": "=", "==": "=", "!=": "!="}
_WITH = {"with", "mit"}


def _keyword_head(words: list[str]) -> tuple[str, list[str]]:
    """The keyword that `words` start with (one or two words) and the words after it."""
    two = norm(" ".join(words[:2]))
    if len(words) >= 2 and two in _KEYWORD_WORDS:
        return _KEYWORD_WORDS[two], words[2:]
    return _lookup(words[0], _KEYWORD_WORDS, "keyword"), words[1:]


def _parse_protection(words: list[str]) -> Protection:
    """`protection from X [with STAT OP N]` (R11.4): X a card type or else a card name."""
    if not words:
        raise LanguageError("protection from what? e.g. 'protection from spells'")
    low = [norm(w) for w in words]
    if low[0] not in _TYPE_WORDS:
        if any(w in _WITH for w in low):
            raise LanguageError(
                f"'with' needs a card type before it, not {words[0]!r}",
                nearest(words[0], list(_TYPE_WORDS)),
            )
        return Protection(card=" ".join(words))
    kind = _TYPE_WORDS[low[0]]
    ctype = None if kind == "card" else CardType(kind)
    if len(words) == 1:
        return Protection(type=ctype)
    if len(words) != 5 or low[1] not in _WITH:
        raise LanguageError(
            f"write 'protection from {words[0]} with STAT OP N', not {' '.join(words)!r}"
        )
    stat = _lookup(words[2], _STATS, "stat")
    op = _OPS.get(words[3])
    if op is None:
        raise LanguageError(f"unknown comparison {words[3]!r}", tuple(_OPS))
    return Protection(type=ctype, stat=stat, op=op, value=_int(words[4], "protection value"))


def _join_terrain_lists(pieces: list[str]) -> list[str]:
    """Re-join `moves on plain, high ground`, which a `,` split has cut apart."""
    joined: list[str] = []
    for piece in pieces:
        if joined and norm(piece) in _TERRAIN_WORDS and _starts_moves_on(joined[-1]):
            joined[-1] += "," + piece
        else:
            joined.append(piece)
    return joined


def _starts_moves_on(piece: str) -> bool:
    return norm(" ".join(piece.split()[:2])) in ("moves on", "bewegt auf")


def _pieces(text: str) -> list[str]:
    """Items separated by `;` or `,`; blank items dropped."""
    raw = [p.strip() for p in re.split(r"[;,]", text) if p.strip()]
    return _join_terrain_lists(raw)


class _KeywordsBuilder:
    """Collects keywords piece by piece; each keyword at most once (except protections)."""

    def __init__(self) -> None:
        self.numbers: dict[str, int] = {}
        self.flags: set[str] = set()
        self.protections: tuple[Protection, ...] = ()
        self.moves_on: frozenset[str] | None = None

    def add(self, piece: str) -> None:
        keyword, rest = _keyword_head(piece.split())
        if keyword in self.flags or keyword in self.numbers:
            raise LanguageError(f"keyword {keyword!r} given twice")
        if keyword in _NUMBERED_KEYWORDS:
            if len(rest) != 1:
                raise LanguageError(
                    f"{keyword} needs one number, e.g. '{keyword} 2', not {piece!r}"
                )
            self.numbers[keyword] = _int(rest[0], keyword)
        elif keyword == "protection from":
            self.protections += (_parse_protection(rest),)
        elif keyword == "moves on":
            names = [t for t in " ".join(rest).split(",") if t.strip()]
            if not names or self.moves_on is not None:
                raise LanguageError(
                    "write 'moves on' once, with its terrains, e.g. 'moves on plain, high ground'"
                )
            self.moves_on = frozenset(
                _lookup(" ".join(t.split()), _TERRAIN_WORDS, "terrain") for t in names
            )
        elif rest:
            raise LanguageError(f"{keyword} takes nothing more: {piece!r}")
        else:
            self.flags.add(keyword)

    def build(self) -> Keywords:
        return Keywords(
            armor=self.numbers.get("armor", 0),
            crew=self.numbers.get("crew", 0),
            swimming="swimming" in self.flags,
            veiled="veiled" in self.flags,
            protections=self.protections,
            solid=self.numbers.get("solid"),
            building="building" in self.flags,
            staff="staff" in self.flags,
            tyrant="tyrant" in self.flags,
            moves_on=self.moves_on,
        )


def parse_keywords(text: str) -> Keywords:
    """The `keywords` column: keywords separated by `;` (or `,`)."""
    builder = _KeywordsBuilder()
    for piece in _pieces(text):
        builder.add(piece)
    return builder.build()


# --- modifiers ------------------------------------------------------------------------------

_MOD_STATS = aliases(
    {
        "attack": ("angriff",),
        "range": ("reichweite",),
        "life": ("leben",),
        "move": ("movement", "bewegung"),
        "armor": ("armour", "rüstung"),
    }
)
_SIGNED = re.compile(r"^[+-]\d+$")


def parse_modifiers(text: str) -> Modifiers:
    """The `modifiers` column: `+N attack`, `armor N`, keywords ... (R21.11).

    `-N` is allowed too (heavy equipment may slow its unit). `armor` counts as a modifier, not
    as a keyword, so equipment armor adds to the unit's own (R12.8).
    """
    stats = dict.fromkeys(("attack", "range", "life", "move", "armor"), 0)
    builder = _KeywordsBuilder()
    has_keywords = False
    for piece in _pieces(text):
        words = piece.split()
        if _SIGNED.match(words[0]):
            if len(words) != 2:
                raise LanguageError(f"write '+N STAT', e.g. '+1 attack', not {piece!r}")
            stats[_lookup(words[1], _MOD_STATS, "modifier")] += int(words[0])
        elif norm(words[0]) in ("armor", "armour", "ruestung") and len(words) == 2:
            stats["armor"] += _int(words[1], "armor")
        else:
            try:
                builder.add(piece)
            except LanguageError as err:
                if norm(words[0]) in _KEYWORD_WORDS or norm(" ".join(words[:2])) in _KEYWORD_WORDS:
                    raise
                raise LanguageError(
                    f"unknown modifier {words[0]!r}",
                    nearest(words[0], list(_MOD_STATS) + list(_KEYWORD_WORDS)),
                ) from err
            has_keywords = True
    return Modifiers(keywords=builder.build() if has_keywords else None, **stats)


__all__ = [
    "CARD_TYPE_WORDS",
    "TRIGGER_EVENTS",
    "LanguageError",
    "nearest",
    "norm",
    "parse_effect",
    "parse_effects",
    "parse_free_actions",
    "parse_full_actions",
    "parse_keywords",
    "parse_modifiers",
    "parse_triggers",
]
