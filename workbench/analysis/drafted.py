"""Drafted and never bought: do drafters take what their players use? (R3, R7)

A seat buys only from its own store (R7.1), so a drafted copy its seat never buys was a pick
spent on nothing. Definitions (per game and seat; copies of a card are interchangeable, and a
seat's buys of a card are credited to its earliest picks of it, so a seat that bought k copies
bought its first k drafted ones). Read from the per-game summary (`summary_cards`, built by
workbench/store/summary.py: picks, pick_sum, bought, and early_picks and early_bought, counted per
copy when the summary is built), never from the picks and events:
- drafted-and-never-bought share, per set and board: drafted copies the seat never bought in
  that game / drafted copies (Wilson interval over copies). Only one card a turn can be bought
  (R7.2), so over a game's buy steps most of a 30-card store stays unbought whatever the
  drafter does; the share of *early* picks (the first `EARLY_PICKS` of each pack) never bought
  says more about the drafter, since those are the picks it chose most freely;
- per card and board: games drafted (games in which a seat picked a copy), seats drafted
  (seat-games with a copy picked), seats bought (of those, the ones whose seat bought a copy),
  their share, picks and ATA (mean pick number over the whole draft, as in draft.py), and
  where in the draft that is: the mean pack round (`ata_pack`) and the mean pick within the
  pack (`ata_in_pack`), read from the picks (pick 12 of three packs of 10 is pack 2, pick 2, not
  a late pick);
- Kraken-like (after the demo's Kraken, drafted in 200 of 300 games and bought in none): drafted
  in at least `kraken_drafted` of the board's games and bought in at most `kraken_bought` of
  the seat-games it was drafted in (the context's thresholds, severity.Thresholds). In a draft
  that deals every pack out (R3.3: the default setups), every dealt card is drafted by
  someone, so this list is as much about what the agent buys as about the drafter; the
  drafter's part shows in the card's ATA (taken early or as a leftover) and in the early
  picks' share above.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from workbench.analysis.runs import Runs, cached
from workbench.analysis.source import in_runs, query, run_list
from workbench.analysis.stats import with_rate
from workbench.store import summary

EARLY_PICKS = summary.EARLY_PICKS
"""The first picks of each pack (pack round) that count as early (defined where the per-game
summaries count them)."""


def _seats(runs: Sequence[int]) -> str:
    """One row per seat-game and card it drafted: board, set, card, game, picks, pick_sum,
    copies bought (its buys credited to its earliest picks, so at most its picks), early picks
    and those of them bought (summary_cards)."""
    return f"""
    WITH names AS (
        SELECT name, any_value("set") AS "set" FROM run_cards
        WHERE run_id IN ({run_list(runs)}) GROUP BY ALL)
    SELECT g.board, coalesce(n."set", '?') AS "set", c.card, c.game_id, c.picks, c.pick_sum,
           least(c.bought, c.picks) AS copies, c.early_picks, c.early_bought
    FROM summary_cards c JOIN games g ON g.game_id = c.game_id
    LEFT JOIN names n ON n.name = c.card
    WHERE c.picks > 0 AND g.run_id IN ({run_list(runs)}) AND {in_runs("c.game_id", runs)}"""


def set_shares(r: Runs) -> pl.DataFrame:
    """Per board and set: picks, never_bought, never_bought_share (+CI); early_picks,
    early_never_bought, early_never_bought_share (+CI)."""
    df = query(
        r.con,
        f"""
    WITH d AS ({_seats(r.runs)})
    SELECT board, "set", sum(picks) AS picks, sum(picks - copies) AS never_bought,
           sum(early_picks) AS early_picks, sum(early_picks - early_bought) AS early_never_bought
    FROM d GROUP BY ALL ORDER BY board, "set"
    """,
    )
    df = with_rate(df, "never_bought", "picks", "never_bought_share")
    return with_rate(df, "early_never_bought", "early_picks", "early_never_bought_share")


@cached
def card_shares(r: Runs) -> pl.DataFrame:
    """Per board and card: games (on the board), games_drafted (games in which a seat drafted
    it), seats_drafted (seat-games), seats_bought (of those, the ones whose seat bought a copy),
    bought_share (+CI), picks, copies_bought, ata, ata_pack, ata_in_pack and `kraken`
    (Kraken-like at the context's thresholds)."""
    df = query(
        r.con,
        f"""
    WITH seat AS ({_seats(r.runs)}),
    n AS (SELECT board, count(*) AS games FROM games
          WHERE run_id IN ({run_list(r.runs)}) GROUP BY ALL)
    SELECT board, card, "set", any_value(n.games) AS games,
           count(DISTINCT game_id) AS games_drafted, count(*) AS seats_drafted,
           count(*) FILTER (WHERE copies > 0) AS seats_bought, sum(picks) AS picks,
           sum(copies) AS copies_bought, sum(pick_sum) / sum(picks) AS ata
    FROM seat JOIN n USING (board) GROUP BY ALL ORDER BY board, card
    """,
    )
    df = with_rate(df, "seats_bought", "seats_drafted", "bought_share").join(
        _pack_and_pick(r), on=["board", "card"], how="left"
    )
    return df.with_columns(
        (
            (pl.col("games_drafted") >= r.th.kraken_drafted * pl.col("games"))
            & (pl.col("seats_bought") <= r.th.kraken_bought * pl.col("seats_drafted"))
        ).alias("kraken")
    )


def _pack_and_pick(r: Runs) -> pl.DataFrame:
    """Per board and card: the mean pack round of its picks and their mean place in the pack
    (1: the seat's first pick of that pack)."""
    return query(
        r.con,
        f"""
    WITH p AS (
        SELECT game_id, card, pack_round,
               pick - min(pick) OVER (PARTITION BY game_id, player, pack_round) + 1 AS in_pack
        FROM picks WHERE {in_runs("game_id", r.runs)})
    SELECT g.board, p.card, avg(p.pack_round) AS ata_pack, avg(p.in_pack) AS ata_in_pack
    FROM p JOIN games g USING (game_id) WHERE g.run_id IN ({run_list(r.runs)}) GROUP BY ALL
    """,
    )


def kraken_like(cards: pl.DataFrame) -> pl.DataFrame:
    """The Kraken-like rows of `card_shares`, the earliest taken (lowest ATA) first: those are
    the picks a drafter chose over most other cards."""
    return cards.filter(pl.col("kraken")).sort(["ata", "card"])
