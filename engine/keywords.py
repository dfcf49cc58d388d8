"""The card language's keyword grammar: the `keywords` column (armor, crew, swimming, veiled,
protection from, solid, building, staff, tyrant, moves on) and the `modifiers` column of
equipment (R21.11), cell text -> `Keywords` and `Modifiers` (docs/card-language.md). The effect
grammar (effects, triggers, costs, actions) is `engine.language`."""

from __future__ import annotations

import re

from engine.board import Terrain
from engine.cards import CardType, Keywords, Modifiers, Protection
from engine.words import LanguageError, aliases, lookup, nearest, norm, whole_number

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
column (workbench.content.card_sets) and `protection from X` (R11.4)."""
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
    return lookup(words[0], _KEYWORD_WORDS, "keyword"), words[1:]


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
    stat = lookup(words[2], _STATS, "stat")
    op = _OPS.get(words[3])
    if op is None:
        raise LanguageError(f"unknown comparison {words[3]!r}", tuple(_OPS))
    return Protection(
        type=ctype, stat=stat, op=op, value=whole_number(words[4], "protection value")
    )


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
            self.numbers[keyword] = whole_number(rest[0], keyword)
        elif keyword == "protection from":
            self.protections += (_parse_protection(rest),)
        elif keyword == "moves on":
            names = [t for t in " ".join(rest).split(",") if t.strip()]
            if not names or self.moves_on is not None:
                raise LanguageError(
                    "write 'moves on' once, with its terrains, e.g. 'moves on plain, high ground'"
                )
            self.moves_on = frozenset(
                lookup(" ".join(t.split()), _TERRAIN_WORDS, "terrain") for t in names
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
_SIGNED = re.compile(r"^[+-][0-9]+$")


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
            stats[lookup(words[1], _MOD_STATS, "modifier")] += int(words[0])
        elif norm(words[0]) in ("armor", "armour", "ruestung") and len(words) == 2:
            stats["armor"] += whole_number(words[1], "armor")
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


__all__ = ["CARD_TYPE_WORDS", "parse_keywords", "parse_modifiers"]
