"""The game state as plain data referenced by ids, built for cheap cloning.

Cards are instance ids into `GameState.cards` (the definitions) and `GameState.owner` (R8.5:
whose store the card came from; a permanent's controller is `Perm.controller`). Every card
is in exactly one zone (R8): a player's deck, hand, discard or store; the board (a permanent, or
in a permanent's stack); the action stack; set aside (intentions, R17.2); or out of the game
(never dealt, tokens that left, R3.4, R8.8). The rules that change the state live in the other
modules; this one only holds it, copies it and answers questions about it. The choices waiting
in `GameState.pending` are `engine.choices`, the copy rules of its records `engine.copying`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, fields
from typing import NamedTuple

from engine.actions import Action
from engine.board import Board, VictoryKind
from engine.cards import Card
from engine.choices import Decision
from engine.copying import (
    CLONE_RULES,
    PERM_FIELDS,
    PLAYER_FIELDS,
    copy_lists,
    copy_perms,
    copy_players,
    copy_rng,
)
from engine.events import EventLog
from engine.geometry import Geometry, geometry_of
from engine.markers import Marker, no_markers
from engine.record import PICK_COLUMNS, SNAPSHOT_COLUMNS, Columns
from engine.vocab import BehaviourKind, EventKind, Phase, StackKind, UnitVerb


@dataclass(frozen=True)
class GameConfig:
    """Everything a game needs that does not change during it (shared by clones)."""

    pool: tuple[Card, ...]
    """Draftable cards of the chosen sets (R2.1); copies are expanded at setup."""
    catalog: dict[str, Card]
    """Every known card by name: start cards, tokens, the Tyrant's cards (R2.3, R8.8)."""
    board: Board
    players: int = 2
    pack_size: int = 10
    draft_target: int = 25
    alternate_pass: bool = False
    action_guard: int = 500
    game_guard: int = 100_000
    """R21.18 for a whole game: the steps (actions, resolutions, turn steps) a game may take."""
    log_events: bool = True
    geometry: Geometry = field(init=False, repr=False, compare=False)
    deploy: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "geometry", geometry_of(self.board))
        object.__setattr__(
            self, "deploy", tuple(self.board.deploy_zone(s) for s in range(self.players))
        )

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickled without what it derives from its board, which it derives again when
        unpickled: a worker's configs of equal boards share one geometry (`geometry_of`)."""
        return GameConfig, tuple(getattr(self, f.name) for f in fields(self) if f.init)


class Perm:
    """A permanent on the board (R11): its card, controller, field, damage and markers. Its
    fields are the keys of `PERM_FIELDS`; `copy` copies each by its rule there."""

    __slots__ = tuple(PERM_FIELDS)

    def __init__(
        self,
        cid: int,
        controller: int,
        field_: int,
        durability: int = 0,
        damage: int = 0,
        markers: dict[Marker, int] | None = None,
        used_move: bool = False,
        used_attack: bool = False,
        tapped: bool = False,
        stack: list[int] | None = None,
        under: int = -1,
        intention: int = -1,
    ) -> None:
        self.cid = cid
        self.controller = controller
        self.field = field_
        self.damage = damage
        self.markers = no_markers() if markers is None else markers
        self.used_move = used_move
        self.used_attack = used_attack
        self.tapped = tapped
        self.stack: list[int] = [] if stack is None else stack
        self.under = under
        self.durability = durability
        self.intention = intention

    def copy(self) -> Perm:
        return Perm(
            self.cid,
            self.controller,
            self.field,
            self.durability,
            self.damage,
            self.markers.copy(),
            self.used_move,
            self.used_attack,
            self.tapped,
            list(self.stack),
            self.under,
            self.intention,
        )


