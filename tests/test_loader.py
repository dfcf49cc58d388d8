"""Loading card sets and boards from .csv, .xlsx and .ods (docs/card-language.md,
docs/boards.md)."""

from __future__ import annotations

import csv
import gc
import re
import zipfile
from collections.abc import Sequence
from pathlib import Path

import openpyxl
import pandas as pd
import pytest

from engine import cards as cards_module
from engine.board import (
    NEUTRAL,
    TYRANT,
    Board,
    Field,
    Placement,
    Terrain,
    TieBreak,
    Victory,
    VictoryKind,
)
from engine.cards import (
    Card,
    CardSet,
    CardType,
    Cost,
    Effect,
    FreeAction,
    Keywords,
    Modifiers,
    Side,
    Target,
    TargetKind,
    Trigger,
)
from tests.rules import rules
from workbench.content.board_map import field_code, parse_field
from workbench.content.boards import load_board
from workbench.content.card_sets import CONTENT_DIR, find_board, find_cardset, load_cardsets
from workbench.content.tables import ValidationError, cell_int

Rows = Sequence[Sequence[object]]

HEADER = [
    "name",
    "type",
    "copies",
    "buy",
    "play",
    "upkeep",
    "life",
    "move",
    "attack",
    "range",
    "armor",
    "durability",
    "keywords",
    "effect",
    "trigger",
    "modifiers",
    "text",
]
ROWS: list[list[object]] = [
    [
        "Imp",
        "unit",
        2,
        3,
        1,
        0,
        2,
        2,
        1,
        None,
        1,
        None,
        "veiled",
        None,
        "when this dies: create 1 Skeleton",
        None,
        "a small demon",
    ],
    [
        "Skeleton",
        "unit",
        None,
        None,
        None,
        None,
        1,
        1,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
    ],
    [
        "Fireball",
        "spell",
        1,
        4,
        0,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        "damage 3 to target enemy unit in range 3",
        None,
        None,
        None,
    ],
    [
        "Sword",
        "equipment",
        1,
        2,
        1,
        None,
        None,
        None,
        None,
        None,
        None,
        2,
        None,
        None,
        None,
        "+1 attack",
        None,
    ],
    [
        "Tonic",
        "potion",
        1,
        1,
        0,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
    ],
]


def expected(set_name: str, source: str) -> list[CardSet]:
    """The hand-written cards that HEADER/ROWS must load as."""
    cards = (
        Card(
            "Imp",
            set_name,
            CardType.UNIT,
            copies=2,
            buy=3,
            play=1,
            upkeep=0,
            life=2,
            move=2,
            attack=1,
            range=1,
            keywords=Keywords(armor=1, veiled=True),
            triggers=(Trigger("dies", (Effect("create", 1, Target(), "Skeleton"),)),),
            text="a small demon",
        ),
        Card("Skeleton", set_name, CardType.UNIT, life=1, move=1, attack=0, range=1),
        Card(
            "Fireball",
            set_name,
            CardType.SPELL,
            buy=4,
            play=0,
            effects=(Effect("damage", 3, Target(TargetKind.UNIT, Side.ENEMY, False, 3)),),
        ),
        Card(
            "Sword",
            set_name,
            CardType.EQUIPMENT,
            buy=2,
            play=1,
            durability=2,
            modifiers=Modifiers(attack=1),
        ),
        Card("Tonic", set_name, CardType.POTION, buy=1, play=0, durability=1),
    )
    return [CardSet(set_name, cards, source)]


def write_csv(path: Path, rows: Rows, delimiter: str = ",") -> Path:
    with path.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f, delimiter=delimiter).writerows(
            [["" if v is None else v for v in row] for row in rows]
        )
    return path


def write_xlsx(path: Path, sheets: dict[str, Rows]) -> Path:
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(list(row))
    book.save(path)
    return path


def write_ods(path: Path, sheets: dict[str, Rows]) -> Path:
    with pd.ExcelWriter(path, engine="odf") as writer:
        for name, rows in sheets.items():
            pd.DataFrame([list(r) for r in rows]).to_excel(
                writer, sheet_name=name, index=False, header=False
            )
    return path


def problems_of(path: Path, catalog: Sequence[CardSet] = ()) -> list[str]:
    with pytest.raises(ValidationError) as err:
        load_cardsets(path, catalog)
    return [str(p) for p in err.value.problems]


# --- card sets: the three formats ---------------------------------------------------------


def test_csv_loads_hand_written_cards(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "demons.csv", [HEADER, *ROWS])
    assert load_cardsets(path) == expected("demons", str(path))


def test_xlsx_loads_the_same(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "book.xlsx", {"demons": [HEADER, *ROWS]})
    assert load_cardsets(path) == expected("demons", f"{path}#demons")


def test_ods_loads_the_same(tmp_path: Path) -> None:
    path = write_ods(tmp_path / "book.ods", {"demons": [HEADER, *ROWS]})
    assert load_cardsets(path) == expected("demons", f"{path}#demons")


def test_a_card_read_again_is_the_card_read_first(tmp_path: Path) -> None:
    """The same rows read again (another setup in the same process, an A/B's other side) give
    the very Card objects read first, so caches keyed by cards find them by identity; a row
    that differs gives its own card."""
    first = load_cardsets(write_csv(tmp_path / "demons.csv", [HEADER, *ROWS]))[0].cards
    (tmp_path / "again").mkdir()
    again = load_cardsets(write_csv(tmp_path / "again" / "demons.csv", [HEADER, *ROWS]))[0].cards
    assert len(first) > 1 and all(a is b for a, b in zip(first, again, strict=True))
    other = [[*ROWS[0][:-1], "another text"], *ROWS[1:]]
    changed = load_cardsets(write_csv(tmp_path / "again" / "demons.csv", [HEADER, *other]))[0]
    assert changed.cards[0] is not first[0] and changed.cards[1] is first[1]


