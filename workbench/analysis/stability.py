"""Verdicts across skill: whether what the report says about a card holds when the same setup is
played by a stronger or weaker agent (conclusions that hold across skill).

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
from workbench.analysis.card_findings import NO_ESTIMATE, card_verdict
from workbench.analysis.runs import Runs, cached
from workbench.analysis.source import query, run_list
from workbench.analysis.stats import LEVEL

METRICS = {
    "wr_in_store": "win rate in store",
    "bought_gain": "improvement when bought",
    "buy_rate": "buy rate",
}
"""The per-card metrics whose ranks are compared between two players (cards.card_results)."""
SAMPLE = {"wr_in_store": "in_store", "bought_gain": "bought", "buy_rate": "in_store"}
"""The observations each metric of a card rests on: the seats that held it in store, or those
of them that bought it (the report rates a finding on the improvement when bought by
`bought`)."""
STABLE, DIFFERS = "stable", "differs"
ALL_SETS = "all"
"""The `set` of the correlation row over every card of the setup."""
TARGET_RHO = 0.7
"""The bar for the rank correlation of improvement when bought across skill."""

Player = tuple[str, Sequence[int]]
"""A label and the runs it played."""


def card_verdicts(r: Runs, half: int | None = None, min_sample: int = 0) -> pl.DataFrame:
    """Per card of the runs (of one `half` of their games, cards.card_results): its set,
    METRICS, in_store, bought and the report's verdict. A metric resting on fewer than
    `min_sample` observations (SAMPLE) is left out (null): the report greys such a figure and
    rates any finding from it low (MIN_SAMPLE), and in a rank order an improvement when bought
    from a handful of buys, mostly noise, would weigh as much as one from thousands."""
    t = cards.card_results(r, half)
    verdicts = [
        card_verdict(g, q)
        for g, q in zip(
            t.get_column("bought_gain").to_list(),
            t.get_column("bought_gain_bh").to_list(),
            strict=True,
        )
    ]
    return t.select(
        "card",
        "set",
        *(pl.when(pl.col(SAMPLE[m]) >= min_sample).then(pl.col(m)).alias(m) for m in METRICS),
        "in_store",
        "bought",
    ).with_columns(pl.Series("verdict", verdicts, dtype=pl.String))


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


def verdict_table(r: Runs, players: Sequence[Player]) -> pl.DataFrame:
    """One row per card any player holds: card, set, `verdict@LABEL` and `bought_gain@LABEL`
    per player (each player's runs among those `r` ensured), and `across_skill`
    (verdict_text). A card a player never drafted has no estimate there."""
    table: pl.DataFrame | None = None
    for label, runs in players:
        v = card_verdicts(r.of(runs)).select(
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


@cached
def skill_players(r: Runs) -> list[Player]:
    """The context's runs and each of its `skill` runs as players, the context's first."""
    return players_of(r.con, [r.runs, *([s] for s in r.skill)])


@cached
def across_skill(r: Runs) -> pl.DataFrame | None:
    """The verdict_table of the context's runs against each of its `skill` runs (report
    --skill-run), None without them."""
    return verdict_table(r, skill_players(r)) if r.skill else None


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


def reliability(r: Runs, min_sample: int = 0) -> dict[str, float | None]:
    """Per metric of METRICS: how well the runs' own card order repeats, over all cards (with
    `min_sample` observations in each half, card_verdicts).

    The games are split in two halves (even and odd game id: the same halves for two runs
    played on the same seeds) and the halves' card orders compared (Spearman, rank_correlations);
    the Spearman-Brown formula 2r / (1 + r) carries the halves' agreement r to the whole run
    (Spearman 1910, Brown 1910). Runs of unequal length pool alike: each half holds half of
    every run's games (within one game of it), so each is half of the whole and the formula
    carries r to all of the runs' games. 0 when the halves' orders do not agree at all
    (r <= 0), None when they have no r (fewer than 3 cards, or a constant metric)."""
    halves = rank_correlations(card_verdicts(r, 0, min_sample), card_verdicts(r, 1, min_sample))
    out: dict[str, float | None] = {}
    for row in halves.filter(pl.col("set") == ALL_SETS).iter_rows(named=True):
        rho = row["rho"]
        out[row["metric"]] = None if rho is None else 2 * rho / (1 + rho) if rho > 0 else 0.0
    return out


HALVES = ("even", "odd")
"""The split halves of a run: games of even and of odd id."""


def split_halves(
    r: Runs,
    a: Player,
    b: Player,
    metric: str = "bought_gain",
    min_sample: int = 0,
) -> list[dict[str, object]]:
    """Spearman's rho of `metric` over all cards between every two of the four halves of two
    players' runs (a skill study's, whose runs play the same seeds, among those `r` ensured):
    each player's halves
    against each other (how well its own order repeats), and each half of one against each of
    the other's. `seeds` says whether the two halves played the same seeds, other ones, or
    partly the same (a fast agent's extra games are on seeds of their own); `games` each
    half's games. When the players' halves agree with each other about as well as each player's
    halves agree with themselves, what separates the two card orders is the runs' noise, not
    the players' skill."""
    half = {}
    seeds = {}
    for label, runs in (a, b):
        for i, h in enumerate(HALVES):
            half[label, h] = card_verdicts(r.of(runs), i, min_sample)
            seeds[label, h] = half_seeds(r.of(runs), i)
    pairs = [
        ((a[0], "even"), (a[0], "odd")),
        ((b[0], "even"), (b[0], "odd")),
        ((a[0], "even"), (b[0], "odd")),
        ((a[0], "odd"), (b[0], "even")),
        ((a[0], "even"), (b[0], "even")),
        ((a[0], "odd"), (b[0], "odd")),
    ]
    rows: list[dict[str, object]] = []
    for x, y in pairs:
        corr = rank_correlations(half[x], half[y]).filter(
            (pl.col("set") == ALL_SETS) & (pl.col("metric") == metric)
        )
        rows.append(
            {
                "compared": f"{x[0]} {x[1]} ~ {y[0]} {y[1]}",
                "seeds": seed_overlap(seeds[x], seeds[y]),
                "games": [len(seeds[x]), len(seeds[y])],
                "rho": corr.item(0, "rho"),
                "cards": corr.item(0, "cards"),
            }
        )
    return rows


def half_seeds(r: Runs, half: int) -> list[int]:
    """The seeds of the runs' games of even (`half` 0) or odd (1) id, one per game: the halves
    card_results splits by (game_id % 2 is the game index's parity within each run)."""
    ids = run_list(r.runs)
    rows = query(
        r.con, f"SELECT seed FROM games WHERE run_id IN ({ids}) AND game_id % 2 = {int(half)}"
    )
    return [int(s) for s in rows.get_column("seed")]


def seed_overlap(x: Sequence[int], y: Sequence[int]) -> str:
    """`same` when two halves played the same seeds, `other` when none in common, else
    `partly same (K shared)`."""
    shared = set(x) & set(y)
    if not shared:
        return "other"
    if set(x) == set(y):
        return "same"
    return f"partly same ({len(shared):,} shared)"


def ceiling(reliability_a: float | None, reliability_b: float | None) -> float | None:
    """The highest correlation two runs' card orders can show when both measure the same true
    order with their own noise: sqrt(reliability_a * reliability_b) (Spearman's correction for
    attenuation, 1904). A cross-skill correlation near its ceiling is as high as the runs' sizes
    allow; None when a reliability is unknown."""
    if reliability_a is None or reliability_b is None:
        return None
    return math.sqrt(reliability_a * reliability_b)


def games_for(reliability_now: float | None, games: int, target: float) -> int | None:
    """The games a run would need for its card order to reach reliability `target`, from the
    reliability it has at `games` (the Spearman-Brown prophecy: reliability grows with the run's
    length as k r / (1 + (k - 1) r)); None when the reliability is unknown or target not in
    (0, 1)."""
    if reliability_now is None or not 0 < target < 1 or reliability_now <= 0:
        return None
    if reliability_now >= 1:
        return games
    k = target * (1 - reliability_now) / (reliability_now * (1 - target))
    return math.ceil(round(games * k, 9))  # 4.000000000000001 runs is 4


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


def noise_ceilings(
    r: Runs,
    runs: dict[str, list[int]],
    games: dict[str, int],
    min_sample: int,
) -> list[dict[str, object]]:
    """Per metric over all cards: each run's reliability, the ceiling on their correlation, and
    the games each run would need for a reliability of TARGET_RHO (the runs among those `r`
    ensured)."""
    fast, strong = runs
    rel = {p: reliability(r.of(ids), min_sample) for p, ids in runs.items()}
    return [
        {
            "metric": m,
            fast: rel[fast][m],
            strong: rel[strong][m],
            "ceiling": ceiling(rel[fast][m], rel[strong][m]),
            f"games_for_{TARGET_RHO}": {
                p: games_for(rel[p][m], games[p], TARGET_RHO) for p in (fast, strong)
            },
        }
        for m in METRICS
    ]
