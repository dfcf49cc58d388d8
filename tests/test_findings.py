"""Findings on hand-made databases with known answers (workbench/analysis/findings.py): each kind
is found with its sentence, number and severity, and a balanced database yields none of it."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from app.cli import main
from tests.findings_fixture import Game, build
from workbench.analysis import cards, findings, verdicts
from workbench.analysis.findings import Finding, Thresholds
from workbench.analysis.runs import Runs
from workbench.analysis.source import open_db


def found(path: Path, kind: str, th: Thresholds | None = None) -> list[Finding]:
    con = open_db(path)
    try:
        return [f for f in findings.findings(Runs(con, [1], th)) if f.kind == kind]
    finally:
        con.close()


def seat_games(seat_0_wins: int, games: int = 200) -> list[Game]:
    return [Game([0] if i < seat_0_wins else [1]) for i in range(games)]


# --- seats ------------------------------------------------------------------------------------


def test_seat_advantage_is_high_when_the_whole_interval_is_outside_the_band(tmp_path: Path) -> None:
    """Seat 0 wins 130 of 200: 65.0%, Wilson 58.2-71.3%, all above 50% + 5%."""
    [f] = found(build(tmp_path / "s.duckdb", seat_games(130)), "seat")
    assert f.text == (
        "Seat 1 (moves first) wins 65.0% of its games (58.2–71.3%, n=200); an even share is 50.0%."
    )
    assert (f.severity, f.value, f.n, f.section) == ("high", 0.65, 200, "sets")
    assert f.low == pytest.approx(0.5816, abs=1e-4) and f.high == pytest.approx(0.7127, abs=1e-4)


@pytest.mark.parametrize(("wins", "severity"), [(115, "medium"), (112, "low")])
def test_seat_advantage_severity_follows_the_interval(
    tmp_path: Path, wins: int, severity: str
) -> None:
    """115 of 200 (57.5%, 50.6-64.1%) excludes an even share: medium; 112 (56.0%, 49.1-62.7%)
    does not: low."""
    [f] = found(build(tmp_path / "s.duckdb", seat_games(wins)), "seat")
    assert (f.severity, f.value) == (severity, wins / 200)


def test_a_small_sample_makes_a_finding_low(tmp_path: Path) -> None:
    """16 of 20 (80%, Wilson 58-92%) lies wholly above the band, but 20 < min_sample (30)."""
    [f] = found(build(tmp_path / "s.duckdb", seat_games(16, games=20)), "seat")
    assert (f.severity, f.value, f.n) == ("low", 0.8, 20)


def test_balanced_seats_give_no_seat_finding(tmp_path: Path) -> None:
    assert found(build(tmp_path / "s.duckdb", seat_games(100)), "seat") == []
    # 55.0% is on the band's edge, still balanced
    assert found(build(tmp_path / "e.duckdb", seat_games(110)), "seat") == []


def test_the_band_is_an_option(tmp_path: Path) -> None:
    path = build(tmp_path / "s.duckdb", seat_games(115))
    assert found(path, "seat", Thresholds(band=0.10)) == []


# --- sets -------------------------------------------------------------------------------------


def set_games(a_wins_per_10: int) -> list[Game]:
    """200 games; the seat holding set A alternates, and A wins `a_wins_per_10` in every 10
    games of each seat, so both seats win equally often."""
    games = []
    for i in range(200):
        a_seat = i % 2
        a_won = (i // 2) % 10 < a_wins_per_10
        games.append(
            Game(
                [a_seat if a_won else 1 - a_seat],
                picks={
                    a_seat: [("a1", "a1|b1"), ("a2", "a2|b2")],
                    1 - a_seat: [("b1", "b1"), ("b2", "b2")],
                },
            )
        )
    return games


CARDS_AB = [("a1", "A", 2), ("a2", "A", 2), ("b1", "B", 2), ("b2", "B", 2)]


def test_set_imbalance(tmp_path: Path) -> None:
    """A wins 140 of its 200 seat-games (70.0%, Wilson 63.3-75.9%); B the other 30%."""
    sets = found(build(tmp_path / "a.duckdb", set_games(7), CARDS_AB), "set")
    a, b = sorted(sets, key=lambda f: f.subject)
    assert a.text == (
        "Players whose store is mostly A win 70.0% (63.3–75.9%, n=200); an even share is 50.0%."
    )
    assert (a.severity, a.value, a.n, a.subject) == ("high", 0.7, 200, "A")
    assert (b.severity, b.value, b.subject) == ("high", 0.3, "B")
    assert found(tmp_path / "a.duckdb", "seat") == []


def test_balanced_sets_give_no_set_finding(tmp_path: Path) -> None:
    assert found(build(tmp_path / "b.duckdb", set_games(5), CARDS_AB), "set") == []


# --- dead cards -------------------------------------------------------------------------------

DEAD_CARDS = [("a1", "A", 1), ("never", "A", 1), ("dear", "A", 9), ("passed", "A", 1)]


def dead_games(buy_passed: bool = False) -> list[Game]:
    """40 games; each seat drafts a1, dear and passed (one copy each) from packs that also hold
    'never', holds 3 resource at every buy step of 5 rounds, buys a1 in round 1 (and, with
    buy_passed, 'passed' in round 2)."""
    games = []
    for _ in range(40):
        picks = {
            s: [("a1", "a1|never"), ("dear", "dear|never"), ("passed", "passed|never")]
            for s in (0, 1)
        }
        buys = [(s, "a1", 1) for s in (0, 1)]
        if buy_passed:
            buys += [(s, "passed", 2) for s in (0, 1)]
        snaps = [
            {
                "round": r,
                "player": s,
                "income": 2,
                "buy_resource": 3,
                "bought": int(r == 1 or (buy_passed and r == 2)),
            }
            for r in range(1, 6)
            for s in (0, 1)
        ]
        games.append(
            Game([0] if len(games) % 2 else [1], rounds=5, picks=picks, buys=buys, snaps=snaps)
        )
    return games


def test_dead_cards_and_why(tmp_path: Path) -> None:
    """'never' is passed in all 240 packs it was in; 'dear' (buy 9) sits in 80 stores for all
    5 buy steps (400) and is never affordable with 3; 'passed' (buy 1) is affordable at all of
    its 400 buy steps and never bought. a1 is bought by all 80 drafters: not dead."""
    path = build(tmp_path / "d.duckdb", dead_games(), DEAD_CARDS)
    dead = {f.subject: f for f in found(path, "dead card")}
    assert set(dead) == {"never", "dear", "passed"}
    unchecked = (
        " That is the agents' habit until randomised buying (`simulate --design causal`) finds "
        "them worthless too; no such run was found."
    )
    assert dead["never"].text == (
        "1 of 4 cards is never bought because no drafter ever picks "
        "a copy: never (passed in 240 packs)." + unchecked
    )
    assert dead["dear"].text == (
        "1 of 4 cards is never bought because the price is (almost) never there at a buy step "
        "with a copy in the store: dear (buy 9: affordable at 0 of 400 buy "
        "steps; bought by 0 of 80 drafters)." + unchecked
    )
    assert dead["passed"].text == (
        "1 of 4 cards is never bought although the price is there at the buy step: "
        "passed (buy 1: affordable at 400 of 400 buy steps; bought by 0 of "
        "80 drafters)." + unchecked
    )
    # no randomised run checked them: the agents' habit, low at most
    assert {f.severity for f in dead.values()} == {"low"}
    assert {f.value for f in dead.values()} == {0.25}
    # the pool's cards are all of them, not a sample: a count, no interval
    assert all(f.low is None and f.high is None and f.n == 4 for f in dead.values())
    con = open_db(path)
    table = findings.dead_cards(Runs(con, [1]))
    con.close()
    assert dict(table.select("card", "reason").rows()) == {
        "never": findings.NEVER_DRAFTED,
        "dear": findings.NEVER_AFFORDABLE,
        "passed": findings.PASSED,
    }


def test_a_finding_over_many_cards_names_every_one_of_them() -> None:
    """Five cards never drafted: the first three with their numbers, the other two by name,
    and the count of the pool, never an interval as if the pool were a sample."""
    dead = pl.DataFrame(
        {
            "card": ["c1", "c2", "c3", "c4", "c5"],
            "reason": [findings.NEVER_DRAFTED] * 5,
            "seen": [40] * 5,
            "bought": [0] * 5,
            "chances": [40] * 5,
        }
    )
    (f,) = findings.dead_card_findings(dead, 8, Thresholds(), confirmed=True)
    assert f.text == (
        "5 of 8 cards are never bought because no drafter ever picks a copy: c1 (passed in 40 "
        "packs); c2 (passed in 40 packs); c3 (passed in 40 packs); and 2 more: c4, c5. "
        "Randomised buying (`simulate --design causal`) finds each of them worthless too."
    )
    assert (f.severity, f.low, f.high, f.n, f.subject) == (
        "high",
        None,
        None,
        8,
        "c1, c2, c3, c4, c5",
    )


def test_with_randomised_verdicts_dead_cards_count_only_the_worthless(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same run judged by a (hand-made) design run, its verdicts read in place of the
    context's: 'dear' is too weak by randomised buying, 'passed' fine with an interval reaching
    +10 points, 'never' not used by the agents. Only 'dear' stays a dead card, now high (a
    randomised buyer confirms it)."""
    path = build(tmp_path / "d.duckdb", dead_games(), DEAD_CARDS)
    est = "randomised buying (run 9)"
    judged = pl.DataFrame(
        {
            "card": ["never", "dear", "passed", "a1"],
            "verdict": ["agents do not use it", "too weak", "fine", "fine"],
            "estimator": [est] * 4,
            "effect": [None, -0.2, 0.01, 0.0],
            "low": [None, -0.3, -0.08, -0.05],
            "high": [None, -0.1, 0.10, 0.04],
            "n": [0, 300, 300, 300],
            "severity": ["medium", "high", "", ""],
        }
    ).with_columns(
        pl.lit("s").alias("set"),
        pl.lit("unit").alias("type"),
        pl.lit("why").alias("why"),
        pl.lit(None, pl.Float64).alias("smallest_found"),
    )
    monkeypatch.setattr(findings, "card_verdicts", lambda r: judged)
    con = open_db(path)
    try:
        got = findings.findings(Runs(con, [1]))
    finally:
        con.close()
    dead = [f for f in got if f.kind == "dead card"]
    assert [(f.subject, f.severity) for f in dead] == [("dear", "high")]
    assert dead[0].text.endswith(
        "Randomised buying (`simulate --design causal`) finds each of them worthless too."
    )


