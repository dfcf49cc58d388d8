"""`workbench replay`: a stored game rebuilt from its seed and actions reproduces its events and
final state; a tampered event is reported at the first step where they differ; the page opens
in headless Chromium with every frame drawn."""

from __future__ import annotations

import csv
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

import duckdb
import pytest

from app.cli import main
from engine.actions import parse_action
from engine.game import Game
from workbench.play.replay import config_of, load_game, readable, replay_stored

CHROMIUM = Path("/usr/bin/chromium")
GAME = 1_000_000_000


def write_csv(path: Path, rows: Sequence[Sequence[object]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)


def duel_board(folder: Path) -> Path:
    """A 5x4 board with a 3-round limit as CSV files; returns the map file to name it by."""
    write_csv(
        folder / "duel.map.csv",
        [
            [".1", ".1", "^", ".1", ".1"],
            [".", "~", ".", "#", "."],
            [".", ".", "^", ".", "."],
            [".2", ".2", ".", ".2", ".2"],
        ],
    )
    write_csv(
        folder / "duel.scenario.csv",
        [
            ["key", "value"],
            ["name", "Duel"],
            ["victory", "vip"],
            ["victory card", "Commander"],
            ["start cards", "Militia x4, Supply x3"],
            ["round limit", "3"],
            ["tie break", "units"],
        ],
    )
    write_csv(
        folder / "duel.placements.csv",
        [
            ["card", "owner", "x", "y", "vip"],
            ["Commander", "1", "2", "0", "yes"],
            ["Commander", "2", "2", "3", "yes"],
        ],
    )
    return folder / "duel.map.csv"


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store with two short games on the duel board played by `simulate`."""
    folder = tmp_path_factory.mktemp("replay")
    db = folder / "runs.duckdb"
    assert (
        main(
            [
                "simulate",
                "--db",
                str(db),
                "--board",
                str(duel_board(folder)),
                "--games",
                "2",
                "--workers",
                "1",
                "--seed",
                "4",
            ]
        )
        == 0
    )
    return db


def first_step_emitting(db: Path, game_id: int, seq: int) -> int:
    """The index of the action whose application emits event `seq` (found independently)."""
    g = load_game(db, game_id)
    game = Game(config_of(db, g), g.seed)
    for step, text in enumerate(g.actions):
        game.apply(parse_action(text, game.state.config.board.width))
        if len(game.state.events) > seq:
            return step
    raise AssertionError(f"no step emits event {seq}")


def test_replay_reaches_the_stored_events_and_final_state(stored: Path) -> None:
    g, replay, notes = replay_stored(stored, GAME + 1)
    assert replay.divergence is None, str(replay.divergence)
    assert notes == []
    record = replay.game.record()
    assert record.events.rows() == g.events
    assert record.actions == g.actions
    con = duckdb.connect(str(stored), read_only=True)
    snapshots = con.execute(
        "SELECT * EXCLUDE (game_id) FROM snapshots WHERE game_id = ? ORDER BY round, player",
        [GAME + 1],
    ).fetchall()
    stores = con.execute(
        "SELECT store FROM game_seats WHERE game_id = ? ORDER BY seat", [GAME + 1]
    ).fetchall()
    con.close()
    assert sorted(record.snapshots.rows()) == snapshots
    assert ["|".join(s) for s in record.stores] == [s for (s,) in stores]
    assert (tuple(replay.game.state.winners or ()), replay.game.state.round) == (
        g.winners,
        g.rounds,
    )
    assert [f.title for f in replay.frames][:2] == ["draft", "round 1, turn 1: p1"]
    assert sum(len(f.events) for f in replay.frames) == len(g.events)


def test_a_tampered_event_is_reported_at_its_step(
    stored: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "tampered.duckdb"
    shutil.copy(stored, db)
    seq = 150
    con = duckdb.connect(str(db))
    con.execute("UPDATE events SET amount = amount + 7 WHERE game_id = ? AND seq = ?", [GAME, seq])
    con.close()
    _, replay, _ = replay_stored(db, GAME)
    d = replay.divergence
    assert d is not None
    assert d.step == first_step_emitting(db, GAME, seq)
    assert f"event {seq}: stored" in d.reason
    assert (
        main(["replay", "--db", str(db), "--game", str(GAME), "--out", str(tmp_path / "out")]) == 1
    )
    assert f"replay differs at step {d.step}" in capsys.readouterr().out


def test_a_changed_action_is_reported_at_its_step(stored: Path, tmp_path: Path) -> None:
    db = tmp_path / "changed.duckdb"
    shutil.copy(stored, db)
    con = duckdb.connect(str(db))
    con.execute("UPDATE actions SET action = 'attack c0 c1' WHERE game_id = ? AND seq = 70", [GAME])
    con.close()
    _, replay, _ = replay_stored(db, GAME)
    assert replay.divergence is not None
    assert replay.divergence.step == 70
    assert "not legal" in replay.divergence.reason


def test_unknown_game_and_database_exit_2(
    stored: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "--db", str(stored), "--game", "7", "--out", str(tmp_path)]) == 2
    assert "no game 7" in capsys.readouterr().out
    assert (
        main(
            ["replay", "--db", str(tmp_path / "none.duckdb"), "--game", "7", "--out", str(tmp_path)]
        )
        == 2
    )


def test_the_page_opens_in_chromium_with_every_frame(stored: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert (
        main(["replay", "--db", str(stored), "--game", str(GAME), "--out", str(out), "--png", "2"])
        == 0
    )
    page = out / f"game-{GAME}.html"
    png = out / f"game-{GAME}-frame-2.png"
    assert png.read_bytes().startswith(b"\x89PNG")
    frames = page.read_text(encoding="utf-8").count('<section class="frame"')
    assert frames == 1 + 3 * 2  # the draft, then 3 rounds of 2 turns
    if not CHROMIUM.exists():
        pytest.skip("/usr/bin/chromium is not installed (apt-get install -y chromium)")
    dom = subprocess.run(
        [
            str(CHROMIUM),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tempfile.mkdtemp(dir=tmp_path)}",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    body = re.search(r"<body[^>]*>", dom)
    assert body is not None
    assert f'data-frames-loaded="{frames}"' in body.group(0), body.group(0)


def test_the_replay_needs_only_the_database(tmp_path: Path) -> None:
    """A later edit of the spreadsheets (here: the board's files deleted) changes no old run."""
    folder = tmp_path / "gone"
    folder.mkdir()
    db = folder / "runs.duckdb"
    board = duel_board(folder)
    assert (
        main(
            [
                "simulate",
                "--db",
                str(db),
                "--board",
                str(board),
                "--games",
                "1",
                "--workers",
                "1",
                "--seed",
                "4",
            ]
        )
        == 0
    )
    for part in folder.glob("*.csv"):
        part.unlink()
    g, replay, _notes = replay_stored(db, GAME)
    assert replay.divergence is None, str(replay.divergence)
    assert len(g.events) > 0


def test_the_page_numbers_seats_from_1(stored: Path, tmp_path: Path) -> None:
    """The events table names the database's seats 0 and 1 p1 and p2 (the game's own events,
    stored with player -1, name nobody), as the frame titles and the curves do."""
    out = tmp_path / "out"
    assert main(["replay", "--db", str(stored), "--game", str(GAME), "--out", str(out)]) == 0
    page = (out / f"game-{GAME}.html").read_text(encoding="utf-8")
    players = re.findall(
        r"<tr><td>\d+</td><td>\d+</td><td>\d+</td><td>[a-z_]*</td>"
        r"<td>([^<]*)</td>",
        page,
    )
    assert {"p1", "p2"} <= set(players) <= {"", "p1", "p2", "neutral", "tyrant"}, set(players)
    row = (5, 1, 1, "main", 0, "buy", "Militia", "", -1, -1, 2, "", 7, -1)
    assert readable(row)[4] == "p1" and readable((*row[:4], -1, *row[5:]))[4] == ""
