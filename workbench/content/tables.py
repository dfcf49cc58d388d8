"""Located problems and the cells, tables and records of a spreadsheet (docs/card-language.md,
docs/boards.md).

Every problem of a file is collected, each naming file, sheet, row and column, so a designer fixes
a whole sheet in one pass. Card names that one file uses and another defines (tokens, start cards,
placements) are kept as `Ref`s and resolved against everything loaded together.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Generic, NamedTuple, TypeVar

from engine.cards import Card, CardSet, CardType
from engine.words import LanguageError, nearest, norm
from workbench.content.sheets import (
    Cell,
    Sheet,
    column_letter,
    is_blank,
)

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong in a file, located as the designer sees it (row 1 = header)."""

    file: str
    sheet: str | None = None
    row: int | None = None
    column: str | None = None
    value: str | None = None
    message: str = ""

    def __str__(self) -> str:
        where = [self.file]
        if self.sheet is not None:
            where.append(f"sheet {self.sheet!r}")
        if self.row is not None:
            where.append(f"row {self.row}")
        if self.column is not None:
            where.append(f"column {self.column}")
        value = f" {self.value!r}:" if self.value is not None else ""
        return f"{', '.join(where)}:{value} {self.message}"


class ValidationError(Exception):
    """Raised by the `load_*` functions: every problem found, none left out."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


@dataclass(frozen=True, slots=True)
class Ref:
    """A card name used at `where`; `types` it must have (empty: any); `player`: the card goes
    to a player (a start card, a player's token or placement), so it may not be the Tyrant's
    unit (R17.1, R21.15)."""

    name: str
    what: str
    where: Problem
    types: frozenset[CardType] = frozenset()
    player: bool = False


class Known(NamedTuple):
    """A card name some set defines: as written, its type (None if its row was bad), its set,
    where it is defined, and the card itself once its row loaded."""

    name: str
    type: CardType | None
    set: str = ""
    where: Problem | None = None
    card: Card | None = None


Names = dict[str, Known]
"""Known card names by casefolded name."""

Lookup = Callable[[str], Card | None]
"""A card by name, None when unknown or its row was bad (that is reported elsewhere)."""
Check = Callable[[Lookup], list[Problem]]
"""A check of a file's content that needs the cards it names (e.g. what a board places)."""


@dataclass
class Parsed(Generic[T]):
    """What reading one file gave: the result only when there are no problems."""

    value: T | None
    problems: list[Problem]
    refs: list[Ref] = field(default_factory=list)
    names: Names = field(default_factory=dict)
    checks: list[Check] = field(default_factory=list)


# --- cells ----------------------------------------------------------------------------------


def header_key(text: object) -> str:
    """Headers, sheet names and scenario keys ignore case, spaces, `_` and `-`."""
    return re.sub(r"[\s_\-]", "", norm(str(text)))


def aliases(names: dict[str, tuple[str, ...]]) -> dict[str, str]:
    return {header_key(a): canon for canon, aliases in names.items() for a in (canon, *aliases)}


def cell_text(cell: Cell) -> str | None:
    """A cell as text, None when empty; 3.0 reads as "3" (a number typed into a text column)."""
    if cell is None:
        return None
    if isinstance(cell, float) and cell.is_integer():
        return str(int(cell))
    text = str(cell).strip()
    return text or None


def cell_int(cell: Cell, *, signed: bool = False, most: int | None = None) -> int:
    """A whole number from 3, 3.0 or "3", at most `most` (and at least -`most` if signed);
    ValueError with the reason otherwise (R8.7)."""
    value: float
    if isinstance(cell, bool) or cell is None:
        raise ValueError("not a number")
    value = cell if isinstance(cell, (int, float)) else number_text(cell)
    if not math.isfinite(value) or not float(value).is_integer():
        raise ValueError("not a whole number")
    if value < 0 and not signed:
        raise ValueError("must be 0 or more" if most is None else f"must be 0 to {most}")
    if most is not None and abs(value) > most:
        raise ValueError(f"must be {-most if signed else 0} to {most}")
    return int(value)


_DIGITS = re.compile(r"[+-]?[0-9]+(?:\.[0-9]*)?")
_EXPONENT = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)[eE][+-]?[0-9]+")


