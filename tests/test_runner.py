"""`workbench simulate`: the same content for any workers or backend, resume after kills,
and bad arguments stopped before any work."""

from __future__ import annotations

import importlib.util
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import duckdb
import pytest

from app.cli import main
from engine.play import derive_seed
from engine.state import GameConfig
from workbench.play import jobs, runner
from workbench.store import GAME_TABLES, summary

GAMES = ["--games", "6", "--seed", "11", "--label", "same"]
RUN_COLUMNS = (
    "run_id, label, status, seed, games, players, sets, boards, agents, drafters, "
    "params, files, content_hash, engine_version"
)
"""Everything of a run row except how and when it was executed."""


def content(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every table's rows, sorted, without the execution columns of `runs` and the build
    time of the summaries."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        tables = {
            t: con.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall()
            for t in (*GAME_TABLES, "run_cards", "run_boards", *summary.TABLES)
            if t != "summaries"
        }
        tables["summaries"] = con.execute(
            "SELECT run_id, version, games FROM summaries ORDER BY ALL"
        ).fetchall()
        tables["runs"] = con.execute(f"SELECT {RUN_COLUMNS} FROM runs ORDER BY 1").fetchall()
        return tables
    finally:
        con.close()


def simulate(*args: str) -> int:
    return main(["simulate", *args])


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[object, ...]]]:
    db = tmp_path_factory.mktemp("ref") / "one.duckdb"
    assert simulate(*GAMES, "--workers", "1", "--db", str(db)) == 0
    return content(db)


def test_one_worker_run_stores_every_game_whole(
    reference: dict[str, list[tuple[object, ...]]],
) -> None:
    games = reference["games"]
    assert [g[2] for g in games] == list(range(6))
    assert reference["runs"][0][2] == "finished"
    events = sum(g[13] for g in games)
    assert events == len(reference["events"]) > 6 * 500
    assert len(reference["game_seats"]) == 12
    assert all(g[6] == g[2] % 2 for g in games)  # rotation: game i shifts seats by i


def test_two_workers_store_the_same_content(
    tmp_path: Path, reference: dict[str, list[tuple[object, ...]]]
) -> None:
    db = tmp_path / "two.duckdb"
    assert simulate(*GAMES, "--workers", "2", "--db", str(db)) == 0
    assert content(db) == reference


@pytest.mark.skipif(
    importlib.util.find_spec("ray") is None,
    reason="ray is not installed (pip install -e .[ray]); .ci/run installs it",
)
def test_ray_backend_stores_the_same_content(
    tmp_path: Path, reference: dict[str, list[tuple[object, ...]]]
) -> None:
    import ray

    ray.init(address="local", num_cpus=2, include_dashboard=False)
    try:
        db = tmp_path / "ray.duckdb"
        assert simulate(*GAMES, "--workers", "2", "--backend", "ray", "--db", str(db)) == 0
    finally:
        ray.shutdown()
    assert content(db) == reference


def test_a_board_comparison_splits_games_evenly_and_rotates_seats_on_each_board(
    tmp_path: Path,
) -> None:
    db = tmp_path / "boards.duckdb"
    assert (
        simulate(
            "--games",
            "4",
            "--workers",
            "1",
            "--board",
            "kings-crossing,gold-rush",
            "--agents",
            "random,heuristic:eps=1",
            "--db",
            str(db),
        )
        == 0
    )
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT game_index, board, rotation FROM games ORDER BY 1").fetchall() == [
        (0, "Kings Crossing", 0),
        (1, "Gold Rush", 0),
        (2, "Kings Crossing", 1),
        (3, "Gold Rush", 1),
    ]
    assert con.execute(
        "SELECT board, seat, agent FROM game_seats JOIN games USING (game_id) "
        "ORDER BY game_index, seat"
    ).fetchall() == [
        ("Kings Crossing", 0, "random"),
        ("Kings Crossing", 1, "heuristic:eps=1"),
        ("Gold Rush", 0, "random"),
        ("Gold Rush", 1, "heuristic:eps=1"),
        ("Kings Crossing", 0, "heuristic:eps=1"),
        ("Kings Crossing", 1, "random"),
        ("Gold Rush", 0, "heuristic:eps=1"),
        ("Gold Rush", 1, "random"),
    ]
    assert con.execute("SELECT board_index, board FROM run_boards ORDER BY 1").fetchall() == [
        (0, "Kings Crossing"),
        (1, "Gold Rush"),
    ]
    con.close()


