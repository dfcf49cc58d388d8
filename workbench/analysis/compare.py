"""Two runs side by side: what changed in the card data, and which rates moved.

Each rate is compared with the two-proportion z test per card (or set); Holm and Benjamini-
Hochberg adjust for the number of rows tested, and `significant` means Holm-adjusted p < 0.05.
A card's effects (EFFECTS: the report's balance measure, the improvement when bought) are
differences of rates with their own intervals: the change between two runs' independent
estimates gets the interval of a difference (the square-root combination of the two intervals'
arms, as Newcombe's for rates) and a z test from the standard errors those intervals imply.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import polars as pl
from scipy import stats

from workbench.analysis import cards, draft, sets
from workbench.analysis.runs import Runs
from workbench.analysis.source import query, run_list
from workbench.analysis.stats import (
    ALPHA,
    LEVEL,
    benjamini_hochberg,
    holm,
    proportion_ci,
    with_difference_tests,
    with_rate,
)
from workbench.store.schema import columns

CARD_COLUMNS = columns("run_cards", "run_id", "name")
BOARD_COLUMNS = columns("run_boards", "run_id", "board_index", "board", "file", "content_hash")
RUN_COLUMNS = ("sets", "boards", "games", "players", "agents", "drafters", "seed")


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


def card_metrics(base: Runs, cand: Runs) -> pl.DataFrame:
    """Per card: win rate in store, win rate when bought, buy rate and pick rate, both runs."""
    res = _side_by_side(cards.card_results(base), cards.card_results(cand), ["card"], CARD_METRICS)
    picks = _side_by_side(
        draft.card_picks(base),
        draft.card_picks(cand),
        ["card"],
        [("pick_rate", "picks", "seen")],
    )
    return res.join(picks, on="card", how="full", coalesce=True).sort("card")


EFFECTS = (("bought_gain", "bought"),)
"""Per-card effects compared between the runs: (the effect, the column of its sample size) of
cards.card_results, each with `_lo` and `_hi`. The improvement when bought now; a causal effect
per card can join as a second entry and gets the same columns, tests and page column."""


def card_effects(base: Runs, cand: Runs) -> pl.DataFrame:
    """Per card, for each effect E of EFFECTS with sample size N: E_base, E_cand (each with
    _lo, _hi), N_base, N_cand, E_change with its interval (_lo, _hi), its p-value, Holm and
    BH over the cards, and E_change_significant (Holm < ALPHA)."""
    sides = []
    for run, side in ((base, "base"), (cand, "cand")):
        res = cards.card_results(run)
        sides.append(
            res.select(
                "card",
                *(
                    pl.col(f"{e}{x}").alias(f"{e}_{side}{x}")
                    for e, _ in EFFECTS
                    for x in ("", "_lo", "_hi")
                ),
                *(pl.col(n).alias(f"{n}_{side}") for n in dict.fromkeys(n for _, n in EFFECTS)),
            )
        )
    df = sides[0].join(sides[1], on="card", how="full", coalesce=True)
    for effect, _ in EFFECTS:
        df = _with_change(df, effect)
    return df.sort("card")


def _with_change(df: pl.DataFrame, e: str) -> pl.DataFrame:
    """`e_change` = candidate minus base, its interval from the two runs' intervals, and its
    tests (NULL where either run has no estimate)."""
    z = float(stats.norm.ppf((1 + LEVEL) / 2))
    rows = df.select(*(f"{e}_{s}{x}" for s in ("base", "cand") for x in ("", "_lo", "_hi"))).rows()
    change: list[float | None] = []
    low: list[float | None] = []
    high: list[float | None] = []
    p: list[float] = []
    for b, b_lo, b_hi, c, c_lo, c_hi in rows:
        if None in (b, b_lo, b_hi, c, c_lo, c_hi):
            change += [None]
            low += [None]
            high += [None]
            p += [math.nan]
            continue
        d = c - b
        se = math.hypot((c_hi - c_lo) / (2 * z), (b_hi - b_lo) / (2 * z))
        change += [d]
        low += [d - math.hypot(c - c_lo, b_hi - b)]
        high += [d + math.hypot(c_hi - c, b - b_lo)]
        p += [float(2 * stats.norm.sf(abs(d) / se)) if se > 0 else float(d == 0)]
    adjusted = holm(p)
    return df.with_columns(
        pl.Series(f"{e}_change", change, dtype=pl.Float64),
        pl.Series(f"{e}_change_lo", low, dtype=pl.Float64),
        pl.Series(f"{e}_change_hi", high, dtype=pl.Float64),
        pl.Series(f"{e}_change_p", p, dtype=pl.Float64).fill_nan(None),
        pl.Series(f"{e}_change_holm", adjusted, dtype=pl.Float64).fill_nan(None),
        pl.Series(f"{e}_change_bh", benjamini_hochberg(p), dtype=pl.Float64).fill_nan(None),
        pl.Series(
            f"{e}_change_significant",
            [not math.isnan(a) and a < ALPHA for a in adjusted],
            dtype=pl.Boolean,
        ),
    )


def rate_change_interval(rate_a: float, n_a: int, rate_b: float, n_b: int) -> tuple[float, float]:
    """Newcombe's 95% interval of rate_b - rate_a from the two Wilson intervals."""
    lo_a, hi_a = proportion_ci(round(rate_a * n_a), n_a)
    lo_b, hi_b = proportion_ci(round(rate_b * n_b), n_b)
    d = rate_b - rate_a
    return (
        d - ((rate_b - lo_b) ** 2 + (hi_a - rate_a) ** 2) ** 0.5,
        d + ((hi_b - rate_b) ** 2 + (rate_a - lo_a) ** 2) ** 0.5,
    )


def set_metrics(base: Runs, cand: Runs) -> pl.DataFrame:
    """Win rate by dominant set in both runs."""
    return _side_by_side(
        sets.win_rates(base, ["dominant"]),
        sets.win_rates(cand, ["dominant"]),
        ["dominant"],
        [("win_rate", "wins", "seats")],
    )


def seat_metrics(base: Runs, cand: Runs) -> pl.DataFrame:
    """Win rate by board and seat in both runs."""
    return _side_by_side(
        sets.win_rates(base, ["board", "seat"]),
        sets.win_rates(cand, ["board", "seat"]),
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


def content_changes(base: Runs, cand: Runs) -> pl.DataFrame:
    """Everything that differs between two runs' stored spreadsheets and settings (one run
    each), one row per field: cards added, removed or changed (run_cards), board settings
    (run_boards, matched by position) and the run's own settings (agents, seed, games...).
    Columns: what (card, board, run), name, field, base, candidate, change."""

    def rows(table: str, run: Runs, order: str) -> pl.DataFrame:
        ids = run_list(run.runs)
        return query(run.con, f"SELECT * FROM {table} WHERE run_id IN ({ids}) ORDER BY {order}")

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
    what (card, set, seat), name, metric, base, candidate (with their sample sizes), change
    (with low and high where the frame gives the change's interval: the EFFECTS), p (raw) and
    p_holm; the biggest changes first. `frames`: (what, frame from _side_by_side,
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
                        "low": r.get(f"{metric}_change_lo"),
                        "high": r.get(f"{metric}_change_hi"),
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
        "low": pl.Float64,
        "high": pl.Float64,
        "n_base": pl.Int64,
        "n_candidate": pl.Int64,
        "p": pl.Float64,
        "p_holm": pl.Float64,
    }
    df = pl.DataFrame(rows, schema=schema)
    return df.sort(pl.col("change").abs(), descending=True)
