"""Small positions for rule tests: a board from an ASCII map, cards from the dataclasses, and a
GameState/Game placed straight into a player's action phase (no draft, no spreadsheets).

Board map: one row per line, fields separated by spaces. Each field is a token of characters:
  terrain   '.' plain, '~' deep water, '^' high ground, '#' blocked (default plain)
  deploy    a digit d: the field is in seat d's deploy zone (seats are 0-based, as in the engine)
  area      an upper-case letter: the field belongs to that capture area (R19.3)
  income    each '+' adds 1 income to the field (R18.2)
e.g. "0 . ~ .\n. ^ ~ 1" is a 4x2 board with seat 0 deploying at (0,0) and seat 1 at (3,1).

    pos = Position(board("0 . .\n. . 1"), catalog=[SOLDIER])
    a = pos.put(SOLDIER, 0, 0, 0)
    b = pos.put(SOLDIER, 1, 1, 0, damage=1)
    game = pos.game()          # phase "main", round 1, seat 0 active, nothing pending
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from engine import draft, flow
from engine.actions import Action
from engine.board import Board, Field, Placement, Terrain, TieBreak, Victory, VictoryKind
from engine.cards import (
    Card,
    CardType,
    Cost,
    Effect,
    FreeAction,
    Keywords,
    Modifiers,
    Protection,
    Side,
    Target,
    TargetKind,
    Trigger,
)
from engine.game import Game
from engine.legal import legal_actions
from engine.markers import Marker
from engine.permanents import attach, put_onto_board
from engine.state import GameConfig, GameState, Perm
from engine.vocab import ActionKind, Phase

__all__ = [
    "IDLE",
    "Card",
    "CardType",
    "Cost",
    "Effect",
    "FreeAction",
    "Keywords",
    "Modifiers",
    "Placement",
    "Position",
    "Protection",
    "Side",
    "Target",
    "TargetKind",
    "Terrain",
    "TieBreak",
    "Trigger",
    "Victory",
    "VictoryKind",
    "act",
    "artifact",
    "board",
    "done",
    "eff",
    "equipment",
    "events",
    "intention",
    "kinds",
    "play_out",
    "potion",
    "spell",
    "texts",
    "tgt",
    "unit",
]

_TERRAIN = {
    ".": Terrain.PLAIN,
    "~": Terrain.DEEP_WATER,
    "^": Terrain.HIGH_GROUND,
    "#": Terrain.BLOCKED,
}


def _field(token: str) -> Field:
    terrain, deploy, area, income = Terrain.PLAIN, None, None, 0
    for ch in token:
        if ch in _TERRAIN:
            terrain = _TERRAIN[ch]
        elif ch.isdigit():
            deploy = int(ch)
        elif ch.isupper():
            area = ch
        elif ch == "+":
            income += 1
        else:
            raise ValueError(f"unknown map character {ch!r} in {token!r}")
    return Field(terrain, deploy, area, income)


def board(
    rows: str, *, victory: Victory | None = None, players: int = 2, name: str = "test", **kw: Any
) -> Board:
    """A Board from an ASCII map (see the module docstring); other Board fields by keyword."""
    lines = [line.split() for line in rows.strip().splitlines() if line.strip()]
    width = len(lines[0])
    if any(len(line) != width for line in lines):
        raise ValueError("ragged map")
    fields = tuple(_field(tok) for line in lines for tok in line)
    # default: a victory that never comes, so positions stay open
    return Board(
        name,
        width,
        len(lines),
        fields,
        victory or Victory(VictoryKind.RESOURCE, target=10**9),
        players=players,
        **kw,
    )


# --- cards -----------------------------------------------------------------------------------


def unit(
    name: str = "Soldier",
    life: int = 3,
    move: int = 2,
    attack: int = 1,
    range_: int = 1,
    *,
    upkeep: int | None = 0,
    play: int | None = 1,
    buy: int | None = 1,
    set_: str = "test",
    **kw: Any,
) -> Card:
    """A unit card; `kw` are further Card fields (keywords=Keywords(...), effects=...)."""
    return Card(
        name,
        set_,
        CardType.UNIT,
        buy=buy,
        play=play,
        upkeep=upkeep,
        life=life,
        move=move,
        attack=attack,
        range=range_,
        **kw,
    )


def spell(
    name: str = "Bolt",
    *effects: Effect,
    play: int | None = 1,
    buy: int | None = 1,
    set_: str = "test",
    **kw: Any,
) -> Card:
    return Card(name, set_, CardType.SPELL, buy=buy, play=play, effects=tuple(effects), **kw)


def artifact(
    name: str = "Relic",
    *,
    solid: int | None = None,
    play: int | None = 1,
    buy: int | None = 1,
    keywords: Keywords | None = None,
    set_: str = "test",
    **kw: Any,
) -> Card:
    kws = keywords or Keywords(solid=solid)
    return Card(name, set_, CardType.ARTIFACT, buy=buy, play=play, keywords=kws, **kw)


_NO_MODIFIERS = Modifiers()  # frozen: one default shared by every call


def equipment(
    name: str = "Sword",
    *,
    durability: int = 2,
    modifiers: Modifiers = _NO_MODIFIERS,
    play: int | None = 1,
    buy: int | None = 1,
    set_: str = "test",
    **kw: Any,
) -> Card:
    return Card(
        name,
        set_,
        CardType.EQUIPMENT,
        buy=buy,
        play=play,
        durability=durability,
        modifiers=modifiers,
        **kw,
    )


def potion(
    name: str = "Tonic",
    *,
    free: Sequence[FreeAction] = (),
    play: int | None = 1,
    buy: int | None = 1,
    set_: str = "test",
    **kw: Any,
) -> Card:
    return Card(name, set_, CardType.POTION, buy=buy, play=play, free_actions=tuple(free), **kw)


def intention(name: str = "Doom", *effects: Effect, set_: str = "tyrant", **kw: Any) -> Card:
    return Card(name, set_, CardType.INTENTION, play=0, effects=tuple(effects), **kw)


def tgt(
    kind: str = "unit", side: str = "any", *, each: bool = False, range_: int | None = None
) -> Target:
    """A Target: tgt("unit", "enemy", range_=3), tgt("self"), tgt("unit", "enemy", each=True)."""
    return Target(TargetKind(kind), Side(side), each, range_)


def eff(
    verb: str, amount: int = 1, target: Target | None = None, card: str | None = None
) -> Effect:
    return Effect(verb, amount, target or Target(), card)


# --- positions -------------------------------------------------------------------------------


def _mark(p: Perm, values: dict[str, int]) -> None:
    """Markers by name (paralysis=1, ...) and other counters (tapped=1, durability=2)."""
    for k, v in values.items():
        if k in tuple(Marker):
            p.markers[Marker(k)] = v
        else:
            setattr(p, k, type(getattr(p, k))(v))  # tapped=1 is True: the field's own type


class Position:
    """A GameState in seat `active`'s action phase, built piece by piece."""

    def __init__(
        self,
        the_board: Board,
        catalog: Iterable[Card] = (),
        *,
        seed: int = 1,
        players: int | None = None,
        pool: Iterable[Card] = (),
        **params: Any,
    ) -> None:
        cat = {c.name.casefold(): c for c in [*catalog, *pool]}
        self.config = GameConfig(
            tuple(pool), cat, the_board, players=players or the_board.players, **params
        )
        s = GameState(self.config, seed)
        s.phase = Phase.ACTION
        s.round = 1
        s.turn = 1
        s.active = 0
        self.state = s

    # cards in zones
    def card(self, card: Card, owner: int, *, token: bool = False) -> int:
        return draft.new_card(self.state, card, owner, token)

    def _zone(self, zone: str, seat: int, cards: Iterable[Card]) -> list[int]:
        ids = [self.card(c, seat) for c in cards]
        getattr(self.state.players[seat], zone).extend(ids)
        return ids

    def hand(self, seat: int, *cards: Card) -> list[int]:
        return self._zone("hand", seat, cards)

    def deck(self, seat: int, *cards: Card) -> list[int]:
        """Cards put on the deck in order; the last one is the top (drawn first)."""
        return self._zone("deck", seat, cards)

    def discard(self, seat: int, *cards: Card) -> list[int]:
        return self._zone("discard", seat, cards)

    def store(self, seat: int, *cards: Card) -> list[int]:
        return self._zone("store", seat, cards)

    def resource(self, seat: int, amount: int) -> Position:
        self.state.players[seat].resource = amount
        return self

    # permanents
    def put(
        self,
        card: Card,
        seat: int,
        x: int,
        y: int,
        *,
        damage: int = 0,
        owner: int | None = None,
        token: bool = False,
        **markers: int,
    ) -> int:
        """A permanent of `seat` on (x, y); markers: paralysis=1, poison=2, tapped=1, ..."""
        cid = self.card(card, seat if owner is None else owner, token=token)
        f = y * self.config.board.width + x
        assert self.state.occ[f] < 0, f"({x},{y}) is taken"
        p = put_onto_board(self.state, cid, seat, f)
        p.damage = damage
        _mark(p, markers)
        return cid

    def stack_on(self, base: int, card: Card, seat: int | None = None, **markers: int) -> int:
        """A permanent put into `base`'s stack (a crew rider, equipped equipment, or the
        equipment of a rider)."""
        b = self.state.perms[base]
        seat = b.controller if seat is None else seat
        cid = self.card(card, seat)
        f = self.state.perm_field(b)
        holder = self.state.occ[f]
        tmp = put_onto_board(self.state, cid, seat, f)
        self.state.occ[f] = holder
        tmp.field = -1
        attach(self.state, b, tmp)
        _mark(tmp, markers)
        return cid

    def idle(self, seat: int = 0, x: int | None = None, y: int | None = None) -> int:
        """Park an IDLE unit for `seat` (default: the last free field)."""
        if x is None or y is None:
            f = max(
                i
                for i, o in enumerate(self.state.occ)
                if o < 0 and self.config.board.fields[i].terrain is Terrain.PLAIN
            )
            x, y = f % self.config.board.width, f // self.config.board.width
        return self.put(IDLE, seat, x, y)

    def perm(self, cid: int) -> Perm:
        return self.state.perms[cid]

    def f(self, x: int, y: int) -> int:
        return y * self.config.board.width + x

    def game(self, *, phase: str | None = None, advance: bool = False) -> Game:
        """Wrap the state in a Game. `phase="start"` with `advance=True` runs a whole turn
        start (R4.1-R4.3) up to the first real decision."""
        if phase is not None:
            self.state.phase = Phase(phase)
        if advance:
            flow.advance(self.state)
        return Game(self.config, self.state.seed, _state=self.state)


