"""Reading spreadsheets into plain rows of cell values: .xlsx and .ods via calamine, .csv.

Only values are read: a formula cell counts by the value the spreadsheet program saved with it;
nothing is ever evaluated, and a formula saved without a value (as scripts writing .xlsx do) is
listed so it is reported rather than read as empty. Text is normalised to Unicode NFC, so a name
typed with a combining accent is the same name as its precomposed form. Rows keep their
positions (row 1 of the sheet is `rows[0]`), so every problem can name the row the designer sees.
"""

from __future__ import annotations

import csv
import io
import posixpath
import re
import unicodedata
import zipfile
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree

from python_calamine import CalamineError, CalamineWorkbook, SheetVisibleEnum

Cell = str | int | float | bool | None
"""A cell's value; an empty cell is None."""

WORKBOOK_SUFFIXES = frozenset({".xlsx", ".ods"})
SPREADSHEET_SUFFIXES = WORKBOOK_SUFFIXES | {".csv"}
FORMULA_START = r"^[=+\-@\t\r]"
"""Text starting like this is a formula to a spreadsheet program (OWASP, CSV injection): what
the workbench writes for a spreadsheet (the report's tables, proposals.csv) prefixes it with `'`."""


class SheetError(Exception):
    """A file that cannot be read as a spreadsheet; the message names the file."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")


Formula = tuple[int, int, str]
"""A formula cell saved without a value: 0-based row and column, and the formula's text."""


@dataclass(frozen=True, slots=True)
class Sheet:
    """One sheet: its name (a CSV's is the file stem) and its rows from row 1, column A;
    whether the workbook hides it, and its formulas saved without a value (read as empty)."""

    name: str
    rows: tuple[tuple[Cell, ...], ...]
    hidden: bool = False
    unsaved: tuple[Formula, ...] = ()


