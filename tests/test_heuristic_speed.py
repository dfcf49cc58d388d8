"""The heuristic's shortcuts change its speed, never its scores: the answers
it keeps beyond one decision (a field's danger per enemy threats, a store card's value for
money per weights) equal freshly computed ones, and a change of what they depend on is not
served a stale answer. That whole games play as recorded is tests/test_golden_games.py."""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine.agents import buy_policy
from engine.agents.buy_policy import buy_value, seat_income
from engine.agents.registry import make_agent
from engine.agents.values import View
from engine.agents.weights import DEFAULT
from engine.cards import CardType
from engine.game import Game
from engine.markers import Marker
from engine.state import GameState
from engine.vocab import ActionKind, Phase
from tests.test_search_speed import SETS, midgame_states
from workbench.content.setup import load_setup


def fresh_danger(v: View, f: int) -> int:
    """The attack the enemy units not paralysed could bring on f next turn (move + range)."""
    s = v.s
    total = 0
    for e in v.enemy_units:
        c = s.cards[e.cid]
        reach = (c.move or 0) + (c.range or 1)
        if not e.markers[Marker.PARALYSIS] and s.config.geometry.dist(f, e.field) <= reach:
            total += c.attack or 0
    return total


@pytest.mark.parametrize("board", ["kings-crossing", "drowned-sanctum", "tyrants-throne"])
def test_kept_dangers_equal_fresh_ones(board: str) -> None:
    """Decisions that face the same enemy threats share their fields' dangers; each is the
    fresh sum, also once an enemy unit is paralysed (other threats, other answers)."""
    shared = checked = 0
    for game in midgame_states(board, 11):
        s = game.state
        for seat in range(len(s.players)):
            v = View(s, seat)
            shared += bool(v.dangers())  # answers kept from an earlier decision
            for f in range(len(s.occ)):
                assert v.danger(f) == fresh_danger(v, f)
            if v.enemy_units:
                g = game.clone()
                target = g.state.perms[v.enemy_units[0].cid]
                target.markers[Marker.PARALYSIS] = 1 - target.markers[Marker.PARALYSIS]
                w = View(g.state, seat)
                assert all(w.danger(f) == fresh_danger(w, f) for f in range(len(s.occ)))
                checked += 1
    assert shared > 0 and checked > 0


def buy_states(board: str, seed: int) -> list[GameState]:
    """Clones of a heuristic game's states at its buy steps with cards to buy."""
    game = Game(load_setup(SETS, board).config, seed)
    h = make_agent("heuristic")
    rng = random.Random(seed)
    out: list[GameState] = []
    while not game.is_terminal() and len(out) < 12:
        s = game.state
        legal = game.legal_actions()
        buying = s.phase == Phase.BUY and not (s.pending or s.priority)
        if buying and any(a.kind == ActionKind.BUY for a in legal):
            out.append(game.clone().state)
        game.apply(h.act(game, legal, rng))
    return out


def test_kept_store_values_equal_fresh_ones_per_weights() -> None:
    """R7: a store card's value for money kept across decisions is `buy_value` under the
    decision's own weights: two weights asked in turn each get their own answer."""
    other = dataclasses.replace(DEFAULT, buy_ratio=DEFAULT.buy_ratio * 2)
    differ = 0
    for s in buy_states("kings-crossing", 4):
        for w in (DEFAULT, other, DEFAULT):
            v = View(s, s.active, w)
            deck_up = buy_policy._buy_plan(v)[0]
            for cid in s.players[s.active].store:
                card = s.cards[cid]
                want = buy_value(card, v.kind, deck_up, seat_income(v), w)
                assert buy_policy._store_value(v, cid, deck_up) == want
                if w is other and card.type is CardType.UNIT:
                    differ += want != buy_value(card, v.kind, deck_up, seat_income(v), DEFAULT)
    assert differ > 0
