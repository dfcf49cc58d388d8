"""Messages are never hard-wrapped when the output is not a terminal: a
suggested command or a path stays on one line, where a designer copies it, and a test that
looks for a phrase finds it whatever the length of its temporary path."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from app import cmd_simulate
from tests.test_runner import GAMES, simulate

REPO = Path(__file__).resolve().parent.parent
LONG = "/tmp/" + "a-long-folder-name/" * 8 + "shared/run-1"
"""A shard folder's path long enough to cross 80 columns anywhere in a message."""


def test_a_stopped_run_says_its_cause_and_resume_command_on_whole_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cause of test_shards' flaky refusal: the shards folder's error went to standard
    error through a console that wrapped at 80 columns, splitting "holds shards of another run"
    where the temporary path happened to end. The same message, raised by the cluster's
    execution, stays whole, and so does the command to resume."""

    def refuse(*_: object) -> None:
        raise FileExistsError(
            f"{LONG} holds shards of another run ({{'run_id': 1, 'seed': 5}}); remove it "
            "or give --shards another folder"
        )

    monkeypatch.setattr(cmd_simulate, "execute", refuse)
    db = tmp_path / ("a-database-with-a-long-name-" * 3 + ".duckdb")
    assert simulate(*GAMES, "--db", str(db)) == 1
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == (
        f"workbench simulate: stopped: {LONG} holds shards of another run ({{'run_id': 1, "
        "'seed': 5}); remove it or give --shards another folder"
    )
    assert lines[1] == (
        f"run 1 keeps its complete games; finish it with workbench simulate --db {db} --resume 1"
    )


def test_every_command_prints_through_the_unwrapped_consoles() -> None:
    """No command makes a rich Console of its own: each comes from app/consoles.py."""
    made = [
        f"{path.relative_to(REPO)}:{node.lineno}"
        for folder in ("app", "workbench", "reports")
        for path in sorted((REPO / folder).rglob("*.py"))
        if path.name != "consoles.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", getattr(node.func, "attr", "")) == "Console"
    ]
    assert made == []
