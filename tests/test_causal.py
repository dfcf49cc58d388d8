"""Causal card effects (workbench/analysis/causal.py, verdicts.py; engine/agents/factorial.py):
the estimator on hand-made tables with known effects, its interval's coverage over repeated
simulated runs, the verdicts, and the design agent's buying against its recorded arms."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from app.cli import main
from app.cmd_simulate import DEFAULT_GAMES, DESIGN_GAMES, new_spec
from engine.agents.factorial import FactorialAgent, forced
from engine.play import derive_seed, play_game
from tests.rules import rules
from workbench.analysis.causal import MIN_ARM, _others, estimate, team_of
from workbench.analysis.findings import findings
from workbench.analysis.runs import Runs
from workbench.analysis.severity import Thresholds
from workbench.analysis.source import open_db
from workbench.analysis.verdicts import (
    FINE,
    NO_ESTIMATE,
    NOT_USED,
    TOO_STRONG,
    TOO_WEAK,
    band_test,
    bh_level,
    card_verdicts,
    causal_verdicts,
)
from workbench.content.setup import load_setup
from workbench.store import PlayedGame, batch_tables


def _frames(
    won: list[int], held: list[dict[str, int]], strata: list[str] | None = None
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Seats (one per entry) and their arms: `held[i]` maps card -> forced (1) or banned (0)."""
    seats = pl.DataFrame(
        {
            "game_id": list(range(len(won))),
            "seat": [0] * len(won),
            "won": won,
            "stratum": strata or ["a"] * len(won),
        }
    )
    arms = pl.DataFrame(
        [
            {"game_id": i, "seat": 0, "card": c, "forced": f}
            for i, h in enumerate(held)
            for c, f in h.items()
        ],
        schema={"game_id": pl.Int64, "seat": pl.Int64, "card": pl.String, "forced": pl.Int64},
    )
    return seats, arms


def test_one_card_effect_is_the_difference_of_its_arms_win_rates() -> None:
    """Every seat holds X: forced seats win 15 of 20, banned ones 5 of 20, so the effect is
    exactly 0.75 - 0.25 = 0.5, and its robust (HC2) standard error is Neyman's
    sqrt(p1 q1 / (n1 - 1) + p0 q0 / (n0 - 1))."""
    won = [1] * 15 + [0] * 5 + [1] * 5 + [0] * 15
    held = [{"X": 1}] * 20 + [{"X": 0}] * 20
    row = estimate(*_frames(won, held)).row(0, named=True)
    assert row["n_forced"] == 20 and row["n_banned"] == 20
    assert row["wr_forced"] == pytest.approx(0.75) and row["wr_banned"] == pytest.approx(0.25)
    assert row["effect"] == pytest.approx(0.5)
    se = math.sqrt(0.75 * 0.25 / 19 + 0.25 * 0.75 / 19)
    assert row["se"] == pytest.approx(se)
    assert row["low"] == pytest.approx(0.5 - 1.959964 * se, abs=1e-5)


