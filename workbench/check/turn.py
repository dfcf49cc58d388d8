"""Each turn's structure (R4, R21.3, R21.4): the steps in order, the deck refilled only when
empty, the hand drawn up to 3; income (R5.1, R18.2); upkeep paid or the unit defeated (R5.3,
R21.7, R21.16, R21.21); slow actions only in one's own action phase (R6.5, R6.8); a unit's one
move and one attack (R12.4); buying (R7).
"""

from __future__ import annotations

import duckdb

from engine.board import TYRANT
from engine.markers import Marker
from engine.vocab import ResourceReason
from workbench.check.core import GameCheck, Hook, Violation
from workbench.check.table import Piece

HAND_SIZE = 3
"""R4.2: draw until the hand holds 3 cards."""

STEPS = {
    "start": "R4.1",
    "upkeep": "R4.3",
    "upkeep_pay": "R5.3",
    "main": "R4.4",
    "buy": "R4.5",
    "discard": "R4.6",
}
"""The steps of a turn in their order (R4), each with the rule that puts it there; a phase the
engine names otherwise is not judged here."""

SLOW_VERBS = ("move", "attack", "full", "carry", "swap", "equip")


# --- the steps in order, the draw (R4.1, R4.2, R21.3) ------------------------------------------


def _turn(g: GameCheck, i: int) -> None:
    seat = g.ev.player[i]
    if seat >= 0:
        g.drawing = (g.t.hand[seat], g.t.deck[seat], False)


def _phase(g: GameCheck, i: int) -> None:
    phase = g.ev.detail[i]
    if phase not in STEPS or g.ev.player[i] < 0:
        return
    order = list(STEPS).index(phase)
    if phase == "start":  # a new turn (its `turn` event follows)
        g.step = -1
    if order <= g.step:
        g.flag(STEPS[phase], f"the turn entered step {phase!r} after a later step")
    g.step = order
    if phase == "upkeep":
        _drawn(g)
    if phase in ("buy", "discard"):
        _upkeep_window_closes(g)


def _drawn(g: GameCheck) -> None:
    """R4.1, R4.2, R21.3: at the end of the start step the hand holds 3 unless the deck ran
    out (it is refilled only when empty at R4.1); never more cards were drawn than it took."""
    if g.drawing is None:
        return
    seat, (before, deck_before, shuffled) = g.active, g.drawing
    g.drawing = None
    hand, deck, discard = g.t.hand[seat], g.t.deck[seat], g.t.discard[seat]
    if hand - before > max(0, HAND_SIZE - before):
        g.flag("R4.2", f"seat {seat + 1} drew {hand - before} cards with {before} in hand")
    elif hand < HAND_SIZE and deck > 0:
        g.flag("R4.2", f"seat {seat + 1} holds {hand} cards with {deck} left in the deck")
    elif deck_before == 0 and discard > 0 and not shuffled:
        g.flag(
            "R4.1",
            f"seat {seat + 1}'s deck was empty and its discard pile ({discard}) "
            "was not shuffled into it",
        )


def _shuffle(g: GameCheck, i: int) -> None:
    """R4.1, R21.3: only an empty deck is refilled, only in the start step, from the whole
    discard pile."""
    seat = g.ev.player[i]
    if seat < 0:
        return
    if g.ev.phase[i] != "start" or g.drawing is None:
        g.flag("R21.3", f"seat {seat + 1}'s discard pile was shuffled outside R4.1")
        return
    if g.t.deck[seat] != 0:
        g.flag("R4.1", f"seat {seat + 1} shuffled with {g.t.deck[seat]} cards still in the deck")
    if g.ev.amount[i] != g.t.discard[seat] + g.t.deck[seat]:
        g.flag(
            "R4.1",
            f"the new deck has {g.ev.amount[i]} cards; the discard pile held {g.t.discard[seat]}",
        )
    g.drawing = (g.drawing[0], g.drawing[1], True)


# --- income and upkeep (R5, R18.2, R21.7, R21.16) -----------------------------------------------


def income_due(g: GameCheck, seat: int) -> int:
    """R5.1, R18.2: the board's income, its unit income per own unit on the board, and +N for
    every income field one of the seat's units stands on (docs/boards.md `$`)."""
    b = g.t.board
    units = [p for p in g.t.pieces.values() if p.controller == seat and p.is_unit]
    fields = {p.field for p in units if p.field >= 0}
    return b.income + b.unit_income * len(units) + sum(b.fields[f].income for f in fields)


def _upkeep_start(g: GameCheck, i: int) -> None:
    """A negative income takes at most the resource the seat holds (R18.1: never below 0)."""
    if g.ev.detail[i] == "upkeep" and g.active >= 0:
        g.income_got = 0
        g.income_due = max(income_due(g, g.active), -g.t.resource[g.active])


def _income(g: GameCheck, i: int) -> None:
    if g.ev.detail[i] == ResourceReason.INCOME and g.ev.phase[i] == "upkeep":
        g.income_got += g.ev.amount[i] if g.ev.kind[i] == "gain" else -g.ev.amount[i]


