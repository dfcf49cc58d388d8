"""`workbench validate`: every problem of many files at once, exit codes, summaries."""

from __future__ import annotations

import csv
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from app.cli import main
from engine.cards import Card, CardSet, CardType
from workbench.content.validate import SetSummary, summarize_set, validate


def write_csv(path: Path, rows: Sequence[Sequence[object]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([["" if v is None else v for v in row] for row in rows])
    return path


def good_content(folder: Path) -> Path:
    """A token set, a starter set and a CSV board that refer to each other across files."""
    folder.mkdir()
    write_csv(
        folder / "necro.csv",
        [
            ["name", "type", "copies", "buy", "effect"],
            ["Raise", "spell", 2, 3, "create 1 Zombie"],
            ["Curse", "spell", 1, 5, None],
            ["Bolt", "spell", 1, 1, None],
        ],
    )
    write_csv(folder / "tokens.csv", [["name", "type", "life", "move"], ["Zombie", "unit", 1, 1]])
    write_csv(folder / "start.csv", [["name", "type", "life", "move"], ["Hero", "unit", 3, 2]])
    boards = folder / "boards"
    boards.mkdir()
    write_csv(boards / "duel.map.csv", [[".1", "."], [".", ".2"]])
    write_csv(
        boards / "duel.scenario.csv",
        [
            ["key", "value"],
            ["victory", "vip"],
            ["victory card", "Hero"],
            ["start cards", "Hero x1"],
        ],
    )
    write_csv(
        boards / "duel.placements.csv",
        [["card", "owner", "x", "y", "vip"], ["Hero", 1, 1, 0, "yes"], ["Hero", 2, 0, 1, "yes"]],
    )
    return folder


def test_summary_of_a_set() -> None:
    cardset = CardSet(
        "s",
        (
            Card("A", "s", CardType.UNIT, copies=2, buy=1, life=1, move=1),
            Card("B", "s", CardType.SPELL, buy=4),
            Card("C", "s", CardType.SPELL),
        ),
        "s.csv",
    )
    assert summarize_set(cardset) == SetSummary(
        "s", "s.csv", 3, 4, 3, (("spell", 2), ("unit", 1)), (1, 1, 4)
    )


def test_good_content_passes_with_summaries(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
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
    write_csv(
        folder / "boards" / "duel.scenario.csv",
        [["victory", "staff"], ["victory card", "Hero"], ["start cards", "Hero"]],
    )
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


# --- a malformed corpus, each refused with its place and nothing written ----------------------


def _map(folder: Path, rows: Sequence[Sequence[object]]) -> None:
    write_csv(folder / "boards" / "duel.map.csv", rows)


def _scenario(
    folder: Path, *extra: Sequence[object], victory: str = "vip", card: str = "Hero"
) -> None:
    write_csv(
        folder / "boards" / "duel.scenario.csv",
        [
            ["key", "value"],
            ["victory", victory],
            ["victory card", card],
            ["start cards", "Hero x1"],
            *extra,
        ],
    )


def _placements(folder: Path, *rows: Sequence[object]) -> None:
    write_csv(
        folder / "boards" / "duel.placements.csv", [["card", "owner", "x", "y", "vip"], *rows]
    )


def _xlsx(folder: Path, hidden: bool, buy: object) -> None:
    import openpyxl

    book = openpyxl.Workbook()
    book.active.title = "storm"
    book.active.append(["name", "type", "buy"])
    book.active.append(["Gale", "spell", buy])
    if hidden:
        helper = book.create_sheet("scratch")
        helper.append(["name", "type"])
        helper.append(["Draft", "spell"])
        helper.sheet_state = "hidden"
    book.save(folder / "storm.xlsx")


def _extra(folder: Path, *rows: Sequence[object]) -> None:
    write_csv(
        folder / "extra.csv", [["name", "type", "life", "move", "keywords", "durability"], *rows]
    )


def _necro(
    folder: Path,
    *rows: Sequence[object],
    header: Sequence[str] = ("name", "type", "copies", "buy", "effect"),
) -> None:
    write_csv(folder / "necro.csv", [list(header), *rows])


def _hero(folder: Path, column: str, value: object) -> None:
    """The starter set's Hero with one more column."""
    write_csv(
        folder / "start.csv",
        [["name", "type", "life", "move", column], ["Hero", "unit", 3, 2, value]],
    )


def _start(folder: Path, header: Sequence[str], row: Sequence[object]) -> None:
    write_csv(folder / "start.csv", [list(header), list(row)])


def _gear(folder: Path, header: Sequence[str], row: Sequence[object]) -> None:
    write_csv(folder / "gear.csv", [list(header), list(row)])


def _start_cards(folder: Path, text: str) -> None:
    write_csv(
        folder / "boards" / "duel.scenario.csv",
        [["victory", "vip"], ["victory card", "Hero"], ["start cards", text]],
    )


def _tyrant_board(folder: Path, *extra: Sequence[object], deck: str = "Dread x2") -> None:
    """A Tyrant board with its Tyrant placed and an intention deck, plus `extra` rows."""
    _extra(
        folder,
        ["Tyr", "unit", 9, 1, "tyrant", None],
        ["Dread", "intention", None, None, None, None],
    )
    _scenario(folder, ["tyrant deck", deck], *extra, victory="tyrant", card="Tyr")
    _placements(folder, ["Tyr", "tyrant", 0, 0, None])


def _ods_error(folder: Path, error: str) -> None:
    """storm.ods whose buy cell holds a formula saved with an error, as LibreOffice saves it."""
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    doc = OpenDocumentSpreadsheet()
    table = Table(name="storm")
    for row in (["name", "type", "buy"], ["Gale", "spell", None]):
        tr = TableRow()
        for value in row:
            if value is None:
                cell = TableCell(formula="of:=1/[.Z99]", valuetype="string", stringvalue="")
                cell.setAttrNS(CALCEXT, "value-type", "error")
                cell.addElement(P(text=error))
            else:
                cell = TableCell(valuetype="string")
                cell.addElement(P(text=value))
            tr.addElement(cell)
        table.addElement(tr)
    doc.spreadsheet.addElement(table)
    doc.save(str(folder / "storm.ods"))


CALCEXT = "urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0"
TYRANT_ONLY = (
    "the keyword tyrant marks the Tyrant's unit, the board's own side, which only a board "
    "places (owner tyrant; R17.1, R21.15)"
)
TYRANT_CARD = (
    "'Tyr' has the keyword tyrant: it is the Tyrant's unit, the board's own side (R17.1, "
    "R21.15), never a player's "
)
UNSEEN = (
    "which does not show as itself: the name would print like another, or reorder the line "
    "it is printed in; remove it"
)


def spreadsheet_error(error: str) -> str:
    return (
        f"the spreadsheet error {error} (a formula that failed) instead of a value, so it "
        "would read as an empty cell: fix the formula in a spreadsheet program and save the "
        "file again, or type the value"
    )


VIPS = (["Hero", 1, 1, 0, "yes"], ["Hero", 2, 0, 1, "yes"])
CLASH = (
    "a card name may be defined by one set only, since boards and effects find cards by "
    "name; rename one of them"
)
CORPUS: list[tuple[str, Callable[[Path], None], str, str]] = [
    (
        "same card in two files",
        lambda f: write_csv(f / "more.csv", [["name", "type"], ["Curse", "spell"]]),
        "necro.csv",
        ", row 3, column name (A): 'Curse': card 'Curse' is also defined in set "
        "'more' ({folder}/more.csv, row 2): " + CLASH,
    ),
    (
        "same card in two Unicode forms in two files",
        lambda f: (
            write_csv(f / "a.csv", [["name", "type"], ["Ni\u00f1o", "spell"]]),
            write_csv(f / "b.csv", [["name", "type"], ["Nin\u0303o", "spell"]]),
        ),
        "b.csv",
        ", row 2, column name (A): 'Ni\u00f1o': card 'Ni\u00f1o' is also defined in set "
        "'a' ({folder}/a.csv, row 2): " + CLASH,
    ),
    (
        "copies 5,000,000,000",
        lambda f: write_csv(
            f / "necro.csv", [["name", "type", "copies"], ["Curse", "spell", "5000000000"]]
        ),
        "necro.csv",
        ", row 2, column copies (C): '5000000000': must be 0 to 99",
    ),
    (
        "life 3e9",
        lambda f: write_csv(
            f / "start.csv", [["name", "type", "life", "move"], ["Hero", "unit", 3000000000, 2]]
        ),
        "start.csv",
        ", row 2, column life (C): '3000000000': must be 0 to 999",
    ),
    (
        "value beyond the header",
        lambda f: write_csv(
            f / "necro.csv", [["name", "type"], ["Curse", "spell", '=HYPERLINK("x")']]
        ),
        "necro.csv",
        ", row 2, column C: '=HYPERLINK(\"x\")': a value in a column without a "
        "header: name the column in row 1 (e.g. notes) or delete the value",
    ),
    (
        "hidden sheet",
        lambda f: _xlsx(f, True, 2),
        "storm.xlsx",
        ", sheet 'scratch': hidden sheet: every sheet of a card-set workbook is read "
        "as a set; unhide it, or move it to another file",
    ),
    (
        "formula without a saved value",
        lambda f: _xlsx(f, False, "=2*2"),
        "storm.xlsx",
        ", sheet 'storm', row 2, column C: '=2*2': formula without a saved value, so "
        "it would read as an empty cell (the workbench never computes formulas): open "
        "the file in a spreadsheet program and save it, or type the value",
    ),
    (
        "income 3e9",
        lambda f: _scenario(f, ["income", 3000000000]),
        "boards/duel.scenario.csv",
        ", row 5, column value (B): '3000000000': must be 0 to 99",
    ),
    (
        "start cards x5e7",
        lambda f: write_csv(
            f / "boards" / "duel.scenario.csv",
            [["victory", "vip"], ["victory card", "Hero"], ["start cards", "Hero x50000000"]],
        ),
        "boards/duel.scenario.csv",
        ", row 3, column value (B): 'Hero x50000000': Hero x50000000: at most 99 copies of a card",
    ),
    (
        "a 120x120 map",
        lambda f: _map(f, [[".1"] + ["."] * 119] + [["."] * 120] * 118 + [["."] * 119 + [".2"]]),
        "boards/duel.map.csv",
        ": the map is 120 fields wide and 120 high: at most 32x32 (docs/boards.md)",
    ),
    (
        "a value beyond column B",
        lambda f: _scenario(f, ["round limit", 10, "ten"]),
        "boards/duel.scenario.csv",
        ", row 5, column C: 'ten': a value beyond column B: a "
        "scenario row is a key in column A and its value in column B; "
        "move or delete it",
    ),
    (
        "VIP board without a VIP",
        lambda f: _placements(f, ["Hero", 1, 1, 0, None]),
        "boards/duel.scenario.csv",
        ", row 2, column value (B): 'vip': no VIP for seat 1, 2: a vip "
        "board marks one unit of every seat with vip = yes in the "
        "placements (R19.1)",
    ),
    (
        "a VIP for one seat only",
        lambda f: _placements(f, VIPS[0]),
        "boards/duel.scenario.csv",
        ", row 2, column value (B): 'vip': no VIP for seat 2: a vip "
        "board marks one unit of every seat with vip = yes in the "
        "placements (R19.1)",
    ),
    (
        "capture without areas",
        lambda f: _scenario(f, ["victory target", 5], victory="capture"),
        "boards/duel.scenario.csv",
        ", row 2, column value (B): 'capture': the map has no capture "
        "areas: mark the fields to hold with a letter A-Z (R19.3)",
    ),
    (
        "buildings board without buildings",
        lambda f: _scenario(f, victory="buildings"),
        "boards/duel.scenario.csv",
        ", row 2, column value (B): 'buildings': no building for seat "
        "1, 2: a buildings board places a permanent with the keyword "
        "building for every seat (R19.4)",
    ),
    (
        "a Tyrant board without the Tyrant",
        lambda f: (
            _extra(f, ["Dread", "intention", None, None, None, None]),
            _scenario(f, ["tyrant deck", "Dread x2"], victory="tyrant"),
        ),
        "boards/duel.scenario.csv",
        ", row 2, column value (B): 'tyrant': no Tyrant on the board: "
        "place the Tyrant's unit (a card with the keyword tyrant) with "
        "owner tyrant in the placements (R21.15)",
    ),
    (
        "a staff never placed",
        lambda f: (
            _extra(f, ["Staff", "equipment", None, None, "staff", 9]),
            _scenario(f, victory="staff", card="Staff"),
        ),
        "boards/duel.scenario.csv",
        ", row 2, column value (B): 'staff': the staff is never "
        "placed: put the staff of victory (a card with the keyword "
        "staff) in the placements (R21.12)",
    ),
    (
        "deploy zone of deep water and blocked fields",
        lambda f: _map(f, [["~1", ".", "#1"], [".", ".2", "."]]),
        "boards/duel.map.csv",
        ": seat 1's deploy zone has no land field (only blocked or deep "
        "water), so no unit that does not swim can be played: mark a plain "
        "or high field with 1 (R21.8, R9.5)",
    ),
    (
        "a placement breaking R9.5",
        lambda f: (_map(f, [[".1", "~"], [".", ".2"]]), _placements(f, *VIPS)),
        "boards/duel.placements.csv",
        ", row 2, column x (C): '1': (1, 0) is deep water, where only "
        "swimming permanents stand (R9.5); place 'Hero' on land",
    ),
    (
        "a swimmer on land",
        lambda f: (
            _extra(f, ["Eel", "unit", 1, 1, "swimming", None]),
            _placements(f, *VIPS, ["Eel", 1, 0, 0, None]),
        ),
        "boards/duel.placements.csv",
        ", row 4, column x (C): '0': (0, 0) is plain, but 'Eel' "
        "swims: a swimming permanent stands only on deep water (R9.5); "
        "place it on a ~ field",
    ),
    (
        "an unknown card type",
        lambda f: _start(f, ("name", "type", "life", "move"), ("Hero", "unti", 3, 2)),
        "start.csv",
        ", row 2, column type (B): 'unti': unknown card type 'unti'; did you mean 'unit'?",
    ),
    (
        "a card without a name",
        lambda f: _necro(f, ["Curse", "spell", 1, 5, None], [None, "spell", 1, 5, None]),
        "necro.csv",
        ", row 3, column name (A): missing card name",
    ),
    (
        "negative copies",
        lambda f: _necro(f, ["Raise", "spell", -1, 3, "create 1 Zombie"]),
        "necro.csv",
        ", row 2, column copies (C): '-1': must be 0 to 99",
    ),
    (
        "copies in words",
        lambda f: _necro(f, ["Raise", "spell", "two", 3, "create 1 Zombie"]),
        "necro.csv",
        ", row 2, column copies (C): 'two': not a number",
    ),
    (
        "a buy price in words",
        lambda f: _necro(f, ["Raise", "spell", 2, "three", "create 1 Zombie"]),
        "necro.csv",
        ", row 2, column buy (D): 'three': not a number",
    ),
    (
        "buy 10^20",
        lambda f: _necro(f, ["Raise", "spell", 2, "100000000000000000000", "create 1 Zombie"]),
        "necro.csv",
        ", row 2, column buy (D): '100000000000000000000': must be 0 to 99",
    ),
    (
        "a fractional play cost",
        lambda f: _necro(
            f, ["Raise", "spell", 3, 1.5, None], header=("name", "type", "buy", "play", "effect")
        ),
        "necro.csv",
        ", row 2, column play (D): '1.5': not a whole number",
    ),
    (
        "an unknown keyword",
        lambda f: _hero(f, "keywords", "flying"),
        "start.csv",
        ", row 2, column keywords (E): 'flying': unknown keyword 'flying'",
    ),
    (
        "an unknown verb",
        lambda f: _necro(f, ["Raise", "spell", 2, 3, "explode 3"]),
        "necro.csv",
        ", row 2, column effect (E): 'explode 3': unknown verb 'explode'",
    ),
    (
        "an unknown trigger event",
        lambda f: _hero(f, "trigger", "when this sleeps: draw 1"),
        "start.csv",
        ", row 2, column trigger (E): 'when this sleeps: draw 1': unknown trigger "
        "event 'when this sleeps'; did you mean 'when this enters' or 'when this dies'"
        " or 'when this kills'?",
    ),
    (
        "a free action without its cost",
        lambda f: _hero(f, "free action", "draw 1"),
        "start.csv",
        ", row 2, column free action (E): 'draw 1': free action 'draw 1' needs the "
        "form 'discard 1: draw 1'",
    ),
    (
        "a modifier that is no number",
        lambda f: _gear(
            f, ("name", "type", "durability", "modifiers"), ("Blade", "equipment", 2, "+x attack")
        ),
        "gear.csv",
        ", row 2, column modifiers (D): '+x attack': unknown modifier '+x'",
    ),
    (
        "the same card twice in one file",
        lambda f: _necro(f, ["Curse", "spell", 1, 5, None], ["Curse", "spell", 1, 4, None]),
        "necro.csv",
        ", row 3, column name (A): 'Curse': duplicate card name 'Curse' in set 'necro'"
        " (first in row 2)",
    ),
    (
        "a column named twice",
        lambda f: _start(f, ("name", "type", "life", "life", "move"), ("Hero", "unit", 3, 4, 2)),
        "start.csv",
        ", row 1, column life (D): 'life': column 'life' given twice",
    ),
    (
        "an unknown column",
        lambda f: _hero(f, "colour", "red"),
        "start.csv",
        ", row 1, column colour (E): 'colour': unknown column",
    ),
    (
        "protection from an unknown card",
        lambda f: _hero(f, "keywords", "protection from Nothing"),
        "start.csv",
        ", row 2, column keywords (E): 'protection from Nothing': unknown card "
        "'Nothing' (protection from)",
    ),
    (
        "armor -1",
        lambda f: _hero(f, "armor", -1),
        "start.csv",
        ", row 2, column armor (E): '-1': must be 0 to 99",
    ),
    (
        "a unit without life",
        lambda f: _start(f, ("name", "type", "move"), ("Hero", "unit", 2)),
        "start.csv",
        ", row 2, column life (no such column): a unit needs life (R12.1)",
    ),
    (
        "equipment without durability",
        lambda f: _gear(f, ("name", "type", "modifiers"), ("Blade", "equipment", "+1 attack")),
        "gear.csv",
        ", row 2, column durability (no such column): equipment needs durability (R15.5)",
    ),
    (
        "a number in the card language beyond 999",
        lambda f: _necro(f, ["Raise", "spell", 2, 3, "damage 5000 to target enemy unit"]),
        "necro.csv",
        ", row 2, column effect (E): 'damage 5000 to target enemy unit': 5000 is too "
        "large: numbers in the card language are at most 999",
    ),
    (
        "an unknown target kind",
        lambda f: _necro(f, ["Raise", "spell", 2, 3, "damage 1 to target purple unit"]),
        "necro.csv",
        ", row 2, column effect (E): 'damage 1 to target purple unit': unknown target "
        "kind 'purple'",
    ),
    (
        "a NUL byte",
        lambda f: (f / "necro.csv").write_bytes(b"name,type,copies,buy\nRaise,spell,2,3\x00\n"),
        "necro.csv",
        ": binary data, not a CSV spreadsheet",
    ),
    (
        "latin-1 bytes",
        lambda f: (f / "more.csv").write_bytes("name,type\nH\xe9ro,spell\n".encode("latin-1")),
        "more.csv",
        ": not a UTF-8 text file, so not a CSV spreadsheet ('utf-8' codec can't decode "
        "byte 0xe9 in position 11: invalid continuation byte)",
    ),
    (
        "a junk .xlsx",
        lambda f: (f / "junk.xlsx").write_bytes(b"not a workbook"),
        "junk.xlsx",
        ": not a readable .xlsx workbook (invalid Zip archive: Could not find EOCD)",
    ),
    (
        "a junk .ods",
        lambda f: (f / "junk.ods").write_bytes(b"not a spreadsheet"),
        "junk.ods",
        ": not a readable .ods workbook (invalid Zip archive: Could not find EOCD)",
    ),
    ("an empty .csv", lambda f: (f / "empty.csv").write_bytes(b""), "empty.csv", ": empty file"),
    (
        "a ragged map",
        lambda f: _map(f, [[".1", ".", "."], [".", ".2"]]),
        "boards/duel.map.csv",
        ", row 2: ragged map: this row has 2 fields, row 1 has 3",
    ),
    (
        "an unknown terrain",
        lambda f: _map(f, [[".1", "?"], [".", ".2"]]),
        "boards/duel.map.csv",
        ", row 1, column B: '?': unknown field code: a field starts with . ~ ^ # or a terrain word",
    ),
    (
        "no deploy field for seat 2",
        lambda f: _map(f, [[".1", "."], [".", "."]]),
        "boards/duel.map.csv",
        ": seat 2 of 2 has no deploy zone: mark its fields with 2 (R21.8)",
    ),
    (
        "an empty map",
        lambda f: (f / "boards" / "duel.map.csv").write_bytes(b""),
        "boards/duel.map.csv",
        ": empty file",
    ),
    (
        "a field action letter without its key",
        lambda f: _map(f, [[".1", ".a"], [".", ".2"]]),
        "boards/duel.map.csv",
        ": the map marks fields with 'a' but the scenario has no 'field action a' (R9.3)",
    ),
    (
        "a field action without a cost",
        lambda f: (
            _map(f, [[".1", ".a"], [".", ".2"]]),
            _scenario(f, ["field action a", "draw 1"]),
        ),
        "boards/duel.scenario.csv",
        ", row 5, column value (B): 'draw 1': free action 'draw 1' "
        "needs the form 'discard 1: draw 1'",
    ),
    (
        "an unknown scenario key",
        lambda f: _scenario(f, ["colour", "red"]),
        "boards/duel.scenario.csv",
        ", row 5, column key (A): 'colour': unknown scenario key",
    ),
    (
        "a scenario row without its key",
        lambda f: _scenario(f, [None, 5]),
        "boards/duel.scenario.csv",
        ", row 5, column value (B): '5': value without a key in column A",
    ),
    (
        "a key given twice",
        lambda f: _scenario(f, ["income", 2], ["income", 3]),
        "boards/duel.scenario.csv",
        ", row 6, column key (A): 'income': key 'income' given twice (first in row 5)",
    ),
    (
        "an unknown victory",
        lambda f: _scenario(f, victory="chess"),
        "boards/duel.scenario.csv",
        ", row 2, column value (B): 'chess': unknown victory 'chess'",
    ),
    (
        "a resource board without its target",
        lambda f: _scenario(f, victory="resource"),
        "boards/duel.scenario.csv",
        ": missing 'victory target': the resource limit to reach",
    ),
    (
        "5 players",
        lambda f: _scenario(f, ["players", 5]),
        "boards/duel.scenario.csv",
        ", row 5, column value (B): '5': must be 2 to 4",
    ),
    (
        "1 player",
        lambda f: _scenario(f, ["players", 1]),
        "boards/duel.scenario.csv",
        ", row 5, column value (B): '1': must be 2 to 4",
    ),
    (
        "a seat in two teams",
        lambda f: (
            _map(f, [[".1", ".3"], [".", ".2"]]),
            _scenario(f, ["players", 3], ["teams", "1,2;2,3"]),
        ),
        "boards/duel.scenario.csv",
        ", row 6, column value (B): '1,2;2,3': seat 2 is not a free seat of 3 players",
    ),
    (
        "a team with seat 7",
        lambda f: _scenario(f, ["teams", "1,7;2"]),
        "boards/duel.scenario.csv",
        ", row 5, column value (B): '1,7;2': seat 7 is not a free seat of 2 players",
    ),
    (
        "round limit 0",
        lambda f: _scenario(f, ["round limit", 0]),
        "boards/duel.scenario.csv",
        ", row 5, column value (B): '0': must be 1 to 999",
    ),
    (
        "round limit 1000",
        lambda f: _scenario(f, ["round limit", 1000]),
        "boards/duel.scenario.csv",
        ", row 5, column value (B): '1000': must be 1 to 999",
    ),
    (
        "an unknown tie break",
        lambda f: _scenario(f, ["tie break", "coin"]),
        "boards/duel.scenario.csv",
        ", row 5, column value (B): 'coin': unknown tie break 'coin'; did you mean 'points'?",
    ),
    (
        "starting hand 100",
        lambda f: _scenario(f, ["starting hand", 100]),
        "boards/duel.scenario.csv",
        ", row 5, column value (B): '100': must be 0 to 99",
    ),
    (
        "unit income in words",
        lambda f: _scenario(f, ["unit income", "-x"]),
        "boards/duel.scenario.csv",
        ", row 5, column value (B): '-x': not a number",
    ),
    (
        "a victory card no set defines",
        lambda f: _scenario(f, card="Ghost"),
        "boards/duel.scenario.csv",
        ", row 3, column value (B): 'Ghost': unknown card 'Ghost' (victory card)",
    ),
    (
        "a victory card of the wrong type",
        lambda f: _scenario(f, card="Curse"),
        "boards/duel.scenario.csv",
        ", row 3, column value (B): 'Curse': victory card 'Curse' is of type spell; expected unit",
    ),
    (
        "an unknown start card",
        lambda f: _start_cards(f, "Ghost x2"),
        "boards/duel.scenario.csv",
        ", row 3, column value (B): 'Ghost x2': unknown card 'Ghost' (start card)",
    ),
    (
        "start cards in words",
        lambda f: _start_cards(f, "Hero times two"),
        "boards/duel.scenario.csv",
        ", row 3, column value (B): 'Hero times two': unknown card 'Hero times two' (start card)",
    ),
    (
        "an unknown card in the tyrant deck",
        lambda f: _tyrant_board(f, deck="Ghost x2"),
        "boards/duel.scenario.csv",
        ", row 5, column value (B): 'Ghost x2': unknown card 'Ghost' (tyrant deck card)",
    ),
    (
        "tyrant goal 0",
        lambda f: _tyrant_board(f, ["tyrant goal", 0]),
        "boards/duel.scenario.csv",
        ", row 6, column value (B): '0': must be 1 to 99",
    ),
    (
        "shared win perhaps",
        lambda f: _tyrant_board(f, ["shared win", "perhaps"]),
        "boards/duel.scenario.csv",
        ", row 6, column value (B): 'perhaps': write yes or no",
    ),
    (
        "a placement off the map",
        lambda f: _placements(f, VIPS[0], ["Hero", 2, 9, 1, "yes"]),
        "boards/duel.placements.csv",
        ", row 3, column x (C): '9': (9, 1) is off the 2x2 map",
    ),
    (
        "a negative y",
        lambda f: _placements(f, VIPS[0], ["Hero", 2, 0, -1, "yes"]),
        "boards/duel.placements.csv",
        ", row 3, column y (D): '-1': must be 0 or more",
    ),
    (
        "an owner seat 5",
        lambda f: _placements(f, VIPS[0], ["Hero", 5, 0, 1, "yes"]),
        "boards/duel.placements.csv",
        ", row 3, column owner (B): '5': seat 5 does not play: the board has 2 players",
    ),
    (
        "an owner in words",
        lambda f: _placements(f, VIPS[0], ["Hero", "purple", 0, 1, "yes"]),
        "boards/duel.placements.csv",
        ", row 3, column owner (B): 'purple': owner is a seat 1-4, neutral or tyrant",
    ),
    (
        "a placed card no set defines",
        lambda f: _placements(f, *VIPS, ["Ghost", 1, 0, 0, None]),
        "boards/duel.placements.csv",
        ", row 4, column card (A): 'Ghost': unknown card 'Ghost' (placement)",
    ),
    (
        "two placements on one field",
        lambda f: _placements(f, *VIPS, ["Hero", 1, 1, 0, None]),
        "boards/duel.placements.csv",
        ", row 4, column x (C): '1': (1, 0) is taken by row 2 (R9.2)",
    ),
    (
        "a placement on a blocked field",
        lambda f: (_map(f, [[".1", "#"], [".", ".2"]]), _placements(f, *VIPS)),
        "boards/duel.placements.csv",
        ", row 2, column x (C): '1': (1, 0) is a blocked field",
    ),
    (
        "vip maybe",
        lambda f: _placements(f, VIPS[0], ["Hero", 2, 0, 1, "maybe"]),
        "boards/duel.placements.csv",
        ", row 3, column vip (E): 'maybe': write yes or no",
    ),
    # --- the Tyrant's keyword and unit, spreadsheet error values, walled-in areas ----------
    (
        "a drafted card with the keyword tyrant",
        lambda f: write_csv(
            f / "extra.csv",
            [
                ["name", "type", "buy", "life", "move", "keywords"],
                ["Tyr", "unit", 3, 9, 1, "tyrant"],
            ],
        ),
        "extra.csv",
        ", row 2, column keywords (F): 'tyrant': " + TYRANT_ONLY + ": a card with a buy price "
        "is drafted by the players (R3.1); remove the buy price or the keyword",
    ),
    (
        "an intention with a buy price",
        lambda f: _necro(f, ["Dread", "intention", 1, 4, "damage 2 to target unit"]),
        "necro.csv",
        ", row 2, column buy (D): '4': an intention is a spell of the Tyrant's own deck, played "
        "by the game (R17.1), never drafted or bought by a player (R3.1, R7.3): remove the buy "
        "price",
    ),
    (
        "the keyword tyrant on a spell",
        lambda f: _extra(f, ["Doom", "spell", None, None, "tyrant", None]),
        "extra.csv",
        ", row 2, column keywords (E): 'tyrant': " + TYRANT_ONLY + ": a spell cannot carry it",
    ),
    (
        "equipment giving the keyword tyrant",
        lambda f: _gear(
            f, ("name", "type", "durability", "modifiers"), ("Crown", "equipment", 2, "tyrant")
        ),
        "gear.csv",
        ", row 2, column modifiers (D): 'tyrant': "
        + TYRANT_ONLY
        + ": equipment cannot give it to a player's unit",
    ),
    (
        "the Tyrant's unit as a start card",
        lambda f: (
            _extra(f, ["Tyr", "unit", 9, 1, "tyrant", None]),
            _start_cards(f, "Hero x1, Tyr x1"),
        ),
        "boards/duel.scenario.csv",
        ", row 3, column value (B): 'Hero x1, Tyr x1': " + TYRANT_CARD + "start card",
    ),
    (
        "a seat placing the Tyrant's unit",
        lambda f: (
            _extra(f, ["Tyr", "unit", 9, 1, "tyrant", None]),
            _placements(f, *VIPS, ["Tyr", 1, 0, 0, None]),
        ),
        "boards/duel.placements.csv",
        ", row 4, column card (A): 'Tyr': " + TYRANT_CARD + "placement",
    ),
    (
        "a player's spell creating the Tyrant's unit",
        lambda f: (
            _extra(f, ["Tyr", "unit", 9, 1, "tyrant", None]),
            _necro(f, ["Raise", "spell", 2, 3, "create 1 Tyr"]),
        ),
        "necro.csv",
        ", row 2, column effect (E): 'create 1 Tyr': " + TYRANT_CARD + "token",
    ),
    (
        "an error value in an .xlsx",
        lambda f: _xlsx(f, False, "#DIV/0!"),
        "storm.xlsx",
        ", sheet 'storm', row 2, column C: '#DIV/0!': " + spreadsheet_error("#DIV/0!"),
    ),
    (
        "an error value in an .ods",
        lambda f: _ods_error(f, "#REF!"),
        "storm.ods",
        ", sheet 'storm', row 2, column C: '#REF!': " + spreadsheet_error("#REF!"),
    ),
    (
        "an error value exported into a CSV",
        lambda f: _necro(f, ["Curse", "spell", 1, "#N/A", None]),
        "necro.csv",
        ", row 2, column D: '#N/A': " + spreadsheet_error("#N/A"),
    ),
    (
        "a capture area walled in by blocked fields",
        lambda f: (
            _map(
                f,
                [[".1", ".", "#", "."], [".", ".", "#", "#"], [".", ".2", "#", ".A"]],
            ),
            _scenario(f, ["victory target", 5], victory="capture"),
        ),
        "boards/duel.scenario.csv",
        ", row 2, column value (B): 'capture': no unit can reach capture area A: every path "
        "from a deploy zone or a seat's placed permanent to its fields is blocked (R10.2, "
        "R9.5), so no seat can hold it (R19.3); open a way through the blocked fields",
    ),
    (
        "a zero-width space in a name",
        lambda f: _necro(f, ["Cur\u200bse", "spell", 1, 5, None]),
        "necro.csv",
        ", row 2, column name (A): 'Cur\\u200bse': the name holds \\u200b (U+200B ZERO "
        "WIDTH SPACE), " + UNSEEN,
    ),
    (
        "a right-to-left override in a name",
        lambda f: _necro(f, ["\u202eesruC", "spell", 1, 5, None]),
        "necro.csv",
        ", row 2, column name (A): '\\u202eesruC': the name holds \\u202e (U+202E "
        "RIGHT-TO-LEFT OVERRIDE), " + UNSEEN,
    ),
    (
        "a terminal escape in a name",
        lambda f: _necro(f, ["Curse\x1b[2J", "spell", 1, 5, None]),
        "necro.csv",
        ", row 2, column name (A): 'Curse\\x1b[2J': the name holds \\x1b (U+001B, a "
        "control character), " + UNSEEN,
    ),
    (
        "a line break in a name",
        lambda f: _necro(f, ["Dark\nCurse", "spell", 1, 5, None]),
        "necro.csv",
        ", row 2, column name (A): 'Dark\\nCurse': a card name is one line of text; this one "
        "holds a line break: remove it",
    ),
    (
        "full-width digits",
        lambda f: _necro(f, ["Curse", "spell", "\uff13", 5, None]),
        "necro.csv",
        ", row 2, column copies (C): '\uff13': write numbers with the digits 0-9",
    ),
    (
        "Arabic-Indic digits",
        lambda f: _necro(f, ["Curse", "spell", 1, "\u0665", None]),
        "necro.csv",
        ", row 2, column buy (D): '\u0665': write numbers with the digits 0-9",
    ),
    (
        "copies 1e1",
        lambda f: _necro(f, ["Curse", "spell", "1e1", 5, None]),
        "necro.csv",
        ", row 2, column copies (C): '1e1': write the number with the digits 0-9, not as a "
        "power of ten: 1e1 is 10",
    ),
    (
        "a card set without its name column",
        lambda f: write_csv(f / "necro.csv", [["type", "copies"]] + [["spell", 1]] * 7),
        "necro.csv",
        ", row 1: missing required column 'name'",
    ),
    (
        "a card set of 10,001 rows",
        lambda f: write_csv(
            f / "necro.csv", [["name", "type"]] + [[f"C{i}", "spell"] for i in range(10_000)]
        ),
        "necro.csv",
        ": it has a value in row 10,001: at most 10,000 rows (docs/card-language.md); delete "
        "what lies below or beside the content, or split the file",
    ),
]


def files_of(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file below `folder` with its size and modification time."""
    return {
        str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.mark.parametrize(
    ("change", "file", "message"), [c[1:] for c in CORPUS], ids=[c[0] for c in CORPUS]
)
def test_malformed_content_is_refused_where_it_is_and_nothing_is_written(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    change: Callable[[Path], None],
    file: str,
    message: str,
) -> None:
    """Exit 2; the one problem named with its file and, inside it, its sheet, row and column
    (a whole-file problem names the file); nothing written, in the folder or where the command
    runs."""
    monkeypatch.chdir(tmp_path)
    folder = good_content(tmp_path / "content")
    change(folder)
    before = files_of(tmp_path)
    capsys.readouterr()
    assert main(["validate", str(folder)]) == 2
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{folder}/{file}{message.format(folder=folder)}", "1 problem(s) found"]
    assert files_of(tmp_path) == before


def test_the_malformed_corpus_has_at_least_60_cases() -> None:
    """The corpus of malformed content stays at 60 cases or more, each its own."""
    assert len(CORPUS) >= 60 and len({c[0] for c in CORPUS}) == len(CORPUS)


def test_look_alike_names_are_warned_about_with_their_cells(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Cyrillic В and a full-width Ｂ make cards that print like Boom; they are
    valid (exit 0) but each is named with its cell and its odd character."""
    folder = good_content(tmp_path / "content")
    write_csv(
        folder / "booms.csv",
        [["name", "type"], ["Boom", "spell"], ["\u0412oom", "spell"], ["\uff22oom", "spell"]],
    )
    assert main(["validate", str(folder)]) == 0
    out = capsys.readouterr().out.splitlines()
    warnings = [line for line in out if line.startswith("warning: ")]
    tail = ": different cards that print the same; rename one, or use the same characters"
    assert warnings == [
        f"warning: {folder}/booms.csv, row 2, column name (A): 'Boom': card 'Boom' looks like "
        "'\u0412oom', '\uff22oom'" + tail,
        f"warning: {folder}/booms.csv, row 3, column name (A): '\u0412oom': card '\u0412oom' "
        "looks like 'Boom', '\uff22oom' ('\u0412' is U+0412 CYRILLIC CAPITAL LETTER VE)" + tail,
        f"warning: {folder}/booms.csv, row 4, column name (A): '\uff22oom': card '\uff22oom' "
        "looks like 'Boom', '\u0412oom' ('\uff22' is U+FF22 FULLWIDTH LATIN CAPITAL LETTER "
        "B)" + tail,
    ]


def test_names_that_only_share_letters_are_not_look_alikes(tmp_path: Path) -> None:
    """The shipped sets and names differing in a real letter (Boom, Boot; Öde, Ode) warn of
    nothing."""
    folder = good_content(tmp_path / "content")
    write_csv(
        folder / "more.csv",
        [
            ["name", "type"],
            ["Boom", "spell"],
            ["Boot", "spell"],
            ["\u00d6de", "spell"],
            ["Ode", "spell"],
        ],
    )
    assert validate([folder]).warnings == []
    assert validate([Path(__file__).resolve().parent.parent / "cardsets"]).warnings == []


def test_simulate_prints_the_look_alike_warnings_validate_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run's card set with cards that print alike (Cyrillic В, full-width Ｂ) is
    played, and `workbench simulate` warns of them as `workbench validate` does, line for line
    (one producer, `names.look_alikes`, over the run's sets: `setup.name_warnings`)."""
    shipped = Path(__file__).resolve().parent.parent / "cardsets" / "iron-legion.csv"
    with shipped.open(encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    blank = [""] * (len(rows[0]) - 2)
    rows += [[n, "spell", *blank] for n in ("Boom", "\u0412oom", "\uff22oom")]
    legion = write_csv(tmp_path / "iron-legion.csv", rows)
    assert main(["validate", str(legion)]) == 0
    said = [line for line in capsys.readouterr().out.splitlines() if line.startswith("warning:")]
    assert len(said) == 3 and all("looks like" in line for line in said)
    db = tmp_path / "runs.duckdb"
    args = ["--sets", f"{legion},tide-callers", "--games", "1", "--workers", "1"]
    assert main(["simulate", *args, "--db", str(db)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert [line for line in err if line.startswith("warning:")] == said
