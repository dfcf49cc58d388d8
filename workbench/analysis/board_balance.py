"""Boards compared on balance (the report's Boards section): per board its victory condition, how
far apart its seats' win rates lie (seat spread), how far apart the win rates of the sets that
dominate a store lie (set spread), how long its games last and the share its round limit
decides, each with a 95% interval; and which board is the more balanced, by how much.

A spread is the highest win rate of a group (a seat; a dominant set, "mixed" left out) minus the
lowest, in percentage points: 0 when every seat or set wins equally often. Its interval is a
percentile bootstrap over the board's games (a game's seats resampled together), seeded, so a
run always gives the same one. A board's imbalance is the larger of its two spreads (the worse
of seats and sets); the boards of a run are played in separate games, so the difference between
two boards' imbalances is bootstrapped from independent resamples of each.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import polars as pl

from workbench.analysis import sets
from workbench.analysis.runs import Runs
from workbench.analysis.severity import Finding, Thresholds, num
from workbench.analysis.source import query, run_list
from workbench.analysis.stats import LEVEL, mean_ci, proportion_ci

REPLICATES = 1000
"""Bootstrap replicates of a spread."""
CHUNK = 50
"""Replicates drawn at once (a chunk's weights are CHUNK x games)."""
SEED = 36
"""The bootstrap's seed: the same run gives the same intervals."""

Array = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Spread:
    """Highest minus lowest group win rate, its 95% interval and its bootstrap replicates;
    NaN with fewer than two groups."""

    value: float
    low: float
    high: float
    replicates: Array
    groups: int


@dataclass(frozen=True)
class BoardBalance:
    """One board's balance with intervals (rates as fractions, lengths in rounds)."""

    board: str
    victory: str
    games: int
    seats: Spread
    sets: Spread
    rounds: tuple[float, float, float]
    round_limit: tuple[int, float, float]

    @property
    def imbalance(self) -> Array:
        """The worse spread per replicate (seats or sets, NaN ignored)."""
        return np.fmax(self.seats.replicates, self.sets.replicates)

    @property
    def worst(self) -> float:
        return float(np.fmax(self.seats.value, self.sets.value))


def spread(wins: Array, n: Array, rng: np.random.Generator) -> Spread:
    """The spread of the group win rates of `wins` / `n` (games x groups, seat-games per game
    and group) and its bootstrap over games."""
    games = n.shape[0]
    reps = []
    for start in range(0, REPLICATES if games else 0, CHUNK):
        size = min(CHUNK, REPLICATES - start)
        weights = rng.multinomial(games, np.full(games, 1 / games), size=size).astype(float)
        reps.append(_spreads(weights @ wins, weights @ n))
    replicates = np.concatenate(reps) if reps else np.zeros(0)
    low, high = _percentiles(replicates)
    value = float(_spreads(wins.sum(0), n.sum(0)))
    return Spread(value, low, high, replicates, int((n.sum(0) > 0).sum()))


def _spreads(wins: Array, n: Array) -> Array:
    """Highest minus lowest win rate over the last axis (groups); NaN with fewer than two
    groups that played."""
    rate = np.where(n > 0, wins / np.where(n > 0, n, 1), np.nan)
    gap = np.fmax.reduce(rate, axis=-1) - np.fmin.reduce(rate, axis=-1)
    return np.where((n > 0).sum(axis=-1) >= 2, gap, np.nan)


def _percentiles(replicates: Array) -> tuple[float, float]:
    finite = replicates[np.isfinite(replicates)]
    if finite.size < 0.9 * max(replicates.size, 1):
        return math.nan, math.nan
    tail = (1 - LEVEL) / 2
    return float(np.quantile(finite, tail)), float(np.quantile(finite, 1 - tail))


def _matrix(rows: pl.DataFrame, group: str) -> tuple[Array, Array]:
    """Wins and seat-games per game (rows) and group (columns) of one board's seat-games."""
    games = {g: i for i, g in enumerate(rows.get_column("game_id").unique().sort().to_list())}
    names = {k: i for i, k in enumerate(rows.get_column(group).drop_nulls().unique().sort())}
    wins, n = np.zeros((len(games), len(names))), np.zeros((len(games), len(names)))
    for g, k, won in rows.select("game_id", group, "won").iter_rows():
        if k in names:
            n[games[g], names[k]] += 1
            wins[games[g], names[k]] += won
    return wins, n


def balances(r: Runs) -> list[BoardBalance]:
    """Every board's balance, in board order."""
    seats = query(
        r.con, f"SELECT game_id, board, seat, won, dominant FROM ({sets._seat_sets(r.runs)})"
    )
    seats = seats.with_columns(
        pl.when(pl.col("dominant").is_in(["mixed", "?"]))
        .then(None)
        .otherwise(pl.col("dominant"))
        .alias("dominant")
    )
    games = query(
        r.con,
        f"""SELECT g.board, any_value(coalesce(b.victory_kind, '?')) AS victory,
                   count(*) AS games, sum(g.rounds) AS total, sum(g.rounds * g.rounds) AS squares,
                   count(*) FILTER (WHERE g.reason LIKE 'round limit%') AS round_limit
            FROM games g LEFT JOIN run_boards b ON b.run_id = g.run_id AND b.board = g.board
            WHERE g.run_id IN ({run_list(r.runs)}) GROUP BY g.board ORDER BY g.board""",
    )
    rng = np.random.default_rng(SEED)
    out = []
    for row in games.iter_rows(named=True):
        rows = seats.filter(pl.col("board") == row["board"])
        limit = int(row["round_limit"])
        out.append(
            BoardBalance(
                row["board"],
                row["victory"],
                int(row["games"]),
                spread(*_matrix(rows, "seat"), rng),
                spread(*_matrix(rows, "dominant"), rng),
                mean_ci(int(row["games"]), float(row["total"]), float(row["squares"])),
                (limit, *proportion_ci(limit, int(row["games"]))),
            )
        )
    return out


def _points(v: float, lo: float, hi: float) -> str:
    if math.isnan(v):
        return "no estimate (fewer than two groups)"
    ends = "" if math.isnan(lo) else f" ({num(100 * lo)} to {num(100 * hi)})"
    return f"{num(100 * v)} points{ends}"


def table(found: Sequence[BoardBalance]) -> pl.DataFrame:
    """One row per measure, one column per board: victory condition, games, seat spread, set
    spread, mean rounds and the share decided by the round limit, each with its interval."""
    rows: dict[str, list[str]] = {
        "victory condition": [b.victory for b in found],
        "games": [f"{b.games:,}" for b in found],
        "seat spread": [_points(b.seats.value, b.seats.low, b.seats.high) for b in found],
        "set spread": [_points(b.sets.value, b.sets.low, b.sets.high) for b in found],
        "game length": [
            f"{b.rounds[0]:.1f} rounds ({b.rounds[1]:.1f} to {b.rounds[2]:.1f})" for b in found
        ],
        "decided by the round limit": [
            f"{100 * b.round_limit[0] / max(b.games, 1):.1f}% ({100 * b.round_limit[1]:.1f} to "
            f"{100 * b.round_limit[2]:.1f}%, n={b.games:,})"
            for b in found
        ],
    }
    return pl.DataFrame(
        {
            "measure": list(rows),
            **{b.board: [v[i] for v in rows.values()] for i, b in enumerate(found)},
        },
        schema={"measure": pl.String, **{b.board: pl.String for b in found}},
    )


def board_findings(r: Runs) -> list[Finding]:
    """The report's finding on its boards' balance (more_balanced), when it has several."""
    return more_balanced(balances(r), r.th) if r.boards > 1 else []


def more_balanced(found: Sequence[BoardBalance], th: Thresholds) -> list[Finding]:
    """With several boards: the most balanced board (the smallest worse spread of seats and
    sets) against the least, by how much with the difference's interval; high when the whole
    interval lies beyond the band, medium when it excludes 0, low when the games cannot tell
    the two apart."""
    judged = [b for b in found if math.isfinite(b.worst)]
    if len(judged) < 2:
        return []
    best = min(judged, key=lambda b: (b.worst, b.board))
    worst = max(judged, key=lambda b: (b.worst, b.board))
    diff = worst.imbalance - best.imbalance
    low, high = _percentiles(diff)
    gap = worst.worst - best.worst
    if math.isnan(low) or low <= 0:
        sev, tail = "low", "; these games cannot tell the two apart"
    else:
        sev, tail = ("high" if low > th.band else "medium"), ""
    among = f" (the most and the least balanced of {len(judged)})" if len(judged) > 2 else ""

    def widest(b: BoardBalance) -> str:
        which = "seats" if not b.sets.value > b.seats.value else "sets"
        return f"{num(100 * b.worst)} points between its {which}"

    return [
        Finding(
            "boards",
            sev,
            f"{best.board} is more balanced than {worst.board}{among}: its widest gap in win "
            f"rate is {widest(best)}, against {widest(worst)} on {worst.board}, "
            f"{num(100 * gap)} points less ({num(100 * low)} to {num(100 * high)}, "
            f"n={best.games + worst.games:,} games){tail}.",
            gap,
            None if math.isnan(low) else low,
            None if math.isnan(high) else high,
            best.games + worst.games,
            "boards",
            f"{best.board} vs {worst.board}",
            gap - th.band,
        )
    ]
