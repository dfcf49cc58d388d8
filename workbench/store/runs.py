"""A run's rows: what it plays (`runs`, with its cards and boards as they were), what a resume
reads back, and its end (summaries, status)."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

import duckdb

from engine.board import Board
from engine.cards import Card
from engine.wording import card_behaviour, render_free_actions
from workbench.content.board_map import field_code
from workbench.content.variants import Change
from workbench.store import summary
from workbench.store.files import StoreError, engine_version
from workbench.store.keys import teams_text

MAX_GAMES: Final = 1_000_000
"""The most games of one run: far below GAME_ID_BASE, and the list of games still to play fits
in memory (a larger study is several runs)."""
MAX_SEED: Final = 2**63 - 1
"""Run seeds are 0 to this, the largest BIGINT (runs.seed)."""


@dataclass(frozen=True)
class RunSpec:
    """What a run plays; everything needed to resume it (a `runs` row without bookkeeping)."""

    sets: tuple[str, ...]
    boards: tuple[str, ...]
    games: int
    players: int
    agents: tuple[str, ...]
    drafters: tuple[str, ...]
    seed: int
    label: str = ""
    changes: tuple[Change, ...] = ()
    """Applied to every board's setup after loading (variants: sweeps, tuning, ablation)."""

    def board_of(self, index: int) -> str:
        """Boards take turns, so each gets an even share of the games."""
        return self.boards[index % len(self.boards)]

    def rotation_of(self, index: int) -> int:
        """Seat shift per game: every agent sits in every seat equally often on every board."""
        return (index // len(self.boards)) % self.players


@dataclass(frozen=True)
class BoardSource:
    """A loaded board with the files and hash it came from (for run_boards and resume checks)."""

    board: Board
    file: str
    content_hash: str


def _utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


def create_run(
    con: duckdb.DuckDBPyConnection,
    spec: RunSpec,
    boards: Sequence[BoardSource],
    cards: Iterable[Card],
    pool: Iterable[Card],
    params: dict[str, object],
    files: Sequence[str],
    content_hash: str,
    backend: str,
    workers: int,
) -> int:
    """Insert the run with its cards and boards as they are now; return its run_id."""
    run_id = int(con.execute("SELECT coalesce(max(run_id), 0) + 1 FROM runs").fetchall()[0][0])
    in_pool = {c.name for c in pool}
    con.execute("BEGIN TRANSACTION")
    con.execute(
        "INSERT INTO runs VALUES (?, ?, 'unfinished', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
        "?, ?, ?, NULL)",
        [
            run_id,
            spec.label,
            spec.seed,
            spec.games,
            spec.players,
            ",".join(spec.sets),
            ",".join(spec.boards),
            ",".join(spec.agents),
            ",".join(spec.drafters),
            json.dumps(params, sort_keys=True),
            json.dumps(list(files)),
            content_hash,
            engine_version(),
            backend,
            workers,
            _utcnow(),
        ],
    )
    _insert(con, "run_cards", [_card_row(run_id, c, c.name in in_pool) for c in cards])
    _insert(con, "run_boards", [_board_row(run_id, i, b) for i, b in enumerate(boards)])
    con.execute("COMMIT")
    return run_id


def _insert(con: duckdb.DuckDBPyConnection, table: str, rows: list[list[object]]) -> None:
    """All rows in one statement: executemany runs one per row (0.6 ms each, a tenth of a
    second for a set's cards before a run's first game)."""
    if rows:
        row = f"({', '.join('?' * len(rows[0]))})"
        con.execute(
            f"INSERT INTO {table} VALUES {', '.join([row] * len(rows))}",
            [v for r in rows for v in r],
        )


def _card_row(run_id: int, c: Card, in_pool: bool) -> list[object]:
    """A card as it was: numbers as columns, behaviour in the card language (engine.wording)."""
    b = card_behaviour(c)
    return [
        run_id,
        c.name,
        c.set,
        c.type.value,
        in_pool,
        c.copies,
        c.buy,
        c.play,
        c.upkeep,
        c.life,
        c.move,
        c.attack,
        c.range,
        c.keywords.armor,
        c.durability,
        b["keywords"],
        b["effect"],
        b["trigger"],
        b["free_action"],
        b["full_action"],
        b["modifiers"],
        c.text,
    ]


def _board_row(run_id: int, index: int, src: BoardSource) -> list[object]:
    b = src.board
    rows = [" ".join(field_code(b.field_at(x, y)) for x in range(b.width)) for y in range(b.height)]
    actions = {f.mark: render_free_actions(f.actions) for f in b.fields if f.mark}
    placements = ", ".join(
        f"{p.card}@{p.x},{p.y}:{p.owner}{'*' if p.vip else ''}" for p in b.placements
    )
    v = b.victory
    return [
        run_id,
        index,
        b.name,
        src.file,
        src.content_hash,
        b.players,
        b.width,
        b.height,
        v.kind.value,
        v.target,
        v.card or "",
        v.tyrant_goal,
        b.income,
        b.unit_income,
        b.round_limit,
        b.tie_break.value,
        b.starting_hand,
        card_counts_text(b.start_cards),
        placements,
        "\n".join(rows),
        json.dumps(actions, sort_keys=True),
        teams_text(b.teams),
        v.shared_win,
        card_counts_text(b.tyrant_deck),
    ]


def card_counts_text(counts: Iterable[tuple[str, int]]) -> str:
    """`Militia x 3, Supply x 4`, as the scenario sheet writes start cards."""
    return ", ".join(f"{name} x {n}" for name, n in counts)


def load_run(con: duckdb.DuckDBPyConnection, run_id: int) -> tuple[RunSpec, str, str]:
    """The run's spec, status and engine version; StoreError if there is no such run."""
    rows = con.execute(
        "SELECT sets, boards, games, players, agents, drafters, seed, label, "
        "status, engine_version, params FROM runs WHERE run_id = ?",
        [run_id],
    ).fetchall()
    if not rows:
        known = [str(r[0]) for r in con.execute("SELECT run_id FROM runs ORDER BY 1").fetchall()]
        raise StoreError(f"no run {run_id} in this database; runs: {', '.join(known) or 'none'}")
    sets, boards, games, players, agents, drafters, seed, label, status, version, params = rows[0]
    changes = tuple(Change(**c) for c in json.loads(params or "{}").get("changes", []))
    spec = RunSpec(
        tuple(sets.split(",")),
        tuple(boards.split(",")),
        games,
        players,
        tuple(agents.split(",")),
        tuple(drafters.split(",")),
        seed,
        label,
        changes,
    )
    return spec, status, version


def board_hashes(con: duckdb.DuckDBPyConnection, run_id: int) -> dict[str, str]:
    """Board name -> content hash as stored when the run began."""
    return dict(
        con.execute(
            "SELECT board, content_hash FROM run_boards WHERE run_id = ?", [run_id]
        ).fetchall()
    )


def missing_games(con: duckdb.DuckDBPyConnection, run_id: int, games: int) -> list[int]:
    """Game indices of the run not stored yet, in order (a failed game is stored: the same
    engine would fail it again, so a resume does not replay it)."""
    done = {
        r[0]
        for r in con.execute(
            "SELECT game_index FROM games WHERE run_id = ? UNION "
            "SELECT game_index FROM failed_games WHERE run_id = ?",
            [run_id, run_id],
        ).fetchall()
    }
    return [i for i in range(games) if i not in done]


def failed_games(con: duckdb.DuckDBPyConnection, run_id: int) -> list[tuple[int, str, int, str]]:
    """(game_index, board, seed, error) of the run's failed games, in order."""
    return [
        (int(i), str(b), int(s), str(e))
        for i, b, s, e in con.execute(
            "SELECT game_index, board, seed, error FROM failed_games WHERE run_id = ? ORDER BY 1",
            [run_id],
        ).fetchall()
    ]


def set_execution(con: duckdb.DuckDBPyConnection, run_id: int, backend: str, workers: int) -> None:
    """Record how the run is being executed now (a resume may use other workers)."""
    con.execute(
        "UPDATE runs SET backend = ?, workers = ? WHERE run_id = ?", [backend, workers, run_id]
    )


def finish_run(con: duckdb.DuckDBPyConnection, run_id: int) -> None:
    """Once every game is stored: store the run's summary tables (workbench/store/summary.py), then
    mark the run finished."""
    summary.write(con, run_id)
    con.execute(
        "UPDATE runs SET status = 'finished', finished_at = ? WHERE run_id = ?", [_utcnow(), run_id]
    )
