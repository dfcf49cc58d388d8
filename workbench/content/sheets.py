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
import os
import stat
import unicodedata
import zipfile
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree

from python_calamine import CalamineError, CalamineWorkbook, SheetVisibleEnum

from workbench.content.sheet_scan import (
    BOUNDS,
    ERROR_VALUE,
    Bounds,
    Located,
    Oversized,
    Scan,
    check_extent,
    scan_ods,
    scan_xlsx,
    unpacked_fits,
)

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


@dataclass(frozen=True, slots=True)
class Sheet:
    """One sheet: its name (a CSV's is the file stem) and its rows from row 1, column A;
    whether the workbook hides it, its formulas saved without a value and its error values
    (`#DIV/0!`, ...), both read as empty cells."""

    name: str
    rows: tuple[tuple[Cell, ...], ...]
    hidden: bool = False
    unsaved: tuple[Located, ...] = ()
    errors: tuple[Located, ...] = ()


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


def _read_workbook(path: Path, bounds: Bounds) -> list[Sheet]:
    """The sheets' values by calamine, after a scan of the XML within `bounds`."""
    try:
        unpacked_fits(str(path), bounds)
        book = CalamineWorkbook.from_path(str(path))
        scan = scan_xlsx if path.suffix.casefold() == ".xlsx" else scan_ods
        scans = scan(str(path), bounds)
        sheets = []
        for meta in book.sheets_metadata:
            data = book.get_sheet_by_name(meta.name).to_python(skip_empty_area=False)
            check_extent(meta.name, len(data), max(map(len, data), default=0), bounds)
            found = scans.get(meta.name, Scan())
            sheets.append(
                Sheet(
                    unicodedata.normalize("NFC", meta.name),
                    tuple(tuple(_cell(v) for v in row) for row in data),
                    meta.visible != SheetVisibleEnum.Visible,
                    tuple(found.unsaved),
                    tuple(found.errors),
                )
            )
    except Oversized as err:
        raise SheetError(path, str(err)) from err
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


def _delimiter(first_line: str) -> str:
    """`,` unless the header line uses `;` or tabs instead (as German spreadsheet exports do)."""
    counts = {d: first_line.count(d) for d in (",", ";", "\t")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] > counts[","] else ","


def _read_csv(path: Path, bounds: Bounds) -> list[Sheet]:
    """A CSV file of at most `bounds.bytes`, its rows read up to the first beyond the bounds.
    A cell holding a spreadsheet's error value (exported from a failed formula) is an error
    and reads as empty, as in a workbook."""
    size = path.stat().st_size
    if size > bounds.bytes:
        raise SheetError(path, f"{size:,} bytes: at most {bounds.bytes:,} (docs/card-language.md)")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as err:
        raise SheetError(path, f"not a UTF-8 text file, so not a CSV spreadsheet ({err})") from err
    if "\x00" in text:
        raise SheetError(path, "binary data, not a CSV spreadsheet")
    lines = text.splitlines()
    delimiter = _delimiter(lines[0]) if lines else ","
    rows: list[tuple[Cell, ...]] = []
    errors: list[Located] = []
    widest = 0
    try:  # a quoted cell keeps its line breaks (a name must not hold one, and says so)
        for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True):
            widest = max(widest, len(row))
            check_extent("", len(rows) + 1, widest, bounds)
            cells = tuple(_cell(v.strip()) for v in row)
            errors += [(len(rows), c, str(v)) for c, v in enumerate(cells) if _is_error(v)]
            rows.append(tuple(None if _is_error(v) else v for v in cells))
    except csv.Error as err:
        raise SheetError(path, f"malformed CSV ({err})") from err
    except Oversized as err:
        raise SheetError(path, str(err)) from err
    return [Sheet(path.stem, tuple(rows), errors=tuple(errors))]


def _is_error(cell: Cell) -> bool:
    return isinstance(cell, str) and ERROR_VALUE.fullmatch(cell) is not None


def read_sheets(path: Path, bounds: Bounds = BOUNDS) -> list[Sheet]:
    """All sheets of `path`; raises SheetError for a missing, empty, corrupt, oversized
    (`bounds`) or non-spreadsheet file, so that a bad file yields a message naming it rather
    than a traceback."""
    suffix = path.suffix.casefold()
    if suffix not in SPREADSHEET_SUFFIXES:
        raise SheetError(path, "not a spreadsheet (expected .csv, .xlsx or .ods)")
    if not path.is_file():
        raise SheetError(path, not_a_file(path))
    if path.stat().st_size == 0:
        raise SheetError(path, "empty file")
    if suffix in WORKBOOK_SUFFIXES:
        sheets = _read_workbook(path, bounds)
    else:
        sheets = _read_csv(path, bounds)
    if all(is_blank(row) for sheet in sheets for row in sheet.rows):
        raise SheetError(path, "no values in any sheet")
    return sheets


def not_a_file(path: Path) -> str:
    """What `path` is when it is not a regular file: nothing, a folder, a FIFO, a device...
    (never opened: a FIFO would wait for a writer, /dev/zero never ends)."""
    link = f"a link to {os.readlink(path)}, " if path.is_symlink() else ""
    try:
        mode = path.stat().st_mode
    except OSError:
        return f"{link}which does not exist" if link else "no such file"
    kinds = (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a named pipe (FIFO)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    )
    kind = next((name for test, name in kinds if test(mode)), "not a regular file")
    return f"{link}{kind}, not a spreadsheet file"


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
