"""The AI behaviours the rules themselves use: shy and aggressive (R20, R13.3, R13.4, R21.15).

They act at once, without response windows: the rules run them as part of an activation.
"""

from __future__ import annotations

from engine.cards import CardType
from engine.combat import combat
from engine.permanents import (is_swimming, is_veiled, life, max_range, movement, profile,
                               protected_from, relocate, terrain_ok)
from engine.state import GameState, Perm


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
    key = (p.cid, start, move, swimming, tuple(state.occ))
    if state.reach_cache is not None and state.reach_cache[0] == key:
        return state.reach_cache[1]
    only = card.keywords.moves_on
    board = state.config.board

    def passable(f: int) -> bool:
        if state.occ[f] >= 0 or not terrain_ok(state, card, swimming, f):
            return False
        return only is None or board.fields[f].terrain.value in only

    found = state.config.geometry.reach(start, move, passable)
    state.reach_cache = (key, found)
    return found


def step_to(state: GameState, p: Perm, dest: int, path: tuple[int, ...]) -> None:
    """Move along a path found by `destinations` (the behaviours' own move)."""
    if p.under >= 0:
        base = state.perms[p.under]
        base.stack.remove(p.cid)
        p.under = -1
        p.field = -1
    w = state.config.board.width
    state.emit("move", p.controller, p.cid, field_=dest, amount=len(path),
               detail=" ".join(f"{f % w},{f // w}" for f in path))
    relocate(state, p, dest)


def attackable(state: GameState, attacker: Perm, target: Perm) -> bool:
    """Enemy units and solid artifacts (R12.10, R15.4), not veiled or protected (R11.4)."""
    if target.field < 0 or not state.enemies(attacker.controller, target.controller):
        return False
    card = state.cards[target.cid]
    if card.type is not CardType.UNIT and card.keywords.solid is None:
        return False
    return not is_veiled(state, target) and not protected_from(state, target,
                                                               state.cards[attacker.cid])


def run_behaviour(state: GameState, p: Perm, behaviour: str) -> None:
    """Shy (R20.1): end as far as possible from the nearest enemy unit, no attack.
    Aggressive (R20.2): move toward the nearest attackable enemy permanent (ties: the weakest)
    and attack it if in range."""
    geo = state.config.geometry
    here = state.perm_field(p)
    moves = destinations(state, p)
    if behaviour == "shy":
        enemies = [e.field for e in state.perms.values() if e.field >= 0
                   and state.cards[e.cid].type is CardType.UNIT
                   and state.enemies(p.controller, e.controller)]
        if not enemies:
            return

        def safety(f: int) -> int:
            return min(geo.dist(f, e) for e in enemies)
        best = max([here, *moves], key=lambda f: (safety(f), -f))
        if best != here:
            step_to(state, p, best, moves[best])
        return
    targets = [t for t in state.perms.values() if attackable(state, p, t)]
    if not targets:
        return
    target = min(targets, key=lambda t: (geo.dist(here, t.field), life(state, t) - t.damage,
                                         t.cid))
    reach = max_range(profile(state, p))
    if geo.dist(here, target.field) > reach and moves:
        best = min(moves, key=lambda f: (geo.dist(f, target.field), f))
        if geo.dist(best, target.field) < geo.dist(here, target.field):
            step_to(state, p, best, moves[best])
    if geo.dist(state.perm_field(p), target.field) <= max_range(profile(state, p)):
        combat(state, p, target, p.controller)

