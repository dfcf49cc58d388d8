"""One stored game walked event by event: the referee's table follows the events, and the rule
modules look at each event before and after it changes the table.

`GameCheck` holds the events of one game (columns, as stored), the table, the turn the game is
in, the action stack as the events show it (R6.9), and the small notes the rule modules keep
between events. `APPLY` changes the table for each event kind; it judges nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from engine.board import Board
from engine.cards import Card
from engine.events import EVENT_COLUMNS
from engine.markers import Marker
from workbench.check.table import Piece, Table


class Violation(NamedTuple):
    """One departure from the rules: where (game, turn, event) and which rule."""

    game_id: int
    turn: int
    seq: int
    rule: str
    message: str

    def __str__(self) -> str:
        return f"game {self.game_id} turn {self.turn} event {self.seq}: {self.rule} {self.message}"


class Events:
    """The events of a batch of games as plain column lists (docs/schema.md, events)."""

    COLUMNS = ("game_id", *EVENT_COLUMNS)

    def __init__(self, columns: dict[str, list[object]]) -> None:
        self.game_id: list[int] = columns["game_id"]  # type: ignore[assignment]
        self.seq: list[int] = columns["seq"]  # type: ignore[assignment]
        self.round: list[int] = columns["round"]  # type: ignore[assignment]
        self.turn: list[int] = columns["turn"]  # type: ignore[assignment]
        self.phase: list[str] = columns["phase"]  # type: ignore[assignment]
        self.player: list[int] = columns["player"]  # type: ignore[assignment]
        self.kind: list[str] = columns["kind"]  # type: ignore[assignment]
        self.card: list[str] = columns["card"]  # type: ignore[assignment]
        self.target: list[str] = columns["target"]  # type: ignore[assignment]
        self.x: list[int] = columns["x"]  # type: ignore[assignment]
        self.y: list[int] = columns["y"]  # type: ignore[assignment]
        self.amount: list[int] = columns["amount"]  # type: ignore[assignment]
        self.detail: list[str] = columns["detail"]  # type: ignore[assignment]
        self.card_id: list[int] = columns["card_id"]  # type: ignore[assignment]
        self.target_id: list[int] = columns["target_id"]  # type: ignore[assignment]

    def __len__(self) -> int:
        return len(self.kind)


class Item(NamedTuple):
    """An announced action on the stack (R6.9), as the `announce` event shows it."""

    kind: str
    verb: str
    player: int
    source: int
    target: int
    field: int
    word: str = ""
    """For a triggered action: the trigger's event word (`dies`, `enters`, ...)."""


@dataclass(frozen=True)
class GameInfo:
    """What the `games` table says about a game, and the setup it was played with."""

    game_id: int
    board: Board
    cards: dict[str, Card]
    players: int
    winners: tuple[int, ...]
    guard_stopped: bool
    packs: int
    """Packs the draft deals (R3.2): the draftable copies of the run's pool // pack size."""


