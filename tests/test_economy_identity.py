"""The economy is an identity (R5.1, R7, R8.6, R18): on every turn of real games of every shipped
board, resource at the start + income + gains from discarding and from cards = spending on
buys, plays, upkeep and free actions + losses to cards + resource left (docs/schema.md,
snapshots)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.agents.registry import make_agent
from engine.play import derive_seed, play_game
from engine.record import SNAPSHOT_COLUMNS
from tests.rules import rules
from workbench.play.jobs import prepare
from workbench.store import RunSpec

BOARDS = sorted(
    p.name.split(".")[0]
    for p in (Path(__file__).resolve().parent.parent / "cardsets" / "boards").iterdir()
)
GAMES = 3


def rows(board: str) -> tuple[list[dict[str, int]], list[int]]:
    """Snapshot rows of GAMES random-agent games on the board, and their buy events per game."""
    spec = RunSpec(
        ("iron-legion", "tide-callers"), (board,), GAMES, 0, ("random",), ("random",), seed=11
    )
    config = prepare(spec).configs[board]
    out, buys = [], []
    for i in range(GAMES):
        agents = [make_agent("random") for _ in range(config.board.players)]
        record = play_game(config, derive_seed(spec.seed, i), agents)
        out += [
            dict(zip(SNAPSHOT_COLUMNS, r, strict=True)) | {"game": i}
            for r in record.snapshots.rows()
        ]
        buys.append(sum(1 for e in record.events.rows() if e[5] == "buy"))
    return out, buys  # type: ignore[return-value]


@rules("R18")
@pytest.mark.parametrize("board", BOARDS)
def test_economy_identity_holds_on_every_turn(board: str) -> None:
    """R18: resource is only gained and spent through the counted flows, turn by turn."""
    snaps, buys = rows(board)
    assert snaps
    previous: dict[tuple[int, int], int] = {}
    for r in snaps:
        into = r["resource_start"] + r["income"] + r["discard_gain"] + r["card_gain"]
        out = (
            r["spend_buy"]
            + r["spend_play"]
            + r["spend_upkeep"]
            + r["spend_free"]
            + r["card_loss"]
            + r["resource"]
        )
        assert into == out, r
        # the flows start where the player's previous turn ended
        assert r["resource_start"] == previous.get((r["game"], r["player"]), 0), r
        previous[(r["game"], r["player"])] = r["resource"]
        # R7.2: at most one buy a turn, paid from what the buy step began with
        assert r["bought"] in (0, 1)
        assert r["buy_resource"] - r["spend_buy"] >= 0
    assert [sum(r["bought"] for r in snaps if r["game"] == g) for g in range(GAMES)] == buys


@rules("R19.2")
def test_card_gains_and_losses_are_counted_on_real_boards() -> None:
    """Spells that give or steal resource (R19.2) show up in card_gain and card_loss."""
    snaps = [r for board in ("kings-crossing", "four-banners") for r in rows(board)[0]]
    assert sum(r["card_gain"] for r in snaps) > 0
    assert sum(r["card_loss"] for r in snaps) > 0