def _upkeep_pay(g: GameCheck, i: int) -> None:
    """The upkeep step's income is complete: compare it; the upkeep triggers resolve next
    (R5.2), and only then are the units due (`_payments_begin`)."""
    if g.ev.detail[i] != "upkeep_pay" or g.active < 0:
        return
    seat, due = g.active, g.income_due
    if g.income_got != due:
        g.flag(
            "R18.2" if g.t.board.unit_income or due != g.t.board.income else "R5.1",
            f"seat {seat + 1} received {g.income_got} income, the board gives {due}",
        )
    g.upkeep_due, g.upkeep_refused = set(), set()
    g.upkeep_open, g.upkeep_fixed = True, False


def _payments_begin(g: GameCheck) -> None:
    """R5.2 before R5.3: once the upkeep triggers (and the responses to them) have resolved,
    every unit the seat controls with an upkeep cost is due a decision (0 or none: nothing to
    pay, R21.16) -- a unit a trigger created too; one that enters while the player pays is not
    (docs/engine.md). Called at the first event after the triggers: the next step, a payment,
    or an action a player announces on an empty stack."""
    if not g.upkeep_open or g.upkeep_fixed or g.stack:
        return
    g.upkeep_fixed = True
    g.upkeep_due = {
        p.cid
        for p in g.t.pieces.values()
        if p.controller == g.active and p.is_unit and (p.card.upkeep or 0) > 0
    }


def _upkeep_step_ends(g: GameCheck, i: int) -> None:
    if g.ev.detail[i] != "upkeep_pay":
        _payments_begin(g)


def _upkeep_announce(g: GameCheck, i: int) -> None:
    if not g.ev.detail[i].startswith("trigger"):  # a trigger's trigger is still R5.2
        _payments_begin(g)


def _upkeep(g: GameCheck, i: int) -> None:
    _payments_begin(g)
    cid, p = g.ev.card_id[i], g.piece(g.ev.card_id[i])
    if cid not in g.upkeep_due:
        g.flag("R5.3", f"an upkeep decision for {g.name(cid)}, which owed none now")
        return
    g.upkeep_due.discard(cid)
    cost = (p.card.upkeep or 0) if p else 0
    if g.ev.amount[i] != cost:
        g.flag("R5.3", f"{g.name(cid)}'s upkeep was taken as {g.ev.amount[i]}, it costs {cost}")
    if g.ev.detail[i] == "refused":
        g.upkeep_refused.add(cid)


def _left(g: GameCheck, i: int) -> None:
    cid = g.ev.card_id[i]
    g.upkeep_due.discard(cid)
    g.upkeep_refused.discard(cid)


def _upkeep_window_closes(g: GameCheck) -> None:
    """R4.3 before R4.4: once the seat acts (or the action phase ends) every decision is made
    and every unit not paid for is gone (R5.3, R21.7)."""
    if not g.upkeep_open:
        return
    _payments_begin(g)
    g.upkeep_open = False
    for cid in sorted(g.upkeep_due):
        if cid in g.t.pieces:
            g.flag("R5.3", f"{g.name(cid)}'s upkeep was neither paid nor refused")
    for cid in sorted(g.upkeep_refused):
        if cid in g.t.pieces:
            g.flag("R5.3", f"{g.name(cid)}'s upkeep was not paid and it stayed on the board")
    g.upkeep_due, g.upkeep_refused = set(), set()


# --- slow actions and a unit's actions (R6.5, R6.8, R12.4, R13.1) -------------------------------


def _slow(g: GameCheck, i: int, what: str) -> None:
    """R6.5: slow actions only by the active player, in their action phase, on an empty
    stack."""
    seat = g.ev.player[i]
    if seat != g.active or g.ev.phase[i] != "main" or g.stack:
        where = "with the stack not empty" if g.stack else f"in step {g.ev.phase[i]!r}"
        g.flag(
            "R6.5",
            f"seat {seat + 1} {what} {where}"
            + (f" of seat {g.active + 1}'s turn" if seat != g.active else ""),
        )


def _play(g: GameCheck, i: int) -> None:
    card = g.info.cards.get(g.ev.card[i].casefold())
    if card is not None and card.is_permanent:
        _upkeep_window_closes(g)
        _slow(g, i, f"played the permanent {g.ev.card[i]}")


def _activate(g: GameCheck, i: int) -> None:
    """R6.8: only an untapped card of the active player is activated, in the action phase."""
    p = g.piece(g.ev.card_id[i])
    if p is None or p.controller != g.active or g.ev.player[i] == TYRANT:
        return  # R21.25: the Tyrant's unit is activated in its own turn
    _upkeep_window_closes(g)
    if p.tapped:
        g.flag("R6.8", f"{g.name(p.cid)} was activated while tapped")
    _slow(g, i, f"activated {g.name(p.cid)}")


