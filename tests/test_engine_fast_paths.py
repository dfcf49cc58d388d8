"""The engine's short cuts give the answers of the rules' plain reading: a
move's destinations kept by the occupancy of the fields in range of its movement only (R10.3),
the search listing them in order of cost, targets in a stack still veiled or protected by
their equipment (R11.4, R21.11), and what each card type counts as (R8.4, R15.5, R15.8)."""

from __future__ import annotations

import random

import pytest

from engine.behaviours import _REACH, destinations
from engine.cards import CardType
from engine.effects import candidates
from engine.geometry import Geometry
from engine.permanents import is_swimming, movement, terrain_ok
from engine.state import GameState, Perm
from tests.builder import (
    Keywords,
    Modifiers,
    Position,
    Protection,
    board,
    equipment,
    spell,
    tgt,
    unit,
)
from tests.rules import rules
from tests.test_geometry import _brute_force, open_board
from tests.test_search_speed import midgame_states

ROOM = board(
    """
0 . . . . . . .
. . # . . . . .
. . # . ~ . . .
. . . . ~ . . .
. . . . . . . 1
"""
)
RUNNER = unit("Runner", life=3, move=3, attack=1)


def _whole_board(s: GameState, p: Perm) -> dict[int, tuple[int, ...]]:
    """R10.3 read plainly: a search over the whole board, every field asked."""
    card = s.cards[p.cid]
    swimming, only = is_swimming(s, p), card.keywords.moves_on
    fields = s.config.board.fields

    def passable(f: int) -> bool:
        if s.occ[f] >= 0 or not terrain_ok(s, card, swimming, f):
            return False
        return only is None or fields[f].terrain.value in only

    return s.config.geometry.reach(s.perm_field(p), movement(s, p), passable)


@rules("R10.3")
@pytest.mark.parametrize("board_name", ["kings-crossing", "drowned-sanctum", "three-hills"])
def test_destinations_equal_the_whole_boards_answer(board_name: str) -> None:
    """The kept answers (from any earlier position with the same fields free around the unit)
    are the whole board's answer, destination for destination and in the same order."""
    _REACH.answers.clear()
    checked = 0
    for game in midgame_states(board_name, 5):
        s = game.state
        for p in list(s.perms.values()):
            if s.cards[p.cid].type is CardType.UNIT and p.field >= 0 and movement(s, p) > 0:
                assert list(destinations(s, p).items()) == list(_whole_board(s, p).items())
                checked += 1
    assert checked > 20


@rules("R10.3")
def test_a_move_is_kept_by_the_fields_in_reach_only() -> None:
    """R10.3: a unit with movement 3 on (1,2) reaches nothing beyond range 3, so a unit put
    down at (7,0) changes nothing (the kept answer serves), one at (1,3) closes that field."""
    pos = Position(ROOM, [RUNNER])
    r = pos.put(RUNNER, 0, 1, 2)
    s = pos.state
    before = destinations(s, pos.perm(r))
    assert before == _whole_board(s, pos.perm(r)) and pos.f(1, 3) in before
    far = pos.put(RUNNER, 1, 7, 0)
    assert s.config.geometry.dist(pos.f(1, 2), pos.f(7, 0)) > 3
    assert destinations(s, pos.perm(r)) is before
    s.perms[far].field = -1
    s.occ[pos.f(7, 0)] = -1
    pos.put(RUNNER, 1, 1, 3)
    after = destinations(s, pos.perm(r))
    assert pos.f(1, 3) not in after
    assert list(after.items()) == list(_whole_board(s, pos.perm(r)).items())


@rules("R10.3")
def test_reach_lists_destinations_in_order_of_cost() -> None:
    """R10.3: the destinations come cheapest first, each by its cheapest path."""
    rng = random.Random(16)
    for _ in range(150):
        geo = Geometry(open_board(rng.randint(2, 7), rng.randint(2, 7)))
        passable = [rng.random() < 0.75 for _ in range(geo.size)]
        start, move = rng.randrange(geo.size), rng.randint(1, 4)
        got = geo.reach(start, move, passable)
        best = _brute_force(geo, start, move, passable)
        costs = [best[f][0] for f in got]
        assert costs == sorted(costs) and set(got) == set(best)


@rules("R11.4", "R21.11")
def test_equipment_in_a_stack_keeps_its_unit_from_being_targeted() -> None:
    """R11.4 with R21.11: a cloak that veils and a charm with protection from spells keep their
    units from being targeted, not from an effect's `each`; R10.1: a range counts from the
    source permanent."""
    bolt = spell("Bolt")
    cloak = equipment("Cloak", modifiers=Modifiers(keywords=Keywords(veiled=True)))
    charm = equipment(
        "Charm",
        modifiers=Modifiers(keywords=Keywords(protections=(Protection(type=CardType.SPELL),))),
    )
    pos = Position(ROOM, [RUNNER, bolt, cloak, charm])
    mine = pos.put(RUNNER, 0, 0, 0)
    near = pos.put(RUNNER, 1, 2, 0)
    veiled = pos.put(RUNNER, 1, 5, 4)
    pos.stack_on(veiled, cloak)
    charmed = pos.put(RUNNER, 1, 6, 4)
    pos.stack_on(charmed, charm)
    bare = pos.put(RUNNER, 1, 7, 3)
    (b,) = pos.hand(0, bolt)
    s = pos.state
    enemy_unit = tgt("unit", "enemy")
    assert candidates(s, 0, b, enemy_unit, targeting=True) == [near, bare]
    assert candidates(s, 0, b, enemy_unit, targeting=False) == [near, veiled, charmed, bare]
    # R10.1: from one permanent, range 2 reaches (2,0) only
    assert candidates(s, 0, mine, tgt("unit", "enemy", range_=2), targeting=True) == [near]


@rules("R8.4", "R15.5", "R15.8")
def test_each_card_type_counts_as_the_rules_say() -> None:
    """R8.4: units, artifacts, equipment and potions are permanents; R15.5: equipment is an
    artifact; R15.8: a potion is equipment (and so an artifact)."""
    table = {t: (t.is_permanent, t.is_artifact, t.is_equipment) for t in CardType}
    assert table == {
        CardType.UNIT: (True, False, False),
        CardType.SPELL: (False, False, False),
        CardType.ARTIFACT: (True, True, False),
        CardType.EQUIPMENT: (True, True, True),
        CardType.POTION: (True, True, True),
        CardType.INTENTION: (False, False, False),
    }
    assert CardType("potion") is CardType.POTION and CardType.UNIT.value == "unit"
