"""Cards as typed, immutable data (R8.4, R8.7, R12.1, R15).

A `Card` is one row of a card-set spreadsheet after parsing: plain numbers as fields, behaviour
as effect specs from the card language (`engine.language`). The engine never sees a cell's text.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Self


class CardType(str, Enum):
    """The six card types of R8.4, each with what it counts as (read on every legal-action list,
    so kept on the member: an attribute read, not a property call)."""

    is_permanent: bool
    """Units, artifacts, equipment and potions are permanents (R8.4)."""
    is_artifact: bool
    """Equipment and potions are artifacts too (R15.5, R15.8)."""
    is_equipment: bool
    """Potions are equipment with durability 1 (R15.8)."""
    is_spell: bool
    """Intentions are spells too (R17.1, R21.23: "protection from spells" stops them)."""

    def __new__(
        cls,
        value: str,
        permanent: bool = False,
        artifact: bool = False,
        equipment: bool = False,
        spell: bool = False,
    ) -> Self:
        member = str.__new__(cls, value)
        member._value_ = value
        member.is_permanent = permanent
        member.is_artifact = artifact
        member.is_equipment = equipment
        member.is_spell = spell
        return member

    UNIT = ("unit", True)
    SPELL = ("spell", False, False, False, True)
    ARTIFACT = ("artifact", True, True)
    EQUIPMENT = ("equipment", True, True, True)
    POTION = ("potion", True, True, True)
    INTENTION = ("intention", False, False, False, True)


PERMANENT_TYPES = frozenset(t for t in CardType if t.is_permanent)


class Side(str, Enum):
    """Whose permanents a target may be, seen from the acting player."""

    ANY = "any"
    ENEMY = "enemy"
    FRIENDLY = "friendly"


class TargetKind(str, Enum):
    """What an effect acts on."""

    NONE = "none"  # the acting player (draw, gain, score ...)
    SELF = "self"  # the permanent the effect belongs to
    UNIT = "unit"
    PERMANENT = "permanent"
    ARTIFACT = "artifact"
    EQUIPMENT = "equipment"  # equipment and potions only (R15.5, R15.8)
    OPPONENT = "opponent"  # a player, chosen like a target
    FIELD = "field"  # a field, e.g. the origin of a push (R14.1)


CHOSEN_KINDS = frozenset(
    {
        TargetKind.UNIT,
        TargetKind.PERMANENT,
        TargetKind.ARTIFACT,
        TargetKind.EQUIPMENT,
        TargetKind.OPPONENT,
        TargetKind.FIELD,
    }
)
"""The target kinds a player names when announcing (R6.4); `none` and `self` name nothing."""


@dataclass(frozen=True, slots=True)
class Target:
    """An effect's target: `target enemy unit in range 3`, `each friendly unit in range 1`, `self`.

    `each` means every matching permanent (no choice, nothing announced); otherwise one is chosen
    when the action is announced (R6.4). `range` counts from the source permanent; for a spell,
    from any permanent its controller controls (R10.1).
    """

    kind: TargetKind = TargetKind.NONE
    side: Side = Side.ANY
    each: bool = False
    range: int | None = None

    @property
    def is_chosen(self) -> bool:
        """True when the player names this target at announcement (R6.4)."""
        return not self.each and self.kind in CHOSEN_KINDS


@dataclass(frozen=True, slots=True)
class Effect:
    """One verb of the card language with its amount, target and optional card name (tokens)."""

    verb: str
    amount: int = 1
    target: Target = Target()
    card: str | None = None


@dataclass(frozen=True, slots=True)
class Trigger:
    """`when this dies: gain 2` (R6.1): an event word and the effects it starts."""

    event: str
    effects: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class Cost:
    """The cost side of a free action (R6.7): resource, discards, sacrifice of the source."""

    resource: int = 0
    discard: int = 0
    sacrifice: bool = False


@dataclass(frozen=True, slots=True)
class FreeAction:
    """`discard 1: draw 1` (R6.7)."""

    cost: Cost
    effects: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class Protection:
    """`protection from X` (R11.4): X is a card name, a card type, or a type with a condition.

    `card` names one card; otherwise `type` (None = any card) with an optional comparison of a
    numeric field, e.g. units with buy > 7 is type=UNIT, stat="buy", op=">", value=7.
    """

    card: str | None = None
    type: CardType | None = None
    stat: str | None = None
    op: str | None = None
    value: int = 0


@dataclass(frozen=True, slots=True)
class Keywords:
    """Static keywords of a permanent (R9.5, R11.4, R12.8, R12.9, R15.4, R19)."""

    armor: int = 0
    crew: int = 0
    swimming: bool = False
    veiled: bool = False
    protections: tuple[Protection, ...] = ()
    solid: int | None = None
    building: bool = False
    staff: bool = False
    tyrant: bool = False
    moves_on: frozenset[str] | None = None


@dataclass(frozen=True, slots=True)
class Modifiers:
    """What an equipped equipment adds to its unit (R21.11)."""

    attack: int = 0
    range: int = 0
    armor: int = 0
    life: int = 0
    move: int = 0
    keywords: Keywords | None = None


@dataclass(frozen=True, slots=True, weakref_slot=True)
class Card:
    """One card definition. `None` for a cost means the card has none (R6.2, R7.3); 0 is a cost."""

    name: str
    set: str
    type: CardType
    copies: int = 1
    buy: int | None = None
    play: int | None = None
    upkeep: int | None = None
    life: int | None = None
    move: int | None = None
    attack: int | None = None
    range: int | None = None
    durability: int | None = None
    keywords: Keywords = field(default_factory=Keywords)
    effects: tuple[Effect, ...] = ()
    triggers: tuple[Trigger, ...] = ()
    free_actions: tuple[FreeAction, ...] = ()
    full_actions: tuple[tuple[Effect, ...], ...] = ()
    modifiers: Modifiers = field(default_factory=Modifiers)
    text: str = ""

    def __hash__(self) -> int:
        """By name and set only, so a card keys a cache cheaply: copies share a definition, and
        the variants a study makes (same name, other numbers) compare unequal."""
        return hash((self.name, self.set))

    @property
    def draftable(self) -> bool:
        """Only cards with a buy price take part in a draft (R3.1)."""
        return self.buy is not None

    @property
    def is_permanent(self) -> bool:
        return self.type.is_permanent

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Unpickled through the intern table: a worker that unpickles a job per task, or
        the two sides of an A/B, gets the cards it already has."""
        return _unpickled, _content(self)