class Player:
    """One seat's zones and counters (R8.1-R8.3, R18; `resource` is the one resource, R1.6).
    Its fields are the keys of `PLAYER_FIELDS`; `copy` copies each by its rule there."""

    __slots__ = tuple(PLAYER_FIELDS)

    def __init__(self, team: int, source: Player | None = None) -> None:
        """A new seat's empty zones, or (from `copy`) a copy of `source`."""
        if source is not None:
            self._copy(source)
            return
        self.deck: list[int] = []
        self.hand: list[int] = []
        self.discard: list[int] = []
        self.store: list[int] = []
        self.resource = 0
        self.points = 0
        self.bought = False
        self.equip_next: list[int] = []
        self.team = team
        self.reset_counters()

    def reset_counters(self) -> None:
        """Economy counters since the player's last snapshot (its own turn and the responses
        made in other turns since), for the snapshot table. Resource then equals
        resource_start + income + discard_gain + card_gain - spends - card_loss."""
        self.resource_start = self.resource
        self.income = 0
        self.spend_buy = 0
        self.spend_play = 0
        self.spend_upkeep = 0
        self.spend_free = 0
        self.discard_gain = 0
        self.upkeep_paid = 0
        self.upkeep_deaths = 0
        self.card_gain = 0
        self.card_loss = 0
        self.buy_resource = 0

    def copy(self) -> Player:
        return Player(self.team, self)

    def _copy(self, p: Player) -> None:
        self.deck = list(p.deck)
        self.hand = list(p.hand)
        self.discard = list(p.discard)
        self.store = list(p.store)
        self.resource = p.resource
        self.points = p.points
        self.bought = p.bought
        self.equip_next = list(p.equip_next)
        self.team = p.team
        self.resource_start = p.resource_start
        self.income = p.income
        self.spend_buy = p.spend_buy
        self.spend_play = p.spend_play
        self.spend_upkeep = p.spend_upkeep
        self.spend_free = p.spend_free
        self.discard_gain = p.discard_gain
        self.upkeep_paid = p.upkeep_paid
        self.upkeep_deaths = p.upkeep_deaths
        self.card_gain = p.card_gain
        self.card_loss = p.card_loss
        self.buy_resource = p.buy_resource


class StackItem(NamedTuple):
    """An announced action waiting on the action stack (R6.9).

    `kind` (`StackKind`): CARD (a played card `source`; `field`: where a permanent goes, or the
    origin a spell pushes from, R14.1), FREE (free action `index` of `source`), CONVERT (R8.6),
    UNIT (a unit's action: its `verb`), TRIGGER (`index` into the source card's triggers, -1
    for its own effects as it enters), PLAY_INTENTION (the Tyrant plays intention `source` onto
    `target`, R17.2; `other` is the Tyrant's unit), INTENTION (the full action of R17.3
    carrying out intention `index`). `origin`: the field a unit's move, carry or swap was
    announced from; it resolves only if the unit still stands there (R6.4).
    """

    kind: StackKind
    player: int
    source: int
    index: int = -1  # type: ignore[assignment]  # shadows tuple.index on purpose
    target: int = -1
    field: int = -1
    verb: UnitVerb | None = None
    path: tuple[int, ...] = ()
    other: int = -1
    origin: int = -1


class BehaviourRun(NamedTuple):
    """A behaviour deciding a unit's actions one at a time (R13.3, R13.4 panic and rage; the
    Tyrant's turn, R21.15, R21.19): `kind` says which (`BehaviourKind`), `step` the next
    step, `target` the permanent it goes for (in the Tyrant's turn: the intention whose marker
    was on the board when the turn began, the only one it may carry out then, R21.19).
    `instead`: in the Tyrant's turn, the behaviour that panic or rage runs for its unit once
    the intention is played (R21.25). The flow asks for the next action whenever the stack is
    empty (R21.6)."""

    kind: BehaviourKind
    unit: int
    step: int = 0
    target: int = -1
    instead: BehaviourKind | None = None


_STILL = frozenset({EventKind.ACTIVATE, EventKind.TAP})
"""Events not counted in `GameState.changes`: they change only whether a unit is activated or
done for the turn (R6.8), which no fast action depends on (`legal.fast_actions`)."""


