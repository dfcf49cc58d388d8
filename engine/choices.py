"""The choices the rules hand a player in the middle of the flow, waiting in
`GameState.pending`: a discard (R6.7, R8.6, effects), where a dropped permanent goes (R11.6),
the target of a triggered action (R6.4). `engine.decisions` carries out the answers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.vocab import DecisionKind


@dataclass(frozen=True, slots=True)
class DiscardChoice:
    """`player` discards `count` cards from the hand, one choice at a time: the cost of a free
    action (R6.7) or of converting (R8.6), or an effect's discard; `source` is the card that
    asks, if any."""

    player: int
    count: int
    source: int | None = None
    kind: ClassVar[DecisionKind] = DecisionKind.DISCARD


@dataclass(frozen=True, slots=True)
class PlaceChoice:
    """R11.6: `player` puts the dropped permanent `card` on one of `fields`, the available
    fields in range 1 of `origin`, the field its stack dropped from."""

    player: int
    card: int
    fields: tuple[int, ...]
    origin: int
    kind: ClassVar[DecisionKind] = DecisionKind.PLACE


@dataclass(frozen=True, slots=True)
class TargetChoice:
    """R6.4: `player` chooses among `options` (permanents or player targets) the target of the
    triggered action of `source`: its trigger number `trigger`, or None for the card's own
    effects as it enters (R6.1)."""

    player: int
    source: int
    trigger: int | None
    options: tuple[int, ...]
    kind: ClassVar[DecisionKind] = DecisionKind.TARGET


Decision = DiscardChoice | PlaceChoice | TargetChoice
"""A choice the rules hand to a player in the middle of the flow, answered by the action of
the same kind (`engine.vocab.DecisionKind`)."""
