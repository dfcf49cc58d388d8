"""Victory conditions (R19, R21.12-R21.15): checked after every resolution and in upkeep.

On a board with teams (R21.26) a team is one side: it holds areas with its members' units
together, its members' victory points are one total against the target, and it wins together;
a resource race still counts each player's own resource (R19.2). Without teams every seat is a
team of its own (`GameState.players[s].team`)."""

from __future__ import annotations

from engine.board import TYRANT, TieBreak, VictoryKind
from engine.cards import CardType
from engine.state import GameState
from engine.vocab import EventKind, Phase


def end_game(state: GameState, winners: tuple[int, ...], reason: str) -> None:
    """Record the result; `winners` is empty for a draw, (TYRANT,) when the Tyrant wins."""
    if state.winners is not None:
        return
    state.winners = tuple(sorted(winners))
    state.reason = reason
    state.phase = Phase.OVER
    # unresolved actions stay on the stack: their cards keep a zone (R8, every card in one zone)
    state.priority.clear()
    state.pending.clear()
    state.emit(
        EventKind.GAME_OVER,
        -1,
        amount=len(winners),
        detail=reason + ": " + (",".join(str(w + 1) for w in winners) or "draw"),
    )


def team(state: GameState, seat: int) -> tuple[int, ...]:
    t = state.players[seat].team
    return tuple(s for s, pl in enumerate(state.players) if pl.team == t)


def _last_team_standing(state: GameState, alive: list[int], reason: str) -> None:
    teams = {state.players[s].team for s in alive}
    if len(teams) == 1:
        end_game(state, team(state, alive[0]), reason)
    elif not teams:
        end_game(state, (), reason + " (all at once)")


def check_victory(state: GameState) -> None:
    """The board's victory condition (R9.1): R19.1 a VIP defeated, R19.4 the last buildings
    destroyed, R19.2 the resource limit, R19.3 the capture score, R21.15 the Tyrant. The staff
    (R19.5) wins only at the start of its holder's upkeep (R21.12, `staff_holder`)."""
    if state.winners is not None:
        return
    v = state.config.board.victory
    seats = range(len(state.players))
    if v.kind is VictoryKind.VIP:
        _last_team_standing(
            state, [s for s in seats if state.vips.get(s, -1) in state.perms], "VIP defeated"
        )
    elif v.kind is VictoryKind.BUILDINGS:
        alive = [
            s
            for s in seats
            if any(
                p.controller == s and state.cards[p.cid].keywords.building
                for p in state.perms.values()
            )
        ]
        _last_team_standing(state, alive, "buildings destroyed")
    elif v.kind is VictoryKind.RESOURCE:
        best = max(seats, key=lambda s: state.players[s].resource)
        top = state.players[best].resource
        if top >= v.target:
            leaders = {state.players[s].team for s in seats if state.players[s].resource == top}
            end_game(state, team(state, best) if len(leaders) == 1 else (), "resource limit")
    elif v.kind is VictoryKind.CAPTURE:
        # R21.26: a team's members' points are one total against the target
        totals = team_points(state)
        top = max(totals.values())
        if top >= v.target:
            sides = [t for t, n in totals.items() if n == top]
            end_game(
                state,
                tuple(s for s in seats if state.players[s].team == sides[0])
                if len(sides) == 1
                else (),
                "capture points",
            )
    elif v.kind is VictoryKind.TYRANT:
        if state.intentions_done >= v.tyrant_goal > 0:
            end_game(state, (TYRANT,), "the Tyrant's goal")
        elif state.round > 0 and not any(
            state.cards[p.cid].keywords.tyrant for p in state.perms.values()
        ):
            killer = state.killer if state.killer >= 0 else 0
            end_game(
                state, tuple(seats) if v.shared_win else team(state, killer), "the Tyrant defeated"
            )


