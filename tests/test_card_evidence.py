"""The evidence beside each card's verdict (workbench/analysis/card_evidence.py, verdicts.py):
every column worked out by hand on a tiny database.

Run 1 (observational: no design arms), set A: Brute (unit, buy 2), Pawn (unit, buy 1), Zap
(spell, buy 1), Ghost (unit, buy 3, never drafted nor seen). One pack round; a seat's pick 1 is
its first pick.

| game | winner | seat 0 picks (pack)               | seat 1 picks (pack)               |
|------|--------|-----------------------------------|-----------------------------------|
| 0    | seat 0 | Brute (Brute|Pawn), Zap (Zap)     | Pawn (Pawn|Zap), Brute (Brute)    |
| 1    | seat 1 | Pawn (Brute|Pawn), Zap (Zap)      | Brute (Brute|Zap), Pawn (Pawn)    |
| 2    | draw   | Brute (Brute), Pawn (Pawn)        | Zap (Zap|Pawn)                    |

Every holder of Brute buys it (4 buys at 2); Brute is played for 1 in g0 s0 and g1 s1, and
its upkeep of 1 paid twice in g0 s0 and once in g1 s1: paid 8 + 2 + 3 = 13 (a refused upkeep
pays nothing). Brute attacks Pawn for 3 in g0 (Pawn hits back for 1) and for 2 in g1: damage
5. Pawn: bought for 1 and played for 1 in g0 s1: paid 2, damage 1. Zap: bought for 1 and
played for 2 in g1 s0, its resolution gains 4; an income gain of 2 and a discard gain of 1
after it are not Zap's: paid 3, gained 4.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl
import pytest

from tests.findings_fixture import Game, build
from workbench.analysis.runs import Runs
from workbench.analysis.source import open_db
from workbench.analysis.verdicts import NO_ESTIMATE, OBSERVATIONAL, SCHEMA, card_verdicts

CARDS = [
    ("Brute", "A", 2, "unit"),
    ("Pawn", "A", 1, "unit"),
    ("Zap", "A", 1, "spell"),
    ("Ghost", "A", 3, "unit"),
]


def _attack(
    seat: int, attacker: str, defender: str, dealt: int, back: int
) -> list[tuple[int, str, str, str, int, str]]:
    """Both damages, then the combat event naming who dealt them (summary._damage)."""
    hits = [(1 - seat, "damage", defender, "", dealt, "attack")]
    if back:
        hits.append((seat, "damage", attacker, "", back, "retaliation"))
    return [*hits, (seat, "combat", attacker, defender, 0, "")]


def _games() -> list[Game]:
    buy, play, upkeep = "buy", "play", "upkeep"
    return [
        Game(
            [0],
            picks={
                0: [("Brute", "Brute|Pawn"), ("Zap", "Zap")],
                1: [("Pawn", "Pawn|Zap"), ("Brute", "Brute")],
            },
            events=[
                (0, buy, "Brute", "", 2, ""),
                (1, buy, "Brute", "", 2, ""),
                (1, buy, "Pawn", "", 1, ""),
                (0, play, "Brute", "", 1, ""),
                (1, play, "Pawn", "", 1, ""),
                (0, upkeep, "Brute", "", 1, "paid"),
                (0, upkeep, "Brute", "", 1, "paid"),
                (1, upkeep, "Brute", "", 1, "refused"),
                *_attack(0, "Brute", "Pawn", 3, 1),
            ],
        ),
        Game(
            [1],
            picks={
                0: [("Pawn", "Brute|Pawn"), ("Zap", "Zap")],
                1: [("Brute", "Brute|Zap"), ("Pawn", "Pawn")],
            },
            events=[
                (1, buy, "Brute", "", 2, ""),
                (0, buy, "Zap", "", 1, ""),
                (1, play, "Brute", "", 1, ""),
                (1, upkeep, "Brute", "", 1, "paid"),
                (0, play, "Zap", "", 2, ""),
                (0, "resolve", "Zap", "", 0, "card"),
                (0, "gain", "", "", 4, "effect"),
                (0, "gain", "", "", 2, "income"),
                (0, "gain", "", "", 1, "discard 2"),
                *_attack(1, "Brute", "Pawn", 2, 0),
            ],
        ),
        Game(
            [],
            reason="round limit",
            picks={0: [("Brute", "Brute"), ("Pawn", "Pawn")], 1: [("Zap", "Zap|Pawn")]},
            events=[(0, buy, "Brute", "", 2, "")],
        ),
    ]


@pytest.fixture
def verdicts(tmp_path: Path) -> dict[str, dict[str, object]]:
    con = open_db(build(tmp_path / "e.duckdb", _games(), CARDS))
    try:
        v = card_verdicts(Runs(con, [1]))
    finally:
        con.close()
    assert dict(v.schema) == SCHEMA
    return {str(r["card"]): r for r in v.iter_rows(named=True)}


def test_win_rate_when_drafted_against_the_base_rate(
    verdicts: dict[str, dict[str, object]],
) -> None:
    """Base rate: 2 wins of 6 seats (the draw wins nobody) = 1/3. Brute drafted by g0 s0
    (won), g0 s1, g1 s1 (won), g2 s0 (draw): 2 of 4, Wilson's 95% interval 0.5 +- 0.34996
    (half-width 1.96 sqrt(1/16 + 1.96^2 / 64) / (1 + 1.96^2 / 4)); Pawn by g0 s1, g1 s0,
    g1 s1 (won), g2 s0: 1 of 4; Zap by g0 s0 (won), g1 s0, g2 s1: 1 of 3."""
    for card in ("Brute", "Pawn", "Zap", "Ghost"):
        assert verdicts[card]["wr_base"] == pytest.approx(1 / 3)
        assert verdicts[card]["evidence"] == "agents' own play (run 1)"
    brute = verdicts["Brute"]
    assert (brute["drafted"], brute["wr_drafted"]) == (4, pytest.approx(0.5))
    assert brute["wr_drafted_lo"] == pytest.approx(0.15004, abs=1e-4)
    assert brute["wr_drafted_hi"] == pytest.approx(0.84996, abs=1e-4)
    assert (verdicts["Pawn"]["drafted"], verdicts["Pawn"]["wr_drafted"]) == (4, 0.25)
    assert (verdicts["Zap"]["drafted"], verdicts["Zap"]["wr_drafted"]) == (3, pytest.approx(1 / 3))


def test_first_pick_share(verdicts: dict[str, dict[str, object]]) -> None:
    """First picks and their packs: g0 s0 Brute (Brute|Pawn), g0 s1 Pawn (Pawn|Zap), g1 s0
    Pawn (Brute|Pawn), g1 s1 Brute (Brute|Zap), g2 s0 Brute (Brute), g2 s1 Zap (Zap|Pawn).
    Brute in 4 of those packs, taken 3 times: 0.75; Pawn in 4, taken 2: 0.5; Zap in 3, taken
    once: 1/3."""
    got = {c: (verdicts[c]["seen_first"], verdicts[c]["first_pick"]) for c in verdicts}
    assert got["Brute"] == (4, 0.75)
    assert got["Pawn"] == (4, 0.5)
    assert got["Zap"] == (3, pytest.approx(1 / 3))


def test_damage_and_resource_gained_per_resource_paid_against_the_sets_curve(
    verdicts: dict[str, dict[str, object]],
) -> None:
    """Brute: damage 5 for 13 paid; Pawn: 1 for 2; the unit curve of set A is the median of
    the two (Ghost was never paid for): (5/13 + 1/2) / 2. Zap, the set's only spell: gained 4
    for 3 paid, its own curve; no damage. The units gained nothing: 0 on a curve of 0."""
    brute, pawn, zap = verdicts["Brute"], verdicts["Pawn"], verdicts["Zap"]
    assert (brute["paid"], brute["damage"], brute["gained"]) == (13, 5, 0)
    assert (pawn["paid"], pawn["damage"], pawn["gained"]) == (2, 1, 0)
    assert (zap["paid"], zap["damage"], zap["gained"]) == (3, 0, 4)
    assert brute["dmg_per_paid"] == pytest.approx(5 / 13)
    assert pawn["dmg_per_paid"] == pytest.approx(0.5)
    curve = (5 / 13 + 0.5) / 2
    assert brute["dmg_curve"] == pawn["dmg_curve"] == pytest.approx(curve)
    assert brute["gain_per_paid"] == brute["gain_curve"] == 0.0
    assert zap["gain_per_paid"] == zap["gain_curve"] == pytest.approx(4 / 3)
    assert zap["dmg_per_paid"] == zap["dmg_curve"] == 0.0


def test_a_card_never_drafted_has_empty_evidence_and_its_sets_curve(
    verdicts: dict[str, dict[str, object]],
) -> None:
    """Ghost: no seat drafted, saw or paid for it: counts 0, rates and ratios NULL, no
    estimate; the curve of its set's units still stands beside it."""
    ghost = verdicts["Ghost"]
    assert ghost["verdict"] == NO_ESTIMATE
    assert [ghost[c] for c in ("drafted", "seen_first", "paid", "damage", "gained")] == [0] * 5
    for c in ("wr_drafted", "wr_drafted_lo", "first_pick", "dmg_per_paid", "gain_per_paid"):
        assert ghost[c] is None, c
    assert ghost["dmg_curve"] == pytest.approx((5 / 13 + 0.5) / 2)


