"""Boards as typed, immutable data: the fields and the scenario (R9, R19, R21.8, R21.13).

A board is a whole scenario (R1.5, R9.1): its map of fields, who plays, how they win, the income,
the start cards and what stands on the board at the start. Coordinates are (x, y), 0-based, x the
column; a field's index is `y * width + x`. Seats are 0-based here; spreadsheets write them 1-4.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.cards import FreeAction


class Terrain(str, Enum):
    """Field types (R9.3, R9.5, R9.6)."""

    PLAIN = "plain"
    DEEP_WATER = "deep water"
    HIGH_GROUND = "high ground"
    BLOCKED = "blocked"


class VictoryKind(str, Enum):
    """The victory conditions of R19 and the Tyrant board (R21.15)."""

    VIP = "vip"
    RESOURCE = "resource"
    CAPTURE = "capture"
    BUILDINGS = "buildings"
    STAFF = "staff"
    TYRANT = "tyrant"


class TieBreak(str, Enum):
    """How a game at the round limit is decided (R21.13)."""

    NONE = "none"  # a draw
    POINTS = "points"  # most victory points
    RESOURCE = "resource"  # most resource
    UNITS = "units"  # most units on the board


NEUTRAL = -1
"""Owner of a placement that belongs to no player (e.g. the staff of victory)."""
TYRANT = -2
"""Owner of a placement controlled by the game's Tyrant side (R17, R21.15)."""


@dataclass(frozen=True, slots=True)
class Field:
    """One field: terrain, the seat whose deploy zone it is (R21.8), capture area, income, and
    the free actions it grants a unit standing on it (R9.3), named on the map by `mark`."""

    terrain: Terrain = Terrain.PLAIN
    deploy: int | None = None
    area: str | None = None
    income: int = 0
    mark: str | None = None
    actions: tuple[FreeAction, ...] = ()


@dataclass(frozen=True, slots=True)
class Placement:
    """A permanent on the board at the start (R2.4). `owner` is a seat, NEUTRAL or TYRANT."""

    card: str
    owner: int
    x: int
    y: int
    vip: bool = False


@dataclass(frozen=True, slots=True)
class Victory:
    """The board's victory condition with its parameters (R19, R21.12-R21.15).

    `target`: resource limit (RESOURCE), score to reach (CAPTURE). `card`: the VIP unit, the
    staff, or the Tyrant's unit. `tyrant_goal`: how many intentions the Tyrant must carry out for
    the players to lose (TYRANT). `shared_win`: on a Tyrant board all players win together;
    otherwise the one who defeats the Tyrant wins (R21.15).
    """

    kind: VictoryKind
    target: int = 0
    card: str | None = None
    tyrant_goal: int = 0
    shared_win: bool = True


@dataclass(frozen=True, slots=True)
class Board:
    """A scenario: map, players, victory, economy, start cards and placements."""

    name: str
    width: int
    height: int
    fields: tuple[Field, ...]
    victory: Victory
    players: int = 2
    teams: tuple[tuple[int, ...], ...] = ()
    income: int = 2
    unit_income: int = 0
    start_cards: tuple[tuple[str, int], ...] = ()
    starting_hand: int = 0
    round_limit: int = 30
    tie_break: TieBreak = TieBreak.NONE
    placements: tuple[Placement, ...] = ()
    tyrant_deck: tuple[tuple[str, int], ...] = ()
    source: str = ""

    def field_at(self, x: int, y: int) -> Field:
        return self.fields[y * self.width + x]

    def deploy_zone(self, seat: int) -> tuple[int, ...]:
        """Indices of the fields in `seat`'s deploy zone (R21.8)."""
        return tuple(i for i, f in enumerate(self.fields) if f.deploy == seat)
