"""The Tyrant's side (R17, R21.15): intentions, their markers and the Tyrant's own turn.

The game drives it: after the last player each round it plays the top intention when no marker
is on the board (R17.2), moves its unit toward the marker (R20.2) and, adjacent to it, uses the
full action of R17.3 to carry the intention out. Its actions resolve without response windows.
"""

from __future__ import annotations

from engine.behaviours import attackable, destinations, step_to
from engine.board import TYRANT
from engine.combat import combat
from engine.effects import candidates, chosen_spec, resolve
from engine.permanents import life, max_range, profile
from engine.state import GameState, Perm, StackItem


def tyrant_unit(state: GameState) -> Perm | None:
    for p in state.perms.values():
        if state.cards[p.cid].keywords.tyrant:
            return p
    return None


def marker_field(state: GameState) -> int:
    if state.marker_perm >= 0 and state.marker_perm in state.perms:
        return state.perm_field(state.perms[state.marker_perm])
    return state.marker_field


def play_intention(state: GameState, unit: Perm) -> None:
    """R17.2: the top intention puts its marker on its target (the nearest legal one)."""
    if not state.tyrant_deck and state.tyrant_discard:
        state.tyrant_deck = state.tyrant_discard
        state.tyrant_discard = []
        state.rng.shuffle(state.tyrant_deck)
        state.emit("shuffle", TYRANT, amount=len(state.tyrant_deck), detail="tyrant")
    if not state.tyrant_deck:
        return
    cid = state.tyrant_deck.pop()
    spec = chosen_spec(state.cards[cid].effects)
    geo = state.config.geometry
    here = state.perm_field(unit)
    target, field_ = -1, here
    if spec is not None:
        options = [t for t in candidates(state, TYRANT, unit.cid, spec, targeting=True)
                   if t in state.perms]
        if not options:
            state.tyrant_discard.append(cid)
            state.emit("fizzle", TYRANT, cid, detail="intention without target")
            return
        target = min(options, key=lambda t: (geo.dist(here, state.perm_field(state.perms[t])),
                                             t))
        field_ = state.perm_field(state.perms[target])
    state.set_aside.append(cid)
    state.marker_card, state.marker_perm = cid, target
    state.marker_field = field_ if target < 0 else -1
    state.emit("intention", TYRANT, cid, target, field_)


def take_turn(state: GameState) -> None:
    from engine.flow import after_resolution  # flow calls this module: import at use
    unit = tyrant_unit(state)
    if unit is None:
        return
    state.phase = "tyrant"
    state.acting = TYRANT
    state.emit("turn", TYRANT, detail="tyrant")
    unit.used_move = unit.used_attack = False
    if state.marker_card < 0:
        play_intention(state, unit)
    geo = state.config.geometry
    mf = marker_field(state)
    if state.marker_card >= 0 and mf >= 0 and geo.dist(state.perm_field(unit), mf) <= 1:
        resolve_intention(state, StackItem("intention", TYRANT, unit.cid))
    elif state.marker_card >= 0 and mf >= 0:
        moves = destinations(state, unit)
        if moves:
            best = min(moves, key=lambda f: (geo.dist(f, mf), f))
            if geo.dist(best, mf) < geo.dist(state.perm_field(unit), mf):
                step_to(state, unit, best, moves[best])
        attack_in_range(state, unit)
    after_resolution(state)


def attack_in_range(state: GameState, unit: Perm) -> None:
    """After moving, the Tyrant attacks an enemy in range as R20.2 chooses (the weakest of the
    nearest)."""
    geo = state.config.geometry
    here = state.perm_field(unit)
    reach = max_range(profile(state, unit))
    targets = [t for t in state.perms.values() if attackable(state, unit, t)
               and geo.dist(here, t.field) <= reach]
    if targets:
        t = min(targets, key=lambda t: (geo.dist(here, t.field), life(state, t) - t.damage,
                                        t.cid))
        combat(state, unit, t, TYRANT)


def resolve_intention(state: GameState, item: StackItem) -> None:
    """R17.3: remove the marker and apply the intention's effect; the card is discarded."""
    cid, target = state.marker_card, state.marker_perm
    state.emit("marker", TYRANT, cid, target, detail="intention carried out")
    state.set_aside.remove(cid)
    state.marker_card = state.marker_perm = state.marker_field = -1
    resolve(state, TYRANT, item.source, state.cards[cid].effects, target)
    state.tyrant_discard.append(cid)
    state.intentions_done += 1
    state.emit("intentions", TYRANT, amount=state.intentions_done)
