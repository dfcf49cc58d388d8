"""Proofs of the design studies on constructed sets where the right answer is known.

Both constructions are resource races (tests/data/tuning/race and long: the most resource after
6 or 8 rounds wins, spells only), so a card's worth is plain arithmetic: a `gain G` spell
returns G each time it is drawn and played, and its buy price is paid out of the score itself.
Every seat is the `explorer` agent (heuristic play, random buys), so which seats buy a card is
a coin flip and improvement when bought estimates what buying it does (docs/design-studies.md).
"""

from __future__ import annotations

import csv
import random
from pathlib import Path

import duckdb
import pytest
from rich.console import Console

from app.cli import main
from engine import actions as A
from engine.agents.explorer import ExplorerAgent
from engine.agents.registry import make_agent
from engine.vocab import ActionKind
from tests.builder import Position, board
from workbench.analysis.source import open_db
from workbench.store import RunSpec
from workbench.studies.fairvalue import card_counts
from workbench.studies.study import run_study
from workbench.studies.sweep import analyse, card_variants

DATA = Path(__file__).resolve().parent / "data" / "tuning"
LEDGER = DATA / "ledger.csv"
TWINS = str(DATA / "twins.csv")
RACE = str(DATA / "race.map.csv")
LONG = str(DATA / "long.map.csv")


def test_explorer_buys_uniformly_at_random_and_is_reproducible() -> None:
    legal = [A.PASS_ACTION, A.Action(ActionKind.BUY, 3), A.Action(ActionKind.BUY, 7)]
    agent = make_agent("explorer")
    game = Position(board("0 . 1")).game(phase="buy")  # nothing pending, no window open
    picks = [agent.act(game, legal, random.Random(5)) for _ in range(2)]
    assert picks[0] == picks[1], "same rng seed, same choice"
    rng = random.Random(1)
    counts = dict.fromkeys(legal, 0)
    for _ in range(3000):
        counts[agent.act(game, legal, rng)] += 1
    assert all(900 < n < 1100 for n in counts.values()), counts


def test_explorer_parameters() -> None:
    assert isinstance(make_agent("explorer:p=0.25"), ExplorerAgent)
    with pytest.raises(ValueError, match="p must lie"):
        make_agent("explorer:p=2")
    with pytest.raises(ValueError, match="explorer takes p"):
        make_agent("explorer:q=1")


def test_explorer_plays_like_the_heuristic_outside_the_buy_phase() -> None:
    """Whole games: with p=0 the explorer is the heuristic agent move for move, drafting as
    the `numbers` drafter (the heuristic drafter projects the heuristic's buys, not the
    explorer's)."""
    from engine.play import play_game
    from workbench.play.jobs import prepare

    spec = RunSpec((str(LEDGER),), (LONG,), 1, 2, ("heuristic",) * 2, ("heuristic",) * 2, 1)
    config = next(iter(prepare(spec).configs.values()))
    for seed in range(3):
        a = play_game(
            config,
            seed,
            [make_agent("heuristic") for _ in range(2)],
            [make_agent("numbers") for _ in range(2)],
        )
        b = play_game(config, seed, [make_agent("explorer:p=0") for _ in range(2)])
        assert a.actions and a.actions == b.actions


TUNE_GAMES, TUNE_SEED = 400, 2


