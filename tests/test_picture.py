"""The text picture of a game state (engine/picture.py): a stored golden position, and every
state of a played game drawn without error with every permanent in its legend."""

from __future__ import annotations

import random

from engine.game import Game
from engine.picture import picture
from engine.state import StackItem
from engine.vocab import StackKind, UnitVerb
from tests.builder import Position, artifact, board, equipment, unit

SOLDIER = unit("Soldier", life=3)
ARCHER = unit("Long Bow", life=2, range_=3)
KEEP = artifact("Keep", solid=5)
SWORD = equipment("Sword")

EXPECTED = """\
test  round 1  turn 1  phase main  active p1
    0   1   2   3
 0 1S+  .   ~  nKe
 1  .  2LB  #   .
 2  .   .   .   .

c0  So Soldier  p1  @0,0  dmg 1/3  poison 1  stack: Sword (c1)
c2  LB Long Bow  p2  @1,1 ^  dmg 0/2  tapped
c3  Ke Keep  neutral  @3,0  dmg 0/5

*p1  resource 4  points 0  hand 2  deck 0  discard 0  store 1
 p2  resource 0  points 2  hand 0  deck 1  discard 0  store 0
stack: p2 attack Long Bow (c2) -> Soldier (c0)"""


def small_position() -> Position:
    """Terrain of every kind, a stack, a neutral artifact, markers, zones and the stack."""
    pos = Position(board("0 . ~ .\n. ^ # .\n. . . 1"), catalog=[SOLDIER, ARCHER, KEEP, SWORD])
    soldier = pos.put(SOLDIER, 0, 0, 0, damage=1, poison=1)
    pos.stack_on(soldier, SWORD)
    archer = pos.put(ARCHER, 1, 1, 1, tapped=1)
    pos.put(KEEP, -1, 3, 0)
    pos.hand(0, SOLDIER, ARCHER)
    pos.deck(1, SOLDIER)
    pos.store(0, KEEP)
    pos.resource(0, 4)
    pos.state.players[1].points = 2
    pos.state.stack.append(
        StackItem(StackKind.UNIT, 1, archer, target=soldier, verb=UnitVerb.ATTACK)
    )
    return pos


def test_small_position_matches_the_stored_picture() -> None:
    assert picture(small_position().state) == EXPECTED


def test_pending_decisions_and_the_end_are_shown() -> None:
    pos = small_position()
    s = pos.state
    s.stack.clear()
    s.winners, s.reason = (1,), "vip defeated"
    text = picture(s)
    assert text.splitlines()[0].endswith("over: p2 won (vip defeated)")
    assert text.splitlines()[-1] == "stack: empty"


def test_every_state_of_a_played_game_is_drawn(shipped) -> None:  # type: ignore[no-untyped-def]
    """Each permanent on a field appears once in the legend, whatever the game did."""
    game = Game(shipped.setup(["iron-legion", "tide-callers"], "kings-crossing").config, 11)
    rng = random.Random(11)
    while not game.is_terminal():
        game.apply(rng.choice(game.legal_actions()))
        s = game.state
        if s.phase != "draft":
            text = picture(s)
            on_fields = [c for c, p in s.perms.items() if p.under < 0]
            assert sum(
                line.startswith(f"c{c} ") for c in on_fields for line in text.splitlines()
            ) == len(on_fields)
    assert "over:" in picture(game.state).splitlines()[0]
