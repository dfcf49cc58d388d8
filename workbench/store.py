"""The DuckDB event store (docs/schema.md): schema, run rows, and batches of whole games.

One process writes a file; workers hand it batches of Arrow tables. Every batch is one
transaction, so a run stopped at any moment leaves only complete games behind.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import hashlib
import json
import os
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Final

import duckdb
import pyarrow as pa

from engine.board import Board
from engine.cards import Card
from engine.events import EVENT_COLUMNS
from engine.record import PICK_COLUMNS, SNAPSHOT_COLUMNS, GameRecord
from engine.wording import card_behaviour, render_free_actions
from workbench import summary
from workbench.board_map import field_code
from workbench.keys import GAME_ID_BASE, SCHEMA_VERSION
from workbench.variants import Change

MAX_GAMES: Final = 1_000_000
"""The most games of one run: far below GAME_ID_BASE, and the list of games still to play fits
in memory (a larger study is several runs)."""
MAX_SEED: Final = 2**63 - 1
"""Run seeds are 0 to this, the largest BIGINT (runs.seed)."""

_EVENT_TYPES = {
    "phase": "VARCHAR",
    "kind": "VARCHAR",
    "card": "VARCHAR",
    "target": "VARCHAR",
    "detail": "VARCHAR",
}

TABLES: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    "schema_info": (("key", "VARCHAR PRIMARY KEY"), ("value", "VARCHAR")),
    "runs": (
        ("run_id", "BIGINT PRIMARY KEY"),
        ("label", "VARCHAR"),
        ("status", "VARCHAR"),
        ("seed", "BIGINT"),
        ("games", "INTEGER"),
        ("players", "INTEGER"),
        ("sets", "VARCHAR"),
        ("boards", "VARCHAR"),
        ("agents", "VARCHAR"),
        ("drafters", "VARCHAR"),
        ("params", "VARCHAR"),
        ("files", "VARCHAR"),
        ("content_hash", "VARCHAR"),
        ("engine_version", "VARCHAR"),
        ("backend", "VARCHAR"),
        ("workers", "INTEGER"),
        ("started_at", "TIMESTAMP"),
        ("finished_at", "TIMESTAMP"),
    ),
    "run_cards": (
        ("run_id", "BIGINT"),
        ("name", "VARCHAR"),
        ("set", "VARCHAR"),
        ("type", "VARCHAR"),
        ("in_pool", "BOOLEAN"),
        ("copies", "INTEGER"),
        ("buy", "INTEGER"),
        ("play", "INTEGER"),
        ("upkeep", "INTEGER"),
        ("life", "INTEGER"),
        ("move", "INTEGER"),
        ("attack", "INTEGER"),
        ("range", "INTEGER"),
        ("armor", "INTEGER"),
        ("durability", "INTEGER"),
        ("keywords", "VARCHAR"),
        ("effect", "VARCHAR"),
        ("trigger", "VARCHAR"),
        ("free_action", "VARCHAR"),
        ("full_action", "VARCHAR"),
        ("modifiers", "VARCHAR"),
        ("text", "VARCHAR"),
    ),
    "run_boards": (
        ("run_id", "BIGINT"),
        ("board_index", "INTEGER"),
        ("board", "VARCHAR"),
        ("file", "VARCHAR"),
        ("content_hash", "VARCHAR"),
        ("players", "INTEGER"),
        ("width", "INTEGER"),
        ("height", "INTEGER"),
        ("victory_kind", "VARCHAR"),
        ("victory_target", "INTEGER"),
        ("victory_card", "VARCHAR"),
        ("tyrant_goal", "INTEGER"),
        ("income", "INTEGER"),
        ("unit_income", "INTEGER"),
        ("round_limit", "INTEGER"),
        ("tie_break", "VARCHAR"),
        ("starting_hand", "INTEGER"),
        ("start_cards", "VARCHAR"),
        ("placements", "VARCHAR"),
        ("map", "VARCHAR"),
        ("field_actions", "VARCHAR"),
        ("teams", "VARCHAR"),
        ("shared_win", "BOOLEAN"),
        ("tyrant_deck", "VARCHAR"),
    ),
    "games": (
        ("game_id", "BIGINT PRIMARY KEY"),
        ("run_id", "BIGINT"),
        ("game_index", "INTEGER"),
        ("board", "VARCHAR"),
        ("seed", "BIGINT"),
        ("players", "INTEGER"),
        ("rotation", "INTEGER"),
        ("first_player", "INTEGER"),
        ("winners", "INTEGER[]"),
        ("draw", "BOOLEAN"),
        ("reason", "VARCHAR"),
        ("rounds", "INTEGER"),
        ("guard_stopped", "BOOLEAN"),
        ("events", "INTEGER"),
        ("actions", "INTEGER"),
    ),
    "game_seats": (
        ("game_id", "BIGINT"),
        ("run_id", "BIGINT"),
        ("seat", "INTEGER"),
        ("agent_index", "INTEGER"),
        ("agent", "VARCHAR"),
        ("drafter", "VARCHAR"),
        ("won", "BOOLEAN"),
        ("result", "INTEGER"),
        ("store", "VARCHAR"),
    ),
    "picks": (
        ("game_id", "BIGINT"),
        *((c, "VARCHAR" if c in ("card", "pack") else "INTEGER") for c in PICK_COLUMNS),
    ),
    "events": (
        ("game_id", "BIGINT"),
        *((c, _EVENT_TYPES.get(c, "INTEGER")) for c in EVENT_COLUMNS),
    ),
    "snapshots": (("game_id", "BIGINT"), *((c, "INTEGER") for c in SNAPSHOT_COLUMNS)),
    "actions": (("game_id", "BIGINT"), ("seq", "INTEGER"), ("action", "VARCHAR")),
    "failed_games": (
        ("game_id", "BIGINT PRIMARY KEY"),
        ("run_id", "BIGINT"),
        ("game_index", "INTEGER"),
        ("board", "VARCHAR"),
        ("seed", "BIGINT"),
        ("rotation", "INTEGER"),
        ("agents", "VARCHAR"),
        ("drafters", "VARCHAR"),
        ("error", "VARCHAR"),
        ("traceback", "VARCHAR"),
    ),
    "sweeps": (
        ("sweep_id", "BIGINT"),
        ("kind", "VARCHAR"),
        ("run_id", "BIGINT"),
        ("card", "VARCHAR"),
        ("field", "VARCHAR"),
        ("value", "INTEGER"),
        ("variant", "VARCHAR"),
    ),
    "sweep_results": (
        ("sweep_id", "BIGINT"),
        ("card", "VARCHAR"),
        ("quantity", "VARCHAR"),
        ("estimate", "DOUBLE"),
        ("low", "DOUBLE"),
        ("high", "DOUBLE"),
        ("note", "VARCHAR"),
    ),
    **summary.TABLES,
}
"""Every table's columns and DuckDB types, in docs/schema.md's order (tests compare the two)."""

GAME_TABLES: Final = (
    "games",
    "game_seats",
    "picks",
    "events",
    "snapshots",
    "actions",
    "failed_games",
)
"""The tables a batch of games writes; everything a game leaves is in these."""

_ARROW = {
    "BIGINT": pa.int64(),
    "INTEGER": pa.int32(),
    "VARCHAR": pa.string(),
    "BOOLEAN": pa.bool_(),
    "INTEGER[]": pa.list_(pa.int32()),
}
ARROW_SCHEMAS: Final = {
    t: pa.schema([(c, _ARROW[ty.split(" ")[0]]) for c, ty in TABLES[t]]) for t in GAME_TABLES
}


class StoreError(Exception):
    """A database that cannot be used: unwritable, not DuckDB, another schema, unknown run."""


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


@dataclass(frozen=True)
class PlayedGame:
    """One finished game with its place in the run."""

    index: int
    board: str
    rotation: int
    agents: tuple[str, ...]
    drafters: tuple[str, ...]
    record: GameRecord


@dataclass(frozen=True)
class FailedGame:
    """A game that raised: where it was in the run and what went wrong (issue 20)."""

    index: int
    board: str
    seed: int
    rotation: int
    agents: tuple[str, ...]
    drafters: tuple[str, ...]
    error: str
    traceback: str


@functools.cache
def engine_version() -> str:
    """Package version plus a hash of the engine's source as imported (read once per process):
    a resumed run must use the same."""
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parent.parent / "engine"
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return f"{metadata.version('muhq-workbench')}+{digest.hexdigest()[:10]}"


def ddl() -> list[str]:
    """CREATE TABLE statements for the whole schema."""
    return [
        f"CREATE TABLE {t} ({', '.join(f'{c} {ty}' for c, ty in cols)})"
        for t, cols in TABLES.items()
    ]


def check_store(path: str | Path) -> None:
    """Refuse what `open_store` would refuse, without creating or changing anything (so a
    command can check its --db before work whose end may be to store nothing)."""
    path = Path(path)
    if path.is_dir():
        raise StoreError(f"database path {path} is a folder, not a file")
    if path.exists():
        _check_existing(path)
    elif not path.parent.is_dir():
        raise StoreError(f"cannot create database {path}: folder {path.parent} does not exist")
    elif not os.access(path.parent, os.W_OK):
        raise StoreError(f"cannot create database {path}: folder {path.parent} is not writable")


def open_store(path: str | Path) -> duckdb.DuckDBPyConnection:
    """Open (creating if new) a store for writing; refuse anything else without changing it."""
    path = Path(path)
    check_store(path)
    try:
        con = duckdb.connect(str(path))
    except duckdb.Error as exc:
        raise StoreError(f"cannot open database {path} for writing: {exc}") from exc
    tables = {
        r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()
    }
    if not tables:
        _create(con)
    # sweeps added later in version 1, failed_games later in version 3: older files gain them
    for name in ("sweeps", "sweep_results", "failed_games"):
        if tables and name not in tables:
            con.execute(f"CREATE TABLE {name} ({', '.join(f'{c} {ty}' for c, ty in TABLES[name])})")
    # summary_cards' early_picks and early_bought came with summary version 2: older files
    # gain them, empty (their older summaries are rebuilt on read, as summary.ensure says)
    have = con.execute(
        "SELECT table_name, list(column_name) FROM duckdb_columns() "
        "WHERE database_name = current_database() GROUP BY ALL"
    ).fetchall()
    for name, columns in have:
        for column, ty in summary.TABLES.get(name, ()):
            if column not in columns:
                con.execute(f"ALTER TABLE {name} ADD COLUMN {column} {ty}")
    return con


def _check_existing(path: Path) -> None:
    """Read-only look first, so a foreign or newer file is never touched."""
    try:
        con = duckdb.connect(str(path), read_only=True)
    except duckdb.Error as exc:
        raise StoreError(f"{path} is not a usable DuckDB database: {exc}") from exc
    try:
        tables = {
            r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()
        }
        if not tables:
            return
        if "schema_info" not in tables:
            raise StoreError(
                f"{path} is a DuckDB file but not a workbench store "
                f"(no schema_info table; it has {', '.join(sorted(tables))})"
            )
        rows = con.execute("SELECT value FROM schema_info WHERE key = 'schema_version'").fetchall()
        version = rows[0][0] if rows else "none"
        if version != SCHEMA_VERSION:
            raise StoreError(
                f"{path} has store schema version {version}; this workbench "
                f"reads and writes version {SCHEMA_VERSION} only"
            )
    finally:
        con.close()


def _create(con: duckdb.DuckDBPyConnection) -> None:
    con.execute("BEGIN TRANSACTION")
    for statement in ddl():
        con.execute(statement)
    now = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    con.executemany(
        "INSERT INTO schema_info VALUES (?, ?)",
        [("schema_version", SCHEMA_VERSION), ("created_at", now), ("created_by", engine_version())],
    )
    con.execute("COMMIT")


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
    con.executemany(
        f"INSERT INTO run_cards VALUES ({', '.join('?' * 22)})",
        [_card_row(run_id, c, c.name in in_pool) for c in cards],
    )
    con.executemany(
        f"INSERT INTO run_boards VALUES ({', '.join('?' * 24)})",
        [_board_row(run_id, i, b) for i, b in enumerate(boards)],
    )
    con.execute("COMMIT")
    return run_id


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
        ";".join(",".join(str(s + 1) for s in team) for team in b.teams),
        v.shared_win,
        card_counts_text(b.tyrant_deck),
    ]


def card_counts_text(counts: Iterable[tuple[str, int]]) -> str:
    """`Militia x 3, Supply x 4`, as the scenario sheet writes start cards."""
    return ", ".join(f"{name} x {n}" for name, n in counts)


def batch_tables(
    run_id: int, played: Sequence[PlayedGame], failed: Sequence[FailedGame] = ()
) -> dict[str, pa.Table]:
    """Whole games as one Arrow table per game table (built in the worker, cheap to ship)."""
    cols: dict[str, dict[str, list[object]]] = {
        t: {c: [] for c, _ in TABLES[t]} for t in GAME_TABLES
    }
    for f in failed:
        _extend(
            cols["failed_games"],
            game_id=[run_id * GAME_ID_BASE + f.index],
            run_id=[run_id],
            game_index=[f.index],
            board=[f.board],
            seed=[f.seed],
            rotation=[f.rotation],
            agents=[",".join(f.agents)],
            drafters=[",".join(f.drafters)],
            error=[f.error],
            traceback=[f.traceback],
        )
    for g in played:
        r = g.record
        gid = run_id * GAME_ID_BASE + g.index
        _extend(
            cols["games"],
            game_id=[gid],
            run_id=[run_id],
            game_index=[g.index],
            board=[g.board],
            seed=[r.seed],
            players=[r.players],
            rotation=[g.rotation],
            first_player=[r.first_player],
            winners=[list(r.winners)],
            draw=[not r.winners],
            reason=[r.reason],
            rounds=[r.rounds],
            guard_stopped=[r.guard_stopped],
            events=[len(r.events)],
            actions=[len(r.actions)],
        )
        seats = range(r.players)
        _extend(
            cols["game_seats"],
            game_id=[gid] * r.players,
            run_id=[run_id] * r.players,
            seat=list(seats),
            agent_index=[(s + g.rotation) % r.players for s in seats],
            agent=list(g.agents),
            drafter=list(g.drafters),
            won=[s in r.winners for s in seats],
            result=[0 if not r.winners else 1 if s in r.winners else -1 for s in seats],
            store=["|".join(r.stores[s]) if s < len(r.stores) else "" for s in seats],
        )
        _extend(cols["picks"], game_id=[gid] * len(r.picks), **r.picks.data)
        _extend(cols["events"], game_id=[gid] * len(r.events), **r.events.columns())
        _extend(cols["snapshots"], game_id=[gid] * len(r.snapshots), **r.snapshots.data)
        _extend(
            cols["actions"],
            game_id=[gid] * len(r.actions),
            seq=list(range(len(r.actions))),
            action=r.actions,
        )
    return {t: pa.table(c, schema=ARROW_SCHEMAS[t]) for t, c in cols.items()}


def _extend(table: dict[str, list[object]], **columns: Sequence[object]) -> None:
    for name, values in columns.items():
        table[name].extend(values)


def write_batch(con: duckdb.DuckDBPyConnection, tables: dict[str, pa.Table]) -> None:
    """Insert a batch of complete games in one transaction: all of them or none."""
    con.execute("BEGIN TRANSACTION")
    try:
        for name in GAME_TABLES:
            con.register("batch_frame", tables[name])
            con.execute(f"INSERT INTO {name} BY NAME SELECT * FROM batch_frame")
            con.unregister("batch_frame")
        con.execute("COMMIT")
    except BaseException:
        # a failed COMMIT (e.g. a full disk) leaves no transaction: its error matters
        with contextlib.suppress(duckdb.Error):
            con.execute("ROLLBACK")
        raise


FLUSH_ROWS: Final = 245_760
"""Rows a writer gathers before it commits: two DuckDB row groups, so the commit writes them
straight to the file rather than through the write-ahead log (a 16-game batch, about 30,000
events, costs more to commit than to insert)."""
FLUSH_SECONDS: Final = 2.0
"""...or this long after its last commit, so a killed run loses at most a few seconds of games
(a resume plays them again) and progress stays current."""


class BatchWriter:
    """Gathers the batches that arrive and writes them together, each commit whole: the games
    of a run stopped at any moment are stored complete or not at all (docs/schema.md)."""

    def __init__(
        self, con: duckdb.DuckDBPyConnection, rows: int = FLUSH_ROWS, seconds: float = FLUSH_SECONDS
    ) -> None:
        self.con, self.rows, self.seconds = con, rows, seconds
        self.pending: list[dict[str, pa.Table]] = []
        self.pending_rows = 0
        self.pending_games = 0
        self.last = time.perf_counter()

    def add(self, games: int, tables: dict[str, pa.Table]) -> int:
        """Take a batch of `games` games; return how many games this call stored."""
        self.pending.append(tables)
        self.pending_games += games
        self.pending_rows += sum(t.num_rows for t in tables.values())
        if self.pending_rows >= self.rows or time.perf_counter() - self.last >= self.seconds:
            return self.flush()
        return 0

    def flush(self) -> int:
        """Write what is pending in one transaction; return the games stored."""
        stored = self.pending_games
        if self.pending:
            write_batch(
                self.con,
                {name: pa.concat_tables([b[name] for b in self.pending]) for name in GAME_TABLES},
            )
        self.pending, self.pending_rows, self.pending_games = [], 0, 0
        self.last = time.perf_counter()
        return stored


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
    """Once every game is stored: store the run's summary tables (workbench/summary.py), then
    mark the run finished."""
    summary.write(con, run_id)
    con.execute(
        "UPDATE runs SET status = 'finished', finished_at = ? WHERE run_id = ?", [_utcnow(), run_id]
    )
