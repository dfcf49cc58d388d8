"""The search agent's rollout policy (`search:policy=valued`): its buy steps, draft picks and
rollouts follow the valued agent's learned values, on hand-built positions where those and the
heuristic's value for money disagree."""

from __future__ import annotations

import random

import pytest

from engine.actions import Action
from engine.agents.heuristic import HeuristicAgent
from engine.agents.registry import check_spec, make_agent
from engine.agents.search import SearchAgent, rest_of_turn
from engine.agents.valued import ValuedAgent
from engine.game import Game
from engine.play import Agent
from engine.vocab import ActionKind
from tests.builder import Position, board, unit
from tests.test_valued_agent import ARCHER, BUILDINGS, GIANT, SWORDSMAN, agent, buy_step

ARCHER_FIRST = {"Swordsman": (0.01,) * 3, "Archer": (0.05,) * 3, "Giant": (-0.02,) * 3}
"""Learned values that rank the Archer first and the Giant below passing; the heuristic's value
for money buys the Giant with 6 resource (test_valued_agent's buy step)."""


def bought(a: Agent, game: Game, legal: list[Action]) -> str:
    choice = a.act(game, legal, random.Random(1))
    return game.state.cards[choice.card].name if choice.kind is ActionKind.BUY else "pass"


def test_the_search_buys_by_its_policy() -> None:
    pos, legal = buy_step(6)
    assert bought(HeuristicAgent(), pos.game(), legal) == "Giant"
    assert bought(SearchAgent(budget=4), pos.game(), legal) == "Giant"
    valued = SearchAgent(budget=4, policy=agent(ARCHER_FIRST))
    assert bought(valued, pos.game(), legal) == "Archer"


def test_the_rollouts_buy_by_the_policy() -> None:
    """Stage 1 plays the rest of the seat's turn, its buy step (R7) included, by the policy:
    from a pass in the action phase with 6 resource, the heuristic ends the turn with a Giant
    bought and nothing left, the valued agent with an Archer (2) and 4 left."""
    pos = Position(
        board("0 . .\n. . 1", name="test", victory=BUILDINGS),
        catalog=[SWORDSMAN, ARCHER, GIANT],
    )
    pos.store(0, SWORDSMAN, ARCHER, GIANT)
    pos.resource(0, 6)
    world = pos.game()
    (end_action,) = world.legal_actions()  # nothing to play: only passing the action phase
    for policy, card, left in ((HeuristicAgent(), "Giant", 0), (agent(ARCHER_FIRST), "Archer", 4)):
        end = rest_of_turn(world, end_action, policy)
        me = end.state.players[0]
        assert end.state.turn == world.state.turn + 1
        assert [end.state.cards[c].name for c in me.discard + me.deck + me.hand] == [card]
        assert me.resource == left


def test_the_search_drafts_by_its_policy() -> None:
    """The valued agent's drafter projects its own buying: of two picks, the card it values."""
    pos = Position(
        board("0 . .\n. . 1", name="test", victory=BUILDINGS), catalog=[SWORDSMAN, ARCHER]
    )
    s = pos.state
    s.draft_seat = 0
    game = pos.game(phase="draft")
    picks = [Action(ActionKind.PICK, pos.card(c, 0)) for c in (SWORDSMAN, ARCHER)]
    for table, card in (
        ({"Swordsman": (-0.05,) * 3, "Archer": (0.05,) * 3}, "Archer"),
        ({"Swordsman": (0.05,) * 3, "Archer": (-0.05,) * 3}, "Swordsman"),
    ):
        search = SearchAgent(budget=4, policy=agent(table))
        assert s.cards[search.act(game, picks, random.Random(1)).card].name == card


# --- the spec ------------------------------------------------------------------------------------

SHIELDBEARER = unit("Shieldbearer", life=6, attack=3, buy=3)
LONGBOWMAN = unit("Longbowman", life=1, attack=1, range_=2, buy=3)
"""Named after cards of the shipped data: its pooled values put a Longbowman far above a
Shieldbearer early on, while the heuristic's value for money prefers this strong Shieldbearer."""


def test_the_spec_builds_a_search_buying_as_the_valued_agent() -> None:
    assert check_spec("search:budget=4+policy=valued") == (
        "search",
        {"budget": "4", "policy": "valued"},
    )
    pos = Position(
        board("0 . .\n. . 1", name="test", victory=BUILDINGS), catalog=[SHIELDBEARER, LONGBOWMAN]
    )
    pos.store(0, SHIELDBEARER, LONGBOWMAN)
    pos.resource(0, 3)
    pos.state.round = 2
    game = pos.game(phase="buy")
    legal = game.legal_actions()
    valued = make_agent("valued")
    assert isinstance(valued, ValuedAgent)
    assert bought(valued, game, legal) == "Longbowman"
    assert bought(make_agent("search:budget=4"), game, legal) == "Shieldbearer"
    assert bought(make_agent("search:budget=4+policy=heuristic"), game, legal) == "Shieldbearer"
    assert bought(make_agent("search:budget=4+policy=valued"), game, legal) == "Longbowman"


def test_an_unknown_policy_is_refused() -> None:
    with pytest.raises(ValueError, match="policy must be one of heuristic, valued, not 'valud'"):
        make_agent("search:budget=4+policy=valud")