def test_cards_no_longer_used_leave_the_loaders_table(tmp_path: Path) -> None:
    """The table that shares cards across loads holds them weakly: a long fuzz run's cards,
    once no setup uses them, do not stay in memory."""
    cards = load_cardsets(write_csv(tmp_path / "gone.csv", [HEADER, *ROWS]))[0].cards
    assert cards[0].set == "gone" and cards[0] in list(cards_module._INTERNED.values())
    del cards
    gc.collect()
    assert not [c for c in list(cards_module._INTERNED.values()) if c.set == "gone"]


def test_semicolon_csv_as_german_excel_writes_it(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "demons.csv", [HEADER, *ROWS], delimiter=";")
    assert load_cardsets(path) == expected("demons", str(path))


def test_one_set_per_sheet_and_set_column(tmp_path: Path) -> None:
    path = write_xlsx(
        tmp_path / "book.xlsx",
        {
            "fire": [["name", "type"], ["Spark", "spell"]],
            "water": [["name", "type", "set"], ["Wave", "spell", "sea"], ["Drop", "spell", None]],
        },
    )
    sets = load_cardsets(path)
    assert [(s.name, [c.name for c in s.cards]) for s in sets] == [
        ("fire", ["Spark"]),
        ("sea", ["Wave"]),
        ("water", ["Drop"]),
    ]


def test_german_headers_and_words(tmp_path: Path) -> None:
    german = [
        "Name",
        "Typ",
        "Anzahl",
        "Kaufpreis",
        "Spielkosten",
        "Unterhalt",
        "Leben",
        "Bewegung",
        "Angriff",
        "Reichweite",
        "Rüstung",
        "Haltbarkeit",
        "Schlüsselwörter",
        "Effekt",
        "Auslöser",
        "Modifikatoren",
        "Text",
    ]
    rows = [list(r) for r in ROWS]
    rows[0][12], rows[0][14] = "verhüllt", "wenn dies stirbt: erzeuge 1 Skeleton"
    rows[2][1], rows[2][13] = "Zauber", "Schaden 3 auf Ziel gegnerische Einheit in Reichweite 3"
    rows[3][1], rows[3][15] = "Equipment", "+1 Angriff"
    rows[4][1] = "Trank"
    rows[0][1] = rows[1][1] = "Einheit"
    path = write_csv(tmp_path / "demons.csv", [german, *rows])
    assert load_cardsets(path) == expected("demons", str(path))


def test_headers_ignore_case_space_underscore_dash(tmp_path: Path) -> None:
    path = write_csv(
        tmp_path / "s.csv",
        [
            ["NAME", "Type", "Free_Action", "full-action"],
            ["Sage", "artifact", "discard 1: draw 1", None],
        ],
    )
    [cardset] = load_cardsets(path)
    assert cardset.cards[0].free_actions[0].effects == (Effect("draw", 1),)


def _cache_formula_value(path: Path, cell: str, value: str) -> None:
    """openpyxl saves formulas without a value; give one a cached value, as Excel would."""
    with zipfile.ZipFile(path) as z:
        files = {n: z.read(n) for n in z.namelist()}
    sheet = "xl/worksheets/sheet1.xml"
    xml = files[sheet].decode()
    xml, n = re.subn(
        rf'(<c r="{cell}"[^>]*>)<f>([^<]*)</f><v\s*/?>(</v>)?', rf"\1<f>\2</f><v>{value}</v>", xml
    )
    assert n == 1
    files[sheet] = xml.encode()
    with zipfile.ZipFile(path, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)


def test_formula_counts_by_its_cached_value(tmp_path: Path) -> None:
    path = write_xlsx(
        tmp_path / "f.xlsx", {"s": [["name", "type", "buy"], ["Spark", "spell", "=1+2"]]}
    )
    _cache_formula_value(path, "C2", "3")
    [cardset] = load_cardsets(path)
    assert cardset.cards[0].buy == 3


