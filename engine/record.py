"""What one finished game hands to the workbench: result, picks, snapshots, events, actions.

Plain columnar lists, no engine objects: the store turns them into Arrow batches, the replay
re-applies `actions` from `seed`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from engine.events import EventLog

PICK_COLUMNS: Final = ("pick", "pack_round", "player", "card", "pack")
"""`pick`: 1-based pick number of that player; `pack`: the pack's contents, names joined by '|'."""

SNAPSHOT_COLUMNS: Final = (
    "round",
    "player",
    "resource",
    "income",
    "spend_buy",
    "spend_play",
    "spend_upkeep",
    "spend_free",
    "discard_gain",
    "upkeep_paid",
    "upkeep_deaths",
    "hand",
    "deck",
    "discard",
    "store",
    "units",
    "points",
    "resource_start",
    "card_gain",
    "card_loss",
    "buy_resource",
    "bought",
)
"""One row per player per turn, taken at the end of that player's turn (economy questions).
The money columns are flows since the player's previous row, so per row
resource_start + income + discard_gain + card_gain
= spend_buy + spend_play + spend_upkeep + spend_free + card_loss + resource."""


class Columns:
    """A small columnar table: one tuple per column.

    Tuples, so that a copy shares them (a search clones the state, with its tables, far more
    often than a game adds a row: a few per turn)."""

    __slots__ = ("names", "data")

    def __init__(
        self, names: tuple[str, ...], data: dict[str, tuple[object, ...]] | None = None
    ) -> None:
        self.names = names
        self.data: dict[str, tuple[object, ...]] = (
            dict.fromkeys(names, ()) if data is None else data
        )

    def add(self, *values: object) -> None:
        data = self.data
        for n, v in zip(self.names, values, strict=True):
            data[n] += (v,)

    def __len__(self) -> int:
        return len(self.data[self.names[0]])

    def rows(self) -> list[tuple[object, ...]]:
        return list(zip(*(self.data[n] for n in self.names), strict=True))

    def copy(self) -> Columns:
        return Columns(self.names, self.data.copy())

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Copied and pickled through the constructor (a compiled class is, docs/compiled.md)."""
        return Columns, (self.names, self.data)


@dataclass
class GameRecord:
    """A finished game. `winners` is empty for a draw; seats are 0-based."""

    seed: int
    players: int
    first_player: int
    winners: tuple[int, ...]
    reason: str
    rounds: int
    guard_stopped: bool
    events: EventLog
    picks: Columns = field(default_factory=lambda: Columns(PICK_COLUMNS))
    snapshots: Columns = field(default_factory=lambda: Columns(SNAPSHOT_COLUMNS))
    actions: list[str] = field(default_factory=list)
    stores: list[list[str]] = field(default_factory=list)
