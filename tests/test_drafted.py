"""Drafted and never bought (workbench.analysis.drafted) on a hand-made database.

Run 1: 3 games, 2 seats, boards "north" (games 0, 1) and "south" (game 2); sets X (x1, x2) and
Y (y1). Every seat picks 3 cards, picks 1-2 in pack round 1 and pick 3 in pack round 2:

| game  | seat 0 picks     | seat 0 buys | seat 1 picks     | seat 1 buys |
|-------|------------------|-------------|------------------|-------------|
| 0 (N) | x1, x1, y1       | x1          | x2, y1, x2       | x2, x2      |
| 1 (N) | y1, x2, x1       | y1          | x1, x2, y1       | -           |
| 2 (S) | x1, y1, x2       | -           | y1, x1, x2       | x1, y1      |

A seat's buys of a card are credited to its earliest picks of it (game 0: seat 0's first x1 is
bought, its second is not). Bought copies, by pick: g0 s0 pick 1; g0 s1 picks 1 and 3;
g1 s0 pick 1; g2 s1 picks 1 and 2.

The figures are read from the per-game summaries, built here with one early pick per pack
(summary.EARLY_PICKS = 1): every pack of this database has at most 2 picks, so the default 3
would make every pick early.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest

from tests.test_metrics import check_rate, row
from workbench.analysis import drafted
from workbench.analysis.findings import Thresholds, kraken_findings
from workbench.analysis.runs import Runs
from workbench.analysis.source import open_db
from workbench.store import open_store, summary

G = 1_000_000_000
PICKS = {  # game: (board, seat 0 picks, seat 1 picks)
    0: ("north", ["x1", "x1", "y1"], ["x2", "y1", "x2"]),
    1: ("north", ["y1", "x2", "x1"], ["x1", "x2", "y1"]),
    2: ("south", ["x1", "y1", "x2"], ["y1", "x1", "x2"]),
}
BUYS = {0: [(0, "x1"), (1, "x2"), (1, "x2")], 1: [(0, "y1")], 2: [(1, "x1"), (1, "y1")]}


def build(path: Path) -> Path:
    con = open_store(path)
    con.execute(
        "INSERT INTO runs VALUES (1, 'r', 'finished', 7, 3, 2, 'X,Y', 'north,south', "
        "'h,h', 'h,h', '{}', '[]', 'h', 'v', 'local', 1, now(), now())"
    )
    for name, set_ in (("x1", "X"), ("x2", "X"), ("y1", "Y")):
        con.execute(
            "INSERT INTO run_cards VALUES (1, ?, ?, 'spell', true, 2, 1, 0, NULL, NULL, "
            "NULL, NULL, NULL, 0, NULL, '', '', '', '', '', '', '')",
            [name, set_],
        )
    for game, (board, *seats) in PICKS.items():
        con.execute(
            "INSERT INTO games VALUES (?, 1, ?, ?, ?, 2, 0, 0, [0], false, 'x', 5, false, 0, 0)",
            [G + game, game, board, game],
        )
        for seat, cards in enumerate(seats):
            con.execute(
                "INSERT INTO game_seats VALUES (?, 1, ?, ?, 'h', 'h', ?, ?, '')",
                [G + game, seat, seat, seat == 0, 1 if seat == 0 else -1],
            )
            for pick, card in enumerate(cards, 1):
                con.execute(
                    "INSERT INTO picks VALUES (?, ?, ?, ?, ?, '')",
                    [G + game, pick, 1 if pick < 3 else 2, seat, card],
                )
        for seq, (seat, card) in enumerate(BUYS.get(game, [])):
            con.execute(
                "INSERT INTO events VALUES (?, ?, 2, 2, 'buy', ?, 'buy', ?, '', -1, -1, "
                "1, '', -1, -1)",
                [G + game, seq, seat, card],
            )
    con.close()
    return path


@pytest.fixture(scope="module")
def con(tmp_path_factory: pytest.TempPathFactory) -> duckdb.DuckDBPyConnection:
    con = open_db(build(tmp_path_factory.mktemp("d") / "d.duckdb"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(summary, "EARLY_PICKS", 1)
        summary.ensure(con, [1])
    return con


def test_never_bought_share_per_set_and_board(con: duckdb.DuckDBPyConnection) -> None:
    """By hand. North, X: 8 picks (g0: x1 x1 x2 x2; g1: x2 x1 x1 x2), bought g0's first x1 and
    both x2: 5 never bought. Early (first pick of a pack, early=1): g0 s0 pick 1, g0 s1 picks 1
    and 3, g1 s0 pick 3, g1 s1 pick 1: 5, of which the last 2 never bought. North, Y: 4 picks,
    1 bought (g1 s0); early g0 s0 pick 3, g1 s0 pick 1, g1 s1 pick 3: 2 of 3 never bought.
    South, X: 4 picks, 1 bought (s1's x1); early s0 picks 1 and 3, s1 pick 3: none bought.
    South, Y: 2 picks, s1's bought; early: s1 pick 1, bought."""
    df = drafted.set_shares(Runs(con, [1]))
    expected = {
        ("north", "X"): (8, 5, 5, 2),
        ("north", "Y"): (4, 3, 3, 2),
        ("south", "X"): (4, 3, 3, 3),
        ("south", "Y"): (2, 1, 1, 0),
    }
    assert df.height == len(expected)
    for (board, set_), (picks, never, early, early_never) in expected.items():
        r = row(df, board=board, set=set_)
        assert (r["picks"], r["never_bought"], r["early_picks"], r["early_never_bought"]) == (
            picks,
            never,
            early,
            early_never,
        )
        check_rate(r, "never_bought_share", never, picks)
        check_rate(r, "early_never_bought_share", early_never, early)


CARDS = {  # (board, card): games, games drafted, seats drafted, seats bought, picks,
    # copies bought, ATA
    ("north", "x1"): (2, 2, 3, 1, 4, 1, (1 + 2 + 3 + 1) / 4),
    ("north", "x2"): (2, 2, 3, 1, 4, 2, (1 + 3 + 2 + 2) / 4),
    ("north", "y1"): (2, 2, 4, 1, 4, 1, (3 + 2 + 1 + 3) / 4),
    ("south", "x1"): (1, 1, 2, 1, 2, 1, (1 + 2) / 2),
    ("south", "x2"): (1, 1, 2, 0, 2, 0, (3 + 3) / 2),
    ("south", "y1"): (1, 1, 2, 1, 2, 1, (2 + 1) / 2),
}


PACK_AND_PICK = {  # (board, card): mean pack round, mean pick within the pack (picks 1-2 are
    # pack 1's picks 1-2, pick 3 is pack 2's pick 1)
    ("north", "x1"): ((1 + 1 + 2 + 1) / 4, (1 + 2 + 1 + 1) / 4),
    ("north", "x2"): ((1 + 2 + 1 + 1) / 4, (1 + 1 + 2 + 2) / 4),
    ("north", "y1"): ((2 + 1 + 1 + 2) / 4, (1 + 2 + 1 + 1) / 4),
    ("south", "x1"): (1.0, (1 + 2) / 2),
    ("south", "x2"): (2.0, 1.0),
    ("south", "y1"): (1.0, (2 + 1) / 2),
}


def test_per_card_counts_and_kraken_like(con: duckdb.DuckDBPyConnection) -> None:
    """Per card and board by hand; Kraken-like at drafted >= 50% of games and bought by at
    most 30% of drafting seats: north y1 (1 of 4 seats) and south x2 (0 of 2), not north x1
    or x2 (1 of 3 seats is 33%); at the defaults (25%, 2%) only south x2."""
    df = drafted.card_shares(Runs(con, [1], Thresholds(kraken_drafted=0.5, kraken_bought=0.3)))
    assert df.height == len(CARDS)
    for (board, card), (games, g_drafted, s_drafted, s_bought, picks, copies, ata) in CARDS.items():
        r: dict[str, Any] = row(df, board=board, card=card)
        assert (
            r["games"],
            r["games_drafted"],
            r["seats_drafted"],
            r["seats_bought"],
            r["picks"],
            r["copies_bought"],
        ) == (games, g_drafted, s_drafted, s_bought, picks, copies)
        assert r["ata"] == pytest.approx(ata)
        pack, in_pack = PACK_AND_PICK[board, card]
        assert (r["ata_pack"], r["ata_in_pack"]) == (pytest.approx(pack), pytest.approx(in_pack))
        check_rate(r, "bought_share", s_bought, s_drafted)
    like = drafted.kraken_like(df)
    assert like.select("board", "card").rows() == [("north", "y1"), ("south", "x2")]  # by ATA
    assert drafted.kraken_like(drafted.card_shares(Runs(con, [1]))).select(
        "board", "card"
    ).rows() == [("south", "x2")]


def test_kraken_finding_per_board(con: duckdb.DuckDBPyConnection) -> None:
    """One finding per board with Kraken-like cards: south's x2 is never bought by any of its 2
    drafting seats (high with a minimum sample of 2); north's y1 is bought by 1 of 4 (medium).
    Each says how many of the board's drafted cards (3) are Kraken-like."""
    th = Thresholds(kraken_drafted=0.5, kraken_bought=0.3, min_sample=2)
    found = kraken_findings(drafted.card_shares(Runs(con, [1], th)), th)
    by_board = {f.subject: f for f in found}
    assert set(by_board) == {"y1", "x2"}
    assert (by_board["x2"].severity, by_board["y1"].severity) == ("high", "medium")
    assert all(f.value == pytest.approx(1 / 3) and f.n == 3 for f in found)
    assert (
        "x2 (drafted in 1 of 1 games, bought by 0 of 2 drafting seats, taken at pack 2.0, "
        "pick 1.0 on average)" in by_board["x2"].text
    )
    # the board's drafted cards are all of them, not a sample: no interval
    assert all(f.low is None and f.high is None for f in found)
    assert "%" not in by_board["x2"].text
    assert " on south" in by_board["x2"].text and " on north" in by_board["y1"].text
    assert pl.DataFrame([f.kind for f in found]).to_series().unique().to_list() == [
        "drafted never bought"
    ]


def test_kraken_finding_says_what_randomised_buying_thinks_of_the_cards(
    con: duckdb.DuckDBPyConnection,
) -> None:
    """With causal verdicts (x2 worth buying, y1 worthless) each finding counts the cards
    randomised buying finds worth buying, the agents' habit, not the cards', and names those it
    finds worthless (which the dead-card findings keep); a card whose interval holds 0 (None)
    is counted as neither: the run cannot say whether leaving it is a loss."""
    th = Thresholds(kraken_drafted=0.5, kraken_bought=0.3, min_sample=2)
    shares = drafted.card_shares(Runs(con, [1], th))
    found = {f.subject: f for f in kraken_findings(shares, th, {"x2": True, "y1": False})}
    assert found["x2"].text.endswith(
        "Randomised buying finds 1 of these 1 worth buying (too strong, or a sure gain when "
        "bought): leaving those unbought is the agents' habit, not the cards' fault."
    )
    assert "Randomised buying finds 0 of these 1" in found["y1"].text
    assert found["y1"].text.endswith(" It finds 1 worthless: y1.")
    unsure = {f.subject: f for f in kraken_findings(shares, th, {"x2": None, "y1": False})}
    assert "Randomised buying finds 0 of these 1 worth buying" in unsure["x2"].text
    assert unsure["x2"].text.endswith(
        " It cannot tell 1 from no effect (their intervals hold 0): whether leaving them is a "
        "loss, this run does not say."
    )
    assert "cannot tell" not in unsure["y1"].text
    assert "Randomised" not in " ".join(f.text for f in kraken_findings(shares, th))
