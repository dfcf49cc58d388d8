"""The game's words: phases, action kinds, stack items, unit verbs, decisions, events.

Each is a `StrEnum` whose values are the strings stored in DuckDB (the events' `phase`, `kind`
and `detail` columns, the action texts), so a stored game reads the same and a reader that
compares with a plain string keeps working; in the engine, mypy catches a misspelt word.
"""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """A step of the turn (R4), of the draft before it (R3) or of the Tyrant's turn (R21.15)."""

    DRAFT = "draft"
    START = "start"
    """R21.4 untap, R4.1 refill, R4.2 draw."""
    UPKEEP = "upkeep"
    """R5.1 income, R5.2 upkeep triggers."""
    UPKEEP_PAY = "upkeep_pay"
    """R5.3: the upkeep triggers resolved, the units that cost upkeep become due."""
    UPKEEP_DUE = "upkeep_due"
    """R5.3, R21.21: the player pays for due units or refuses."""
    ACTION = "main"
    """The rules' action phase (R4.4, R6.8); stored as "main", its name before the rules had
    one."""
    BUY = "buy"
    """R4.5, R7."""
    DISCARD = "discard"
    """R4.6: discard any hand cards, then end the turn."""
    TYRANT = "tyrant"
    """R21.15: the Tyrant's turn."""
    OVER = "over"
    """R19: the game is over."""


class ActionKind(StrEnum):
    """What a player's action does (R6.1); the first word of its text form."""

    PICK = "pick"
    PAY = "pay"
    REFUSE = "refuse"
    PLAY = "play"
    ACTIVATE = "activate"
    MOVE = "move"
    ATTACK = "attack"
    FULL = "full"
    CARRY = "carry"
    SWAP = "swap"
    EQUIP = "equip"
    UNPARALYSE = "unparalyse"
    FREE = "free"
    CONVERT = "convert"
    TAP = "tap"
    PASS = "pass"
    BUY = "buy"
    DISCARD = "discard"
    END = "end"
    PLACE = "place"
    TARGET = "target"


class StackKind(StrEnum):
    """What waits on the action stack (R6.9)."""

    CARD = "card"
    """A played card (R6.2)."""
    FREE = "free"
    """A permanent's or a field's free action (R6.7, R9.3)."""
    CONVERT = "convert"
    """Discard 2 cards: gain 1 resource (R8.6)."""
    UNIT = "unit"
    """A unit's action (R12.4), its `UnitVerb` says which."""
    TRIGGER = "trigger"
    """A triggered action (R6.1)."""
    PLAY_INTENTION = "play_intention"
    """The Tyrant plays an intention (R17.2)."""
    INTENTION = "intention"
    """The full action carrying out an intention (R17.3)."""


class UnitVerb(StrEnum):
    """A unit's action on the stack (R10, R12.4, R15.2, R15.3, R15.6)."""

    MOVE = "move"
    ATTACK = "attack"
    FULL = "full"
    CARRY = "carry"
    SWAP = "swap"
    EQUIP = "equip"


class DecisionKind(StrEnum):
    """A choice the rules hand a player in the middle of the flow (`engine.choices.Decision`)."""

    DISCARD = "discard"
    PLACE = "place"
    TARGET = "target"


class BehaviourKind(StrEnum):
    """Who decides a unit's actions instead of its player (R13.3, R13.4, R21.15)."""

    SHY = "shy"
    AGGRESSIVE = "aggressive"
    TYRANT = "tyrant"


