"""`workbench ab` (issue 19, item 4): paired rounds that stop when the difference is known to
±precision, with intervals that stay valid under the repeated looks (alpha spending with a
Bonferroni bound, workbench/ab.py)."""

from __future__ import annotations

import math
from pathlib import Path

import duckdb
import numpy as np
import polars as pl
import pytest

from app.cli import main
from tests.test_cli_studies import DUEL, TINY
from workbench import ab
from workbench.analysis import cards
from workbench.fairvalue import Counts

ALPHA = 0.05


def test_the_looks_spend_exactly_alpha() -> None:
    """alpha/K at each of K looks: the union bound over the looks is alpha."""
    for looks in (1, 2, 5, 40):
        spent = [ab.look_alpha(k, looks, ALPHA) for k in range(1, looks + 1)]
        assert math.isclose(sum(spent), ALPHA)
        assert all(a > 0 for a in spent)
    with pytest.raises(ValueError):
        ab.look_alpha(3, 2, ALPHA)


# Constructed truth: two seats per game; a seat holds the card with probability 0.6 and buys it
# with probability 0.5 (the same draft and coin for both values: the same seed). Win chances
# per value (A, B) and group (bought, never bought); a seat's win is decided by one uniform
# draw for both values in half of the games (the pair correlated, as paired seeds make it) and
# by a draw per value in the others (the games diverged).
HOLD, BUY = 0.6, 0.5
WIN = {"A": (0.55, 0.45), "B": (0.50, 0.47)}
TRUE = {
    "improvement": (0.50 - 0.47) - (0.55 - 0.45),
    "win_rate": (BUY * 0.50 + (1 - BUY) * 0.47) - (BUY * 0.55 + (1 - BUY) * 0.45),
}


def _games(rng: np.random.Generator, games: int) -> Counts:
    """Per value (rows A, B) and game: bought and never-bought seat-games and their wins."""
    hold = rng.random((games, 2)) < HOLD
    bought = hold & (rng.random((games, 2)) < BUY)
    never = hold & ~bought
    shared = rng.random((games, 1)) < 0.5
    same = rng.random((games, 2))
    rows = []
    for value in ("A", "B"):
        luck = np.where(shared, same, rng.random((games, 2)))
        p_bought, p_never = WIN[value]
        rows.append(
            (
                (bought.sum(1), (bought & (luck < p_bought)).sum(1)),
                (never.sum(1), (never & (luck < p_never)).sum(1)),
            )
        )
    return Counts(
        *(
            np.array([r[g][i] for r in rows], dtype=float)
            for g, i in ((0, 0), (0, 1), (1, 0), (1, 1))
        )
    )


def _study(seed: int, metric: str, precision: float, round_games: int, looks: int) -> list[ab.Look]:
    rng = np.random.default_rng(seed)
    parts: list[Counts] = []

    def next_round() -> Counts:
        parts.append(_games(rng, round_games))
        return Counts(
            *(
                np.concatenate([getattr(p, f) for p in parts], axis=1)
                for f in ("n_a", "w_a", "n_b", "w_b")
            )
        )

    return ab.sequential(next_round, metric, precision, looks, ALPHA)


@pytest.mark.parametrize("metric, precision", [("improvement", 0.06), ("win_rate", 0.03)])
def test_the_stopped_interval_covers_the_truth_at_its_rate(metric: str, precision: float) -> None:
    """200 studies of a known difference, each looking after every round of 100 games and
    stopping at ±precision (or after 40 looks): the interval they stop at covers the truth in
    at least 95% of them, less a slack of two binomial standard errors; they stop early."""
    runs = 200
    finals = [_study(seed, metric, precision, 100, 40)[-1] for seed in range(runs)]
    covered = sum(f.low <= TRUE[metric] <= f.high for f in finals)
    assert covered / runs >= 1 - ALPHA - 2 * math.sqrt(ALPHA * (1 - ALPHA) / runs)
    assert all(f.look < 40 and f.half_width <= precision for f in finals)


@pytest.mark.parametrize("metric", sorted(ab.METRICS))
def test_one_look_covers_at_its_stated_rate_not_more(metric: str) -> None:
    """The standard error the looks rest on is right, not merely large: a single 95% look
    after 500 paired games covers the truth in 92-98% of 400 studies (the Bonferroni bound
    makes the sequential intervals conservative, which alone could hide a wrong one)."""
    rng = np.random.default_rng(3)
    looks = [ab.look_at(_games(rng, 500), metric, 1, 1, ALPHA) for _ in range(400)]
    covered = sum(f.low <= TRUE[metric] <= f.high for f in looks) / len(looks)
    assert 0.92 <= covered <= 0.98


