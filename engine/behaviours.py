"""The AI behaviours the rules themselves use: shy and aggressive (R20, R13.3, R13.4, R21.15).

A behaviour decides a unit's actions; each one is announced on the stack like any other action,
with its response window (R21.6), and the flow asks for the next once it has resolved.
"""

from __future__ import annotations

from typing import Any

from engine.cards import Card, CardType
from engine.permanents import (
    can_take_rider,
    is_swimming,
    is_veiled,
    life,
    max_range,
    movement,
    profile,
    protected_from,
    terrain_ok,
)
from engine.state import BehaviourRun, GameState, Perm, StackItem
from engine.vocab import BehaviourKind, StackKind, UnitVerb


def destinations(state: GameState, p: Perm) -> dict[int, tuple[int, ...]]:
    """Free fields `p` can move to this turn with their paths (R10.3, R12.6).

    The last answer is kept on the state: legal actions and applying the chosen move ask the
    same question about the same position.
    """
    move = movement(state, p)
    if move <= 0:
        return {}
    card = state.cards[p.cid]
    swimming = is_swimming(state, p)
    start = state.perm_field(p)
    only = card.keywords.moves_on
    config = state.config
    geo = config.geometry
    occ = state.occ
    # R10.3: a path costs at least the range distance of each field on it, so only the fields
    # in range `move` can be on one: the answer depends on their occupancy alone (and the
    # board), which recurs across positions and the clones a search plays out, so it is kept
    # across states too
    region = geo.in_range_fields(start, move)
    free = tuple(map(_NEGATIVE, map(occ.__getitem__, region)))
    key = (start, move, swimming, only, free)
    if state.reach_cache is not None and state.reach_cache[0] == key:
        return state.reach_cache[1]
    kept = _REACH.table(geo)
    found = kept.get(key)
    if found is None:
        # right in the region, where alone the search looks
        passable = list(_walkable_of(state, card, swimming, only))
        for f, is_free in zip(region, free, strict=True):
            if not is_free:
                passable[f] = False
        found = kept[key] = geo.reach(start, move, passable)
    state.reach_cache = (key, found)
    return found


_NEGATIVE = (0).__gt__
"""`_NEGATIVE(x)` is `x < 0`: a free field in `GameState.occ`."""


def _walkable(
    state: GameState, card: Card, swimming: bool, only: frozenset[str] | None
) -> tuple[bool, ...]:
    """Per field whether its terrain takes a unit that swims or not and moves only on `only`
    (R9.5, R10.3), whoever stands there."""
    return tuple(
        terrain_ok(state, card, swimming, f) and (only is None or field.terrain.value in only)
        for f, field in enumerate(state.config.board.fields)
    )


def _walkable_of(
    state: GameState, card: Card, swimming: bool, only: frozenset[str] | None
) -> tuple[bool, ...]:
    """`_walkable`, kept per board."""
    terrain = _TERRAIN.table(state.config.geometry)
    walkable = terrain.get((swimming, only))
    if walkable is None:
        walkable = terrain[swimming, only] = _walkable(state, card, swimming, only)
    return walkable


class KeptAnswers:
    """Answers of a pure function kept for one board at a time, at most `size` of them: asking
    about another board drops them, so nothing keeps an old board's data alive (the fuzzer
    plays thousands of boards)."""

    __slots__ = ("answers", "board", "size")

    def __init__(self, size: int) -> None:
        self.size = size
        self.board: object = None
        self.answers: dict[tuple[object, ...], Any] = {}

    def table(self, board: object) -> dict[tuple[object, ...], Any]:
        if board is not self.board or len(self.answers) >= self.size:
            self.board = board
            self.answers = {}
        return self.answers


_REACH = KeptAnswers(4096)
"""`destinations`' answers by (start field, movement, swimming, moves_on, which fields in range
of the movement are free) for the board's geometry: a pure function of them; the entries are
shared, never changed."""
_TERRAIN = KeptAnswers(64)
"""`_walkable`'s answers by (swimming, moves_on) for the board's geometry."""


def path_to(state: GameState, p: Perm, dest: int) -> tuple[int, ...] | None:
    """The cheapest path of `p` to `dest` this turn (R10.3), onto a crew unit too (R12.9), or
    None when it is out of reach."""
    moves = destinations(state, p)
    if dest in moves:
        return moves[dest]
    return path_onto(state, p, dest)


