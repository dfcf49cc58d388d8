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
