"""Cards in play, the 17lands family, per card name of the drafted pool.

A seat "has" a card in its store when it drafted at least one copy (the picks table, so cards
bought later still count). Per seat-game: in store, bought (at least one `buy` event), played
(at least one `play` event), never bought. Win rates count a draw as not won. The improvement
when bought is the win rate when bought minus the win rate when never bought, with Newcombe's
interval and a two-proportion test per card, corrected for the number of cards tested (stats.py).

Buy chances (why a card is rarely bought): a copy is in the store at a turn's buy step until the
turn that bought the last drafted copy; the card is affordable there when the resource held as
the buy step began (snapshots.buy_resource) reaches its buy price.
"""

from __future__ import annotations

from collections.abc import Sequence

import duckdb
import polars as pl

from workbench.analysis.source import in_runs, run_list, query
from workbench.analysis.stats import with_difference_tests, with_gain_ci, with_rate


def card_results(con: duckdb.DuckDBPyConnection, runs: Sequence[int]) -> pl.DataFrame:
    """Per card: win rates (+CI) in store, bought, played, never bought; buy rate, turn bought."""
    df = query(con, f"""
    WITH seats AS (
        SELECT game_id, seat, won FROM game_seats WHERE run_id IN ({run_list(runs)})),
    store AS (
        SELECT DISTINCT game_id, player AS seat, card FROM picks
        WHERE {in_runs('game_id', runs)}),
    bought AS (
        SELECT game_id, player AS seat, card, min(round) AS first_round, count(*) AS copies
        FROM events WHERE kind = 'buy' AND {in_runs('game_id', runs)} GROUP BY ALL),
    played AS (
        SELECT game_id, player AS seat, card, count(*) AS plays
        FROM events WHERE kind = 'play' AND {in_runs('game_id', runs)} GROUP BY ALL),
    base AS (
        SELECT st.card, se.won::INT AS won, b.card IS NOT NULL AS is_bought, b.first_round,
               coalesce(b.copies, 0) AS copies, pl.card IS NOT NULL AS is_played,
               coalesce(pl.plays, 0) AS plays
        FROM store st JOIN seats se USING (game_id, seat)
        LEFT JOIN bought b USING (game_id, seat, card)
        LEFT JOIN played pl USING (game_id, seat, card)),
    names AS (SELECT DISTINCT name AS card, "set" FROM run_cards
              WHERE run_id IN ({run_list(runs)}))
    SELECT card, coalesce(n."set", '?') AS "set",
           count(*) AS in_store, sum(won) AS wins_in_store,
           count(*) FILTER (WHERE is_bought) AS bought,
           coalesce(sum(won) FILTER (WHERE is_bought), 0) AS wins_bought,
           count(*) FILTER (WHERE is_played) AS played,
           coalesce(sum(won) FILTER (WHERE is_played), 0) AS wins_played,
           count(*) FILTER (WHERE NOT is_bought) AS never_bought,
           coalesce(sum(won) FILTER (WHERE NOT is_bought), 0) AS wins_never_bought,
           avg(first_round) FILTER (WHERE is_bought) AS avg_round_bought,
           sum(copies) AS copies_bought, sum(plays) AS plays
    FROM base LEFT JOIN names n USING (card) GROUP BY ALL ORDER BY card
    """)
    for k, n, name in (("wins_in_store", "in_store", "wr_in_store"),
                       ("wins_bought", "bought", "wr_bought"),
                       ("wins_played", "played", "wr_played"),
                       ("wins_never_bought", "never_bought", "wr_never_bought"),
                       ("bought", "in_store", "buy_rate")):
        df = with_rate(df, k, n, name)
    df = with_gain_ci(df.with_columns(
        (pl.col("wr_bought") - pl.col("wr_never_bought")).alias("bought_gain")))
    return with_difference_tests(df, "wins_bought", "bought", "wins_never_bought",
                                 "never_bought", "bought_gain")


