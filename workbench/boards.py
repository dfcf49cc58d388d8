"""Boards from spreadsheets: map, scenario and placements (docs/boards.md, R9, R19, R21.8)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

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
from engine.cards import PERMANENT_TYPES, CardSet, CardType, FreeAction
from engine.language import nearest, norm, parse_free_actions
from workbench.sheets import (
    SPREADSHEET_SUFFIXES,
    WORKBOOK_SUFFIXES,
    Cell,
    SheetError,
    column_letter,
    read_sheets,
)
from workbench.tables import (
    Check,
    Lookup,
    Parsed,
    Problem,
    Record,
    Ref,
    T,
    Table,
    ValidationError,
    aliases,
    cell_int,
    cell_text,
    header_key,
    hint,
    names_of,
    read_table,
    resolve,
    run_checks,
    sheet_problems,
    yes_no,
)

BOARD_PARTS = ("map", "scenario", "placements")
"""A CSV board is NAME.map.csv, NAME.scenario.csv and (optional) NAME.placements.csv."""



BOARD_SHEETS = aliases({"map": ("karte",), "scenario": ("szenario",),
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
MAX_SIDE = 32
"""A map is at most this many fields wide and high: a game's precomputed geometry grows with the
square of the fields (a 32x32 map takes 0.4 s to set up, a 120x120 one a minute a game)."""
MAX_COUNT = 99
"""The most copies of one card in `start cards` or `tyrant deck`."""


def parse_field(text: str) -> Field:
    """A map cell: terrain code or word, then marks: seat 1-4, area A-Z, `$` income, a-z the
    field action of that letter (its text comes from the scenario)."""
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
    action: str | None = None
    income = 0
    for mark in marks:
        if mark in "1234" and deploy is None:
            deploy = int(mark) - 1
        elif "A" <= mark <= "Z" and area is None:
            area = mark
        elif mark == "$":
            income += 1
        elif "a" <= mark <= "z" and action is None:
            action = mark
        elif mark in "1234" or "A" <= mark <= "Z" or "a" <= mark <= "z":
            what = "deploy seats" if mark.isdigit() else "areas" if mark.isupper() else \
                "field actions"
            raise ValueError(f"two {what} in one field")
        else:
            raise ValueError(f"unknown field code {mark!r} (known: . ~ ^ # 1-4 A-Z a-z $)")
    return Field(terrain, deploy, area, income, action)


def field_code(f: Field) -> str:
    """A field as the map writes it (the inverse of `parse_field`): `^1A$s`."""
    terrain = next(code for code, t in _TERRAIN_CODES.items() if t is f.terrain)
    seat = "" if f.deploy is None else str(f.deploy + 1)
    return terrain + seat + (f.area or "") + "$" * f.income + (f.mark or "")


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
    wide = max(len(row) for row in texts)
    if wide > MAX_SIDE or len(texts) > MAX_SIDE:
        problems.append(Problem(file, sheet, message=f"the map is {wide} fields wide and "
                                f"{len(texts)} high: at most {MAX_SIDE}x{MAX_SIDE} "
                                "(docs/boards.md)"))
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


_KEYS = aliases({
    "name": (), "players": ("spieler",), "teams": (), "victory": ("siegbedingung",),
    "victory target": ("siegziel",), "victory card": ("siegkarte",),
    "tyrant goal": ("tyrannenziel",), "shared win": ("gemeinsamer sieg",),
    "income": ("einkommen",), "unit income": ("einheiteneinkommen",),
    "start cards": ("startkarten",), "starting hand": ("starthand", "start hand"),
    "round limit": ("rundenlimit",), "tie break": (), "tyrant deck": ("tyrannendeck",),
})
_VICTORIES = aliases({
    "vip": (), "resource": ("ressource", "ressourcen"), "capture": ("eroberung",),
    "buildings": ("gebäude",), "staff": ("stab",), "tyrant": ("tyrann",),
})
_TIE_BREAKS = aliases({
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
        count = int(match["n1"] or match["n2"] or 1)
        if count > MAX_COUNT:
            raise ValueError(f"{name} x{count}: at most {MAX_COUNT} copies of a card")
        counts.append((name, count))
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
            raise ValueError(f"unknown {what} {text!r}" + hint(text, table))
        return table[header_key(text)]
    return parse


@dataclass
class _Scenario:
    values: dict[str, str]
    rows: dict[str, Problem] | None  # None: no scenario sheet at all


_FIELD_ACTION_KEY = re.compile(r"^(?:fieldaction|feldaktion)([a-z])$")


def _field_action_key(text: str) -> str | None:
    """`field action a` (German `Feldaktion a`): the free actions of map mark `a` (R9.3)."""
    found = _FIELD_ACTION_KEY.match(header_key(text))
    return f"field action {found.group(1)}" if found else None


def _with_field_actions(board_map: _Map, settings: _Settings, file: str, sheet: str | None,
                        problems: list[Problem]) -> tuple[Field, ...]:
    """Give every marked field the free actions its letter names in the scenario."""
    actions: dict[str, tuple[FreeAction, ...]] = {}
    for mark in sorted({f.mark for f in board_map.fields if f.mark}):
        key = f"field action {mark}"
        if key not in settings.scenario.values:
            problems.append(Problem(file, sheet, message=f"the map marks fields with {mark!r} "
                                    f"but the scenario has no {key!r} (R9.3)"))
            continue
        actions[mark] = settings.get(key, parse_free_actions, ())
    return tuple(replace(f, actions=actions.get(f.mark, ())) if f.mark else f
                 for f in board_map.fields)


def _read_scenario(file: str, sheet: str | None, rows: Sequence[tuple[Cell, ...]],
                   problems: list[Problem]) -> _Scenario:
    """`key | value` rows; an optional `key | value` header row is skipped."""
    values: dict[str, str] = {}
    where: dict[str, Problem] = {}
    for i, row in enumerate(rows):
        key_text, value = cell_text(row[0]) if row else None, None
        value = cell_text(row[1]) if len(row) > 1 else None
        loc = Problem(file, sheet, i + 1, "value (B)", value)
        stray = next(((c, cell_text(v)) for c, v in enumerate(row) if c > 1 and
                      cell_text(v) is not None), None)
        if stray is not None:
            problems.append(replace(loc, column=column_letter(stray[0]), value=stray[1],
                                    message="a value beyond column B: a scenario row is a key in "
                                            "column A and its value in column B; move or delete "
                                            "it"))
        if key_text is None and value is None:
            continue
        if header_key(key_text or "") in ("key", "schluessel") and not values and not where:
            continue
        if key_text is None:
            problems.append(replace(loc, message="value without a key in column A"))
            continue
        key = _KEYS.get(header_key(key_text)) or _field_action_key(key_text)
        if key is None:
            problems.append(replace(loc, column="key (A)", value=key_text,
                                    message="unknown scenario key" + hint(key_text, _KEYS)))
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


_OWNERS = aliases({"neutral": (), "tyrant": ("tyrann",)})


def _owner(text: str, players: int) -> int:
    """A seat 1..players (0-based in the model), `neutral` or `tyrant`."""
    if header_key(text) in _OWNERS:
        return NEUTRAL if _OWNERS[header_key(text)] == "neutral" else TYRANT
    try:
        seat = cell_int(text)
    except ValueError:
        raise ValueError("owner is a seat 1-4, neutral or tyrant" + hint(text, _OWNERS)) from None
    if not 1 <= seat <= players:
        raise ValueError(f"seat {seat} does not play: the board has {players} players")
    return seat - 1


def _stands(card: str, x: int, y: int, terrain: Terrain, where: Problem) -> Check:
    """R9.5: the placed card swims exactly when its field is deep water."""
    def check(lookup: Lookup) -> list[Problem]:
        found = lookup(card)
        if found is None or found.keywords.swimming == (terrain is Terrain.DEEP_WATER):
            return []
        message = (f"({x}, {y}) is {terrain.value}, but {card!r} swims: a swimming permanent "
                   "stands only on deep water (R9.5); place it on a ~ field"
                   if found.keywords.swimming else
                   f"({x}, {y}) is deep water, where only swimming permanents stand (R9.5); "
                   f"place {card!r} on land")
        return [replace(where, message=message)]
    return check


def _read_placements(table: Table, players: int, board_map: _Map | None, refs: list[Ref],
                     checks: list[Check], problems: list[Problem]) -> tuple[Placement, ...]:
    """One permanent per row (R2.4); each on its own field of the map (R9.2) that can take it
    (R9.5); at most one VIP per seat (R19.1)."""
    placements: list[Placement] = []
    taken: dict[tuple[int, int], int] = {}
    vips: dict[int, int] = {}
    for number, cells in table.rows:
        rec = Record(table, number, cells, problems)
        card = rec.text("card")
        if card is None:
            rec.fail("card", "missing card name")
        else:
            refs.append(Ref(card, "placement", rec.where("card"), PERMANENT_TYPES))
        owner = rec.parse("owner", lambda t: _owner(t, players))
        if rec.text("owner") is None:
            rec.fail("owner", "missing owner: a seat 1-4, neutral or tyrant")
        x, y = rec.count("x"), rec.count("y")
        for axis, value in (("x", x), ("y", y)):
            if rec.text(axis) is None:
                rec.fail(axis, f"missing {axis}")
        vip = rec.parse("vip", yes_no) or False
        if vip and owner is not None and owner < 0:
            rec.fail("vip", "a VIP belongs to a seat, not to neutral or the tyrant (R19.1)")
        elif vip and owner is not None:
            if owner in vips:
                rec.fail("vip", f"seat {owner + 1} has its VIP in row {vips[owner]} already: "
                                "one VIP per seat (R19.1)")
            vips.setdefault(owner, number)
        if x is not None and y is not None and board_map is not None:
            if x >= board_map.width or y >= board_map.height:
                rec.fail("x", f"({x}, {y}) is off the {board_map.width}x{board_map.height} map")
            elif board_map.fields[y * board_map.width + x].terrain is Terrain.BLOCKED:
                rec.fail("x", f"({x}, {y}) is a blocked field")
            elif (x, y) in taken:
                rec.fail("x", f"({x}, {y}) is taken by row {taken[(x, y)]} (R9.2)")
            elif card is not None:
                checks.append(_stands(card, x, y,
                                      board_map.fields[y * board_map.width + x].terrain,
                                      rec.where("x")))
            taken.setdefault((x, y), number)
        if rec.ok and card is not None and owner is not None and x is not None and y is not None:
            placements.append(Placement(card, owner, x, y, vip))
    return tuple(placements)


_PLACEMENT_COLUMNS = aliases({"card": ("karte",), "owner": ("besitzer",), "x": (), "y": (),
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
            problems += sheet_problems(str(path), sheet, True, "a board reads its map, scenario "
                                       "and placements sheets whether hidden or not; unhide it")
            part = BOARD_SHEETS.get(header_key(sheet.name))
            if part is None or part in parts:
                problems.append(Problem(str(path), sheet.name, message="unknown or repeated "
                                        "board sheet" + hint(sheet.name, BOARD_SHEETS)))
            else:
                parts[part] = (str(path), sheet.name, sheet.rows)
        return parts
    base = board_base(path)
    for part in BOARD_PARTS:
        file = base.with_name(f"{base.name}.{part}.csv")
        if part == "placements" and not file.exists():
            continue
        try:
            sheet = read_sheets(file)[0]
            problems += sheet_problems(str(file), sheet, False, "")
            parts[part] = (str(file), None, sheet.rows)
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
    checks: list[Check] = []
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
        table = read_table(pfile, psheet, prows, _PLACEMENT_COLUMNS, ("card", "owner", "x", "y"),
                       problems)
        if table is not None:
            placements = _read_placements(table, players, board_map, refs, checks, problems)
    if board_map is not None:
        for seat in range(players):
            zone = [i for i, f in enumerate(board_map.fields) if f.deploy == seat]
            if not zone:
                problems.append(Problem(parts["map"][0], parts["map"][1], message=f"seat "
                                        f"{seat + 1} of {players} has no deploy zone: mark its "
                                        f"fields with {seat + 1} (R21.8)"))
            elif not any(board_map.fields[i].terrain in (Terrain.PLAIN, Terrain.HIGH_GROUND)
                         for i in zone):
                problems.append(Problem(parts["map"][0], parts["map"][1], message=f"seat "
                                        f"{seat + 1}'s deploy zone has no land field (only blocked "
                                        "or deep water), so no unit that does not swim can be "
                                        f"played: mark a plain or high field with {seat + 1} "
                                        "(R21.8, R9.5)"))
    board = Board(
        name=settings.get("name", str, board_base(path).name),
        width=board_map.width if board_map else 0,
        height=board_map.height if board_map else 0,
        fields=_with_field_actions(board_map, settings, *parts["map"][:2], problems)
        if board_map else (),
        victory=victory,
        players=players,
        teams=settings.get("teams", lambda t: _teams(t, players), ()),
        income=settings.get("income", _int_between(0, 99, signed=True), 2),
        unit_income=settings.get("unit income", _int_between(-99, 99, signed=True), 0),
        start_cards=start_cards,
        starting_hand=settings.get("starting hand", _int_between(0, 99), 0),
        round_limit=settings.get("round limit", _int_between(1, 999), 30),
        tie_break=TieBreak(settings.get("tie break", _choice(_TIE_BREAKS, "tie break"), "none")),
        placements=placements,
        tyrant_deck=tyrant_deck,
        source=str(path),
    )
    checks += _victory_checks(board, settings, problems) if not problems else []
    if problems:
        return Parsed(None, problems, refs)
    return Parsed(board, problems, refs, checks=checks)


def _victory_checks(board: Board, settings: _Settings, problems: list[Problem]) -> list[Check]:
    """A board whose victory can happen: what its kind needs is on the map or among the
    placements (R19, R21.12, R21.15). Problems that need no cards go to `problems`; the others
    are returned as checks on the cards."""
    kind = board.victory.kind
    where = settings.where("victory")
    if kind is VictoryKind.VIP:
        missing = [str(s + 1) for s in range(board.players)
                   if not any(p.vip and p.owner == s for p in board.placements)]
        if missing:
            problems.append(replace(where, message=f"no VIP for seat {', '.join(missing)}: a vip "
                                    "board marks one unit of every seat with vip = yes in the "
                                    "placements (R19.1)"))
    elif kind is VictoryKind.CAPTURE and not any(f.area for f in board.fields):
        problems.append(replace(where, message="the map has no capture areas: mark the fields "
                                "to hold with a letter A-Z (R19.3)"))
    elif kind is VictoryKind.BUILDINGS:
        return [lambda lookup: _buildings(board, lookup, where)]
    elif kind is VictoryKind.TYRANT:
        return [_needs(board, where, lambda lookup: any(
            p.owner == TYRANT and _has(lookup, p.card, "tyrant") for p in board.placements),
            "no Tyrant on the board: place the Tyrant's unit (a card with the keyword tyrant) "
            "with owner tyrant in the placements (R21.15)")]
    elif kind is VictoryKind.STAFF:
        names = [p.card for p in board.placements] + [n for n, _ in board.start_cards]
        return [_needs(board, where, lambda lookup: any(_has(lookup, n, "staff") for n in names),
                       "the staff is never placed: put the staff of victory (a card with the "
                       "keyword staff) in the placements (R21.12)")]
    return []


def _has(lookup: Lookup, name: str, keyword: str) -> bool:
    card = lookup(name)
    return card is not None and bool(getattr(card.keywords, keyword))


def _needs(board: Board, where: Problem, ok: Callable[[Lookup], bool], message: str) -> Check:
    """A check that is a problem at `where` unless `ok`; it waits while a placed card is
    unknown (that is reported already)."""
    def check(lookup: Lookup) -> list[Problem]:
        if any(lookup(p.card) is None for p in board.placements) or ok(lookup):
            return []
        return [replace(where, message=message)]
    return check


def _buildings(board: Board, lookup: Lookup, where: Problem) -> list[Problem]:
    """R19.4: every seat starts with a building, else it has lost before its first turn."""
    missing = [str(s + 1) for s in range(board.players) if not any(
        p.owner == s and _has(lookup, p.card, "building") for p in board.placements)]
    return _needs(board, where, lambda _: not missing, f"no building for seat "
                  f"{', '.join(missing)}: a buildings board places a permanent with the keyword "
                  "building for every seat (R19.4)")(lookup)


def _read_victory(settings: _Settings, refs: list[Ref]) -> Victory:
    """The victory condition and the parameters its kind needs (R19, R21.12-R21.15)."""
    settings.require("victory", "one of " + ", ".join(k.value for k in VictoryKind))
    kind = VictoryKind(settings.get("victory", _choice(_VICTORIES, "victory"), "vip"))
    target = settings.get("victory target", _int_between(1, 999), 0)
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
                   tyrant_goal=settings.get("tyrant goal", _int_between(1, 99), 3) if tyrant else 0,
                   shared_win=settings.get("shared win", yes_no, True))


def load_board(path: Path | str, catalog: Sequence[CardSet]) -> Board:
    """A board whose card names all resolve against `catalog`; raises ValidationError."""
    parsed = read_board(Path(path))
    names = names_of(catalog)
    problems = parsed.problems + resolve(parsed.refs, names)
    problems += run_checks(parsed.checks, names) if not problems else []
    if problems or parsed.value is None:
        raise ValidationError(problems)
    return parsed.value