def test_worth_buying_is_a_sure_gain_and_worthless_a_sure_loss() -> None:
    """Too strong cards, and fine ones with the whole interval above zero, are worth buying;
    too weak and fine with the whole interval below zero are worthless; a fine card whose
    interval holds zero is neither (None: the run cannot tell it from no effect); a card the
    agents do not use, or one without an estimate, is not judged; observational verdicts judge
    none."""
    est = "randomised buying (run 9)"
    judged = pl.DataFrame(
        {
            "card": ["strong", "gain", "fine", "losing", "weak", "unused", "none"],
            "verdict": [
                "too strong",
                "fine",
                "fine",
                "fine",
                "too weak",
                "agents do not use it",
                "no estimate",
            ],
            "estimator": [est] * 7,
            "low": [0.12, 0.01, -0.02, -0.09, -0.2, None, None],
            "high": [0.3, 0.08, 0.04, -0.01, -0.1, None, None],
        }
    )
    assert verdicts.worth_buying(judged) == {
        "strong": True,
        "gain": True,
        "fine": None,
        "losing": False,
        "weak": False,
    }
    observed = judged.with_columns(pl.lit("improvement when bought").alias("estimator"))
    assert verdicts.worth_buying(observed) == {}


def test_a_card_bought_in_its_store_is_not_dead(tmp_path: Path) -> None:
    """With 'passed' bought by every drafter, only the never drafted and never affordable cards
    remain; a1 leaves the store in round 1, so it had 80 chances, all affordable."""
    path = build(tmp_path / "d.duckdb", dead_games(buy_passed=True), DEAD_CARDS)
    assert {f.subject for f in found(path, "dead card")} == {"never", "dear"}
    con = open_db(path)
    chances = {
        r[0]: r[1:]
        for r in cards.buy_chances(Runs(con, [1]))
        .select("card", "store_turns", "affordable_turns")
        .rows()
    }
    con.close()
    assert chances["a1"] == (80, 80) and chances["passed"] == (160, 160)


