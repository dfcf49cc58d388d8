"""Victory (R19, R21.12-R21.15, R21.18) and the Tyrant's intentions (R17.2, R17.4, R21.19).

The result stored in `games.winners` must be the one the board's victory condition gives on
the table the events leave; the game ends as soon as that condition holds, and at the round
limit the tie-break decides (R21.13).
"""

from __future__ import annotations

from typing import NamedTuple

from engine.board import TYRANT, TieBreak, VictoryKind
from engine.markers import Marker
from workbench.check.core import GameCheck, Hook

RULE = {
    VictoryKind.VIP: "R19.1",
    VictoryKind.RESOURCE: "R19.2",
    VictoryKind.CAPTURE: "R19.3",
    VictoryKind.BUILDINGS: "R19.4",
    VictoryKind.STAFF: "R21.12",
    VictoryKind.TYRANT: "R21.15",
}


class Outcome(NamedTuple):
    rule: str
    winners: tuple[int, ...]
    what: str


def _last_standing(g: GameCheck, alive: list[int], rule: str, what: str) -> Outcome | None:
    """One team left with what it must keep wins; none left is a draw."""
    teams = {g.t.team(s) for s in alive}
    if len(teams) > 1:
        return None
    return Outcome(rule, teams.pop() if teams else (), what)


def _leaders(g: GameCheck, score: list[int], rule: str, what: str) -> Outcome:
    """R21.13, R21.26: the team with the single highest total wins; a tie is a draw."""
    per_team = team_totals(g, score)
    top = max(per_team.values())
    best = [t for t, v in per_team.items() if v == top]
    return Outcome(rule, best[0] if len(best) == 1 else (), what)


def _first_to(g: GameCheck, score: list[int], rule: str, what: str) -> Outcome:
    """The team of the seat that reached the limit; seats of two teams on it at once draw."""
    top = max(score)
    teams = {g.t.team(s) for s in range(g.info.players) if score[s] == top}
    return Outcome(rule, teams.pop() if len(teams) == 1 else (), what)


def team_totals(g: GameCheck, score: list[int]) -> dict[tuple[int, ...], int]:
    """R21.26: each side's total of its members' `score` (a seat alone without teams)."""
    totals: dict[tuple[int, ...], int] = {}
    for s in range(g.info.players):
        totals[g.t.team(s)] = totals.get(g.t.team(s), 0) + score[s]
    return totals


def _capture(g: GameCheck) -> Outcome | None:
    """R19.3 with R21.26: a side's points are one total against the target; two sides on the
    same top total draw."""
    totals = team_totals(g, g.t.points)
    top = max(totals.values())
    if top < g.t.board.victory.target:
        return None
    best = [t for t, n in totals.items() if n == top]
    rule = "R21.26" if g.t.board.teams else "R19.3"
    return Outcome(rule, best[0] if len(best) == 1 else (), "the capture score was reached")


def outcome(g: GameCheck) -> Outcome | None:
    """The result the board's victory condition gives on the table now, if it gives one."""
    v = g.t.board.victory
    seats = range(g.info.players)
    pieces = g.t.pieces.values()
    if v.kind is VictoryKind.VIP and g.t.vips:
        return _last_standing(
            g,
            [s for s in seats if g.t.vips.get(s, -1) in g.t.pieces],
            "R19.1",
            "a VIP was defeated",
        )
    if v.kind is VictoryKind.BUILDINGS:
        return _last_standing(
            g,
            [
                s
                for s in seats
                if any(p.controller == s and p.card.keywords.building for p in pieces)
            ],
            "R19.4",
            "buildings were destroyed",
        )
    if v.kind is VictoryKind.RESOURCE and max(g.t.resource) >= v.target:
        # R21.26: each player's own resource, teams or not
        return _first_to(g, g.t.resource, "R19.2", "the resource limit was reached")
    if v.kind is VictoryKind.CAPTURE:
        return _capture(g)
    if v.kind is VictoryKind.TYRANT:
        if v.tyrant_goal > 0 and g.t.intentions >= v.tyrant_goal:
            return Outcome("R21.15", (TYRANT,), "the Tyrant's goal was met")
        if g.tyrant_dead:
            killer = max(g.tyrant_killer, 0)
            return Outcome(
                "R21.15",
                tuple(seats) if v.shared_win else g.t.team(killer),
                "the Tyrant was defeated",
            )
    return None