@pytest.mark.parametrize(("cell", "value"), [(3, 3), (3.0, 3), ("3", 3), (" 3 ", 3), ("0", 0)])
def test_numbers(cell: object, value: int) -> None:
    assert cell_int(cell) == value  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("cell", "message"),
    [
        ("abc", "not a number"),
        (2.5, "not a whole number"),
        ("2.5", "not a whole number"),
        (-1, "must be 0 or more"),
        (True, "not a number"),
    ],
)
def test_bad_numbers(cell: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        cell_int(cell)  # type: ignore[arg-type]


def test_empty_cost_is_none_and_zero_is_a_cost(tmp_path: Path) -> None:
    path = write_csv(
        tmp_path / "s.csv", [["name", "type", "buy", "play"], ["Free", "spell", 0, None]]
    )
    [cardset] = load_cardsets(path)
    assert (cardset.cards[0].buy, cardset.cards[0].play) == (0, None)


# --- card sets: malformed ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "problem"),
    [
        (
            [["name", "type", "buy"], ["X", "spell", "abc"]],
            "row 2, column buy (C): 'abc': not a number",
        ),
        (
            [["name", "type", "buy"], ["X", "spell", -1]],
            "row 2, column buy (C): '-1': must be 0 to 99",
        ),
        (
            [["name", "type", "buy"], ["X", "spell", 2.5]],
            "row 2, column buy (C): '2.5': not a whole number",
        ),
        (
            [["name", "type"], ["X", "spel"]],
            "row 2, column type (B): 'spel': unknown card type 'spel'; did you mean 'spell'?",
        ),
        (
            [["name", "type", "keywords"], ["X", "unit", "veild"]],
            "row 2, column keywords (C): 'veild': unknown keyword 'veild'; did you mean 'veiled'?",
        ),
        (
            [["name", "type", "effect"], ["X", "spell", "damge 1 to self"]],
            "row 2, column effect (C): 'damge 1 to self': unknown verb 'damge'; did you mean "
            "'damage' "
            "or 'rage'?",
        ),
        (
            [["name", "type"], ["X", "spell"], ["x", "spell"]],
            "row 3, column name (A): 'x': duplicate card name 'x' in set 's' (first in row 2)",
        ),
        (
            [["name", "type", "life"], ["X", "unit", 2]],
            "row 2, column move (no such column): a unit needs move (R12.1)",
        ),
        (
            [["name", "type", "life", "move"], ["X", "unit", None, 1]],
            "row 2, column life (C): a unit needs life (R12.1)",
        ),
        (
            [["name", "type", "durability"], ["X", "equipment", None]],
            "row 2, column durability (C): equipment needs durability (R15.5)",
        ),
        ([["name", "buy"], ["X", 1]], "row 1: missing required column 'type'"),
        (
            [["name", "type", "atack"], ["X", "spell", 1]],
            "row 1, column atack (C): 'atack': unknown column; did you mean 'attack'?",
        ),
        (
            [["name", "type", "effect"], ["X", "spell", "create 1 Skeletn"]],
            "row 2, column effect (C): 'create 1 Skeletn': unknown card 'Skeletn' (token)",
        ),
        ([["name", "type"], [None, "spell"]], "row 2, column name (A): missing card name"),
        # numbers beyond the bounds of docs/card-language.md (the store's INTEGER columns
        # overflowed at 3e9; 5e9 copies exhausted memory in `validate`)
        (
            [["name", "type", "copies"], ["X", "spell", "5000000000"]],
            "row 2, column copies (C): '5000000000': must be 0 to 99",
        ),
        (
            [["name", "type", "buy"], ["X", "spell", "100000000000000000000"]],
            "row 2, column buy (C): '100000000000000000000': must be 0 to 99",
        ),
        (
            [["name", "type", "play"], ["X", "spell", 100]],
            "row 2, column play (C): '100': must be 0 to 99",
        ),
        (
            [["name", "type", "upkeep"], ["X", "spell", 250]],
            "row 2, column upkeep (C): '250': must be 0 to 99",
        ),
        (
            [["name", "type", "life", "move"], ["X", "unit", 3000000000, 1]],
            "row 2, column life (C): '3000000000': must be 0 to 999",
        ),
        (
            [["name", "type", "life", "move"], ["X", "unit", 1, 1000]],
            "row 2, column move (D): '1000': must be 0 to 99",
        ),
        (
            [["name", "type", "life", "move", "attack"], ["X", "unit", 1, 1, 5000]],
            "row 2, column attack (E): '5000': must be 0 to 999",
        ),
        (
            [["name", "type", "life", "move", "range"], ["X", "unit", 1, 1, 100]],
            "row 2, column range (E): '100': must be 0 to 99",
        ),
        (
            [["name", "type", "armor"], ["X", "artifact", 100]],
            "row 2, column armor (C): '100': must be 0 to 99",
        ),
        (
            [["name", "type", "durability"], ["X", "equipment", 1000]],
            "row 2, column durability (C): '1000': must be 0 to 999",
        ),
        (
            [["name", "type", "effect"], ["X", "spell", "create 100000000 Skeleton"]],
            "row 2, column effect (C): 'create 100000000 Skeleton': 100000000 is too large: "
            "numbers in "
            "the card language are at most 999",
        ),
        (
            [
                ["name", "type", "effect"],
                ["X", "spell", "damage 1 to target enemy unit in range 5000"],
            ],
            "row 2, column effect (C): 'damage 1 to target enemy unit in range 5000': 5000 is too "
            "large: numbers in the card language are at most 999",
        ),
        (
            [["name", "type", "keywords"], ["X", "artifact", "solid 100000"]],
            "row 2, column keywords (C): 'solid 100000': 100000 is too large: numbers in the card "
            "language are at most 999",
        ),
        (
            [["name", "type", "durability", "modifiers"], ["X", "equipment", 1, "-5000 attack"]],
            "row 2, column modifiers (D): '-5000 attack': -5000 is too large: numbers in the card "
            "language are at most 999",
        ),
        (
            [["name", "type", "free action"], ["X", "artifact", "pay 10000: draw 1"]],
            "row 2, column free action (C): 'pay 10000: draw 1': 10000 is too large: numbers in "
            "the "
            "card language are at most 999",
        ),
        # silent ignores
        (
            [["name", "type"], ["X", "spell", "stray"]],
            "row 2, column C: 'stray': a value in a column without a header: name the column in "
            "row 1 "
            "(e.g. notes) or delete the value",
        ),
        (
            [["name", "type", None, "buy"], ["X", "spell", None, 2], ["Y", "spell", 7, 1]],
            "row 3, column C: '7': a value in a column without a header: name the column in row 1 "
            "(e.g. notes) or delete the value",
        ),
        (
            [["name", "type"], ["Caf\u00e9", "spell"], ["Cafe\u0301", "spell"]],
            "row 3, column name (A): 'Caf\u00e9': duplicate card name 'Caf\u00e9' in set 's' "
            "(first in "
            "row 2)",
        ),
        (
            [["name", "type", "set"], ["Bolt", "spell", "fire"], ["bolt", "spell", "storm"]],
            "row 3, column name (A): 'bolt': card 'bolt' is also defined in set 'fire' (row 2): a "
            "card "
            "name may be defined by one set only, since boards and effects find cards by name; "
            "rename "
            "one of them",
        ),
    ],
)
def test_malformed_card_rows(tmp_path: Path, rows: Rows, problem: str) -> None:
    path = write_csv(tmp_path / "s.csv", rows)
    assert f"{path}, {problem}" in problems_of(path)


