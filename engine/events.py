"""Event records kept in columnar buffers (one list per column, no object per event).

Every change of state emits one event. The engine keeps them in memory; the workbench
turns the columns into Arrow batches. Plain lists cost about 100 ns per event; an object per
event costs several times that and loads the garbage collector.
"""

from __future__ import annotations

from typing import Final

EVENT_COLUMNS: Final = (
    "seq",
    "round",
    "turn",
    "phase",
    "player",
    "kind",
    "card",
    "target",
    "x",
    "y",
    "amount",
    "detail",
    "card_id",
    "target_id",
)
"""Column names; `card` and `target` are card names (or ""), `card_id` and `target_id` the same
cards' instance ids (-1 for none: copies share a name, the id tells them apart, so the referee
can follow each permanent), `x`/`y` a field or -1."""


class EventLog:
    """Append-only columnar event buffer for one game."""

    __slots__ = (*EVENT_COLUMNS, "enabled")

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self.seq: list[int] = []
        self.round: list[int] = []
        self.turn: list[int] = []
        self.phase: list[str] = []
        self.player: list[int] = []
        self.kind: list[str] = []
        self.card: list[str] = []
        self.target: list[str] = []
        self.x: list[int] = []
        self.y: list[int] = []
        self.amount: list[int] = []
        self.detail: list[str] = []
        self.card_id: list[int] = []
        self.target_id: list[int] = []

    def __len__(self) -> int:
        return len(self.kind)

    def add(
        self,
        round_: int,
        turn: int,
        phase: str,
        player: int,
        kind: str,
        card: str = "",
        target: str = "",
        x: int = -1,
        y: int = -1,
        amount: int = 0,
        detail: str = "",
        card_id: int = -1,
        target_id: int = -1,
    ) -> None:
        """Append one event; a disabled log (benchmarks of logging overhead) drops it."""
        if not self.enabled:
            return
        self.seq.append(len(self.kind))
        self.round.append(round_)
        self.turn.append(turn)
        self.phase.append(phase)
        self.player.append(player)
        self.kind.append(kind)
        self.card.append(card)
        self.target.append(target)
        self.x.append(x)
        self.y.append(y)
        self.amount.append(amount)
        self.detail.append(detail)
        self.card_id.append(card_id)
        self.target_id.append(target_id)

    def columns(self) -> dict[str, list[int] | list[str]]:
        """The buffer as a column-name -> values mapping (for Arrow / polars)."""
        return {name: getattr(self, name) for name in EVENT_COLUMNS}

    def rows(self) -> list[tuple[object, ...]]:
        """The events as tuples in EVENT_COLUMNS order (tests and replay checks)."""
        return list(zip(*(getattr(self, name) for name in EVENT_COLUMNS), strict=True))