def _round_limit(g: GameCheck) -> Outcome:
    """R21.13: at the round limit the board's tie-break decides between the sides; otherwise a
    draw. On a Tyrant board the players win together (R21.15, unless the board has teams or
    gives the win to who defeats the Tyrant): one side, nobody to compare against, a draw."""
    tb, v = g.t.board.tie_break, g.t.board.victory
    one_side = v.kind is VictoryKind.TYRANT and v.shared_win and not g.t.board.teams
    if tb is TieBreak.NONE or one_side or len({g.t.team(s) for s in range(g.info.players)}) == 1:
        return Outcome("R21.13", (), "the round limit")
    if tb is TieBreak.POINTS:
        score = list(g.t.points)
    elif tb is TieBreak.RESOURCE:
        score = list(g.t.resource)
    else:
        score = [
            sum(1 for p in g.t.pieces.values() if p.controller == s and p.is_unit)
            for s in range(g.info.players)
        ]
    return _leaders(g, score, "R21.13", f"the round limit, most {tb.value}")


def _game_over(g: GameCheck, i: int) -> None:
    """The stored result is the one the rules give."""
    limit = g.t.board.round_limit
    if g.info.guard_stopped:
        want = Outcome("R21.18", (), "the action guard")
    elif g.staff_due >= 0:
        want = Outcome("R21.12", g.t.team(g.staff_due), "the staff held at upkeep")
    else:
        found = outcome(g)
        if found is None and g.ev.round[i] >= limit:
            found = _round_limit(g)
        if found is None:
            g.flag(
                RULE[g.t.board.victory.kind],
                f"the game ended in round {g.ev.round[i]} though no victory condition holds",
            )
            return
        want = found
    stored = tuple(sorted(g.info.winners))
    if tuple(sorted(want.winners)) != stored:
        g.flag(
            want.rule,
            f"the stored result is {_seats(stored)}; {want.what} gives {_seats(want.winners)}",
        )


def _seats(winners: tuple[int, ...]) -> str:
    if not winners:
        return "a draw"
    return "a win for " + ", ".join(
        "the Tyrant" if s == TYRANT else f"seat {s + 1}" for s in winners
    )


DEPENDS = {VictoryKind.RESOURCE: ("gain", "spend", "lose"), VictoryKind.CAPTURE: ("points",)}
"""Event kinds (besides a permanent leaving) after which a victory condition may hold."""


def _dirty(g: GameCheck, i: int) -> None:
    if g.ev.kind[i] in DEPENDS.get(g.t.board.victory.kind, ()):
        g.victory_dirty = True


def _boundary(g: GameCheck, i: int) -> None:
    """Before the next action: a game whose victory condition holds is over."""
    if not g.victory_dirty or g.over:
        return
    g.victory_dirty = False
    found = outcome(g)
    if found is not None and not g.victory_late:
        g.victory_late = True
        g.flag(found.rule, f"the game went on after {found.what}")


def _enter(g: GameCheck, i: int) -> None:
    """R19.1: the board names each seat's VIP among its start placements."""
    if g.ev.phase[i] != "draft":
        return
    for pl in g.t.board.placements:
        if (
            pl.vip
            and pl.card.casefold() == g.ev.card[i].casefold()
            and (pl.x, pl.y) == (g.ev.x[i], g.ev.y[i])
        ):
            g.t.vips[pl.owner] = g.ev.card_id[i]


def _death(g: GameCheck, i: int) -> None:
    """R17.4: the intention marker leaves with its unit; who defeated the Tyrant (R21.15)."""
    p = g.piece(g.ev.card_id[i])
    if p is None:
        return
    if p.card.keywords.tyrant:
        g.tyrant_dead, g.tyrant_killer = True, g.ev.player[i]
    if p.cid == g.t.marker_perm:
        j = i + 1
        if j >= len(g.ev) or g.ev.kind[j] != "marker" or g.ev.detail[j] != "intention removed":
            g.flag(
                "R17.4",
                f"{g.name(p.cid)} left the board with the intention marker on it "
                "and the marker stayed",
            )
    g.victory_dirty = True


def _round(g: GameCheck, i: int) -> None:
    _tyrant_turn_ends(g)
    if g.ev.amount[i] > g.t.board.round_limit:
        g.flag(
            "R21.13", f"round {g.ev.amount[i]} began; the board's limit is {g.t.board.round_limit}"
        )


def _staff_holder(g: GameCheck) -> int:
    """R21.12: the controller of a unit with the staff of victory equipped, or -1."""
    for p in g.t.pieces.values():
        if p.card.keywords.staff and p.under >= 0:
            base = g.piece(p.under)
            if base is not None and base.is_unit and base.controller >= 0:
                return base.controller
    return -1