def test_a_card_bought_by_every_holder_has_no_observational_verdict_but_its_evidence(
    verdicts: dict[str, dict[str, object]],
) -> None:
    """Brute is bought in all 4 seat-games that drafted it: the improvement when bought has
    no never-buyers (no estimate), yet its win rate when drafted, first-pick share and
    damage per resource paid are all there."""
    brute = verdicts["Brute"]
    assert (brute["verdict"], brute["estimator"]) == (NO_ESTIMATE, OBSERVATIONAL)
    assert None not in (brute["wr_drafted"], brute["first_pick"], brute["dmg_per_paid"])


def test_a_design_run_labels_its_evidence_as_the_designs(tmp_path: Path) -> None:
    """The same games with one design arm recorded: the run played the randomised buying
    design, so its evidence is the design's play, not the agents' own."""
    path = build(tmp_path / "d.duckdb", _games(), CARDS)
    con = duckdb.connect(str(path))
    con.execute("INSERT INTO assignments VALUES (1000000000, 1, 0, 'Brute', 'forced')")
    con.close()
    con = open_db(path)
    try:
        v = card_verdicts(Runs(con, [1]))
    finally:
        con.close()
    assert set(v.get_column("evidence")) == {"randomised buying design (run 1)"}
    assert v.filter(pl.col("card") == "Brute").item(0, "paid") == 13
