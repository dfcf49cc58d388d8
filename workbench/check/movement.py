"""Where permanents go: moves within reach over available fields (R9.5, R10.2, R10.3, R12.6,
R12.9), a legal move never refused (R6.4, R12.9), units played into the deploy zone (R21.8),
dropped and carried permanents put next to their stack (R11.6, R15.2), swaps and equipping
next to the unit (R15.3, R15.6), pushes in a straight line (R14).
"""

from __future__ import annotations

from engine.markers import Marker
from workbench.check.core import GameCheck, Hook
from workbench.check.table import Piece


def _path(g: GameCheck, text: str) -> list[int]:
    out = []
    for step in text.split():
        x, _, y = step.partition(",")
        out.append(g.t.grid.field(int(x), int(y)))
    return out


def takes_rider(g: GameCheck, base: Piece, rider: Piece) -> bool:
    """R12.9: a crew unit holds up to n other units of its controller in its stack (the
    reading of docs/engine.md)."""
    return (
        base is not rider
        and base.controller == rider.controller
        and base.under < 0
        and len(g.t.riders(base)) < g.t.crew(base)
    )


def _move(g: GameCheck, i: int) -> None:
    """R10.2, R10.3: adjacent steps, every second diagonal step costing two, within the unit's
    movement; every field stepped on available (R9.5, R12.6); the last one free or a crew
    unit with room (R9.2, R12.9)."""
    p = g.piece(g.ev.card_id[i])
    if p is None:
        return
    g.move_from.pop(p.cid, None)
    start, dest = g.t.field_of(p), g.field_at(i)
    path = _path(g, g.ev.detail[i])
    if not path or path[-1] != dest:
        g.flag(
            "R10.2",
            f"{g.name(p.cid)} moved to {g.ev.x[i]},{g.ev.y[i]} by the path {g.ev.detail[i]!r}",
        )
        return
    cost = g.t.grid.path_cost(start, path)
    if cost is None:
        g.flag(
            "R10.2",
            f"{g.name(p.cid)}'s move {g.ev.detail[i]} has a step to a field that is not adjacent",
        )
    elif cost > g.t.movement(p):
        g.flag(
            "R10.3",
            f"{g.name(p.cid)} moved {cost} with movement {g.t.movement(p)} ({g.ev.detail[i]})",
        )
    for f in path:
        occupant = g.piece(g.t.occ.get(f, -1))
        boards = f == dest and occupant is not None and occupant.is_unit
        if not boards and not g.t.fits(p, f):  # a rider's field is its crew unit's (R12.9)
            g.flag(
                "R12.6" if g.t.fits(p, f, moving=False) else "R9.5",
                f"{g.name(p.cid)} stepped on {g.t.grid.xy(f)}, a {g.t.terrain(f).value} "
                "field not available to it",
            )
            break
        if occupant is None or occupant is g.t.base(p):
            continue
        if not occupant.is_unit or not takes_rider(g, occupant, p):
            g.flag(
                "R9.2" if f == dest else "R9.5",
                f"{g.name(p.cid)} {'ended' if f == dest else 'stepped'} on "
                f"{g.t.grid.xy(f)}, where {g.name(occupant.cid)} stands",
            )
            break
    r = g.resolving
    if (
        r is not None
        and r.kind == "unit"
        and r.source == p.cid
        and r.verb == "move"
        and r.field != dest
    ):
        g.flag(
            "R6.4",
            f"{g.name(p.cid)} announced a move to {g.t.grid.xy(r.field)} but went "
            f"to {g.t.grid.xy(dest)}",
        )


def _legal_move(g: GameCheck, p: Piece, dest: int) -> bool:
    """Whether `p` could move to `dest` now (R10.3 over free available fields, R12.9)."""
    occupant = g.piece(g.t.occ.get(dest, -1))
    if dest < 0 or (occupant is None and not g.t.fits(p, dest)):
        return False
    start = g.t.field_of(p)
    if occupant is not None and (
        occupant is g.t.base(p) or not occupant.is_unit or not takes_rider(g, occupant, p)
    ):
        return False
    cost = g.t.grid.cheapest(
        start, dest, lambda f: f not in g.t.occ and g.t.fits(p, f), g.t.movement(p)
    )
    return cost is not None


def _announce(g: GameCheck, i: int) -> None:
    """Note the field a move is announced from (R6.4: its steps start there, R10.3)."""
    p = g.piece(g.ev.card_id[i])
    if g.ev.detail[i] == "unit:move" and p is not None:
        g.move_from[p.cid] = g.t.field_of(p)


def _fizzle(g: GameCheck, i: int) -> None:
    """R6.4: an announced move whose way is still open resolves; R12.9: a unit in a crew stack
    may move off it. A unit no longer on the field it announced the move from (pushed away in
    response) cannot take the steps announced: that move may fizzle."""
    if g.ev.detail[i] != "move" or not g.own_action(g.ev.card_id[i], "move"):
        return
    p = g.piece(g.ev.card_id[i])
    if p is None or g.move_from.pop(p.cid, g.t.field_of(p)) != g.t.field_of(p):
        return
    if not p.markers[Marker.PARALYSIS] and _legal_move(g, p, g.field_at(i)):
        rider = p.under >= 0
        g.flag(
            "R12.9" if rider else "R6.4",
            f"{g.name(p.cid)}'s move to {g.ev.x[i]},{g.ev.y[i]} was refused although it "
            f"was legal{' (a rider moving off its crew unit)' if rider else ''}",
        )