def card_effects(con: duckdb.DuckDBPyConnection, runs: Sequence[int]) -> pl.DataFrame:
    """Per card: units of it lost to refused upkeep, damage it dealt, times it died.

    Damage events name the damaged card; the dealer is found from its neighbours (ASOF joins):
    an `attack` belongs to the attacker and a `retaliation` to the defender of the next
    `combat` event (emitted right after both damages), an `effect` to the source of the latest
    `resolve`, a `collision` to the occupant of the latest `push_stop`.
    """
    ev = in_runs("game_id", runs)
    return query(con, f"""
    WITH dmg AS (
        SELECT game_id, seq, amount, detail FROM events WHERE kind = 'damage' AND {ev}),
    combats AS (
        SELECT game_id, seq, card AS attacker, target AS defender FROM events
        WHERE kind = 'combat' AND {ev}),
    resolves AS (
        SELECT game_id, seq, card AS source FROM events WHERE kind = 'resolve' AND {ev}),
    stops AS (
        SELECT game_id, seq, target AS occupant FROM events
        WHERE kind = 'push_stop' AND detail = 'collision' AND {ev}),
    dealt AS (
        SELECT CASE d.detail WHEN 'attack' THEN c.attacker WHEN 'retaliation' THEN c.defender
                   WHEN 'effect' THEN r.source WHEN 'collision' THEN s.occupant END AS card,
               sum(d.amount) AS damage_dealt, count(*) AS hits
        FROM dmg d
        ASOF LEFT JOIN combats c ON d.game_id = c.game_id AND d.seq <= c.seq
        ASOF LEFT JOIN resolves r ON d.game_id = r.game_id AND d.seq >= r.seq
        ASOF LEFT JOIN stops s ON d.game_id = s.game_id AND d.seq >= s.seq
        GROUP BY ALL),
    upkeep AS (
        SELECT card, count(*) AS upkeep_deaths FROM events
        WHERE kind = 'death' AND detail = 'upkeep' AND {ev} GROUP BY ALL),
    deaths AS (
        SELECT card, count(*) AS deaths FROM events WHERE kind = 'death' AND {ev} GROUP BY ALL)
    SELECT card, coalesce(damage_dealt, 0) AS damage_dealt, coalesce(hits, 0) AS hits,
           coalesce(upkeep_deaths, 0) AS upkeep_deaths, coalesce(deaths, 0) AS deaths
    FROM dealt FULL JOIN upkeep USING (card) FULL JOIN deaths USING (card)
    WHERE card IS NOT NULL AND card <> ''
    ORDER BY card
    """)


def card_table(con: duckdb.DuckDBPyConnection, runs: Sequence[int]) -> pl.DataFrame:
    """card_results with card_effects beside it (damage per play: dealt / plays)."""
    res = card_results(con, runs)
    eff = card_effects(con, runs)
    return res.join(eff, on="card", how="left").with_columns(
        pl.col("damage_dealt", "hits", "upkeep_deaths", "deaths").fill_null(0),
    ).with_columns(
        pl.when(pl.col("plays") > 0).then(pl.col("damage_dealt") / pl.col("plays"))
        .otherwise(None).alias("damage_per_play"))


def buy_chances(con: duckdb.DuckDBPyConnection, runs: Sequence[int]) -> pl.DataFrame:
    """Per pool card with a buy price: set, buy, store_turns (player-turns whose buy step had a copy
    in the store) and affordable_turns (of those, the ones with enough resource)."""
    ev = in_runs("game_id", runs)
    return query(con, f"""
    WITH price AS (
        SELECT name AS card, any_value("set") AS "set", max(buy) AS buy FROM run_cards
        WHERE run_id IN ({run_list(runs)}) AND in_pool AND buy IS NOT NULL GROUP BY ALL),
    drafted AS (
        SELECT game_id, player, card, count(*) AS copies FROM picks WHERE {ev} GROUP BY ALL),
    bought AS (
        SELECT game_id, player, card, count(*) AS n, max(round) AS last FROM events
        WHERE kind = 'buy' AND {ev} GROUP BY ALL),
    held AS (
        SELECT d.game_id, d.player, d.card, p.buy,
               CASE WHEN coalesce(b.n, 0) >= d.copies THEN b.last END AS gone_after
        FROM drafted d JOIN price p USING (card)
        LEFT JOIN bought b USING (game_id, player, card)),
    turns AS (
        SELECT game_id, player, round, buy_resource FROM snapshots WHERE {ev}),
    whole AS (  -- per seat-game and price: every turn, for cards still in the store at the end
        SELECT t.game_id, t.player, p.buy, count(*) AS turns,
               count(*) FILTER (WHERE t.buy_resource >= p.buy) AS affordable
        FROM turns t, (SELECT DISTINCT buy FROM price) p GROUP BY ALL),
    chances AS (
        SELECT h.card, w.turns, w.affordable FROM held h
        JOIN whole w USING (game_id, player, buy) WHERE h.gone_after IS NULL
        UNION ALL
        SELECT h.card, count(*), count(*) FILTER (WHERE t.buy_resource >= h.buy) FROM held h
        JOIN turns t ON t.game_id = h.game_id AND t.player = h.player
             AND t.round <= h.gone_after
        GROUP BY ALL)
    SELECT p.card, p."set", p.buy, coalesce(sum(c.turns), 0) AS store_turns,
           coalesce(sum(c.affordable), 0) AS affordable_turns
    FROM price p LEFT JOIN chances c USING (card) GROUP BY ALL ORDER BY p.card
    """)
