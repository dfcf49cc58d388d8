"""The valued agent: buy steps by learned values, on hand-built positions with
hand-made value tables; the trainer's estimate on hand-made random buy steps."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

from engine.actions import Action
from engine.agents.buy_policy import buy_value
from engine.agents.valued import POOLED, PRIOR, ValuedAgent, stage, taken_counts, unpack
from engine.board import Victory, VictoryKind
from engine.vocab import ActionKind
from tests.builder import Position, board, unit
from tests.rules import rules
from workbench.training.buy_values import PASS, RandomBuys, estimate, split_halves

SWORDSMAN = unit("Swordsman", life=4, attack=2, buy=3)
ARCHER = unit("Archer", life=2, attack=1, range_=3, buy=2)
GIANT = unit("Giant", life=8, attack=4, buy=6, upkeep=2)
NEWCOMER = unit("Newcomer", life=5, attack=3, buy=2)


BUILDINGS = Victory(VictoryKind.BUILDINGS)
"""A victory other than the resource race (the builder's default), which no test reaches."""


def buy_step(
    resource: int, round_: int = 2, victory: Victory = BUILDINGS
) -> tuple[Position, list[Action]]:
    """Seat 0 at its buy step (R7) with Swordsman, Archer and Giant in its store."""
    pos = Position(
        board("0 . .\n. . 1", name="test", victory=victory),
        catalog=[SWORDSMAN, ARCHER, GIANT, NEWCOMER],
    )
    pos.store(0, SWORDSMAN, ARCHER, GIANT)
    pos.resource(0, resource)
    pos.state.round = round_
    game = pos.game(phase="buy")
    return pos, game.legal_actions()


def bought(agent: ValuedAgent, pos: Position, legal: list[Action]) -> str:
    a = agent.act(pos.game(), legal, random.Random(1))
    return pos.state.cards[a.card].name if a.kind is ActionKind.BUY else PASS


def agent(table: dict[str, tuple[float, ...]], board_name: str = "test") -> ValuedAgent:
    return ValuedAgent({board_name: table}, {board_name: (0.0, -1.0)})


@rules("R7.1", "R7.2")
def test_buys_the_affordable_card_of_highest_value() -> None:
    a = agent({"Swordsman": (0.02,) * 3, "Archer": (0.05,) * 3, "Giant": (0.09,) * 3})
    assert bought(a, *buy_step(6)) == "Giant"
    assert bought(a, *buy_step(5)) == "Archer"  # the Giant is beyond the resource


@rules("R7.1")
def test_passes_when_no_card_beats_passing() -> None:
    a = agent({"Swordsman": (-0.01,) * 3, "Archer": (0.0,) * 3, "Giant": (-0.03,) * 3})
    assert bought(a, *buy_step(6)) == PASS


@rules("R7.1")
def test_the_stage_of_the_game_decides() -> None:
    # the Giant is worth buying early, not from round 10 (its upkeep has few turns to pay off)
    a = agent({"Swordsman": (0.01, 0.01, 0.02), "Giant": (0.08, 0.04, -0.02)})
    assert stage(4) == 0 and stage(5) == 1 and stage(9) == 1 and stage(10) == 2
    assert bought(a, *buy_step(6, round_=3)) == "Giant"
    assert bought(a, *buy_step(6, round_=11)) == "Swordsman"


@rules("R7.1")
def test_sampled_buying_buys_an_uncertain_card_at_the_chance_it_beats_passing() -> None:
    """With sample=1 a card of value v on n random steps is bought when v plus its spread
    1/2 / sqrt(n + PRIOR) times a normal draw beats passing (0): the Archer (value -0.01, 300
    steps: spread 0.025) at the chance Phi(-0.4) = 34.5%, in 2,000 buy steps within 3.2
    standard errors (3.4 points); the greedy agent never buys it. The Swordsman and the Giant
    are far below passing, never bought."""
    table = {"Swordsman": (-0.5,) * 3, "Archer": (-0.01,) * 3, "Giant": (-0.5,) * 3}
    taken = {"test": {"Swordsman": 300, "Archer": 300, "Giant": 300}}
    sampled = ValuedAgent({"test": table}, {"test": (0.0, -1.0)}, taken=taken, sample=1.0)
    assert 0.5 / math.sqrt(300 + PRIOR) == pytest.approx(0.025)
    pos, legal = buy_step(6)
    rng = random.Random(7)
    names = []
    for _ in range(2000):
        a = sampled.act(pos.game(), legal, rng)
        names.append(pos.state.cards[a.card].name if a.kind is ActionKind.BUY else PASS)
    assert set(names) == {"Archer", PASS}
    assert names.count("Archer") / 2000 == pytest.approx(0.3446, abs=0.034)
    assert bought(agent(table), pos, legal) == PASS


def test_the_packed_values_read_back_as_values_and_taken_steps() -> None:
    """`name=taken:early,middle,late` in ten-thousandths, `|` between cards, several strings a
    board: the values per stage and the random steps that took each card."""
    packed = {"B": ("X=12:1,-2,30|Y=7:-4,0,5", "Z=0:0,0,10000")}
    assert unpack(packed) == {
        "B": {"X": (0.0001, -0.0002, 0.003), "Y": (-0.0004, 0.0, 0.0005), "Z": (0.0, 0.0, 1.0)}
    }
    assert taken_counts(packed) == {"B": {"X": 12, "Y": 7, "Z": 0}}


def test_an_unknown_card_is_valued_by_the_fallback_line() -> None:
    pos, legal = buy_step(6)
    s = pos.state
    newcomer = pos.card(NEWCOMER, 0)
    s.players[0].store.append(newcomer)
    legal = pos.game().legal_actions()
    kind = s.config.board.victory.kind
    line = (0.01, 0.0)  # the heuristic's value for money times 0.01
    worth = 0.01 * buy_value(NEWCOMER, kind, 0, 2)
    assert worth > 0.02
    a = ValuedAgent({"test": {"Swordsman": (0.02,) * 3}}, {"test": line})
    assert bought(a, pos, legal) == "Newcomer"
    b = ValuedAgent({"test": {"Swordsman": (worth + 0.01,) * 3}}, {"test": line})
    assert bought(b, pos, legal) == "Swordsman"


def test_an_unknown_board_uses_the_pooled_values() -> None:
    a = ValuedAgent(
        {POOLED: {"Archer": (0.05,) * 3}, "elsewhere": {"Swordsman": (0.5,) * 3}},
        {POOLED: (0.0, -1.0)},
    )
    assert bought(a, *buy_step(6)) == "Archer"


@rules("R3.3")
def test_drafts_what_it_values() -> None:
    """The draft projects the agent's own buying: of two picks, the card it will buy."""
    pos = Position(
        board("0 . .\n. . 1", name="test", victory=BUILDINGS), catalog=[SWORDSMAN, ARCHER]
    )
    s = pos.state
    a = agent({"Swordsman": (-0.05,) * 3, "Archer": (0.05,) * 3})
    b = agent({"Swordsman": (0.05,) * 3, "Archer": (-0.05,) * 3})
    picks = [Action(ActionKind.PICK, pos.card(c, 0)) for c in (SWORDSMAN, ARCHER)]
    s.draft_seat = 0
    assert s.cards[a.draft_pick(s, picks).card].name == "Archer"
    assert s.cards[b.draft_pick(s, picks).card].name == "Swordsman"


# --- the trainer's estimate ----------------------------------------------------------------------


def test_random_buys_are_logged_with_what_was_offered() -> None:
    pos, legal = buy_step(6)
    inner = agent({})
    r = RandomBuys(inner, 1.0)
    a = r.act(pos.game(), legal, random.Random(3))
    (st, names, took) = r.log[0]
    assert st == 0 and sorted(names) == sorted([PASS, "Archer", "Giant", "Swordsman"])
    assert took == (pos.state.cards[a.card].name if a.kind is ActionKind.BUY else PASS)


def test_estimate_is_the_taken_less_the_offered_less_passing() -> None:
    """Worked out by hand, no shrinking (prior 0), five random buy steps on board B at stage 0:
    - X offered 4 times, taken twice (results 1, 1), left twice (0, 0): effect 1 - 0 = 1;
    - passing offered 5 times, taken once (0), left 4 times (1, 1, 0, 1/2): 0 - 5/8;
    - Y offered 5 times, taken twice (0, 1/2), left 3 times (1, 1, 0): 1/4 - 2/3.
    A value is the card's effect less passing's."""
    offer = ("X", PASS, "Y")
    obs = [
        ("B", 0, offer, "X", 1.0),
        ("B", 0, offer, "X", 1.0),
        ("B", 0, offer, "Y", 0.0),
        ("B", 0, offer, PASS, 0.0),
        ("B", 0, ("Y", PASS), "Y", 0.5),
    ]
    est = estimate(obs, prior=0.0)
    assert est.values["B"]["X"][0] == pytest.approx(1 + 5 / 8, abs=1e-4)
    assert est.values["B"]["Y"][0] == pytest.approx(1 / 4 - 2 / 3 + 5 / 8, abs=1e-4)
    assert est.taken["B"] == {"X": 2, "Y": 2}


def test_estimate_shrinks_a_rare_card_toward_the_pooled_value() -> None:
    """A prior of 2 steps: a card taken twice on a board keeps half its own effect."""
    obs = [
        ("B", 0, ("X", PASS), "X", 1.0),
        ("B", 0, ("X", PASS), "X", 1.0),
        ("B", 0, ("X", PASS), PASS, 0.0),
        ("B", 0, ("X", PASS), PASS, 0.0),
    ]
    # pooled = board B here: X 1 - 0 = 1, passing 0 - 1 = -1, difference 2, shrunk 2*2/4 = 1;
    # the board's own: 2, shrunk toward the pooled 1: (2*2 + 2*1) / 4 = 1.5
    est = estimate(obs, prior=2.0)
    assert est.values[POOLED]["X"][0] == pytest.approx(1.0)
    assert est.values["B"]["X"][0] == pytest.approx(1.5)


def test_split_halves_measure_the_rounds_own_noise() -> None:
    """Odd and even games with the same random steps give the same values: the halves agree at
    1, and so would two whole rounds. Halves whose cards swap their results disagree."""
    offer = ("X", "Y", PASS)

    def game(good: str) -> list[tuple[str, int, tuple[str, ...], str, float]]:
        return [
            ("B", 0, offer, good, 1.0),
            ("B", 0, offer, "Y" if good == "X" else "X", 0.0),
            ("B", 0, offer, PASS, 0.5),
        ]

    same = [game("X"), game("X"), game("X"), game("X")]
    assert split_halves(same, prior=0.0) == (
        "split halves agree at 1.00, so two rounds at 1.00 if nothing moved"
    )
    swapped = [game("X"), game("Y"), game("X"), game("Y")]
    assert split_halves(swapped, prior=0.0).startswith("split halves agree at -")


# --- deploying within the upkeep cap -------------------------------------------------------------

PIKE = unit("Pike", life=4, attack=2, upkeep=1, play=1)


def deploy_turn() -> tuple[Position, list[Action]]:
    """Seat 0's action phase, income 2 (R5.1): a Pike (upkeep 1) on the board, another in hand,
    3 resource: the heuristic deploys it, its upkeep payable next turn."""
    pos = Position(board("0 0 .\n. . 1", income=2, victory=BUILDINGS), catalog=[PIKE])
    pos.put(PIKE, 0, 0, 0)
    pos.hand(0, PIKE)
    pos.resource(0, 3)
    game = pos.game()
    return pos, game.legal_actions()


def deploys(a: ValuedAgent) -> bool:
    pos, legal = deploy_turn()
    choice = a.act(pos.game(), legal, random.Random(1))
    return choice.kind is ActionKind.PLAY


@rules("R5.1", "R5.3", "R6.8")
def test_does_not_deploy_into_the_upkeep_lock() -> None:
    """Two Pikes ask 2 upkeep of an income of 2: within a cap of 1, beyond a cap of 0.8."""
    assert deploys(ValuedAgent({}, {}))  # no cap: the heuristic's rule deploys
    assert deploys(ValuedAgent({}, {}, cap=1.0))
    assert not deploys(ValuedAgent({}, {}, cap=0.8))


@rules("R19.2")
def test_the_resource_race_buys_as_the_heuristic() -> None:
    """On the resource race the learned values are not used: a card valued highly is passed
    when the heuristic's race rule (cheap cards that gain or steal, early) passes it."""
    pos, legal = buy_step(6, victory=Victory(VictoryKind.RESOURCE, target=10**9))
    a = agent({"Swordsman": (0.5,) * 3, "Archer": (0.5,) * 3, "Giant": (0.5,) * 3})
    assert bought(a, pos, legal) == PASS


def test_the_values_module_is_written_as_the_formatter_writes_it(tmp_path: Path) -> None:
    """train-agent --buying writes a module that `ruff format` leaves alone (double quotes, a
    name with an umlaut kept as it is) and that reads back to the same values (to the 1/10,000
    it packs them in)."""
    import subprocess
    import sys

    from app.cmd_train_buying import load_values
    from workbench.training.buy_values import Trained, module_text

    cards = {f"Card {i}": (i / 100, -0.02, 0.0) for i in range(12)}  # several lines a board
    values = {POOLED: {**cards, "Knochenrüstung": (0.01, -0.02, 0.0)}, "B": cards}
    taken = {board: dict.fromkeys(rows, 3) for board, rows in values.items()}
    fallback = {POOLED: (0.001, -0.02), "B": (0.0, 0.01)}
    path = tmp_path / "values.py"
    path.write_text(module_text(Trained(values, taken, fallback, "abc", ["round 1"]), "cmd"))
    check = [sys.executable, "-m", "ruff", "format", "--check", "--quiet", str(path)]
    assert subprocess.run(check, capture_output=True).returncode == 0
    assert "Knochenrüstung" in path.read_text(encoding="utf-8")
    assert load_values(path) == (values, fallback)
