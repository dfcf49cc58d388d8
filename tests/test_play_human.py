"""`workbench play`: a person's seat driven by scripted input completes a game, answers bad
input with the list again, and stores the game so it replays; readable action names."""

from __future__ import annotations

import io
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path

import duckdb

from app.cli import main
from engine.actions import Action
from engine.game import Game
from engine.names import describe
from engine.vocab import ActionKind
from tests.test_replay import duel_board
from workbench.play.human import choose
from workbench.play.replay import replay_stored


class Script:
    """Answers from a list first, then from `then(output so far)`; None ends the input."""

    def __init__(
        self, lines: list[str], out: io.StringIO, then: Callable[[str], str | None] = lambda _: "1"
    ) -> None:
        self.lines = lines
        self.out = out
        self.then = then

    def readline(self) -> str:
        answer = self.lines.pop(0) if self.lines else self.then(self.out.getvalue())
        return "" if answer is None else answer + "\n"


def last_options(output: str) -> list[tuple[str, str]]:
    """(readable name, action text) of the options listed last."""
    block = output[output.rindex("choose one:") :]
    return re.findall(r"^\s+\d+\. (.*)   \[(.*)\]$", block, flags=re.M)


def rotating_answers(output: str) -> str:
    """By number, by action text and by readable name in turn (always the last option)."""
    options = last_options(output)
    name, text = options[-1]
    return [str(len(options)), text, name.upper()][output.count("choose one:") % 3]


def play(
    tmp_path: Path,
    script: list[str],
    then: Callable[[str], str | None] = lambda _: "1",
    *extra: str,
) -> tuple[int, str, Path]:
    out = io.StringIO()
    db = tmp_path / "human.duckdb"
    code = _run(db, tmp_path, Script(script, out, then), out, extra)
    return code, out.getvalue(), db


def _run(db: Path, folder: Path, inp: Script, out: io.StringIO, extra: tuple[str, ...]) -> int:
    stdin, stdout = sys.stdin, sys.stdout
    sys.stdin, sys.stdout = inp, out  # type: ignore[assignment]
    try:
        return main(
            ["play", "--db", str(db), "--board", str(duel_board(folder)), "--seed", "3", *extra]
        )
    finally:
        sys.stdin, sys.stdout = stdin, stdout


def test_scripted_game_with_bad_input_completes_and_is_stored(tmp_path: Path) -> None:
    code, output, db = play(tmp_path, ["hello", "0", "999", "", "move c999 @9,9", "board"])
    assert code == 0, output[-2000:]
    for bad in ("'hello'", "'0'", "'999'", "''", "'move c999 @9,9'"):
        assert f"not one of the choices: {bad}" in output
    assert output.count("choose one:") > output.count("not one of the choices") + 10
    assert "game over:" in output and "stored as run 1" in output
    con = duckdb.connect(str(db), read_only=True)
    agents, games = con.execute("SELECT agents, games FROM runs").fetchone()  # type: ignore[misc]
    seats = con.execute("SELECT agent FROM game_seats ORDER BY seat").fetchall()
    con.close()
    assert (agents, games, seats) == ("human,random", 1, [("human",), ("random",)])
    _, replay, _ = replay_stored(db, 1_000_000_000)
    assert replay.divergence is None, str(replay.divergence)


def test_answers_by_number_text_and_name_at_the_second_seat(tmp_path: Path) -> None:
    code, output, db = play(tmp_path, [], rotating_answers, "--seat", "2")
    assert code == 0, output[-2000:]
    assert "not one of the choices" not in output
    assert "you are p2" in output
    _, replay, _ = replay_stored(db, 1_000_000_000)
    assert replay.divergence is None, str(replay.divergence)


def test_quit_and_end_of_input_store_nothing(tmp_path: Path) -> None:
    code, output, db = play(tmp_path, ["1", "quit"])
    assert code == 1 and "abandoned (quit)" in output
    code, output, db = play(tmp_path, ["1"], lambda _: None)
    assert code == 1 and "abandoned (the input ended)" in output
    assert not db.exists()  # not even an empty database


def test_bad_arguments_exit_2(tmp_path: Path) -> None:
    code, output, _ = play(tmp_path, [], lambda _: "1", "--seat", "3")
    assert code == 2 and "seats 1..2" in output
    code, output, _ = play(tmp_path, [], lambda _: "1", "--agents", "nobody")
    assert code == 2 and "unknown agent" in output


def test_choose_reads_numbers_texts_and_names() -> None:
    legal = [
        Action(ActionKind.PASS),
        Action(ActionKind.MOVE, 7, field=12),
        Action(ActionKind.ATTACK, 7, 9),
    ]
    names = ["pass: end the action phase", "move Militia (c7) to 2,2", "Militia attacks X"]
    assert choose("2", legal, names, 5) == legal[1]
    assert choose("move c7 @2,2", legal, names, 5) == legal[1]
    assert choose("move c7 @12", legal, names, 5) == legal[1]
    assert choose("MILITIA ATTACKS x", legal, names, 5) == legal[2]
    for junk in ("0", "4", "-1", "move c7 @3,3", "move c7 @x", "attack", "c7 c9"):
        assert choose(junk, legal, names, 5) is None


def test_every_legal_action_has_a_readable_name(shipped) -> None:  # type: ignore[no-untyped-def]
    """Random games on two boards: describe() never fails and never falls back to the text."""
    for board, sets in (
        ("kings-crossing", ["iron-legion", "sky-wardens"]),
        ("tyrants-throne", ["tide-callers", "pestgericht"]),
    ):
        config = shipped.setup(sets, board).config
        game = Game(config, 5)
        rng = random.Random(5)
        while not game.is_terminal():
            legal = game.legal_actions()
            for a in legal:
                name = describe(game, a)
                assert name and (a.kind == "pass" or name != a.text(config.board.width))
            game.apply(rng.choice(legal))
