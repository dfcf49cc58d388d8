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

import polars as pl

from workbench.analysis.runs import Runs, cached
from workbench.analysis.source import in_runs, query, run_list
from workbench.analysis.stats import with_rate


@cached
def _sums(r: Runs) -> pl.DataFrame:
    """Additive sums per card, set and drafter, so coarser levels roll up without rescanning
    (one pass per context, whatever it rolls up to).

    Read from the per-game summary (workbench/store/summary.py), where every pack is unnested once.
    """
    return query(
        r.con,
        f"""
    WITH names AS (
        SELECT DISTINCT name, "set" FROM run_cards WHERE run_id IN ({run_list(r.runs)})),
    c AS (
        SELECT c.*, s.drafter
        FROM summary_cards c JOIN game_seats s ON s.game_id = c.game_id AND s.seat = c.seat
        WHERE {in_runs("c.game_id", r.runs)})
    SELECT card, coalesce(n."set", '?') AS "set", drafter, sum(seen) AS seen,
           sum(picks) AS picks, sum(pick_sum) AS pick_sum, sum(last_seen) AS last_sum,
           count(last_seen) AS last_n, sum(seen_first) AS seen_first,
           sum(first_picks) AS first_picks
    FROM c LEFT JOIN names n ON n.name = card
    GROUP BY ALL HAVING sum(seen) > 0
    """,
    )


def _roll_up(sums: pl.DataFrame, keys: Sequence[str]) -> pl.DataFrame:
    df = (
        sums.group_by(keys)
        .agg(
            pl.col(
                "seen", "picks", "seen_first", "first_picks", "pick_sum", "last_sum", "last_n"
            ).sum()
        )
        .with_columns(
            pl.when(pl.col("picks") > 0).then(pl.col("pick_sum") / pl.col("picks")).alias("ata"),
            (pl.col("last_sum") / pl.col("last_n")).alias("alsa"),
        )
        .select(*keys, "seen", "picks", "ata", "alsa", "seen_first", "first_picks")
        .sort(keys)
    )
    df = with_rate(df, "picks", "seen", "pick_rate")
    return with_rate(df, "first_picks", "seen_first", "first_pick_rate")


def card_picks(r: Runs, by_drafter: bool = False) -> pl.DataFrame:
    """Per card (and drafter): seen, picks, pick_rate (+CI), ata, alsa, first_pick_rate (+CI)."""
    return _roll_up(_sums(r), ["card", "set", "drafter"] if by_drafter else ["card", "set"])


def set_picks(r: Runs, by_drafter: bool = False) -> pl.DataFrame:
    """The same per set: a set's cards pooled (ALSA: the last sighting of each of its cards)."""
    return _roll_up(_sums(r), ["set", "drafter"] if by_drafter else ["set"])
