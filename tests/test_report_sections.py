"""Report sections that tell how much a figure rests on: the economy's late rounds,
played by the few games that last that long, greyed and named, and the boards compared."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli import main
from reports import costs_economy
from reports.html import Chart, Table
from tests.findings_fixture import Game, build
from tests.test_report import CHROMIUM, SCREENSHOTS, chromium
from workbench.analysis import board_balance, economy
from workbench.analysis.runs import Runs
from workbench.analysis.severity import Thresholds
from workbench.analysis.source import open_db


def _lasting(games: int, rounds: int) -> list[Game]:
    """`games` games of `rounds` rounds, both seats with a snapshot of every round."""
    return [
        Game(
            [0],
            rounds=rounds,
            snaps=[
                {"round": r, "player": s, "income": 2, "buy_resource": 3, "bought": 1}
                for r in range(1, rounds + 1)
                for s in (0, 1)
            ],
        )
        for _ in range(games)
    ]


def test_the_economys_rounds_below_the_minimum_sample_are_grey_and_named(tmp_path: Path) -> None:
    """20 games of 3 rounds and 10 of 6: rounds 1-3 rest on 60 player-turns, rounds 4-6 on 20,
    fewer than 30: every per-round chart names them as grey, and the table gives the turns."""
    con = open_db(build(tmp_path / "e.duckdb", _lasting(20, 3) + _lasting(10, 6)))
    try:
        rounds = economy.per_round(Runs(con, [1]))
    finally:
        con.close()
    assert rounds.select("round", "turns").rows() == [
        (1, 60),
        (2, 60),
        (3, 60),
        (4, 20),
        (5, 20),
        (6, 20),
    ]
    assert costs_economy.sparse_rounds(rounds, 30) == [4, 5, 6]
    items = costs_economy._per_round(rounds, Thresholds())
    titles = [c.title for c in items if isinstance(c, Chart)]
    assert len(titles) == 3
    assert all(t.endswith(" (grey: rounds 4–6, fewer than 30 player-turns)") for t in titles)
    (table,) = [t for t in items if isinstance(t, Table)]
    assert "turns" in table.df.columns and "player-turns behind each round" in table.note
    assert costs_economy.spans([1, 3, 4, 5, 9]) == "1, 3–5, 9"
    assert not any(
        "grey" in c.title
        for c in costs_economy._per_round(rounds, Thresholds(min_sample=20))
        if isinstance(c, Chart)
    )


def _boards(path: Path) -> Path:
    """Two boards of 40 games each, seat 1 drafting set A's card and seat 2 set B's. "even":
    the seats win in turn, 10 rounds, none ended by the round limit. "lopsided": seat 1 wins
    30 of 40, 20 rounds, 8 ended by the round limit."""
    cards = [("a", "A", 1), ("b", "B", 1)]
    picks = {0: [("a", "a|b")], 1: [("b", "a|b")]}
    snaps = [{"round": 1, "player": s, "income": 2, "buy_resource": 3} for s in (0, 1)]
    even = [Game([i % 2], rounds=10, picks=picks, snaps=snaps) for i in range(40)]
    lopsided = [
        Game([0 if i < 30 else 1], 20, "round limit" if i < 8 else "vip", picks, snaps=snaps)
        for i in range(40)
    ]
    build(path, even, cards, board="even")
    return build(path, lopsided, cards, board="lopsided", run=2)


def test_the_boards_are_compared_in_one_table_with_intervals(tmp_path: Path) -> None:
    """By hand: on "even" the seats (and the sets, one per seat) win 20 of
    40 each, a spread of 0; on "lopsided" 30 and 10, a spread of 50 points. Lengths 10 and
    20 rounds; 0 and 8 of 40 games decided by the round limit (Wilson 0.0-8.8% and
    10.5-34.8%). One column per board, one row per measure, the victory condition first."""
    con = open_db(_boards(tmp_path / "b.duckdb"))
    try:
        found = board_balance.balances(Runs(con, [1, 2]))
    finally:
        con.close()
    even, lopsided = found
    assert (even.seats.value, even.sets.value) == (0.0, 0.0)
    assert (lopsided.seats.value, lopsided.sets.value) == (0.5, 0.5)
    assert even.seats.low == 0.0 < even.seats.high
    assert lopsided.seats.low < 0.5 < lopsided.seats.high
    table = board_balance.table(found)
    assert table.columns == ["measure", "even", "lopsided"]
    rows = {r[0]: r[1:] for r in table.rows()}
    assert next(iter(rows)) == "victory condition"
    assert rows["victory condition"] == ("vip", "vip")
    assert rows["seat spread"][1].startswith("50.0 points (")
    assert rows["set spread"][0].startswith("0.0 points (0.0 to ")
    assert rows["game length"] == ("10.0 rounds (10.0 to 10.0)", "20.0 rounds (20.0 to 20.0)")
    assert rows["decided by the round limit"] == (
        "0.0% (0.0 to 8.8%, n=40)",
        "20.0% (10.5 to 34.8%, n=40)",
    )
    (finding,) = board_balance.more_balanced(found, Thresholds())
    assert finding.text.startswith(
        "even is more balanced than lopsided: its widest gap in win rate is 0.0 points between "
        "its seats, against 50.0 points between its seats on lopsided, 50.0 points less ("
    )
    assert finding.severity == "high" and finding.low is not None and finding.low > 0.05
    assert (finding.section, finding.n) == ("boards", 80)
    # the same run gives the same intervals
    con = open_db(tmp_path / "b.duckdb")
    try:
        again = board_balance.balances(Runs(con, [1, 2]))
    finally:
        con.close()
    assert again[1].seats.low == lopsided.seats.low


def test_the_report_of_two_boards_shows_the_comparison_and_its_finding(tmp_path: Path) -> None:
    db = _boards(tmp_path / "b.duckdb")
    assert (
        main(["report", "--db", str(db), "--run", "1", "--run", "2", "--out", str(tmp_path)]) == 0
    )
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    boards = page[page.index('<section id="boards">') :]
    assert 'data-name="boards_compared"' in boards
    findings = page[page.index('<section id="findings">') : page.index("</section>")]
    assert "even is more balanced than lopsided" in findings


@pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (apt-get install -y chromium)",
)
def test_the_board_comparison_in_chromium(tmp_path: Path) -> None:
    """Two shipped boards played by the demo's agents: the report's Boards section, as a
    browser renders it, holds the comparison table, and its picture lands in docs/screenshots
    (report-boards.png); so does one of the economy section (report-economy-sparse.png), whose
    late rounds, played only on the board with the longer games, rest on fewer than 30
    player-turns and are greyed."""
    db = tmp_path / "boards.duckdb"
    boards = ["--board", "kings-crossing,gold-rush", "--games", "40", "--workers", "1"]
    assert main(["simulate", "--db", str(db), *boards]) == 0
    assert main(["report", "--db", str(db), "--out", str(tmp_path / "report")]) == 0
    page = (tmp_path / "report" / "index.html").read_text(encoding="utf-8")
    alone = tmp_path / "report" / "boards.html"  # the boards section alone, at the top
    alone.write_text(
        page.replace(
            "</head>", "<style>body > *:not(#boards) { display: none !important; }</style></head>"
        ),
        encoding="utf-8",
    )
    dom = chromium(tmp_path, "--virtual-time-budget=5000", "--dump-dom", alone.as_uri())
    assert 'data-name="boards_compared"' in dom and ">victory condition<" in dom
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / "report-boards.png"
    chromium(tmp_path, "--window-size=1280,1000", f"--screenshot={shot}", alone.as_uri())
    assert "fewer than 30 player-turns)</h3>" in page
    economy = tmp_path / "report" / "economy.html"
    economy.write_text(
        page.replace(
            "</head>", "<style>body > *:not(#economy) { display: none !important; }</style></head>"
        ),
        encoding="utf-8",
    )
    sparse = SCREENSHOTS / "report-economy-sparse.png"
    chromium(tmp_path, "--window-size=1280,1000", f"--screenshot={sparse}", economy.as_uri())
    for png in (shot, sparse):
        assert png.read_bytes().startswith(b"\x89PNG") and png.stat().st_size > 30_000
