"""A board's scenario from its sheet: `key | value` rows read into typed settings, and the
victory condition with what its kind needs on the board (docs/boards.md; R9.1, R19, R21.12-R21.15).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from itertools import product

from engine.board import TYRANT, Board, Field, Terrain, Victory, VictoryKind
from engine.cards import CardType, FreeAction
from engine.language import parse_free_actions
from workbench.content.board_map import BoardMap
from workbench.content.sheets import Cell, column_letter
from workbench.content.tables import (
    Check,
    Lookup,
    Problem,
    Ref,
    T,
    aliases,
    cell_int,
    cell_text,
    header_key,
    hint,
    yes_no,
)

MAX_COUNT = 99
"""The most copies of one card in `start cards` or `tyrant deck`."""


_KEYS = aliases(
    {
        "name": (),
        "players": ("spieler",),
        "teams": (),
        "victory": ("siegbedingung",),
        "victory target": ("siegziel",),
        "victory card": ("siegkarte",),
        "tyrant goal": ("tyrannenziel",),
        "shared win": ("gemeinsamer sieg",),
        "income": ("einkommen",),
        "unit income": ("einheiteneinkommen",),
        "start cards": ("startkarten",),
        "starting hand": ("starthand", "start hand"),
        "round limit": ("rundenlimit",),
        "tie break": (),
        "tyrant deck": ("tyrannendeck",),
    }
)
_VICTORIES = aliases(
    {
        "vip": (),
        "resource": ("ressource", "ressourcen"),
        "capture": ("eroberung",),
        "buildings": ("gebäude",),
        "staff": ("stab",),
        "tyrant": ("tyrann",),
    }
)
TIE_BREAKS = aliases(
    {
        "none": ("keiner", "unentschieden"),
        "points": ("punkte",),
        "resource": ("ressource",),
        "units": ("einheiten",),
    }
)
_VICTORY_CARD_TYPES = {
    VictoryKind.VIP: frozenset({CardType.UNIT}),
    VictoryKind.STAFF: frozenset({CardType.EQUIPMENT, CardType.POTION}),
    VictoryKind.TYRANT: frozenset({CardType.UNIT}),
}
_COUNT = re.compile(
    r"^(?:(?P<n1>[0-9]+)\s*[x×]\s+(?P<a>.+)|(?P<b>.+?)(?:\s+[x×]\s*(?P<n2>[0-9]+))?)$",
    re.IGNORECASE,
)


def card_counts(text: str) -> tuple[tuple[str, int], ...]:
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


def teams(text: str, players: int) -> tuple[tuple[int, ...], ...]:
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


def choice(table: dict[str, str], what: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if header_key(text) not in table:
            raise ValueError(f"unknown {what} {text!r}" + hint(text, table))
        return table[header_key(text)]

    return parse


@dataclass
class Scenario:
    """The scenario sheet's values by key, and the row of each key."""

    values: dict[str, str]
    rows: dict[str, Problem] | None  # None: no scenario sheet at all


_FIELD_ACTION_KEY = re.compile(r"^(?:fieldaction|feldaktion)([a-z])$")


def _field_action_key(text: str) -> str | None:
    """`field action a` (German `Feldaktion a`): the free actions of map mark `a` (R9.3)."""
    found = _FIELD_ACTION_KEY.match(header_key(text))
    return f"field action {found.group(1)}" if found else None


def with_field_actions(
    board_map: BoardMap, settings: Settings, file: str, sheet: str | None, problems: list[Problem]
) -> tuple[Field, ...]:
    """Give every marked field the free actions its letter names in the scenario."""
    actions: dict[str, tuple[FreeAction, ...]] = {}
    for mark in sorted({f.mark for f in board_map.fields if f.mark}):
        key = f"field action {mark}"
        if key not in settings.scenario.values:
            problems.append(
                Problem(
                    file,
                    sheet,
                    message=f"the map marks fields with {mark!r} "
                    f"but the scenario has no {key!r} (R9.3)",
                )
            )
            continue
        actions[mark] = settings.get(key, parse_free_actions, ())
    return tuple(
        replace(f, actions=actions.get(f.mark, ())) if f.mark else f for f in board_map.fields
    )


def read_scenario(
    file: str, sheet: str | None, rows: Sequence[tuple[Cell, ...]], problems: list[Problem]
) -> Scenario:
    """`key | value` rows; an optional `key | value` header row is skipped."""
    values: dict[str, str] = {}
    where: dict[str, Problem] = {}
    for i, row in enumerate(rows):
        key_text, value = cell_text(row[0]) if row else None, None
        value = cell_text(row[1]) if len(row) > 1 else None
        loc = Problem(file, sheet, i + 1, "value (B)", value)
        stray = next(
            ((c, cell_text(v)) for c, v in enumerate(row) if c > 1 and cell_text(v) is not None),
            None,
        )
        if stray is not None:
            problems.append(
                replace(
                    loc,
                    column=column_letter(stray[0]),
                    value=stray[1],
                    message="a value beyond column B: a scenario row is a key in "
                    "column A and its value in column B; move or delete "
                    "it",
                )
            )
        if key_text is None and value is None:
            continue
        if header_key(key_text or "") in ("key", "schluessel") and not values and not where:
            continue
        if key_text is None:
            problems.append(replace(loc, message="value without a key in column A"))
            continue
        key = _KEYS.get(header_key(key_text)) or _field_action_key(key_text)
        if key is None:
            problems.append(
                replace(
                    loc,
                    column="key (A)",
                    value=key_text,
                    message="unknown scenario key" + hint(key_text, _KEYS),
                )
            )
        elif key in where:
            problems.append(
                replace(
                    loc,
                    column="key (A)",
                    value=key_text,
                    message=f"key {key!r} given twice (first in row {where[key].row})",
                )
            )
        else:
            where[key] = loc
            if value is not None:
                values[key] = value
    return Scenario(values, where)


