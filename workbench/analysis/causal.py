"""Causal card effects from the randomised buying design (docs/design-studies.md, "Causal card
effects"; engine/agents/factorial.py plays it, the `assignments` table records it).

In a design run every seat's store cards are each forced (bought whenever a copy is affordable)
or banned (never bought) by a coin the agents do not choose. A card's effect is the win rate of
the seats whose store holds it with the card forced minus those with it banned: a randomised
comparison, so neither who is ahead nor the agent's taste decides who buys it.

The estimate is a linear probability model of a seat's win on, for every card, "holds it" and
"holds it forced", the same two summed over the seat's allies and over its rivals in the game
(R21.26: on a board with teams the team's other seats are allies, every other seat a rival),
plus board-and-seat strata (regression adjustment: the other cards' arms, and the other seats'
(a rival made to buy a strong card), explain part of who wins, which narrows each card's
interval without biasing it, because the arms are independent coins). Its standard errors are
heteroskedasticity-robust (HC2, which for one randomised comparison equals Neyman's
conservative variance). Lin (2013), "Agnostic notes on regression adjustments to experimental
data", Annals of Applied Statistics 7(1).

`estimate` works on plain frames (a test builds them by hand); `effects` reads them from the
store for the design runs of a context (runs.py finds them: `design_runs`, `companion_runs`);
`card_effects` does it on a bare connection.
"""

from __future__ import annotations

from collections.abc import Sequence

import duckdb
import numpy as np
import polars as pl
from scipy import stats

from workbench.analysis.runs import Runs
from workbench.analysis.source import in_runs, query, run_list
from workbench.analysis.stats import LEVEL
from workbench.store.keys import parse_teams

MIN_ARM = 10
"""Seats in each arm before a card's effect is estimated at all."""

EFFECT_SCHEMA: dict[str, type[pl.DataType]] = {
    "card": pl.String,
    "n": pl.Int64,
    "n_forced": pl.Int64,
    "n_banned": pl.Int64,
    "wr_forced": pl.Float64,
    "wr_banned": pl.Float64,
    "effect": pl.Float64,
    "se": pl.Float64,
    "low": pl.Float64,
    "high": pl.Float64,
}
"""`estimate`'s columns: seats holding the card (`n`) in each arm, their win rates, the
adjusted effect with its robust standard error and 95% interval (NULL below MIN_ARM)."""


def estimate(seats: pl.DataFrame, arms: pl.DataFrame, level: float = LEVEL) -> pl.DataFrame:
    """Each card's effect on winning. `seats`: one row per seat-game, columns game_id, seat,
    won (0/1), stratum (e.g. board and seat position) and optionally team (the seat's side in
    its game; without it every seat is a side of its own); `arms`: game_id, seat, card, forced
    (0/1), one row per card name in the seat's store. A row of EFFECT_SCHEMA per card."""
    cards = sorted(set(arms.get_column("card").to_list()))
    if not cards or seats.height == 0:
        return pl.DataFrame(schema=EFFECT_SCHEMA)
    if "team" not in seats.columns:
        seats = seats.with_columns(pl.col("seat").alias("team"))
    keyed = seats.select("game_id", "seat", "won", "stratum", "team").with_row_index("row")
    game = keyed.get_column("game_id").rank("dense").cast(pl.Int64).to_numpy() - 1
    side = keyed.select(pl.struct("game_id", "team").rank("dense")).to_series().to_numpy() - 1
    joined = arms.join(keyed.select("game_id", "seat", "row"), on=["game_id", "seat"])
    n, k = keyed.height, len(cards)
    col = {c: i for i, c in enumerate(cards)}
    rows = joined.get_column("row").to_numpy()
    idx = np.array([col[c] for c in joined.get_column("card").to_list()], dtype=np.int64)
    forced = joined.get_column("forced").cast(pl.Float64).to_numpy()
    held = np.zeros((n, k))
    held[rows, idx] = 1.0
    arm = np.zeros((n, k))
    arm[rows, idx] = forced
    y = keyed.get_column("won").cast(pl.Float64).to_numpy()
    strata = keyed.get_column("stratum").cast(pl.String).to_list()
    names = sorted(set(strata))
    dummies = np.zeros((n, max(len(names) - 1, 0)))
    for i, s in enumerate(strata):
        j = names.index(s)
        if j:
            dummies[i, j - 1] = 1.0
    x = np.hstack(
        [np.ones((n, 1)), dummies, held, arm, *_others(np.hstack([held, arm]), game, side)]
    )
    coef, se = _ols_hc2(x, y)
    first = 1 + dummies.shape[1] + k
    z = float(stats.norm.ppf(0.5 + level / 2))
    out = []
    for c, j in col.items():
        h = held[:, j] == 1
        f = h & (arm[:, j] == 1)
        b = h & (arm[:, j] == 0)
        nf, nb = int(f.sum()), int(b.sum())
        ok = nf >= MIN_ARM and nb >= MIN_ARM and np.isfinite(se[first + j])
        e, s = float(coef[first + j]), float(se[first + j])
        out.append(
            {
                "card": c,
                "n": int(h.sum()),
                "n_forced": nf,
                "n_banned": nb,
                "wr_forced": float(y[f].mean()) if nf else None,
                "wr_banned": float(y[b].mean()) if nb else None,
                "effect": e if ok else None,
                "se": s if ok else None,
                "low": e - z * s if ok else None,
                "high": e + z * s if ok else None,
            }
        )
    return pl.DataFrame(out, schema=EFFECT_SCHEMA)


