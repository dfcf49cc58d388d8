"""`workbench ab`: paired rounds that stop when the difference is known to
±precision, with intervals that stay valid under the repeated looks (alpha spending with a
Bonferroni bound, workbench/studies/ab.py)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import duckdb
import numpy as np
import polars as pl
import pytest

from app.cli import main
from tests.test_cli_studies import DUEL, TINY
from workbench.analysis import cards
from workbench.analysis.runs import Runs
from workbench.play.jobs import Job, prepare
from workbench.store import load_run
from workbench.studies import ab, abgames
from workbench.studies.abgames import play_counts
from workbench.studies.fairvalue import Counts, card_counts

ALPHA = 0.05


def test_the_looks_spend_exactly_alpha() -> None:
    """The shares fixed in advance sum to alpha (the union bound over the looks); with four
    looks at alpha 0.05: z = 3.02 at the pilot, 2.05 at the first placed look, 2.90 after."""
    for looks in (1, 2, 3, 4, 10):
        spent = ab.look_alphas(looks, ALPHA)
        assert len(spent) == looks and math.isclose(sum(spent), ALPHA)
        assert all(a > 0 for a in spent)
    assert [round(ab.z_of(a), 2) for a in ab.look_alphas(4, ALPHA)] == [3.02, 2.05, 2.9, 2.9]
    with pytest.raises(ValueError):
        ab.look_alphas(0, ALPHA)


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


def _stream(seed: int) -> Callable[[int], Counts]:
    """The first n paired games of one study's stream (played on demand, kept)."""
    rng = np.random.default_rng(seed)
    parts: list[Counts] = []

    def upto(n: int) -> Counts:
        have = sum(p.n_a.shape[1] for p in parts)
        if n > have:
            parts.append(_games(rng, n - have))
        return Counts(
            *(
                np.concatenate([getattr(p, f) for p in parts], axis=1)[:, :n]
                for f in ("n_a", "w_a", "n_b", "w_b")
            )
        )

    return upto


def _study(seed: int, metrics: list[str], precision: float) -> list[list[ab.Look]]:
    """One study of the constructed case on the schedule `workbench ab` uses: a pilot of 500
    paired games, then looks placed by the sd, four at most, at most 20,000 games."""
    return ab.sequential(_stream(seed), metrics, precision, 500, 20_000, ab.look_alphas(4, ALPHA))


RUNS = 200
FLOOR = 1 - ALPHA - 2 * math.sqrt(ALPHA * (1 - ALPHA) / RUNS)
"""The least share of RUNS studies that must cover: 1 − alpha less two binomial standard errors."""


def _covers(look: ab.Look) -> bool:
    return look.low <= TRUE[look.metric] <= look.high


@pytest.mark.parametrize(
    "metrics, precision", [(["improvement"], 0.06), (["win_rate"], 0.03), (sorted(TRUE), 0.05)]
)
def test_the_stopped_interval_covers_the_truth_at_its_rate(
    metrics: list[str], precision: float
) -> None:
    """200 studies of a known difference on the information-placed schedule: the interval each
    metric stops at covers the truth in at least 95% of them (less two binomial standard
    errors), every study ends within ±precision, and most at the first placed look."""
    studies = [_study(seed, metrics, precision) for seed in range(RUNS)]
    for m in range(len(metrics)):
        assert sum(_covers(s[-1][m]) for s in studies) / RUNS >= FLOOR
    assert all(f.half_width <= precision for s in studies for f in s[-1])
    assert sum(len(s) == 2 for s in studies) >= 0.8 * RUNS


def _every_look_covers(studies: list[list[list[ab.Look]]], m: int) -> float:
    """The share of studies in which every look's interval of metric m covers the truth."""
    return sum(all(_covers(step[m]) for step in looks) for looks in studies) / len(studies)


