"""Planted mispricings for the recovery benchmark
(benchmarks/bench_recovery.py): cards of a shipped set made too cheap or too strong, or too
dear or too weak, by a large or a moderate step of their buy price, play cost, upkeep, a unit's
attack or life, or one number of their effects, written as a CSV copy of the set with those
cells changed.

The copy is checked by loading it: every other card must load as in the original, and each
planted card must differ only in its planted number. Whether a plant really moves the card's
worth the planted way is not assumed here: the benchmark confirms it by randomised play.
"""

from __future__ import annotations

import csv
import dataclasses
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from engine.cards import Card, CardSet, CardType, Effect
from workbench.content.card_sets import _CARD_COLUMNS, load_cardsets
from workbench.content.sheets import Cell, is_blank, read_sheets
from workbench.content.tables import ValidationError, header_key


class Size(str, Enum):
    LARGE = "large"
    MODERATE = "moderate"


class Direction(str, Enum):
    """The way a plant pushes a card, in the words of the report's verdicts."""

    STRONG = "too strong"
    WEAK = "too weak"


COSTS = ("buy", "play", "upkeep")
STATS = ("attack", "life")
"""A unit's numbers a plant may change (R12.1): more is stronger, as for an effect's number."""
COLUMNS = (*COSTS, *STATS)
"""The planted numbers that have a column of their own."""
EFFECT = "effect"
FIELDS = (*COLUMNS, EFFECT)
"""What a plant changes: a cost, a unit's attack or life, or one number of the card's effects
(`effect`)."""

STEP = {
    Size.LARGE: {"buy": 4, "play": 2, "upkeep": 2, "attack": 2, "life": 2, EFFECT: 2},
    Size.MODERATE: dict.fromkeys(FIELDS, 1),
}
"""How far a plant moves the number, by size and field. A large buy step is 4: a price moved by
3 left the causal effect of the cards planted so inside the noise of two 4,000-game runs. Even
so, the first 40 cases moved the planted card's effect the planted way by a median of 1 point
(BENCHMARKS.md, "Recovery of planted mispricings"): with one purchase a turn, a price or a play
cost is a weak lever in these sets."""
LOWEST = {"buy": 1, "play": 0, "upkeep": 0, "attack": 1, "life": 1, EFFECT: 1}
"""The smallest value a planted number may take (a buy price of 0 is no price at all)."""

GOOD_VERBS = frozenset(
    {"damage", "heal", "protect", "push", "gain", "draw", "poison", "panic", "paralyse"}
    | {"steal", "burn", "repair", "score", "create"}
    | {"attack", "range", "armor", "life", "move"}
)
"""Effect verbs (and equipment modifiers) whose larger number is better for the card's owner:
the only numbers an effect plant changes. Sacrifice, discard and rage are left alone."""

TYPES = (CardType.UNIT, CardType.SPELL, CardType.EQUIPMENT, CardType.ARTIFACT, CardType.POTION)
TYPE_FIELDS = {
    CardType.UNIT: ("buy", "upkeep", EFFECT, "play"),
    CardType.SPELL: ("buy", EFFECT, "play"),
    CardType.EQUIPMENT: ("buy", EFFECT, "play"),
    CardType.ARTIFACT: ("buy", EFFECT, "play"),
    CardType.POTION: ("buy", EFFECT, "play"),
}
"""The fields planted per card type, in the order the cases take them (only units have upkeep);
a unit's STATS are planted only where a case list asks for them (`slot`'s `fields`)."""
_MODIFIER_FIELDS = ("attack", "range", "armor", "life", "move")
_ZERO_MODIFIERS: dict[str, Any] = dict.fromkeys(_MODIFIER_FIELDS, 0)
_EFFECT_COLUMNS = ("effect", "trigger", "free action", "full action", "modifiers")


@dataclass(frozen=True)
class Plant:
    """One planted number: `card` of `set` (a `type`), `field` from `old` to `new`; for an
    effect plant `verb` names the effect (or modifier) whose number changed."""

    card: str
    set: str
    type: str
    field: str
    old: int
    new: int
    size: Size
    direction: Direction
    verb: str = ""

    def label(self) -> str:
        what = f"{self.field} ({self.verb})" if self.verb else self.field
        return (
            f"{self.card} {what} {self.old} -> {self.new} "
            f"({self.size.value}, {self.direction.value})"
        )


# --- what a card's effect numbers are ----------------------------------------------------------


def _effects(card: Card) -> list[Effect]:
    return [
        *card.effects,
        *(e for t in card.triggers for e in t.effects),
        *(e for a in card.free_actions for e in a.effects),
        *(e for alt in card.full_actions for e in alt),
    ]


