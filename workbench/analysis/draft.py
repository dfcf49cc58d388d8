"""Draft metrics (R3), 17lands style: pick rate when seen, ATA, ALSA, first-pick rate.

Definitions (per card name; copies are interchangeable):
- seen: picks at which the card was in the picker's pack (a pack with two copies counts once);
- pick rate when seen = picks of the card / seen;
- ATA, average taken at: mean pick number of the picks that took it;
- ALSA, average last seen at: per game and drafter, the last pick number at which the card was
  in their pack, averaged;
- first-pick rate: first picks of a pack round that took it / first picks whose pack held it.
"""

from __future__ import annotations

from collections.abc import Sequence

import duckdb
import polars as pl

from workbench.analysis.source import in_runs, run_list, query
from workbench.analysis.stats import with_rate


def _sql(runs: Sequence[int], keys: str) -> str:
    """`keys`: the grouping columns of the rows, from card, "set" and drafter."""
    return f"""
    WITH names AS (
        SELECT DISTINCT name, "set" FROM run_cards WHERE run_id IN ({run_list(runs)})),
    p AS (
        SELECT p.game_id, p.player, p.pick, p.card, p.pack, s.drafter,
               coalesce(n."set", '?') AS "set",
               p.pick = min(p.pick) OVER (PARTITION BY p.game_id, p.player, p.pack_round)
                   AS first_of_pack
        FROM picks p JOIN game_seats s ON s.game_id = p.game_id AND s.seat = p.player
        LEFT JOIN names n ON n.name = p.card
        WHERE {in_runs('p.game_id', runs)}),
    seen AS (
        SELECT u.*, coalesce(n."set", '?') AS "set" FROM (
            SELECT game_id, player, pick, first_of_pack, drafter,
                   unnest(list_distinct(string_split(pack, '|'))) AS card
            FROM p) u LEFT JOIN names n ON n.name = u.card),
    seen_agg AS (
        SELECT {keys}, count(*) AS seen, count(*) FILTER (WHERE first_of_pack) AS seen_first
        FROM seen GROUP BY ALL),
    last_seen AS (
        SELECT {keys}, avg(last) AS alsa FROM (
            SELECT {keys}, card, game_id, player, max(pick) AS last
            FROM seen GROUP BY ALL) GROUP BY ALL),
    taken AS (
        SELECT {keys}, count(*) AS picks, avg(pick) AS ata,
               count(*) FILTER (WHERE first_of_pack) AS first_picks
        FROM p GROUP BY ALL)
    SELECT {keys}, seen, coalesce(picks, 0) AS picks, ata, alsa, seen_first,
           coalesce(first_picks, 0) AS first_picks
    FROM seen_agg LEFT JOIN taken USING ({keys}) LEFT JOIN last_seen USING ({keys})
    ORDER BY {keys}
    """


def _finish(df: pl.DataFrame) -> pl.DataFrame:
    df = with_rate(df, "picks", "seen", "pick_rate")
    return with_rate(df, "first_picks", "seen_first", "first_pick_rate")


def card_picks(con: duckdb.DuckDBPyConnection, runs: Sequence[int],
               by_drafter: bool = False) -> pl.DataFrame:
    """Per card (and drafter): seen, picks, pick_rate (+CI), ata, alsa, first_pick_rate (+CI)."""
    keys = 'card, "set", drafter' if by_drafter else 'card, "set"'
    return _finish(query(con, _sql(runs, keys)))


def set_picks(con: duckdb.DuckDBPyConnection, runs: Sequence[int],
              by_drafter: bool = False) -> pl.DataFrame:
    """The same per set: a set's cards pooled (ALSA: the last sighting of each of its cards)."""
    keys = '"set", drafter' if by_drafter else '"set"'
    return _finish(query(con, _sql(runs, keys)))