def test_every_look_covers_at_once_which_naive_looks_do_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Valid under repeated looks whatever the stopping rule: for each metric, in at least 95%
    of 200 studies (less two binomial standard errors) every look's interval covers the truth
    at once, on the schedule `workbench ab` uses (a pilot of 500, then three looks placed by
    the sd for ±5 points, never stopping) and on 20 equal looks at alpha/20 each. The check
    has power: the same placed looks at the naive 1.96 each fail it, 20 equal ones by far."""
    metrics = sorted(TRUE)
    monkeypatch.setattr(ab, "settled", lambda look, precision: False)

    def placed(alphas: list[float]) -> list[list[list[ab.Look]]]:
        return [
            ab.sequential(_stream(seed), metrics, 0.05, 500, 20_000, alphas) for seed in range(RUNS)
        ]

    def equal(alpha: float) -> list[list[list[ab.Look]]]:
        streams = [_stream(seed) for seed in range(RUNS)]
        return [
            [[ab.look_at(upto(100 * k), m, k, alpha) for m in metrics] for k in range(1, 21)]
            for upto in streams
        ]

    spent, naive = placed(ab.look_alphas(4, ALPHA)), placed([ALPHA] * 4)
    assert all(len(looks) == 4 for looks in spent)
    bonferroni, naive_equal = equal(ALPHA / 20), equal(ALPHA)
    for m in range(len(metrics)):
        assert _every_look_covers(spent, m) >= FLOOR
        assert _every_look_covers(bonferroni, m) >= FLOOR
        assert _every_look_covers(naive, m) < FLOOR
        assert _every_look_covers(naive_equal, m) < 0.8


@pytest.mark.parametrize("metric", sorted(ab.METRICS))
def test_one_look_covers_at_its_stated_rate_not_more(metric: str) -> None:
    """The standard error the looks rest on is right, not merely large: a single 95% look
    after 500 paired games covers the truth in 92-98% of 400 studies (the Bonferroni bound
    makes the sequential intervals conservative, which alone could hide a wrong one)."""
    rng = np.random.default_rng(3)
    looks = [ab.look_at(_games(rng, 500), metric, 1, ALPHA) for _ in range(400)]
    covered = sum(f.low <= TRUE[metric] <= f.high for f in looks) / len(looks)
    assert 0.92 <= covered <= 0.98


def test_a_look_matches_the_contrast_of_the_sweeps() -> None:
    """The estimate is fairvalue's per-variant contrast (the one definition), B minus A."""
    counts = _games(np.random.default_rng(7), 300)
    contrast, _ = counts.contrast()
    look = ab.look_at(counts, "improvement", 1, ALPHA)
    assert math.isclose(look.estimate, contrast[1] - contrast[0])
    assert look.low < look.estimate < look.high


def test_a_sample_without_spread_never_settles() -> None:
    """Forty games that came out the same for both values give a zero-width interval with
    enough seat-games: not an answer, since no game tells the values apart."""
    n = np.ones((2, 40))
    look = ab.look_at(Counts(n, n.copy(), n.copy(), np.zeros((2, 40))), "improvement", 1, ALPHA)
    assert look.half_width == 0 and look.smallest == 40 and look.discordant == 0
    assert not ab.settled(look, 0.02)


def _footman(db: Path, *extra: str) -> list[str]:
    """Footman's buy 2 against 3 on the tiny duel: a pilot of 4 games per value, at most 8."""
    return [
        *("ab", "--sets", TINY, "--board", DUEL, "--card", "Footman", "--field", "buy"),
        *("--values", "2,3", "--first-look", "4", "--max-games", "8", "--db", str(db), *extra),
    ]


