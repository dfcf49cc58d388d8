"""Readable names for actions, e.g. `move Militia (c7) from 2,3 to 3,4`.

The human seat lists these beside the action texts; a person should not need to know card ids
or field indices to choose. Pure: reads the state before the action, never changes it.
"""

from __future__ import annotations

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
    k = action.kind
    card = _card(s, action.card)
    if k == ActionKind.PASS:
        return _pass_meaning(s)
    if k == ActionKind.END:
        return "end the turn"
    if k == ActionKind.CONVERT:
        return "discard 2 cards: gain 1 resource"
    if k == ActionKind.PICK:
        return f"pick {s.name(action.card)}" + _costs(s, action.card)
    if k == ActionKind.BUY:
        return f"buy {s.name(action.card)} for {s.cards[action.card].buy or 0}"
    if k == ActionKind.DISCARD:
        return f"discard {s.name(action.card)}"
    if k == ActionKind.PAY:
        return f"pay upkeep {s.cards[action.card].upkeep or 0} for {card}"
    if k == ActionKind.REFUSE:
        return (
            "pay no more upkeep: "
            + ", ".join(_card(s, c) for c in s.upkeep_due)
            + (" is defeated" if len(s.upkeep_due) == 1 else " are defeated")
        )
    if k == ActionKind.PLAY:
        text = f"play {s.name(action.card)}" + _costs(s, action.card)
        if action.field >= 0 and s.cards[action.card].type.is_permanent:
            text += f" at {field_text(s, action.field)}"
        text += _target(s, action.target)
        if action.field >= 0 and not s.cards[action.card].type.is_permanent:
            text += f", pushing away from {field_text(s, action.field)}"  # R14.1
        return text
    if k == ActionKind.PLACE:
        return f"place {card} at {field_text(s, action.field)}"
    if k == ActionKind.TARGET:
        return f"{card}'s trigger targets {_whom(s, action.target)}"
    if k == ActionKind.MOVE:
        return f"move {card} to {field_text(s, action.field)}" + _onto(s, action.field)
    if k == ActionKind.ATTACK:
        return f"{card} attacks {_whom(s, action.target)}"
    if k == ActionKind.FULL:
        effects = s.cards[action.card].full_actions[action.index]
        return f"{card}: full action ({render_effects(effects)})" + _target(s, action.target)
    if k == ActionKind.FREE:
        fa = free_action_of(s, action.card, action.index)
        return (
            f"{card}: free action ({render_cost(fa.cost)}: {render_effects(fa.effects)})"
            + _target(s, action.target)
        )
    if k == ActionKind.CARRY:
        return f"{card} carries {_card(s, action.other)} to {field_text(s, action.field)}"
    if k == ActionKind.SWAP:
        return f"{card} swaps fields with {_card(s, action.other)}" + _spends(action)
    if k == ActionKind.EQUIP:
        return f"{card} equips {_card(s, action.other)}" + _spends(action)
    if k == ActionKind.UNPARALYSE:
        return f"{card} removes a paralysis marker" + _spends(action)
    if k == ActionKind.ACTIVATE:
        return f"activate {card}"
    if k == ActionKind.TAP:
        return f"tap {card} (done with it)"
    return action.text(s.config.board.width)


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
