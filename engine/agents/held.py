"""What a seat's store holds so far in the draft, and the cost curve a drafter wants of it: read
by the drafters (a pick's synergy) and by the projection of the agent's buy steps (the picks
still to come)."""

from __future__ import annotations

from engine.cards import Card, CardType
from engine.state import GameState

CURVE = {1: 0.15, 2: 0.3, 3: 0.3, 4: 0.15, 5: 0.1}
"""Share of the store the drafter wants at each buy price (5 = 5 and more)."""


def bucket(card: Card) -> int:
    """The card's place on the cost curve: its buy price, 1 to 5 (5 = 5 and more)."""
    return max(1, min(5, card.buy or 1))


class Held:
    """What a seat's store holds so far, counted once per pick (not once per card offered)."""

    def __init__(self, s: GameState, seat: int) -> None:
        held = [s.cards[c] for c in s.players[seat].store]
        self.cards = held
        self.n = len(held)
        self.sets: dict[str, int] = {}
        buckets = self.buckets = dict.fromkeys(CURVE, 0)
        sets, unit = self.sets, CardType.UNIT  # a member read is slow on Python 3.11
        units = ranged = crew = 0
        for h in held:
            sets[h.set] = sets.get(h.set, 0) + 1
            buckets[max(1, min(5, h.buy or 1))] += 1  # _bucket
            if h.type is unit:
                units += 1
                ranged += (h.range or 1) > 1
            crew += bool(h.keywords.crew)
        self.units, self.ranged, self.crew = units, ranged, crew
