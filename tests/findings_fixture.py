"""Hand-made databases for the findings tests: games described in a few lines, stored with the
workbench's own schema (workbench/store/schema.py), so every answer is known in advance."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from engine.record import SNAPSHOT_COLUMNS
from workbench.store import TABLES, open_store
from workbench.store.keys import GAME_ID_BASE

RUN = 1


@dataclass
class Game:
    """One game of two seats. `picks`: seat -> (card, pack as 'a|b|c'); `buys`: (seat, card,
    round); `snaps`: snapshot rows as column -> value (the rest 0); `events`: further events
    after the buys, in order, as (seat, kind, card, target, amount, detail) in round 1."""

    winners: Sequence[int]
    rounds: int = 10
    reason: str = "vip"
    picks: dict[int, list[tuple[str, str]]] = field(default_factory=dict)
    buys: Sequence[tuple[int, str, int]] = ()
    snaps: Sequence[dict[str, int]] = ()
    events: Sequence[tuple[int, str, str, str, int, str]] = ()


def build(
    path: Path,
    games: Sequence[Game],
    cards: Sequence[tuple[str, str, int] | tuple[str, str, int, str]] = (),
    board: str = "plain",
    victory: str = "vip",
    income: int = 2,
    run: int = RUN,
    agent: str = "heuristic",
) -> Path:
    """Run `run` (1 unless given; a second call adds another run to the file) on one two-seat
    board with `cards` (name, set, buy price, and type: a spell unless given) in the pool,
    every seat played by `agent`."""
    con = open_store(path)
    con.execute(
        "INSERT INTO runs VALUES (?, 'hand-made', 'finished', 1, ?, 2, 'A,B', ?, "
        "?, ?, '{}', '[]', 'h', 'v', 'local', 1, now(), now())",
        [run, len(games), board, agent, agent],
    )
    blank = [None] * (len(TABLES["run_cards"]) - 7)
    for name, set_, buy, *kind in cards:
        con.execute(
            f"INSERT INTO run_cards VALUES ({', '.join('?' * len(TABLES['run_cards']))})",
            [run, name, set_, kind[0] if kind else "spell", True, 1, buy, *blank],
        )
    con.execute(
        f"""INSERT INTO run_boards (run_id, board_index, board, players, victory_kind,
                   income, unit_income, round_limit) VALUES ({run}, 0, ?, 2, ?, ?, 0, 10)""",
        [board, victory, income],
    )
    seats, picks, events, snaps = [], [], [], []
    for i, g in enumerate(games):
        gid = run * GAME_ID_BASE + i
        con.execute(
            "INSERT INTO games VALUES (?, ?, ?, ?, ?, 2, 0, 0, ?, ?, ?, ?, false, 0, 0)",
            [gid, run, i, board, i, list(g.winners), not g.winners, g.reason, g.rounds],
        )
        for seat in (0, 1):
            won = seat in g.winners
            seats.append(
                [
                    gid,
                    run,
                    seat,
                    seat,
                    agent,
                    agent,
                    won,
                    1 if won else (0 if not g.winners else -1),
                    "",
                ]
            )
            for n, (card, pack) in enumerate(g.picks.get(seat, []), start=1):
                picks.append([gid, n, 1, seat, card, pack])
        for seq, (seat, card, rnd) in enumerate(g.buys):
            events.append([gid, seq, rnd, rnd, "buy", seat, "buy", card, "", -1, -1, 1, "", -1, -1])
        for seq, (seat, what, card, target, amount, detail) in enumerate(
            g.events, start=len(g.buys)
        ):
            events.append(
                [gid, seq, 1, 1, "main", seat, what, card, target, -1, -1, amount, detail, -1, -1]
            )
        for row in g.snaps:
            snaps.append([gid, *(row.get(c, 0) for c in SNAPSHOT_COLUMNS)])
    for table, rows in (
        ("game_seats", seats),
        ("picks", picks),
        ("events", events),
        ("snapshots", snaps),
    ):
        if rows:
            con.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(rows[0]))})", rows)
    con.close()
    return path
