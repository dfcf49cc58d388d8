"""Variants of a setup: one card field or one board setting changed, or a card replaced by a
plain baseline (cost sweeps, tuning and ablation).

A variant is a description (`Change`) applied to a loaded setup; the spreadsheets are never
touched. Applying the same change to the same setup always gives the same config, so variants
of a sweep can share seeds.
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import statistics
from dataclasses import dataclass
from typing import Any

from engine.board import Board, Victory
from engine.cards import Card, CardType, Effect, Keywords, Modifiers
from workbench.content.card_sets import COLUMN_LIMITS
from workbench.content.setup import Setup

CARD_FIELDS = tuple(COLUMN_LIMITS)
"""Card fields a sweep may vary: every number column (`armor` is the keyword's number)."""

BOARD_SETTINGS = (
    "income",
    "unit_income",
    "round_limit",
    "victory_target",
    "tyrant_goal",
    "starting_hand",
)
"""Board settings a sweep may vary."""


@dataclass(frozen=True)
class Change:
    """One change: `card`+`field`, or `setting` (board), to `value`; or `baseline` for `card`.

    `value` None means "none" (an empty cell: no buy price, no play cost).
    """

    card: str | None = None
    field: str | None = None
    setting: str | None = None
    value: int | None = None
    baseline: bool = False

    def label(self) -> str:
        if self.baseline:
            return f"{self.card} -> baseline"
        what = f"{self.card}.{self.field}" if self.card else f"board.{self.setting}"
        return f"{what}={'none' if self.value is None else self.value}"


def card_value(card: Card, field: str) -> int | None:
    """A card's current value of a sweepable field."""
    if field == "armor":
        return card.keywords.armor
    value = getattr(card, field)
    return value if value is None else int(value)


def _set_card_field(card: Card, field: str, value: int | None) -> Card:
    if field not in CARD_FIELDS:
        raise ValueError(
            f"cannot vary card field {field!r}; choose one of {', '.join(CARD_FIELDS)}"
        )
    if value is not None and value < 0:
        raise ValueError(f"{field} must not be negative, got {value}")
    if field == "armor":
        return dataclasses.replace(
            card, keywords=dataclasses.replace(card.keywords, armor=value or 0)
        )
    if field == "copies" and (value is None or value < 1):
        raise ValueError("copies must be at least 1")
    changed: dict[str, Any] = {field: value}
    return dataclasses.replace(card, **changed)


def baseline_of(card: Card, pool: tuple[Card, ...]) -> Card:
    """A plain card of the same type and costs: no keywords or behaviour; a unit gets the median
    life, move, attack and range of the pool's units with the same buy price (its own numbers
    if there are none), a spell gains resource equal to its play cost plus one."""
    plain = dataclasses.replace(
        card,
        name=card.name,
        keywords=Keywords(),
        effects=(),
        triggers=(),
        free_actions=(),
        full_actions=(),
        modifiers=Modifiers(),
        text="baseline",
    )
    if card.type is CardType.UNIT:
        peers = [
            c for c in pool if c.type is CardType.UNIT and c.buy == card.buy and c.name != card.name
        ] or [card]

        def median(field: str) -> int:
            return int(statistics.median(getattr(c, field) or 0 for c in peers))

        return dataclasses.replace(
            plain,
            life=max(1, median("life")),
            move=median("move"),
            attack=median("attack"),
            range=max(1, median("range")),
        )
    if card.type is CardType.SPELL:
        return dataclasses.replace(plain, effects=(Effect("gain", (card.play or 0) + 1),))
    return plain


def _set_board(board: Board, setting: str, value: int | None) -> Board:
    if setting not in BOARD_SETTINGS:
        raise ValueError(
            f"cannot vary board setting {setting!r}; choose one of {', '.join(BOARD_SETTINGS)}"
        )
    if value is None:
        raise ValueError(f"board setting {setting} needs a number")
    if setting == "victory_target":
        return dataclasses.replace(board, victory=dataclasses.replace(board.victory, target=value))
    if setting == "tyrant_goal":
        victory: Victory = dataclasses.replace(board.victory, tyrant_goal=value)
        return dataclasses.replace(board, victory=victory)
    if setting == "round_limit" and value < 1:
        raise ValueError("round_limit must be at least 1")
    changed: dict[str, Any] = {setting: value}
    return dataclasses.replace(board, **changed)


def apply_change(setup: Setup, change: Change) -> Setup:
    """The setup with `change` applied; raises ValueError naming what is wrong."""
    config = setup.config
    board = setup.board
    pool, catalog, sets = config.pool, dict(config.catalog), setup.sets
    if change.card is not None:
        key = change.card.casefold()
        if key not in catalog:
            close = difflib.get_close_matches(key, sorted(catalog), n=3, cutoff=0.6)
            hint = f"; did you mean {' or '.join(catalog[c].name for c in close)}?" if close else ""
            raise ValueError(f"no card {change.card!r} in the chosen sets{hint}")
        old = catalog[key]
        if change.baseline:
            new = baseline_of(old, pool)
        else:
            if change.field is None:
                raise ValueError("a card change needs a field")
            new = _set_card_field(old, change.field, change.value)
        catalog[key] = new
        pool = tuple(new if c is old else c for c in pool)
        sets = tuple(
            dataclasses.replace(s, cards=tuple(new if c is old else c for c in s.cards))
            for s in sets
        )
    elif change.setting is not None:
        board = _set_board(board, change.setting, change.value)
    new_config = dataclasses.replace(config, pool=pool, catalog=catalog, board=board)
    digest = hashlib.sha256((setup.content_hash + "|" + change.label()).encode()).hexdigest()
    return dataclasses.replace(
        setup, config=new_config, sets=sets, board=board, content_hash=digest[:16]
    )
