"""Verdicts across skill: whether what the report says about a card holds when the same setup is
played by a stronger or weaker agent (issue 16: conclusions that hold across skill).

A "player" is a label with the runs it played: one agent's run of a skill study
(`workbench skill`, benchmarks/bench_stability.py), or a run given to `workbench report
--skill-run`. Each player's per-card metrics and verdicts are the report's own
(cards.card_results, findings.card_verdict over each player's runs on their own, so the
multiple-comparison control covers that player's cards as the report's does); this module only
sets them side by side and ranks them.

A card's verdict is stable when every player that judged it gives the same verdict; it differs
when two players that judged it disagree; a player judges a card when it has an estimate of the
improvement when bought (some holders bought the card and some did not).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import duckdb
import polars as pl
from scipy import stats

from workbench.analysis import cards
from workbench.analysis.findings import NO_ESTIMATE, card_verdict
from workbench.analysis.source import query, run_list
from workbench.analysis.stats import LEVEL

METRICS = {
    "wr_in_store": "win rate in store",
    "bought_gain": "improvement when bought",
    "buy_rate": "buy rate",
}
"""The per-card metrics whose ranks are compared between two players (cards.card_results)."""
STABLE, DIFFERS = "stable", "differs"
ALL_SETS = "all"
"""The `set` of the correlation row over every card of the setup."""

Player = tuple[str, Sequence[int]]
"""A label and the runs it played."""


def card_verdicts(con: duckdb.DuckDBPyConnection, runs: Sequence[int]) -> pl.DataFrame:
    """Per card of the runs: its set, METRICS, in_store, bought and the report's verdict."""
    t = cards.card_results(con, runs)
    verdicts = [
        card_verdict(g, q)
        for g, q in zip(
            t.get_column("bought_gain").to_list(),
            t.get_column("bought_gain_bh").to_list(),
            strict=True,
        )
    ]
    return t.select("card", "set", *METRICS, "in_store", "bought").with_columns(
        pl.Series("verdict", verdicts, dtype=pl.String)
    )


def player_label(con: duckdb.DuckDBPyConnection, runs: Sequence[int]) -> str:
    """A run's agents as one name (`search:budget=16`, or `heuristic+explorer` when mixed)."""
    rows = (
        query(con, f"SELECT agents FROM runs WHERE run_id IN ({run_list(runs)}) ORDER BY run_id")
        .get_column("agents")
        .to_list()
    )
    names = dict.fromkeys(a for row in rows for a in str(row).split(",") if a)
    return "+".join(names) or f"run {run_list(runs)}"


def players_of(con: duckdb.DuckDBPyConnection, groups: Sequence[Sequence[int]]) -> list[Player]:
    """Each group of runs labelled by its agents; by its runs instead when two labels clash."""
    labels = [player_label(con, g) for g in groups]
    return [
        (label if labels.count(label) == 1 else f"{label} (run {run_list(g)})", g)
        for label, g in zip(labels, groups, strict=True)
    ]


def verdict_text(verdicts: dict[str, str]) -> str:
    """`stable`; `differs: too strong with A; fine with B`; or `not judged with B` when the
    players that judged the card agree and some did not judge it."""
    judged = {p: v for p, v in verdicts.items() if v != NO_ESTIMATE}
    if len(set(judged.values())) > 1:
        groups: dict[str, list[str]] = {}
        for p, v in judged.items():
            groups.setdefault(v, []).append(p)
        return f"{DIFFERS}: " + "; ".join(f"{v} with {', '.join(ps)}" for v, ps in groups.items())
    missing = [p for p in verdicts if p not in judged]
    return f"not judged with {', '.join(missing)}" if missing else STABLE


def verdict_table(con: duckdb.DuckDBPyConnection, players: Sequence[Player]) -> pl.DataFrame:
    """One row per card any player holds: card, set, `verdict@LABEL` and `bought_gain@LABEL`
    per player, and `across_skill` (verdict_text). A card a player never drafted has no
    estimate there."""
    table: pl.DataFrame | None = None
    for label, runs in players:
        v = card_verdicts(con, runs).select(
            "card",
            "set",
            pl.col("verdict").alias(f"verdict@{label}"),
            pl.col("bought_gain").alias(f"bought_gain@{label}"),
        )
        table = v if table is None else table.join(v, on=["card", "set"], how="full", coalesce=True)
    if table is None:
        raise ValueError("verdict_table needs at least one player")
    cols = [f"verdict@{label}" for label, _ in players]
    table = table.with_columns(pl.col(cols).fill_null(NO_ESTIMATE))
    texts = [
        verdict_text({label: r[f"verdict@{label}"] for label, _ in players})
        for r in table.iter_rows(named=True)
    ]
    return table.with_columns(pl.Series("across_skill", texts, dtype=pl.String)).sort("set", "card")


