"""Who a response window (R21.6) is offered to: every player who has a fast action then (R6.6:
a spell, R16.1; a free action, R6.7, R9.3, R15.8; discarding 2 cards, R8.6) is asked, and a
player who can only pass is not (the flow passes for it, `engine.legal.may_respond`)."""

from __future__ import annotations

import dataclasses

import pytest

from engine.cards import Card
from tests.builder import (
    Cost,
    FreeAction,
    Position,
    act,
    artifact,
    board,
    eff,
    potion,
    spell,
    texts,
    tgt,
    unit,
)
from tests.rules import rules

SOLDIER = unit("Soldier", life=3, attack=1)
ZAP = spell("Zap", eff("damage", 1, tgt("unit", "enemy")), play=0)
BLAST = spell("Blast", eff("damage", 2, tgt("unit", "enemy")), play=2)
MEND = spell("Mend", eff("heal", 1, tgt("unit", "friendly")), play=0)
GAIN = FreeAction(Cost(), (eff("gain", 1),))
DEAR = FreeAction(Cost(resource=2), (eff("gain", 3),))
CHEST = artifact("Chest", free_actions=(GAIN,))
VAULT = artifact("Vault", free_actions=(DEAR,))
TONIC = potion("Tonic", free=(GAIN,))


def _shrine_board(action: FreeAction):
    """Seat 0 deploys at the top left, seat 1 at the bottom right; (4,2) grants `action`."""
    plain = board("0 0 . . .\n. . . . .\n. . . 1 1")
    fields = list(plain.fields)
    fields[14] = dataclasses.replace(fields[14], mark="s", actions=(action,))
    return dataclasses.replace(plain, fields=tuple(fields))


def _moved(pos: Position):
    """Seat 0 moves its soldier from (0,0) to (1,0), leaving the response window open."""
    a = pos.put(SOLDIER, 0, 0, 0)
    pos.idle(0, 2, 1)
    g = pos.game()
    act(g, "activate", a)
    act(g, "move", a, field=1, respond=True)
    return g, a


def _legal(g) -> list[str]:
    return texts(g.legal_actions(), g.state.config.board.width)


@rules("R21.6", "R6.6", "R16.1")
def test_a_player_holding_one_spell_it_can_pay_is_asked():
    """R21.6, R16.1: one card in hand, a 0-cost spell with a target: seat 1 may answer."""
    pos = Position(_shrine_board(GAIN), [SOLDIER, ZAP])
    z = pos.hand(1, ZAP)[0]
    g, a = _moved(pos)
    assert g.current_player() == 1 and g.state.stack
    assert {"pass", f"play c{z} c{a}"} <= set(_legal(g))


@pytest.mark.parametrize("card", [CHEST, TONIC], ids=["artifact", "equipped potion"])
@rules("R21.6", "R6.7", "R15.8")
def test_a_player_with_a_free_action_and_no_hand_is_asked(card: Card):
    """R21.6, R6.7: a permanent's free action, an equipped potion's too (R15.8), with an
    empty hand: seat 1 may answer."""
    pos = Position(_shrine_board(GAIN), [SOLDIER, card])
    if card is TONIC:
        c = pos.stack_on(pos.put(SOLDIER, 1, 4, 0), TONIC)
    else:
        c = pos.put(card, 1, 4, 0)
    g, _ = _moved(pos)
    assert g.current_player() == 1 and _legal(g) == [f"free c{c} #0", "pass"]


@rules("R21.6", "R9.3")
def test_a_player_whose_unit_stands_on_a_field_granting_a_free_action_is_asked():
    """R21.6, R9.3: the field's free action is the unit's; seat 1 may answer with it."""
    pos = Position(_shrine_board(GAIN), [SOLDIER])
    u = pos.put(SOLDIER, 1, 4, 2)
    g, _ = _moved(pos)
    assert g.current_player() == 1 and _legal(g) == [f"free c{u} #100", "pass"]


@rules("R21.6", "R8.6")
def test_a_player_holding_two_cards_is_asked():
    """R21.6, R8.6: two cards in hand can be discarded for 1 resource, spells or not."""
    pos = Position(_shrine_board(GAIN), [SOLDIER])
    pos.hand(1, SOLDIER, SOLDIER)
    g, _ = _moved(pos)
    assert g.current_player() == 1 and _legal(g) == ["convert", "pass"]


@rules("R21.6", "R6.6", "R6.7", "R15.8", "R9.3")
def test_a_player_who_can_only_pass_is_not_asked():
    """R21.6: a spell it cannot pay (R16.1), a free action dearer than its resource (R6.7),
    a potion not equipped (R15.8), a field action it cannot pay (R9.3), one card in hand
    (R8.6): seat 1 can only pass, so the move resolves without asking it; seat 0 decides
    next."""
    pos = Position(_shrine_board(DEAR), [SOLDIER, BLAST, VAULT, TONIC])
    pos.resource(1, 1)
    pos.hand(1, BLAST)
    pos.put(VAULT, 1, 4, 0)
    pos.put(TONIC, 1, 3, 0)
    pos.put(SOLDIER, 1, 4, 2)
    g, a = _moved(pos)
    assert not g.state.stack and g.state.perms[a].field == 1
    assert g.current_player() == 0 and g.state.action_log[-1] == f"move c{a} @1"


@rules("R21.6", "R6.4")
def test_a_spell_without_a_legal_target_does_not_open_the_window():
    """R21.6, R6.4: a 0-cost spell for a friendly unit, and seat 1 has none: only passing."""
    pos = Position(_shrine_board(GAIN), [SOLDIER, MEND])
    pos.hand(1, MEND)
    g, a = _moved(pos)
    assert not g.state.stack and g.state.perms[a].field == 1 and g.current_player() == 0