class GameState:
    """All of one game; `engine.game` gives it the agent-facing API. Its fields are the keys of
    `CLONE_RULES`; `clone` copies each by its rule there."""

    __slots__ = tuple(CLONE_RULES)

    def __init__(self, config: GameConfig, seed: int, source: GameState | None = None) -> None:
        """A new game, or (from `clone`) a copy of `source`."""
        if source is not None:
            self._copy(source)
            return
        self.config = config
        self.seed = seed
        self.rng = random.Random(seed)
        self.cards: list[Card] = []
        self.owner: list[int] = []
        self.token: list[bool] = []
        self.players = [Player(team) for team in _teams(config)]
        self.perms: dict[int, Perm] = {}
        self.occ: list[int] = [-1] * len(config.board.fields)
        self.stack: list[StackItem] = []
        self.set_aside: list[int] = []
        self.out: list[int] = []
        self.packs: list[list[int]] = []
        self.unopened: list[list[int]] = []
        self.draft_seat = 0
        self.pack_round = 0
        self.picks_made: list[int] = [0] * config.players
        self.phase: Phase = Phase.DRAFT
        self.active = 0
        self.round = 0
        self.turn = 0
        self.actions_this_turn = 0
        self.steps = 0
        self.pending: list[Decision] = []
        self.upkeep_due: list[int] = []
        self.priority: list[int] = []
        self.activated = -1
        self.behaviour: BehaviourRun | None = None
        self.winners: tuple[int, ...] | None = None
        self.reason = ""
        self.guard_stopped = False
        self.tyrant_deck: list[int] = []
        self.tyrant_discard: list[int] = []
        self.intentions_done = 0
        self.marker_card = -1
        self.marker_perm = -1
        self.marker_field = -1
        self.killer = -1
        self.dead: list[tuple[int, int, bool]] = []
        self.left_from: dict[int, int] = {}
        """The field each permanent last left the board from: the origin of the ranges and
        pushes of its actions that resolve after it is gone (R10.1, R14.1)."""
        self.entered: list[int] = []
        self.vips: dict[int, int] = {}
        self.reach_cache: tuple[tuple[object, ...], dict[int, tuple[int, ...]]] | None = None
        self.changes = 0
        """Events emitted so far but a unit's activation and tapping (R6.8): a cache of what
        the state implies holds while this stays (`legal.fast_actions`)."""
        self.fast_cache: tuple[tuple[object, ...], list[Action]] | None = None
        self.acting = -1
        self.events = EventLog(config.log_events)
        self.picks = Columns(PICK_COLUMNS)
        self.snapshots = Columns(SNAPSHOT_COLUMNS)
        self.action_log: list[str] = []

    def clone(self) -> GameState:
        """A deep copy sharing only immutable parts (config, card definitions), each field copied
        by its rule in `CLONE_RULES`.

        The copy is for looking ahead (search), so it carries no event log: its events are
        switched off, which keeps cloning cheap however long the game has run.
        """
        return GameState(self.config, self.seed, self)

    def _copy(self, s: GameState) -> None:
        self.config = s.config
        self.seed = s.seed
        self.rng = copy_rng(s.rng)
        self.cards = list(s.cards)
        self.owner = list(s.owner)
        self.token = list(s.token)
        self.players = copy_players(s.players)
        self.perms = copy_perms(s.perms)
        self.occ = list(s.occ)
        self.stack = list(s.stack)
        self.set_aside = list(s.set_aside)
        self.out = list(s.out)
        self.packs = copy_lists(s.packs)
        self.unopened = copy_lists(s.unopened)
        self.draft_seat = s.draft_seat
        self.pack_round = s.pack_round
        self.picks_made = list(s.picks_made)
        self.phase = s.phase
        self.active = s.active
        self.round = s.round
        self.turn = s.turn
        self.actions_this_turn = s.actions_this_turn
        self.steps = s.steps
        self.pending = list(s.pending)
        self.upkeep_due = list(s.upkeep_due)
        self.priority = list(s.priority)
        self.activated = s.activated
        self.behaviour = s.behaviour
        self.winners = s.winners
        self.reason = s.reason
        self.guard_stopped = s.guard_stopped
        self.tyrant_deck = list(s.tyrant_deck)
        self.tyrant_discard = list(s.tyrant_discard)
        self.intentions_done = s.intentions_done
        self.marker_card = s.marker_card
        self.marker_perm = s.marker_perm
        self.marker_field = s.marker_field
        self.killer = s.killer
        self.dead = list(s.dead)
        self.left_from = dict(s.left_from)
        self.entered = list(s.entered)
        self.vips = dict(s.vips)
        self.reach_cache = None
        self.changes = s.changes
        self.fast_cache = None
        self.acting = s.acting
        self.events = EventLog(enabled=False)
        self.picks = s.picks.copy()
        self.snapshots = s.snapshots.copy()
        self.action_log = list(s.action_log)

    def emit(
        self,
        kind: EventKind,
        player: int = -1,
        card: int = -1,
        target: int = -1,
        field_: int = -1,
        amount: int = 0,
        detail: str = "",
    ) -> None:
        """Record one event (every change of state emits one) and count it in
        `changes`, but a unit's activation and tapping, which change only whether the unit is
        activated or done for the turn."""
        if kind not in _STILL:
            self.changes += 1
        if not self.events.enabled:
            return
        w = self.config.board.width
        x, y = (field_ % w, field_ // w) if field_ >= 0 else (-1, -1)
        self.events.add(
            self.round,
            self.turn,
            self.phase,
            player,
            kind,
            self.cards[card].name if card >= 0 else "",
            self.cards[target].name if target >= 0 else "",
            x,
            y,
            amount,
            detail,
            card,
            target,
        )

    # --- small queries used everywhere -------------------------------------------------------

    def name(self, cid: int) -> str:
        return self.cards[cid].name if cid >= 0 else ""

    def xy(self, field_: int) -> tuple[int, int]:
        w = self.config.board.width
        return field_ % w, field_ // w

    def enemies(self, a: int, b: int) -> bool:
        """Seats on different teams (R21.15: the Tyrant is everyone's enemy; neutral nobody's)."""
        if a == b or a == -1 or b == -1:
            return False
        if a < 0 or b < 0:
            return True
        return self.players[a].team != self.players[b].team

    def perm_field(self, p: Perm) -> int:
        """A stack's field is that of the permanent beneath (R11.5)."""
        while p.under >= 0:
            p = self.perms[p.under]
        return p.field

    def zone_of(self, cid: int) -> str:
        """The one zone a card is in (for the conservation property tests)."""
        for seat, pl in enumerate(self.players):
            for zname in ("deck", "hand", "discard", "store"):
                if cid in getattr(pl, zname):
                    return f"{zname}{seat}"
            if cid in pl.equip_next:
                return f"equip_next{seat}"
        if cid in self.perms:
            return "board"
        if any(
            it.source == cid and it.kind in (StackKind.CARD, StackKind.PLAY_INTENTION)
            for it in self.stack
        ):
            return "stack"
        if cid in self.set_aside:
            return "set_aside"
        if cid in self.tyrant_deck:
            return "tyrant_deck"
        if cid in self.tyrant_discard:
            return "tyrant_discard"
        if cid in self.out:
            return "out"
        if any(cid in pack for pack in self.packs) or any(cid in p for p in self.unopened):
            return "pack"
        return "nowhere"


def _teams(config: GameConfig) -> list[int]:
    """Team number per seat: the board's teams, else every seat alone; on a Tyrant board that
    the players win together, all of them are one team against the Tyrant (R21.15)."""
    victory = config.board.victory
    if victory.kind is VictoryKind.TYRANT and victory.shared_win and not config.board.teams:
        return [0] * config.players
    teams = list(range(config.players))
    for t, members in enumerate(config.board.teams):
        for seat in members:
            if seat < config.players:
                teams[seat] = t
    return teams