def _has_run(db: Path) -> bool:
    if not db.exists():
        return False
    con = duckdb.connect(str(db), read_only=True)
    try:
        tables = {
            r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()
        }
        return "runs" in tables and bool(con.execute("SELECT * FROM runs").fetchall())
    finally:
        con.close()


def test_a_run_killed_at_random_points_resumes_to_the_uninterrupted_content(
    tmp_path: Path, reference: dict[str, list[tuple[object, ...]]]
) -> None:
    db = tmp_path / "killed.duckdb"
    rng = random.Random(3)
    start = [*GAMES, "--workers", "2", "--db", str(db)]
    resume = ["--workers", "2", "--db", str(db), "--resume", "1"]
    seen: list[tuple[str, int]] = []
    delay = 0.6  # after a fresh run creates its file: adapts until kills land inside the run
    resume_delay = 1.75  # after a resume starts: adapts too (a resume of a few games is quick)
    for attempt in range(12):
        if len(seen) >= 3:
            break
        fresh = not _has_run(db)
        proc = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "simulate", *(start if fresh else resume)],
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while fresh and not db.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(rng.uniform(0.5, 1.5) * (delay if fresh else resume_delay))
        if attempt % 2:
            os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C reaches the whole process group
        else:
            proc.send_signal(signal.SIGKILL)  # kill -9 of the runner alone: workers follow
        proc.wait(timeout=60)
        if not _has_run(db):
            delay *= 2  # killed before the run existed
            continue
        seen.append((content(db)["runs"][0][2], len(content(db)["games"])))
        if seen[-1][0] == "finished":  # the kill came too late: start over, sooner
            db.unlink()
            seen.clear()
            if fresh:
                delay /= 2
            else:
                resume_delay /= 2
    assert len(seen) >= 3 and seen[-1][0] == "unfinished", seen
    assert [n for _, n in seen] == sorted(n for _, n in seen)  # stored games are kept
    unfinished = duckdb.connect(str(db), read_only=True)
    assert unfinished.execute(
        "SELECT count(*) FROM games g JOIN (SELECT game_id, count(*) n "
        "FROM events GROUP BY 1) e USING (game_id) WHERE e.n <> g.events"
    ).fetchall() == [(0,)]
    unfinished.close()
    assert simulate(*(resume if _has_run(db) else start)) == 0
    assert content(db) == reference


def test_a_run_killed_after_its_last_game_is_finished_by_the_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reference: dict[str, list[tuple[object, ...]]]
) -> None:
    """Every game stored, killed while building the summaries: the resume has no game to play
    and still builds them and marks the run finished."""

    def killed(*args: Any) -> None:
        raise KeyboardInterrupt

    db = tmp_path / "last.duckdb"
    monkeypatch.setattr(runner, "finish_run", killed)
    assert simulate(*GAMES, "--workers", "1", "--db", str(db)) == 130
    assert content(db)["runs"][0][2] == "unfinished" and len(content(db)["games"]) == 6
    monkeypatch.undo()
    assert simulate("--workers", "1", "--db", str(db), "--resume", "1") == 0
    assert content(db) == reference


