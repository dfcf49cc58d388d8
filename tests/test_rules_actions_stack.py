"""Actions, the action stack and response windows, spells (R6, R16, R21.6)."""

from __future__ import annotations

import pytest

from engine.actions import Action
from engine.markers import Marker
from engine.vocab import ActionKind
from tests.builder import (
    Cost,
    FreeAction,
    Position,
    Trigger,
    act,
    artifact,
    board,
    eff,
    events,
    spell,
    texts,
    tgt,
    unit,
)
from tests.rules import rules

B = board("0 0 . . .\n. . . . .\n. . . 1 1")
SOLDIER = unit("Soldier", life=3, attack=1)
BOLT = spell("Bolt", eff("damage", 1, tgt("unit", "enemy")), play=1)
COIN = spell("Coin", eff("gain", 1), play=0)
ZAP = spell("Zap", eff("damage", 1, tgt("unit", "enemy")), play=0)


def legal(g) -> list[str]:
    return texts(g.legal_actions(), g.state.config.board.width)


def resolved(g) -> list[str]:
    return [e[0] for e in events(g.state, "resolve")]


@rules("R6.1")
def test_trigger_starts_a_triggered_action():
    martyr = unit("Martyr", life=1, triggers=(Trigger("dies", (eff("gain", 2),)),))
    pos = Position(B, [martyr, ZAP])
    pos.idle(0)
    m = pos.put(martyr, 1, 2, 1, damage=1)
    z = pos.hand(0, ZAP)[0]
    g = pos.game()
    act(g, "play", z, target=m)
    s = g.state
    assert m not in s.perms and s.players[1].resource == 2
    assert ("Martyr", "", -1, -1, 0, "dies") in events(s, "trigger")


@rules("R6.2", "R6.4")
def test_play_cost_paid_at_announcement():
    pos = Position(B, [BOLT, SOLDIER]).resource(0, 1)
    pos.idle(0)
    e = pos.put(SOLDIER, 1, 2, 2)
    b = pos.hand(0, BOLT)[0]
    pos.hand(1, COIN)  # seat 1 may respond with a fast action
    g = pos.game()
    act(g, "play", b, target=e, respond=True)
    s = g.state
    assert s.players[0].resource == 0 and s.zone_of(b) == "stack" and g.current_player() == 1
    assert pos.perm(e).damage == 0  # not resolved yet
    act(g, "pass")
    assert pos.perm(e).damage == 1 and s.zone_of(b) == "discard0"


@rules("R6.2")
def test_no_play_cost_cannot_be_played():
    relic = spell("Relic", eff("gain", 5), play=None)
    pos = Position(B, [relic]).resource(0, 9)
    pos.idle(0)
    r = pos.hand(0, relic)[0]
    assert not any(t.startswith(f"play c{r}") for t in legal(pos.game()))


@rules("R6.3")
def test_using_a_unit_is_an_action_on_the_stack():
    pos = Position(B, [SOLDIER])
    a = pos.put(SOLDIER, 0, 0, 0)
    pos.hand(1, COIN)
    g = pos.game()
    act(g, "activate", a)
    act(g, "move", a, field=2, respond=True)
    s = g.state
    assert s.stack and s.stack[-1].kind == "unit" and s.stack[-1].verb == "move"
    assert pos.perm(a).field == 0
    act(g, "pass")
    assert pos.perm(a).field == 2


@rules("R6.4")
def test_targets_are_checked_again_when_the_action_resolves():
    cultist = unit("Cultist", free_actions=(FreeAction(Cost(sacrifice=True), (eff("gain", 1),)),))
    pos = Position(B, [BOLT, cultist]).resource(0, 1)
    pos.idle(0)
    c = pos.put(cultist, 1, 2, 2)
    b = pos.hand(0, BOLT)[0]
    g = pos.game()
    act(g, "play", b, target=c, respond=True)
    assert g.current_player() == 1
    act(g, "free", c, index=0)  # responds by sacrificing the target
    s = g.state
    assert c not in s.perms and s.players[1].resource == 1
    assert s.players[0].resource == 0 and s.zone_of(b) == "discard0"  # cost stays paid
    assert [e[:2] for e in events(s, "fizzle")] == [("Bolt", "Cultist")]