def test_seats_without_the_card_do_not_enter_its_comparison() -> None:
    """Y's arms decide the wins; seats not holding X win or lose whatever X: X's effect is 0
    among its holders (forced or banned, the same wins), though its holders differ from the
    others."""
    won, held = [], []
    for i in range(80):
        y = i % 2
        won.append(y)
        held.append({"Y": y, "X": (i // 2) % 2} if i < 40 else {"Y": y})
    df = estimate(*_frames(won, held))
    x = df.filter(pl.col("card") == "X").row(0, named=True)
    y = df.filter(pl.col("card") == "Y").row(0, named=True)
    assert x["effect"] == pytest.approx(0.0, abs=1e-9)
    assert y["effect"] == pytest.approx(1.0)


def test_no_effect_below_min_arm_seats() -> None:
    won = [1, 0] * MIN_ARM
    held = [{"X": 1}] * (2 * MIN_ARM - 1) + [{"X": 0}]
    row = estimate(*_frames(won, held)).row(0, named=True)
    assert row["effect"] is None and row["n_banned"] == 1


def _simulated(
    rng: np.random.Generator, effects: np.ndarray, n: int
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """A design run with known effects: each seat holds each card with chance 0.4, forced
    with chance 1/2; its win chance is a linear model of its arms (the truth the estimator
    targets) with a stratum effect and a holding effect per card."""
    k = effects.size
    held = rng.random((n, k)) < 0.4
    arm = rng.random((n, k)) < 0.5
    stratum = rng.integers(0, 2, n)
    p = 0.45 + 0.05 * stratum - 0.02 * held.sum(axis=1) / k + (held & arm) @ effects
    won = (rng.random(n) < np.clip(p, 0, 1)).astype(int)
    seats = pl.DataFrame(
        {
            "game_id": np.arange(n),
            "seat": np.zeros(n, dtype=int),
            "won": won,
            "stratum": stratum.astype(str),
        }
    )
    rows, cols = np.nonzero(held)
    arms = pl.DataFrame(
        {
            "game_id": rows,
            "seat": np.zeros(rows.size, dtype=int),
            "card": [f"c{j}" for j in cols],
            "forced": arm[rows, cols].astype(int),
        }
    )
    return seats, arms


def test_interval_covers_the_true_effect_at_its_stated_rate() -> None:
    """300 simulated runs of 1,500 seats and 6 cards with effects from -0.1 to +0.15: the 95%
    intervals cover the true effect in 95% of the 1,800 cases (binomial sd 0.5 points; the
    bounds allow 3 sd), and the estimates are unbiased."""
    effects = np.array([0.15, -0.10, 0.0, 0.05, 0.08, -0.03])
    rng = np.random.default_rng(7)
    covered, errors = [], []
    for _ in range(300):
        df = estimate(*_simulated(rng, effects, 1500)).sort("card")
        est = df.get_column("effect").to_numpy()
        lo, hi = df.get_column("low").to_numpy(), df.get_column("high").to_numpy()
        covered += list((lo <= effects) & (effects <= hi))
        errors += list(est - effects)
    coverage = float(np.mean(covered))
    assert 0.935 <= coverage <= 0.965, coverage
    assert abs(float(np.mean(errors))) < 0.003


def test_a_rivals_arm_is_adjusted_for_and_narrows_the_interval() -> None:
    """Two-seat games, both seats holding X, each forced or banned by its own coin; a seat wins
    with chance 0.5 + 0.3 (its X forced) - 0.3 (its rival's forced), the rival wins otherwise.
    The effect is +0.3 whatever the rival's coin. Within an arm a seat's win chance is 0.8 or
    0.5 (0.5 or 0.2) by the rival's coin, so a comparison of the arms alone has a variance of
    0.65 x 0.35 = 0.2275 a seat; with the rival's arm in the model what is left is the coin of
    the game, 0.5 x 0.8 x 0.2 + 0.5 x 0.5 x 0.5 = 0.205. Over 200 runs of 1,000 games: unbiased,
    the 95% interval covers 0.3 at its rate (binomial sd 1.5 points; 3 sd allowed), and the
    mean standard error is sqrt(0.205 x 2 / 1,000) = 2.02 points, not the 2.13 of the arms
    alone."""
    rng = np.random.default_rng(11)
    games = 1000
    covered, errors, ses = [], [], []
    for _ in range(200):
        arm = rng.random((games, 2)) < 0.5
        p0 = 0.5 + 0.3 * (arm[:, 0].astype(float) - arm[:, 1])
        first = rng.random(games) < p0
        won = np.stack([first, ~first], axis=1).astype(int)
        seats = pl.DataFrame(
            {
                "game_id": np.repeat(np.arange(games), 2),
                "seat": np.tile([0, 1], games),
                "won": won.ravel(),
                "stratum": ["a"] * (2 * games),
            }
        )
        arms = seats.select("game_id", "seat").with_columns(
            pl.lit("X").alias("card"), pl.Series("forced", arm.ravel().astype(int))
        )
        row = estimate(seats, arms).row(0, named=True)
        covered.append(row["low"] <= 0.3 <= row["high"])
        errors.append(row["effect"] - 0.3)
        ses.append(row["se"])
    assert abs(float(np.mean(errors))) < 0.004
    assert 0.905 <= float(np.mean(covered)) <= 0.995
    assert float(np.mean(ses)) == pytest.approx(math.sqrt(0.205 * 2 / games), rel=0.02)


@rules("R21.15", "R21.26")
def test_a_seats_allies_and_rivals_are_its_teams_and_the_others() -> None:
    """The sides the estimator sums the other seats' arms over: the board's teams as the store
    writes them (1-based seats), all players one side on a Tyrant board they win together, else
    every seat alone. Four seats in teams {0, 2} and {1, 3}, one card whose arm is 1, 2, 4, 8
    by seat: seat 0's ally holds 4 and its rivals 2 + 8; a second game of two lone seats has no
    allies, its rivals' block is the other seat's."""
    assert [team_of("1,3;2,4", seat) for seat in range(4)] == [0, 1, 0, 1]
    assert [team_of("", seat) for seat in range(3)] == [-1, -2, -3]
    assert [team_of("", seat, one_side=True) for seat in range(3)] == [0, 0, 0]
    arm = np.array([[1.0], [2.0], [4.0], [8.0], [16.0], [32.0]])
    game = np.array([0, 0, 0, 0, 1, 1])
    side = np.array([0, 1, 0, 1, 2, 3])
    allies, rivals = _others(arm, game, side)
    assert allies.ravel().tolist() == [4, 8, 1, 2, 0, 0]
    assert rivals.ravel().tolist() == [10, 5, 10, 5, 32, 16]
    (only_rivals,) = _others(arm[4:], game[4:] - 1, side[4:] - 2)
    assert only_rivals.ravel().tolist() == [32, 16]


def test_verdicts_from_effects() -> None:
    """Benjamini-Hochberg over the judged cards, the band, usage and missing estimates."""
    pool = pl.DataFrame(
        {
            "card": ["Strong", "Weak", "Even", "Unplayed", "Dear", "Rare", "Undrafted"],
            "set": ["s"] * 7,
            "type": ["unit", "unit", "unit", "spell", "unit", "unit", "unit"],
        }
    )

    def row(
        card: str, effect: float | None, se: float, bought: int, played: int
    ) -> dict[str, object]:
        return {
            "card": card,
            "n": 800,
            "n_forced": 400,
            "n_banned": 400,
            "wr_forced": 0.5 + (effect or 0) / 2,
            "wr_banned": 0.5 - (effect or 0) / 2,
            "effect": effect,
            "se": se,
            "low": None if effect is None else effect - 1.96 * se,
            "high": None if effect is None else effect + 1.96 * se,
            "bought_forced": bought,
            "played_forced": played,
        }

    effects = pl.DataFrame(
        [
            row("Strong", 0.25, 0.03, 380, 370),
            row("Weak", -0.20, 0.03, 380, 370),
            row("Even", 0.06, 0.03, 380, 370),  # beyond the band, but not surely
            row("Unplayed", -0.15, 0.03, 380, 20),
            row("Dear", -0.01, 0.03, 30, 30),  # 30 of 400 forced seats could pay for it
            {**row("Rare", None, 0.0, 5, 5), "n": 12, "n_forced": 5, "n_banned": 7},
        ]
    )
    v = causal_verdicts(effects, pool, Thresholds(card_band=0.05), 1000, [3])
    got = dict(zip(v.get_column("card"), v.get_column("verdict"), strict=True))
    assert got == {
        "Strong": TOO_STRONG,
        "Weak": TOO_WEAK,
        "Even": FINE,
        "Unplayed": NOT_USED,
        "Dear": TOO_WEAK,
        "Rare": NO_ESTIMATE,
        "Undrafted": NO_ESTIMATE,
    }
    assert set(v.get_column("estimator")) == {"randomised buying (run 3)"}
    even = v.filter(pl.col("card") == "Even").row(0, named=True)
    # three cards judged, p = sf(6.67) + sf(10), sf(5) + sf(8.33) and sf(0.33) + sf(3.67) =
    # 0.3696: the correction rejects the first two (p(2) <= 2 x 0.05 / 3), so Even would join
    # them at p <= 3 x 0.05 / 3 = 0.05, a z of 1.645; the smallest effect found is the band
    # plus (1.645 + z at 0.8) se
    assert even["smallest_found"] == pytest.approx(0.05 + (1.644854 + 0.841621) * 0.03, abs=1e-5)
    assert even["bh"] == pytest.approx(0.3696, abs=1e-4)
    assert "games of the design" in v.filter(pl.col("card") == "Rare").item(0, "why")
    assert "price keeps it out of play" in v.filter(pl.col("card") == "Dear").item(0, "why")


def test_band_test() -> None:
    # at the edge: sf(0) + sf(10) = 0.5; 2.5 se beyond it: sf(2) + sf(6) = 0.0227501
    assert band_test(0.05, 0.01, 0.05) == pytest.approx(0.5)
    assert band_test(0.10, 0.025, 0.05) == pytest.approx(0.0227501, abs=1e-6)
    assert band_test(-0.10, 0.025, 0.05) == pytest.approx(0.0227501, abs=1e-6)
    # inside the band both tails count: sf(-1) + sf(4) = 0.841345 + 0.000032
    assert band_test(0.03, 0.02, 0.05) == pytest.approx(0.841377, abs=1e-6)


def test_band_test_has_its_stated_size_at_the_band_edge() -> None:
    """Estimates of a card whose true effect is the band's edge are called beyond the band at
    the test's level (a doubled tail, the old test, would call 2.5% at 5%), and never more
    often for a card inside the band."""
    rng = np.random.default_rng(7)
    se, band = 0.02, 0.05
    for truth, low, high in ((band, 0.045, 0.055), (-band, 0.045, 0.055), (0.0, 0.0, 0.001)):
        estimates = rng.normal(truth, se, 20_000)
        share = np.mean([band_test(float(e), se, band) < 0.05 for e in estimates])
        assert low <= share <= high


def test_factorial_agent_buys_only_forced_cards_and_the_store_records_its_arms() -> None:
    """A game of two `factorial` seats: every buy is of a card forced for that seat, and the
    assignments rows are the arms of every card name each seat drafted."""
    config = load_setup(("iron-legion", "tide-callers"), "kings-crossing").config
    seed = derive_seed(11, 0)
    record = play_game(config, seed, [FactorialAgent(), FactorialAgent()])
    played = PlayedGame(0, config.board.name, 0, ("factorial",) * 2, ("factorial",) * 2, record)
    tables = batch_tables(1, [played])
    arms = tables["assignments"].to_pylist()
    drafted = {
        (int(p), str(c))
        for p, c in zip(record.picks.data["player"], record.picks.data["card"], strict=True)
    }
    assert {(a["seat"], a["card"]) for a in arms} == drafted
    assert all((a["arm"] == "forced") == forced(seed, a["seat"], a["card"]) for a in arms)
    buys = [
        (int(p), str(c))
        for k, p, c in zip(
            record.events.columns()["kind"],
            record.events.columns()["player"],
            record.events.columns()["card"],
            strict=True,
        )
        if k == "buy"
    ]
    assert buys, "the design bought nothing"
    assert all(forced(seed, p, c) for p, c in buys)
    forced_names = {(a["seat"], a["card"]) for a in arms if a["arm"] == "forced"}
    assert len(set(buys)) >= len(forced_names) // 2


TRUTH = Path(__file__).parent / "data" / "causal" / "truth.csv"
RACE = Path(__file__).parent / "data" / "tuning" / "race.map.csv"


def test_a_card_that_wins_by_itself_and_one_that_does_nothing_get_the_right_verdicts(
    tmp_path: Path,
) -> None:
    """tests/data/causal/truth.csv in a six-round resource race: Jackpot gains 9 for 1 (it
    wins the race by itself), Blank gains nothing for 1 (a resource spent for nothing), next
    to fillers that gain what they cost. 300 games of the design: Jackpot is too strong and
    Blank too weak, each by the causal estimator, Jackpot the largest effect, Blank the
    smallest."""
    db = tmp_path / "t.duckdb"
    code = main(
        [
            "simulate",
            "--design",
            "causal",
            "--sets",
            str(TRUTH),
            "--board",
            str(RACE),
            "--games",
            "300",
            "--workers",
            "1",
            "--db",
            str(db),
        ]
    )
    assert code == 0
    con = open_db(db)
    try:
        v = card_verdicts(Runs(con, [1]))
    finally:
        con.close()
    got = {r["card"]: r for r in v.iter_rows(named=True)}
    assert got["Jackpot"]["verdict"] == TOO_STRONG and got["Blank"]["verdict"] == TOO_WEAK
    assert got["Jackpot"]["estimator"] == got["Blank"]["estimator"] == "randomised buying (run 1)"
    effects = v.sort("effect").get_column("card").to_list()
    assert effects[0] == "Blank" and effects[-1] == "Jackpot"


def test_the_demos_findings_name_an_estimator_for_every_verdict_and_judge_no_unused_card(
    tmp_path: Path,
) -> None:
    """`workbench demo` (fewer games): it plays a causal companion, so the report's verdict
    table rests on randomised buying for every card; no card finding, dead-card finding or
    verdict names a card the agents do not use; every card finding names its estimator."""
    out = tmp_path / "demo"
    assert (
        main(
            ["demo", "--out", str(out), "--games", "30", "--causal-games", "150", "--workers", "1"]
        )
        == 0
    )
    tables = out / "report" / "tables"
    v = pl.read_parquet(tables / "card_verdicts.parquet")
    assert v.height == 62 and set(v.get_column("estimator")) == {"randomised buying (run 2)"}
    assert set(v.get_column("verdict")) <= {TOO_STRONG, TOO_WEAK, FINE, NOT_USED, NO_ESTIMATE}
    unused = set(v.filter(pl.col("verdict") == NOT_USED).get_column("card"))
    con = open_db(out / "demo.duckdb")
    try:
        found = findings(Runs(con, [1]))
    finally:
        con.close()
    for f in found:
        if f.kind == "card":
            assert "by randomised buying (run 2)" in f.text, f.text
        if f.kind in ("card", "dead card", "fine cards"):
            assert not unused & set(f.subject.split(", ")), f.text
    page = (out / "report" / "index.html").read_text(encoding="utf-8")
    assert 'data-name="card_verdicts"' in page
    db, elsewhere = str(out / "demo.duckdb"), str(tmp_path / "r")
    assert main(["report", "--db", db, "--run", "2", "--causal-run", "1", "--out", elsewhere]) == 2


def test_the_level_benjamini_hochberg_reached() -> None:
    """p = 0.001, 0.02, 0.03, 0.5 against k x 0.05 / 4 = 0.0125, 0.025, 0.0375, 0.05: three
    rejected, so another card would be at rank 4: 4 x 0.05 / 4 = 0.05; p = 0.004, 0.5: one
    rejected (0.004 <= 0.025), the next at 2 x 0.05 / 2; none rejected: the first step's
    0.05 / m."""
    assert bh_level([0.5, 0.03, 0.001, 0.02]) == pytest.approx(0.05)
    assert bh_level([0.004, 0.5]) == pytest.approx(0.05)
    assert bh_level([0.2, 0.5]) == pytest.approx(0.025)
    assert bh_level([0.2, 0.3, 0.4, float("nan")]) == pytest.approx(0.05 / 3)


def test_a_design_run_defaults_to_the_games_its_verdicts_need() -> None:
    """--design causal without --games plays DESIGN_GAMES (6,000), the agents' own buying
    simulate's 1,000; a --games given is kept either way."""

    def games(design: str | None, given: int | None) -> int:
        args = argparse.Namespace(
            sets=None,
            board=None,
            games=given,
            players=None,
            agents=None,
            drafters=None,
            seed=None,
            label=None,
            design=design,
        )
        return new_spec(args)[0].games

    assert (DEFAULT_GAMES, DESIGN_GAMES) == (1000, 6000)
    assert games("causal", None) == 6000
    assert games(None, None) == games("own", None) == 1000
    assert games("causal", 300) == 300