def number_text(text: str) -> float:
    """A number typed as text: the digits 0-9, a sign and a decimal point, nothing else.
    Python's float() would also take full-width and other scripts' digits and `1e1`; a
    designer who typed them sees them refused instead of read as another number."""
    word = text.strip()
    if _DIGITS.fullmatch(word):
        return float(word)
    if _EXPONENT.fullmatch(word):
        value = float(word)
        spelled = f"{int(value)}" if math.isfinite(value) and value.is_integer() else None
        out = f": {word} is {spelled}" if spelled is not None and len(spelled) < 40 else ""
        raise ValueError(f"write the number with the digits 0-9, not as a power of ten{out}")
    if any(ch.isnumeric() for ch in word if not ch.isascii()):
        raise ValueError("write numbers with the digits 0-9")
    raise ValueError("not a number")


_YES = {"yes", "ja", "true", "wahr", "y", "j", "x", "1"}
_NO = {"no", "nein", "false", "falsch", "n", "0"}


def yes_no(text: str) -> bool:
    """yes/no (ja/nein, true/false, 1/0)."""
    if norm(text) not in _YES | _NO:
        raise ValueError("write yes or no")
    return norm(text) in _YES


# --- tables (a header row, then one record per row) -----------------------------------------


@dataclass
class Table:
    file: str
    sheet: str | None
    columns: dict[str, int]
    headers: list[str]
    rows: list[tuple[int, tuple[Cell, ...]]]

    def column(self, name: str) -> str:
        """`effect (G)`: the header as written and its letter; a missing column by name."""
        if name in self.columns:
            i = self.columns[name]
            return f"{self.headers[i]} ({column_letter(i)})"
        return f"{name} (no such column)"


def read_table(
    file: str,
    sheet: str | None,
    rows: Sequence[tuple[Cell, ...]],
    aliases: dict[str, str],
    required: Sequence[str],
    problems: list[Problem],
) -> Table | None:
    """Read the header row (the first non-blank row) and the records under it; a value in a
    column without a header is a problem (it would be ignored without a word)."""
    numbered = [(i + 1, row) for i, row in enumerate(rows) if not is_blank(row)]
    if not numbered:
        return None
    header_row, header = numbered[0]
    columns: dict[str, int] = {}
    width = max(len(r) for _, r in numbered)
    headers = [cell_text(c) or "" for c in header] + [""] * (width - len(header))
    for i, text in enumerate(headers):
        where = Problem(file, sheet, header_row, f"{text} ({column_letter(i)})", text)
        if not text:
            stray = next(
                ((n, r[i]) for n, r in numbered[1:] if len(r) > i and cell_text(r[i]) is not None),
                None,
            )
            if stray is not None:
                example = " (e.g. notes)" if "notes" in aliases.values() else ""
                problems.append(
                    Problem(
                        file,
                        sheet,
                        stray[0],
                        column_letter(i),
                        cell_text(stray[1]),
                        f"a value in a column without a "
                        f"header: name the column in row {header_row}{example} "
                        "or delete the value",
                    )
                )
            continue
        key = aliases.get(header_key(text))
        if key is None:
            problems.append(replace(where, message="unknown column" + hint(text, aliases)))
        elif key in columns:
            problems.append(replace(where, message=f"column {key!r} given twice"))
        else:
            columns[key] = i
    for name in required:
        if name not in columns:
            problems.append(
                Problem(file, sheet, header_row, None, None, f"missing required column {name!r}")
            )
    return Table(file, sheet, columns, headers, numbered[1:])


def hint(word: str, aliases: dict[str, str]) -> str:
    close = difflib.get_close_matches(header_key(word), list(aliases), n=3)
    names = list(dict.fromkeys(aliases[c] for c in close))
    return f"; did you mean {' or '.join(repr(n) for n in names)}?" if names else ""


