"""Readable names for actions, e.g. `move Militia (c7) from 2,3 to 3,4`.

The human seat lists these beside the action texts; a person should not need to know card ids
or field indices to choose. Pure: reads the state before the action, never changes it.
"""

from __future__ import annotations

from collections.abc import Callable

from engine import actions as A
from engine.actions import Action
from engine.effects import free_action_of
from engine.game import Game
from engine.legal import current_player
from engine.picture import field_text, seat_name
from engine.state import GameState
from engine.vocab import ActionKind, Phase
from engine.wording import render_cost, render_effects


def describe(game: Game, action: Action) -> str:
    """One line for `action`, taken now in `game` (the state decides what `pass` means)."""
    s = game.state
    text = _TEXTS.get(action.kind)
    return text(s, action) if text is not None else action.text(s.config.board.width)


def _refuse(s: GameState, _: Action) -> str:
    """Refusing upkeep defeats every unit still unpaid (R5.3)."""
    due = s.upkeep_due
    defeated = " is defeated" if len(due) == 1 else " are defeated"
    return "pay no more upkeep: " + ", ".join(_card(s, c) for c in due) + defeated


def _play(s: GameState, a: Action) -> str:
    """A card played: a permanent where it enters, a spell's target and the field it pushes
    away from (R14.1)."""
    text = f"play {s.name(a.card)}" + _costs(s, a.card)
    permanent = s.cards[a.card].type.is_permanent
    if a.field >= 0 and permanent:
        text += f" at {field_text(s, a.field)}"
    text += _target(s, a.target)
    if a.field >= 0 and not permanent:
        text += f", pushing away from {field_text(s, a.field)}"
    return text


def _full(s: GameState, a: Action) -> str:
    effects = s.cards[a.card].full_actions[a.index]
    return f"{_card(s, a.card)}: full action ({render_effects(effects)})" + _target(s, a.target)


def _free(s: GameState, a: Action) -> str:
    fa = free_action_of(s, a.card, a.index)
    return (
        f"{_card(s, a.card)}: free action ({render_cost(fa.cost)}: {render_effects(fa.effects)})"
        + _target(s, a.target)
    )


_TEXTS: dict[ActionKind, Callable[[GameState, Action], str]] = {
    ActionKind.PASS: lambda s, a: _pass_meaning(s),
    ActionKind.END: lambda s, a: "end the turn",
    ActionKind.CONVERT: lambda s, a: "discard 2 cards: gain 1 resource",
    ActionKind.PICK: lambda s, a: f"pick {s.name(a.card)}" + _costs(s, a.card),
    ActionKind.BUY: lambda s, a: f"buy {s.name(a.card)} for {s.cards[a.card].buy or 0}",
    ActionKind.DISCARD: lambda s, a: f"discard {s.name(a.card)}",
    ActionKind.PAY: lambda s, a: f"pay upkeep {s.cards[a.card].upkeep or 0} for {_card(s, a.card)}",
    ActionKind.REFUSE: _refuse,
    ActionKind.PLAY: _play,
    ActionKind.PLACE: lambda s, a: f"place {_card(s, a.card)} at {field_text(s, a.field)}",
    ActionKind.TARGET: lambda s, a: f"{_card(s, a.card)}'s trigger targets {_whom(s, a.target)}",
    ActionKind.MOVE: lambda s, a: (
        f"move {_card(s, a.card)} to {field_text(s, a.field)}" + _onto(s, a.field)
    ),
    ActionKind.ATTACK: lambda s, a: f"{_card(s, a.card)} attacks {_whom(s, a.target)}",
    ActionKind.FULL: _full,
    ActionKind.FREE: _free,
    ActionKind.CARRY: lambda s, a: (
        f"{_card(s, a.card)} carries {_card(s, a.other)} to {field_text(s, a.field)}"
    ),
    ActionKind.SWAP: lambda s, a: (
        f"{_card(s, a.card)} swaps fields with {_card(s, a.other)}" + _spends(a)
    ),
    ActionKind.EQUIP: lambda s, a: f"{_card(s, a.card)} equips {_card(s, a.other)}" + _spends(a),
    ActionKind.UNPARALYSE: lambda s, a: (
        f"{_card(s, a.card)} removes a paralysis marker" + _spends(a)
    ),
    ActionKind.ACTIVATE: lambda s, a: f"activate {_card(s, a.card)}",
    ActionKind.TAP: lambda s, a: f"tap {_card(s, a.card)} (done with it)",
}
"""Each action kind's line, given the state before the action."""


def _card(s: GameState, cid: int) -> str:
    """`Militia (c7) at 2,3` for a permanent, `Militia (c7)` for any other card."""
    if cid < 0:
        return ""
    p = s.perms.get(cid)
    field = s.perm_field(p) if p is not None else -1
    where = f" at {field_text(s, field)}" if field >= 0 else ""
    owner = (
        f" of {seat_name(p.controller)}"
        if p is not None and p.controller != current_player(s)
        else ""
    )
    return f"{s.name(cid)} (c{cid}){owner}{where}"


def _spends(action: Action) -> str:
    """Which of the unit's actions a swap, equip or unparalyse spends (R13.1, R15.3, R15.6)."""
    return " (spends its attack)" if action.index == A.SPEND_ATTACK else " (spends its move)"


def _costs(s: GameState, cid: int) -> str:
    c = s.cards[cid]
    parts = [
        f"{label} {v}"
        for label, v in (("buy", c.buy), ("play", c.play), ("upkeep", c.upkeep))
        if v is not None
    ]
    return f" [{c.type.value}{', ' if parts else ''}{', '.join(parts)}]"


def _whom(s: GameState, target: int) -> str:
    """A target: a player (`p2`) or a card."""
    seat = A.target_seat(target)
    if seat is not None:
        return seat_name(seat)
    return _card(s, target)


def _target(s: GameState, target: int) -> str:
    """` on X` for a chosen target, or nothing."""
    return f" on {_whom(s, target)}" if target >= 0 else ""


def _onto(s: GameState, field: int) -> str:
    """Moving onto an occupied field joins that permanent's stack (crew, R12.9)."""
    occupant = s.occ[field]
    return f" (onto {_card(s, occupant)})" if occupant >= 0 else ""


def _pass_meaning(s: GameState) -> str:
    if s.priority:
        return "pass (let the stack resolve)" if s.stack else "pass"
    if s.phase == Phase.ACTION:
        return "pass: end the action phase"
    if s.phase == Phase.BUY:
        return "buy nothing"
    return "pass"
