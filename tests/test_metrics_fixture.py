"""A hand-built database for the metric tests: 4 games, 2 seats, 4 cards, answers known.

Run 1, board "plain" (capture points, income 2, 1 per unit, round limit 5), sets A (a1, a2) and
B (b1, b2), one pack round of two picks. Seat 0 is agent/drafter "random", seat 1 "heuristic";
seat 0 always starts.

| game | seat 0 picks (pack) | seat 1 picks (pack) | result                           | rounds |
|------|---------------------|---------------------|----------------------------------|--------|
| 0    | a1 [a1,b1], b2 [b2] | a2 [a2,b2], b1 [b1] | seat 0 wins                      | 3      |
| 1    | b1 [a1,b1], b2 [b2] | a2 [a2,b2], a1 [a1] | seat 1 wins                      | 2      |
| 2, 3 | as game 0           | as game 0           | 2: seat 0; 3: draw (round limit) | 4, 5   |

Buys (round): g0 s0 a1 (2), s1 b1 (3); g1 s0 b1 (1); g2 s0 a1 (1), s0 b2 (2), s1 a2 (2).
Plays: g0 s0 a1; g2 s0 a1, s1 a2. Events of g0: a combat a1 -> b1 (2 dealt, 1 back), an effect
of b2 dealing 3, a collision with a2 dealing 1; g2: a2 dies to upkeep, a1 to damage.
Snapshots for g0 and g1 (two rounds) feed the economy and the lead metrics.
Run 2 repeats run 1's games with a1 costing 4 and a new card c1, for `compare`.
"""

from __future__ import annotations

from pathlib import Path

import duckdb

from workbench.store import open_store

G = 1_000_000_000
GAMES = [  # (index, winners, reason, rounds)
    (0, [0], "capture points", 3),
    (1, [1], "capture points", 2),
    (2, [0], "capture points", 4),
    (3, [], "round limit", 5),
]
DRAFT_0 = [(1, 0, "a1", "a1|b1"), (1, 1, "a2", "a2|b2"), (2, 0, "b2", "b2"), (2, 1, "b1", "b1")]
DRAFT_1 = [(1, 0, "b1", "a1|b1"), (1, 1, "a2", "a2|b2"), (2, 0, "b2", "b2"), (2, 1, "a1", "a1")]
BUYS = {
    0: [(0, "a1", 2), (1, "b1", 3)],
    1: [(0, "b1", 1)],
    2: [(0, "a1", 1), (0, "b2", 2), (1, "a2", 2)],
    3: [],
}
PLAYS = {0: [(0, "a1", 3)], 2: [(0, "a1", 2), (1, "a2", 3)]}
CARDS = [  # name, set, type, buy, play, upkeep, life, move, attack, range
    ("a1", "A", "unit", 3, 2, 1, 2, 1, 2, 1),
    ("a2", "A", "unit", 2, 1, 1, 1, 1, 1, 1),
    ("b1", "B", "spell", 2, 1, None, None, None, None, None),
    ("b2", "B", "spell", 4, 3, None, None, None, None, None),
]
# snapshot columns (the money columns per turn, as the engine writes them): round, player, resource,
# income, spend_buy, spend_play, spend_upkeep, spend_free, discard_gain, upkeep_paid,
# upkeep_deaths, hand, deck, discard, store, units, points, then resource_start, card_gain,
# card_loss, buy_resource, bought (every row balances)
SNAPSHOTS = {
    0: [
        (1, 0, 1, 2, 0, 1, 0, 0, 0, 0, 0, 3, 5, 0, 2, 1, 1, 0, 0, 0, 1, 0),
        (1, 1, 2, 2, 0, 0, 0, 0, 0, 0, 0, 3, 5, 0, 2, 0, 0, 0, 0, 0, 2, 0),
        (2, 0, 1, 3, 3, 0, 1, 0, 1, 1, 0, 3, 4, 1, 1, 1, 3, 1, 0, 0, 4, 1),
        (2, 1, 1, 2, 3, 0, 0, 0, 0, 0, 0, 3, 4, 1, 1, 0, 1, 2, 0, 0, 4, 1),
    ],
    1: [
        (1, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 3, 5, 0, 2, 0, 1, 0, 0, 0, 2, 0),
        (1, 1, 2, 2, 0, 0, 0, 0, 0, 0, 0, 3, 5, 0, 2, 0, 0, 0, 0, 0, 2, 0),
        (2, 0, 4, 2, 0, 0, 0, 0, 0, 0, 0, 3, 5, 0, 2, 0, 1, 2, 0, 0, 4, 0),
        (2, 1, 4, 2, 0, 0, 0, 0, 0, 0, 0, 3, 5, 0, 2, 0, 2, 2, 0, 0, 4, 0),
    ],
}