def team_points(state: GameState) -> dict[int, int]:
    """R21.26: each team's victory points, the sum of its members'."""
    totals: dict[int, int] = {}
    for pl in state.players:
        totals[pl.team] = totals.get(pl.team, 0) + pl.points
    return totals


def area_counts(state: GameState) -> dict[str, dict[int, int]]:
    """R19.3: the units each controller (a seat, or below 0 neutral and the Tyrant) has in
    each capture area that has units; riders on a crew unit are in its field's area (R11.5)."""
    board = state.config.board
    counts: dict[str, dict[int, int]] = {}
    for p in state.perms.values():
        if state.cards[p.cid].type is not CardType.UNIT:
            continue
        where = p.field if p.field >= 0 else state.perm_field(p) if p.under >= 0 else -1
        if where < 0:
            continue
        area = board.fields[where].area
        if area is not None:
            per = counts.setdefault(area, {})
            per[p.controller] = per.get(p.controller, 0) + 1
    return counts


def area_holders(state: GameState) -> dict[str, int]:
    """R19.3, R21.26: each capture area's holder, the team whose members together control
    strictly the most units in it (areas with no units or a tie for the most are left out;
    neutral and Tyrant units count as sides of their own that hold nothing). Two teammates
    with one unit each hold an area against one enemy unit."""
    teams = [pl.team for pl in state.players]
    holders: dict[str, int] = {}
    for area, per in area_counts(state).items():
        sides: dict[int, int] = {}
        for c, n in per.items():
            side = teams[c] if c >= 0 else c - len(teams)  # below every team: never a holder
            sides[side] = sides.get(side, 0) + n
        top = max(sides.values())
        most = [t for t, n in sides.items() if n == top]
        if len(most) == 1 and most[0] >= 0:
            holders[area] = most[0]
    return holders


def score_capture_points(state: GameState, seat: int) -> None:
    """R19.3, R21.14: at the start of its upkeep a player scores 1 per area its side holds
    (R21.26: its team's, on a board with teams)."""
    team = state.players[seat].team
    held = sum(1 for t in area_holders(state).values() if t == team)
    if held:
        state.players[seat].points += held
        state.emit(EventKind.POINTS, seat, amount=held, detail="capture")
    check_victory(state)


def staff_holder(state: GameState) -> int:
    """R19.5, R21.12: the controller of a unit with the staff of victory equipped, or -1."""
    for p in state.perms.values():
        if p.under >= 0 and state.cards[p.cid].keywords.staff:
            base = state.perms[p.under]
            if state.cards[base.cid].type is CardType.UNIT and base.controller >= 0:
                return base.controller
    return -1


def round_limit_reached(state: GameState) -> bool:
    """R21.13: at the round limit the board's tie-break decides between the sides; otherwise
    a draw. All players on one side (a Tyrant board they win together, R21.15) leaves nobody to
    compare against: a draw too (only defeating the Tyrant wins)."""
    board = state.config.board
    if state.round < board.round_limit:
        return False
    seats = range(len(state.players))
    tb = board.tie_break
    if tb is TieBreak.NONE or len({pl.team for pl in state.players}) == 1:
        end_game(state, (), "round limit")
        return True

    def score(s: int) -> int:
        if tb is TieBreak.POINTS:
            return state.players[s].points
        if tb is TieBreak.RESOURCE:
            return state.players[s].resource
        return sum(
            1
            for p in state.perms.values()
            if p.controller == s and state.cards[p.cid].type is CardType.UNIT
        )

    scores = {state.players[s].team: 0 for s in seats}
    for s in seats:
        scores[state.players[s].team] += score(s)
    top = max(scores.values())
    leaders = [t for t, v in scores.items() if v == top]
    if len(leaders) == 1:
        end_game(
            state,
            tuple(s for s in seats if state.players[s].team == leaders[0]),
            f"round limit, most {tb.value}",
        )
    else:
        end_game(state, (), f"round limit, tied on {tb.value}")
    return True
