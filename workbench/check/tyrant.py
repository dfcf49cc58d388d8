"""The Tyrant's intentions and its unit (R17.1, R21.19, R21.23, R21.25).

An intention is a spell (R17.1): protection from spells keeps its marker off a permanent, a
veiled one cannot be marked either (R11.4, R21.23; the damage its effect deals is checked by
`combat` against the intention). An intention is carried out at the earliest in the Tyrant turn
after the one it was played in (R21.19). The Tyrant's unit is activated at the start of each of
its turns (R21.25): with poison, panic or rage markers on it that activation shows as an
`activate` event before its first action (what the activation must change is `markers`' check);
panic then takes its turn (shy: no attack, no intention carried out), rage too (aggressive: no
intention carried out).
"""

from __future__ import annotations

from engine.board import TYRANT
from engine.markers import Marker
from workbench.check.combat import protected_from
from workbench.check.core import GameCheck, Hook
from workbench.check.table import Piece

ON_WAKE = (Marker.POISON, Marker.PANIC, Marker.RAGE)
"""The markers the Tyrant's activation acts on (R13.2-R13.4)."""


def _tyrant(g: GameCheck) -> Piece | None:
    return next((p for p in g.t.pieces.values() if p.card.keywords.tyrant), None)


def _marked(g: GameCheck, i: int) -> None:
    """R21.23, R11.4: the intention's marker only on a permanent the spell may target; R21.19:
    the turn it was played in."""
    g.intention_turn = g.ev.turn[i]
    p, card = g.piece(g.ev.target_id[i]), g.info.cards.get(g.ev.card[i].casefold())
    if p is None or card is None:
        return
    if any(k.veiled for k in g.t.keywords(p)):
        g.flag("R11.4", f"{card.name}'s marker went onto {g.name(p.cid)}, which is veiled")
    elif protected_from(g, p, card):
        g.flag(
            "R21.23",
            f"{card.name}'s marker went onto {g.name(p.cid)}, which has protection from it "
            "(an intention is a spell)",
        )


def _carried_out(g: GameCheck, i: int) -> None:
    """R21.19: not in the Tyrant turn the intention was played in; R21.25: not while panic or
    rage has its unit's turn."""
    if g.ev.detail[i] != "intention carried out":
        return
    if g.ev.turn[i] == g.intention_turn:
        g.flag(
            "R21.19",
            f"{g.ev.card[i]} was carried out in the Tyrant turn it was played in; it waits "
            "for the next",
        )
    if g.tyrant_instead is not None:
        g.flag(
            "R21.25",
            f"the Tyrant carried out {g.ev.card[i]} while {g.tyrant_instead} had its turn",
        )


def _turn(g: GameCheck, i: int) -> None:
    """R21.25: the Tyrant's unit owes an activation when its turn begins with markers that
    act on it."""
    _woken(g)
    g.tyrant_instead = None
    if g.ev.player[i] != TYRANT:
        return
    t = _tyrant(g)
    if t is not None and any(t.markers[m] > 0 for m in ON_WAKE):
        g.tyrant_wake = t.cid


def _activate(g: GameCheck, i: int) -> None:
    if g.ev.card_id[i] == g.tyrant_wake:
        g.tyrant_wake = -1


def _woken(g: GameCheck) -> None:
    """The Tyrant acts (or its turn ends): it must have been activated first (R21.25)."""
    if g.tyrant_wake < 0:
        return
    p = g.piece(g.tyrant_wake)
    g.tyrant_wake = -1
    if p is not None:
        held = ", ".join(f"{p.markers[m]} {m}" for m in ON_WAKE if p.markers[m] > 0)
        g.flag(
            "R21.25",
            f"the Tyrant's turn began with {held} markers on {g.name(p.cid)}, "
            "which was not activated",
        )


def _acts(g: GameCheck, i: int) -> None:
    if g.ev.player[i] == TYRANT:
        _woken(g)


def _ends(g: GameCheck, i: int) -> None:
    _woken(g)


def _marker(g: GameCheck, i: int) -> None:
    """R21.25 with R13.3, R13.4: a panic or rage marker the Tyrant's activation removes gives
    that behaviour its turn; it need not carry its intention out (R21.19)."""
    p = g.piece(g.ev.card_id[i])
    if (
        g.ev.player[i] == TYRANT
        and p is not None
        and p.card.keywords.tyrant
        and g.activation is not None
        and g.activation[0] == p.cid
        and g.ev.amount[i] < 0
        and g.ev.detail[i] in (Marker.PANIC, Marker.RAGE)
    ):
        g.tyrant_instead = Marker(g.ev.detail[i])
        g.tyrant_due = -1


def _gone(g: GameCheck, i: int) -> None:
    """A Tyrant defeated before it acts (poison at its activation, R13.2, R21.25) owes no full
    action (R21.19)."""
    if g.ev.card_id[i] == g.tyrant_due:
        g.tyrant_due = -1


def _combat(g: GameCheck, i: int) -> None:
    """R21.25 with R13.3, R20.1: a panicking Tyrant runs shy, it does not attack."""
    p = g.piece(g.ev.card_id[i])
    if g.tyrant_instead is Marker.PANIC and p is not None and p.card.keywords.tyrant:
        g.flag("R21.25", f"{g.name(p.cid)} attacked while panic had its turn (shy)")


BEFORE: dict[str, list[Hook]] = {
    "intention": [_marked],
    "turn": [_turn],
    "round": [_ends],
    "game_over": [_ends],
    "activate": [_activate],
    "announce": [_acts],
    "move": [_acts],
    "combat": [_acts, _combat],
    "marker": [_carried_out],
    "death": [_gone],
    "destroy": [_gone],
}
AFTER: dict[str, list[Hook]] = {"marker": [_marker]}