class EventKind(StrEnum):
    """The `kind` of an event (every change of state emits one)."""

    ACTIVATE = "activate"
    ANNOUNCE = "announce"
    BUY = "buy"
    CARRY = "carry"
    COMBAT = "combat"
    CREATE = "create"
    DAMAGE = "damage"
    DEAL = "deal"
    DEATH = "death"
    DESTROY = "destroy"
    DISCARD = "discard"
    DRAW = "draw"
    DURABILITY = "durability"
    END_TURN = "end_turn"
    ENTER = "enter"
    EQUIP_NEXT = "equip_next"
    FIZZLE = "fizzle"
    GAIN = "gain"
    GAME_OVER = "game_over"
    HEAL = "heal"
    INTENTION = "intention"
    INTENTIONS = "intentions"
    LEAVE = "leave"
    LOSE = "lose"
    MARKER = "marker"
    MOVE = "move"
    PHASE = "phase"
    PICK = "pick"
    PLACE = "place"
    PLAY = "play"
    POINTS = "points"
    PREVENT = "prevent"
    PUSH = "push"
    PUSH_STOP = "push_stop"
    RESOLVE = "resolve"
    ROUND = "round"
    SHUFFLE = "shuffle"
    SPEND = "spend"
    STACK = "stack"
    SWAP = "swap"
    TAP = "tap"
    TRIGGER = "trigger"
    TURN = "turn"
    UPKEEP = "upkeep"


class ResourceReason(StrEnum):
    """Why a seat's resource changed: the `detail` of a gain, spend or lose event (R18), which
    `engine.zones` also counts by (income, discarding, cards; buying, playing, upkeep)."""

    INCOME = "income"
    """R5.1: the board's income at upkeep (a negative income loses resource)."""
    DISCARD_TWO = "discard 2"
    """R8.6: two cards discarded for one resource."""
    EFFECT = "effect"
    """A card's `gain`."""
    STEAL = "steal"
    """Taken from an opponent (R19.2), as the stealer gains it."""
    STOLEN = "stolen"
    """Taken by an opponent (R19.2), as the robbed seat loses it."""
    BURNED = "burned"
    """Destroyed by an opponent's card (R19.2)."""
    BUY = "buy"
    """R7.1: a card's buy price."""
    PLAY = "play"
    """R6.4: a card's play cost."""
    UPKEEP = "upkeep"
    """R5.3: a permanent's upkeep."""
    FREE_ACTION = "free action"
    """R6.6: a free action's cost."""


class DiscardReason(StrEnum):
    """Why a hand card went to the discard pile: the `detail` of a discard event."""

    EFFECT = "effect"
    """A card's `discard` (the player's choice, one card at a time)."""
    END_OF_TURN = "end of turn"
    """R4.6: after buying."""


class LeaveReason(StrEnum):
    """Why a card left the game instead of reaching a discard pile: the `detail` of a leave
    event."""

    TOKEN = "token"
    """R8.8: a token never reaches a pile."""
    NEUTRAL = "neutral"
    """A neutral permanent has no owner's pile."""
    NO_ROOM = "no room"
    """R8.8: a created permanent token with no field to enter never enters."""


class DamageCause(StrEnum):
    """What dealt damage: the `detail` of a damage or prevent event."""

    ATTACK = "attack"
    """R12.10: the attacker's damage to the defender."""
    RETALIATION = "retaliation"
    """R12.11: the defender's damage back."""
    EFFECT = "effect"
    """A card's `damage`."""
    COLLISION = "collision"
    """R14.3: a unit pushed onto an occupied field."""


class DestroyCause(StrEnum):
    """Why a permanent was destroyed: the `detail` of a death or destroy event (R11.2).
    `BY_CARD` is followed by the destroying card's name ("destroyed by Bolt")."""

    DAMAGE = "damage"
    """R12.2: more damage than life."""
    POISON = "poison"
    """R13.2: more poison markers than life."""
    SACRIFICED = "sacrificed"
    """R11.3: by its controller, as a cost or an effect."""
    UPKEEP = "upkeep"
    """R5.3: its upkeep not paid."""
    DURABILITY = "durability"
    """R15.5: an equipment's durability ran out."""
    NO_ROOM_TO_DROP = "no room to drop"
    """R11.6: a dropped permanent with no free field around."""
    PUSHED_OFF = "pushed onto an unavailable field"
    """R14.4: pushed onto a free field it cannot stand on."""
    BY_CARD = "destroyed by"
    """A card's `destroy`."""


class PushStop(StrEnum):
    """Why a push ended early: the `detail` of a push_stop event (R14)."""

    EDGE = "edge"
    """R21.9: the board's edge, no damage."""
    COLLISION = "collision"
    """R14.3: an occupied field."""