def test_a_look_matches_the_contrast_of_the_sweeps() -> None:
    """The estimate is fairvalue's per-variant contrast (the one definition), B minus A."""
    counts = _games(np.random.default_rng(7), 300)
    contrast, _ = counts.contrast()
    look = ab.look_at(counts, "improvement", 1, 1, ALPHA)
    assert math.isclose(look.estimate, contrast[1] - contrast[0])
    assert look.low < look.estimate < look.high


def test_a_sample_without_spread_never_settles() -> None:
    """Forty games that came out the same for both values give a zero-width interval with
    enough seat-games: not an answer, since no game tells the values apart."""
    n = np.ones((2, 40))
    look = ab.look_at(Counts(n, n.copy(), n.copy(), np.zeros((2, 40))), "improvement", 1, 2, ALPHA)
    assert look.half_width == 0 and look.smallest == 40 and look.discordant == 0
    assert not ab.settled(look, 0.02)


def test_ab_plays_rounds_into_the_db_and_prints_the_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two rounds of four games per value on two workers (one pool for both rounds), then the
    limit: two finished runs of eight games, recorded as an `ab` study with its estimate, which
    is the difference of analysis/cards.py's improvement when bought."""
    db = tmp_path / "ab.duckdb"
    assert (
        main(
            [
                "ab",
                "--sets",
                TINY,
                "--board",
                DUEL,
                "--card",
                "Footman",
                "--field",
                "buy",
                "--values",
                "2,3",
                "--round-games",
                "4",
                "--max-games",
                "8",
                "--workers",
                "2",
                "--db",
                str(db),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "games: 8 per value (16 in all), 2 rounds of up to 4" in out
    assert "time: " in out
    assert "Footman.buy=3 minus Footman.buy=2" in out
    con = duckdb.connect(str(db), read_only=True)
    try:
        runs = con.execute(
            "SELECT r.run_id, r.status, r.games, s.kind, s.value FROM runs r "
            "JOIN sweeps s USING (run_id) ORDER BY s.value"
        ).fetchall()
        assert [r[1:] for r in runs] == [("finished", 8, "ab", 2), ("finished", 8, "ab", 3)]
        assert con.execute(
            "SELECT run_id, count(*) FROM games GROUP BY ALL ORDER BY 1"
        ).fetchall() == [(runs[0][0], 8), (runs[1][0], 8)]
        ((quantity, estimate),) = con.execute(
            "SELECT quantity, estimate FROM sweep_results"
        ).fetchall()
        assert quantity == "ab:improvement"
        gains = [
            cards.card_results(con, [r[0]])
            .filter(pl.col("card") == "Footman")
            .get_column("bought_gain")
            .item()
            for r in runs
        ]
    finally:
        con.close()
    if estimate is not None:
        assert math.isclose(estimate, gains[1] - gains[0])


@pytest.mark.parametrize(
    "args, message",
    [
        (["--values", "2"], "--values: give at least two values, not '2'"),
        (["--values", "2,3,4"], "--values takes two different values A,B, not '2,3,4'"),
        (["--values", "2,2"], "--values takes two different values A,B, not '2,2'"),
        (["--values", "2,x"], "--values: 'x' in '2,x' is not a whole number"),
        (["--values", "2,3", "--precision", "0"], "--precision must lie between 0 and 1, not 0.0"),
        (["--values", "2,3", "--level", "1.5"], "--level must lie between 0 and 1, not 1.5"),
        (["--values", "2,3", "--round-games", "0"], "--round-games must be at least 1, not 0"),
        (["--values", "2,3", "--max-games", "50"], "--max-games must be 100 (--round-games) to"),
        (["--values", "2,3", "--workers", "0"], "--workers must be at least 1, not 0"),
        (["--values", "2,3", "--card", "Fotman"], "did you mean Footman?"),
    ],
)
def test_bad_ab_arguments_exit_2_and_write_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    db = tmp_path / "ab.duckdb"
    assert (
        main(
            [
                "ab",
                "--sets",
                TINY,
                "--board",
                DUEL,
                "--card",
                "Footman",
                "--field",
                "buy",
                "--db",
                str(db),
                *args,
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert err.startswith("workbench ab: error: ") and message in err
    assert err.count("\n") == 1
    assert not db.exists()
