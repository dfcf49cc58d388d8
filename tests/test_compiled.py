"""The compiled engine (setup.py, engine/compiled.py, docs/compiled.md): it plays exactly the
games of the sources, and it runs only when it was built from the sources beside it."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from engine.compiled import (
    BUILD,
    build_mark,
    built_from_these_sources,
    engine_sources,
    source_hashes,
)

ROOT = Path(__file__).resolve().parent.parent

GAMES = """
import hashlib, sys
import engine
from engine.agents.registry import make_agent
from engine.play import play_game
from workbench.content.setup import load_setup

digest = hashlib.sha256()
for board, spec, seeds in [
    ("kings-crossing", "explorer", (0, 1)),
    ("gold-rush", "factorial", (6,)),
    ("kings-crossing", "heuristic", (2,)),
    ("drowned-sanctum", "heuristic", (3,)),
    ("gold-rush", "lookahead", (4,)),
    ("three-hills", "search:budget=4", (5,)),
]:
    setup = load_setup(board=board, log_events=True)
    agents = [make_agent(spec) for _ in range(setup.config.players)]
    for seed in seeds:
        record = play_game(setup.config, seed, agents)
        digest.update(repr((record.winners, record.events.rows())).encode())
print(engine.RUNNING, digest.hexdigest())
"""
"""Games of every kind of agent on several boards, each game's winners and events hashed."""


def played(running: str) -> tuple[str, str]:
    """(which engine ran, the hash of GAMES' games) in a new process with WORKBENCH_ENGINE set
    to `running` ("" lets the engine choose)."""
    env = {**os.environ, "WORKBENCH_ENGINE": running}
    out = subprocess.run(
        [sys.executable, "-c", GAMES], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    chosen, digest = out.stdout.split()
    return chosen, digest


@pytest.mark.skipif(
    engine.RUNNING != "compiled",
    reason="no compiled engine built from these sources here (the sources run)",
)
def test_the_compiled_engine_plays_the_games_of_the_sources() -> None:
    compiled, source = played(""), played("source")
    assert compiled[0] == "compiled" and source[0] == "source"
    assert compiled[1] == source[1]


def test_workbench_engine_source_runs_the_sources() -> None:
    env = {**os.environ, "WORKBENCH_ENGINE": "source"}
    code = "import engine, engine.legal; print(engine.RUNNING, engine.legal.__file__)"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    running, path = out.stdout.split()
    assert running == "source" and path.endswith("engine/legal.py")


def mark(root: Path) -> None:
    """A build mark as setup.py writes it, for the sources under `root`."""
    (root / "engine" / BUILD.name).write_text(build_mark(root), encoding="utf-8")


def test_a_build_counts_only_for_the_very_sources_it_was_made_from(tmp_path: Path) -> None:
    """Unmarked, marked, then each change to the sources after the mark: an edited module, a
    new one, a removed one; each sends the engine to the sources."""
    (tmp_path / "engine" / "verbs").mkdir(parents=True)
    for name in ("__init__.py", "legal.py", "verbs/__init__.py"):
        (tmp_path / "engine" / name).write_text(f"# {name}\n", encoding="utf-8")
    assert not built_from_these_sources(tmp_path)
    mark(tmp_path)
    assert built_from_these_sources(tmp_path)
    (tmp_path / "engine" / "legal.py").write_text("# edited\n", encoding="utf-8")
    assert not built_from_these_sources(tmp_path)
    mark(tmp_path)
    (tmp_path / "engine" / "verbs" / "new.py").write_text("", encoding="utf-8")
    assert not built_from_these_sources(tmp_path)
    mark(tmp_path)
    (tmp_path / "engine" / "verbs" / "__init__.py").unlink()
    assert not built_from_these_sources(tmp_path)
    (tmp_path / "engine" / BUILD.name).write_text("{not json", encoding="utf-8")
    assert not built_from_these_sources(tmp_path)


def test_the_mark_hashes_each_source_as_sha256(tmp_path: Path) -> None:
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "a.py").write_bytes(b"x = 1\n")
    assert source_hashes(tmp_path, engine_sources(tmp_path)) == {
        "engine/a.py": hashlib.sha256(b"x = 1\n").hexdigest()
    }


def test_a_build_older_than_its_sources_is_said_when_a_command_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A retrained data module in engine/ once sent every run to the sources unseen: the
    command says so, naming the changed source, and says nothing when the build is current,
    absent, or the sources were asked for."""
    from app.cli import stale_build_note

    monkeypatch.delenv("WORKBENCH_ENGINE", raising=False)
    (tmp_path / "engine" / "agents").mkdir(parents=True)
    (tmp_path / "engine" / "rules.py").write_text("A = 1\n")
    (tmp_path / "engine" / "agents" / "values.py").write_text("V = 1\n")
    assert stale_build_note(tmp_path) is None  # no build
    (tmp_path / "engine" / BUILD.name).write_text(build_mark(tmp_path))
    assert stale_build_note(tmp_path) is None  # built from these sources
    (tmp_path / "engine" / "agents" / "values.py").write_text("V = 2\n")
    note = stale_build_note(tmp_path)
    assert note is not None and "engine/agents/values.py changed" in note
    assert "pip install -e ." in note
    (tmp_path / "engine" / "added.py").write_text("")
    assert "and 1 more" in (stale_build_note(tmp_path) or "")
    monkeypatch.setenv("WORKBENCH_ENGINE", "source")
    assert stale_build_note(tmp_path) is None
