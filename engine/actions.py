"""Actions: every player input is one hashable value with a short text form (R6.1).

`Action` is a NamedTuple (cheaper to build than a frozen dataclass on the hot path). Card and
permanent ids are card-instance ids; `field` is a field index; `target` is a permanent id or a
player (`player_target`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from engine.vocab import ActionKind

SPEND_MOVE = 0
SPEND_ATTACK = 1
"""The `index` of swap, equip and unparalyse: which of the unit's actions it spends (R13.1,
R15.3, R15.6), printed `#0` (the move) or `#1` (the attack)."""

_PLAYERS_FROM = 1000
"""A target is a permanent's id, or a player's seat counted from here (both are ints, so an
action stays a cheap tuple of ints); only the functions below know the encoding."""

_FIELD_ACTIONS_FROM = 100
"""The free actions a unit's field grants (R9.3) are numbered from here, after the card's own."""


def player_target(seat: int) -> int:
    """The target naming the player in `seat` (0-based), printed `p1`..`p4`."""
    return _PLAYERS_FROM + seat


def target_seat(target: int) -> int | None:
    """The seat a player target names; None for a permanent or no target."""
    return target - _PLAYERS_FROM if target >= _PLAYERS_FROM else None


def target_seats(targets: Iterable[int]) -> list[int]:
    """The seats among `targets` (R19.2 burning and stealing name players)."""
    return [t - _PLAYERS_FROM for t in targets if t >= _PLAYERS_FROM]


def permanent_target(target: int) -> int:
    """The permanent a target names, -1 for a player or none (an event's `target_id`)."""
    return target if 0 <= target < _PLAYERS_FROM else -1


def field_action(number: int) -> int:
    """The `index` of free action `number` of those the unit's field grants (R9.3), printed
    `#100` on: the card's own free actions keep 0, 1, ..."""
    return _FIELD_ACTIONS_FROM + number


def field_action_number(index: int) -> int | None:
    """Which of its field's free actions (R9.3) a free action's `index` names; None for one of
    the card's own (R6.7)."""
    return index - _FIELD_ACTIONS_FROM if index >= _FIELD_ACTIONS_FROM else None


class Action(NamedTuple):
    """One decision's answer. Unused slots are -1; `index` picks a free or full action, or the
    action a swap, equip or unparalyse spends (SPEND_MOVE, SPEND_ATTACK)."""

    kind: ActionKind
    card: int = -1
    target: int = -1
    field: int = -1
    index: int = -1  # type: ignore[assignment]  # shadows tuple.index on purpose
    other: int = -1

    def text(self, width: int = 0) -> str:
        """Short text form, e.g. `move c7 @3,4`, `attack c7 c12`, `buy c31`, `pass`.

        With the board's `width`, fields print as x,y; without it, as an index.
        """
        kind, card, target, field, index, other = self  # one unpacking: a game logs every action
        parts: list[str] = [kind]
        if card >= 0:
            parts.append(f"c{card}")
        if other >= 0:
            parts.append(f"c{other}")
        if index >= 0:
            parts.append(f"#{index}")
        if target >= 0:
            seat = target_seat(target)
            parts.append(f"c{target}" if seat is None else f"p{seat + 1}")
        if field >= 0:
            parts.append(f"@{field % width},{field // width}" if width else f"@{field}")
        return " ".join(parts)


PASS_ACTION = Action(ActionKind.PASS)
END_ACTION = Action(ActionKind.END)
CONVERT_ACTION = Action(ActionKind.CONVERT)
REFUSE_ACTION = Action(ActionKind.REFUSE)
"""Refuse to pay any more upkeep: the units still unpaid are defeated (R5.3, R21.7)."""


def parse_action(text: str, width: int) -> Action:
    """The inverse of `Action.text` (replays and the human seat); raises ValueError."""
    words = text.split()
    if not words:
        raise ValueError("empty action")
    kind, cards, target, field, index = ActionKind(words[0]), [], -1, -1, -1
    for w in words[1:]:
        if w.startswith("c") and w[1:].isdigit():
            cards.append(int(w[1:]))
        elif w.startswith("p") and w[1:].isdigit():
            target = player_target(int(w[1:]) - 1)
        elif w.startswith("#") and w[1:].isdigit():
            index = int(w[1:])
        elif w.startswith("@"):
            x, _, y = w[1:].partition(",")
            field = int(y) * width + int(x) if y else int(x)
        else:
            raise ValueError(f"cannot read {w!r} in action {text!r}")
    card = cards[0] if cards else -1
    other = -1
    if len(cards) == 3:
        other, target = cards[1], cards[2]
    elif len(cards) == 2:
        if kind in (ActionKind.CARRY, ActionKind.SWAP, ActionKind.EQUIP, ActionKind.CONVERT):
            other = cards[1]
        else:
            target = cards[1]
    return Action(kind, card, target, field, index, other)