def test_nfc_names_are_one_name_across_files(tmp_path: Path) -> None:
    """A token named with a combining accent resolves to the precomposed card (and back)."""
    tokens = write_csv(
        tmp_path / "tokens.csv", [["name", "type", "life", "move"], ["Ghu\u0308l", "unit", 1, 1]]
    )
    path = write_csv(
        tmp_path / "s.csv", [["name", "type", "effect"], ["Raise", "spell", "create 1 Gh\u00fcl"]]
    )
    [token_set] = load_cardsets(tokens)
    assert token_set.cards[0].name == "Gh\u00fcl"
    [cardset] = load_cardsets(path, [token_set])
    assert cardset.cards[0].effects[0].card == "Gh\u00fcl"


def test_hidden_sheet_is_not_read_as_a_set(tmp_path: Path) -> None:
    path = tmp_path / "h.xlsx"
    book = openpyxl.Workbook()
    book.active.title = "fire"
    book.active.append(["name", "type"])
    book.active.append(["Spark", "spell"])
    helper = book.create_sheet("lookup")
    helper.append(["name", "type"])
    helper.append(["Scratch", "spell"])
    helper.sheet_state = "hidden"
    book.save(path)
    assert problems_of(path) == [
        f"{path}, sheet 'lookup': hidden sheet: every sheet of a card-set workbook is read as a "
        "set; unhide it, or move it to another file"
    ]


UNSAVED = (
    "formula without a saved value, so it would read as an empty cell (the workbench "
    "never computes formulas): open the file in a spreadsheet program and save it, or "
    "type the value"
)


def test_xlsx_formula_without_a_saved_value_is_reported_not_read_as_empty(tmp_path: Path) -> None:
    """openpyxl (like other scripts) saves `=1+2` without its value: the buy price would
    silently become "none" (not buyable, R3.1)."""
    path = write_xlsx(
        tmp_path / "f.xlsx", {"s": [["name", "type", "buy"], ["Spark", "spell", "=1+2"]]}
    )
    assert problems_of(path) == [f"{path}, sheet 's', row 2, column C: '=1+2': {UNSAVED}"]


def test_ods_formula_without_a_saved_value_is_reported(tmp_path: Path) -> None:
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    doc = OpenDocumentSpreadsheet()
    table = Table(name="s")
    for row in (["name", "type", "buy"], ["Spark", "spell", None]):
        tr = TableRow()
        for value in row:
            if value is None:
                tr.addElement(TableCell(formula="of:=1+2"))
            else:
                cell = TableCell(valuetype="string")
                cell.addElement(P(text=value))
                tr.addElement(cell)
        table.addElement(tr)
    doc.spreadsheet.addElement(table)
    path = tmp_path / "f.ods"
    doc.save(str(path))
    assert problems_of(path) == [f"{path}, sheet 's', row 2, column C: '=1+2': {UNSAVED}"]


def test_malformed_xlsx_names_sheet(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "b.xlsx", {"fire": [[None], ["name", "type"], ["X", "unti"]]})
    assert problems_of(path) == [
        f"{path}, sheet 'fire', row 3, column type (B): 'unti': unknown "
        "card type 'unti'; did you mean 'unit'?"
    ]


