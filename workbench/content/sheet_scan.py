"""What a workbook's XML says that calamine's values do not, read as a stream before calamine
reads the values: formulas saved without a value and formulas whose saved value is an error
(calamine reads both as empty cells), and how far the values reach, so that a sheet that would
inflate (a few MB of .xlsx holding a million rows took 2.3 GB and 22 s) is refused at the first
value beyond the bounds, before anything is built from it.
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO
from xml.etree import ElementTree


@dataclass(frozen=True, slots=True)
class Bounds:
    """The most a sheet may hold, far beyond any card set or board (a set of a thousand cards
    is 1,001 rows of about 20 columns; a map at most 32x32): values in `rows` rows and
    `columns` columns, `cells` of their rectangle (what is read into memory), and `bytes` of
    file (unpacked, for a workbook)."""

    rows: int = 10_000
    columns: int = 200
    cells: int = 200_000
    bytes: int = 64 * 2**20


BOUNDS = Bounds()


class Oversized(Exception):
    """A sheet or file beyond the bounds; the message names the bound."""


def check_extent(sheet: str, rows: int, columns: int, bounds: Bounds) -> None:
    """Refuse values reaching past row `rows` or column `columns` beyond the bounds."""
    if rows > bounds.rows:
        what = f"a value in row {rows:,}: at most {bounds.rows:,} rows"
    elif columns > bounds.columns:
        what = f"a value in column {columns:,}: at most {bounds.columns:,} columns"
    elif rows * columns > bounds.cells:
        what = (
            f"values across {rows:,} rows and {columns:,} columns, {rows * columns:,} cells: "
            f"at most {bounds.cells:,}"
        )
    else:
        return
    where = f"sheet {sheet!r} has " if sheet else "it has "
    raise Oversized(
        f"{where}{what} (docs/card-language.md); delete what lies below or beside the "
        "content, or split the file"
    )


Located = tuple[int, int, str]
"""A cell's 0-based row and column, and its text (a formula, or an error value)."""

ERROR_VALUE = re.compile(
    r"#(?:NULL!|DIV/0!|VALUE!|REF!|NAME\?|NUM!|N/A|SPILL!|CALC!|GETTING_DATA)|Err:[0-9]{3}"
)
"""The error values of spreadsheet programs (Excel's, and LibreOffice's `Err:NNN`)."""


@dataclass
class Scan:
    """One sheet's formulas without a value, error values, and the extent of its values."""

    unsaved: list[Located] = field(default_factory=list)
    errors: list[Located] = field(default_factory=list)
    rows: int = 0
    columns: int = 0

    def reach(self, name: str, row: int, column: int, bounds: Bounds) -> None:
        """A value at 0-based (row, column): refused beyond the bounds."""
        self.rows, self.columns = max(self.rows, row + 1), max(self.columns, column + 1)
        check_extent(name, self.rows, self.columns, bounds)


def unpacked_fits(path: str, bounds: Bounds) -> None:
    """The workbook's parts unpacked are at most `bounds.bytes` (as the archive declares them:
    reading a part stops with an error where its data is longer). Checked before calamine
    opens the file, which reads its shared strings at once; a file that is no archive is
    left to calamine to name."""
    try:
        with zipfile.ZipFile(path) as z:
            size = sum(info.file_size for info in z.infolist())
    except zipfile.BadZipFile:
        return
    if size > bounds.bytes:
        raise Oversized(
            f"the workbook unpacks to {size:,} bytes: at most {bounds.bytes:,} "
            "(a card set or board is far smaller; docs/card-language.md)"
        )


# --- .xlsx ----------------------------------------------------------------------------------

_XLSX = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_CELL_REF = re.compile(r"([A-Z]+)([0-9]+)")


def scan_xlsx(path: str, bounds: Bounds) -> dict[str, Scan]:
    """Per sheet name, what `Scan` holds; Oversized at the first value beyond `bounds`."""
    found: dict[str, Scan] = {}
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
            if member in z.namelist():
                name = sheet.get("name", "")
                with z.open(member) as stream:
                    found[name] = _scan_xlsx_sheet(stream, name, bounds)
    return found