def test_ab_stores_with_store_and_prints_the_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A pilot of four games per value on two workers (one pool for both looks), then the
    limit: two finished runs of eight games, recorded as an `ab` study with both metrics; the
    improvement is the difference of analysis/cards.py's improvement when bought, and the
    counts the workers took from the records without events equal those read back from the
    stored picks and buy events (fairvalue.card_counts)."""
    db = tmp_path / "ab.duckdb"
    assert main(_footman(db, "--workers", "2", "--store")) == 0
    out = capsys.readouterr().out
    assert "games: 8 paired games per value in the answer (16 in all), 2 looks" in out
    assert "s wall, " in out and "s CPU" in out
    assert "Footman.buy=3 minus Footman.buy=2" in out
    con = duckdb.connect(str(db), read_only=True)
    try:
        runs = con.execute(
            "SELECT r.run_id, r.status, r.games, s.kind, s.value FROM runs r "
            "JOIN sweeps s USING (run_id) ORDER BY s.value"
        ).fetchall()
        assert [r[1:] for r in runs] == [("finished", 8, "ab", 2), ("finished", 8, "ab", 3)]
        results = con.execute("SELECT quantity, estimate FROM sweep_results ORDER BY 1").fetchall()
        assert [q for q, _ in results] == ["ab:improvement", "ab:win_rate"]
        gains = [
            cards.card_results(Runs(con, [r[0]]))
            .filter(pl.col("card") == "Footman")
            .get_column("bought_gain")
            .item()
            for r in runs
        ]
        stored = card_counts(con, [r[0] for r in runs], "Footman", 8)
        jobs = [
            Job(r[0], spec, prepare(spec).configs)
            for r in runs
            for spec in [load_run(con, r[0])[0]]
        ]
    finally:
        con.close()
    counted = [play_counts(job, "Footman", range(8), False)[1] for job in jobs]
    for value, c in enumerate(counted):
        assert np.array_equal(
            c, np.stack([getattr(stored, f)[value] for f in ("n_a", "w_a", "n_b", "w_b")])
        )
    if results[0][1] is not None:
        assert math.isclose(results[0][1], gains[1] - gains[0])


def test_ab_without_store_keeps_no_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --store the study plays only counts: the answer is recorded, no run or game."""
    db = tmp_path / "ab.duckdb"
    assert main(_footman(db, "--workers", "1", "--metric", "improvement")) == 0
    assert "games: 8 paired games per value" in capsys.readouterr().out
    con = duckdb.connect(str(db), read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM runs").fetchall() == [(0,)]
        assert con.execute("SELECT count(*) FROM games").fetchall() == [(0,)]
        assert con.execute("SELECT run_id, value FROM sweeps ORDER BY 2").fetchall() == [
            (None, 2),
            (None, 3),
        ]
        assert con.execute("SELECT quantity FROM sweep_results").fetchall() == [("ab:improvement",)]
    finally:
        con.close()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--values", "2"], "--values: give at least two values, not '2'"),
        (["--values", "2,3,4"], "--values takes two different values A,B, not '2,3,4'"),
        (["--values", "2,2"], "--values takes two different values A,B, not '2,2'"),
        (["--values", "2,x"], "--values: 'x' in '2,x' is not a whole number"),
        (["--values", "2,3", "--precision", "0"], "--precision must lie between 0 and 1, not 0.0"),
        (["--values", "2,3", "--level", "1.5"], "--level must lie between 0 and 1, not 1.5"),
        (["--values", "2,3", "--first-look", "1"], "--first-look must be at least 2, not 1"),
        (["--values", "2,3", "--looks", "0"], "--looks must be at least 1, not 0"),
        (["--values", "2,3", "--max-games", "50"], "--max-games must be 1000 (--first-look) to"),
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


def _look(low: float, high: float, smallest: int, discordant: int) -> ab.Look:
    return ab.Look(
        "improvement", 2, 40, (low + high) / 2, low, high, 0.05, 0.1, smallest, discordant
    )


@pytest.mark.parametrize(
    "look, why",
    [
        (_look(-0.05, 0.05, 100, 100), "wider than ±2 points"),
        (_look(0.0, 0.0, 100, 3), "from only 3 games that came out differently"),
        (_look(-0.01, 0.01, 12, 100), "from only 12 seat-games in its smallest group"),
    ],
)
def test_an_unsettled_answer_says_why(look: ab.Look, why: str) -> None:
    """A look narrower than the precision is still unsettled when too few games or seat-games
    stand behind it; the answer must not call such an interval wide."""
    text = ab.answer(look, 0.02, "A", "B")
    assert text.startswith("not clear at the limit") and why in text
    assert ("wider than" in text) == why.startswith("wider")


def test_each_look_is_heard_as_it_closes_before_the_next_games_are_awaited() -> None:
    """`workbench ab` once printed every look at the end; now ab.sequential hands
    each look over before it waits for the next look's games."""
    heard: list[str] = []

    def upto(n: int) -> Counts:
        heard.append(f"games {n}")
        return _stream(3)(n)

    ab.sequential(
        upto,
        ["improvement"],
        0.001,
        500,
        2000,
        ab.look_alphas(3, ALPHA),
        lambda step: heard.append(f"look {step[0].look} at {step[0].games}"),
    )
    assert heard[:4] == ["games 500", "look 1 at 500", "games 2000", "look 2 at 2000"]
    assert heard[-1] == f"look {len(heard) // 2} at 2000"


def test_the_games_of_a_look_report_their_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bar inside a look hears the paired games done of the look's games as they come."""

    def played(job: object, card: str, indices: range, store: bool) -> abgames.Played:
        return list(indices), np.ones((4, len(indices))), None

    monkeypatch.setattr(abgames, "play_counts", played)
    seen: list[tuple[int, int]] = []
    games = abgames.Games(None, 1, cast(Any, ["A", "B"]), "X", 3, None, lambda *d: seen.append(d))
    assert games.upto(7, 7).n_a.shape == (2, 7)
    assert seen == [(3, 7), (6, 7), (7, 7)]


def test_ab_prints_each_look_with_its_games_interval_and_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(_footman(tmp_path / "ab.duckdb", "--workers", "1")) == 0
    err = capsys.readouterr().err
    assert re.search(r"^look 1 closed: 4 paired games, improvement .*; \d+\.\d s$", err, re.M)
    assert re.search(r"^look 2 closed: 8 paired games, .* \(at 0\.96\); \d+\.\d s$", err, re.M)


@pytest.mark.parametrize(
    "look, words",
    [
        (
            _look(0.002, 0.012, 100, 100),
            "no difference that matters in the improvement when bought: the whole interval lies "
            "within ±2 points; B is above A by +0.7 points [+0.2, +1.2]",
        ),
        (
            _look(-0.019, 0.005, 100, 100),
            "no difference that matters in the improvement when bought: the whole interval lies "
            "within ±2 points; B is below A by -0.7 points [-1.9, +0.5]",
        ),
        (_look(0.012, 0.03, 100, 100), "B gives a higher improvement when bought than A"),
    ],
)
def test_a_difference_inside_the_precision_is_no_difference_that_matters(
    look: ab.Look, words: str
) -> None:
    """+0.7 [+0.2, +1.3] at ±2 points is not "higher": the designer said a
    difference that small does not matter (an equivalence reading); the sign stays beside.
    An interval that reaches past the precision on one side keeps its direction."""
    assert ab.answer(look, 0.02, "A", "B").startswith(words)