def test_every_problem_at_once(tmp_path: Path) -> None:
    path = write_csv(
        tmp_path / "s.csv",
        [["name", "type", "buy", "play"], ["A", "spel", "x", -2], ["B", "unit", 1, 1]],
    )
    assert len(problems_of(path)) == 5  # type, buy, play, B's life and move


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("empty.csv", b"", "empty file"),
        ("empty.xlsx", b"", "empty file"),
        ("corrupt.xlsx", b"this is not a zip", "not a readable .xlsx workbook"),
        ("corrupt.ods", b"PK\x03\x04broken", "not a readable .ods workbook"),
        ("notes.txt", b"name,type\n", "not a spreadsheet (expected .csv, .xlsx or .ods)"),
        ("blank.csv", b",,\n,,\n", "no values in any sheet"),
        ("binary.csv", b"\x00\x01\x02", "binary data, not a CSV spreadsheet"),
    ],
)
def test_bad_files(tmp_path: Path, name: str, content: bytes, message: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    [problem] = problems_of(path)
    assert problem.startswith(f"{path}: {message}")


def test_header_only_file_has_no_cards(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "s.csv", [["name", "type"]])
    assert problems_of(path) == [
        f"{path}: no cards: expected a header row with 'name' and 'type', then one card per row"
    ]


def test_tokens_resolve_against_catalog(tmp_path: Path) -> None:
    tokens = write_csv(
        tmp_path / "tokens.csv", [["name", "type", "life", "move"], ["Skeleton", "unit", 1, 1]]
    )
    path = write_csv(
        tmp_path / "s.csv", [["name", "type", "effect"], ["Raise", "spell", "create 2 Skeleton"]]
    )
    [cardset] = load_cardsets(path, load_cardsets(tokens))
    assert cardset.cards[0].effects == (Effect("create", 2, Target(), "Skeleton"),)


# --- boards -------------------------------------------------------------------------------

MAP = [[".1", ".1", "~"], ["^A", ".$$", "#"], ["water", ".2", ".2"]]
SCENARIO = [
    ["key", "value"],
    ["name", "Duel"],
    ["players", 2],
    ["victory", "vip"],
    ["victory card", "Hero"],
    ["start cards", "Peasant x3, Gold x2"],
    ["teams", "1;2"],
    ["unit income", -1],
    ["round limit", 20],
    ["tie break", "points"],
]
PLACEMENTS = [
    ["card", "owner", "x", "y", "vip"],
    ["Hero", 1, 0, 0, "yes"],
    ["Hero", 2, 2, 2, "yes"],
    ["Hero", "neutral", 1, 0, None],
    ["Hero", "tyrant", 1, 2, "no"],
]
CATALOG = [
    CardSet(
        "starter",
        (
            Card("Hero", "starter", CardType.UNIT, life=5, move=2, attack=2, range=1),
            Card("Peasant", "starter", CardType.UNIT, life=1, move=1, attack=1, range=1),
            Card("Gold", "starter", CardType.ARTIFACT),
        ),
    )
]


def expected_board(source: str) -> Board:
    p, w, h = Terrain.PLAIN, Terrain.DEEP_WATER, Terrain.HIGH_GROUND
    return Board(
        name="Duel",
        width=3,
        height=3,
        fields=(
            Field(p, 0),
            Field(p, 0),
            Field(w),
            Field(h, area="A"),
            Field(p, income=2),
            Field(Terrain.BLOCKED),
            Field(w),
            Field(p, 1),
            Field(p, 1),
        ),
        victory=Victory(VictoryKind.VIP, card="Hero"),
        players=2,
        teams=((0,), (1,)),
        unit_income=-1,
        start_cards=(("Peasant", 3), ("Gold", 2)),
        round_limit=20,
        tie_break=TieBreak.POINTS,
        placements=(
            Placement("Hero", 0, 0, 0, True),
            Placement("Hero", 1, 2, 2, True),
            Placement("Hero", NEUTRAL, 1, 0),
            Placement("Hero", TYRANT, 1, 2),
        ),
        source=source,
    )


def test_board_from_xlsx(tmp_path: Path) -> None:
    path = write_xlsx(
        tmp_path / "duel.xlsx", {"map": MAP, "scenario": SCENARIO, "placements": PLACEMENTS}
    )
    assert load_board(path, CATALOG) == expected_board(str(path))


def test_board_from_ods_with_german_sheets(tmp_path: Path) -> None:
    german = [
        ["Schlüssel", "Wert"],
        ["Name", "Duel"],
        ["Spieler", 2],
        ["Siegbedingung", "vip"],
        ["Siegkarte", "Hero"],
        ["Startkarten", "Peasant x3, Gold x2"],
        ["Teams", "1;2"],
        ["Einheiteneinkommen", -1],
        ["Rundenlimit", 20],
        ["Tie-Break", "Punkte"],
    ]
    placements = [["Karte", "Besitzer", "x", "y", "vip"], *PLACEMENTS[1:]]
    path = write_ods(
        tmp_path / "duel.ods", {"Karte": MAP, "Szenario": german, "Aufstellung": placements}
    )
    assert load_board(path, CATALOG) == expected_board(str(path))


def test_board_from_csv_triple(tmp_path: Path) -> None:
    write_csv(tmp_path / "duel.map.csv", MAP)
    write_csv(tmp_path / "duel.scenario.csv", SCENARIO)
    write_csv(tmp_path / "duel.placements.csv", PLACEMENTS)
    path = tmp_path / "duel.scenario.csv"
    assert load_board(path, CATALOG) == expected_board(str(path))


@pytest.mark.parametrize(
    ("text", "field"),
    [
        (".", Field()),
        ("~", Field(Terrain.DEEP_WATER)),
        ("^A", Field(Terrain.HIGH_GROUND, area="A")),
        ("#", Field(Terrain.BLOCKED)),
        (".4", Field(deploy=3)),
        (".$", Field(income=1)),
        (".B2$", Field(deploy=1, area="B", income=1)),
        ("deep water 2", Field(Terrain.DEEP_WATER, 1)),
        ("Hügel A", Field(Terrain.HIGH_GROUND, area="A")),
        ("Fels", Field(Terrain.BLOCKED)),
    ],
)
def test_field_codes(text: str, field: Field) -> None:
    assert parse_field(text) == field


def board_problems(
    tmp_path: Path,
    map_rows: Rows = MAP,
    scenario: Rows = SCENARIO,
    placements: Rows = PLACEMENTS,
    catalog: Sequence[CardSet] = CATALOG,
) -> list[str]:
    path = write_xlsx(
        tmp_path / "b.xlsx", {"map": map_rows, "scenario": scenario, "placements": placements}
    )
    with pytest.raises(ValidationError) as err:
        load_board(path, catalog)
    prefix = f"{path}, "
    return [str(p).removeprefix(prefix) for p in err.value.problems]


def _set(rows: Rows, key: str, value: object) -> list[list[object]]:
    return [[k, value] if k == key else list(r) for r in rows for k in [r[0]]]


def test_ragged_map(tmp_path: Path) -> None:
    assert board_problems(tmp_path, [[".1", ".1"], ["."], [".2", ".2"]]) == [
        "sheet 'map', row 2: ragged map: this row has 1 fields, row 1 has 2"
    ]


def test_empty_map(tmp_path: Path) -> None:
    assert "sheet 'map': empty map: one cell per field expected" in board_problems(
        tmp_path, [[None]]
    )


def test_unknown_field_code(tmp_path: Path) -> None:
    assert board_problems(tmp_path, [[".1", ".!"], [".2", "."]]) == [
        "sheet 'map', row 1, column B: '.!': unknown field code '!' (known: . ~ ^ # 1-4 A-Z a-z $)"
    ]


@rules("R9.3")
def test_field_action_mark_without_its_scenario_text(tmp_path: Path) -> None:
    marked = [MAP[0], ["^A", ".$$s", "#"], MAP[2]]
    assert board_problems(tmp_path, marked) == [
        "sheet 'map': the map marks fields with 's' but the scenario has no 'field action s' (R9.3)"
    ]


@rules("R9.3")
def test_field_action_with_a_bad_text_names_its_row(tmp_path: Path) -> None:
    scenario = [*SCENARIO, ["Feldaktion s", "pay 1: heel 2"]]
    problems = board_problems(tmp_path, [MAP[0], ["^As", ".$$", "#"], MAP[2]], scenario)
    assert len(problems) == 1
    assert problems[0].startswith(
        f"sheet 'scenario', row {len(scenario)}, column value (B): "
        "'pay 1: heel 2': unknown verb 'heel'"
    )


@rules("R9.3")
def test_field_actions_load_onto_their_fields(tmp_path: Path) -> None:
    scenario = [*SCENARIO, ["field action s", "pay 1: heal 2"]]
    marked = [MAP[0], ["^As", ".$$s", "#"], MAP[2]]
    path = write_xlsx(
        tmp_path / "b.xlsx", {"map": marked, "scenario": scenario, "placements": PLACEMENTS}
    )
    board = load_board(path, CATALOG)
    heal = (FreeAction(Cost(resource=1), (Effect("heal", 2, Target(TargetKind.SELF)),)),)
    assert [(i, f.mark, f.actions) for i, f in enumerate(board.fields) if f.mark] == [
        (3, "s", heal),
        (4, "s", heal),
    ]
    assert board.fields[4].income == 2 and board.fields[3].area == "A"


def test_seat_without_deploy_zone(tmp_path: Path) -> None:
    assert board_problems(tmp_path, [[".1", "."], [".", "."]], placements=[PLACEMENTS[0]]) == [
        "sheet 'map': seat 2 of 2 has no deploy zone: mark its fields with 2 (R21.8)"
    ]


@pytest.mark.parametrize(
    ("victory", "missing"),
    [
        ("resource", "victory target"),
        ("capture", "victory target"),
        ("vip", "victory card"),
        ("staff", "victory card"),
        ("tyrant", "tyrant deck"),
    ],
)
def test_victory_missing_parameters(tmp_path: Path, victory: str, missing: str) -> None:
    scenario = [r for r in _set(SCENARIO, "victory", victory) if r[0] != "victory card"]
    found = board_problems(tmp_path, scenario=scenario, placements=[PLACEMENTS[0]])
    assert any(p.startswith("sheet 'scenario'") and f"missing {missing!r}" in p for p in found)


def test_missing_victory(tmp_path: Path) -> None:
    scenario = [r for r in SCENARIO if r[0] != "victory"]
    assert board_problems(tmp_path, scenario=scenario) == [
        "sheet 'scenario': missing 'victory': one of vip, resource, capture, buildings, staff, "
        "tyrant"
    ]


def test_bad_scenario_values(tmp_path: Path) -> None:
    scenario = _set(_set(SCENARIO, "players", 5), "round limit", "abc")
    scenario.append(["victroy", "vip"])
    assert board_problems(tmp_path, scenario=scenario, placements=[PLACEMENTS[0]]) == [
        "sheet 'scenario', row 11, column key (A): 'victroy': unknown scenario key; did you mean "
        "'victory' or 'victory card' or 'victory target'?",
        "sheet 'scenario', row 3, column value (B): '5': must be 2 to 4",
        "sheet 'scenario', row 9, column value (B): 'abc': not a number",
    ]


def test_unknown_card_references(tmp_path: Path) -> None:
    scenario = _set(_set(SCENARIO, "start cards", "Peasnt x3"), "victory card", "Heroo")
    placements = [PLACEMENTS[0], ["Hro", 1, 0, 0, "yes"], PLACEMENTS[2]]
    assert board_problems(tmp_path, scenario=scenario, placements=placements) == [
        "sheet 'scenario', row 5, column value (B): 'Heroo': unknown card 'Heroo' (victory "
        "card); did you mean 'Hero'?",
        "sheet 'scenario', row 6, column value (B): 'Peasnt x3': unknown card 'Peasnt' (start "
        "card); did you mean 'Peasant'?",
        "sheet 'placements', row 2, column card (A): 'Hro': unknown card 'Hro' (placement); did "
        "you mean 'Hero'?",
    ]


def test_bad_placements(tmp_path: Path) -> None:
    placements = [
        PLACEMENTS[0],
        ["Hero", 3, 0, 0, None],
        ["Hero", 1, 9, 0, None],
        ["Hero", 1, 2, 1, None],
        ["Hero", 1, 0, 0, "maybe"],
        ["Hero", 1, 0, 0, None],
        ["Gold", 1, 0, 0, None],
    ]
    assert board_problems(tmp_path, placements=placements) == [
        "sheet 'placements', row 2, column owner (B): '3': seat 3 does not play: the board has "
        "2 players",
        "sheet 'placements', row 3, column x (C): '9': (9, 0) is off the 3x3 map",
        "sheet 'placements', row 4, column x (C): '2': (2, 1) is a blocked field",
        "sheet 'placements', row 5, column vip (E): 'maybe': write yes or no",
        "sheet 'placements', row 5, column x (C): '0': (0, 0) is taken by row 2 (R9.2)",
        "sheet 'placements', row 6, column x (C): '0': (0, 0) is taken by row 2 (R9.2)",
        "sheet 'placements', row 7, column x (C): '0': (0, 0) is taken by row 2 (R9.2)",
    ]


# --- boards: hostile but fair ----------------------------------------------------------------

KEYWORDED = [
    *CATALOG,
    CardSet(
        "extra",
        (
            Card("Keep", "extra", CardType.ARTIFACT, keywords=Keywords(building=True, solid=8)),
            Card(
                "Shark",
                "extra",
                CardType.UNIT,
                life=2,
                move=2,
                attack=1,
                range=1,
                keywords=Keywords(swimming=True),
            ),
            Card(
                "Tyrant",
                "extra",
                CardType.UNIT,
                life=25,
                move=2,
                attack=3,
                range=1,
                keywords=Keywords(tyrant=True),
            ),
            Card("Staff", "extra", CardType.EQUIPMENT, durability=9, keywords=Keywords(staff=True)),
            Card("Dread", "extra", CardType.INTENTION, play=0),
        ),
    ),
]
OPEN_MAP = [[".1", ".1", "."], [".", ".", "."], [".", ".2", ".2"]]
HEROES = [PLACEMENTS[0], ["Hero", 1, 0, 0, None], ["Hero", 2, 2, 2, None]]


def _with(rows: Rows, key: str, value: object) -> list[list[object]]:
    """`rows` with `key` set to `value` (appended when the scenario lacks the key)."""
    if any(r[0] == key for r in rows):
        return _set(rows, key, value)
    return [*map(list, rows), [key, value]]


def test_a_map_larger_than_32_by_32_is_refused(tmp_path: Path) -> None:
    wide = [[".1"] + ["."] * 32, [".2"] + ["."] * 32]
    assert board_problems(tmp_path, wide, placements=[PLACEMENTS[0]]) == [
        "sheet 'map': the map is 33 fields wide and 2 high: at most 32x32 (docs/boards.md)"
    ]


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("income", 3000000000, "must be 0 to 99"),
        ("unit income", -500, "must be -99 to 99"),
        ("round limit", 100000, "must be 1 to 999"),
        ("starting hand", 1000, "must be 0 to 99"),
        ("start cards", "Peasant x50000000", "Peasant x50000000: at most 99 copies of a card"),
    ],
)
def test_scenario_numbers_beyond_their_bounds(
    tmp_path: Path, key: str, value: object, message: str
) -> None:
    scenario = _with(SCENARIO, key, value)
    row = next(i for i, r in enumerate(scenario, start=1) if r[0] == key)
    shown = str(value)
    assert board_problems(tmp_path, scenario=scenario) == [
        f"sheet 'scenario', row {row}, column value (B): {shown!r}: {message}"
    ]