def _phase(g: GameCheck, i: int) -> None:
    """R21.12: holding the staff at the start of one's upkeep wins before anything else."""
    if g.staff_due >= 0 and not g.over:
        g.flag(
            "R21.12",
            f"seat {g.staff_due + 1} held the staff at the start of its upkeep and "
            "the game went on",
        )
        g.staff_due = -1
    if (
        g.ev.detail[i] == "upkeep"
        and g.active >= 0
        and g.t.board.victory.kind is VictoryKind.STAFF
        and _staff_holder(g) == g.active
    ):
        g.staff_due = g.active


def _intention(g: GameCheck, i: int) -> None:
    """R17.2: an intention only while no intention marker is on the board."""
    if g.t.marker_card >= 0:
        g.flag(
            "R17.2",
            f"{g.ev.card[i]} was played while {g.name(g.t.marker_card)}'s marker is on the board",
        )


def _marker_field(g: GameCheck) -> int:
    marked = g.piece(g.t.marker_perm)
    return g.t.field_of(marked) if marked is not None else g.t.marker_field


def _tyrant_turn(g: GameCheck, i: int) -> None:
    """R21.19: starting its turn adjacent to its marker, the Tyrant carries the intention
    out (R17.3), unless it is paralysed (R13.1: it takes none of its actions)."""
    if g.ev.player[i] != TYRANT:
        return
    tyrant = next((p for p in g.t.pieces.values() if p.card.keywords.tyrant), None)
    mf = _marker_field(g) if g.t.marker_card >= 0 else -1
    if (
        tyrant is not None
        and mf >= 0
        and tyrant.markers[Marker.PARALYSIS] == 0
        and g.t.grid.dist(g.t.field_of(tyrant), mf) <= 1
    ):
        g.tyrant_due = tyrant.cid


def _tyrant_turn_ends(g: GameCheck) -> None:
    if g.tyrant_due >= 0:
        g.flag(
            "R21.19",
            "the Tyrant started its turn next to its intention marker and did not "
            "carry the intention out",
        )
        g.tyrant_due = -1


def _tyrant_acts(g: GameCheck, i: int) -> None:
    """R21.19: the Tyrant never attacks the permanent carrying its own intention marker, and
    when it is due to carry the intention out it does nothing else first."""
    cid = g.ev.card_id[i]
    if cid == g.tyrant_due:
        _tyrant_turn_ends(g)
    p = g.piece(cid)
    if (
        g.ev.kind[i] == "combat"
        and p is not None
        and p.card.keywords.tyrant
        and g.ev.target_id[i] >= 0
        and g.ev.target_id[i] == g.t.marker_perm
    ):
        g.flag(
            "R21.19",
            f"the Tyrant attacked {g.name(g.ev.target_id[i])}, which carries its intention marker",
        )


def _carried_out(g: GameCheck, i: int) -> None:
    g.tyrant_due = -1
    g.victory_dirty = True


def _takes_full_action(g: GameCheck, i: int) -> None:
    """R21.19: the Tyrant due to carry the intention out announces the full action of R17.3;
    that is taking it, even if a response then removes the marker (R17.4) and the action
    fizzles (R6.4)."""
    if g.ev.card_id[i] == g.tyrant_due and g.ev.detail[i] == "intention":
        g.tyrant_due = -1


def _full_action(g: GameCheck, i: int) -> None:
    """R17.3: the marker gives the adjacent unit its full action; the Tyrant carries the
    intention out from next to the marker."""
    if g.ev.detail[i] != "intention carried out":
        return
    tyrant = next((p for p in g.t.pieces.values() if p.card.keywords.tyrant), None)
    mf = _marker_field(g)
    if tyrant is not None and mf >= 0 and g.t.grid.dist(g.t.field_of(tyrant), mf) > 1:
        g.flag(
            "R17.3",
            f"the Tyrant carried out {g.ev.card[i]} from "
            f"{g.t.grid.xy(g.t.field_of(tyrant))}, not next to its marker at "
            f"{g.t.grid.xy(mf)}",
        )


def _over(g: GameCheck, i: int) -> None:
    _tyrant_turn_ends(g)
    _game_over(g, i)


BEFORE: dict[str, list[Hook]] = {
    "game_over": [_over],
    "death": [_death],
    "destroy": [_death],
    "round": [_round],
    "phase": [_boundary, _phase],
    "intention": [_intention],
    "turn": [_boundary, _tyrant_turn],
    "move": [_tyrant_acts],
    "combat": [_tyrant_acts],
    "intentions": [_carried_out],
    "marker": [_full_action],
    "announce": [_takes_full_action],
    **{k: [_boundary] for k in ("resolve", "activate", "play", "end_turn")},
}
AFTER: dict[str, list[Hook]] = {
    "enter": [_enter],
    **{k: [_dirty] for k in ("gain", "spend", "lose", "points")},
}
