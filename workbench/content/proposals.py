"""A copy of the designer's spreadsheet with proposed cells changed and marked.

The original file is never written. .xlsx: an openpyxl copy with changed cells filled yellow and
a comment "was X; proposed by workbench tune run N". .ods: converted to such an .xlsx (openpyxl
cannot write OpenDocument), every sheet's values kept. .csv: a CSV copy with the new values.
Every format also gets `proposals.csv`: file, sheet, row, column, card, field, old, new, note
(text that starts like a formula prefixed with ', as the report's exports); a proposal's note
(e.g. that no price in range balances the card) is also the end of its cell's comment.
"""

from __future__ import annotations

import csv
import re
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from workbench.content.card_sets import _CARD_COLUMNS
from workbench.content.sheets import FORMULA_START, Cell, column_letter, is_blank, read_sheets
from workbench.content.tables import header_key

YELLOW = "FFFF00"


@dataclass(frozen=True)
class Proposal:
    """A cell to change; `note` (e.g. that no price in range balances the card) goes into the
    marked cell's comment and proposals.csv."""

    card: str
    field: str
    old: int | None
    new: int
    note: str = ""


@dataclass(frozen=True)
class Located:
    proposal: Proposal
    sheet: str
    row: int
    column: int


def locate(path: Path, proposals: Sequence[Proposal]) -> list[Located]:
    """Sheet, 1-based row and 0-based column of each proposal's cell; ValueError if missing."""
    found: list[Located] = []
    for sheet in read_sheets(path):
        rows = [(i + 1, r) for i, r in enumerate(sheet.rows) if not is_blank(r)]
        if not rows:
            continue
        columns = {
            _CARD_COLUMNS.get(header_key(c)): i for i, c in enumerate(rows[0][1]) if c is not None
        }
        if "name" not in columns:
            continue
        for number, cells in rows[1:]:
            name = cells[columns["name"]] if columns["name"] < len(cells) else None
            for p in proposals:
                if (
                    isinstance(name, str)
                    and name.strip().casefold() == p.card.casefold()
                    and p.field in columns
                ):
                    found.append(Located(p, sheet.name, number, columns[p.field]))
    missing = {p.card for p in proposals} - {f.proposal.card for f in found}
    if missing:
        raise ValueError(f"{path}: no {', '.join(sorted(missing))} row with those columns")
    return found


def write_copy(source: Path, out: Path, proposals: Sequence[Proposal], study: int) -> Path:
    """Write the marked copy into `out` (never onto `source`) and proposals.csv; the copy's
    path."""
    out.mkdir(parents=True, exist_ok=True)
    located = locate(source, proposals)
    suffix = source.suffix.casefold()
    target = out / (
        source.stem + ("-proposed.xlsx" if suffix in (".xlsx", ".ods") else "-proposed.csv")
    )
    if target.resolve() == source.resolve():
        raise ValueError(f"refusing to overwrite the designer's file {source}")
    note = f"proposed by workbench tune run {study}"
    if suffix == ".csv":
        _csv_copy(source, target, located)
    else:
        _xlsx_copy(source, target, located, note)
    with (out / "proposals.csv").open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(
            ["file", "copy", "sheet", "row", "column", "card", "field", "old", "new", "note"]
        )
        for loc in located:
            p = loc.proposal
            w.writerow(
                [
                    _text(str(source)),
                    _text(target.name),
                    _text(loc.sheet),
                    loc.row,
                    column_letter(loc.column),
                    _text(p.card),
                    p.field,
                    "" if p.old is None else p.old,
                    p.new,
                    _text(p.note),
                ]
            )
    return target


def _text(cell: str) -> str:
    """A text cell that starts like a formula, prefixed with ' (OWASP, CSV injection; as the
    report's exports, reports/html.py): a card named `=HYPERLINK(...)` opens as text."""
    return "'" + cell if re.match(FORMULA_START, cell) else cell


def _csv_copy(source: Path, target: Path, located: Sequence[Located]) -> None:
    rows = [list(r) for r in csv.reader(source.read_text(encoding="utf-8-sig").splitlines())]
    for loc in located:
        row = rows[loc.row - 1]
        row.extend([""] * (loc.column + 1 - len(row)))
        row[loc.column] = str(loc.proposal.new)
    with target.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)


def _xlsx_copy(source: Path, target: Path, located: Sequence[Located], note: str) -> None:
    import openpyxl
    from openpyxl.comments import Comment
    from openpyxl.styles import PatternFill

    if source.suffix.casefold() == ".xlsx":
        shutil.copyfile(source, target)
        book = openpyxl.load_workbook(target)
    else:
        book = openpyxl.Workbook()
        book.remove(book.active)
        for sheet in read_sheets(source):
            ws = book.create_sheet(sheet.name)
            for row in sheet.rows:
                ws.append([_plain(c) for c in row])
        book.create_sheet("converted").append(
            [f"Converted from {source.name} (OpenDocument) by workbench tune; values only."]
        )
    fill = PatternFill(start_color=YELLOW, end_color=YELLOW, fill_type="solid")
    for loc in located:
        cell = book[loc.sheet].cell(row=loc.row, column=loc.column + 1)
        was = "empty" if loc.proposal.old is None else loc.proposal.old
        cell.value = loc.proposal.new
        cell.fill = fill
        extra = f"; {loc.proposal.note}" if loc.proposal.note else ""
        cell.comment = Comment(f"was {was}; {note}{extra}", "workbench tune")
    book.save(target)


def _plain(cell: Cell) -> Cell:
    return int(cell) if isinstance(cell, float) and cell.is_integer() else cell
