"""Cards in play, the 17lands family, per card name of the drafted pool.

A seat "has" a card in its store when it drafted at least one copy (the picks table, so cards
bought later still count). Per seat-game: in store, bought (at least one `buy` event), played
(at least one `play` event), never bought. Win rates count a draw as not won. The improvement
when bought is the win rate when bought minus the win rate when never bought, with Newcombe's
interval and a two-proportion test per card, corrected for the number of cards tested (stats.py).

Buy chances (why a card is rarely bought): a copy is in the store at a turn's buy step until the
turn that bought the last drafted copy; the card is affordable there when the resource held as
the player bought or passed (snapshots.buy_resource) reaches its buy price.
"""

from __future__ import annotations

import polars as pl

from workbench.analysis.runs import Runs, cached
from workbench.analysis.source import in_runs, query, run_list
from workbench.analysis.stats import with_difference_tests, with_gain_ci, with_rate


def card_results(r: Runs, half: int | None = None) -> pl.DataFrame:
    """Per card: win rates (+CI) in store, bought, played, never bought; buy rate, turn bought.
    `half` 0 or 1 keeps the games of even or odd id only (the split halves of a run whose
    agreement measures how far the run's own noise lets its card order repeat, stability.py)."""
    runs = r.runs
    halves = "" if half is None else f"AND c.game_id % 2 = {int(half)}"
    df = query(
        r.con,
        f"""
    WITH base AS (
        SELECT c.card, s.won::INT AS won, c.bought > 0 AS is_bought,
               c.first_bought AS first_round, c.bought AS copies, c.plays > 0 AS is_played,
               c.plays
        FROM summary_cards c JOIN game_seats s ON s.game_id = c.game_id AND s.seat = c.seat
        WHERE c.picks > 0 AND s.run_id IN ({run_list(runs)}) AND {in_runs("c.game_id", runs)}
              {halves}),
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
    """,
    )
    for k, n, name in (
        ("wins_in_store", "in_store", "wr_in_store"),
        ("wins_bought", "bought", "wr_bought"),
        ("wins_played", "played", "wr_played"),
        ("wins_never_bought", "never_bought", "wr_never_bought"),
        ("bought", "in_store", "buy_rate"),
    ):
        df = with_rate(df, k, n, name)
    df = with_gain_ci(
        df.with_columns((pl.col("wr_bought") - pl.col("wr_never_bought")).alias("bought_gain"))
    )
    return with_difference_tests(
        df, "wins_bought", "bought", "wins_never_bought", "never_bought", "bought_gain"
    )


def card_effects(r: Runs) -> pl.DataFrame:
    """Per card: units of it lost to refused upkeep, damage it dealt, times it died.

    Damage events name the damaged card; the dealer is found from its neighbours (ASOF joins,
    per game in workbench/store/summary.py): an `attack` belongs to the attacker and a `retaliation`
    to the defender of the next `combat` event (emitted right after both damages), an `effect`
    to the source of the latest `resolve`, a `collision` to the occupant of the latest
    `push_stop`.
    """
    return query(
        r.con,
        f"""
    SELECT card, sum(damage_dealt) AS damage_dealt, sum(hits) AS hits,
           sum(upkeep_deaths) AS upkeep_deaths, sum(deaths) AS deaths
    FROM summary_damage WHERE {in_runs("game_id", r.runs)} GROUP BY card ORDER BY card
    """,
    )


@cached
def card_table(r: Runs) -> pl.DataFrame:
    """card_results with card_effects beside it (damage per play: dealt / plays)."""
    res = card_results(r)
    eff = card_effects(r)
    return (
        res.join(eff, on="card", how="left")
        .with_columns(
            pl.col("damage_dealt", "hits", "upkeep_deaths", "deaths").fill_null(0),
        )
        .with_columns(
            pl.when(pl.col("plays") > 0)
            .then(pl.col("damage_dealt") / pl.col("plays"))
            .otherwise(None)
            .alias("damage_per_play")
        )
    )


def buy_chances(r: Runs) -> pl.DataFrame:
    """Per pool card with a buy price: set, buy, store_turns (player-turns whose buy step had a copy
    in the store) and affordable_turns (of those, the ones with enough resource: the run's own
    price, counted per game in workbench/store/summary.py)."""
    runs = r.runs
    return query(
        r.con,
        f"""
    WITH price AS (
        SELECT name AS card, any_value("set") AS "set", max(buy) AS buy FROM run_cards
        WHERE run_id IN ({run_list(runs)}) AND in_pool AND buy IS NOT NULL GROUP BY ALL),
    chances AS (
        SELECT card, sum(store_turns) AS turns, sum(affordable_turns) AS affordable
        FROM summary_cards WHERE picks > 0 AND {in_runs("game_id", runs)} GROUP BY ALL)
    SELECT p.card, p."set", p.buy, coalesce(c.turns, 0) AS store_turns,
           coalesce(c.affordable, 0) AS affordable_turns
    FROM price p LEFT JOIN chances c USING (card) ORDER BY p.card
    """,
    )
