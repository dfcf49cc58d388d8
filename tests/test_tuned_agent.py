"""The tunable heuristic: weights that act on the decisions they name, the `tuned`
agent, and `workbench train-agent` end to end on a tiny budget."""

from __future__ import annotations

import dataclasses
import importlib.util
import random
from pathlib import Path

import pytest

from app.cli import main
from engine.agents.heuristic import HeuristicAgent, score_actions
from engine.agents.weights import DEFAULT, SPACE, Weights
from engine.board import Victory, VictoryKind
from engine.game import Game
from tests.builder import Position, board, unit
from tests.test_agents import BOARDS, SETS, _upkeep_position, play_checked, short_config


def test_every_weight_has_a_search_range_holding_its_hand_set_value() -> None:
    fields = {f.name for f in dataclasses.fields(Weights)}
    assert set(SPACE) == fields
    for name, (lo, hi) in SPACE.items():
        assert lo <= getattr(DEFAULT, name) <= hi, name


def test_weights_round_trip_and_refuse_an_unknown_name() -> None:
    w = dataclasses.replace(DEFAULT, buy_min=1.5)
    assert Weights.from_dict(w.to_dict()) == w
    with pytest.raises(ValueError, match="buy_mni"):
        Weights.from_dict({"buy_mni": 1.0})


def _choice(game: Game, w: Weights) -> str:
    return HeuristicAgent(weights=w).act(game, game.legal_actions(), random.Random(1)).text()


def _buy_position() -> Game:
    """Seat 0's buy step with 3 resource and a cheap good unit in its store."""
    knight = unit("Knight", life=5, attack=3, buy=2, play=1, upkeep=1)
    pos = Position(board("0 . . . 1", victory=Victory(VictoryKind.BUILDINGS)), [knight])
    pos.store(0, knight)
    pos.idle(0, 0, 0)
    pos.idle(1, 4, 0)
    pos.resource(0, 3)
    return pos.game(phase="buy")


def test_buy_min_above_every_buy_leaves_the_resource_unspent() -> None:
    game = _buy_position()
    assert _choice(game, DEFAULT).startswith("buy")
    assert not _choice(game, dataclasses.replace(DEFAULT, buy_min=50.0)).startswith("buy")


def test_upkeep_keep_refuses_a_unit_not_worth_that_many_times_its_upkeep() -> None:
    """R21.21: paying is the agent's choice; `upkeep_keep` sets the price it pays."""
    game, (k,) = _upkeep_position(3, [unit("Knight", life=6, move=2, attack=3, upkeep=1)], [])
    assert _choice(game, DEFAULT) == f"pay c{k}"
    assert _choice(game, dataclasses.replace(DEFAULT, upkeep_keep=100.0)) == "refuse"


def test_unit_reserve_keeps_resource_back_before_deploying() -> None:
    """A unit whose play and next upkeep the seat can just afford: deployed by the hand-set
    weights, kept in hand with a reserve of 3 (R6.8's play, R5.3's upkeep)."""
    knight = unit("Knight", life=5, attack=3, play=2, upkeep=1)
    pos = Position(board("0 . . . 1", income=0, victory=Victory(VictoryKind.BUILDINGS)), [knight])
    pos.hand(0, knight)
    pos.idle(0, 1, 0)
    pos.idle(1, 4, 0)
    pos.resource(0, 3)
    game = pos.game()

    def play_score(w: Weights) -> float:
        scored = score_actions(game.state, game.legal_actions(), w)
        return max(x for x, a in scored if a.kind == "play")

    assert play_score(DEFAULT) > 0
    assert play_score(dataclasses.replace(DEFAULT, unit_reserve=3.0)) < 0


@pytest.mark.parametrize("board_name", BOARDS)
def test_tuned_agent_plays_every_board_deterministically(board_name: str) -> None:
    cfg = short_config(board_name, SETS[1], 4)
    a = play_checked(cfg, 11, ["tuned", "heuristic"]).state.action_log
    b = play_checked(cfg, 11, ["tuned", "heuristic"]).state.action_log
    assert a == b


def test_the_tuned_module_holds_weights_the_agent_knows() -> None:
    """A weight added after the training keeps its hand-set value until the next training."""
    from engine.agents.tuned import WEIGHTS

    assert WEIGHTS and set(WEIGHTS) <= set(SPACE)
    assert Weights.from_dict(WEIGHTS) != DEFAULT


def test_train_agent_end_to_end_on_a_tiny_budget(tmp_path: Path) -> None:
    out = tmp_path / "tuned.py"
    code = main(
        [
            "train-agent",
            "--trials",
            "2",
            "--games",
            "1",
            "--confirm",
            "1",
            "--top",
            "2",
            "--boards",
            "gold-rush",
            "--workers",
            "1",
            "--seed",
            "3",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    spec = importlib.util.spec_from_file_location("tuned_tmp", out)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert set(mod.WEIGHTS) == set(SPACE)
    Weights.from_dict(mod.WEIGHTS)
    text = out.read_text()
    assert "workbench train-agent --trials 2" in text and "against heuristic on gold-rush" in text


@pytest.mark.parametrize(
    "args, word",
    [
        (["--trials", "0"], "--trials"),
        (["--against", "serch"], "--against"),
        (["--boards", "nowhere"], "nowhere"),
        (["--out", "."], "--out"),
        (["--weights", "buy_mni"], "buy_mni"),
    ],
)
def test_train_agent_refuses_bad_arguments_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], word: str
) -> None:
    out = tmp_path / "tuned.py"
    argv = [
        "train-agent",
        "--trials",
        "1",
        "--games",
        "1",
        "--confirm",
        "1",
        "--workers",
        "1",
        "--out",
        str(out),
        *args,
    ]
    assert main(argv) == 2
    assert word in capsys.readouterr().err
    assert not out.exists()
