"""The game as the referee follows it: permanents, zones and counters, changed only by events.

Everything here is rebuilt from the stored events alone (docs/schema.md), one event at a time,
with the referee's own reading of the numbers a permanent has (R12.1, R12.7, R12.8, R15,
R21.11). Nothing is taken from the engine's state or rule code; the card and board
definitions are data, read from the run's stored catalog.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from engine.board import Board, Terrain
from engine.cards import Card, CardType, Keywords
from engine.markers import no_markers
from workbench.check.geometry import Grid


class Piece:
    """A permanent on the board (R11): where it stands, whose it is, what it carries."""

    __slots__ = (
        "attacks",
        "card",
        "cid",
        "controller",
        "damage",
        "either",
        "field",
        "full",
        "markers",
        "moves",
        "stack",
        "tapped",
        "under",
    )

    def __init__(self, cid: int, card: Card, controller: int, field_: int) -> None:
        self.cid = cid
        self.card = card
        self.controller = controller
        self.field = field_
        self.under = -1
        self.stack: list[int] = []
        self.damage = 0
        self.markers = no_markers()  # R13's states, as counts
        self.tapped = False
        self.moves = 0
        self.attacks = 0
        self.either = 0
        self.full = 0

    def reset_actions(self) -> None:
        """R21.4: untapped, with its move and attack unused, at its controller's turn start."""
        self.tapped = False
        self.moves = self.attacks = self.either = self.full = 0

    @property
    def is_unit(self) -> bool:
        return self.card.type is CardType.UNIT


