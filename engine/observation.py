"""What one player may see (R8.2, R8.3): own hand; every discard pile and store (face up); the
board; sizes of hidden zones. Other hands and every deck's order stay hidden."""

from __future__ import annotations

from dataclasses import dataclass

from engine.state import GameState
from engine.vocab import Phase


@dataclass(frozen=True)
class PermanentView:
    card: str
    controller: int
    x: int
    y: int
    damage: int
    markers: tuple[tuple[str, int], ...]
    stack: tuple[str, ...]
    tapped: bool


@dataclass(frozen=True)
class Observation:
    player: int
    phase: Phase
    round: int
    active: int
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    deck_sizes: tuple[int, ...]
    discards: tuple[tuple[str, ...], ...]
    stores: tuple[tuple[str, ...], ...]
    resources: tuple[int, ...]
    points: tuple[int, ...]
    permanents: tuple[PermanentView, ...]
    stack: tuple[str, ...]
    pack: tuple[str, ...]


def observe(state: GameState, player: int) -> Observation:
    names = state.cards
    perms = []
    for cid in sorted(state.perms):
        p = state.perms[cid]
        f = state.perm_field(p)
        x, y = state.xy(f) if f >= 0 else (-1, -1)
        markers = tuple((m.value, n) for m, n in p.markers.items() if n)
        perms.append(
            PermanentView(
                names[cid].name,
                p.controller,
                x,
                y,
                p.damage,
                markers,
                tuple(names[c].name for c in p.stack),
                p.tapped,
            )
        )
    pls = state.players
    pack: tuple[str, ...] = ()
    if state.phase == Phase.DRAFT and state.draft_seat == player:
        pack = tuple(sorted(names[c].name for c in state.packs[player]))
    return Observation(
        player,
        state.phase,
        state.round,
        state.active,
        tuple(sorted(names[c].name for c in pls[player].hand)) if player >= 0 else (),
        tuple(len(p.hand) for p in pls),
        tuple(len(p.deck) for p in pls),
        tuple(tuple(sorted(names[c].name for c in p.discard)) for p in pls),
        tuple(tuple(sorted(names[c].name for c in p.store)) for p in pls),
        tuple(p.resource for p in pls),
        tuple(p.points for p in pls),
        tuple(perms),
        tuple(names[it.source].name if it.source >= 0 else it.kind for it in state.stack),
        pack,
    )
