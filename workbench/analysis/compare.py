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
from workbench.store.schema import columns

CARD_COLUMNS = columns("run_cards", "run_id", "name")
BOARD_COLUMNS = columns("run_boards", "run_id", "board_index", "board", "file", "content_hash")
RUN_COLUMNS = ("sets", "boards", "games", "players", "agents", "drafters", "seed")


def card_changes(con: duckdb.DuckDBPyConnection, base: int, cand: int) -> pl.DataFrame:
    """Per card whose data differs: added, removed, or changed with 'column: old -> new'."""
    diffs = " || ".join(
        f"""CASE WHEN b."{c}" IS DISTINCT FROM c."{c}" THEN '{c}: ' || coalesce(b."{c}"::VARCHAR,
        '-') || ' -> ' || coalesce(c."{c}"::VARCHAR, '-') || '; ' ELSE '' END"""
        for c in CARD_COLUMNS
    )
    return query(
        con,
        f"""
        SELECT coalesce(b.name, c.name) AS card, coalesce(c."set", b."set") AS "set",
               CASE WHEN b.name IS NULL THEN 'added' WHEN c.name IS NULL THEN 'removed'
                    ELSE 'changed' END AS change,
               CASE WHEN b.name IS NULL OR c.name IS NULL THEN '' ELSE rtrim({diffs}, '; ')
               END AS what
        FROM (SELECT * FROM run_cards WHERE run_id = {int(base)}) b
        FULL JOIN (SELECT * FROM run_cards WHERE run_id = {int(cand)}) c ON b.name = c.name
        WHERE b.name IS NULL OR c.name IS NULL OR ({diffs}) <> ''
        ORDER BY card""",
    )


def _side_by_side(
    a: pl.DataFrame, b: pl.DataFrame, key: Sequence[str], metrics: Sequence[tuple[str, str, str]]
) -> pl.DataFrame:
    """Join per-run frames; for each (rate, wins, n): both rates, the change and its tests."""
    cols = list(dict.fromkeys(c for _, k, n in metrics for c in (k, n)))
    df = a.select(*key, *cols).join(
        b.select(*key, *cols), on=list(key), how="full", coalesce=True, suffix="_cand"
    )
    df = df.rename({c: f"{c}_base" for c in cols})
    for rate, k, n in metrics:
        df = with_rate(df, f"{k}_base", f"{n}_base", f"{rate}_base")
        df = with_rate(df, f"{k}_cand", f"{n}_cand", f"{rate}_cand")
        df = df.with_columns(
            (pl.col(f"{rate}_cand") - pl.col(f"{rate}_base")).alias(f"{rate}_change")
        )
        df = with_difference_tests(
            df, f"{k}_cand", f"{n}_cand", f"{k}_base", f"{n}_base", f"{rate}_change"
        )
    return df.sort(list(key))


CARD_METRICS = (
    ("wr_in_store", "wins_in_store", "in_store"),
    ("wr_bought", "wins_bought", "bought"),
    ("buy_rate", "bought", "in_store"),
)


def card_metrics(con: duckdb.DuckDBPyConnection, base: int, cand: int) -> pl.DataFrame:
    """Per card: win rate in store, win rate when bought, buy rate and pick rate, both runs."""
    res = _side_by_side(
        cards.card_results(con, [base]), cards.card_results(con, [cand]), ["card"], CARD_METRICS
    )
    picks = _side_by_side(
        draft.card_picks(con, [base]),
        draft.card_picks(con, [cand]),
        ["card"],
        [("pick_rate", "picks", "seen")],
    )
    return res.join(picks, on="card", how="full", coalesce=True).sort("card")


def set_metrics(con: duckdb.DuckDBPyConnection, base: int, cand: int) -> pl.DataFrame:
    """Win rate by dominant set in both runs."""
    return _side_by_side(
        sets.win_rates(con, [base], ["dominant"]),
        sets.win_rates(con, [cand], ["dominant"]),
        ["dominant"],
        [("win_rate", "wins", "seats")],
    )


def seat_metrics(con: duckdb.DuckDBPyConnection, base: int, cand: int) -> pl.DataFrame:
    """Win rate by board and seat in both runs."""
    return _side_by_side(
        sets.win_rates(con, [base], ["board", "seat"]),
        sets.win_rates(con, [cand], ["board", "seat"]),
        ["board", "seat"],
        [("win_rate", "wins", "seats")],
    )