def test_a_crashing_game_is_stored_as_failed_the_run_goes_on_and_resume_skips_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """One game that raises is stored with its seed, board and traceback; the others are
    played; simulate exits 1 and names the count; a resume replays nothing and exits 1 too."""
    real = jobs.play_game
    bad_seed = derive_seed(11, 2)

    def flaky(config: GameConfig, seed: int, agents: Any, drafters: Any = None) -> Any:
        if seed == bad_seed:
            raise RuntimeError("no legal action in phase main")
        return real(config, seed, agents, drafters)

    monkeypatch.setattr(jobs, "play_game", flaky)
    db = tmp_path / "failed.duckdb"
    assert (
        simulate(
            "--games", "4", "--seed", "11", "--agents", "random", "--workers", "1", "--db", str(db)
        )
        == 1
    )
    err = " ".join(capsys.readouterr().err.split())
    assert "1 of 4 games failed" in err and "failed_games" in err
    con = duckdb.connect(str(db), read_only=True)
    assert [r[0] for r in con.execute("SELECT game_index FROM games ORDER BY 1").fetchall()] == [
        0,
        1,
        3,
    ]
    rows = con.execute(
        "SELECT game_index, board, seed, agents, error, traceback FROM failed_games"
    ).fetchall()
    assert rows[0][:5] == (
        2,
        "Kings Crossing",
        bad_seed,
        "random,random",
        "RuntimeError: no legal action in phase main",
    )
    assert "Traceback" in rows[0][5] and "flaky" in rows[0][5]
    assert con.execute("SELECT status FROM runs").fetchall() == [("finished",)]
    con.close()

    def never(*args: Any) -> Any:
        raise AssertionError("a resume replayed a game")

    monkeypatch.setattr(jobs, "play_game", never)
    assert simulate("--db", str(db), "--resume", "1") == 1
    assert "1 of 4 games failed" in " ".join(capsys.readouterr().err.split())


@pytest.fixture()
def existing(tmp_path: Path) -> Path:
    db = tmp_path / "existing.duckdb"
    assert simulate("--games", "1", "--workers", "1", "--db", str(db)) == 0
    return db


@pytest.mark.parametrize(
    "args, message",
    [
        (["--sets", "iron-legion,no-such-set"], "no-such-set"),
        (["--board", "atlantis"], "atlantis"),
        (["--agents", "telepath"], "unknown agent 'telepath'"),
        (["--drafters", "random,oracle"], "unknown agent 'oracle'"),
        (["--agents", "random,random,random"], "3 specs for 2 seats"),
        (["--players", "3"], "is for 2 players, not 3"),
        (["--board", "kings-crossing,four-banners"], "is for 4 players, not 2"),
        (["--games", "0"], "at least 1"),
        (["--workers", "0"], "at least 1"),
        (["--resume", "9"], "no run 9"),
        (["--resume", "1", "--games", "5"], "drop --games"),
    ],
)
def test_bad_arguments_stop_before_any_work_and_leave_the_database_alone(
    existing: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    before = content(existing)
    capsys.readouterr()
    assert simulate(*args, "--db", str(existing)) == 2
    assert message in " ".join(capsys.readouterr().err.split())
    assert content(existing) == before


def test_bad_arguments_create_no_database(tmp_path: Path) -> None:
    assert simulate("--agents", "telepath", "--db", str(tmp_path / "new.duckdb")) == 2
    assert not (tmp_path / "new.duckdb").exists()


@pytest.mark.parametrize(
    "where, message",
    [
        ("missing/runs.duckdb", "does not exist"),
        (".", "is a folder"),
        ("notes.duckdb", "not a usable DuckDB"),
    ],
)
def test_unusable_database_paths_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str, message: str
) -> None:
    (tmp_path / "notes.duckdb").write_text("not a database")
    assert simulate("--games", "1", "--db", str(tmp_path / where)) == 2
    assert message in " ".join(capsys.readouterr().err.split())
    assert (tmp_path / "notes.duckdb").read_text() == "not a database"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only folders")
def test_read_only_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tmp_path.chmod(0o555)
    try:
        assert simulate("--games", "1", "--db", str(tmp_path / "runs.duckdb")) == 2
    finally:
        tmp_path.chmod(0o755)
    assert "cannot open database" in capsys.readouterr().err