def _event(
    con: duckdb.DuckDBPyConnection,
    gid: int,
    seq: int,
    player: int,
    kind: str,
    card: str = "",
    target: str = "",
    amount: int = 0,
    detail: str = "",
    round_: int = 1,
) -> None:
    con.execute(
        "INSERT INTO events VALUES (?, ?, ?, ?, 'main', ?, ?, ?, ?, -1, -1, ?, ?, -1, -1)",
        [gid, seq, round_, round_, player, kind, card, target, amount, detail],
    )


def _run(con: duckdb.DuckDBPyConnection, run: int, cards: list[tuple[object, ...]]) -> None:
    con.execute(
        "INSERT INTO runs VALUES (?, ?, 'finished', 7, 4, 2, 'A,B', 'plain', "
        "'random,heuristic', 'random,heuristic', '{}', '[]', 'h', 'v', 'local', 1, "
        "now(), now())",
        [run, f"run {run}"],
    )
    for name, set_, type_, buy, play, upkeep, life, move, attack, range_ in cards:
        con.execute(
            "INSERT INTO run_cards VALUES (?, ?, ?, ?, true, 1, ?, ?, ?, ?, ?, ?, ?, 0, "
            "NULL, '', '', '', '', '', '', '')",
            [run, name, set_, type_, buy, play, upkeep, life, move, attack, range_],
        )
    con.execute(
        "INSERT INTO run_cards VALUES (?, 'coin', 'starter', 'spell', false, 5, NULL, 0, "
        "NULL, NULL, NULL, NULL, NULL, 0, NULL, '', 'gain 1', '', '', '', '', "
        "'gain 1')",
        [run],
    )
    con.execute(
        "INSERT INTO run_boards VALUES (?, 0, 'plain', 'plain.csv', 'h', 2, 4, 4, "
        "'capture', 5, '', 0, 2, 1, 5, 'none', 0, 'coin x 5', '', '', '{}', '', true, "
        "'')",
        [run],
    )
    for index, winners, reason, rounds in GAMES:
        gid = run * G + index
        con.execute(
            "INSERT INTO games VALUES (?, ?, ?, 'plain', ?, 2, 0, 0, ?, ?, ?, ?, false, 0, 0)",
            [gid, run, index, index, winners, not winners, reason, rounds],
        )
        for seat, agent in enumerate(("random", "heuristic")):
            won = seat in winners
            con.execute(
                "INSERT INTO game_seats VALUES (?, ?, ?, ?, ?, ?, ?, ?, '')",
                [gid, run, seat, seat, agent, agent, won, 1 if won else (0 if not winners else -1)],
            )
        for pick, player, card, pack in DRAFT_1 if index == 1 else DRAFT_0:
            con.execute(
                "INSERT INTO picks VALUES (?, ?, 1, ?, ?, ?)", [gid, pick, player, card, pack]
            )
        seq = 0
        for player, card, round_ in BUYS[index]:
            _event(con, gid, seq, player, "buy", card, amount=1, round_=round_)
            seq += 1
        for player, card, round_ in PLAYS.get(index, []):
            _event(con, gid, seq, player, "play", card, round_=round_)
            seq += 1
        for row in SNAPSHOTS.get(index, []):
            con.execute(
                f"INSERT INTO snapshots VALUES (?, {', '.join('?' * len(row))})", [gid, *row]
            )
    g0, g2 = run * G, run * G + 2
    _event(con, g0, 10, 0, "damage", "b1", amount=2, detail="attack")
    _event(con, g0, 11, 1, "damage", "a1", amount=1, detail="retaliation")
    _event(con, g0, 12, 0, "combat", "a1", "b1", amount=2)
    _event(con, g0, 13, 1, "resolve", "b2", detail="card")
    _event(con, g0, 14, 1, "damage", "a1", amount=3, detail="effect")
    _event(con, g0, 15, 0, "push_stop", "b1", "a2", detail="collision")
    _event(con, g0, 16, 0, "damage", "b1", amount=1, detail="collision")
    _event(con, g2, 10, 1, "upkeep", "a2", amount=1, detail="refused")
    _event(con, g2, 11, 1, "death", "a2", detail="upkeep")
    _event(con, g2, 12, 0, "death", "a1", detail="damage")


def build(path: Path, runs: int = 1) -> Path:
    """Write the database (run 1; with runs=2 also the edited run 2) and return its path."""
    con = open_store(path)
    _run(con, 1, list(CARDS))
    if runs > 1:
        edited = [
            ("a1", "A", "unit", 4, 2, 1, 2, 1, 2, 1),
            *CARDS[1:],
            ("c1", "B", "spell", 4, 3, None, None, None, None, None),
        ]
        _run(con, 2, edited)
    con.close()
    return path


def test_fixture_has_the_documented_rows(tmp_path: Path) -> None:
    con = duckdb.connect(str(build(tmp_path / "f.duckdb", runs=2)), read_only=True)
    counts = {
        t: con.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0]
        for t in ("runs", "games", "game_seats", "picks", "snapshots")
    }
    assert counts == {"runs": 2, "games": 8, "game_seats": 16, "picks": 32, "snapshots": 16}