@pytest.mark.parametrize(
    ("victory", "key", "value", "message"),
    [
        ("resource", "victory target", 5000, "must be 1 to 999"),
        ("tyrant", "tyrant goal", 500, "must be 1 to 99"),
    ],
)
def test_victory_numbers_beyond_their_bounds(
    tmp_path: Path, victory: str, key: str, value: int, message: str
) -> None:
    scenario = _with(
        _with(_set(SCENARIO, "victory", victory), "tyrant deck", "Dread x2"), key, value
    )
    if victory == "tyrant":
        scenario = _set(scenario, "victory card", "Tyrant")
    placements = [*PLACEMENTS[:3], ["Tyrant", "tyrant", 1, 1, None]]
    row = next(i for i, r in enumerate(scenario, start=1) if r[0] == key)
    assert board_problems(tmp_path, OPEN_MAP, scenario, placements, KEYWORDED) == [
        f"sheet 'scenario', row {row}, column value (B): '{value}': {message}"
    ]


def test_scenario_value_beyond_column_b(tmp_path: Path) -> None:
    scenario = [*SCENARIO[:-1], [*SCENARIO[-1], "tie break by units?"]]
    assert board_problems(tmp_path, scenario=scenario) == [
        f"sheet 'scenario', row {len(scenario)}, column C: 'tie break by units?': a value beyond "
        "column B: a scenario row is a key in column A and its value in column B; move or "
        "delete it"
    ]


