"""The draft (R3, R21.1, R21.2): packs of the pack size, each passed to the next seat (or
alternating per pack round when the run says so), pack rounds while enough packs are left and
everyone holds fewer cards than the target, only cards with a buy price.

Read from the `picks` table, which keeps every pack as it was before each pick.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass

import duckdb

from engine.cards import Card
from workbench.check.core import GameCheck, Hook, Violation


@dataclass(frozen=True)
class DraftRules:
    """The run's draft parameters and its pool (runs.params, run_cards)."""

    pack_size: int
    target: int
    alternate: bool
    copies: int
    """Draftable copies in the pool (R3.1: cards with a buy price)."""

    @property
    def packs(self) -> int:
        """R3.2, R3.4: full packs dealt; the rest is out of the game."""
        return self.copies // self.pack_size

    def picks(self, players: int) -> int:
        """R3.3, R21.2: cards each player drafts -- a pack round starts while at least as many
        packs remain as players and every player holds fewer cards than the target."""
        rounds = 0
        while self.packs - rounds * players >= players and rounds * self.pack_size < self.target:
            rounds += 1
        return rounds * self.pack_size


def check_picks(
    con: duckdb.DuckDBPyConnection,
    low: int,
    high: int,
    rules: DraftRules,
    players: dict[int, int],
    cards: dict[str, Card],
) -> list[Violation]:
    """Every pick of the games with ids in [low, high]."""
    out: list[Violation] = []
    rows = con.execute(
        """
        SELECT game_id, pack_round, pick, player, card, pack FROM picks
        WHERE game_id BETWEEN ? AND ? ORDER BY game_id, pack_round, pick, player""",
        [low, high],
    ).fetchall()
    games: dict[int, list[tuple[int, int, int, str, str]]] = defaultdict(list)
    for gid, pack_round, pick, player, card, pack in rows:
        games[gid].append((pack_round, pick, player, card, pack))
    for gid, n in players.items():
        out.extend(_game(gid, games.get(gid, []), rules, n, cards))
    return out


def _game(
    gid: int,
    picks: list[tuple[int, int, int, str, str]],
    rules: DraftRules,
    n: int,
    cards: dict[str, Card],
) -> list[Violation]:
    out: list[Violation] = []

    def flag(rule: str, message: str) -> None:
        out.append(Violation(gid, 0, -1, rule, message))

    rounds: dict[int, dict[int, list[tuple[str, list[str]]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    count: Counter[int] = Counter()
    for pack_round, _, seat, card, contents in picks:
        names = contents.split("|") if contents else []
        rounds[pack_round][seat].append((card, names))
        count[seat] += 1
        if card not in names:
            flag("R3.3", f"round {pack_round}: seat {seat + 1} took {card}, not in its pack")
        known = cards.get(card.casefold())
        if known is None or known.buy is None:
            flag("R3.1", f"seat {seat + 1} drafted {card}, which has no buy price")
    for pack_round, seats in sorted(rounds.items()):
        back = rules.alternate and pack_round % 2 == 0
        for seat, steps in sorted(seats.items()):
            if len(steps[0][1]) != rules.pack_size:
                flag(
                    "R3.2",
                    f"round {pack_round}: seat {seat + 1}'s first pack held "
                    f"{len(steps[0][1])} cards, not {rules.pack_size}",
                )
            came_from = (seat + 1) % n if back else (seat - 1) % n
            before = seats.get(came_from, [])
            for k in range(1, len(steps)):
                if k > len(before):
                    break
                taken, pack = before[k - 1]
                passed = Counter(pack)
                passed[taken] -= 1
                if +passed != Counter(steps[k][1]):
                    flag(
                        "R21.1",
                        f"round {pack_round}, pick {k + 1}: seat {seat + 1}'s pack is "
                        f"not the one seat {came_from + 1} passed on",
                    )
                    break
    want = rules.picks(n)
    for seat in range(n):
        if count[seat] != want:
            flag(
                "R3.3",
                f"seat {seat + 1} drafted {count[seat]} cards; packs of "
                f"{rules.pack_size}, {rules.packs} packs and a target of {rules.target} "
                f"give {want}",
            )
    return out


def _deal(g: GameCheck, i: int) -> None:
    """R3.2: all draftable cards dealt into full packs."""
    if g.ev.amount[i] != g.info.packs:
        g.flag("R3.2", f"{g.ev.amount[i]} packs were dealt; the pool makes {g.info.packs}")


BEFORE: dict[str, list[Hook]] = {"deal": [_deal]}
AFTER: dict[str, list[Hook]] = {}
