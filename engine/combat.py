"""Combat (R12.10, R12.11, R21.10): both sides deal their damage at once."""

from __future__ import annotations

from engine.cards import CardType
from engine.permanents import damage_at, deal_damage, max_range, profile
from engine.state import GameState, Perm
from engine.vocab import DamageCause, EventKind


def combat(state: GameState, attacker: Perm, defender: Perm, player: int) -> tuple[int, int]:
    """Resolve one combat; returns (damage taken by the defender, by the attacker).

    The attacker deals its stack's attack at the distance d (R12.7). The defender strikes back
    with its own damage at d only if the attacker stands within its range (R12.11, R21.10);
    artifacts and buildings do not strike back. Deaths are checked afterwards by the flow, so
    simultaneous deaths happen (R12.11).
    """
    geo = state.config.geometry
    d = geo.dist(state.perm_field(attacker), state.perm_field(defender))
    dealt = damage_at(profile(state, attacker), d)
    back = 0
    if state.cards[defender.cid].type is CardType.UNIT:
        dprof = profile(state, defender)
        if d <= max_range(dprof):
            back = damage_at(dprof, d)
    a_card, d_card = state.cards[attacker.cid], state.cards[defender.cid]
    taken = deal_damage(state, defender, dealt, a_card, player, DamageCause.ATTACK)
    returned = deal_damage(
        state, attacker, back, d_card, defender.controller, DamageCause.RETALIATION
    )
    state.emit(
        EventKind.COMBAT,
        player,
        attacker.cid,
        defender.cid,
        state.perm_field(defender),
        amount=taken,
        detail=f"distance {d}; dealt {dealt}; back {back}; took {returned}",
    )
    return taken, returned
