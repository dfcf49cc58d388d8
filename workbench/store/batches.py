"""Batches of whole games: one Arrow table per game table, built where the games are played,
and written in one transaction each, so a run stopped at any moment leaves only complete games."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import duckdb
import pyarrow as pa

from engine.agents.factorial import FactorialAgent, forced
from engine.agents.registry import FACTORIES, make_agent, parse_spec
from engine.record import GameRecord
from workbench.store.keys import GAME_ID_BASE
from workbench.store.schema import ARROW_SCHEMAS, GAME_TABLES, TABLES


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
    """A game that raised: where it was in the run and what went wrong."""

    index: int
    board: str
    seed: int
    rotation: int
    agents: tuple[str, ...]
    drafters: tuple[str, ...]
    error: str
    traceback: str


Columns = dict[str, dict[str, list[object]]]
"""Table -> column -> values: a batch while it is gathered."""


def batch_tables(
    run_id: int, played: Sequence[PlayedGame], failed: Sequence[FailedGame] = ()
) -> dict[str, pa.Table]:
    """Whole games as one Arrow table per game table (built in the worker, cheap to ship)."""
    cols: Columns = {t: {c: [] for c, _ in TABLES[t]} for t in GAME_TABLES}
    for f in failed:
        _add_failed(cols, run_id, f)
    for g in played:
        _add_game(cols, run_id, g)
    return {t: pa.table(c, schema=ARROW_SCHEMAS[t]) for t, c in cols.items()}


def _add_failed(cols: Columns, run_id: int, f: FailedGame) -> None:
    """A failed game leaves one `failed_games` row and nothing else."""
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


def _add_game(cols: Columns, run_id: int, g: PlayedGame) -> None:
    """A played game's `games` row, its seats, and its record's picks, events, snapshots and
    actions."""
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
    _add_seats(cols, run_id, gid, g)
    _add_assignments(cols, run_id, gid, g)
    _extend(cols["picks"], game_id=[gid] * len(r.picks), **r.picks.data)
    _extend(cols["events"], game_id=[gid] * len(r.events), **r.events.columns())
    _extend(cols["snapshots"], game_id=[gid] * len(r.snapshots), **r.snapshots.data)
    _extend(
        cols["actions"],
        game_id=[gid] * len(r.actions),
        seq=list(range(len(r.actions))),
        action=r.actions,
    )


def _add_seats(cols: Columns, run_id: int, gid: int, g: PlayedGame) -> None:
    """One `game_seats` row per seat: who sat there (the rotation) and how it ended."""
    r = g.record
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


def _add_assignments(cols: Columns, run_id: int, gid: int, g: PlayedGame) -> None:
    """The arms of the randomised buying design, for the seats of `factorial` agents: each
    distinct card name the seat drafted into its store (R2.2), forced or banned
    (engine.agents.factorial). The record's `stores` are what is left at the end, so the
    drafted names come from the picks."""
    r = g.record
    drafted: dict[int, set[str]] = {}
    for player, card in zip(r.picks.data["player"], r.picks.data["card"], strict=True):
        drafted.setdefault(int(str(player)), set()).add(str(card))
    for seat, spec in enumerate(g.agents):
        if parse_spec(spec)[0] not in FACTORIES:
            continue  # a seat of the workbench's own (a person, workbench.play.human)
        agent = make_agent(spec)
        if not isinstance(agent, FactorialAgent):
            continue
        p = agent.p
        names = sorted(drafted.get(seat, ()))
        _extend(
            cols["assignments"],
            game_id=[gid] * len(names),
            run_id=[run_id] * len(names),
            seat=[seat] * len(names),
            card=names,
            arm=["forced" if forced(r.seed, seat, c, p) else "banned" for c in names],
        )


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