def _long_changes(
    base: pl.DataFrame, cand: pl.DataFrame, key: str, what: str, columns: Sequence[str]
) -> list[dict[str, str]]:
    """One row per (key, column) whose value differs between the runs' rows."""
    b = {r[key]: r for r in base.iter_rows(named=True)}
    c = {r[key]: r for r in cand.iter_rows(named=True)}
    rows = []
    for name in sorted(b.keys() | c.keys(), key=str):
        if name not in b or name not in c:
            rows.append(
                {
                    "what": what,
                    "name": str(name),
                    "field": "",
                    "base": "" if name not in b else "present",
                    "candidate": "" if name not in c else "present",
                    "change": "added" if name not in b else "removed",
                }
            )
            continue
        for col in columns:
            old, new = b[name][col], c[name][col]
            if old != new:
                rows.append(
                    {
                        "what": what,
                        "name": str(name),
                        "field": col,
                        "base": "" if old is None else str(old),
                        "candidate": "" if new is None else str(new),
                        "change": "changed",
                    }
                )
    return rows


def content_changes(con: duckdb.DuckDBPyConnection, base: int, cand: int) -> pl.DataFrame:
    """Everything that differs between two runs' stored spreadsheets and settings, one row per
    field: cards added, removed or changed (run_cards), board settings (run_boards, matched by
    position) and the run's own settings (agents, seed, games...). Columns: what (card, board,
    run), name, field, base, candidate, change."""

    def rows(table: str, run: int, order: str) -> pl.DataFrame:
        return query(con, f"SELECT * FROM {table} WHERE run_id = {int(run)} ORDER BY {order}")

    out = _long_changes(
        rows("run_cards", base, "name"),
        rows("run_cards", cand, "name"),
        "name",
        "card",
        CARD_COLUMNS,
    )
    boards = [rows("run_boards", r, "board_index") for r in (base, cand)]
    out += _long_changes(boards[0], boards[1], "board_index", "board", ("board", *BOARD_COLUMNS))
    for r in out:
        if r["what"] == "board":  # name boards by name, not by their position in the run
            idx = int(r["name"])
            names = [
                b.filter(pl.col("board_index") == idx).get_column("board").to_list() for b in boards
            ]
            r["name"] = next((n[0] for n in names if n), r["name"])
    out += _long_changes(
        rows("runs", base, "run_id").with_columns(pl.lit(0).alias("k")),
        rows("runs", cand, "run_id").with_columns(pl.lit(0).alias("k")),
        "k",
        "run",
        RUN_COLUMNS,
    )
    for r in out:
        if r["what"] == "run":
            r["name"] = "settings"
    schema = dict.fromkeys(("what", "name", "field", "base", "candidate", "change"), pl.String)
    return pl.DataFrame(out, schema=schema)


def significant(
    frames: Sequence[tuple[str, pl.DataFrame, Sequence[str]]], metrics: Sequence[tuple[str, str]]
) -> pl.DataFrame:
    """The rows whose change is significant after Holm's correction, in one long table:
    what (card, set, seat), name, metric, base, candidate (with their sample sizes), change,
    p (raw) and p_holm; the biggest changes first. `frames`: (what, frame from _side_by_side,
    key columns); `metrics`: (rate, column of its sample size)."""
    rows = []
    for what, df, key in frames:
        for metric, n in metrics:
            flag = f"{metric}_change_significant"
            if flag not in df.columns:
                continue
            for r in df.filter(pl.col(flag)).iter_rows(named=True):
                rows.append(
                    {
                        "what": what,
                        "name": " ".join(str(r[k]) for k in key),
                        "metric": metric,
                        "base": r[f"{metric}_base"],
                        "candidate": r[f"{metric}_cand"],
                        "change": r[f"{metric}_change"],
                        "n_base": r[f"{n}_base"],
                        "n_candidate": r[f"{n}_cand"],
                        "p": r[f"{metric}_change_p"],
                        "p_holm": r[f"{metric}_change_holm"],
                    }
                )
    schema = {
        "what": pl.String,
        "name": pl.String,
        "metric": pl.String,
        "base": pl.Float64,
        "candidate": pl.Float64,
        "change": pl.Float64,
        "n_base": pl.Int64,
        "n_candidate": pl.Int64,
        "p": pl.Float64,
        "p_holm": pl.Float64,
    }
    df = pl.DataFrame(rows, schema=schema)
    return df.sort(pl.col("change").abs(), descending=True)