class Record:
    """One row of a table; every read that fails adds a problem and marks the row bad."""

    def __init__(
        self, table: Table, number: int, cells: tuple[Cell, ...], problems: list[Problem]
    ) -> None:
        self.table, self.number, self.cells, self.problems = table, number, cells, problems
        self.ok = True

    def where(self, name: str) -> Problem:
        return Problem(
            self.table.file,
            self.table.sheet,
            self.number,
            self.table.column(name),
            cell_text(self.cell(name)),
        )

    def fail(self, name: str, message: str) -> None:
        self.problems.append(replace(self.where(name), message=message))
        self.ok = False

    def cell(self, name: str) -> Cell:
        i = self.table.columns.get(name)
        return self.cells[i] if i is not None and i < len(self.cells) else None

    def text(self, name: str) -> str | None:
        return cell_text(self.cell(name))

    def count(self, name: str, *, signed: bool = False, most: int | None = None) -> int | None:
        """A whole number, None when the cell is empty (not the same as 0, R6.2)."""
        if self.text(name) is None:
            return None
        try:
            return cell_int(self.cell(name), signed=signed, most=most)
        except ValueError as err:
            self.fail(name, str(err))
            return None

    def parse(self, name: str, parser: Callable[[str], T]) -> T | None:
        """Card-language text through `parser`; None for an empty or a bad cell."""
        text = self.text(name)
        if text is None:
            return None
        try:
            return parser(text)
        except (LanguageError, ValueError) as err:
            self.fail(name, str(err))
            return None


def names_of(sets: Iterable[CardSet]) -> Names:
    """The card names of loaded sets, for `resolve`."""
    return {c.name.casefold(): Known(c.name, c.type, s.name, card=c) for s in sets for c in s.cards}


def run_checks(checks: Iterable[Check], names: Names) -> list[Problem]:
    """The problems of `checks` with cards looked up in `names`."""

    def lookup(name: str) -> Card | None:
        known = names.get(name.casefold())
        return known.card if known is not None else None

    return [p for check in checks for p in check(lookup)]


def sheet_problems(file: str, sheet: Sheet, located: bool, hidden: str) -> list[Problem]:
    """A hidden sheet (`hidden` says why that matters), formulas saved without a value and
    error values (`#DIV/0!`), which would read as empty cells. `located`: name the sheet
    (workbooks; not a CSV)."""
    name = sheet.name if located else None
    problems = [Problem(file, name, message=f"hidden sheet: {hidden}")] if sheet.hidden else []
    problems += [
        Problem(
            file,
            name,
            row + 1,
            column_letter(col),
            formula,
            "formula without a saved value, so it would read as an empty cell (the "
            "workbench never computes formulas): open the file in a spreadsheet "
            "program and save it, or type the value",
        )
        for row, col, formula in sheet.unsaved
    ]
    problems += [
        Problem(
            file,
            name,
            row + 1,
            column_letter(col),
            error,
            f"the spreadsheet error {error} (a formula that failed) instead of a value, so it "
            "would read as an empty cell: fix the formula in a spreadsheet program and save "
            "the file again, or type the value",
        )
        for row, col, error in sheet.errors
    ]
    return problems


def resolve(refs: Iterable[Ref], names: Names) -> list[Problem]:
    """A problem for every ref to an unknown card or a card of the wrong type."""
    problems = []
    spelled = [known.name for known in names.values()]
    for ref in refs:
        known = names.get(ref.name.casefold())
        if known is None:
            close = nearest(ref.name, spelled)
            hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
            problems.append(
                replace(ref.where, message=f"unknown card {ref.name!r} ({ref.what}){hint}")
            )
        elif ref.player and known.card is not None and known.card.keywords.tyrant:
            problems.append(
                replace(
                    ref.where,
                    message=f"{known.name!r} has the keyword tyrant: it is the Tyrant's unit, "
                    f"the board's own side (R17.1, R21.15), never a player's {ref.what}",
                )
            )
        elif ref.types and known.type is not None and known.type not in ref.types:
            wanted = " or ".join(sorted(t.value for t in ref.types))
            problems.append(
                replace(
                    ref.where,
                    message=f"{ref.what} {known.name!r} is of type "
                    f"{known.type.value}; expected {wanted}",
                )
            )
    return problems