def effect_numbers(card: Card) -> list[tuple[str, int]]:
    """(verb, number) of every effect of the card (spell effect, triggers, free and full
    actions, in that order) and of its modifiers (attack, range, armor, life, move)."""
    out = [(e.verb, e.amount) for e in _effects(card)]
    return out + [(f, getattr(card.modifiers, f)) for f in _MODIFIER_FIELDS]


def _zero(effects: Iterable[Effect]) -> tuple[Effect, ...]:
    return tuple(dataclasses.replace(e, amount=0) for e in effects)


def without_numbers(card: Card) -> Card:
    """The card with every effect number and modifier number set to 0: two cards equal here
    differ at most in those numbers."""
    return dataclasses.replace(
        card,
        effects=_zero(card.effects),
        triggers=tuple(dataclasses.replace(t, effects=_zero(t.effects)) for t in card.triggers),
        free_actions=tuple(
            dataclasses.replace(a, effects=_zero(a.effects)) for a in card.free_actions
        ),
        full_actions=tuple(_zero(alt) for alt in card.full_actions),
        modifiers=dataclasses.replace(card.modifiers, **_ZERO_MODIFIERS),
    )


def is_planted(original: Card, planted: Card, plant: Plant) -> bool:
    """Whether `planted` is `original` with exactly the plant's number changed."""
    if plant.field in COLUMNS:
        number: dict[str, Any] = {plant.field: plant.new}
        return planted == dataclasses.replace(original, **number)
    if without_numbers(planted) != without_numbers(original):
        return False
    changed = [
        (a, b)
        for a, b in zip(effect_numbers(original), effect_numbers(planted), strict=True)
        if a != b
    ]
    return changed == [((plant.verb, plant.old), (plant.verb, plant.new))]


# --- choosing plants ---------------------------------------------------------------------------


def _signed_step(field: str, size: Size, direction: Direction) -> int:
    """The change of the number: a cost falls and a stat or an effect grows for a card made
    stronger."""
    step = STEP[size][field]
    stronger = -step if field in COSTS else step
    return stronger if direction is Direction.STRONG else -stronger


def plants_of(card: Card, field: str, size: Size, direction: Direction) -> list[Plant]:
    """Every plant of this kind the card allows (none if the number would leave its range; an
    effect plant per effect number of a GOOD_VERBS verb, the first of each verb and value)."""
    if card.buy is None or card.type not in TYPE_FIELDS or field not in allowed(card.type):
        return []
    delta = _signed_step(field, size, direction)
    common = (card.name, card.set, card.type.value, field)
    if field in COLUMNS:
        old = getattr(card, field)
        if old is None or old + delta < LOWEST[field]:
            return []
        return [Plant(*common, old, old + delta, size, direction)]
    found: dict[tuple[str, int], Plant] = {}
    for verb, old in effect_numbers(card):
        if verb in GOOD_VERBS and old > 0 and old + delta >= LOWEST[EFFECT]:
            found.setdefault((verb, old), Plant(*common, old, old + delta, size, direction, verb))
    return list(found.values())


def allowed(kind: CardType) -> tuple[str, ...]:
    """The fields a card of this type can be planted in."""
    return TYPE_FIELDS[kind] + (STATS if kind is CardType.UNIT else ())


@dataclass(frozen=True)
class Slot:
    """What the i-th case plants: a card type, a field to try first, a size and a direction."""

    type: CardType
    fields: tuple[str, ...]
    size: Size
    direction: Direction


