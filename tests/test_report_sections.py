"""Report sections that tell how much a figure rests on (issue 36): the economy's late rounds,
played by the few games that last that long, greyed and named, and the boards compared."""

from __future__ import annotations

from pathlib import Path

from reports import costs_economy
from reports.html import Chart, Table
from tests.findings_fixture import Game, build
from workbench.analysis import economy
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
        rounds = economy.per_round(con, [1])
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
