"""Two runs side by side: what changed in the card data, and which rates moved.

Each rate is compared with the two-proportion z test per card (or set); Holm and Benjamini-
Hochberg adjust for the number of rows tested, and `significant` means Holm-adjusted p < 0.05.
"""

from __future__ import annotations

from collections.abc import Sequence

import duckdb
import polars as pl

from workbench.analysis import cards, draft, sets
from workbench.analysis.source import query
from workbench.analysis.stats import with_difference_tests, with_rate

CARD_COLUMNS = ("set", "type", "in_pool", "copies", "buy", "play", "upkeep", "life", "move",
                "attack", "range", "armor", "durability", "keywords", "text")


def card_changes(con: duckdb.DuckDBPyConnection, base: int, cand: int) -> pl.DataFrame:
    """Per card whose data differs: added, removed, or changed with 'column: old -> new'."""
    diffs = " || ".join(
        f"""CASE WHEN b."{c}" IS DISTINCT FROM c."{c}" THEN '{c}: ' || coalesce(b."{c}"::VARCHAR,
        '-') || ' -> ' || coalesce(c."{c}"::VARCHAR, '-') || '; ' ELSE '' END"""
        for c in CARD_COLUMNS)
    return query(con, f"""
        SELECT coalesce(b.name, c.name) AS card, coalesce(c."set", b."set") AS "set",
               CASE WHEN b.name IS NULL THEN 'added' WHEN c.name IS NULL THEN 'removed'
                    ELSE 'changed' END AS change,
               CASE WHEN b.name IS NULL OR c.name IS NULL THEN '' ELSE rtrim({diffs}, '; ')
               END AS what
        FROM (SELECT * FROM run_cards WHERE run_id = {int(base)}) b
        FULL JOIN (SELECT * FROM run_cards WHERE run_id = {int(cand)}) c ON b.name = c.name
        WHERE b.name IS NULL OR c.name IS NULL OR ({diffs}) <> ''
        ORDER BY card""")


def _side_by_side(a: pl.DataFrame, b: pl.DataFrame, key: Sequence[str],
                  metrics: Sequence[tuple[str, str, str]]) -> pl.DataFrame:
    """Join per-run frames; for each (rate, wins, n): both rates, the change and its tests."""
    cols = list(dict.fromkeys(c for _, k, n in metrics for c in (k, n)))
    df = a.select(*key, *cols).join(b.select(*key, *cols), on=list(key), how="full",
                                    coalesce=True, suffix="_cand")
    df = df.rename({c: f"{c}_base" for c in cols})
    for rate, k, n in metrics:
        df = with_rate(df, f"{k}_base", f"{n}_base", f"{rate}_base")
        df = with_rate(df, f"{k}_cand", f"{n}_cand", f"{rate}_cand")
        df = df.with_columns((pl.col(f"{rate}_cand") - pl.col(f"{rate}_base"))
                             .alias(f"{rate}_change"))
        df = with_difference_tests(df, f"{k}_cand", f"{n}_cand", f"{k}_base", f"{n}_base",
                                   f"{rate}_change")
    return df.sort(list(key))


CARD_METRICS = (("wr_in_store", "wins_in_store", "in_store"),
                ("wr_bought", "wins_bought", "bought"),
                ("buy_rate", "bought", "in_store"))


def card_metrics(con: duckdb.DuckDBPyConnection, base: int, cand: int) -> pl.DataFrame:
    """Per card: win rate in store, win rate when bought, buy rate and pick rate, both runs."""
    res = _side_by_side(cards.card_results(con, [base]), cards.card_results(con, [cand]),
                        ["card"], CARD_METRICS)
    picks = _side_by_side(draft.card_picks(con, [base]), draft.card_picks(con, [cand]),
                          ["card"], [("pick_rate", "picks", "seen")])
    return res.join(picks, on="card", how="full", coalesce=True).sort("card")


def set_metrics(con: duckdb.DuckDBPyConnection, base: int, cand: int) -> pl.DataFrame:
    """Win rate by dominant set in both runs."""
    return _side_by_side(sets.win_rates(con, [base], ["dominant"]),
                         sets.win_rates(con, [cand], ["dominant"]), ["dominant"],
                         [("win_rate", "wins", "seats")])


def seat_metrics(con: duckdb.DuckDBPyConnection, base: int, cand: int) -> pl.DataFrame:
    """Win rate by board and seat in both runs."""
    return _side_by_side(sets.win_rates(con, [base], ["board", "seat"]),
                         sets.win_rates(con, [cand], ["board", "seat"]), ["board", "seat"],
                         [("win_rate", "wins", "seats")])