@dataclass
class Table:
    """The referee's picture of one game (a new one per game)."""

    board: Board
    cards: dict[str, Card]
    players: int
    grid: Grid = field(init=False)
    pieces: dict[int, Piece] = field(default_factory=dict)
    occ: dict[int, int] = field(default_factory=dict)
    """Field -> the permanent standing on it (the bottom of a stack)."""
    owner: dict[int, int] = field(default_factory=dict)
    tokens: set[int] = field(default_factory=set)
    left_from: dict[int, int] = field(default_factory=dict)
    """Permanent -> the field it stood on when it left the board (a death's origin, R10.1)."""
    left_under: dict[int, int] = field(default_factory=dict)
    """Permanent -> the one whose stack it was in when it left the board (a potion sacrificed
    to pay for its own use, R15.8)."""
    drop_origin: dict[int, int] = field(default_factory=dict)
    """A dropped or carried permanent waiting to be placed -> the field it is placed around."""
    hand: list[int] = field(init=False)
    deck: list[int] = field(init=False)
    discard: list[int] = field(init=False)
    store: list[Counter[str]] = field(init=False)
    resource: list[int] = field(init=False)
    points: list[int] = field(init=False)
    marker_card: int = -1
    marker_perm: int = -1
    marker_field: int = -1
    intentions: int = 0
    vips: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.grid = Grid(self.board.width, self.board.height)
        n = self.players
        start = sum(count for _, count in self.board.start_cards)
        self.hand, self.deck, self.discard = [0] * n, [start] * n, [0] * n
        self.store = [Counter() for _ in range(n)]
        self.resource, self.points = [0] * n, [0] * n

    # --- where things are --------------------------------------------------------------------

    def base(self, p: Piece) -> Piece:
        """R11.5: the permanent at the bottom of `p`'s stack (`p` itself if it is not in one)."""
        while p.under >= 0:
            p = self.pieces[p.under]
        return p

    def field_of(self, p: Piece) -> int:
        """R11.5: a stack's field is that of the permanent beneath."""
        return self.base(p).field

    def terrain(self, f: int) -> Terrain:
        return self.board.fields[f].terrain

    # --- a permanent's numbers (R12.1, R12.7, R12.8, R21.11) ----------------------------------

    def equipment(self, p: Piece) -> list[Card]:
        if not p.stack:
            return []
        return [self.pieces[c].card for c in p.stack if self.pieces[c].card.type.is_equipment]

    def riders(self, p: Piece) -> list[Piece]:
        if not p.stack:
            return []
        return [self.pieces[c] for c in p.stack if self.pieces[c].is_unit]

    def keywords(self, p: Piece) -> list[Keywords]:
        """The card's keywords and those its equipment grants (R21.11)."""
        if not p.stack:
            return [p.card.keywords]
        return [
            p.card.keywords,
            *(e.modifiers.keywords for e in self.equipment(p) if e.modifiers.keywords is not None),
        ]

    def life(self, p: Piece) -> int:
        """A unit's life with its equipment's; a solid artifact's X (R15.4); others 0."""
        if p.is_unit:
            return (p.card.life or 0) + sum(e.modifiers.life for e in self.equipment(p))
        return p.card.keywords.solid or 0

    def armor(self, p: Piece) -> int:
        """R12.8 with R21.11: armor keywords plus the equipment's armor."""
        return sum(k.armor for k in self.keywords(p)) + sum(
            e.modifiers.armor for e in self.equipment(p)
        )

    def movement(self, p: Piece) -> int:
        return (p.card.move or 0) + sum(e.modifiers.move for e in self.equipment(p))

    def crew(self, p: Piece) -> int:
        return sum(k.crew for k in self.keywords(p))

    def swimming(self, p: Piece) -> bool:
        return any(k.swimming for k in self.keywords(p))

    def attack_of(self, p: Piece) -> tuple[int, int]:
        """One unit's (attack, range) with its equipment (R21.11), before high ground."""
        eq = self.equipment(p)
        return (
            (p.card.attack or 0) + sum(e.modifiers.attack for e in eq),
            (p.card.range or 1) + sum(e.modifiers.range for e in eq),
        )

    def profile(self, p: Piece) -> list[tuple[int, int]]:
        """R12.7: the (attack, range) of every unit in `p`'s stack, `p` included; a ranged unit
        (range > 1, R12.5) on high ground reaches one further (R9.6, R12.12)."""
        if not p.is_unit:
            return []
        high = self.terrain(self.field_of(p)) is Terrain.HIGH_GROUND
        out = []
        for u in (p, *self.riders(p)):
            a, r = self.attack_of(u)
            out.append((a, r + 1 if high and r > 1 else r))
        return out

    def team(self, seat: int) -> tuple[int, ...]:
        """The seats playing together with `seat` (the board's teams; alone otherwise)."""
        for t in self.board.teams:
            if seat in t:
                return tuple(sorted(t))
        return (seat,)

    def enemies(self, a: int, b: int) -> bool:
        """Different sides: the Tyrant (-2) is everyone's enemy, neutral (-1) nobody's."""
        if a == b or a == -1 or b == -1:
            return False
        if a < 0 or b < 0:
            return True
        return b not in self.team(a)

    def fits(self, p: Piece, f: int, moving: bool = True) -> bool:
        """R9.5 terrain: nothing on blocked fields; deep water for swimmers only, and swimmers
        only there; R12.6: a unit that moves only on some fields (when it moves)."""
        t = self.terrain(f)
        if t is Terrain.BLOCKED or (t is Terrain.DEEP_WATER) != self.swimming(p):
            return False
        only = p.card.keywords.moves_on
        return not moving or only is None or t.value in only

    # --- changes -----------------------------------------------------------------------------

    def put(self, p: Piece, f: int) -> None:
        """`p` stands on field `f` from now on (it left any stack and any other field)."""
        self.lift(p)
        p.field = f
        if f >= 0 and f not in self.occ:
            self.occ[f] = p.cid

    def lift(self, p: Piece) -> None:
        """Take `p` off its field or out of the stack it is in; it stands nowhere."""
        if p.under >= 0:
            below = self.pieces.get(p.under)
            if below is not None and p.cid in below.stack:
                below.stack.remove(p.cid)
            p.under = -1
        if p.field >= 0 and self.occ.get(p.field) == p.cid:
            del self.occ[p.field]
        p.field = -1

    def attach(self, top: Piece, base: Piece) -> None:
        """R11.5: `top` joins `base`'s stack."""
        self.lift(top)
        top.under = base.cid
        base.stack.append(top.cid)

    def remove(self, p: Piece) -> None:
        """`p` leaves the board (R11.2): its stack is dropped around its field (R11.6) and its
        card goes to its owner's discard pile unless it is a token or nobody's (R8.8)."""
        here = self.field_of(p)
        if here < 0:  # dropped and not yet placed: it was around its stack's field
            here = self.drop_origin.get(p.cid, -1)
        self.left_under[p.cid] = p.under
        self.lift(p)
        self.left_from[p.cid] = here
        del self.pieces[p.cid]
        for c in p.stack:
            top = self.pieces[c]
            top.under = -1
            top.field = -1
            self.drop_origin[c] = here
        p.stack = []
        self.to_discard(p.cid)

    def to_discard(self, cid: int) -> None:
        owner = self.owner.get(cid, -1)
        if owner >= 0 and cid not in self.tokens:
            self.discard[owner] += 1