def path_onto(state: GameState, p: Perm, dest: int) -> tuple[int, ...] | None:
    """The cheapest path of `p` onto the crew unit on `dest` (R10.3, R12.9): the last step onto
    it counts against the movement too; None when it is out of reach, or when no crew unit
    with room for `p` stands there (any more: a response may have destroyed it). The direct
    step is a path as well.

    Its own search over free fields with the crew unit's field as the one more to end on: the
    path `destinations` keeps for a field next to it is one cheapest path, and the cheapest
    onto the crew unit may arrive there by another of the same cost whose diagonal steps leave
    the last one costing 1, not 2 (R10.3)."""
    base = state.perms.get(state.occ[dest])
    if base is None or not can_take_rider(state, base, p):
        return None
    geo = state.config.geometry
    here = state.perm_field(p)
    move = movement(state, p)
    if geo.dist(here, dest) > move:  # a path costs at least the range distance (R10.1)
        return None
    card = state.cards[p.cid]
    passable = list(_walkable_of(state, card, is_swimming(state, p), card.keywords.moves_on))
    occ = state.occ
    for f in geo.in_range_fields(here, move):
        if occ[f] >= 0:
            passable[f] = False
    passable[dest] = True  # the rider's field is its crew unit's, whatever the terrain (R11.5)
    return geo.reach(here, move, passable).get(dest)


def attackable(state: GameState, attacker: Perm, target: Perm) -> bool:
    """Enemy units and solid artifacts (R12.10, R15.4), not veiled or protected (R11.4)."""
    if target.field < 0 or not state.enemies(attacker.controller, target.controller):
        return False
    card = state.cards[target.cid]
    if card.type is not CardType.UNIT and card.keywords.solid is None:
        return False
    return not is_veiled(state, target) and not protected_from(
        state, target, state.cards[attacker.cid]
    )


def move_item(state: GameState, p: Perm, dest: int, path: tuple[int, ...]) -> StackItem:
    """A behaviour's move to `dest` along a path `destinations` found, as a unit action."""
    return StackItem(
        StackKind.UNIT,
        p.controller,
        p.cid,
        field=dest,
        verb=UnitVerb.MOVE,
        path=path,
        origin=state.perm_field(p),
    )


def nearest_target(state: GameState, p: Perm, exclude: int = -1) -> Perm | None:
    """R20.2: the nearest enemy permanent `p` can attack (ties: the weakest, then the lowest
    id), other than `exclude`."""
    geo = state.config.geometry
    here = state.perm_field(p)
    targets = [t for t in state.perms.values() if t.cid != exclude and attackable(state, p, t)]
    if not targets:
        return None
    return min(targets, key=lambda t: (geo.dist(here, t.field), life(state, t) - t.damage, t.cid))


def approach(state: GameState, p: Perm, goal: int) -> StackItem | None:
    """R20.2: the move that ends nearest to the field `goal`, if it gets any nearer."""
    moves = destinations(state, p)
    if not moves:
        return None
    geo = state.config.geometry
    best = min(moves, key=lambda f: (geo.dist(f, goal), f))
    if geo.dist(best, goal) >= geo.dist(state.perm_field(p), goal):
        return None
    return move_item(state, p, best, moves[best])


def in_reach(state: GameState, p: Perm, t: Perm) -> bool:
    geo = state.config.geometry
    return geo.dist(state.perm_field(p), t.field) <= max_range(profile(state, p))


def next_action(state: GameState, run: BehaviourRun) -> StackItem | None:
    """The next action of a panic or rage behaviour (R13.3, R13.4), or None when it is done.

    Shy (R20.1): end as far as possible from the nearest enemy unit, no attack. Aggressive
    (R20.2): move toward the nearest attackable enemy permanent (ties: the weakest) and attack
    it if in range. Each action goes on the stack (R21.6); the attack is decided after the move
    has resolved, against the target chosen at the start."""
    p = state.perms.get(run.unit)
    if p is None:
        return None
    if run.kind == BehaviourKind.SHY:
        if run.step > 0:
            return None
        state.behaviour = run._replace(step=1)
        return _shy_move(state, p)
    if run.step == 0:
        # R21.19: the Tyrant never attacks the permanent carrying its own marker, raging too
        spared = state.marker_perm if state.cards[p.cid].keywords.tyrant else -1
        target = nearest_target(state, p, exclude=spared)
        state.behaviour = run = run._replace(step=1, target=target.cid if target else -1)
        if target is not None and not in_reach(state, p, target):
            item = approach(state, p, target.field)
            if item is not None:
                return item
    if run.step == 1:
        state.behaviour = run._replace(step=2)
        t = state.perms.get(run.target)
        if t is not None and attackable(state, p, t) and in_reach(state, p, t):
            return StackItem(
                StackKind.UNIT, p.controller, p.cid, target=t.cid, verb=UnitVerb.ATTACK
            )
    return None


def _shy_move(state: GameState, p: Perm) -> StackItem | None:
    geo = state.config.geometry
    enemies = [
        e.field
        for e in state.perms.values()
        if e.field >= 0
        and state.cards[e.cid].type is CardType.UNIT
        and state.enemies(p.controller, e.controller)
    ]
    if not enemies:
        return None
    here = state.perm_field(p)
    moves = destinations(state, p)

    def safety(f: int) -> int:
        return min(geo.dist(f, e) for e in enemies)

    best = max([here, *moves], key=lambda f: (safety(f), -f))
    return move_item(state, p, best, moves[best]) if best != here else None