def interned(card: Card) -> Card:
    """The card in use with `card`'s fields (`card` itself if there is none): equal cards read
    or unpickled again are one object, so a cache keyed by cards (`card_value`) finds them by
    identity instead of comparing every field. Cards are frozen, so sharing one is safe."""
    return _INTERNED.setdefault(_content(card), card)


_INTERNED: weakref.WeakValueDictionary[tuple[object, ...], Card] = weakref.WeakValueDictionary()
"""Every card in use, once per content; weak, so the cards no setup uses any more (a long fuzz
run's) do not stay in it."""


def _content(card: Card) -> tuple[object, ...]:
    """A card's fields, its key in `_INTERNED` (the card itself as key would keep it alive)."""
    return tuple(getattr(card, name) for name in _FIELDS)


_FIELDS = tuple(f.name for f in fields(Card))


def _unpickled(*content: object) -> Card:
    return interned(Card(*content))  # type: ignore[arg-type]  # Card's own fields, in order


@dataclass(frozen=True, slots=True)
class CardSet:
    """A named set of cards (R1.1); `source` is the file (and sheet) it came from."""

    name: str
    cards: tuple[Card, ...]
    source: str = ""

    def card(self, name: str) -> Card:
        """The card called `name` (case-insensitive)."""
        key = name.casefold()
        for c in self.cards:
            if c.name.casefold() == key:
                return c
        raise KeyError(f"set {self.name!r} has no card {name!r}")