class Settings:
    """Typed reads of scenario values; a bad value is a problem at its row, value (B)."""

    def __init__(
        self, scenario: Scenario, file: str, sheet: str | None, problems: list[Problem]
    ) -> None:
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


def int_between(low: int, high: int | None = None, *, signed: bool = False) -> Callable[[str], int]:
    def parse(text: str) -> int:
        n = cell_int(text, signed=signed)
        if n < low or (high is not None and n > high):
            raise ValueError(
                f"must be {low} or more" if high is None else f"must be {low} to {high}"
            )
        return n

    return parse


def victory_checks(board: Board, settings: Settings, problems: list[Problem]) -> list[Check]:
    """A board whose victory can happen: what its kind needs is on the map or among the
    placements (R19, R21.12, R21.15). Problems that need no cards go to `problems`; the others
    are returned as checks on the cards."""
    kind = board.victory.kind
    where = settings.where("victory")
    if kind is VictoryKind.VIP:
        missing = [
            str(s + 1)
            for s in range(board.players)
            if not any(p.vip and p.owner == s for p in board.placements)
        ]
        if missing:
            problems.append(
                replace(
                    where,
                    message=f"no VIP for seat {', '.join(missing)}: a vip "
                    "board marks one unit of every seat with vip = yes in the "
                    "placements (R19.1)",
                )
            )
    elif kind is VictoryKind.CAPTURE:
        problems += _capture(board, where)
    elif kind is VictoryKind.BUILDINGS:
        return [lambda lookup: _buildings(board, lookup, where)]
    elif kind is VictoryKind.TYRANT:
        return [
            _needs(
                board,
                where,
                lambda lookup: any(
                    p.owner == TYRANT and _has(lookup, p.card, "tyrant") for p in board.placements
                ),
                "no Tyrant on the board: place the Tyrant's unit (a card with the keyword tyrant) "
                "with owner tyrant in the placements (R21.15)",
            )
        ]
    elif kind is VictoryKind.STAFF:
        names = [p.card for p in board.placements] + [n for n, _ in board.start_cards]
        return [
            _needs(
                board,
                where,
                lambda lookup: any(_has(lookup, n, "staff") for n in names),
                "the staff is never placed: put the staff of victory (a card with the "
                "keyword staff) in the placements (R21.12)",
            )
        ]
    return []


def _capture(board: Board, where: Problem) -> list[Problem]:
    """R19.3: capture areas on the map, each one a unit can reach."""
    if not any(f.area for f in board.fields):
        return [
            replace(
                where,
                message="the map has no capture areas: mark the fields "
                "to hold with a letter A-Z (R19.3)",
            )
        ]
    return [
        replace(
            where,
            message=f"no unit can reach capture area {area}: every path from a deploy "
            "zone or a seat's placed permanent to its fields is blocked (R10.2, R9.5), "
            "so no seat can hold it (R19.3); open a way through the blocked fields",
        )
        for area in unreachable_areas(board)
    ]


def unreachable_areas(board: Board) -> list[str]:
    """The capture areas none of whose fields a unit can step onto from a seat's deploy zone
    or a seat's placed permanent: steps go to adjacent fields, diagonals included (R10.1,
    R10.2); a blocked field takes nothing (R9.5). Deep water and land both count as a way
    (a swimming unit or one that moves on several terrains may take it)."""
    width, height = board.width, board.height
    open_ = [f.terrain is not Terrain.BLOCKED for f in board.fields]
    starts = [i for i, f in enumerate(board.fields) if f.deploy is not None and open_[i]]
    starts += [p.y * width + p.x for p in board.placements if p.owner >= 0]
    seen = set(starts)
    todo = list(starts)
    while todo:
        i = todo.pop()
        x, y = i % width, i // width
        for dx, dy in product((-1, 0, 1), repeat=2):
            nx, ny = x + dx, y + dy
            j = ny * width + nx
            if 0 <= nx < width and 0 <= ny < height and open_[j] and j not in seen:
                seen.add(j)
                todo.append(j)
    areas = sorted({f.area for f in board.fields if f.area})
    return [
        a for a in areas if not any(f.area == a and i in seen for i, f in enumerate(board.fields))
    ]


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
    missing = [
        str(s + 1)
        for s in range(board.players)
        if not any(p.owner == s and _has(lookup, p.card, "building") for p in board.placements)
    ]
    return _needs(
        board,
        where,
        lambda _: not missing,
        f"no building for seat "
        f"{', '.join(missing)}: a buildings board places a permanent with the keyword "
        "building for every seat (R19.4)",
    )(lookup)


def read_victory(settings: Settings, refs: list[Ref]) -> Victory:
    """The victory condition and the parameters its kind needs (R19, R21.12-R21.15)."""
    settings.require("victory", "one of " + ", ".join(k.value for k in VictoryKind))
    kind = VictoryKind(settings.get("victory", choice(_VICTORIES, "victory"), "vip"))
    target = settings.get("victory target", int_between(1, 999), 0)
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
        refs.append(
            Ref(
                card,
                "victory card",
                settings.where("victory card"),
                _VICTORY_CARD_TYPES.get(kind, frozenset()),
            )
        )
    tyrant = kind is VictoryKind.TYRANT
    return Victory(
        kind,
        target,
        card,
        tyrant_goal=settings.get("tyrant goal", int_between(1, 99), 3) if tyrant else 0,
        shared_win=settings.get("shared win", yes_no, True),
    )
