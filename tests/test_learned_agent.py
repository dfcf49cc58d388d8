"""The learned agent (distilling the search agent): its features, the model's fit, the
agent playing every board deterministically, and `workbench train-agent --learned` end to end on
a tiny budget."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from app.cli import main
from engine.agents.learned import FEATURES, LearnedAgent, candidates, features
from engine.agents.learned_model import COEF
from engine.agents.registry import make_agent
from engine.board import Victory, VictoryKind
from engine.game import Game
from tests.builder import Position, board, unit
from tests.test_agents import BOARDS, SETS, play_checked, short_config
from workbench.training.distill import Decision, agreement, fit, model_scores


def _activated_knight() -> Game:
    """Seat 0's Knight activated two fields from an enemy Brute that can reach the field in
    between (move 1 + range 1) and deal 4, the Knight's life left 4 (R12.2)."""
    knight = unit("Knight", life=3, move=1, attack=2)
    brute = unit("Brute", life=5, move=1, attack=4)
    pos = Position(board(". . . . . .", victory=Victory(VictoryKind.BUILDINGS)), [knight, brute])
    pos.idle(0, 0, 0)
    pos.idle(1, 5, 0)
    k = pos.put(knight, 0, 1, 0)
    pos.put(brute, 1, 3, 0)
    game = pos.game()
    game.apply(next(a for a in game.legal_actions() if a.kind == "activate" and a.card == k))
    return game


def test_features_describe_the_field_a_move_ends_on() -> None:
    """A move next to the Brute: in reach of enough attack to defeat the Knight (R12.2), one
    field nearer the objective than standing still."""
    game = _activated_knight()
    s = game.state
    cands = candidates(s, game.legal_actions(), width=20)
    rows = features(s, cands)
    assert all(len(r) == len(FEATURES) for r in rows)
    assert rows[0][FEATURES.index("top")] == 1.0 and rows[0][FEATURES.index("gap")] == 0.0
    by_text = {a.text(): r for (_, a), r in zip(cands, rows, strict=True)}
    forward = next(r for t, r in by_text.items() if t.startswith("move") and t.endswith("@2"))
    tap = next(r for t, r in by_text.items() if t.startswith("tap"))
    assert forward[FEATURES.index("k_move")] == 1.0 and tap[FEATURES.index("k_tap")] == 1.0
    assert forward[FEATURES.index("goal_gain")] == 1.0
    assert forward[FEATURES.index("enemies_near")] == 1.0
    assert forward[FEATURES.index("risk")] > 0 and forward[FEATURES.index("danger")] >= 1.0


def test_fit_learns_which_feature_the_teacher_follows() -> None:
    """Decisions where the teacher always takes the candidate with the highest third feature,
    the others noise: the fitted scores pick the teacher's choice on unseen decisions."""
    rng = np.random.default_rng(3)

    def made(n: int) -> list[Decision]:
        out = []
        for _ in range(n):
            x = rng.normal(size=(5, len(FEATURES)))
            out.append(Decision(x, int(np.argmax(x[:, 2])), "b", 0))
        return out

    model = fit(made(1000), l2=0.1)
    assert int(np.argmax(np.abs(model.coef))) == 2
    assert agreement(made(200), model_scores(model)) > 0.9


def test_the_model_module_holds_coefficients_the_agent_knows() -> None:
    assert COEF and set(COEF) <= set(FEATURES)
    LearnedAgent(COEF)
    with pytest.raises(ValueError, match="nonsense"):
        LearnedAgent({"nonsense": 1.0})


@pytest.mark.parametrize("board_name", BOARDS)
def test_learned_agent_plays_every_board_deterministically(board_name: str) -> None:
    cfg = short_config(board_name, SETS[1], 4)
    a = play_checked(cfg, 11, ["learned", "heuristic"]).state.action_log
    b = play_checked(cfg, 11, ["learned", "heuristic"]).state.action_log
    assert a == b
    assert make_agent("learned:width=3").name == "learned"


def test_train_agent_learned_end_to_end_on_a_tiny_budget(tmp_path: Path) -> None:
    """Two games of a cheap teacher, one held out; the data file is reused by a second run."""
    out, data = tmp_path / "learned_model.py", tmp_path / "games.jsonl"
    argv = [
        "train-agent",
        "--learned",
        "--teacher",
        "search:budget=4",
        "--games",
        "2",
        "--boards",
        "drowned-sanctum",
        "--holdout",
        "2",
        "--workers",
        "1",
        "--seed",
        "3",
        "--data",
        str(data),
        "--out",
        str(out),
    ]
    assert main(argv) == 0
    games = [json.loads(line) for line in data.read_text().splitlines()]
    assert [g["i"] for g in games] == [0, 1] and all(g["steps"] for g in games)
    spec = importlib.util.spec_from_file_location("learned_tmp", out)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert list(mod.COEF) == list(FEATURES)
    text = out.read_text()
    assert "workbench train-agent --learned --games 2 --teacher search:budget=4" in text
    assert main(argv) == 0  # the recorded games are reused, none played again
    assert len(data.read_text().splitlines()) == 2


@pytest.mark.parametrize(
    "args, word",
    [
        (["--games", "0"], "--games"),
        (["--teacher", "serch"], "--teacher"),
        (["--boards", "nowhere"], "nowhere"),
        (["--out", "."], "--out"),
    ],
)
def test_train_agent_learned_refuses_bad_arguments_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], word: str
) -> None:
    out = tmp_path / "learned_model.py"
    argv = ["train-agent", "--learned", "--games", "1", "--workers", "1", "--out", str(out), *args]
    assert main(argv) == 2
    assert word in capsys.readouterr().err
    assert not out.exists()