def _cell(value: object) -> Cell:
    """Calamine's value as a plain cell: '' is empty, text is NFC, dates and times become ISO
    text."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value)
    if isinstance(value, (int, float, bool)):
        return value
    return str(value)


def _read_workbook(path: Path) -> list[Sheet]:
    try:
        book = CalamineWorkbook.from_path(str(path))
        unsaved = _unsaved_xlsx(path) if path.suffix.casefold() == ".xlsx" else _unsaved_ods(path)
        sheets = []
        for meta in book.sheets_metadata:
            data = book.get_sheet_by_name(meta.name).to_python(skip_empty_area=False)
            sheets.append(
                Sheet(
                    unicodedata.normalize("NFC", meta.name),
                    tuple(tuple(_cell(v) for v in row) for row in data),
                    meta.visible != SheetVisibleEnum.Visible,
                    tuple(unsaved.get(meta.name, ())),
                )
            )
    except (
        CalamineError,
        OSError,
        ValueError,
        KeyError,
        zipfile.BadZipFile,
        ElementTree.ParseError,
    ) as err:
        kind = path.suffix.lstrip(".")
        raise SheetError(path, f"not a readable .{kind} workbook ({err})") from err
    return sheets


_XLSX = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_CELL_REF = re.compile(r"([A-Z]+)(\d+)")


def _unsaved_xlsx(path: Path) -> dict[str, list[Formula]]:
    """Per sheet name, the formula cells an .xlsx holds without a cached value (`<f>` and an
    empty or missing `<v>`; an empty text result is saved with `t="str"` and is a value)."""
    found: dict[str, list[Formula]] = {}
    with zipfile.ZipFile(path) as z:
        rels = {
            r.get("Id"): r.get("Target", "")
            for r in ElementTree.fromstring(z.read("xl/_rels/workbook.xml.rels"))
        }
        book = ElementTree.fromstring(z.read("xl/workbook.xml"))
        for sheet in book.iter(f"{_XLSX}sheet"):
            target = rels.get(sheet.get(_REL), "")
            member = (
                target.lstrip("/")
                if target.startswith("/")
                else posixpath.normpath(posixpath.join("xl", target))
            )
            if member not in z.namelist():
                continue
            for cell in ElementTree.fromstring(z.read(member)).iter(f"{_XLSX}c"):
                formula, value = cell.find(f"{_XLSX}f"), cell.find(f"{_XLSX}v")
                if formula is None or (
                    value is not None and (value.text or cell.get("t") in ("str", "inlineStr"))
                ):
                    continue
                ref = _CELL_REF.fullmatch(cell.get("r", ""))
                if ref is not None:
                    found.setdefault(sheet.get("name", ""), []).append(
                        (int(ref[2]) - 1, _column_index(ref[1]), "=" + (formula.text or ""))
                    )
    return found


_ODS_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_ODS_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"


def _unsaved_ods(path: Path) -> dict[str, list[Formula]]:
    """Per sheet name, the formula cells an .ods holds without a value type (no saved value)."""
    found: dict[str, list[Formula]] = {}
    with zipfile.ZipFile(path) as z:
        content = ElementTree.fromstring(z.read("content.xml"))
    for table in content.iter(f"{_ODS_TABLE}table"):
        row = 0
        for tr in table.iter(f"{_ODS_TABLE}table-row"):
            col = 0
            for cell in tr:
                formula = cell.get(f"{_ODS_TABLE}formula")
                if formula is not None and cell.get(f"{_ODS_OFFICE}value-type") is None:
                    found.setdefault(table.get(f"{_ODS_TABLE}name", ""), []).append(
                        (row, col, formula.removeprefix("of:"))
                    )
                col += int(cell.get(f"{_ODS_TABLE}number-columns-repeated", "1"))
            row += int(tr.get(f"{_ODS_TABLE}number-rows-repeated", "1"))
    return found


def _column_index(letters: str) -> int:
    """A -> 0, Z -> 25, AA -> 26 (the inverse of `column_letter`)."""
    index = 0
    for letter in letters:
        index = index * 26 + ord(letter) - ord("A") + 1
    return index - 1


def _delimiter(first_line: str) -> str:
    """`,` unless the header line uses `;` or tabs instead (as German spreadsheet exports do)."""
    counts = {d: first_line.count(d) for d in (",", ";", "\t")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] > counts[","] else ","


def _read_csv(path: Path) -> list[Sheet]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as err:
        raise SheetError(path, f"not a UTF-8 text file, so not a CSV spreadsheet ({err})") from err
    if "\x00" in text:
        raise SheetError(path, "binary data, not a CSV spreadsheet")
    lines = text.splitlines()
    delimiter = _delimiter(lines[0]) if lines else ","
    try:  # a quoted cell keeps its line breaks (a name must not hold one, and says so)
        rows = [
            tuple(_cell(v.strip()) for v in row)
            for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
        ]
    except csv.Error as err:
        raise SheetError(path, f"malformed CSV ({err})") from err
    return [Sheet(path.stem, tuple(rows))]


def read_sheets(path: Path) -> list[Sheet]:
    """All sheets of `path`; raises SheetError for a missing, empty, corrupt or non-spreadsheet
    file, so that a bad file yields a message naming it rather than a traceback."""
    suffix = path.suffix.casefold()
    if suffix not in SPREADSHEET_SUFFIXES:
        raise SheetError(path, "not a spreadsheet (expected .csv, .xlsx or .ods)")
    if not path.is_file():
        raise SheetError(path, "no such file")
    if path.stat().st_size == 0:
        raise SheetError(path, "empty file")
    sheets = _read_workbook(path) if suffix in WORKBOOK_SUFFIXES else _read_csv(path)
    if all(is_blank(row) for sheet in sheets for row in sheet.rows):
        raise SheetError(path, "no values in any sheet")
    return sheets


def is_blank(row: tuple[Cell, ...]) -> bool:
    """A row without any value."""
    return all(v is None or (isinstance(v, str) and not v.strip()) for v in row)


def column_letter(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA: the column as the spreadsheet shows it."""
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters
