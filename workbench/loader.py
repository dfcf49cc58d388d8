"""Card sets and boards from spreadsheets (docs/card-language.md, docs/boards.md).

Every problem of a file is collected, each naming file, sheet, row and column, so a designer fixes
a whole sheet in one pass. A file with any problem yields no result at all: nothing half-loaded
reaches the engine. Card names that one file uses and another defines (tokens, start cards,
placements) are kept as `Ref`s and resolved against everything loaded together.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Generic, TypeVar

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
from engine.cards import Card, CardSet, CardType, Effect, FreeAction, Keywords, Modifiers, Trigger
from engine.language import (
    LanguageError,
    nearest,
    norm,
    parse_effects,
    parse_free_actions,
    parse_full_actions,
    parse_keywords,
    parse_modifiers,
    parse_triggers,
)
from workbench.sheets import (
    SPREADSHEET_SUFFIXES,
    WORKBOOK_SUFFIXES,
    Cell,
    SheetError,
    column_letter,
    is_blank,
    read_sheets,
)

T = TypeVar("T")

CONTENT_DIR = Path(__file__).resolve().parent.parent / "cardsets"
"""Shipped content: card sets at the top level, boards in `boards/` (docs/boards.md)."""
BOARDS_DIR = CONTENT_DIR / "boards"
BOARD_PARTS = ("map", "scenario", "placements")
"""A CSV board is NAME.map.csv, NAME.scenario.csv and (optional) NAME.placements.csv."""


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
    """A card name used at `where`; `types` it must have (empty: any)."""

    name: str
    what: str
    where: Problem
    types: frozenset[CardType] = frozenset()


Names = dict[str, tuple[str, CardType | None]]
"""Known card names: casefolded name -> (name as written, type or None if its row was bad)."""


@dataclass
class Parsed(Generic[T]):
    """What reading one file gave: the result only when there are no problems."""

    value: T | None
    problems: list[Problem]
    refs: list[Ref] = field(default_factory=list)
    names: Names = field(default_factory=dict)


# --- cells ----------------------------------------------------------------------------------

def header_key(text: object) -> str:
    """Headers, sheet names and scenario keys ignore case, spaces, `_` and `-`."""
    return re.sub(r"[\s_\-]", "", norm(str(text)))


def _aliases(names: dict[str, tuple[str, ...]]) -> dict[str, str]:
    return {header_key(a): canon for canon, aliases in names.items() for a in (canon, *aliases)}


def cell_text(cell: Cell) -> str | None:
    """A cell as text, None when empty; 3.0 reads as "3" (a number typed into a text column)."""
    if cell is None:
        return None
    if isinstance(cell, float) and cell.is_integer():
        return str(int(cell))
    text = str(cell).strip()
    return text or None


def cell_int(cell: Cell, *, signed: bool = False) -> int:
    """A whole number from 3, 3.0 or "3"; ValueError with the reason otherwise (R8.7)."""
    value: float
    if isinstance(cell, bool) or cell is None:
        raise ValueError("not a number")
    if isinstance(cell, (int, float)):
        value = cell
    else:
        try:
            value = float(cell.strip())
        except ValueError:
            raise ValueError("not a number") from None
    if not math.isfinite(value) or not float(value).is_integer():
        raise ValueError("not a whole number")
    if value < 0 and not signed:
        raise ValueError("must be 0 or more")
    return int(value)


_YES = {"yes", "ja", "true", "wahr", "y", "j", "x", "1"}
_NO = {"no", "nein", "false", "falsch", "n", "0"}


def _yes_no(text: str) -> bool:
    """yes/no (ja/nein, true/false, 1/0)."""
    if norm(text) not in _YES | _NO:
        raise ValueError("write yes or no")
    return norm(text) in _YES


# --- tables (a header row, then one record per row) -----------------------------------------

@dataclass
class _Table:
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


def _table(file: str, sheet: str | None, rows: Sequence[tuple[Cell, ...]],
           aliases: dict[str, str], required: Sequence[str],
           problems: list[Problem]) -> _Table | None:
    """Read the header row (the first non-blank row) and the records under it."""
    numbered = [(i + 1, row) for i, row in enumerate(rows) if not is_blank(row)]
    if not numbered:
        return None
    header_row, header = numbered[0]
    columns: dict[str, int] = {}
    headers = [cell_text(c) or "" for c in header]
    for i, text in enumerate(headers):
        where = Problem(file, sheet, header_row, f"{text} ({column_letter(i)})", text)
        if not text:
            if any(len(r) > i and r[i] is not None for _, r in numbered[1:]):
                problems.append(replace(where, column=column_letter(i), value=None,
                                        message="values under an empty header"))
            continue
        key = aliases.get(header_key(text))
        if key is None:
            problems.append(replace(where, message="unknown column" + _hint(text, aliases)))
        elif key in columns:
            problems.append(replace(where, message=f"column {key!r} given twice"))
        else:
            columns[key] = i
    for name in required:
        if name not in columns:
            problems.append(Problem(file, sheet, header_row, None, None,
                                    f"missing required column {name!r}"))
    return _Table(file, sheet, columns, headers, numbered[1:])


def _hint(word: str, aliases: dict[str, str]) -> str:
    close = difflib.get_close_matches(header_key(word), list(aliases), n=3)
    names = list(dict.fromkeys(aliases[c] for c in close))
    return f"; did you mean {' or '.join(repr(n) for n in names)}?" if names else ""


class _Record:
    """One row of a table; every read that fails adds a problem and marks the row bad."""

    def __init__(self, table: _Table, number: int, cells: tuple[Cell, ...],
                 problems: list[Problem]) -> None:
        self.table, self.number, self.cells, self.problems = table, number, cells, problems
        self.ok = True

    def where(self, name: str) -> Problem:
        return Problem(self.table.file, self.table.sheet, self.number, self.table.column(name),
                       cell_text(self.cell(name)))

    def fail(self, name: str, message: str) -> None:
        self.problems.append(replace(self.where(name), message=message))
        self.ok = False

    def cell(self, name: str) -> Cell:
        i = self.table.columns.get(name)
        return self.cells[i] if i is not None and i < len(self.cells) else None

    def text(self, name: str) -> str | None:
        return cell_text(self.cell(name))

    def count(self, name: str, *, signed: bool = False) -> int | None:
        """A whole number, None when the cell is empty (not the same as 0, R6.2)."""
        if self.text(name) is None:
            return None
        try:
            return cell_int(self.cell(name), signed=signed)
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


# --- card sets ------------------------------------------------------------------------------

_CARD_COLUMNS = _aliases({
    "name": (), "set": (), "type": ("typ",), "copies": ("anzahl", "count"),
    "buy": ("kaufpreis",), "play": ("spielkosten",), "upkeep": ("unterhalt", "unterhaltskosten"),
    "life": ("leben",), "move": ("bewegung", "movement"), "attack": ("angriff",),
    "range": ("reichweite",), "armor": ("armour", "rüstung"), "durability": ("haltbarkeit",),
    "keywords": ("keyword", "schlüsselwörter", "schlüsselwort"),
    "effect": ("effects", "effekt", "effekte"), "trigger": ("triggers", "auslöser"),
    "free action": ("free actions", "freie aktion", "freie aktionen"),
    "full action": ("full actions", "volle aktion", "volle aktionen"),
    "modifiers": ("modifier", "modifikatoren"), "text": (), "notes": ("notizen", "note"),
})
_CARD_TYPES = _aliases({
    "unit": ("units", "einheit"), "spell": ("spells", "zauber"),
    "artifact": ("artifacts", "artefakt"), "equipment": ("ausrüstung",),
    "potion": ("potions", "trank"), "intention": ("intentions",),
})
_PERMANENTS = frozenset(t for t in CardType if t.is_permanent)


def _card(rec: _Record, set_name: str, names: Names, refs: list[Ref]) -> Card | None:
    """One card row; None (with problems recorded) when anything in it is wrong."""
    name = rec.text("name")
    type_text = rec.text("type")
    ctype: CardType | None = None
    if type_text is None:
        rec.fail("type", "missing card type")
    elif header_key(type_text) in _CARD_TYPES:
        ctype = CardType(_CARD_TYPES[header_key(type_text)])
    else:
        rec.fail("type", f"unknown card type {type_text!r}" + _hint(type_text, _CARD_TYPES))
    if name is None:
        rec.fail("name", "missing card name")
    else:
        names.setdefault(name.casefold(), (name, ctype))
    copies = rec.count("copies")
    buy, play, upkeep = rec.count("buy"), rec.count("play"), rec.count("upkeep")
    life, move = rec.count("life"), rec.count("move")
    attack, reach = rec.count("attack"), rec.count("range")
    armor, durability = rec.count("armor"), rec.count("durability")
    keywords = rec.parse("keywords", parse_keywords) or Keywords()
    effects = rec.parse("effect", parse_effects) or ()
    triggers = rec.parse("trigger", parse_triggers) or ()
    free = rec.parse("free action", parse_free_actions) or ()
    full = rec.parse("full action", parse_full_actions) or ()
    modifiers = rec.parse("modifiers", parse_modifiers) or Modifiers()
    if armor is not None:
        if keywords.armor and keywords.armor != armor:
            rec.fail("armor", f"armor {armor} differs from 'armor {keywords.armor}' in keywords")
        keywords = replace(keywords, armor=armor)
    if ctype is CardType.UNIT:
        for stat, value in (("life", life), ("move", move)):
            if value is None and rec.text(stat) is None:
                rec.fail(stat, f"a unit needs {stat} (R12.1)")
        attack = 0 if attack is None else attack
        reach = 1 if reach is None else reach
        if reach < 1:
            rec.fail("range", "a unit's range is 1 or more (R12.5)")
    if ctype is CardType.EQUIPMENT and rec.text("durability") is None:
        rec.fail("durability", "equipment needs durability (R15.5)")
    if ctype in (CardType.EQUIPMENT, CardType.POTION) and durability == 0:
        rec.fail("durability", "durability below 1 destroys the equipment (R15.5)")
    if ctype is CardType.POTION and durability is None:
        durability = 1  # R15.8
    _token_refs(rec, refs, effects, triggers, free, full)
    for p in (*keywords.protections, *(modifiers.keywords.protections if modifiers.keywords
                                        else ())):
        if p.card is not None:
            refs.append(Ref(p.card, "protection from", rec.where("keywords")))
    if not rec.ok or name is None or ctype is None:
        return None
    return Card(name=name, set=set_name, type=ctype, copies=1 if copies is None else copies,
                buy=buy, play=play, upkeep=upkeep, life=life, move=move, attack=attack,
                range=reach, durability=durability, keywords=keywords, effects=effects,
                triggers=triggers, free_actions=free, full_actions=full, modifiers=modifiers,
                text=rec.text("text") or "")


def _token_refs(rec: _Record, refs: list[Ref], effects: tuple[Effect, ...],
                triggers: tuple[Trigger, ...], free: tuple[FreeAction, ...],
                full: tuple[tuple[Effect, ...], ...]) -> None:
    """`create NAME` names a card of some loaded set (R8.8)."""
    groups: list[tuple[str, tuple[Effect, ...]]] = [("effect", effects)]
    groups += [("trigger", t.effects) for t in triggers]
    groups += [("free action", a.effects) for a in free]
    groups += [("full action", alt) for alt in full]
    for column, group in groups:
        refs.extend(Ref(e.card, "token", rec.where(column)) for e in group if e.card)


def read_cardsets(path: Path) -> Parsed[list[CardSet]]:
    """One set per CSV file (set = file stem) or per workbook sheet (set = sheet name), unless a
    `set` column names another; names from other files are left as refs (see `resolve`)."""
    file = str(path)
    try:
        sheets = read_sheets(path)
    except SheetError as err:
        return Parsed(None, [Problem(file, message=err.reason)])
    is_csv = path.suffix.casefold() == ".csv"
    problems: list[Problem] = []
    refs: list[Ref] = []
    names: Names = {}
    sets: dict[str, tuple[str, str, list[Card]]] = {}
    seen: dict[tuple[str, str], int] = {}
    for sheet in sheets:
        sheet_name = None if is_csv else sheet.name
        table = _table(file, sheet_name, sheet.rows, _CARD_COLUMNS, ("name", "type"), problems)
        if table is None:
            continue
        for number, cells in table.rows:
            rec = _Record(table, number, cells, problems)
            set_name = rec.text("set") or (path.stem if is_csv else sheet.name)
            name = rec.text("name")
            if name is not None:
                key = (set_name.casefold(), name.casefold())
                if key in seen:
                    rec.fail("name", f"duplicate card name {name!r} in set {set_name!r} "
                                     f"(first in row {seen[key]})")
                seen.setdefault(key, number)
            card = _card(rec, set_name, names, refs)
            source = file if is_csv else f"{file}#{sheet.name}"
            entry = sets.setdefault(set_name.casefold(), (set_name, source, []))
            if card is not None:
                entry[2].append(card)
    if not problems and not any(cards for _, _, cards in sets.values()):
        problems.append(Problem(file, message="no cards: expected a header row with 'name' and "
                                              "'type', then one card per row"))
    if problems:
        return Parsed(None, problems, refs, names)
    value = [CardSet(n, tuple(cards), src) for n, src, cards in sets.values()]
    return Parsed(value, problems, refs, names)


def names_of(sets: Iterable[CardSet]) -> Names:
    """The card names of loaded sets, for `resolve`."""
    return {c.name.casefold(): (c.name, c.type) for s in sets for c in s.cards}


def resolve(refs: Iterable[Ref], names: Names) -> list[Problem]:
    """A problem for every ref to an unknown card or a card of the wrong type."""
    problems = []
    spelled = [n for n, _ in names.values()]
    for ref in refs:
        known = names.get(ref.name.casefold())
        if known is None:
            close = nearest(ref.name, spelled)
            hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
            problems.append(replace(ref.where, message=f"unknown card {ref.name!r} "
                                                       f"({ref.what}){hint}"))
        elif ref.types and known[1] is not None and known[1] not in ref.types:
            wanted = " or ".join(sorted(t.value for t in ref.types))
            problems.append(replace(ref.where, message=f"{ref.what} {known[0]!r} is of type "
                                                       f"{known[1].value}; expected {wanted}"))
    return problems


def load_cardsets(path: Path | str, catalog: Sequence[CardSet] = ()) -> list[CardSet]:
    """The sets of one file; token names resolve against the file itself and `catalog`.
    Raises ValidationError listing every problem."""
    parsed = read_cardsets(Path(path))
    problems = parsed.problems + resolve(parsed.refs, {**names_of(catalog), **parsed.names})
    if problems or parsed.value is None:
        raise ValidationError(problems)
    return parsed.value


# --- boards ---------------------------------------------------------------------------------

_SHEETS = _aliases({"map": ("karte",), "scenario": ("szenario",),
                    "placements": ("aufstellung",)})
_TERRAIN_CODES = {".": Terrain.PLAIN, "~": Terrain.DEEP_WATER, "^": Terrain.HIGH_GROUND,
                  "#": Terrain.BLOCKED}
_TERRAIN_NAMES = {norm(w): t for t, words in (
    (Terrain.PLAIN, ("plain", "ebene")),
    (Terrain.DEEP_WATER, ("water", "deep water", "wasser", "tiefes wasser")),
    (Terrain.HIGH_GROUND, ("high", "high ground", "hügel")),
    (Terrain.BLOCKED, ("blocked", "fels")),
) for w in words}
MAX_SEATS = 4


def parse_field(text: str) -> Field:
    """A map cell: terrain code or word, then marks: seat 1-4, area A-Z, `$` income."""
    if text[0] in _TERRAIN_CODES:
        terrain, marks = _TERRAIN_CODES[text[0]], text[1:]
    else:
        words = text.split()
        two, one = norm(" ".join(words[:2])), norm(words[0])
        if len(words) > 1 and two in _TERRAIN_NAMES:
            terrain, marks = _TERRAIN_NAMES[two], "".join(words[2:])
        elif one in _TERRAIN_NAMES:
            terrain, marks = _TERRAIN_NAMES[one], "".join(words[1:])
        else:
            close = nearest(text, list(_TERRAIN_NAMES))
            hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
            raise ValueError(f"unknown field code: a field starts with . ~ ^ # or a terrain "
                             f"word{hint}")
    deploy: int | None = None
    area: str | None = None
    income = 0
    for mark in marks:
        if mark in "1234" and deploy is None:
            deploy = int(mark) - 1
        elif "A" <= mark <= "Z" and area is None:
            area = mark
        elif mark == "$":
            income += 1
        elif mark in "1234" or "A" <= mark <= "Z":
            raise ValueError(f"two {'deploy seats' if mark.isdigit() else 'areas'} in one field")
        else:
            raise ValueError(f"unknown field code {mark!r} (known: . ~ ^ # 1-4 A-Z $)")
    return Field(terrain, deploy, area, income)


@dataclass
class _Map:
    width: int
    height: int
    fields: tuple[Field, ...]


def _read_map(file: str, sheet: str | None, rows: Sequence[tuple[Cell, ...]],
              problems: list[Problem]) -> _Map | None:
    """The map sheet: no header, one cell per field, every row equally long."""
    texts = [[cell_text(c) for c in row] for row in rows]
    for row in texts:
        while row and row[-1] is None:
            row.pop()
    while texts and not texts[-1]:
        texts.pop()
    if not texts:
        problems.append(Problem(file, sheet, message="empty map: one cell per field expected"))
        return None
    before = len(problems)
    width = len(texts[0])
    fields: list[Field] = []
    for y, row in enumerate(texts):
        if not row:
            problems.append(Problem(file, sheet, y + 1, message="empty map row"))
            continue
        if len(row) != width:
            problems.append(Problem(file, sheet, y + 1, message=f"ragged map: this row has "
                                    f"{len(row)} fields, row 1 has {width}"))
        for x, text in enumerate(row):
            where = Problem(file, sheet, y + 1, column_letter(x), text)
            if text is None:
                problems.append(replace(where, message="empty field: every field needs a "
                                                       "terrain code"))
                continue
            try:
                fields.append(parse_field(text))
            except ValueError as err:
                problems.append(replace(where, message=str(err)))
    if len(problems) > before:
        return None
    return _Map(width, len(texts), tuple(fields))


_KEYS = _aliases({
    "name": (), "players": ("spieler",), "teams": (), "victory": ("siegbedingung",),
    "victory target": ("siegziel",), "victory card": ("siegkarte",),
    "tyrant goal": ("tyrannenziel",), "shared win": ("gemeinsamer sieg",),
    "income": ("einkommen",), "unit income": ("einheiteneinkommen",),
    "start cards": ("startkarten",), "starting hand": ("starthand", "start hand"),
    "round limit": ("rundenlimit",), "tie break": (), "tyrant deck": ("tyrannendeck",),
})
_VICTORIES = _aliases({
    "vip": (), "resource": ("ressource", "ressourcen"), "capture": ("eroberung",),
    "buildings": ("gebäude",), "staff": ("stab",), "tyrant": ("tyrann",),
})
_TIE_BREAKS = _aliases({
    "none": ("keiner", "unentschieden"), "points": ("punkte",), "resource": ("ressource",),
    "units": ("einheiten",),
})
_VICTORY_CARD_TYPES = {
    VictoryKind.VIP: frozenset({CardType.UNIT}),
    VictoryKind.STAFF: frozenset({CardType.EQUIPMENT, CardType.POTION}),
    VictoryKind.TYRANT: frozenset({CardType.UNIT}),
}
_COUNT = re.compile(r"^(?:(?P<n1>\d+)\s*[x×]\s+(?P<a>.+)|(?P<b>.+?)(?:\s+[x×]\s*(?P<n2>\d+))?)$",
                    re.IGNORECASE)


def _card_counts(text: str) -> tuple[tuple[str, int], ...]:
    """`NAME xN, NAME xN` (also `N x NAME`; N = 1 if omitted)."""
    counts = []
    for piece in re.split(r"[,;]", text):
        piece = piece.strip()
        match = _COUNT.match(piece)
        if not piece or match is None:
            raise ValueError(f"write 'NAME xN, NAME xN', not {text!r}")
        name = (match["a"] or match["b"]).strip()
        counts.append((name, int(match["n1"] or match["n2"] or 1)))
    return tuple(counts)


def _teams(text: str, players: int) -> tuple[tuple[int, ...], ...]:
    """`1,3;2,4` -> ((0, 2), (1, 3)): 1-based seats in the sheet, 0-based in the model."""
    teams, seen = [], set()
    for part in text.split(";"):
        seats = []
        for word in part.split(","):
            seat = cell_int(word)
            if not 1 <= seat <= players or seat in seen:
                raise ValueError(f"seat {seat} is not a free seat of {players} players")
            seen.add(seat)
            seats.append(seat - 1)
        teams.append(tuple(seats))
    return tuple(teams)


def _choice(table: dict[str, str], what: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if header_key(text) not in table:
            raise ValueError(f"unknown {what} {text!r}" + _hint(text, table))
        return table[header_key(text)]
    return parse


@dataclass
class _Scenario:
    values: dict[str, str]
    rows: dict[str, Problem] | None  # None: no scenario sheet at all


def _read_scenario(file: str, sheet: str | None, rows: Sequence[tuple[Cell, ...]],
                   problems: list[Problem]) -> _Scenario:
    """`key | value` rows; an optional `key | value` header row is skipped."""
    values: dict[str, str] = {}
    where: dict[str, Problem] = {}
    for i, row in enumerate(rows):
        key_text, value = cell_text(row[0]) if row else None, None
        value = cell_text(row[1]) if len(row) > 1 else None
        if key_text is None and value is None:
            continue
        loc = Problem(file, sheet, i + 1, "value (B)", value)
        if header_key(key_text or "") in ("key", "schluessel") and not values and not where:
            continue
        if key_text is None:
            problems.append(replace(loc, message="value without a key in column A"))
            continue
        key = _KEYS.get(header_key(key_text))
        if key is None:
            problems.append(replace(loc, column="key (A)", value=key_text,
                                    message="unknown scenario key" + _hint(key_text, _KEYS)))
        elif key in where:
            problems.append(replace(loc, column="key (A)", value=key_text,
                                    message=f"key {key!r} given twice (first in row "
                                            f"{where[key].row})"))
        else:
            where[key] = loc
            if value is not None:
                values[key] = value
    return _Scenario(values, where)


class _Settings:
    """Typed reads of scenario values; a bad value is a problem at its row, value (B)."""

    def __init__(self, scenario: _Scenario, file: str, sheet: str | None,
                 problems: list[Problem]) -> None:
        self.scenario, self.file, self.sheet, self.problems = scenario, file, sheet, problems

    def where(self, key: str) -> Problem:
        rows = self.scenario.rows or {}
        return rows.get(key, Problem(self.file, self.sheet))

    def get(self, key: str, parser: Callable[[str], T], default: T) -> T:
        text = self.scenario.values.get(key)
        if text is None:
            return default
        try:
            return parser(text)
        except ValueError as err:
            self.problems.append(replace(self.where(key), message=str(err)))
            return default

    def require(self, key: str, why: str) -> None:
        """A missing key is a problem, unless the whole scenario is (reported once already)."""
        if self.scenario.rows is not None and key not in self.scenario.values:
            self.problems.append(replace(self.where(key), message=f"missing {key!r}: {why}"))


def _int_between(low: int, high: int | None = None, *, signed: bool = False
                 ) -> Callable[[str], int]:
    def parse(text: str) -> int:
        n = cell_int(text, signed=signed)
        if n < low or (high is not None and n > high):
            raise ValueError(f"must be {low} or more" if high is None
                             else f"must be {low} to {high}")
        return n
    return parse


_OWNERS = _aliases({"neutral": (), "tyrant": ("tyrann",)})


def _owner(text: str, players: int) -> int:
    """A seat 1..players (0-based in the model), `neutral` or `tyrant`."""
    if header_key(text) in _OWNERS:
        return NEUTRAL if _OWNERS[header_key(text)] == "neutral" else TYRANT
    try:
        seat = cell_int(text)
    except ValueError:
        raise ValueError("owner is a seat 1-4, neutral or tyrant" + _hint(text, _OWNERS)) from None
    if not 1 <= seat <= players:
        raise ValueError(f"seat {seat} does not play: the board has {players} players")
    return seat - 1


def _read_placements(table: _Table, players: int, board_map: _Map | None,
                     refs: list[Ref], problems: list[Problem]) -> tuple[Placement, ...]:
    """One permanent per row (R2.4); each on its own field of the map (R9.2)."""
    placements: list[Placement] = []
    taken: dict[tuple[int, int], int] = {}
    for number, cells in table.rows:
        rec = _Record(table, number, cells, problems)
        card = rec.text("card")
        if card is None:
            rec.fail("card", "missing card name")
        else:
            refs.append(Ref(card, "placement", rec.where("card"), _PERMANENTS))
        owner = rec.parse("owner", lambda t: _owner(t, players))
        if rec.text("owner") is None:
            rec.fail("owner", "missing owner: a seat 1-4, neutral or tyrant")
        x, y = rec.count("x"), rec.count("y")
        for axis, value in (("x", x), ("y", y)):
            if rec.text(axis) is None:
                rec.fail(axis, f"missing {axis}")
        vip = rec.parse("vip", _yes_no) or False
        if x is not None and y is not None and board_map is not None:
            if x >= board_map.width or y >= board_map.height:
                rec.fail("x", f"({x}, {y}) is off the {board_map.width}x{board_map.height} map")
            elif board_map.fields[y * board_map.width + x].terrain is Terrain.BLOCKED:
                rec.fail("x", f"({x}, {y}) is a blocked field")
            elif (x, y) in taken:
                rec.fail("x", f"({x}, {y}) is taken by row {taken[(x, y)]} (R9.2)")
            taken.setdefault((x, y), number)
        if rec.ok and card is not None and owner is not None and x is not None and y is not None:
            placements.append(Placement(card, owner, x, y, vip))
    return tuple(placements)


_PLACEMENT_COLUMNS = _aliases({"card": ("karte",), "owner": ("besitzer",), "x": (), "y": (),
                               "vip": ()})


def _board_sheets(path: Path, problems: list[Problem]
                  ) -> dict[str, tuple[str, str | None, tuple[tuple[Cell, ...], ...]]]:
    """part -> (file, sheet, rows) for a workbook's sheets or a board's CSV files."""
    parts: dict[str, tuple[str, str | None, tuple[tuple[Cell, ...], ...]]] = {}
    if path.suffix.casefold() in WORKBOOK_SUFFIXES:
        try:
            sheets = read_sheets(path)
        except SheetError as err:
            problems.append(Problem(str(path), message=err.reason))
            return parts
        for sheet in sheets:
            part = _SHEETS.get(header_key(sheet.name))
            if part is None or part in parts:
                problems.append(Problem(str(path), sheet.name, message="unknown or repeated "
                                        "board sheet" + _hint(sheet.name, _SHEETS)))
            else:
                parts[part] = (str(path), sheet.name, sheet.rows)
        return parts
    base = board_base(path)
    for part in BOARD_PARTS:
        file = base.with_name(f"{base.name}.{part}.csv")
        if part == "placements" and not file.exists():
            continue
        try:
            parts[part] = (str(file), None, read_sheets(file)[0].rows)
        except SheetError as err:
            problems.append(Problem(str(file), message=err.reason))
    return parts


def board_base(path: Path) -> Path:
    """`boards/duel.map.csv` (any part), `boards/duel.xlsx` or `boards/duel` -> `boards/duel`."""
    name = path.name
    for part in BOARD_PARTS:
        suffix = f".{part}.csv"
        if name.casefold().endswith(suffix):
            return path.with_name(name[: -len(suffix)])
    return path.with_suffix("") if path.suffix.casefold() in SPREADSHEET_SUFFIXES else path


def read_board(path: Path) -> Parsed[Board]:
    """A board from a workbook or a CSV triple; card names are left as refs (`resolve`)."""
    problems: list[Problem] = []
    refs: list[Ref] = []
    parts = _board_sheets(path, problems)
    for part in ("map", "scenario"):
        if part not in parts and not problems:
            problems.append(Problem(str(path), message=f"missing board {part} (a sheet "
                                    f"'{part}' or a file NAME.{part}.csv)"))
    board_map = _read_map(*parts["map"], problems) if "map" in parts else None
    scenario = _Scenario({}, None)
    sfile, ssheet = str(path), None
    if "scenario" in parts:
        sfile, ssheet, srows = parts["scenario"]
        scenario = _read_scenario(sfile, ssheet, srows, problems)
    settings = _Settings(scenario, sfile, ssheet, problems)
    players = settings.get("players", _int_between(2, MAX_SEATS), 2)
    victory = _read_victory(settings, refs)
    no_cards: tuple[tuple[str, int], ...] = ()
    start_cards = settings.get("start cards", _card_counts, no_cards)
    settings.require("start cards", "the cards each deck starts with (R2.3)")
    for name, _ in start_cards:
        refs.append(Ref(name, "start card", settings.where("start cards")))
    tyrant_deck = settings.get("tyrant deck", _card_counts, no_cards)
    for name, _ in tyrant_deck:
        refs.append(Ref(name, "tyrant deck card", settings.where("tyrant deck"),
                        frozenset({CardType.INTENTION})))
    placements: tuple[Placement, ...] = ()
    if "placements" in parts:
        pfile, psheet, prows = parts["placements"]
        table = _table(pfile, psheet, prows, _PLACEMENT_COLUMNS, ("card", "owner", "x", "y"),
                       problems)
        if table is not None:
            placements = _read_placements(table, players, board_map, refs, problems)
    if board_map is not None:
        for seat in range(players):
            if not any(f.deploy == seat for f in board_map.fields):
                problems.append(Problem(parts["map"][0], parts["map"][1], message=f"seat "
                                        f"{seat + 1} of {players} has no deploy zone: mark its "
                                        f"fields with {seat + 1} (R21.8)"))
    board = Board(
        name=settings.get("name", str, board_base(path).name),
        width=board_map.width if board_map else 0,
        height=board_map.height if board_map else 0,
        fields=board_map.fields if board_map else (),
        victory=victory,
        players=players,
        teams=settings.get("teams", lambda t: _teams(t, players), ()),
        income=settings.get("income", _int_between(0, signed=True), 2),
        unit_income=settings.get("unit income", _int_between(-99, signed=True), 0),
        start_cards=start_cards,
        starting_hand=settings.get("starting hand", _int_between(0), 0),
        round_limit=settings.get("round limit", _int_between(1), 30),
        tie_break=TieBreak(settings.get("tie break", _choice(_TIE_BREAKS, "tie break"), "none")),
        placements=placements,
        tyrant_deck=tyrant_deck,
        source=str(path),
    )
    if problems:
        return Parsed(None, problems, refs)
    return Parsed(board, problems, refs)


def _read_victory(settings: _Settings, refs: list[Ref]) -> Victory:
    """The victory condition and the parameters its kind needs (R19, R21.12-R21.15)."""
    settings.require("victory", "one of " + ", ".join(k.value for k in VictoryKind))
    kind = VictoryKind(settings.get("victory", _choice(_VICTORIES, "victory"), "vip"))
    target = settings.get("victory target", _int_between(1), 0)
    card = settings.get("victory card", str, None)
    if "victory" in settings.scenario.values:
        if kind in (VictoryKind.RESOURCE, VictoryKind.CAPTURE):
            goal = "resource limit" if kind is VictoryKind.RESOURCE else "score"
            settings.require("victory target", f"the {goal} to reach")
        if kind in _VICTORY_CARD_TYPES:
            settings.require("victory card", f"the card a {kind.value} victory is about")
        if kind is VictoryKind.TYRANT:
            settings.require("tyrant deck", "the Tyrant's intentions (R17.1)")
    if card is not None:
        refs.append(Ref(card, "victory card", settings.where("victory card"),
                        _VICTORY_CARD_TYPES.get(kind, frozenset())))
    tyrant = kind is VictoryKind.TYRANT
    return Victory(kind, target, card,
                   tyrant_goal=settings.get("tyrant goal", _int_between(1), 3) if tyrant else 0,
                   shared_win=settings.get("shared win", _yes_no, True))


def load_board(path: Path | str, catalog: Sequence[CardSet]) -> Board:
    """A board whose card names all resolve against `catalog`; raises ValidationError."""
    parsed = read_board(Path(path))
    problems = parsed.problems + resolve(parsed.refs, names_of(catalog))
    if problems or parsed.value is None:
        raise ValidationError(problems)
    return parsed.value


# --- shipped content ------------------------------------------------------------------------

def is_board(path: Path) -> bool:
    """A board: a CSV part `*.map.csv` etc., or a workbook with a map or scenario sheet."""
    if path.suffix.casefold() == ".csv":
        return board_base(path) != path.with_suffix("")
    if path.suffix.casefold() not in WORKBOOK_SUFFIXES:
        return False
    try:
        return any(_SHEETS.get(header_key(s.name)) in ("map", "scenario")
                   for s in read_sheets(path))
    except SheetError:
        return False


def _spreadsheets(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.is_file()
                  and p.suffix.casefold() in SPREADSHEET_SUFFIXES and not p.name.startswith(("~$", ".")))


def _named(name: str, folder: Path, candidates: list[Path], what: str) -> Path:
    """The candidate whose name (file name without suffixes) is `name`, case-insensitively."""
    by_name = {board_base(p).name.casefold(): p for p in candidates}
    if name.casefold() in by_name:
        return by_name[name.casefold()]
    close = difflib.get_close_matches(name.casefold(), list(by_name), n=3)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    raise LookupError(f"no {what} {name!r}: not a file, nor in {folder}{hint}")


def find_cardset(name: str) -> Path:
    """`starter` -> cardsets/starter.csv (or .xlsx/.ods); a path to a spreadsheet as it is."""
    path = Path(name)
    if path.is_file():
        return path
    return _named(name, CONTENT_DIR, [p for p in _spreadsheets(CONTENT_DIR) if not is_board(p)],
                  "card set")


def find_board(name: str) -> Path:
    """`duel` -> cardsets/boards/duel.xlsx (or duel.map.csv); a board path as it is."""
    path = Path(name)
    if path.is_file() or board_base(path).with_name(board_base(path).name + ".map.csv").is_file():
        return path
    boards = [p for p in _spreadsheets(BOARDS_DIR)
              if p.suffix.casefold() in WORKBOOK_SUFFIXES or p.name.casefold().endswith(".map.csv")]
    return _named(name, BOARDS_DIR, boards, "board")


def shipped_cardsets() -> list[CardSet]:
    """Every card set at the top level of `cardsets/`, tokens resolved across them."""
    parsed = [read_cardsets(p) for p in _spreadsheets(CONTENT_DIR) if not is_board(p)]
    names: Names = {}
    for one in parsed:
        names.update(one.names)
    problems = [p for one in parsed for p in one.problems + resolve(one.refs, names)]
    if problems:
        raise ValidationError(problems)
    return [s for one in parsed for s in one.value or []]