def test_no_dead_card_when_every_card_sells(tmp_path: Path) -> None:
    cards = [("a1", "A", 1)]
    games = [
        Game(
            [0],
            rounds=2,
            picks={s: [("a1", "a1")] for s in (0, 1)},
            buys=[(s, "a1", 1) for s in (0, 1)],
            snaps=[{"round": 1, "player": s, "buy_resource": 3, "bought": 1} for s in (0, 1)],
        )
        for _ in range(40)
    ]
    assert found(build(tmp_path / "d.duckdb", games, cards), "dead card") == []


# --- the economy ------------------------------------------------------------------------------


def economy_games(stall: bool) -> list[Game]:
    """40 games of 10 rounds, income 2 a turn. Stalling: no upkeep in rounds 1-3, then upkeep
    2 on four turns in five and 1 on the fifth (90% of income), and a buy on every turn of
    rounds 1-3 only. Healthy: upkeep 1 in rounds 4-10 and a buy every turn."""
    games = []
    for i in range(40):
        snaps = []
        for r in range(1, 11):
            for s in (0, 1):
                late = r >= 4
                upkeep = (1 if (i * 2 + s) % 5 == 0 else 2) if stall and late else int(late)
                snaps.append(
                    {
                        "round": r,
                        "player": s,
                        "income": 2,
                        "spend_upkeep": upkeep,
                        "resource_start": 0,
                        "resource": 0,
                        "buy_resource": 2 - upkeep,
                        "bought": int(not (stall and late)),
                    }
                )
        games.append(Game([i % 2], snaps=snaps))
    return games


