"""The DuckDB event store: schema as documented, round trip of whole games, atomic batches,
and refusal of databases it must not touch (docs/schema.md)."""

from __future__ import annotations

import re
from pathlib import Path

import duckdb
import pytest

from engine.agents.registry import make_agent
from engine.play import derive_seed, play_game
from workbench.play.jobs import prepare
from workbench.store import (
    TABLES,
    BatchWriter,
    FailedGame,
    PlayedGame,
    RunSpec,
    StoreError,
    batch_tables,
    create_run,
    ddl,
    load_run,
    missing_games,
    open_store,
    write_batch,
)
from workbench.store.keys import GAME_ID_BASE

DOC = Path(__file__).resolve().parent.parent / "docs" / "schema.md"
SPEC = RunSpec(
    ("iron-legion", "tide-callers"),
    ("kings-crossing",),
    3,
    2,
    ("random", "random"),
    ("random", "random"),
    seed=5,
    label="test",
)


def documented_tables() -> dict[str, list[tuple[str, str]]]:
    """Table name -> (column, type) rows from docs/schema.md's `## name` sections."""
    tables: dict[str, list[tuple[str, str]]] = {}
    current = None
    for line in DOC.read_text().splitlines():
        if m := re.match(r"## (\w+)$", line):
            current = m.group(1)
        elif current and (m := re.match(r"\| (\w+) \| ([A-Z][A-Z\[\] ]+) \|", line)):
            tables.setdefault(current, []).append((m.group(1), m.group(2).strip()))
    return tables


def test_schema_doc_lists_exactly_the_tables_and_columns_of_the_code() -> None:
    assert documented_tables() == {t: list(cols) for t, cols in TABLES.items()}


@pytest.fixture(scope="module")
def played() -> list[PlayedGame]:
    config = prepare(SPEC).configs["kings-crossing"]
    agents = [make_agent("random"), make_agent("random")]
    return [
        PlayedGame(
            i,
            config.board.name,
            i % 2,
            ("random",) * 2,
            ("random",) * 2,
            play_game(config, derive_seed(SPEC.seed, i), agents),
        )
        for i in range(2)
    ]


@pytest.fixture()
def store(tmp_path: Path) -> duckdb.DuckDBPyConnection:
    con = open_store(tmp_path / "runs.duckdb")
    prep = prepare(SPEC)
    create_run(
        con,
        SPEC,
        prep.boards,
        prep.cards,
        prep.pool,
        prep.params,
        prep.files,
        prep.content_hash,
        "local",
        1,
    )
    return con


def test_games_round_trip_through_the_store_unchanged(
    store: duckdb.DuckDBPyConnection, played: list[PlayedGame]
) -> None:
    write_batch(store, batch_tables(1, played))
    for g in played:
        r = g.record
        gid = GAME_ID_BASE + g.index
        assert r.events and r.picks and r.snapshots and r.actions
        assert (
            store.execute(
                "SELECT seq, round, turn, phase, player, kind, card, target, x, y, "
                "amount, detail, card_id, target_id FROM events "
                "WHERE game_id = ? ORDER BY seq",
                [gid],
            ).fetchall()
            == r.events.rows()
        )
        assert (
            store.execute(
                "SELECT pick, pack_round, player, card, pack FROM picks WHERE game_id = ?", [gid]
            ).fetchall()
            == r.picks.rows()
        )
        snap_cols = ", ".join(c for c, _ in TABLES["snapshots"][1:])
        assert (
            store.execute(f"SELECT {snap_cols} FROM snapshots WHERE game_id = ?", [gid]).fetchall()
            == r.snapshots.rows()
        )
        assert [
            a
            for (a,) in store.execute(
                "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", [gid]
            ).fetchall()
        ] == r.actions
        assert store.execute(
            "SELECT run_id, game_index, board, seed, players, rotation, winners, draw, reason, "
            "rounds, guard_stopped, events, actions FROM games WHERE game_id = ?",
            [gid],
        ).fetchall() == [
            (
                1,
                g.index,
                "Kings Crossing",
                r.seed,
                2,
                g.rotation,
                list(r.winners),
                not r.winners,
                r.reason,
                r.rounds,
                r.guard_stopped,
                len(r.events),
                len(r.actions),
            )
        ]
        seats = store.execute(
            "SELECT seat, agent_index, won, result, store FROM game_seats "
            "WHERE game_id = ? ORDER BY seat",
            [gid],
        ).fetchall()
        assert seats == [
            (
                s,
                (s + g.rotation) % 2,
                s in r.winners,
                0 if not r.winners else 1 if s in r.winners else -1,
                "|".join(r.stores[s]),
            )
            for s in range(2)
        ]