def slot(
    i: int,
    kind: CardType | None = None,
    kinds: Sequence[CardType] = TYPES,
    fields: Sequence[str] | None = None,
) -> Slot:
    """Case i's kind, spread so that any first few cases mix the kinds: the type cycles through
    `kinds` (all five: period 5), the size with period 2 and the direction with period 4 (each
    type meets every size and direction within 20 cases), the field per type in TYPE_FIELDS'
    order or `fields`' (those the type allows; the others after it, for a card that cannot take
    the first). `kind` replaces the type (for a set without a card of case i's own type)."""
    kind = kinds[i % len(kinds)] if kind is None else kind
    order = TYPE_FIELDS[kind] if fields is None else tuple(fields)
    usable = tuple(f for f in order if f in allowed(kind)) or TYPE_FIELDS[kind]
    first = (i // len(kinds)) % len(usable)
    return Slot(
        kind,
        usable[first:] + usable[:first],
        (Size.LARGE, Size.MODERATE)[i % 2],
        (Direction.STRONG, Direction.WEAK)[(i // 2) % 2],
    )


def choose_plant(
    i: int,
    cards: Sequence[Card],
    seed: int,
    taken: set[tuple[str, str]],
    excluded: set[str],
    want: Slot | None = None,
) -> Plant | None:
    """Case i's plant among `cards`: the slot's (slot(i) unless given) type, size and direction,
    the first of its fields some card allows, the card drawn by a seeded draw among those; never
    a (card, field) in `taken` nor a card named in `excluded` (casefolded). None if no card of
    the type allows any of its fields."""
    want = slot(i) if want is None else want
    rng = random.Random(f"{seed}:{i}")
    for field in want.fields:
        options = [
            p
            for c in cards
            if c.type is want.type and c.name.casefold() not in excluded
            for p in plants_of(c, field, want.size, want.direction)
            if (p.card, p.field) not in taken
        ]
        if options:
            return rng.choice(options)
    return None


# --- writing a planted copy ----------------------------------------------------------------


def _plain(cell: Cell) -> Cell:
    return int(cell) if isinstance(cell, float) and cell.is_integer() else cell


def set_rows(source: Path, set_name: str) -> list[list[Cell]]:
    """The rows of the sheet that holds `set_name` (a CSV's only sheet), numbers that are whole
    written as integers."""
    sheets = read_sheets(source)
    sheet = next((s for s in sheets if header_key(s.name) == header_key(set_name)), sheets[0])
    return [[_plain(c) for c in row] for row in sheet.rows]


def write_rows(rows: Sequence[Sequence[Cell]], target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(["" if c is None else c for c in row] for row in rows)
    return target


def _columns(rows: Sequence[Sequence[Cell]]) -> tuple[int, dict[str, int]]:
    """The header row's index and each canonical column's index."""
    first = next(i for i, r in enumerate(rows) if not is_blank(tuple(r)))
    names = {_CARD_COLUMNS.get(header_key(c)): j for j, c in enumerate(rows[first]) if c}
    return first, {k: v for k, v in names.items() if k is not None}


def _card_row(rows: Sequence[Sequence[Cell]], card: str) -> tuple[int, dict[str, int]]:
    first, columns = _columns(rows)
    for i in range(first + 1, len(rows)):
        row = rows[i]
        name = row[columns["name"]] if columns["name"] < len(row) else None
        if isinstance(name, str) and name.strip().casefold() == card.casefold():
            return i, columns
    raise ValueError(f"no row for {card!r}")


def _candidates(rows: list[list[Cell]], plant: Plant) -> Iterable[list[list[Cell]]]:
    """Copies of `rows` with one cell changed that may carry the plant: the cost cell, or each
    occurrence of the old number in the card's effect cells."""
    i, columns = _card_row(rows, plant.card)
    cols = [columns[plant.field]] if plant.field in COLUMNS else []
    cols += [columns[c] for c in _EFFECT_COLUMNS if c in columns and plant.field == EFFECT]
    for j in cols:
        cell = rows[i][j] if j < len(rows[i]) else None
        if plant.field in COLUMNS:
            texts = [str(plant.new)]
        elif isinstance(cell, str):
            spots = [m for m in re.finditer(r"\d+", cell) if int(m.group()) == plant.old]
            texts = [cell[: m.start()] + str(plant.new) + cell[m.end() :] for m in spots]
        else:
            texts = []
        for text in texts:
            copy = [list(r) for r in rows]
            copy[i].extend([None] * (j + 1 - len(copy[i])))
            copy[i][j] = int(text) if plant.field in COLUMNS else text
            yield copy


def write_planted(
    source: Path,
    original: CardSet,
    plants: Sequence[Plant],
    target: Path,
    catalog: Sequence[CardSet],
) -> Path:
    """Write `original` (read from `source`) to the CSV `target` with each plant's cell changed
    (the plants on different cards) and check it by loading it against `catalog`: every other
    card as in `original`, each planted one changed only in its planted number. ValueError
    naming the plant if no cell carries it."""
    rows = set_rows(source, original.name)
    before = {c.name: c for c in original.cards}
    expected = dict(before)
    for plant in plants:
        for copy in _candidates(rows, plant):
            write_rows(copy, target)
            try:
                (loaded,) = load_cardsets(target, catalog)
            except (ValueError, ValidationError):
                continue
            after = {c.name: c for c in loaded.cards}
            same = all(after.get(n) == c for n, c in expected.items() if n != plant.card)
            whole = same and len(after) == len(before) and plant.card in after
            if whole and is_planted(before[plant.card], after[plant.card], plant):
                rows, expected[plant.card] = copy, after[plant.card]
                break
        else:
            target.unlink(missing_ok=True)
            raise ValueError(f"{source}: no cell carries the plant {plant.label()}")
    return write_rows(rows, target)


def write_original(
    source: Path, original: CardSet, target: Path, catalog: Sequence[CardSet]
) -> Path:
    """Write `original` unchanged as the CSV `target` (the unplanted twin of a planted copy),
    checked to load card for card as `original`."""
    write_rows(set_rows(source, original.name), target)
    (loaded,) = load_cardsets(target, catalog)
    if loaded.cards != original.cards:
        raise ValueError(f"{target}: the CSV copy of {source} does not load as the original")
    return target
