"""A run's cards and boards read back from the database equal what was played (a later
edit of a spreadsheet never changes an old run; replays need only the database)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import duckdb
import pytest

from app.cli import main
from workbench.content.setup import load_setup
from workbench.store.stored import StoredRunError, stored_board, stored_config

BOARDS = ("kings-crossing", "tyrants-throne", "four-banners", "zwei-burgen", "drowned-sanctum")


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("stored") / "runs.duckdb"
    for board in BOARDS:
        players = load_setup(board=board).board.players
        assert (
            main(
                [
                    "simulate",
                    "--games",
                    "1",
                    "--workers",
                    "1",
                    "--db",
                    str(path),
                    "--board",
                    board,
                    "--players",
                    str(players),
                    "--sets",
                    "iron-legion,pestgericht",
                ]
            )
            == 0
        )
    return path


@pytest.mark.parametrize("run_id, board", list(enumerate(BOARDS, 1)))
def test_stored_setup_equals_the_loaded_one(db: Path, run_id: int, board: str) -> None:
    loaded = load_setup(["iron-legion", "pestgericht"], board).config
    with duckdb.connect(str(db), read_only=True) as con:
        name = con.execute("SELECT board FROM run_boards WHERE run_id = ?", [run_id]).fetchone()
        assert name is not None
        stored = stored_config(con, run_id, name[0])
    assert dataclasses.replace(stored.board, source="") == dataclasses.replace(
        loaded.board, source=""
    )
    assert sorted(stored.pool, key=lambda c: c.name) == sorted(loaded.pool, key=lambda c: c.name)
    assert stored.catalog == loaded.catalog


def test_unknown_run_or_board_is_named(db: Path) -> None:
    with duckdb.connect(str(db), read_only=True) as con:
        with pytest.raises(StoredRunError, match="run 1 has no board 'Nowhere'"):
            stored_board(con, 1, "Nowhere")
        with pytest.raises(StoredRunError, match="run 99 has no stored cards"):
            stored_config(con, 99, "Kings Crossing")