def _enter(g: GameCheck, i: int) -> None:
    """R21.8: a played permanent enters a free available field of its controller's deploy
    zone (equipment played with a unit joins that unit's stack instead, R15.6)."""
    r, cid, f = g.resolving, g.ev.card_id[i], g.field_at(i)
    card = g.info.cards.get(g.ev.card[i].casefold())
    if g.ev.phase[i] == "draft" or card is None or f < 0:
        return
    occupant = g.t.occ.get(f)
    played = r is not None and r.kind == "card" and r.source == cid
    if card.type.is_equipment and occupant is not None and not played:
        return
    seat = g.ev.player[i]
    piece = Piece(cid, card, seat, f)
    if played and g.t.board.fields[f].deploy != seat:
        g.flag(
            "R21.8",
            f"{card.name} entered {g.ev.x[i]},{g.ev.y[i]}, outside seat {seat + 1}'s deploy zone",
        )
    if occupant is not None:
        g.flag(
            "R9.2", f"{card.name} entered {g.ev.x[i]},{g.ev.y[i]}, where {g.name(occupant)} stands"
        )
    elif not g.t.fits(piece, f, moving=False):
        g.flag(
            "R9.5",
            f"{card.name} entered {g.ev.x[i]},{g.ev.y[i]}, a "
            f"{g.t.terrain(f).value} field not available to it",
        )


def _place(g: GameCheck, i: int) -> None:
    """R11.6, R15.2: a dropped or carried permanent goes to an available field in range 1 of
    its stack's (the carrier's) field."""
    p, f = g.piece(g.ev.card_id[i]), g.field_at(i)
    origin = g.t.drop_origin.get(g.ev.card_id[i])
    if p is None or origin is None:
        return
    if g.t.grid.dist(origin, f) > 1:
        g.flag(
            "R11.6",
            f"{g.name(p.cid)} was put on {g.t.grid.xy(f)}, "
            f"{g.t.grid.dist(origin, f)} from {g.t.grid.xy(origin)}",
        )
    if f in g.t.occ or not g.t.fits(p, f, moving=False):
        g.flag("R11.6", f"{g.name(p.cid)} was put on {g.t.grid.xy(f)}, which is not available")


def _swap(g: GameCheck, i: int) -> None:
    """R15.3: a unit swaps fields with an adjacent artifact."""
    unit, art = g.piece(g.ev.card_id[i]), g.piece(g.ev.target_id[i])
    if unit is None or art is None:
        return
    if (
        not art.card.type.is_artifact
        or unit.field < 0
        or art.field < 0
        or g.t.grid.dist(unit.field, art.field) > 1
    ):
        g.flag(
            "R15.3", f"{g.name(unit.cid)} swapped with {g.name(art.cid)}, not an adjacent artifact"
        )


def _stack(g: GameCheck, i: int) -> None:
    """R15.6: a unit equips equipment in range 1."""
    top, base = g.piece(g.ev.card_id[i]), g.piece(g.ev.target_id[i])
    if top is None or base is None or not g.own_action(base.cid, "equip"):
        return
    if (
        not top.card.type.is_equipment
        or top.field < 0
        or g.t.grid.dist(g.t.field_of(base), top.field) > 1
    ):
        g.flag(
            "R15.6", f"{g.name(base.cid)} equipped {g.name(top.cid)}, not an equipment in range 1"
        )


def _push(g: GameCheck, i: int) -> None:
    """R14.1-R14.4, R21.9: one step at a time along one straight line away from the origin (the
    pushing permanent's field when a permanent pushes); onto a free field only; a permanent
    pushed onto a field not available to it is destroyed."""
    p, nxt = g.piece(g.ev.card_id[i]), g.field_at(i)
    if p is None or p.field < 0:
        return
    x0, y0 = g.t.grid.xy(p.field)
    x1, y1 = g.t.grid.xy(nxt)
    step = (x1 - x0, y1 - y0)
    name = g.name(p.cid)
    if max(abs(step[0]), abs(step[1])) != 1:
        g.flag("R14.1", f"{name} was pushed from {x0},{y0} to {x1},{y1}, not one step")
        return
    first = g.push_step.setdefault(p.cid, step)
    r = g.resolving
    pusher = g.piece(r.source) if r is not None else None
    if first != step:
        g.flag("R14.2", f"{name}'s push turned from {first} to {step}")
    elif pusher is not None and pusher.is_unit and g.t.field_of(pusher) >= 0:
        ox, oy = g.t.grid.xy(g.t.field_of(pusher))
        away = ((x0 > ox) - (x0 < ox), (y0 > oy) - (y0 < oy))
        if step != away:
            g.flag(
                "R14.1",
                f"{name} was pushed {step}, not away from the pushing "
                f"{g.name(pusher.cid)} at {ox},{oy}",
            )
    if nxt in g.t.occ:
        g.flag("R14.3", f"{name} was pushed onto {x1},{y1}, where a permanent stands")
    elif not g.t.fits(p, nxt, moving=False):
        j = i + 1
        if j >= len(g.ev) or g.ev.kind[j] not in ("death", "destroy") or g.ev.card_id[j] != p.cid:
            g.flag(
                "R14.4",
                f"{name} was pushed onto {x1},{y1}, a "
                f"{g.t.terrain(nxt).value} field, and was not destroyed",
            )


def _new_resolution(g: GameCheck, i: int) -> None:
    g.push_step = {}


BEFORE: dict[str, list[Hook]] = {
    "announce": [_announce],
    "move": [_move],
    "fizzle": [_fizzle],
    "enter": [_enter],
    "place": [_place],
    "swap": [_swap],
    "stack": [_stack],
    "push": [_push],
    "resolve": [_new_resolution],
}
AFTER: dict[str, list[Hook]] = {}