@dataclass
class GameCheck:
    """The walk through one game's events; the rule modules read and note here."""

    ev: Events
    info: GameInfo
    t: Table
    violations: list[Violation] = field(default_factory=list)
    i: int = 0
    active: int = -1
    stack: list[Item] = field(default_factory=list)
    resolving: Item | None = None
    """The stack item whose effects the events now show (None between actions)."""
    resolving_card: Card | None = None
    """The card of the resolving item's source."""
    over: bool = False
    # notes the rule modules keep between events
    step: int = -1
    """turn: the latest step of the turn (its index in `turn.STEPS`)."""
    drawing: tuple[int, int, bool] | None = None
    """turn: at the start of a turn, hand and deck before drawing, and whether it shuffled."""
    income_due: int = 0
    income_got: int = 0
    upkeep_open: bool = False
    upkeep_due: set[int] = field(default_factory=set)
    """turn: units owing an upkeep decision (R5.3)."""
    upkeep_fixed: bool = False
    """turn: whether the upkeep triggers have resolved and `upkeep_due` is fixed (R5.2)."""
    upkeep_refused: set[int] = field(default_factory=set)
    converts: dict[int, list[int]] = field(default_factory=dict)
    """resource: per seat, the cards discarded for each of its unresolved converts (R8.6)."""
    touched: dict[tuple[str, int], int] = field(default_factory=dict)
    """ranges: per verb, the permanents the resolving action reached, with the field each
    stood on when that verb's effect first reached it."""
    began: dict[str, dict[int, int]] = field(default_factory=dict)
    """ranges: per verb, the field of every permanent when that verb's effect began (R6.4: an
    `each` effect's matches are fixed then, wherever a drop or a push carries them after)."""
    reach_from: dict[str, list[int]] = field(default_factory=dict)
    """ranges: per verb, the fields the resolving action's ranges counted from when that
    verb's effect began (R6.4, R10.1)."""
    aimed: tuple[int, list[int]] | None = None
    """ranges: the resolving action's chosen target's field and the fields its ranges counted
    from when the action resolved (R6.4: checked then, not again between its effects)."""
    move_from: dict[int, int] = field(default_factory=dict)
    """movement: per unit, the field its move waiting on the stack was announced from."""
    push_step: dict[int, tuple[int, int]] = field(default_factory=dict)
    """movement: the direction of each push in the resolving action (R14.2)."""
    defeated: set[int] = field(default_factory=set)
    """markers: permanents with more damage or poison than life since the last action."""
    activation: tuple[int, list[Marker]] | None = None
    """markers: the activated unit and the markers its activation must still change."""
    capture_due: int | None = None
    capture_areas: list[str] = field(default_factory=list)
    """capture: at the start of an upkeep, the areas the seat holds (R19.3)."""
    staff_due: int = -1
    victory_dirty: bool = False
    victory_late: bool = False
    tyrant_dead: bool = False
    tyrant_killer: int = -1
    tyrant_due: int = -1
    """victory: the Tyrant, if it must carry its intention out this turn (R21.19)."""
    intention_turn: int = -1
    """tyrant: the turn the intention now marked was played in (R21.19)."""
    tyrant_wake: int = -1
    """tyrant: the Tyrant's unit, while it owes the activation that acts on its markers
    (R21.25)."""
    tyrant_instead: Marker | None = None
    """tyrant: panic or rage, when that behaviour has the Tyrant's turn (R21.25)."""
    trigger_words: dict[int, list[str]] = field(default_factory=dict)
    """Per source, the event words of its triggers waiting for a target to be announced."""

    def flag(self, rule: str, message: str) -> None:
        """Note a violation at the event being looked at."""
        self.violations.append(
            Violation(self.info.game_id, self.ev.turn[self.i], self.ev.seq[self.i], rule, message)
        )

    def field_at(self, i: int) -> int:
        """The event's field as an index, -1 if it names none."""
        x = self.ev.x[i]
        return -1 if x < 0 else self.ev.y[i] * self.t.board.width + x

    def own_action(self, cid: int, *verbs: str) -> bool:
        """The events now show the resolution of `cid`'s own announced action (R6.9): a unit
        action with one of `verbs`, or another action of the unit itself (a behaviour's or the
        Tyrant's, however the engine names it) -- not a card, trigger or free action."""
        r = self.resolving
        if r is None or r.source != cid or r.kind in ("card", "trigger", "free", "convert"):
            return False
        return r.kind != "unit" or r.verb in verbs

    def piece(self, cid: int) -> Piece | None:
        return self.t.pieces.get(cid)

    def name(self, cid: int) -> str:
        p = self.t.pieces.get(cid)
        return f"{p.card.name} (c{cid})" if p else f"c{cid}"


Hook = Callable[[GameCheck, int], None]


# --- following the events --------------------------------------------------------------------


def _card(g: GameCheck, i: int) -> Card | None:
    return g.info.cards.get(g.ev.card[i].casefold())


def _enter(g: GameCheck, i: int) -> None:
    card = _card(g, i)
    if card is None:
        return
    cid, player = g.ev.card_id[i], g.ev.player[i]
    if g.ev.phase[i] == "draft":  # R2.4: what the board places at the start
        g.t.owner[cid] = player
    p = Piece(cid, card, player, -1)
    g.t.pieces[cid] = p
    g.t.put(p, g.field_at(i))


def _move(g: GameCheck, i: int) -> None:
    p = g.piece(g.ev.card_id[i])
    if p is not None:
        g.t.put(p, g.field_at(i))


