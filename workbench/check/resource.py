"""The resource (R1.6, R18): never below 0, and its running balance (income + gains - spending
- losses) equal to what each turn's snapshot stored; every cost paid in full (R5.3, R6.2,
R6.4, R7.1, R8.6).

The two balance checks run in SQL over every game of a run at once (a window sum per game and
seat); the cost checks look at single events during the walk.
"""

from __future__ import annotations

import duckdb

from engine.vocab import DiscardReason, ResourceReason
from workbench.check.core import GameCheck, Hook, Violation

PAID_FOR: dict[str, str] = {
    ResourceReason.PLAY: "play",
    ResourceReason.BUY: "buy",
    ResourceReason.UPKEEP: "upkeep",
}
"""A `spend` event's reason -> the event kind that must follow it (the thing paid for)."""


def balances(con: duckdb.DuckDBPyConnection, low: int, high: int) -> list[Violation]:
    """R18.1: the resource of each seat, summed from its events in order, never goes below 0
    and equals the stored snapshot at the end of each of its turns."""
    con.execute(f"""
        CREATE OR REPLACE TEMP TABLE referee_balance AS
        SELECT game_id, seq, round, turn, player, kind, amount,
               sum(CASE kind WHEN 'gain' THEN amount WHEN 'end_turn' THEN 0 ELSE -amount END)
                   OVER (PARTITION BY game_id, player ORDER BY seq
                         ROWS UNBOUNDED PRECEDING) AS balance
        FROM events
        WHERE game_id BETWEEN {low} AND {high} AND player >= 0
          AND kind IN ('gain', 'spend', 'lose', 'end_turn')""")
    negative = con.execute("""
        SELECT game_id, turn, seq, player, balance, kind, amount FROM referee_balance
        WHERE balance < 0
        QUALIFY row_number() OVER (PARTITION BY game_id, player ORDER BY seq) = 1
        ORDER BY game_id, seq""").fetchall()
    out = [
        Violation(
            gid, turn, seq, "R18.1", f"seat {seat + 1}'s resource fell to {bal} ({kind} {amount})"
        )
        for gid, turn, seq, seat, bal, kind, amount in negative
    ]
    broken = con.execute("""
        SELECT b.game_id, b.turn, b.seq, b.player, b.balance, s.resource
        FROM referee_balance b JOIN snapshots s
          ON s.game_id = b.game_id AND s.player = b.player AND s.round = b.round
        WHERE b.kind = 'end_turn' AND s.resource <> b.balance
        ORDER BY b.game_id, b.seq""").fetchall()
    out += [
        Violation(
            gid,
            turn,
            seq,
            "R18.1",
            f"seat {seat + 1} ended its turn with "
            f"{stored} resource stored, but its income, "
            f"gains and spending give {bal}",
        )
        for gid, turn, seq, seat, bal, stored in broken
    ]
    con.execute("DROP TABLE referee_balance")
    return out


def _paid_before(g: GameCheck, i: int, reason: ResourceReason, rule: str, what: str) -> None:
    """The cost of `what` (the event's amount) was spent right before it."""
    cost = g.ev.amount[i]
    j = i - 1
    if cost > 0 and not (
        g.ev.kind[j] == "spend"
        and g.ev.detail[j] == reason
        and g.ev.amount[j] == cost
        and g.ev.player[j] == g.ev.player[i]
    ):
        g.flag(rule, f"seat {g.ev.player[i] + 1} did not pay {cost} for {what}")


def _play(g: GameCheck, i: int) -> None:
    """R6.2: only a card with a play cost is played, by paying it (R6.4)."""
    name = g.ev.card[i]
    card = g.info.cards.get(name.casefold())
    if card is None:
        return
    if card.play is None:
        g.flag("R6.2", f"{name} has no play cost but was played")
    elif g.ev.amount[i] != card.play:
        g.flag("R6.2", f"{name} was played for {g.ev.amount[i]}; its play cost is {card.play}")
    _paid_before(g, i, ResourceReason.PLAY, "R6.4", name)


def _buy(g: GameCheck, i: int) -> None:
    _paid_before(g, i, ResourceReason.BUY, "R7.1", g.ev.card[i])


def _upkeep(g: GameCheck, i: int) -> None:
    if g.ev.detail[i] == "paid":
        _paid_before(g, i, ResourceReason.UPKEEP, "R5.3", f"{g.name(g.ev.card_id[i])}'s upkeep")


def _spend(g: GameCheck, i: int) -> None:
    """Resource spent on a play, a buy or an upkeep goes with that event."""
    follows = PAID_FOR.get(g.ev.detail[i])
    if follows is not None and (
        i + 1 >= len(g.ev) or g.ev.kind[i + 1] != follows or g.ev.game_id[i + 1] != g.info.game_id
    ):
        g.flag(
            "R18.1",
            f"seat {g.ev.player[i] + 1} spent {g.ev.amount[i]} on "
            f"{g.ev.detail[i]} with nothing to show for it",
        )


def _convert_announced(g: GameCheck, i: int) -> None:
    if g.ev.detail[i] == "convert":
        g.converts.setdefault(g.ev.player[i], []).append(0)


def _discarded(g: GameCheck, i: int) -> None:
    """The cost of the seat's latest convert is paid right after it is announced."""
    pending = g.converts.get(g.ev.player[i])
    if pending and g.ev.detail[i] == DiscardReason.EFFECT:
        pending[-1] += 1


def _gain(g: GameCheck, i: int) -> None:
    """R8.6: discard 2 cards: gain 1 resource (the last announced convert resolves first)."""
    if g.ev.detail[i] != ResourceReason.DISCARD_TWO:
        return
    seat = g.ev.player[i]
    pending = g.converts.get(seat)
    discarded = pending.pop() if pending else 0
    if discarded < 2 or g.ev.amount[i] != 1:
        g.flag("R8.6", f"seat {seat + 1} gained {g.ev.amount[i]} for discarding {discarded}")


BEFORE: dict[str, list[Hook]] = {
    "play": [_play],
    "buy": [_buy],
    "upkeep": [_upkeep],
    "spend": [_spend],
    "announce": [_convert_announced],
    "discard": [_discarded],
    "gain": [_gain],
}
AFTER: dict[str, list[Hook]] = {}
