"""Generating fuzz cases: random **valid** card sets and boards, as the text of the
spreadsheets a designer would type, loaded by the same loader as `workbench simulate`.

A case is drawn by `random_cards` (the card language's own tables drive the choice of verbs,
trigger events, keywords, costs and target forms, so a new verb is fuzzed at once) and
`random_boards` (every terrain, field mark and victory kind, 2-4 players, teams and the Tyrant).
"""

from __future__ import annotations

import csv
import random
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from engine.state import GameConfig
from workbench.content import card_sets
from workbench.content.setup import load_setup
from workbench.fuzz.random_boards import draw_board
from workbench.fuzz.random_cards import Generator

CARD_COLUMNS = tuple(
    c for c in card_sets.CARD_COLUMNS if c not in ("set", "armor", "text", "notes")
)
"""The card-set columns a case writes (docs/card-language.md): not the set (the file names it),
armor (drawn as the keyword) or a designer's text and notes."""
BEHAVIOUR_COLUMNS = card_sets.LANGUAGE_COLUMNS
PLACEMENT_COLUMNS = ("card", "owner", "x", "y", "vip")


@dataclass
class Case:
    """The text of one card set and one board, cell by cell, as a designer would type them."""

    cards: list[dict[str, str]]
    map: list[list[str]]
    scenario: dict[str, str]
    placements: list[dict[str, str]] = field(default_factory=list)

    def write(self, folder: Path) -> tuple[Path, Path]:
        """`cards.csv` and the board `board.map.csv`, `board.scenario.csv`,
        `board.placements.csv` in `folder`; returns (card set, board) as simulate takes them."""
        folder.mkdir(parents=True, exist_ok=True)
        _write_csv(
            folder / "cards.csv",
            [list(CARD_COLUMNS)] + [[row.get(c, "") for c in CARD_COLUMNS] for row in self.cards],
        )
        _write_csv(folder / "board.map.csv", self.map)
        _write_csv(
            folder / "board.scenario.csv",
            [["key", "value"]] + [[k, v] for k, v in self.scenario.items()],
        )
        _write_csv(
            folder / "board.placements.csv",
            [list(PLACEMENT_COLUMNS)]
            + [[row.get(c, "") for c in PLACEMENT_COLUMNS] for row in self.placements],
        )
        return folder / "cards.csv", folder / "board"

    def to_json(self) -> dict[str, object]:
        return {
            "cards": self.cards,
            "map": self.map,
            "scenario": self.scenario,
            "placements": self.placements,
        }

    @staticmethod
    def from_json(data: dict[str, object]) -> Case:
        return Case(
            cast("list[dict[str, str]]", data["cards"]),
            cast("list[list[str]]", data["map"]),
            cast("dict[str, str]", data["scenario"]),
            cast("list[dict[str, str]]", data["placements"]),
        )


def _write_csv(path: Path, rows: Sequence[Sequence[str]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)


def load_case(case: Case) -> GameConfig:
    """The case through the loader `workbench simulate` uses (raises ValidationError)."""
    with tempfile.TemporaryDirectory(prefix="fuzz-") as tmp:
        cards, board = case.write(Path(tmp))
        return load_setup([str(cards)], str(board)).config


def generate_case(seed: int) -> Case:
    """A random valid card set and board: any victory kind, 2-4 players, teams, the Tyrant."""
    g = Generator(random.Random(seed))
    board = draw_board(g, f"fuzz {seed}")
    return Case(g.cards, board.rows(), board.scenario, board.placements)
