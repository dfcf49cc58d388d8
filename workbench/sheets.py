"""Reading spreadsheets into plain rows of cell values: .xlsx and .ods via calamine, .csv.

Only values are read: a formula cell counts by the value the spreadsheet program saved with it;
nothing is ever evaluated. Rows keep their positions (row 1 of the sheet is `rows[0]`), so every
problem can name the row the designer sees.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from python_calamine import CalamineError, CalamineWorkbook

Cell = str | int | float | bool | None
"""A cell's value; an empty cell is None."""

WORKBOOK_SUFFIXES = frozenset({".xlsx", ".ods"})
SPREADSHEET_SUFFIXES = WORKBOOK_SUFFIXES | {".csv"}


class SheetError(Exception):
    """A file that cannot be read as a spreadsheet; the message names the file."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")


@dataclass(frozen=True, slots=True)
class Sheet:
    """One sheet: its name (a CSV's is the file stem) and its rows from row 1, column A."""

    name: str
    rows: tuple[tuple[Cell, ...], ...]


def _cell(value: object) -> Cell:
    """Calamine's value as a plain cell: '' is empty, dates and times become ISO text."""
    if value is None or value == "":
        return None
    if isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def _read_workbook(path: Path) -> list[Sheet]:
    try:
        book = CalamineWorkbook.from_path(str(path))
        sheets = []
        for name in book.sheet_names:
            data = book.get_sheet_by_name(name).to_python(skip_empty_area=False)
            sheets.append(Sheet(name, tuple(tuple(_cell(v) for v in row) for row in data)))
    except (CalamineError, OSError, ValueError) as err:
        kind = path.suffix.lstrip(".")
        raise SheetError(path, f"not a readable .{kind} workbook ({err})") from err
    return sheets


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
    try:
        rows = [tuple(_cell(v.strip()) for v in row)
                for row in csv.reader(lines, delimiter=delimiter, strict=True)]
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