def test_placement_value_beyond_the_header(tmp_path: Path) -> None:
    placements = [PLACEMENTS[0], [*PLACEMENTS[1], "the king"], *PLACEMENTS[2:]]
    assert board_problems(tmp_path, placements=placements) == [
        "sheet 'placements', row 2, column F: 'the king': a value in a column without a header: "
        "name the column in row 1 or delete the value"
    ]


@pytest.mark.parametrize(
    ("placements", "problem"),
    [
        (
            HEROES,
            "sheet 'scenario', row 4, column value (B): 'vip': no VIP for seat 1, 2: a vip "
            "board marks one unit of every seat with vip = yes in the placements (R19.1)",
        ),
        (
            [PLACEMENTS[0], PLACEMENTS[1], HEROES[2]],
            "sheet 'scenario', row 4, column value (B): 'vip': no VIP for seat 2: a vip board "
            "marks "
            "one unit of every seat with vip = yes in the placements (R19.1)",
        ),
        (
            [*PLACEMENTS[:3], ["Hero", 1, 1, 1, "yes"]],
            "sheet 'placements', row 4, column vip (E): 'yes': seat 1 has its VIP in row 2 "
            "already: "
            "one VIP per seat (R19.1)",
        ),
        (
            [*PLACEMENTS[:3], ["Hero", "neutral", 1, 1, "yes"]],
            "sheet 'placements', row 4, column vip (E): 'yes': a VIP belongs to a seat, not to "
            "neutral or the tyrant (R19.1)",
        ),
    ],
)
def test_a_vip_board_has_one_vip_per_seat(tmp_path: Path, placements: Rows, problem: str) -> None:
    """R19.1: the VIP victory needs one VIP of every seat."""
    assert board_problems(tmp_path, OPEN_MAP, placements=placements) == [problem]


def test_a_capture_board_without_areas(tmp_path: Path) -> None:
    """R19.3: nothing to hold, nothing to score."""
    scenario = _with(_set(SCENARIO, "victory", "capture"), "victory target", 10)
    assert board_problems(tmp_path, OPEN_MAP, scenario, HEROES) == [
        "sheet 'scenario', row 4, column value (B): 'capture': the map has no capture areas: "
        "mark the fields to hold with a letter A-Z (R19.3)"
    ]