@pytest.fixture(scope="module")
def tuned(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, bytes]:
    """One `workbench tune` of the ledger set: (database, report folder, original bytes)."""
    tmp = tmp_path_factory.mktemp("tune")
    source = tmp / "ledger.csv"
    source.write_bytes(LEDGER.read_bytes())
    before = source.read_bytes()
    db, out = tmp / "t.duckdb", tmp / "out"
    assert (
        main(
            [
                "tune",
                "--db",
                str(db),
                "--set",
                str(source),
                "--board",
                LONG,
                "--band=-0.05,0.05",
                "--games",
                str(TUNE_GAMES),
                "--judge-games",
                str(TUNE_GAMES),
                "--seed",
                str(TUNE_SEED),
                "--workers",
                "1",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    return db, out, before


def test_tune_moves_an_underpriced_card_up_and_an_overpriced_card_down(
    tuned: tuple[Path, Path, bytes],
) -> None:
    """Windfall (`gain 4` for 1) is far too cheap next to fillers whose gain equals their price:
    tune must flag it and propose a higher buy price, in a marked copy, never in the original;
    every other proposal moves the way its card's randomised effect points. (Fool's Gold,
    `gain 3` for 4, was planted as too dear, but randomised buying finds it no worse than the
    fillers in this 8-round race, -11 points against -15 to -25 for the gain-1 and gain-2
    cards, so it is no truth to test against.)"""
    db, out, before = tuned
    source = db.parent / "ledger.csv"
    assert source.read_bytes() == before
    with (out / "proposals.csv").open(newline="") as f:
        proposals = {r["card"]: (int(r["old"]), int(r["new"])) for r in csv.DictReader(f)}
    assert proposals["Windfall"][0] == 1 and proposals["Windfall"][1] > 1
    assert proposals.get("Fool's Gold", (4, 4))[1] <= 4
    with (out / "ledger-proposed.csv").open(newline="") as f:
        copy = {r["name"]: r for r in csv.DictReader(f)}
    assert int(copy["Windfall"]["buy"]) == proposals["Windfall"][1]
    with source.open(newline="") as f:
        original = {r["name"]: r for r in csv.DictReader(f)}
    changed = {n for n in original if original[n] != copy[n]}
    assert changed == set(proposals)


def test_tune_writes_its_runs_proposals_and_report(tuned: tuple[Path, Path, bytes]) -> None:
    """Every command writes its results to the database and its charts to the report."""
    db, out, _ = tuned
    con = duckdb.connect(str(db), read_only=True)
    proposed = dict(
        con.execute(
            "SELECT card, estimate FROM sweep_results WHERE quantity = 'proposed_buy'"
        ).fetchall()
    )
    with (out / "proposals.csv").open(newline="") as f:
        assert {r["card"]: float(r["new"]) for r in csv.DictReader(f)} == {
            c: v for c, v in proposed.items() if v is not None
        }
    sweeps = con.execute(
        "SELECT card, count(*) FROM sweeps WHERE kind = 'tune' GROUP BY card"
    ).fetchall()
    assert "Windfall" in {c for c, _ in sweeps}
    # every run is played once, and each is a run of the randomised buying design (its arms
    # stored), the judging run (run 1) too
    runs = con.execute("SELECT count(*) FROM runs").fetchall()[0][0]
    assert con.execute("SELECT count(*) FROM games").fetchall()[0][0] == TUNE_GAMES * runs
    designed = con.execute("SELECT count(DISTINCT run_id) FROM assignments").fetchall()[0][0]
    assert designed == runs
    assert (out / "index.html").is_file()
    tables = out / "tables"
    assert (tables / "tune_cards.csv").is_file() and (tables / "tune_proposals.csv").is_file()
    header = (tables / "tune_proposals.csv").read_text().splitlines()[0]
    assert "effect_before" in header and "effect_after" in header


def twin_fair_value(games: int, seed: int) -> float | None:
    """Sweep Coin Twin's buy over 1..5 next to Coin, its identical twin at buy 3; the target is
    Coin's improvement when bought pooled over the same runs."""
    from tempfile import TemporaryDirectory

    spec = RunSpec((TWINS,), (RACE,), games, 2, ("explorer",) * 2, ("explorer",) * 2, seed)
    with TemporaryDirectory() as tmp:
        db = Path(tmp) / "s.duckdb"
        study = run_study(
            db,
            spec,
            "sweep",
            "Coin Twin",
            "buy",
            card_variants("Coin Twin", "buy", [1, 2, 3, 4, 5]),
            1,
            Console(quiet=True),
        )
        con = open_db(db)
        try:
            ref = card_counts(con, study.run_ids, "Coin", games)
            target = float(ref.w_a.sum() / ref.n_a.sum() - ref.w_b.sum() / ref.n_b.sum())
            res = analyse(con, study, games, target)
        finally:
            con.close()
    assert res.fair.slope < 0, "a dearer card must help its buyer less"
    return res.fair.estimate


def test_sweep_finds_the_balancing_cost_of_a_twin_within_one_step() -> None:
    """ "The cost that balances it": Coin Twin is Coin in every number and behaviour, so at
    Coin's price (3) the two are interchangeable and their improvements when bought are equal
    in expectation; the cost that makes Coin Twin as good a purchase as Coin is therefore 3,
    whatever Coin's own improvement is (it need not be 0: the improvement compares a purchase
    with the other purchases the seat made instead). Coin's improvement measured in the same
    runs is the target; pooled over the sweep it is Coin's improvement at the middle of a
    symmetric sweep. Seeds 1-6 at 300 games gave 3.23, 3.04, 2.87, 3.76, 3.51, 2.66."""
    estimate = twin_fair_value(300, 2)
    assert estimate is not None and abs(estimate - 3) <= 1


@pytest.mark.slow
def test_sweep_finds_the_balancing_cost_of_a_twin_on_every_seed() -> None:
    """The same on four seeds with 600 games per value (about 90 s); measured
    3.52, 2.84, 3.18, 3.45, every 95% interval within 2.4..3.9."""
    for seed in range(1, 5):
        estimate = twin_fair_value(600, seed)
        assert estimate is not None and abs(estimate - 3) <= 1, (seed, estimate)