def unstable(table: pl.DataFrame) -> pl.DataFrame:
    """The rows of a verdict_table whose players disagree."""
    return table.filter(pl.col("across_skill").str.starts_with(DIFFERS))


def fisher_interval(rho: float, n: int, level: float = LEVEL) -> tuple[float | None, float | None]:
    """The interval of Spearman's rho from Fisher's z with Bonett and Wright's (2000) variance
    (1 + rho^2/2) / (n - 3); None for fewer than 4 cards, and when |rho| is 1, where the
    approximation would claim certainty (a perfect order of 4 cards happens by chance 1 time
    in 24)."""
    if n < 4 or math.isnan(rho) or abs(rho) >= 1.0:
        return None, None
    half = float(stats.norm.ppf((1 + level) / 2)) * math.sqrt((1 + rho * rho / 2) / (n - 3))
    z = math.atanh(rho)
    return math.tanh(z - half), math.tanh(z + half)


def rank_correlations(a: pl.DataFrame, b: pl.DataFrame) -> pl.DataFrame:
    """Per set and over all cards (`set` = ALL_SETS), per metric of METRICS: Spearman's rho
    between two players' card_verdicts frames over the cards both measured (n), its interval
    (fisher_interval); rho is None when a side is constant or n < 3."""
    both = a.join(b, on=["card", "set"], how="inner", suffix="_b")
    rows = []
    groups = [
        (ALL_SETS, both),
        *(
            (str(s), both.filter(pl.col("set") == s))
            for s in sorted(both.get_column("set").unique().to_list())
        ),
    ]
    for name, df in groups:
        for metric in METRICS:
            pairs = df.select(metric, f"{metric}_b").drop_nulls()
            n = pairs.height
            rho = None
            if n >= 3:
                x, y = pairs.get_column(metric), pairs.get_column(f"{metric}_b")
                if x.n_unique() > 1 and y.n_unique() > 1:
                    rho = float(stats.spearmanr(x.to_numpy(), y.to_numpy()).statistic)
            lo, hi = fisher_interval(rho, n) if rho is not None else (None, None)
            rows.append(
                {"set": name, "metric": metric, "cards": n, "rho": rho, "rho_lo": lo, "rho_hi": hi}
            )
    return pl.DataFrame(
        rows,
        schema={
            "set": pl.String,
            "metric": pl.String,
            "cards": pl.Int64,
            "rho": pl.Float64,
            "rho_lo": pl.Float64,
            "rho_hi": pl.Float64,
        },
    )


def setup_difference(
    con: duckdb.DuckDBPyConnection, runs: Sequence[int], other: Sequence[int]
) -> str | None:
    """Why `other` is not the same setup as `runs` (other boards, other pool cards), or None:
    verdicts compared across skill must be about the same cards on the same boards."""

    def setup(rs: Sequence[int]) -> tuple[set[str], set[str]]:
        ids = run_list(rs)
        boards = query(con, f"SELECT DISTINCT board FROM run_boards WHERE run_id IN ({ids})")
        pool = query(
            con, f"SELECT DISTINCT name FROM run_cards WHERE in_pool AND run_id IN ({ids})"
        )
        return (set(boards.get_column("board").to_list()), set(pool.get_column("name").to_list()))

    (boards_a, pool_a), (boards_b, pool_b) = setup(runs), setup(other)
    if boards_a != boards_b:
        return (
            f"run {run_list(other)} plays {', '.join(sorted(boards_b))}, not "
            f"{', '.join(sorted(boards_a))}"
        )
    if pool_a != pool_b:
        diff = sorted(pool_a ^ pool_b)
        more = f" and {len(diff) - 3} more" if len(diff) > 3 else ""
        return (
            f"run {run_list(other)} has another card pool ({', '.join(diff[:3])}{more} "
            "in only one of them)"
        )
    return None