def test_economy_stall_and_buying_stop(tmp_path: Path) -> None:
    """From round 4 (560 of 800 player-turns, 70%): upkeep 504 of income 1120 = 90%."""
    path = build(tmp_path / "e.duckdb", economy_games(stall=True))
    [stall] = found(path, "economy stall")
    assert stall.text.startswith(
        "The economy stalls from round 4: from then on upkeep takes 90.0% of income ("
    )
    assert stall.text.endswith(", n=560); those rounds hold 70.0% of all player-turns.")
    assert (stall.severity, stall.value, stall.n) == ("high", pytest.approx(0.9), 560)
    assert stall.low is not None and 0.88 < stall.low < 0.9 < stall.high < 0.92  # type: ignore
    [stop] = found(path, "buying stops")
    assert stop.text == (
        "Buying stops from round 4: 0.0% of player-turns buy a card from then "
        "on (0.0–0.7%, n=560), against 100.0% before."
    )
    assert (stop.severity, stop.value) == ("high", 0.0)


def test_a_healthy_economy_has_no_stall(tmp_path: Path) -> None:
    path = build(tmp_path / "e.duckdb", economy_games(stall=False))
    assert found(path, "economy stall") == [] and found(path, "buying stops") == []


# --- game shape and the report ----------------------------------------------------------------


def test_round_limit_and_draws(tmp_path: Path) -> None:
    """60 of 200 games reach the round limit and are drawn: 30.0% (24.1-36.7%)."""
    games = [
        Game([] if i < 60 else [i % 2], reason="round limit" if i < 60 else "vip")
        for i in range(200)
    ]
    path = build(tmp_path / "g.duckdb", games)
    [limit] = found(path, "round limit")
    assert limit.text == (
        "30.0% of games reach the round limit before the victory condition "
        "ends them (24.1–36.7%, n=200)."
    )
    assert limit.severity == "high"
    [draws] = found(path, "draws")
    assert draws.severity == "high" and draws.value == 0.3
    assert found(build(tmp_path / "h.duckdb", seat_games(100)), "round limit") == []


def test_report_opens_with_the_findings(tmp_path: Path) -> None:
    """The page's first section is Findings, ranked, each item linking to its section."""
    db = build(tmp_path / "s.duckdb", seat_games(130))
    assert (
        main(
            [
                "report",
                "--db",
                str(db),
                "--out",
                str(tmp_path / "r"),
                "--threshold",
                "min_sample=10",
            ]
        )
        == 0
    )
    page = (tmp_path / "r" / "index.html").read_text()
    first = page.index("<section")
    assert page[first:].startswith('<section id="findings"><h2>Findings</h2>')
    assert '<li class="sev-high"><span class="sev">high</span> Seat 1 (moves first) wins' in page
    assert 'href="#sets">Seats, sets and agents</a>' in page
    assert (
        main(["report", "--db", str(db), "--out", str(tmp_path / "r"), "--threshold", "bogus=1"])
        == 2
    )
    # a band of 20 points takes 65% for balanced
    assert main(["report", "--db", str(db), "--out", str(tmp_path / "b"), "--band", "0.2"]) == 0
    assert "Seat 1 (moves first)" not in (tmp_path / "b" / "index.html").read_text()