def _others(per_seat: np.ndarray, game: np.ndarray, side: np.ndarray) -> list[np.ndarray]:
    """Per seat row, the sums of `per_seat` over its allies (the other seats of its side) and
    over its rivals (the seats of the other sides) in its game (`game`, `side`: each row's game
    and side as 0, 1, ...); a block that is zero throughout (no allies on a two-seat board, no
    rivals on the Tyrant's) is left out."""
    by_game = np.zeros((int(game.max()) + 1, per_seat.shape[1]))
    np.add.at(by_game, game, per_seat)
    by_side = np.zeros((int(side.max()) + 1, per_seat.shape[1]))
    np.add.at(by_side, side, per_seat)
    allies = by_side[side] - per_seat
    rivals = by_game[game] - by_side[side]
    return [block for block in (allies, rivals) if block.any()]


def _ols_hc2(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Least-squares coefficients and their HC2 robust standard errors. A column the data
    cannot tell from the others (a card held by every seat, one never forced) gets the
    pseudo-inverse's minimum-norm answer; its standard error is NaN when it is all zeros."""
    xtx_inv = np.linalg.pinv(x.T @ x)
    coef = xtx_inv @ (x.T @ y)
    resid = y - x @ coef
    leverage = np.sum((x @ xtx_inv) * x, axis=1)
    weight = resid**2 / np.clip(1.0 - leverage, 1e-9, None)
    meat = (x * weight[:, None]).T @ x
    cov = xtx_inv @ meat @ xtx_inv
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    se[~x.any(axis=0)] = np.nan
    return coef, se


def design_frames(r: Runs) -> tuple[pl.DataFrame, pl.DataFrame]:
    """`estimate`'s inputs for the design runs `r.runs`: (seats, arms), the arms with each
    seat's buys and plays of the card (summary_cards) for what the agents do with it."""
    runs = r.runs
    ids = run_list(runs)
    seats = query(
        r.con,
        f"""SELECT s.game_id, s.seat, s.won::INT AS won,
                   g.board || ':' || ((s.seat - g.first_player + g.players) % g.players)
                       AS stratum,
                   coalesce(b.teams, '') AS teams,
                   coalesce(b.victory_kind = 'tyrant' AND b.shared_win, false) AS one_side
            FROM game_seats s JOIN games g USING (game_id)
            LEFT JOIN run_boards b ON b.run_id = g.run_id AND b.board = g.board
            WHERE s.game_id IN (SELECT game_id FROM assignments WHERE run_id IN ({ids}))
            ORDER BY 1, 2""",
    )
    keys = ["teams", "seat", "one_side"]
    sides = seats.select(keys).unique()
    sides = sides.with_columns(
        pl.Series("team", [team_of(t, s, bool(o)) for t, s, o in sides.iter_rows()], pl.Int64)
    )
    seats = seats.join(sides, on=keys, how="left").drop("teams", "one_side")
    arms = query(
        r.con,
        f"""SELECT a.game_id, a.seat, a.card, (a.arm = 'forced')::INT AS forced,
                   coalesce(c.bought, 0) AS bought, coalesce(c.plays, 0) AS plays
            FROM assignments a
            LEFT JOIN summary_cards c
                   ON c.game_id = a.game_id AND c.seat = a.seat AND c.card = a.card
            WHERE a.run_id IN ({ids}) AND {in_runs("a.game_id", runs)}
            ORDER BY 1, 2, 3""",
    )
    return seats, arms


def team_of(teams: str, seat: int, one_side: bool = False) -> int:
    """The side of a seat (0-based) as the engine counts it (engine/state.py `_teams`): on a
    board with teams (`run_boards.teams`, keys.parse_teams) its team's index (R21.26); without
    teams on a Tyrant board the players win together (`one_side`), one side (R21.15); else a
    side of its own, -1 - seat."""
    groups = parse_teams(teams)
    for i, members in enumerate(groups):
        if seat in members:
            return i
    return 0 if one_side and not groups else -1 - seat


def usage(arms: pl.DataFrame) -> pl.DataFrame:
    """Per card, what the forced seats did with it: how many bought a copy (`bought_forced`,
    of `n_forced`) and how many of those played one (`played_forced`)."""
    forced = arms.filter(pl.col("forced") == 1)
    return forced.group_by("card").agg(
        pl.len().alias("forced_seats"),
        (pl.col("bought") > 0).sum().alias("bought_forced"),
        ((pl.col("bought") > 0) & (pl.col("plays") > 0)).sum().alias("played_forced"),
    )


def effects(r: Runs) -> pl.DataFrame:
    """Every card's causal effect in the design runs `r.runs` (`estimate`), with what the forced
    seats did with it (`usage`)."""
    seats, arms = design_frames(r)
    effects = estimate(seats, arms.select("game_id", "seat", "card", "forced"))
    return effects.join(usage(arms), on="card", how="left").with_columns(
        pl.col("bought_forced", "played_forced").fill_null(0)
    )


def card_effects(con: duckdb.DuckDBPyConnection, runs: Sequence[int]) -> pl.DataFrame:
    """`effects` of the design runs `runs` on a bare connection, in a context of their own (for
    a study or a benchmark that wants the effects alone)."""
    return effects(Runs(con, runs))
