"""States and defeat (R12.2, R13): a paralysed unit takes no action but removing a marker
(R13.1), no free action either (R21.22); activation adds a poison marker (R13.2) and spends a
panic or rage marker (R13.3, R13.4); a unit with more damage (or poison markers) than life is
defeated at once, and only then (R12.2, R13.2).
"""

from __future__ import annotations

from engine.markers import Marker
from engine.vocab import DestroyCause
from workbench.check.core import GameCheck, Hook
from workbench.check.table import Piece
from workbench.check.turn import SLOW_VERBS

DEFEATS = (DestroyCause.DAMAGE, DestroyCause.POISON)
"""A permanent destroyed for these was defeated (R12.2, R13.2)."""
ON_ACTIVATION = {Marker.POISON: 1, Marker.PANIC: -1, Marker.RAGE: -1}
"""A marker that changes when its unit is activated, and the change (its rule: `Marker.rule`)."""


def _paralysed(g: GameCheck, p: Piece, what: str) -> None:
    if p.markers[Marker.PARALYSIS] > 0:
        g.flag(
            Marker.PARALYSIS.rule,
            f"{g.name(p.cid)} {what} with {p.markers[Marker.PARALYSIS]} paralysis markers",
        )


def _announce(g: GameCheck, i: int) -> None:
    kind, _, verb = g.ev.detail[i].partition(":")
    if kind == "free":
        _free(g, i)
        return
    p = g.piece(g.ev.card_id[i])
    if kind == "unit" and verb in SLOW_VERBS and p is not None:
        _paralysed(g, p, f"announced its {verb}")


def _free(g: GameCheck, i: int) -> None:
    """R21.22: a paralysed unit takes no free action either, its own or its field's, nor one
    of the equipment on it (a potion, R15.8: sacrificed to pay for its use, it has left the
    board when the action is announced)."""
    cid = g.ev.card_id[i]
    p = g.piece(cid)
    card = p.card if p is not None else g.info.cards.get(g.ev.card[i].casefold())
    under = p.under if p is not None else g.t.left_under.get(cid, -1)
    base = g.piece(under) if card is not None and card.type.is_equipment else None
    unit = base if base is not None and base.is_unit else p
    if unit is None or unit.markers[Marker.PARALYSIS] <= 0:
        return
    what = "its" if unit is p else f"{card.name if card else g.ev.card[i]}'s"
    g.flag(
        "R21.22",
        f"{g.name(unit.cid)} took {what} free action with "
        f"{unit.markers[Marker.PARALYSIS]} paralysis markers",
    )


def _unannounced(g: GameCheck, i: int) -> None:
    """A behaviour's or the Tyrant's move or attack is still an action of the unit."""
    p = g.piece(g.ev.card_id[i])
    verb = "move" if g.ev.kind[i] == "move" else "attack"
    if p is not None and not g.own_action(p.cid, verb, "carry"):
        _paralysed(g, p, f"made a {verb}")


def _activate(g: GameCheck, i: int) -> None:
    p = g.piece(g.ev.card_id[i])
    if p is not None:
        due = [m for m in ON_ACTIVATION if p.markers[m] > 0]
        if Marker.PANIC in due and Marker.RAGE in due:
            # RULES.md leaves panic with rage open; the engine's reading (docs/engine.md): the
            # panic marker goes first, the rage marker waits for a later activation
            due.remove(Marker.RAGE)
        g.activation = (p.cid, due)


def _marker(g: GameCheck, i: int) -> None:
    if g.activation is None or g.ev.card_id[i] != g.activation[0]:
        return
    due = g.activation[1]
    name = g.ev.detail[i]
    if name in due and g.ev.amount[i] == ON_ACTIVATION[Marker(name)]:
        due.remove(Marker(name))


def _activation_done(g: GameCheck) -> None:
    if g.activation is None:
        return
    cid, due = g.activation
    g.activation = None
    if cid in g.t.pieces:
        for marker in due:
            change = ON_ACTIVATION[marker]
            g.flag(
                marker.rule,
                f"{g.name(cid)} was activated with {marker} markers and did not "
                f"{'gain' if change > 0 else 'lose'} one",
            )


def defeated(g: GameCheck, p: Piece) -> bool:
    """R12.2, R13.2: more damage, or more poison markers, than life (a solid artifact's life
    is its X, R15.4)."""
    if not p.is_unit and p.card.keywords.solid is None:
        return False
    life = g.t.life(p)
    return p.damage > life or p.markers[Marker.POISON] > life


def _maybe_defeated(g: GameCheck, i: int) -> None:
    p = g.piece(g.ev.card_id[i])
    if p is not None and defeated(g, p):
        g.defeated.add(p.cid)


def _leaves(g: GameCheck, i: int) -> None:
    """A permanent destroyed for its damage or poison was defeated (R12.2)."""
    p = g.piece(g.ev.card_id[i])
    if p is None:
        return
    g.defeated.discard(p.cid)
    if g.ev.detail[i] in DEFEATS and not defeated(g, p):
        g.flag(
            "R12.2",
            f"{g.name(p.cid)} was destroyed with {p.damage} damage and "
            f"{p.markers[Marker.POISON]} poison markers, life {g.t.life(p)}",
        )


def _boundary(g: GameCheck, i: int) -> None:
    """Before the next action: activation markers done, defeated permanents gone."""
    if g.activation is None and not g.defeated:
        return
    _activation_done(g)
    for cid in sorted(g.defeated):
        p = g.piece(cid)
        if p is not None and defeated(g, p):
            g.flag(
                "R12.2",
                f"{g.name(cid)} stayed on the board with {p.damage} damage and "
                f"{p.markers[Marker.POISON]} poison markers, life {g.t.life(p)}",
            )
    g.defeated.clear()


BEFORE: dict[str, list[Hook]] = {
    "announce": [_boundary, _announce],
    "move": [_unannounced],
    "combat": [_unannounced],
    "activate": [_boundary, _activate],
    "death": [_leaves],
    "destroy": [_leaves],
    **{k: [_boundary] for k in ("play", "phase", "turn", "end_turn")},
}
AFTER: dict[str, list[Hook]] = {"damage": [_maybe_defeated], "marker": [_marker, _maybe_defeated]}
