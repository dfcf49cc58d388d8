"""`workbench validate`: every problem of many files at once, exit codes, summaries."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path

import pytest

from engine.cards import Card, CardSet, CardType
from workbench.cli import main
from workbench.validate import SetSummary, summarize_set, validate


def write_csv(path: Path, rows: Sequence[Sequence[object]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([["" if v is None else v for v in row] for row in rows])
    return path


def good_content(folder: Path) -> Path:
    """A token set, a starter set and a CSV board that refer to each other across files."""
    folder.mkdir()
    write_csv(folder / "necro.csv", [["name", "type", "copies", "buy", "effect"],
                                     ["Raise", "spell", 2, 3, "create 1 Zombie"],
                                     ["Curse", "spell", 1, 5, None],
                                     ["Bolt", "spell", 1, 1, None]])
    write_csv(folder / "tokens.csv", [["name", "type", "life", "move"], ["Zombie", "unit", 1, 1]])
    write_csv(folder / "start.csv", [["name", "type", "life", "move"], ["Hero", "unit", 3, 2]])
    boards = folder / "boards"
    boards.mkdir()
    write_csv(boards / "duel.map.csv", [[".1", "."], [".", ".2"]])
    write_csv(boards / "duel.scenario.csv", [["key", "value"], ["victory", "vip"],
                                             ["victory card", "Hero"], ["start cards", "Hero x1"]])
    write_csv(boards / "duel.placements.csv", [["card", "owner", "x", "y", "vip"],
                                               ["Hero", 1, 1, 0, "yes"], ["Hero", 2, 0, 1, "yes"]])
    return folder


def test_summary_of_a_set() -> None:
    cardset = CardSet("s", (Card("A", "s", CardType.UNIT, copies=2, buy=1, life=1, move=1),
                            Card("B", "s", CardType.SPELL, buy=4),
                            Card("C", "s", CardType.SPELL)), "s.csv")
    assert summarize_set(cardset) == SetSummary("s", "s.csv", 3, 4, 3, (("spell", 2),
                                                                         ("unit", 1)),
                                                (1, 1, 4))


def test_good_content_passes_with_summaries(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    folder = good_content(tmp_path / "content")
    assert main(["validate", str(folder)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"set necro ({folder}/necro.csv): 3 cards, 4 copies, 4 draftable copies; 3 spell; "
        "buy min 1 / median 3 / max 5",
        f"set start ({folder}/start.csv): 1 cards, 1 copies, 0 draftable copies; 1 unit; "
        "no buy prices",
        f"set tokens ({folder}/tokens.csv): 1 cards, 1 copies, 0 draftable copies; 1 unit; "
        "no buy prices",
        f"board duel ({folder}/boards/duel.map.csv): 2x2, 2 players, victory vip (Hero)",
    ]


def test_every_problem_across_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = good_content(tmp_path / "content")
    (folder / "tokens.csv").unlink()  # the token and ...
    write_csv(folder / "start.csv", [["name", "type", "life"], ["Hero", "unti", 3]])
    (folder / "junk.xlsx").write_bytes(b"not a workbook")
    assert main(["validate", str(folder)]) == 2
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"{folder}/junk.xlsx: not a readable .xlsx workbook (invalid Zip archive: Could not "
        "find EOCD)",
        f"{folder}/start.csv, row 2, column type (B): 'unti': unknown card type 'unti'; did you "
        "mean 'unit'?",
        f"{folder}/necro.csv, row 2, column effect (E): 'create 1 Zombie': unknown card 'Zombie' "
        "(token)",
        "3 problem(s) found",
    ]


def test_start_card_of_wrong_type_and_duplicate_set(tmp_path: Path) -> None:
    folder = good_content(tmp_path / "content")
    write_csv(folder / "boards" / "duel.scenario.csv", [
        ["victory", "staff"], ["victory card", "Hero"], ["start cards", "Hero"]])
    write_csv(folder / "more.csv", [["name", "type", "set"], ["Extra", "spell", "necro"]])
    report = validate([folder])
    assert [str(p) for p in report.problems] == [
        f"{folder}/necro.csv: set 'necro' is also defined in {folder}/more.csv",
        f"{folder}/boards/duel.scenario.csv, row 2, column value (B): 'Hero': victory card "
        "'Hero' is of type unit; expected equipment or potion",
    ]


def test_missing_path(tmp_path: Path) -> None:
    report = validate([tmp_path / "nope.csv"])
    assert [str(p) for p in report.problems] == [f"{tmp_path}/nope.csv: no such file or folder"]


def test_shipped_content_is_valid() -> None:
    report = validate([Path(__file__).resolve().parent.parent / "cardsets"])
    assert [str(p) for p in report.problems] == []