@pytest.mark.parametrize(
    ("placements", "seats"), [(HEROES, "1, 2"), ([*HEROES, ["Keep", 1, 1, 1, None]], "2")]
)
def test_a_buildings_board_without_a_building_for_every_seat(
    tmp_path: Path, placements: Rows, seats: str
) -> None:
    """R19.4: a seat without a building has lost before its first turn."""
    scenario = _set(SCENARIO, "victory", "buildings")
    assert board_problems(tmp_path, OPEN_MAP, scenario, placements, KEYWORDED) == [
        f"sheet 'scenario', row 4, column value (B): 'buildings': no building for seat {seats}: "
        "a buildings board places a permanent with the keyword building for every seat (R19.4)"
    ]


@pytest.mark.parametrize("placements", [HEROES, [*HEROES, ["Hero", "tyrant", 1, 1, None]]])
def test_a_tyrant_board_without_the_tyrant(tmp_path: Path, placements: Rows) -> None:
    """R21.15: without a unit with the keyword tyrant the players win at once."""
    scenario = _with(
        _set(_set(SCENARIO, "victory", "tyrant"), "victory card", "Tyrant"),
        "tyrant deck",
        "Dread x3",
    )
    assert board_problems(tmp_path, OPEN_MAP, scenario, placements, KEYWORDED) == [
        "sheet 'scenario', row 4, column value (B): 'tyrant': no Tyrant on the board: place the "
        "Tyrant's unit (a card with the keyword tyrant) with owner tyrant in the placements "
        "(R21.15)"
    ]


def test_a_staff_board_whose_staff_is_never_placed(tmp_path: Path) -> None:
    """R21.12: nobody can ever equip the staff."""
    scenario = _set(_set(SCENARIO, "victory", "staff"), "victory card", "Staff")
    assert board_problems(tmp_path, OPEN_MAP, scenario, HEROES, KEYWORDED) == [
        "sheet 'scenario', row 4, column value (B): 'staff': the staff is never placed: put the "
        "staff of victory (a card with the keyword staff) in the placements (R21.12)"
    ]


def test_boards_whose_victory_can_happen_load(tmp_path: Path) -> None:
    """The same boards with what their victory needs placed load without a problem."""
    kinds = {
        "buildings": [*HEROES, ["Keep", 1, 1, 0, None], ["Keep", 2, 1, 2, None]],
        "tyrant": [*HEROES, ["Tyrant", "tyrant", 1, 1, None]],
        "staff": [*HEROES, ["Staff", "neutral", 1, 1, None]],
    }
    for kind, placements in kinds.items():
        scenario = _with(_set(SCENARIO, "victory", kind), "tyrant deck", "Dread x3")
        scenario = _set(scenario, "victory card", kind.title() if kind != "buildings" else "Hero")
        folder = tmp_path / kind
        folder.mkdir()
        path = write_xlsx(
            folder / "b.xlsx", {"map": OPEN_MAP, "scenario": scenario, "placements": placements}
        )
        assert load_board(path, KEYWORDED).victory.kind.value == kind


@pytest.mark.parametrize("zone", [["~1", "#1", "."], ["water 1", "Fels 1", "."]])
def test_a_deploy_zone_of_only_water_or_blocked_fields(tmp_path: Path, zone: list[str]) -> None:
    """R21.8, R9.5: the seat could play no unit that does not swim."""
    assert board_problems(
        tmp_path,
        [zone, *OPEN_MAP[1:]],
        placements=[PLACEMENTS[0], ["Hero", 1, 2, 0, "yes"], ["Hero", 2, 2, 2, "yes"]],
    ) == [
        "sheet 'map': seat 1's deploy zone has no land field (only blocked or deep water), so no "
        "unit that does not swim can be played: mark a plain or high field with 1 (R21.8, R9.5)"
    ]


def test_placements_on_fields_that_cannot_take_them(tmp_path: Path) -> None:
    """R9.5: swimmers only on deep water, every other permanent never there."""
    placements = [*PLACEMENTS[:3], ["Shark", 1, 1, 1, None], ["Hero", "neutral", 2, 0, None]]
    assert board_problems(tmp_path, placements=placements, catalog=KEYWORDED) == [
        "sheet 'placements', row 4, column x (C): '1': (1, 1) is plain, but 'Shark' swims: a "
        "swimming permanent stands only on deep water (R9.5); place it on a ~ field",
        "sheet 'placements', row 5, column x (C): '2': (2, 0) is deep water, where only swimming "
        "permanents stand (R9.5); place 'Hero' on land",
    ]


def test_missing_board_sheet(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "b.xlsx", {"map": MAP})
    with pytest.raises(ValidationError) as err:
        load_board(path, CATALOG)
    assert [str(p) for p in err.value.problems] == [
        f"{path}: missing board scenario (a sheet 'scenario' or a file NAME.scenario.csv)"
    ]


# --- shipped content ----------------------------------------------------------------------


def test_find_shipped_content_by_name_or_path(tmp_path: Path) -> None:
    assert find_cardset("starter") == CONTENT_DIR / "starter.csv"
    other = write_csv(tmp_path / "mine.csv", [["name", "type"], ["X", "spell"]])
    assert find_cardset(str(other)) == other
    with pytest.raises(LookupError, match="did you mean 'starter'"):
        find_cardset("startr")
    boards = sorted((CONTENT_DIR / "boards").glob("*.xlsx"))
    if boards:
        assert find_board(boards[0].stem) == boards[0]


@pytest.mark.parametrize("code", [".", "~2", "^1A$$", "#", ".B$s", "^4Zz"])
def test_field_code_writes_back_what_parse_field_reads(code: str) -> None:
    assert field_code(parse_field(code)) == code