def _stack(g: GameCheck, i: int) -> None:
    """R15.6: an equipped equipment is controlled by its unit's controller (the engine's reading
    in docs/engine.md; it keeps that controller when dropped)."""
    top, base = g.piece(g.ev.card_id[i]), g.piece(g.ev.target_id[i])
    if top is not None and base is not None:
        g.t.attach(top, base)
        if not top.is_unit:
            top.controller = base.controller


def _place(g: GameCheck, i: int) -> None:
    p = g.piece(g.ev.card_id[i])
    if p is not None:
        g.t.drop_origin.pop(p.cid, None)
        g.t.put(p, g.field_at(i))


def _swap(g: GameCheck, i: int) -> None:
    unit, art = g.piece(g.ev.card_id[i]), g.piece(g.ev.target_id[i])
    if unit is None or art is None:
        return
    a, b = unit.field, art.field
    g.t.lift(unit)
    g.t.lift(art)
    g.t.put(art, a)
    g.t.put(unit, b)


def _carry(g: GameCheck, i: int) -> None:
    art = g.piece(g.ev.target_id[i])
    if art is not None:
        g.t.lift(art)
        g.t.drop_origin[art.cid] = g.field_at(i)


def _leave_board(g: GameCheck, i: int) -> None:
    p = g.piece(g.ev.card_id[i])
    if p is not None:
        g.t.remove(p)
        g.t.drop_origin.pop(p.cid, None)


def _damage(g: GameCheck, i: int) -> None:
    p = g.piece(g.ev.card_id[i])
    if p is not None:
        p.damage += g.ev.amount[i]


def _heal(g: GameCheck, i: int) -> None:
    p = g.piece(g.ev.card_id[i])
    if p is not None:
        p.damage -= g.ev.amount[i]


def _marker(g: GameCheck, i: int) -> None:
    detail = g.ev.detail[i]
    if detail.startswith("intention"):  # R17.2, R17.4: the intention marker left the board
        g.t.marker_card = g.t.marker_perm = g.t.marker_field = -1
        if detail == "intention carried out":  # R21.23: the effect is the intention's
            g.resolving_card = _card(g, i)
        return
    p = g.piece(g.ev.card_id[i])
    if p is not None and detail in p.markers:
        p.markers[Marker(detail)] += g.ev.amount[i]


def _intention(g: GameCheck, i: int) -> None:
    g.t.marker_card, g.t.marker_perm = g.ev.card_id[i], g.ev.target_id[i]
    g.t.marker_field = g.field_at(i) if g.ev.target_id[i] < 0 else -1


def _intentions(g: GameCheck, i: int) -> None:
    g.t.intentions = g.ev.amount[i]


def _tap(g: GameCheck, i: int) -> None:
    p = g.piece(g.ev.card_id[i])
    if p is not None:
        p.tapped = True


def _turn(g: GameCheck, i: int) -> None:
    """R21.4: the seat's permanents untap and their actions reset."""
    seat = g.ev.player[i]
    g.active = seat
    g.resolving = None
    for p in g.t.pieces.values():
        if p.controller == seat:
            p.reset_actions()


def _pick(g: GameCheck, i: int) -> None:
    seat = g.ev.player[i]
    g.t.owner[g.ev.card_id[i]] = seat
    g.t.store[seat][g.ev.card[i]] += 1


def _draw(g: GameCheck, i: int) -> None:
    seat = g.ev.player[i]
    g.t.owner.setdefault(g.ev.card_id[i], seat)
    g.t.hand[seat] += 1
    g.t.deck[seat] -= 1


def _play(g: GameCheck, i: int) -> None:
    if g.ev.player[i] >= 0:
        g.t.hand[g.ev.player[i]] -= 1


def _discard(g: GameCheck, i: int) -> None:
    seat = g.ev.player[i]
    g.t.hand[seat] -= 1
    g.t.owner.setdefault(g.ev.card_id[i], seat)
    g.t.to_discard(g.ev.card_id[i])


def _buy(g: GameCheck, i: int) -> None:
    seat = g.ev.player[i]
    g.t.store[seat][g.ev.card[i]] -= 1
    g.t.owner[g.ev.card_id[i]] = seat
    g.t.discard[seat] += 1