# --- reading results -------------------------------------------------------------------------


def texts(actions: Iterable[Action], width: int = 0) -> list[str]:
    return sorted(a.text(width) for a in actions)


def kinds(state: GameState) -> list[str]:
    return [a.kind for a in legal_actions(state)]


def events(state: GameState, kind: str) -> list[tuple[Any, ...]]:
    """(card, target, x, y, amount, detail) of every event of one kind."""
    ev = state.events
    return [
        (ev.card[i], ev.target[i], ev.x[i], ev.y[i], ev.amount[i], ev.detail[i])
        for i in range(len(ev))
        if ev.kind[i] == kind
    ]


def act(
    game: Game,
    kind: str,
    card: int = -1,
    target: int = -1,
    field: int = -1,
    index: int = -1,
    other: int = -1,
    *,
    respond: bool = False,
) -> None:
    """Apply one action, checked against the legal actions; then, unless `respond`, everyone
    passes in the response windows so the stack resolves (R21.6)."""
    game.apply(Action(ActionKind(kind), card, target, field, index, other))
    if not respond:
        play_out(game)


def play_out(game: Game) -> None:
    """Pass in every open response window until the stack is empty or a choice is pending."""
    s = game.state
    while s.priority and not s.pending and not game.is_terminal():
        game.apply(Action(ActionKind.PASS))


IDLE = Card("Idle", "test", CardType.UNIT, life=99, move=0, attack=0, upkeep=0, play=None)
"""A unit that keeps its seat's action phase open (a real choice: activate or pass), so the
flow does not run on into the next turns after the last interesting action of a test."""


def done(game: Game, cid: int) -> None:
    """Tap the activated unit `cid` unless the flow already did (a forced single choice)."""
    if game.state.activated == cid:
        act(game, "tap", cid)
