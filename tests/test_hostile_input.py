"""What a designer (or a hostile but fair tester) types never breaks a command: every
bad input gets one clear line and exit 2 with nothing written, and a failing disk is named."""

from __future__ import annotations

import argparse
import contextlib
import csv
import errno
import html
import io
import os
import subprocess
import sys
import unicodedata
import zipfile
from collections.abc import Sequence
from pathlib import Path

import duckdb
import polars as pl
import pytest

from app import cmd_play, cmd_simulate
from app.cli import COMMANDS, build_parser, main
from tests.test_metrics_fixture import build
from tests.test_play_human import Script
from tests.test_replay import duel_board
from workbench.content.sheets import SheetError, read_sheets
from workbench.content.validate import validate


def write_csv(path: Path, rows: Sequence[Sequence[object]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)
    return path


@pytest.fixture(autouse=True)
def wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    """rich wraps error lines at the terminal's width, inside long paths too."""
    monkeypatch.setenv("COLUMNS", "1000")


def err_line(capsys: pytest.CaptureFixture[str]) -> str:
    """The error output as one line (rich wraps long lines)."""
    return " ".join(capsys.readouterr().err.split())


# --- simulate ---------------------------------------------------------------------------------


def test_a_pool_too_small_to_draft_is_refused_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """R3.2, R3.3: 2 players need a pack of 10 each; 5 copies made the draft fail with an
    IndexError in the first game, after the run was created."""
    tiny = write_csv(
        tmp_path / "tiny.csv", [["name", "type", "copies", "buy"], ["Spark", "spell", 5, 1]]
    )
    db = tmp_path / "runs.duckdb"
    assert (
        main(["simulate", "--sets", str(tiny), "--games", "2", "--workers", "1", "--db", str(db)])
        == 2
    )
    assert (
        "the chosen sets have 5 draftable copies (cards with a buy price, R3.1): too few "
        "for the draft, which deals a pack of 10 to each of the 2 players (R3.2, R3.3); "
        "add copies or sets"
    ) in err_line(capsys)
    assert not db.exists()


def test_two_chosen_sets_defining_one_card_name_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Both sets are drafted, but cards are found by name: one of the two would be lost."""
    a = write_csv(tmp_path / "a.csv", [["name", "type", "copies", "buy"], ["Bolt", "spell", 30, 1]])
    b = write_csv(tmp_path / "b.csv", [["name", "type", "copies", "buy"], ["Bolt", "spell", 30, 2]])
    db = tmp_path / "runs.duckdb"
    assert (
        main(["simulate", "--sets", f"{a},{b}", "--games", "1", "--workers", "1", "--db", str(db)])
        == 2
    )
    assert (
        f"card 'Bolt' is defined by set 'a' ({a}) and by set 'b' ({b}): a card name may "
        "be defined by one set only; rename one of them"
    ) in err_line(capsys)
    assert not db.exists()


def test_numbers_too_large_for_the_store_stop_simulate_before_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """life 3e9 used to pass `validate` and then fail as a DuckDB ConversionException when the
    run was created, leaving an empty database behind."""
    giants = write_csv(
        tmp_path / "giants.csv",
        [
            ["name", "type", "copies", "buy", "life", "move"],
            ["Giant", "unit", 30, "100000000000000000000", 3e9, 1],
        ],
    )
    db = tmp_path / "runs.duckdb"
    assert (
        main(["simulate", "--sets", str(giants), "--games", "1", "--workers", "1", "--db", str(db)])
        == 2
    )
    err = err_line(capsys)
    assert f"{giants}, row 2, column buy (D): '100000000000000000000': must be 0 to 99" in err
    assert f"{giants}, row 2, column life (E): '3000000000.0': must be 0 to 999" in err
    assert not db.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "99999999999"], "--games must be 1 to 1000000, not 99999999999"),
        (
            ["--seed", "99999999999999999999999"],
            "--seed must be 0 to 9223372036854775807, not 99999999999999999999999",
        ),
        (["--seed", "-1"], "--seed must be 0 to 9223372036854775807, not -1"),
    ],
)
def test_huge_games_and_seeds_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    db = tmp_path / "runs.duckdb"
    assert main(["simulate", *args, "--workers", "1", "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert message in " ".join(err.split()) and "Traceback" not in err
    assert not db.exists()


def test_a_run_the_store_refuses_leaves_no_new_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the store cannot hold (before the bounds, life 3e9 overflowed an INTEGER column
    here) is reported in one line, and the database created for the run is removed."""

    def refuse(*args: object, **kwargs: object) -> int:
        raise duckdb.ConversionException("Type INT64 with value 3000000000 can't be cast")

    monkeypatch.setattr(cmd_simulate, "create_prepared_run", refuse)
    db = tmp_path / "runs.duckdb"
    assert (
        main(
            [
                "simulate",
                "--board",
                str(duel_board(tmp_path)),
                "--games",
                "1",
                "--workers",
                "1",
                "--db",
                str(db),
            ]
        )
        == 2
    )
    assert (
        f"cannot store the run in {db}: Type INT64 with value 3000000000 can't be cast"
        in err_line(capsys)
    )
    assert sorted(p.name for p in tmp_path.iterdir() if "duckdb" in p.name) == []


class FullDisk:
    """A connection whose game batches fail as on a full disk: the COMMIT raises ENOSPC and,
    as in DuckDB after a failed commit, there is then no transaction left to roll back."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con
        self.batch = False

    def execute(self, sql: str, *args: object) -> object:
        if sql.startswith("INSERT INTO games"):
            self.batch = True
        if self.batch and sql == "COMMIT":
            self.con.execute("ROLLBACK")
            raise OSError(errno.ENOSPC, "No space left on device")
        if self.batch and sql == "ROLLBACK":
            raise duckdb.TransactionException(
                "TransactionContext Error: cannot rollback - no transaction is active"
            )
        return self.con.execute(sql, *args)

    def __getattr__(self, name: str) -> object:
        return getattr(self.con, name)


def test_a_full_disk_is_named_not_the_failed_rollback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    opened = cmd_simulate.open_store
    monkeypatch.setattr(cmd_simulate, "open_store", lambda path: FullDisk(opened(path)))
    db = tmp_path / "runs.duckdb"
    assert (
        main(
            [
                "simulate",
                "--board",
                str(duel_board(tmp_path)),
                "--games",
                "1",
                "--workers",
                "1",
                "--db",
                str(db),
            ]
        )
        == 1
    )
    err = err_line(capsys)
    assert "stopped: no space left on device" in err and "rollback" not in err
    assert f"workbench simulate --db {db} --resume 1" in err
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT count(*) FROM games").fetchall() == [(0,)]  # the file is whole
    con.close()


# --- report -----------------------------------------------------------------------------------


def test_report_out_naming_a_file_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "runs.duckdb"
    assert (
        main(
            [
                "simulate",
                "--board",
                str(duel_board(tmp_path)),
                "--games",
                "1",
                "--workers",
                "1",
                "--db",
                str(db),
            ]
        )
        == 0
    )
    out = tmp_path / "report.html"
    out.write_text("mine")
    capsys.readouterr()
    assert main(["report", "--db", str(db), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"workbench report: --out {out} is a file; the report is a folder (index.html "
        "and tables/): name a folder\n"
    )
    assert out.read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["duel.map.csv", "duel.scenario.csv", "duel.placements.csv", "runs.duckdb", "report.html"]
    )


TINY_TUNE = ["--games", "2", "--judge-games", "2", "--workers", "1"]
"""A tune of two games a run (its judging run too), on one worker."""

FOLDER_COMMANDS = {
    "compare": ["compare", "1", "2"],
    "demo": ["demo", "--games", "1", "--workers", "1"],
    "sweep": [
        "sweep",
        "--card",
        "Militia",
        "--field",
        "buy",
        "--values",
        "1,2",
        "--games",
        "2",
        "--workers",
        "1",
    ],
    "tune": ["tune", "--set", "core", "--band=-0.05,0.05", *TINY_TUNE],
    "ablate": ["ablate", "--card", "Militia", "--games", "2", "--workers", "1"],
    "skill": ["skill", "--card", "Militia", "--games", "2", "--workers", "1"],
    "replay": ["replay", "--game", "1"],
}
"""Each command that writes a folder, with arguments it would otherwise start work on."""


@pytest.mark.parametrize("command", sorted(FOLDER_COMMANDS))
def test_out_naming_a_file_is_a_one_line_error_before_anything_is_written(
    command: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`--out` naming an existing file (not a folder) is refused in one line, exit 2,
    before any database or folder is created (the study commands used to play their runs
    first and then fail on the file with a traceback)."""
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "result.html"
    out.write_text("mine")
    capsys.readouterr()
    argv = [*FOLDER_COMMANDS[command], "--out", str(out)]
    if command != "demo":
        argv += ["--db", str(tmp_path / "runs.duckdb")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"workbench {command}: --out {out} is a file; ")
    assert err.rstrip().endswith("name a folder")
    assert out.read_text() == "mine"
    assert [p.name for p in tmp_path.iterdir()] == ["result.html"]


# --- play -------------------------------------------------------------------------------------


def play_args(tmp_path: Path, *extra: str) -> argparse.Namespace:
    return build_parser().parse_args(
        [
            "play",
            "--db",
            str(tmp_path / "human.duckdb"),
            "--board",
            str(duel_board(tmp_path)),
            "--seed",
            "3",
            *extra,
        ]
    )


@pytest.mark.parametrize(
    "extra",
    [["--seat", "3"], ["--agents", "nobody"], ["--sets", "no-such-set"], ["--seed", str(2**64)]],
)
def test_play_creates_no_database_before_its_arguments_are_checked(
    tmp_path: Path, extra: list[str]
) -> None:
    out = io.StringIO()
    assert cmd_play.run(play_args(tmp_path, *extra), Script([], out), out) == 2
    assert "cannot start the game" in out.getvalue()
    assert not (tmp_path / "human.duckdb").exists()


def test_an_abandoned_game_leaves_no_database(tmp_path: Path) -> None:
    out = io.StringIO()
    assert cmd_play.run(play_args(tmp_path), Script(["1", "quit"], out), out) == 1
    assert not (tmp_path / "human.duckdb").exists()


def test_play_reads_any_input_without_a_traceback(tmp_path: Path) -> None:
    """`²` is a digit to str.isdigit but not to int(); undecodable bytes are not text."""
    raw = io.BytesIO(b"\xc2\xb2\n\xff\xfe\n" + b"9" * 4000 + b"\n" + b"1\n" * 3000)
    inp = io.TextIOWrapper(raw, encoding="utf-8")
    out = io.StringIO()
    assert cmd_play.run(play_args(tmp_path), inp, out) == 0, out.getvalue()[-2000:]
    text = out.getvalue()
    assert "not one of the choices: '²'" in text
    assert "not one of the choices: '\ufffd\ufffd'" in text
    assert "game over:" in text


def test_play_prints_no_terminal_escape_sequences_from_card_names(tmp_path: Path) -> None:
    hostile = "Bolt\x1b[2J\x1b]0;owned\x07\x9b31m"
    sets = write_csv(
        tmp_path / "hostile.csv",
        [
            ["name", "type", "copies", "buy", "play"],
            [hostile, "spell", 15, 1, 0],
            ["Spark", "spell", 15, 1, 0],
        ],
    )
    out = io.StringIO()
    code = cmd_play.run(play_args(tmp_path, "--sets", str(sets)), Script([], out), out)
    text = out.getvalue()
    assert code == 2, text[-2000:]  # such a name is refused, and shown escaped
    assert "cannot start the game" in text
    assert "Bolt\\x1b[2J\\x1b]0;owned\\x07\\x9b31m" in text
    assert not any(ch in text for ch in "\x1b\x07\x9b")


# --- replay -----------------------------------------------------------------------------------


def test_replay_of_a_card_named_with_dollars(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`$$`, the code drawn for "$aint $ilver", is an empty formula to matplotlib's mathtext,
    which raised a ParseException while the frame was drawn."""
    sets = write_csv(
        tmp_path / "coins.csv",
        [
            ["name", "type", "copies", "buy", "play", "life", "move"],
            ["$aint $ilver", "unit", 20, 1, 0, 1, 1],
            ["Copper", "unit", 20, 1, 0, 1, 1],
        ],
    )
    board = duel_board(tmp_path)
    write_csv(
        tmp_path / "duel.placements.csv",
        [
            ["card", "owner", "x", "y", "vip"],
            ["Commander", "1", "2", "0", "yes"],
            ["Commander", "2", "2", "3", "yes"],
            ["$aint $ilver", "neutral", "0", "2", ""],
        ],
    )
    db = tmp_path / "runs.duckdb"
    assert (
        main(
            [
                "simulate",
                "--sets",
                str(sets),
                "--board",
                str(board),
                "--games",
                "1",
                "--workers",
                "1",
                "--db",
                str(db),
            ]
        )
        == 0
    )
    out = tmp_path / "replays"
    assert (
        main(["replay", "--db", str(db), "--game", "1000000000", "--out", str(out), "--png", "1"])
        == 0
    )
    assert "reproduces the stored game" in capsys.readouterr().out
    assert (out / "game-1000000000.html").is_file()


def test_replay_while_a_simulation_holds_the_file_gets_the_report_s_lock_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "runs.duckdb"
    assert (
        main(
            [
                "simulate",
                "--board",
                str(duel_board(tmp_path)),
                "--games",
                "1",
                "--workers",
                "1",
                "--db",
                str(db),
            ]
        )
        == 0
    )
    capsys.readouterr()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import duckdb, sys, time; "
            f"con = duckdb.connect({str(db)!r}); print('held', flush=True); "
            "time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        assert main(["report", "--db", str(db), "--out", str(tmp_path / "report")]) == 2
        report = capsys.readouterr().err.strip().removeprefix("workbench report: ")
        assert (
            main(
                [
                    "replay",
                    "--db",
                    str(db),
                    "--game",
                    "1000000000",
                    "--out",
                    str(tmp_path / "replays"),
                ]
            )
            == 2
        )
        replay = capsys.readouterr().out.strip()
    finally:
        holder.kill()
        holder.wait()
    assert report == (
        f"{db} is in use by another process (a simulation still writing it?): "
        "wait until it is done, or copy the file and read the copy"
    )
    assert replay == f"cannot replay game 1000000000: {report}"
    assert not (tmp_path / "report").exists() and not (tmp_path / "replays").exists()


# --- report files -----------------------------------------------------------------------------


def renamed(db: Path, names: dict[str, str]) -> Path:
    """The hand-built database with its cards renamed everywhere."""
    con = duckdb.connect(str(db))
    for old, new in names.items():
        for table, column in (("picks", "card"), ("events", "card"), ("run_cards", "name")):
            con.execute(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", [new, old])
        con.execute("UPDATE picks SET pack = replace(pack, ?, ?)", [old, new])
    con.close()
    return db


@pytest.mark.filterwarnings("ignore:Glyph 9")  # the chart fonts have no tab
def test_csv_exports_neutralise_formula_injection_and_parquet_keeps_the_text(
    tmp_path: Path,
) -> None:
    """OWASP's CSV injection advice: a text cell starting with = + - @ tab or CR is prefixed
    with ' so a spreadsheet program shows it instead of running it; numbers stay numbers.
    Parquet is typed data no program runs as a formula: its text is the name as it is
    (it once carried the CSV's quote)."""
    hostile = {
        "b2": '=HYPERLINK("http://evil.example","x")',
        "a2": "@SUM(1+1)",
        "b1": "-2+3",
        "a1": "\tTab",
    }
    db = renamed(build(tmp_path / "r.duckdb"), hostile)
    out = tmp_path / "report"
    assert main(["report", "--db", str(db), "--out", str(out)]) == 0
    csv_texts: list[str] = []
    parquet_texts: list[str] = []
    for parquet in sorted((out / "tables").glob("*.parquet")):
        frame = pl.read_parquet(parquet)
        rows = list(csv.reader((out / "tables" / f"{parquet.stem}.csv").open(newline="")))
        assert rows[0] == frame.columns
        for i, column in enumerate(frame.columns):
            if frame.schema[column] == pl.String:
                parquet_texts += [v for v in frame[column].to_list() if v]
                csv_texts += [r[i] for r in rows[1:]]
                assert not [r[i] for r in rows[1:] if r[i][:1] in ("=", "+", "-", "@", "\t", "\r")]
            else:
                assert frame.schema[column].is_numeric() or frame.schema[column] == pl.Boolean
    for name in hostile.values():
        assert "'" + name in csv_texts and name not in csv_texts, name
        assert name in parquet_texts and "'" + name not in parquet_texts, name
    assert '=HYPERLINK("http://evil.example","x")' in html.unescape(
        (out / "index.html").read_text()
    )  # the page shows the name as it is


def test_report_of_cards_named_with_dollars(tmp_path: Path) -> None:
    """Chart labels are text: `$$` is no (broken) mathtext formula."""
    db = renamed(build(tmp_path / "r.duckdb"), {"b2": "$$", "a2": "Pay $1 or $"})
    assert main(["report", "--db", str(db), "--out", str(tmp_path / "report")]) == 0


# --- names a terminal would act on, files beyond their bounds, workers beyond the cores -----

HOSTILE = {
    "a1": "Bolt\x1b[2J\x1b]0;owned\x07",
    "a2": "Evil\u202etxt.exe",
    "b1": "Zero\u200bWidth",
    "b2": "Csi\x9b31mRed\r",
}
"""Card names that would clear the screen, retitle the window, reverse a line, hide a character
or overwrite a line, if printed as they are."""


def hidden(text: str) -> list[str]:
    """The characters of `text` a terminal does not show as themselves (newline and tab
    aside): controls, format characters (bidi, zero-width), separators, surrogates."""
    return sorted(
        {
            ch
            for ch in text
            if ch not in "\n\t" and unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs")
        }
    )


def run_all(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """What the command printed, stdout and stderr (argparse's exit included)."""
    capsys.readouterr()
    with contextlib.suppress(SystemExit):
        main(argv)
    captured = capsys.readouterr()
    return captured.out + captured.err


@pytest.mark.filterwarnings("ignore:Glyph")  # the chart fonts have no glyph for a control
def test_no_command_prints_a_control_character_from_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every command, given a card set, a database and folders named with terminal
    escapes, bidi and zero-width characters, prints them escaped (`\\x1b`), never as they are
    (check and compare printed them raw: the screen cleared, the window retitled)."""
    monkeypatch.chdir(tmp_path)
    evil = "Evil\x1b]0;owned\x07\u202e"
    sets = write_csv(
        tmp_path / f"{evil}.csv",
        [["name", "type", "copies", "buy", "play"]]
        + [[name, "spell", 10, 1, 0] for name in HOSTILE.values()],
    )
    board = str(duel_board(tmp_path))
    card = HOSTILE["a1"]
    hostile_db = renamed(build(tmp_path / "r.duckdb", runs=2), HOSTILE)
    played = tmp_path / "played.duckdb"
    assert (
        main(["simulate", "--board", board, "--games", "1", "--workers", "1", "--db", str(played)])
        == 0
    )
    db = ["--db", str(tmp_path / "new.duckdb")]
    study = ["--sets", str(sets), "--board", board, "--games", "2", "--workers", "1", *db]
    commands = {
        "validate": ["validate", str(sets)],
        "simulate": ["simulate", *study],
        "report": ["report", "--db", str(hostile_db), "--out", f"report{evil}"],
        "compare": ["compare", "1", "2", "--db", str(hostile_db), "--out", f"compare{evil}"],
        "check": ["check", "--db", str(hostile_db)],
        "replay": ["replay", "--db", str(played), "--game", "1000000000", "--out", f"r{evil}"],
        "play": ["play", "--sets", str(sets), "--board", board, *db],
        "sweep": [
            "sweep",
            *study,
            "--card",
            card,
            "--field",
            "buy",
            "--values",
            "1,2",
            "--out",
            "s",
        ],
        "tune": [
            "tune",
            "--set",
            str(sets),
            "--board",
            board,
            "--band=-0.05,0.05",
            *TINY_TUNE,
            *db,
            "--out",
            "t",
        ],
        "ablate": ["ablate", *study, "--card", card, "--out", "a"],
        "skill": ["skill", *study, "--card", card, "--out", "k"],
        "ab": [
            "ab",
            *study[:4],
            "--workers",
            "1",
            *db,
            "--card",
            card,
            "--field",
            "buy",
            "--values",
            "1,2",
        ],
        "fuzz": ["fuzz", "--games", "1", "--workers", "1", "--out", f"fz{evil}"],
        "demo": ["demo", "--games", "1", "--workers", "1", "--out", f"demo{evil}"],
        "train-agent": ["train-agent", "--against", card, "--out", f"agent{evil}.py"],
    }
    assert set(commands) == set(COMMANDS)
    printed = {name: run_all(argv, capsys) for name, argv in commands.items()}
    assert {name: hidden(text) for name, text in printed.items()} == {name: [] for name in commands}
    echoed = {name for name, text in printed.items() if "\\x1b" in text or "\\u202e" in text}
    assert echoed == set(commands) - {"check"}  # check names games and rules, not cards


def test_a_fifo_and_a_link_to_dev_zero_are_named_for_what_they_are(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Both were "no such file"; neither is opened (a FIFO would wait for a writer)."""
    fifo = tmp_path / "cards.csv"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.csv"
    zero.symlink_to("/dev/zero")
    assert main(["validate", str(fifo), str(zero)]) == 2
    assert capsys.readouterr().out.splitlines() == [
        f"{fifo}: a named pipe (FIFO), not a spreadsheet file",
        f"{zero}: a link to /dev/zero, a character device, not a spreadsheet file",
        "2 problem(s) found",
    ]


XLSX_PARTS = {
    "[Content_Types].xml": '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas'
    '.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="'
    'application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" '
    'ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="'
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override '
    'PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-'
    'officedocument.spreadsheetml.worksheet+xml"/></Types>',
    "_rels/.rels": '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas'
    '.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://'
    'schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
    'Target="xl/workbook.xml"/></Relationships>',
    "xl/workbook.xml": '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.'
    'openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/'
    'officeDocument/2006/relationships"><sheets><sheet name="cards" sheetId="1" r:id="rId1"/>'
    "</sheets></workbook>",
    "xl/_rels/workbook.xml.rels": '<?xml version="1.0" encoding="UTF-8"?><Relationships '
    'xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship '
    'Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
    'worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
}


def xlsx_of_rows(path: Path, rows: int) -> Path:
    """A card-set workbook of `rows` rows written as its XML (openpyxl takes seconds for
    10,000 rows): the header, then `C2 | spell` and so on."""
    cells = "".join(
        f'<row r="{r}"><c r="A{r}" t="inlineStr"><is><t>C{r}</t></is></c>'
        f'<c r="B{r}" t="inlineStr"><is><t>spell</t></is></c></row>'
        for r in range(2, rows + 1)
    )
    header = (
        '<row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c>'
        '<c r="B1" t="inlineStr"><is><t>type</t></is></c></row>'
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in XLSX_PARTS.items():
            z.writestr(name, text)
        z.writestr(
            "xl/worksheets/sheet1.xml",
            '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.'
            'openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
            f"{header}{cells}</sheetData></worksheet>",
        )
    return path


BOUND_ADVICE = (
    "(docs/card-language.md); delete what lies below or beside the content, or split the file"
)


def test_a_workbook_past_its_rows_is_refused_at_the_bound(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A sheet is read within bounds; at 10,000 rows the same file loads."""
    assert validate([xlsx_of_rows(tmp_path / "fine.xlsx", 10_000)]).problems == []
    big = xlsx_of_rows(tmp_path / "big.xlsx", 10_001)
    assert main(["validate", str(big)]) == 2
    assert capsys.readouterr().out.splitlines() == [
        f"{big}: sheet 'cards' has a value in row 10,001: at most 10,000 rows {BOUND_ADVICE}",
        "1 problem(s) found",
    ]


def test_an_ods_row_repeated_a_million_times_is_refused_before_it_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A few kB on disk, a million rows to calamine (the .xlsx of the issue took 2.3 GB)."""
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    doc = OpenDocumentSpreadsheet()
    table = Table(name="cards")
    for values, repeat in ((["name", "type"], 1), (["Spark", "spell"], 1_000_000)):
        row = TableRow(numberrowsrepeated=repeat)
        for value in values:
            cell = TableCell(valuetype="string")
            cell.addElement(P(text=value))
            row.addElement(cell)
        table.addElement(row)
    doc.spreadsheet.addElement(table)
    path = tmp_path / "repeated.ods"
    doc.save(str(path))
    assert main(["validate", str(path)]) == 2
    assert capsys.readouterr().out.splitlines() == [
        f"{path}: sheet 'cards' has a value in row 1,000,001: at most 10,000 rows {BOUND_ADVICE}",
        "1 problem(s) found",
    ]


@pytest.mark.parametrize(
    ("bounds", "message"),
    [
        ({"columns": 3}, "it has a value in column 4: at most 3 columns"),
        ({"cells": 15}, "it has values across 4 rows and 4 columns, 16 cells: at most 15"),
        ({"bytes": 20}, "bytes: at most 20 (docs/card-language.md)"),
    ],
)
def test_a_csv_is_read_within_its_bounds_of_columns_cells_and_bytes(
    tmp_path: Path, bounds: dict[str, int], message: str
) -> None:
    from workbench.content.sheet_scan import Bounds

    path = write_csv(
        tmp_path / "s.csv", [["name", "type", "buy", "play"]] + [["A", "spell", 1, 1]] * 3
    )
    with pytest.raises(SheetError) as caught:
        read_sheets(path, Bounds(**bounds))
    assert message in caught.value.reason


def test_a_workbook_unpacking_beyond_its_bytes_is_refused_before_calamine_opens_it(
    tmp_path: Path,
) -> None:
    from workbench.content.sheet_scan import Bounds

    path = xlsx_of_rows(tmp_path / "s.xlsx", 3)
    with pytest.raises(SheetError) as caught:
        read_sheets(path, Bounds(bytes=1000))
    assert caught.value.reason.startswith("the workbook unpacks to ")
    assert caught.value.reason.endswith(
        " bytes: at most 1,000 (a card set or board is far smaller; docs/card-language.md)"
    )


@pytest.mark.parametrize(
    "command",
    ["simulate", "demo", "sweep", "tune", "ablate", "skill", "ab", "fuzz", "train-agent"],
)
def test_every_command_with_workers_lowers_them_to_the_cores(command: str) -> None:
    """`--workers 100000` once started over a thousand processes; every command that
    takes --workers (one definition) is lowered to the cores with a note."""
    from app.workers import checked_workers, cores

    words = [command, "--workers", "100000"]
    words += {
        "tune": ["--set", "core"],
        "sweep": ["--card", "X", "--field", "buy", "--values", "1,2", "--out", "o"],
        "ablate": ["--card", "X", "--out", "o"],
        "skill": ["--card", "X", "--out", "o"],
        "ab": ["--card", "X", "--field", "buy", "--values", "1,2"],
    }.get(command, [])
    if command == "tune":
        words += ["--band=-0.05,0.05", "--out", "o"]
    args = build_parser(command).parse_args(words)
    assert args.workers == 100_000
    assert checked_workers(args) == (
        None,
        f"--workers 100000 is more than the {cores()} cores here: using {cores()}",
    )
    assert args.workers == cores()


def test_workers_beyond_the_cores_are_said_and_lowered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.workers import cores

    db = tmp_path / "runs.duckdb"
    board = str(duel_board(tmp_path))
    assert (
        main(["simulate", "--board", board, "--games", "1", "--workers", "100000", "--db", str(db)])
        == 0
    )
    assert (
        f"workbench simulate: --workers 100000 is more than the {cores()} cores here: using "
        f"{cores()}"
    ) in err_line(capsys)
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT workers FROM runs").fetchall() == [(cores(),)]
    con.close()


def test_a_ratings_drafter_on_a_file_that_is_no_store_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It was a duckdb traceback."""
    notes = tmp_path / "notes.duckdb"
    notes.write_text("not a database")
    other = tmp_path / "other.duckdb"
    duckdb.connect(str(other)).execute("CREATE TABLE t (x INT)").close()
    db = tmp_path / "runs.duckdb"
    board = str(duel_board(tmp_path))
    for source, reason in (
        (notes, f"{notes} is not a usable DuckDB database"),
        (other, "not a workbench store with games to learn from"),
    ):
        capsys.readouterr()
        argv = ["simulate", "--board", board, "--games", "1", "--workers", "1", "--db", str(db)]
        assert main([*argv, "--drafters", f"ratings:db={source}"]) == 2
        err = capsys.readouterr().err
        assert f"workbench simulate: error: ratings db={source}: {reason}" in " ".join(err.split())
        assert "Traceback" not in err and err.count("\n") == 1
        assert not db.exists()


def test_an_out_that_is_not_utf8_is_refused_before_anything_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """polars could not write the report's tables there: a traceback, an empty folder left."""
    db = build(tmp_path / "r.duckdb")
    monkeypatch.chdir(tmp_path)
    out = os.fsdecode(b"rep\xffort")
    assert main(["report", "--db", str(db), "--out", out]) == 2
    assert capsys.readouterr().err == (
        "workbench report: error: --out rep\\udcffort: not UTF-8 text (a byte the file system "
        "gives no character for); name files and folders in UTF-8\n"
    )
    assert os.listdir(tmp_path) == ["r.duckdb"]


def test_a_locked_database_is_in_use_for_check_and_simulate_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """check and simulate said "not a usable DuckDB database" where report said "in use"."""
    db = build(tmp_path / "r.duckdb")
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import duckdb, time; "
            f"con = duckdb.connect({str(db)!r}); print('held', flush=True); "
            "time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        capsys.readouterr()
        assert main(["check", "--db", str(db)]) == 2
        check = capsys.readouterr().out
        board = str(duel_board(tmp_path))
        assert (
            main(["simulate", "--board", board, "--games", "1", "--workers", "1", "--db", str(db)])
            == 2
        )
        simulate = err_line(capsys)
    finally:
        holder.kill()
        holder.wait()
    in_use = (
        f"{db} is in use by another process (a simulation still writing it?): wait until it is "
        "done, or copy the file and read the copy"
    )
    assert check == f"cannot check: {in_use}\n"
    assert simulate == f"workbench simulate: error: {in_use}"