@rules("R6.4")
def test_all_effects_at_once():
    strike = spell("Strike", eff("damage", 1, tgt("unit", "enemy")), eff("draw", 1), play=0)
    pos = Position(B, [strike, SOLDIER, COIN])
    pos.idle(0)
    e = pos.put(SOLDIER, 1, 2, 2)
    s_ = pos.hand(0, strike)[0]
    pos.deck(0, COIN)
    g = pos.game()
    act(g, "play", s_, target=e)
    assert pos.perm(e).damage == 1 and len(g.state.players[0].hand) == 1


@rules("R6.4")
def test_a_shared_target_takes_only_the_effects_that_may_target_it():
    """R6.4 with the reading "one chosen target per card": `protect 1 to target friendly unit,
    destroy target enemy unit` names a friendly unit; only the protection reaches it. The
    destroy used to hit the player's own unit, whatever its side or range (found by the
    fuzzer with the referee)."""
    mixed = spell(
        "Mixed",
        eff("protect", 1, tgt("unit", "friendly")),
        eff("destroy", 1, tgt("unit", "enemy")),
        play=0,
    )
    pos = Position(B, [mixed, SOLDIER])
    a = pos.put(SOLDIER, 0, 0, 0)
    pos.put(SOLDIER, 1, 3, 2)
    m = pos.hand(0, mixed)[0]
    g = pos.game()
    act(g, "play", m, target=a)
    assert a in g.state.perms and pos.perm(a).markers[Marker.PROTECTION] == 1


@rules("R6.4", "R10.1")
@pytest.mark.parametrize(("start", "origin", "hit"), [(1, 0, 1), (3, 4, 0)])
def test_a_shared_targets_range_is_checked_when_the_action_resolves(start, origin, hit):
    """R6.4 with R10.1: "push 2 to target enemy unit in range 3, damage 1 to target enemy
    unit in range 1" (a spell: its ranges count from its controller's relic at (0, 0)). The
    target's range for each effect is checked when the action resolves, before any effect:
    next to the relic it takes the damage though the push carried it away first; 3 away it
    takes none though the push brought it next to the relic. The damage's range used to be
    measured after the push."""
    soldier, relic = unit("Soldier", life=3), artifact("Relic")
    hurl = spell(
        "Hurl",
        eff("push", 2, tgt("unit", "enemy", range_=3)),
        eff("damage", 1, tgt("unit", "enemy", range_=1)),
        play=0,
    )
    pos = Position(board(". . . . .\n. . . . ."), [soldier, relic, hurl])
    pos.put(relic, 0, 0, 0)
    e = pos.put(soldier, 1, start, 0)
    pos.idle(1, 0, 1)
    (h,) = pos.hand(0, hurl)
    g = pos.game()
    act(g, "play", h, target=e, field=pos.f(origin, 0))
    assert pos.perm(e).field == pos.f(start + (2 if origin < start else -2), 0)
    assert pos.perm(e).damage == hit


@rules("R6.4")
def test_two_discards_in_one_resolution_take_what_the_hand_holds_then():
    """R6.4: `discard 1, discard 1` with one card in hand discards it; the second discard
    finds the hand empty and asks nothing (it used to stop the game: no legal action)."""
    purge = spell("Purge", eff("discard", 1), eff("discard", 1), play=0)
    pos = Position(B, [purge, COIN])
    pos.idle(0)
    p, c = pos.hand(0, purge, COIN)
    g = pos.game()
    act(g, "play", p)
    s = g.state
    assert not s.pending and s.players[0].hand == [] and sorted(s.players[0].discard) == [p, c]
    assert "pass" in legal(g)


@rules("R6.4")
def test_discard_0_discards_nothing():
    """R6.4: an effect of `discard 0` has nothing to do (it used to discard a card)."""
    none = spell("Nothing", eff("discard", 0), play=0)
    pos = Position(B, [none, COIN])
    pos.idle(0)
    n, c = pos.hand(0, none, COIN)
    g = pos.game()
    act(g, "play", n)
    s = g.state
    assert not s.pending and s.players[0].hand == [c] and s.players[0].discard == [n]


