"""The vocabulary's tables: one table of card-type words for the loader and the language."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from engine.cards import CardType
from engine.language import CARD_TYPE_WORDS, parse_keywords
from workbench.loader import load_cardsets

# --- one table of card-type words -------------------------------------------------------

TYPE_WORDS = [(t, w) for t, words in CARD_TYPE_WORDS.items() for w in (t.value, *words)]


def test_every_card_type_has_its_words() -> None:
    assert set(CARD_TYPE_WORDS) == set(CardType)


@pytest.mark.parametrize(("ctype", "word"), TYPE_WORDS)
def test_the_loader_and_the_language_read_the_same_type_words(ctype: CardType, word: str,
                                                               tmp_path: Path) -> None:
    """R8.4 types: a card sheet's `type` column and `protection from X` (R11.4) take the same
    words, from the one table."""
    path = tmp_path / "set.csv"
    with path.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([["name", "type", "life", "move", "attack", "durability"],
                                 ["Thing", word, *(["1", "1", "1"] if ctype is CardType.UNIT
                                                   else ["", "", ""]),
                                  "1" if ctype.is_equipment else ""]])
    [card_set] = load_cardsets(path)
    assert card_set.cards[0].type is ctype
    [protection] = parse_keywords(f"protection from {word}").protections
    assert protection.type is ctype