def _shuffle(g: GameCheck, i: int) -> None:
    seat = g.ev.player[i]
    if seat >= 0:
        g.t.deck[seat] = g.ev.amount[i]
        g.t.discard[seat] = 0


def _create(g: GameCheck, i: int) -> None:
    cid, seat = g.ev.card_id[i], g.ev.player[i]
    g.t.tokens.add(cid)
    g.t.owner[cid] = seat
    card = _card(g, i)
    if card is not None and not card.is_permanent and seat >= 0:
        g.t.hand[seat] += 1


def _resource(sign: int) -> Hook:
    def apply(g: GameCheck, i: int) -> None:
        seat = g.ev.player[i]
        if seat >= 0:
            g.t.resource[seat] += sign * g.ev.amount[i]

    return apply


def _points(g: GameCheck, i: int) -> None:
    if g.ev.player[i] >= 0:
        g.t.points[g.ev.player[i]] += g.ev.amount[i]


def _waits(g: GameCheck, i: int) -> bool:
    """Whether the trigger of event `i` waits for its controller to choose a target: its amount
    is the number of targets to choose among, 0 when it was announced at once (or fizzled for
    want of a target). One that waits is announced later, after those that did not wait, in
    the order they fired (R6.1, R6.9)."""
    return g.ev.amount[i] > 0


def _trigger(g: GameCheck, i: int) -> None:
    if _waits(g, i):
        g.trigger_words.setdefault(g.ev.card_id[i], []).append(g.ev.detail[i])


def _announce(g: GameCheck, i: int) -> None:
    kind, _, verb = g.ev.detail[i].partition(":")
    source, word = g.ev.card_id[i], ""
    if (
        kind == "trigger"
        and i > 0
        and g.ev.kind[i - 1] == "trigger"
        and not _waits(g, i - 1)
        and g.ev.card_id[i - 1] == source
    ):
        word = g.ev.detail[i - 1]
    elif kind == "trigger":
        words = g.trigger_words.get(source)
        word = words.pop(0) if words else ""
    g.stack.append(Item(kind, verb, g.ev.player[i], source, g.ev.target_id[i], g.field_at(i), word))
    g.resolving = None


def _resolve(g: GameCheck, i: int) -> None:
    """R6.9: the top of the stack resolves; a resolved spell goes to the discard pile."""
    item = g.stack.pop() if g.stack else None
    g.resolving = item
    g.resolving_card = _card(g, i)
    g.touched, g.began, g.reach_from, g.aimed = {}, {}, {}, None
    if item is not None and item.kind == "card":
        card = _card(g, i)
        if card is not None and not card.is_permanent:
            g.t.to_discard(item.source)


def _fizzle(g: GameCheck, i: int) -> None:
    """A permanent card with no room to enter goes to the discard pile; a trigger without a
    target is never announced."""
    if g.ev.detail[i] == "no target":  # its trigger was never queued (`_waits`)
        return
    r = g.resolving
    if r is not None and r.kind == "card" and g.ev.card_id[i] == r.source and g.ev.x[i] >= 0:
        g.t.to_discard(r.source)


def _between_actions(g: GameCheck, i: int) -> None:
    g.resolving = None


def _game_over(g: GameCheck, i: int) -> None:
    g.over = True


APPLY: dict[str, Hook] = {
    "enter": _enter,
    "move": _move,
    "stack": _stack,
    "place": _place,
    "swap": _swap,
    "carry": _carry,
    "push": _move,
    "death": _leave_board,
    "destroy": _leave_board,
    "damage": _damage,
    "heal": _heal,
    "marker": _marker,
    "intention": _intention,
    "intentions": _intentions,
    "tap": _tap,
    "turn": _turn,
    "pick": _pick,
    "draw": _draw,
    "play": _play,
    "discard": _discard,
    "buy": _buy,
    "shuffle": _shuffle,
    "create": _create,
    "gain": _resource(1),
    "spend": _resource(-1),
    "lose": _resource(-1),
    "points": _points,
    "trigger": _trigger,
    "announce": _announce,
    "resolve": _resolve,
    "fizzle": _fizzle,
    "activate": _between_actions,
    "phase": _between_actions,
    "game_over": _game_over,
}
"""How each event kind changes the table; kinds not listed change nothing the referee keeps."""
