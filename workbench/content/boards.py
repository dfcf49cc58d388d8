"""Boards from spreadsheets: map, scenario and placements (docs/boards.md, R9, R19, R21.8)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from engine.board import NEUTRAL, TYRANT, Board, Placement, Terrain, TieBreak
from engine.cards import PERMANENT_TYPES, CardSet, CardType
from workbench.content.board_map import BoardMap, deploy_problems, read_map
from workbench.content.board_scenario import (
    TIE_BREAKS,
    Scenario,
    Settings,
    card_counts,
    choice,
    int_between,
    read_scenario,
    read_victory,
    teams,
    victory_checks,
    with_field_actions,
)
from workbench.content.sheets import (
    SPREADSHEET_SUFFIXES,
    WORKBOOK_SUFFIXES,
    Cell,
    SheetError,
    read_sheets,
)
from workbench.content.tables import (
    Check,
    Lookup,
    Parsed,
    Problem,
    Record,
    Ref,
    Table,
    ValidationError,
    aliases,
    cell_int,
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
BOARD_SHEETS = aliases(
    {"map": ("karte",), "scenario": ("szenario",), "placements": ("aufstellung",)}
)
MAX_SEATS = 4
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
        message = (
            f"({x}, {y}) is {terrain.value}, but {card!r} swims: a swimming permanent "
            "stands only on deep water (R9.5); place it on a ~ field"
            if found.keywords.swimming
            else f"({x}, {y}) is deep water, where only swimming permanents stand (R9.5); "
            f"place {card!r} on land"
        )
        return [replace(where, message=message)]

    return check


def _read_placements(
    table: Table,
    players: int,
    board_map: BoardMap | None,
    refs: list[Ref],
    checks: list[Check],
    problems: list[Problem],
) -> tuple[Placement, ...]:
    """One permanent per row (R2.4); each on its own field of the map (R9.2) that can take it
    (R9.5); at most one VIP per seat (R19.1)."""
    placements: list[Placement] = []
    taken: dict[tuple[int, int], int] = {}
    vips: dict[int, int] = {}
    for number, cells in table.rows:
        rec = Record(table, number, cells, problems)
        card = rec.text("card")
        owner = rec.parse("owner", lambda t: _owner(t, players))
        if card is None:
            rec.fail("card", "missing card name")
        else:
            player = owner is not None and owner >= 0
            refs.append(Ref(card, "placement", rec.where("card"), PERMANENT_TYPES, player))
        if rec.text("owner") is None:
            rec.fail("owner", "missing owner: a seat 1-4, neutral or tyrant")
        x, y = rec.count("x"), rec.count("y")
        for axis in ("x", "y"):
            if rec.text(axis) is None:
                rec.fail(axis, f"missing {axis}")
        vip = rec.parse("vip", yes_no) or False
        if vip and owner is not None and owner < 0:
            rec.fail("vip", "a VIP belongs to a seat, not to neutral or the tyrant (R19.1)")
        elif vip and owner is not None:
            if owner in vips:
                rec.fail(
                    "vip",
                    f"seat {owner + 1} has its VIP in row {vips[owner]} already: "
                    "one VIP per seat (R19.1)",
                )
            vips.setdefault(owner, number)
        if x is not None and y is not None and board_map is not None:
            if x >= board_map.width or y >= board_map.height:
                rec.fail("x", f"({x}, {y}) is off the {board_map.width}x{board_map.height} map")
            elif board_map.fields[y * board_map.width + x].terrain is Terrain.BLOCKED:
                rec.fail("x", f"({x}, {y}) is a blocked field")
            elif (x, y) in taken:
                rec.fail("x", f"({x}, {y}) is taken by row {taken[(x, y)]} (R9.2)")
            elif card is not None:
                checks.append(
                    _stands(
                        card,
                        x,
                        y,
                        board_map.fields[y * board_map.width + x].terrain,
                        rec.where("x"),
                    )
                )
            taken.setdefault((x, y), number)
        if rec.ok and card is not None and owner is not None and x is not None and y is not None:
            placements.append(Placement(card, owner, x, y, vip))
    return tuple(placements)


_PLACEMENT_COLUMNS = aliases(
    {"card": ("karte",), "owner": ("besitzer",), "x": (), "y": (), "vip": ()}
)


_Part = tuple[str, str | None, tuple[tuple[Cell, ...], ...]]
"""One part of a board: its file, its sheet (None in a CSV file) and its rows."""


def _board_sheets(path: Path, problems: list[Problem]) -> dict[str, _Part]:
    """part -> (file, sheet, rows) for a workbook's sheets or a board's CSV files."""
    parts: dict[str, _Part] = {}
    if path.suffix.casefold() in WORKBOOK_SUFFIXES:
        try:
            sheets = read_sheets(path)
        except SheetError as err:
            problems.append(Problem(str(path), message=err.reason))
            return parts
        for sheet in sheets:
            problems += sheet_problems(
                str(path),
                sheet,
                True,
                "a board reads its map, scenario "
                "and placements sheets whether hidden or not; unhide it",
            )
            part = BOARD_SHEETS.get(header_key(sheet.name))
            if part is None or part in parts:
                problems.append(
                    Problem(
                        str(path),
                        sheet.name,
                        message="unknown or repeated board sheet" + hint(sheet.name, BOARD_SHEETS),
                    )
                )
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
            problems.append(
                Problem(
                    str(path),
                    message=f"missing board {part} (a sheet '{part}' or a file NAME.{part}.csv)",
                )
            )
    board_map = read_map(*parts["map"], problems) if "map" in parts else None
    settings = _settings(path, parts, problems)
    players = settings.get("players", int_between(2, MAX_SEATS), 2)
    victory = read_victory(settings, refs)
    start_cards, tyrant_deck = _decks(settings, refs)
    placements: tuple[Placement, ...] = ()
    if "placements" in parts:
        pfile, psheet, prows = parts["placements"]
        table = read_table(
            pfile, psheet, prows, _PLACEMENT_COLUMNS, ("card", "owner", "x", "y"), problems
        )
        if table is not None:
            placements = _read_placements(table, players, board_map, refs, checks, problems)
    if board_map is not None:
        problems += deploy_problems(board_map, players, *parts["map"][:2])
    board = Board(
        name=settings.get("name", str, board_base(path).name),
        width=board_map.width if board_map else 0,
        height=board_map.height if board_map else 0,
        fields=with_field_actions(board_map, settings, *parts["map"][:2], problems)
        if board_map
        else (),
        victory=victory,
        players=players,
        teams=settings.get("teams", lambda t: teams(t, players), ()),
        income=settings.get("income", int_between(0, 99, signed=True), 2),
        unit_income=settings.get("unit income", int_between(-99, 99, signed=True), 0),
        start_cards=start_cards,
        starting_hand=settings.get("starting hand", int_between(0, 99), 0),
        round_limit=settings.get("round limit", int_between(1, 999), 30),
        tie_break=TieBreak(settings.get("tie break", choice(TIE_BREAKS, "tie break"), "none")),
        placements=placements,
        tyrant_deck=tyrant_deck,
        source=str(path),
    )
    checks += victory_checks(board, settings, problems) if not problems else []
    if problems:
        return Parsed(None, problems, refs)
    return Parsed(board, problems, refs, checks=checks)


def _settings(path: Path, parts: dict[str, _Part], problems: list[Problem]) -> Settings:
    """The scenario's typed reads (an empty scenario, reported already, when it is missing)."""
    if "scenario" not in parts:
        return Settings(Scenario({}, None), str(path), None, problems)
    sfile, ssheet, srows = parts["scenario"]
    return Settings(read_scenario(sfile, ssheet, srows, problems), sfile, ssheet, problems)


def _decks(
    settings: Settings, refs: list[Ref]
) -> tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]:
    """The start cards (R2.3) and the Tyrant's deck (R17.1), their names as refs."""
    no_cards: tuple[tuple[str, int], ...] = ()
    start_cards = settings.get("start cards", card_counts, no_cards)
    settings.require("start cards", "the cards each deck starts with (R2.3)")
    for name, _ in start_cards:
        refs.append(Ref(name, "start card", settings.where("start cards"), player=True))
    tyrant_deck = settings.get("tyrant deck", card_counts, no_cards)
    for name, _ in tyrant_deck:
        refs.append(
            Ref(
                name,
                "tyrant deck card",
                settings.where("tyrant deck"),
                frozenset({CardType.INTENTION}),
            )
        )
    return start_cards, tyrant_deck


def load_board(path: Path | str, catalog: Sequence[CardSet]) -> Board:
    """A board whose card names all resolve against `catalog`; raises ValidationError."""
    parsed = read_board(Path(path))
    names = names_of(catalog)
    problems = parsed.problems + resolve(parsed.refs, names)
    problems += run_checks(parsed.checks, names) if not problems else []
    if problems or parsed.value is None:
        raise ValidationError(problems)
    return parsed.value