def use_action(g: GameCheck, p: Piece, verb: str) -> None:
    """R12.4: one move and one attack per turn; a full action needs both unused; swapping,
    equipping and removing paralysis spend either one (R13.1, R15.3, R15.6)."""
    if verb == "move":
        p.moves += 1
    elif verb == "attack":
        p.attacks += 1
    elif verb in ("full", "carry"):
        if p.moves or p.attacks or p.either or p.full:
            g.flag("R12.4", f"{g.name(p.cid)} took a full action after using an action")
        p.full += 1
    else:
        p.either += 1
    if p.moves > 1 or p.attacks > 1 or p.moves + p.attacks + p.either + 2 * p.full > 2:
        g.flag(
            "R12.4", f"{g.name(p.cid)} took more than its move and its attack this turn ({verb})"
        )


def _announce(g: GameCheck, i: int) -> None:
    kind, _, verb = g.ev.detail[i].partition(":")
    if kind != "unit":
        return
    p = g.piece(g.ev.card_id[i])
    if p is None:
        return
    _upkeep_window_closes(g)
    if g.ev.player[i] >= 0:  # the Tyrant acts in its own turn (R21.15)
        _slow(g, i, f"used {g.name(p.cid)}'s {verb}")
    if p.controller != g.ev.player[i]:
        g.flag("R6.3", f"seat {g.ev.player[i] + 1} used {g.name(p.cid)}, which it does not control")
    use_action(g, p, verb)


def _unparalyse(g: GameCheck, i: int) -> None:
    """R13.1: removing a paralysis marker spends one of the unit's actions."""
    if g.ev.detail[i] == Marker.PARALYSIS and g.ev.amount[i] < 0:
        p = g.piece(g.ev.card_id[i])
        if p is not None:
            use_action(g, p, "unparalyse")


def _resolve(g: GameCheck, i: int) -> None:
    """R6.9: the last action put on the stack resolves first."""
    top = g.stack[-1] if g.stack else None
    if top is None or top.source != g.ev.card_id[i] or top.kind != g.ev.detail[i]:
        g.flag(
            "R6.9",
            f"{g.ev.detail[i]} {g.ev.card[i] or ''} resolved; the top of the stack "
            f"was {f'{top.kind} c{top.source}' if top else 'nothing'}",
        )


def _unannounced(g: GameCheck, i: int) -> None:
    """R6.9, R21.6: a unit's move or attack is an action and goes on the stack first (the
    Tyrant's and the behaviours' too); it still spends the unit's action (R12.4)."""
    verb = "move" if g.ev.kind[i] == "move" else "attack"
    p = g.piece(g.ev.card_id[i])
    if p is None or g.own_action(p.cid, verb, "carry"):
        return
    g.flag("R6.9", f"{g.name(p.cid)}'s {verb} happened without being put on the stack")
    use_action(g, p, verb)


# --- buying (R7) -----------------------------------------------------------------------------


def _buy(g: GameCheck, i: int) -> None:
    """R7.1-R7.3: in the buy step, from one's own store, a card with a buy price."""
    seat, name = g.ev.player[i], g.ev.card[i]
    card = g.info.cards.get(name.casefold())
    if seat != g.active or g.ev.phase[i] != "buy":
        g.flag("R4.5", f"seat {seat + 1} bought {name} in step {g.ev.phase[i]!r}")
    if g.t.store[seat][name] <= 0:
        g.flag("R7.1", f"seat {seat + 1} bought {name}, which is not in its store")
    if card is None or card.buy is None:
        g.flag("R7.3", f"seat {seat + 1} bought {name}, which has no buy price")
    elif g.ev.amount[i] != card.buy:
        g.flag("R7.1", f"seat {seat + 1} paid {g.ev.amount[i]} for {name}, priced {card.buy}")


def _end_turn(g: GameCheck, i: int) -> None:
    _upkeep_window_closes(g)


def buys_per_turn(con: duckdb.DuckDBPyConnection, low: int, high: int) -> list[Violation]:
    """R7.2: at most one card bought per turn (counted in SQL over a run's games at once)."""
    rows = con.execute(
        """
        SELECT game_id, turn, min(seq), count(*) FROM events
        WHERE kind = 'buy' AND game_id BETWEEN ? AND ?
        GROUP BY game_id, turn HAVING count(*) > 1 ORDER BY game_id, turn""",
        [low, high],
    ).fetchall()
    return [
        Violation(gid, turn, seq, "R7.2", f"{n} cards bought in one turn")
        for gid, turn, seq, n in rows
    ]


BEFORE: dict[str, list[Hook]] = {
    "phase": [_upkeep_step_ends, _phase, _upkeep_start, _upkeep_pay],
    "shuffle": [_shuffle],
    "play": [_play],
    "activate": [_activate],
    "announce": [_upkeep_announce, _announce],
    "marker": [_unparalyse],
    "buy": [_buy],
    "upkeep": [_upkeep],
    "gain": [_income],
    "lose": [_income],
    "end_turn": [_end_turn],
    "resolve": [_resolve],
    "move": [_unannounced],
    "combat": [_unannounced],
}
AFTER: dict[str, list[Hook]] = {"turn": [_turn], "death": [_left], "destroy": [_left]}
