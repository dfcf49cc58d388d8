"""What every game state keeps, whatever the cards (R8, R9.2, R9.5, R11.5, R11.6, R18.1).

The property tests and the fuzzer (`workbench/fuzz/`) check these at every decision. They are
facts of the state alone, cheap enough to run after every action of a fuzzed game, and say what
is wrong in words a developer can act on.
"""

from __future__ import annotations

from collections import Counter

from engine.board import Terrain
from engine.cards import CardType
from engine.choices import PlaceChoice
from engine.state import GameState
from engine.vocab import StackKind


def zone_occurrences(state: GameState) -> Counter[int]:
    """How many zone lists hold each card id (the board counts permanents and their stacks)."""
    count: Counter[int] = Counter()
    for pl in state.players:
        for z in (pl.deck, pl.hand, pl.discard, pl.store, pl.equip_next):
            count.update(z)
    count.update(state.perms.keys())
    count.update(
        it.source for it in state.stack if it.kind in (StackKind.CARD, StackKind.PLAY_INTENTION)
    )
    count.update(state.set_aside)
    count.update(state.tyrant_deck)
    count.update(state.tyrant_discard)
    count.update(state.out)
    for p in state.packs:
        count.update(p)
    for p in state.unopened:
        count.update(p)
    return count


def violations(state: GameState) -> list[str]:
    """Every broken invariant of `state`, one line each (empty when all hold)."""
    out: list[str] = []
    occ = zone_occurrences(state)
    n = len(state.cards)
    doubles = {c: k for c, k in occ.items() if k != 1}
    if doubles:
        out.append(f"R8: cards in more than one zone: {doubles}")
    missing = [c for c in range(n) if occ[c] == 0]
    if missing:
        out.append(f"R8: cards in no zone: {missing}")
    lost = [c for c in range(0, n, max(1, n // 25)) if state.zone_of(c) == "nowhere"]
    if lost:
        out.append(f"R8: zone_of finds no zone for {lost}")
    negative = [s for s, pl in enumerate(state.players) if pl.resource < 0]
    if negative:
        out.append(f"R18.1: negative resource of seats {negative}")
    out += _board_violations(state)
    return out


def _board_violations(state: GameState) -> list[str]:
    """R9.2 one permanent per field, R11.5 stacks, R11.6 nobody stands nowhere unless a
    drop waits for its field, R9.5 terrain."""
    out: list[str] = []
    fields = state.config.board.fields
    placing = {pd.card for pd in state.pending if isinstance(pd, PlaceChoice)}
    for cid, p in state.perms.items():
        if p.field >= 0:
            if state.occ[p.field] != cid:
                out.append(
                    f"R9.2: c{cid} stands on field {p.field} but the field holds "
                    f"c{state.occ[p.field]}"
                )
            if p.under >= 0:
                out.append(f"R11.5: c{cid} has a field and is in c{p.under}'s stack")
            out += _terrain_violations(state, cid, fields[p.field].terrain)
        elif p.under >= 0:
            base = state.perms.get(p.under)
            if base is None or cid not in base.stack:
                out.append(f"R11.5: c{cid} is under c{p.under}, whose stack does not hold it")
        elif cid not in placing and state.winners is None:  # the end drops open choices
            out.append(f"R11.6: c{cid} is on the board but stands nowhere")
        for top in p.stack:
            tp = state.perms.get(top)
            if tp is None or tp.under != cid:
                out.append(f"R11.5: c{cid}'s stack holds c{top}, which is not under it")
    for f, cid in enumerate(state.occ):
        if cid >= 0 and (cid not in state.perms or state.perms[cid].field != f):
            out.append(f"R9.2: field {f} holds c{cid}, which does not stand there (a ghost)")
    return out


def _terrain_violations(state: GameState, cid: int, terrain: Terrain) -> list[str]:
    """R9.5: blocked fields hold nothing; a swimming card stands on deep water; an artifact
    that cannot swim never does (a unit may swim by its equipment, so units are left out)."""
    card = state.cards[cid]
    if terrain is Terrain.BLOCKED:
        return [f"R9.5: c{cid} ({card.name}) stands on a blocked field"]
    water = terrain is Terrain.DEEP_WATER
    if card.keywords.swimming and not water:
        return [f"R9.5: c{cid} ({card.name}) swims but stands on {terrain.value}"]
    if water and not card.keywords.swimming and card.type is not CardType.UNIT:
        return [f"R9.5: c{cid} ({card.name}) cannot swim but stands on deep water"]
    return []


def check_invariants(state: GameState) -> None:
    """Raise AssertionError naming every broken invariant."""
    found = violations(state)
    assert not found, "; ".join(found)
