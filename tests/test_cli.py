"""The command line itself: option values that start with a minus
sign, help texts, agent and drafter specs refused before any game, what `simulate` says it
played, and the README's instructions for the notebooks."""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

import pytest

from app import cmd_demo, cmd_sweep, cmd_tune
from app.cli import COMMANDS, build_parser, main

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data" / "tuning"


def _captured(monkeypatch: pytest.MonkeyPatch, module: object) -> list[argparse.Namespace]:
    """Replace the command's `run` so that parsing alone is tested."""
    seen: list[argparse.Namespace] = []

    def run(args: argparse.Namespace) -> int:
        seen.append(args)
        return 0

    monkeypatch.setattr(module, "run", run)
    return seen


@pytest.mark.parametrize("band", ["-0.05,0.05", "-.1,.1", "-0.1,-0.02"])
def test_band_takes_a_negative_list_as_the_help_example_shows(
    monkeypatch: pytest.MonkeyPatch, band: str
) -> None:
    """`--band -0.05,0.05` (the help's own example) is read as the band, not as an option."""
    seen = _captured(monkeypatch, cmd_tune)
    assert main(["tune", "--set", "x", "--band", band, "--out", "o"]) == 0
    assert seen[0].band == band


def test_every_option_that_takes_a_list_takes_one_starting_with_a_minus(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen = _captured(monkeypatch, cmd_sweep)
    assert (
        main(
            [
                "sweep",
                "--board-setting",
                "income",
                "--values",
                "-1,0,1",
                "--target",
                "-0.05",
                "--out",
                "o",
            ]
        )
        == 0
    )
    assert (seen[0].values, seen[0].target) == ("-1,0,1", -0.05)


def test_a_word_after_a_flag_or_after_double_dash_is_left_alone(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["sweep", "--independent", "-1,2", "--values", "1,2", "--out", "o"])
    assert "--independent" in capsys.readouterr().err


@pytest.mark.parametrize("command", list(COMMANDS))
def test_help_texts_print_percent_signs_once(command: str) -> None:
    """argparse %-formats option help but not descriptions: no text may show "%%"."""
    sub = build_parser()._subparsers._group_actions[0].choices[command]  # type: ignore[union-attr]
    text = sub.format_help()
    assert "%%" not in text
    if command == "tune":
        assert "95% interval" in " ".join(text.split())


@pytest.mark.parametrize(
    "spec, message",
    [
        (
            "search:budgt=4",
            (
                "search has no parameter 'budgt'; did you mean budget? search takes "
                "budget, horizon, eps, width, steps, margin"
            ),
        ),
        ("search:budget=-5", "budget must be at least 1, not -5"),
        ("search:budget=4.5", "budget must be a whole number"),
        ("heuristic:eps=nan", "eps must be a finite number, not 'nan'"),
        ("heuristic:eps=2", "eps must lie in [0, 1], not 2"),
        ("heuristic:colour=blue", "heuristic has no parameter 'colour'; heuristic takes eps"),
        ("random:colour=blue", "random takes no parameters"),
        ("explorer:p=-0.5", "p must lie in [0, 1]"),
        ("heuristc", "unknown agent 'heuristc' in 'heuristc'; did you mean heuristic?"),
    ],
)
def test_a_bad_agent_spec_is_refused_in_one_line_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], spec: str, message: str
) -> None:
    db = tmp_path / "new.duckdb"
    assert (
        main(["simulate", "--games", "1", "--workers", "1", "--agents", spec, "--db", str(db)]) == 2
    )
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert message in err
    assert not db.exists()


@pytest.mark.parametrize(
    "spec, message",
    [
        ("ratings:db={missing}", "db must name an existing file; there is no "),
        ("ratings:db=", "db must name an existing file; there is no ''"),
        ("ratings:ratings_file={missing}", "ratings_file must name an existing file"),
        ("ratings:prior=-1", "prior must be at least 0"),
        ("ratings:dbb=x", "did you mean db?"),
    ],
)
def test_a_bad_drafter_spec_is_refused_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], spec: str, message: str
) -> None:
    db = tmp_path / "new.duckdb"
    spec = spec.format(missing=tmp_path / "missing.duckdb")
    assert (
        main(["simulate", "--games", "1", "--workers", "1", "--drafters", spec, "--db", str(db)])
        == 2
    )
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert message in err
    assert not db.exists() and not (tmp_path / "missing.duckdb").exists()


@pytest.mark.parametrize(
    "command",
    [
        ["sweep", "--card", "Dud", "--field", "buy", "--values", "2,4"],
        ["ablate", "--card", "Dud"],
    ],
)
def test_the_study_commands_refuse_a_bad_spec_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    db, out = tmp_path / "s.duckdb", tmp_path / "out"
    assert (
        main(
            [
                *command,
                "--sets",
                str(DATA / "tiny.csv"),
                "--board",
                str(DATA / "duel.map.csv"),
                "--agents",
                "search:budgt=4",
                "--games",
                "2",
                "--workers",
                "1",
                "--db",
                str(db),
                "--out",
                str(out),
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert "did you mean budget?" in err and len(err.strip().splitlines()) == 1, err
    assert not db.exists() and not out.exists()


def test_simulate_plays_the_demos_agents_by_default_and_says_who_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "r.duckdb"
    assert (
        main(
            [
                "simulate",
                "--games",
                "2",
                "--workers",
                "1",
                "--db",
                str(db),
                "--board",
                str(DATA / "duel.map.csv"),
                "--sets",
                str(DATA / "tiny.csv"),
            ]
        )
        == 0
    )
    out = " ".join(capsys.readouterr().out.split())
    assert "agents: heuristic in every seat; drafters: heuristic in every seat" in out
    assert (
        main(
            [
                "simulate",
                "--games",
                "2",
                "--workers",
                "1",
                "--db",
                str(db),
                "--board",
                str(DATA / "duel.map.csv"),
                "--sets",
                str(DATA / "tiny.csv"),
                "--agents",
                "random,heuristic",
                "--drafters",
                "random",
            ]
        )
        == 0
    )
    out = " ".join(capsys.readouterr().out.split())
    assert "agents: seat 1 random, seat 2 heuristic; drafters: random in every seat" in out


def test_the_readme_names_simulates_default_agent() -> None:
    from app.cmd_simulate import DEFAULT_AGENT

    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    assert f"`workbench simulate` plays {DEFAULT_AGENT} agents" in readme


def test_the_readme_says_how_to_open_the_notebooks_on_a_runs_database() -> None:
    """The command it gives starts JupyterLab on notebooks/ with the variables the notebooks
    read (WORKBENCH_DB, WORKBENCH_RUN), and the JupyterLab it names is installed."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    command = re.search(
        r"^\s+(WORKBENCH_DB=\S+ .*jupyter lab notebooks/)\s*$", readme, re.MULTILINE
    )
    assert command, "README: no `WORKBENCH_DB=... jupyter lab notebooks/` line"
    assert "WORKBENCH_RUN=" in command.group(1)
    # a database that exists after the README's first command: the demo's, whose one run is 1
    demo = build_parser().parse_args(["demo"]).out
    assert f"WORKBENCH_DB=$PWD/{demo}/{cmd_demo.DATABASE} WORKBENCH_RUN=1 " in command.group(1)
    for nb in (REPO / "notebooks").glob("*.ipynb"):
        text = nb.read_text(encoding="utf-8")
        assert "WORKBENCH_DB" in text and "WORKBENCH_RUN" in text, nb.name
    assert os.path.isfile(Path(sys.executable).with_name("jupyter-lab"))