@rules("R6.5", "R6.6")
def test_in_a_response_only_fast_actions():
    pos = Position(B, [SOLDIER, ZAP, COIN]).resource(1, 5)
    a = pos.put(SOLDIER, 0, 0, 0)
    e = pos.put(SOLDIER, 1, 3, 2)
    z = pos.hand(1, ZAP)[0]
    pos.hand(1, SOLDIER)
    g = pos.game()
    act(g, "activate", a)
    act(g, "move", a, field=2, respond=True)
    assert g.current_player() == 1
    # perft: pass, Zap on seat 0's soldier, convert (2 cards) -- no unit play, no activation
    assert legal(g) == sorted(["pass", f"play c{z} c{a}", "convert"])
    del e


@rules("R6.7")
def test_free_action_cost_must_be_paid():
    well = unit("Well", free_actions=(FreeAction(Cost(resource=2), (eff("draw", 1),)),))
    pos = Position(B, [well]).resource(0, 1)
    w = pos.put(well, 0, 0, 0)
    g = pos.game()
    assert f"free c{w} #0" not in legal(g)
    g.state.players[0].resource = 2
    from engine.legal import legal_actions

    assert f"free c{w} #0" in texts(legal_actions(g.state), 5)


@rules("R6.8")
def test_perft_main_phase_choices():
    pos = Position(B, [SOLDIER, COIN]).resource(0, 1)
    a = pos.put(SOLDIER, 0, 2, 1)
    t = pos.put(SOLDIER, 0, 3, 1, tapped=True)
    h = pos.hand(0, SOLDIER, COIN)
    g = pos.game()
    # pass; the soldier on 2 free deploy fields; Coin; activate the untapped unit; convert
    assert legal(g) == sorted(
        [
            "pass",
            f"play c{h[0]} @0,0",
            f"play c{h[0]} @1,0",
            f"play c{h[1]}",
            f"activate c{a}",
            "convert",
        ]
    )
    assert len(g.legal_actions()) == 6
    del t


@rules("R6.9")
def test_last_in_resolves_first():
    pos = Position(B, [COIN, BOLT, SOLDIER]).resource(0, 1)
    pos.idle(0)
    e = pos.put(SOLDIER, 1, 2, 2)
    b = pos.hand(0, BOLT)[0]
    c1 = pos.hand(1, COIN)[0]
    pos.hand(1, COIN)
    g = pos.game()
    act(g, "play", b, target=e, respond=True)
    act(g, "play", c1, respond=True)  # seat 1 answers with Coin
    play_rest = g.state
    while play_rest.priority:
        g.apply(Action(ActionKind.PASS))
    assert resolved(g) == ["Coin", "Bolt"]


@rules("R21.6")
def test_response_order_other_players_in_seat_order_then_active():
    b3 = board("0 . . 1\n. . . 2", players=3)
    pos = Position(b3, [COIN, SOLDIER])
    pos.idle(0)
    a = pos.put(SOLDIER, 0, 0, 0)
    for seat in (0, 1, 2):
        pos.hand(seat, COIN, COIN)
    pos.state.active = 0
    g = pos.game()
    act(g, "activate", a)
    act(g, "move", a, field=1, respond=True)
    order = []
    while g.state.priority:
        order.append(g.current_player())
        g.apply(Action(ActionKind.PASS))
    assert order == [1, 2, 0]


@rules("R21.6")
def test_a_response_reopens_the_window():
    pos = Position(B, [COIN, SOLDIER])
    pos.idle(0)
    a = pos.put(SOLDIER, 0, 0, 0)
    pos.hand(0, COIN, COIN)
    c = pos.hand(1, COIN, COIN)
    g = pos.game()
    act(g, "activate", a)
    act(g, "move", a, field=1, respond=True)
    act(g, "play", c[0], respond=True)
    assert g.state.priority == [1, 0] and len(g.state.stack) == 2


@rules("R16.1")
def test_spell_goes_to_discard_after_resolving():
    pos = Position(B, [COIN])
    pos.idle(0)
    c = pos.hand(0, COIN)[0]
    g = pos.game()
    act(g, "play", c)
    assert g.state.zone_of(c) == "discard0" and g.state.players[0].resource == 1