def _scan_xlsx_sheet(stream: IO[bytes], name: str, bounds: Bounds) -> Scan:
    """One worksheet's cells in document order (a cell or row without its `r` follows the one
    before it); an error value has `t="e"`, a formula without a value an empty or no `<v>`
    (an empty text result is saved with `t="str"` and is a value)."""
    scan = Scan()
    row, column = -1, -1
    for event, el in _events(stream):
        if el.tag == f"{_XLSX}row":
            if event == "start":
                row, column = int(el.get("r", row + 2)) - 1, -1
            else:
                el.clear()
        elif el.tag == f"{_XLSX}c" and event == "end":
            ref = _CELL_REF.fullmatch(el.get("r", ""))
            column = _column_index(ref[1]) if ref else column + 1
            row = int(ref[2]) - 1 if ref else row
            formula, value = el.find(f"{_XLSX}f"), el.find(f"{_XLSX}v")
            kind = el.get("t")
            saved = value is not None and bool(value.text or kind in ("str", "inlineStr"))
            if formula is not None or saved or el.find(f"{_XLSX}is") is not None:
                scan.reach(name, row, column, bounds)
            if kind == "e" and value is not None and value.text:
                scan.errors.append((row, column, value.text))
            elif formula is not None and not saved:
                scan.unsaved.append((row, column, "=" + (formula.text or "")))
    return scan


def _events(stream: IO[bytes]) -> Iterator[tuple[str, ElementTree.Element]]:
    return ElementTree.iterparse(stream, events=("start", "end"))


def _column_index(letters: str) -> int:
    """A -> 0, Z -> 25, AA -> 26 (the inverse of `sheets.column_letter`)."""
    index = 0
    for letter in letters:
        index = index * 26 + ord(letter) - ord("A") + 1
    return index - 1


# --- .ods -----------------------------------------------------------------------------------

_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_CALCEXT = "{urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0}"
_CELLS = (f"{_TABLE}table-cell", f"{_TABLE}covered-table-cell")


def scan_ods(path: str, bounds: Bounds) -> dict[str, Scan]:
    """Per sheet name, what `Scan` holds: a formula without a value type has no saved value;
    LibreOffice saves an error result with `calcext:value-type="error"` and the error as its
    text. Repeated rows and cells count as often as they repeat when they hold a value (the
    empty rows a sheet ends with are repeated without one)."""
    found: dict[str, Scan] = {}
    with zipfile.ZipFile(path) as z, z.open("content.xml") as stream:
        scan, name = Scan(), ""
        row, column, filled = 0, 0, False
        for event, el in _events(stream):
            if el.tag == f"{_TABLE}table" and event == "start":
                name = el.get(f"{_TABLE}name", "")
                scan = found.setdefault(name, Scan())
                row = 0
            elif el.tag == f"{_TABLE}table-row" and event == "start":
                column, filled = 0, False
            elif el.tag == f"{_TABLE}table-row":
                repeat = int(el.get(f"{_TABLE}number-rows-repeated", "1"))
                if filled:
                    scan.reach(name, row + repeat - 1, 0, bounds)
                row += repeat
                el.clear()
            elif el.tag in _CELLS and event == "end":
                repeat = int(el.get(f"{_TABLE}number-columns-repeated", "1"))
                if _ods_cell(el, scan, row, column):
                    filled = True
                    scan.reach(name, row, column + repeat - 1, bounds)
                column += repeat
    return found


def _ods_cell(el: ElementTree.Element, scan: Scan, row: int, column: int) -> bool:
    """Note the cell's unsaved formula or error value; whether it holds anything."""
    formula = el.get(f"{_TABLE}formula")
    text = "".join(el.itertext()).strip()
    typed = el.get(f"{_OFFICE}value-type") is not None
    if formula is not None and (
        el.get(f"{_CALCEXT}value-type") == "error" or ERROR_VALUE.fullmatch(text)
    ):
        scan.errors.append((row, column, text or "an error"))
    elif formula is not None and not typed:
        scan.unsaved.append((row, column, formula.removeprefix("of:")))
    return formula is not None or typed or bool(text)