def test_a_failing_batch_stores_none_of_its_games(
    store: duckdb.DuckDBPyConnection, played: list[PlayedGame]
) -> None:
    write_batch(store, batch_tables(1, played[:1]))
    with pytest.raises(duckdb.ConstraintException):
        write_batch(store, batch_tables(1, played))  # game 0 again: primary key clash
    counts = {
        t: store.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0]
        for t in ("games", "game_seats", "events", "picks", "snapshots", "actions")
    }
    r = played[0].record
    assert counts == {
        "games": 1,
        "game_seats": 2,
        "events": len(r.events),
        "picks": len(r.picks),
        "snapshots": len(r.snapshots),
        "actions": len(r.actions),
    }
    assert missing_games(store, 1, 3) == [1, 2]


def test_the_writer_commits_gathered_batches_whole(
    store: duckdb.DuckDBPyConnection, played: list[PlayedGame]
) -> None:
    """BatchWriter holds batches until enough rows have gathered, then stores them in one
    commit; a commit that fails stores none of its games."""
    one, two = batch_tables(1, played[:1]), batch_tables(1, played[1:])
    rows = sum(t.num_rows for t in one.values())
    writer = BatchWriter(store, rows=rows + 1, seconds=3600)
    assert writer.add(1, one) == 0  # not enough rows yet: nothing stored
    assert missing_games(store, 1, 2) == [0, 1]
    assert writer.add(1, two) == 2  # both games in one commit
    assert missing_games(store, 1, 2) == []
    assert writer.flush() == 0
    writer = BatchWriter(store, seconds=3600)
    writer.add(1, batch_tables(1, played[:1]))  # game 0 again: the clash fails ...
    writer.add(
        1,
        batch_tables(
            1,
            [],
            [FailedGame(5, "Kings Crossing", 1, 0, ("random",) * 2, ("random",) * 2, "E", "tb")],
        ),
    )
    with pytest.raises(duckdb.ConstraintException):
        writer.flush()
    assert missing_games(store, 1, 6) == [2, 3, 4, 5]  # ... and the failed game 5 with it


def test_run_rows_keep_spec_cards_and_boards(store: duckdb.DuckDBPyConnection) -> None:
    spec, status, _ = load_run(store, 1)
    assert (spec, status) == (SPEC, "unfinished")
    prep = prepare(SPEC)
    cards = store.execute("SELECT name, buy, upkeep, armor, in_pool FROM run_cards").fetchall()
    assert sorted(cards) == sorted(
        (c.name, c.buy, c.upkeep, c.keywords.armor, c in prep.pool) for c in prep.cards
    )
    board = store.execute("SELECT board, width, height, players, map FROM run_boards").fetchall()[0]
    assert board[:4] == ("Kings Crossing", 9, 9, 2)
    assert len(board[4].splitlines()) == 9
    with pytest.raises(StoreError, match="no run 7"):
        load_run(store, 7)


def _bytes(path: Path) -> bytes:
    return path.read_bytes()


@pytest.mark.parametrize("kind", ["text", "foreign", "version"])
def test_unusable_files_are_refused_and_left_unchanged(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "x.duckdb"
    if kind == "text":
        path.write_text("game,winner\n1,2\n")
    else:
        con = duckdb.connect(str(path))
        if kind == "foreign":
            con.execute("CREATE TABLE sales (id INTEGER)")
        else:
            for statement in ddl():
                con.execute(statement)
            con.execute("INSERT INTO schema_info VALUES ('schema_version', '0')")
        con.close()
    before = _bytes(path)
    message = {
        "text": "not a usable DuckDB",
        "foreign": "not a workbench store",
        "version": "schema version 0",
    }[kind]
    with pytest.raises(StoreError, match=message):
        open_store(path)
    assert _bytes(path) == before


def test_folders_are_no_database(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is a folder"):
        open_store(tmp_path)
    with pytest.raises(StoreError, match="does not exist"):
        open_store(tmp_path / "missing" / "runs.duckdb")
