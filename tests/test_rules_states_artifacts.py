"""States, push, artifacts, equipment, potions and behaviours (R13-R15, R20, R21.9-R21.11), on
small hand-built positions with answers worked out from the rule text.

Maps: '.' plain, '~' deep water, '^' high ground, a digit a seat's deploy field (tests.builder).
"""

from __future__ import annotations

import dataclasses

import pytest

from engine.actions import parse_action
from engine.invariants import check_invariants
from engine.markers import Marker
from engine.permanents import life, profile
from tests.builder import (
    Cost,
    FreeAction,
    Keywords,
    Modifiers,
    Position,
    Trigger,
    act,
    artifact,
    board,
    done,
    eff,
    equipment,
    events,
    play_out,
    potion,
    spell,
    tgt,
    unit,
)
from tests.pieces import DUMMY, OPEN5, SOLDIER, crew, destroy_spell, legal
from tests.rules import rules

# --- R13 states -------------------------------------------------------------------------------


@rules("R13.1")
def test_paralysed_unit_only_spends_actions_to_remove_markers():
    """R13.1: a paralysed unit takes none of its actions; it may spend either one of them to
    remove one marker (#0 spends the move, #1 the attack)."""
    pos = Position(OPEN5, [SOLDIER, DUMMY])
    a = pos.put(SOLDIER, 0, 1, 1, paralysis=2)
    pos.put(DUMMY, 1, 2, 1)
    g = pos.game()
    act(g, "activate", a)
    assert legal(g) == [f"tap c{a}", f"unparalyse c{a} #0", f"unparalyse c{a} #1"]
    act(g, "unparalyse", a, index=0)
    assert pos.perm(a).markers[Marker.PARALYSIS] == 1
    assert legal(g) == [f"tap c{a}", f"unparalyse c{a} #1"]
    act(g, "unparalyse", a, index=1)
    assert pos.perm(a).markers[Marker.PARALYSIS] == 0 and pos.perm(a).tapped


@rules("R13.1")
def test_one_marker_removed_then_the_other_action_is_free():
    pos = Position(OPEN5, [SOLDIER, DUMMY])
    a = pos.put(SOLDIER, 0, 1, 1, paralysis=1)
    d = pos.put(DUMMY, 1, 2, 1)
    g = pos.game()
    act(g, "activate", a)
    act(g, "unparalyse", a, index=0)  # spends the move
    opts = legal(g)
    assert f"attack c{a} c{d}" in opts and not any(t.startswith("move") for t in opts)


@rules("R13.1")
def test_the_player_chooses_which_action_removes_paralysis():
    """R13.1 "eine beliebige Aktion": spending the attack leaves the move."""
    pos = Position(OPEN5, [SOLDIER, DUMMY])
    a = pos.put(SOLDIER, 0, 1, 1, paralysis=1)
    d = pos.put(DUMMY, 1, 2, 1)
    g = pos.game()
    act(g, "activate", a)
    assert all(parse_action(x.text(5), 5) == x for x in g.legal_actions())  # `#1` reads back
    act(g, "unparalyse", a, index=1)  # spends the attack
    opts = legal(g)
    assert f"move c{a} @1,2" in opts and f"attack c{a} c{d}" not in opts
    act(g, "move", a, field=pos.f(1, 3))
    assert pos.perm(a).field == pos.f(1, 3) and pos.perm(a).tapped


@rules("R13.1")
def test_a_paralysed_unit_with_panic_does_not_move():
    """R13.1: a paralysed unit takes none of its actions, a behaviour's neither. R13.3: the
    activation still removes a panic marker; the paralysis marker stays."""
    b = board(". . . . . .")
    pos = Position(b, [SOLDIER])
    pos.put(SOLDIER, 1, 0, 0)
    a = pos.put(SOLDIER, 0, 1, 0, panic=2, paralysis=1)
    pos.idle(0, 5, 0)
    g = pos.game()
    act(g, "activate", a)
    p = pos.perm(a)
    assert p.field == 1 and p.tapped
    assert p.markers[Marker.PANIC] == 1 and p.markers[Marker.PARALYSIS] == 1
    assert not events(g.state, "move")


@rules("R13.1")
def test_a_paralysed_unit_with_rage_does_not_attack():
    """R13.1 with R13.4: the raging, paralysed unit neither moves nor attacks."""
    pos = Position(OPEN5, [SOLDIER])
    a = pos.put(SOLDIER, 0, 1, 1, rage=1, paralysis=1)
    e = pos.put(SOLDIER, 1, 2, 1)
    pos.idle(0, 0, 4)
    g = pos.game()
    act(g, "activate", a)
    p = pos.perm(a)
    assert pos.perm(e).damage == 0 and p.damage == 0 and p.field == pos.f(1, 1)
    assert p.markers[Marker.RAGE] == 0 and p.markers[Marker.PARALYSIS] == 1 and p.tapped


@rules("R13.1")
def test_a_unit_paralysed_during_its_rage_takes_no_further_action():
    """R13.1 with R13.4: the raging unit's move is on the stack when a response paralyses it;
    the move resolves (it was announced unparalysed), but the behaviour announces no attack
    after it. It used to attack with its paralysis marker on (seen by the referee)."""
    freeze = spell("Freeze", eff("paralyse", 1, tgt("unit")), play=0)
    pos = Position(board(". . . . . ."), [SOLDIER, freeze])
    a = pos.put(SOLDIER, 0, 0, 0, rage=1)
    e = pos.put(SOLDIER, 1, 3, 0)
    f = pos.hand(1, freeze)[0]
    pos.idle(0, 5, 0)
    g = pos.game()
    act(g, "activate", a, respond=True)  # rage: the behaviour announces its move
    act(g, "play", f, target=a)
    p = pos.perm(a)
    assert p.field == pos.f(2, 0) and p.markers[Marker.PARALYSIS] == 1 and p.tapped
    assert pos.perm(e).damage == 0 and not [
        x for x in events(g.state, "announce") if x[5] == "unit:attack"
    ]


BEARER = unit(
    "Bearer",
    life=4,
    move=1,
    free_actions=(
        FreeAction(Cost(resource=1), (eff("protect", 1, tgt("unit", "friendly", range_=1)),)),
    ),
)
"""Shieldbearer's free action: pay 1, a protection marker on an adjacent friendly unit."""


@rules("R21.22", "R13.1")
@pytest.mark.parametrize("source", ["own", "potion", "field"])
def test_a_paralysed_unit_takes_no_free_action(source):
    """R21.22: a paralysed unit takes none of its actions, its free actions included (a
    Shieldbearer protecting a neighbour), nor those its equipped potion (R15.8) or its field
    (a shrine's "pay 1: heal 2", R9.3) grants it; another unit's free action still targets it.
    Once it has spent its move on the marker (R13.1) the free action is its own again. The
    engine used to offer them all while paralysed (6 of 440 games)."""
    heal = FreeAction(Cost(resource=1), (eff("heal", 2, tgt("self")),))
    tonic = potion("Tonic", free=(FreeAction(Cost(sacrifice=True), (eff("gain", 2),)),))
    plain = board(". . . .\n. . . .")
    shrine = dataclasses.replace(plain.fields[1], mark="s", actions=(heal,))
    b = dataclasses.replace(plain, fields=(plain.fields[0], shrine, *plain.fields[2:]))
    pos = Position(b if source == "field" else plain, [BEARER, SOLDIER, tonic]).resource(0, 3)
    u = pos.put(BEARER if source == "own" else SOLDIER, 0, 1, 0, damage=2, paralysis=1)
    ally = pos.put(BEARER, 0, 2, 0)
    pos.idle(0, 3, 1)
    mine = pos.stack_on(u, tonic) if source == "potion" else u
    g = pos.game()
    frees = [t for t in legal(g) if t.startswith("free")]
    assert not [t for t in frees if t.startswith(f"free c{mine} ")]
    assert f"free c{ally} #0 c{u}" in frees  # still a target of others' actions
    act(g, "activate", u)
    act(g, "unparalyse", u, index=0)
    assert [t for t in legal(g) if t.startswith(f"free c{mine} ")]


@rules("R13.2")
def test_poison_grows_on_activation_and_defeats():
    pos = Position(OPEN5, [SOLDIER])
    a = pos.put(SOLDIER, 0, 1, 1, poison=2)  # life 3
    b = pos.put(SOLDIER, 0, 2, 1, poison=3)
    pos.idle()
    g = pos.game()
    act(g, "activate", a)
    assert pos.perm(a).markers[Marker.POISON] == 3 and a in g.state.perms  # 3 is not more than 3
    done(g, a)
    act(g, "activate", b)
    assert b not in g.state.perms and g.state.zone_of(b) == "discard0"


@rules("R13.1", "R13.2")
def test_paralysed_and_poisoned_at_once():
    pos = Position(OPEN5, [SOLDIER])
    a = pos.put(SOLDIER, 0, 1, 1, poison=1, paralysis=1)
    pos.idle()
    g = pos.game()
    act(g, "activate", a)
    p = pos.perm(a)
    assert p.markers[Marker.POISON] == 2 and p.markers[Marker.PARALYSIS] == 1
    assert legal(g) == [f"tap c{a}", f"unparalyse c{a} #0", f"unparalyse c{a} #1"]
    act(g, "unparalyse", a, index=0)
    done(g, a)
    assert p.markers[Marker.POISON] == 2 and p.markers[Marker.PARALYSIS] == 0 and p.tapped


@rules("R13.3", "R20.1")
def test_panic_runs_shy():
    b = board(". . . . . .")
    pos = Position(b, [SOLDIER])
    pos.put(SOLDIER, 1, 0, 0)
    a = pos.put(SOLDIER, 0, 1, 0, panic=2)
    g = pos.game()
    act(g, "activate", a)
    p = pos.perm(a)
    assert p.field == 3 and p.markers[Marker.PANIC] == 1 and p.tapped  # as far as move 2 allows


@rules("R13.4", "R20.2")
def test_rage_runs_aggressive_weakest_on_ties():
    b = board(". . . . .\n. . . . .\n. . . . .")
    pos = Position(b, [SOLDIER])
    a = pos.put(SOLDIER, 0, 0, 1, rage=1)
    strong = pos.put(SOLDIER, 1, 3, 0)
    weak = pos.put(SOLDIER, 1, 3, 2, damage=1)  # same distance, less life left
    g = pos.game()
    act(g, "activate", a)
    p = pos.perm(a)
    assert p.markers[Marker.RAGE] == 0 and p.tapped
    assert g.state.config.geometry.dist(p.field, pos.f(3, 2)) == 1
    assert pos.perm(weak).damage == 2 and pos.perm(strong).damage == 0


@rules("R20.1")
def test_shy_without_enemies_stays():
    pos = Position(OPEN5, [SOLDIER])
    a = pos.put(SOLDIER, 0, 2, 2, panic=1)
    g = pos.game()
    act(g, "activate", a)
    assert pos.perm(a).field == pos.f(2, 2) and pos.perm(a).markers[Marker.PANIC] == 0


@rules("R13.5")
def test_protection_markers_prevent_all_damage():
    ogre = unit("Ogre", life=5, attack=3)
    pos = Position(OPEN5, [ogre, DUMMY])
    o = pos.put(ogre, 0, 1, 1)
    d = pos.put(DUMMY, 1, 2, 1, protection=1)
    g = pos.game()
    act(g, "activate", o)
    act(g, "attack", o, d)
    assert pos.perm(d).damage == 0 and pos.perm(d).markers[Marker.PROTECTION] == 0


@rules("R13.5")
def test_removes_as_many_markers_as_damage_prevented():
    pos = Position(OPEN5, [SOLDIER, DUMMY])
    o = pos.put(unit("Two", attack=2), 0, 1, 1)
    d = pos.put(DUMMY, 1, 2, 1, protection=3)
    g = pos.game()
    act(g, "activate", o)
    act(g, "attack", o, d)
    assert pos.perm(d).damage == 0 and pos.perm(d).markers[Marker.PROTECTION] == 1


@rules("R21.20")
def test_armor_before_protection():
    """R21.20: armor reduces the damage first (R12.8); a protection marker prevents what is
    left (R13.5): 3 damage against armor 2 leaves 1, one marker is spent, no damage taken."""
    knight = unit("Knight", life=3, attack=0, keywords=Keywords(armor=2))
    pos = Position(OPEN5, [knight])
    o = pos.put(unit("Three", attack=3), 0, 1, 1)
    k = pos.put(knight, 1, 2, 1, protection=3)
    g = pos.game()
    act(g, "activate", o)
    act(g, "attack", o, k)
    assert pos.perm(k).damage == 0 and pos.perm(k).markers[Marker.PROTECTION] == 2


@rules("R21.20")
def test_no_marker_is_spent_when_armor_stops_all_damage():
    """R21.20: 2 damage against armor 2 leaves nothing to prevent: no marker is spent."""
    knight = unit("Knight", life=3, attack=0, keywords=Keywords(armor=2))
    pos = Position(OPEN5, [knight])
    o = pos.put(unit("Two", attack=2), 0, 1, 1)
    k = pos.put(knight, 1, 2, 1, protection=1)
    g = pos.game()
    act(g, "activate", o)
    act(g, "attack", o, k)
    assert pos.perm(k).damage == 0 and pos.perm(k).markers[Marker.PROTECTION] == 1


# --- R14 push ---------------------------------------------------------------------------------


def pusher(n: int = 1, rng: int = 1):
    return unit(
        "Pusher", attack=0, full_actions=((eff("push", n, tgt("unit", "enemy", range_=rng)),),)
    )


@rules("R14.4")
def test_push_into_deep_water_destroys():
    b = board(". . ~ .")
    pos = Position(b, [pusher(), SOLDIER])
    p = pos.put(pusher(), 0, 0, 0)
    e = pos.put(SOLDIER, 1, 1, 0)
    pos.idle(0, 3, 0)
    g = pos.game()
    act(g, "activate", p)
    act(g, "full", p, target=e, index=0)
    s = g.state
    assert e not in s.perms and s.zone_of(e) == "discard1" and s.occ[2] == -1


@rules("R14.4", "R9.4", "R9.5")
def test_push_onto_a_blocked_field_destroys():
    """R14.4 (docs/engine.md, Readings): a blocked `#` field holds no permanent, so it is free
    (R9.4) but available to none (R9.5): a permanent pushed onto it is destroyed, as in deep
    water, not stopped as by an occupied field (R14.3)."""
    b = board(". . # .")
    pos = Position(b, [pusher(), SOLDIER])
    p = pos.put(pusher(), 0, 0, 0)
    e = pos.put(SOLDIER, 1, 1, 0)
    pos.idle(0, 3, 0)
    g = pos.game()
    act(g, "activate", p)
    act(g, "full", p, target=e, index=0)
    s = g.state
    assert e not in s.perms and s.zone_of(e) == "discard1" and s.perms[p].damage == 0


@rules("R14.4")
def test_swimmer_pushed_onto_land_is_destroyed():
    shark = unit("Shark", keywords=Keywords(swimming=True))
    b = board(". ~ . .")
    pos = Position(b, [pusher(), shark])
    p = pos.put(pusher(), 0, 0, 0)
    e = pos.put(shark, 1, 1, 0)
    pos.idle(0, 3, 0)
    g = pos.game()
    act(g, "activate", p)
    act(g, "full", p, target=e, index=0)
    assert e not in g.state.perms


@rules("R14.1", "R14.2")
def test_push_x_moves_straight_away_from_the_pusher():
    b = board(". . . . . .")
    pos = Position(b, [pusher(3), SOLDIER])
    p = pos.put(pusher(3), 0, 0, 0)
    e = pos.put(SOLDIER, 1, 1, 0)
    g = pos.game()
    act(g, "activate", p)
    act(g, "full", p, target=e, index=0)
    assert pos.perm(e).field == 4 and pos.perm(e).damage == 0


@rules("R14.3")
def test_push_into_an_occupied_field_ends_with_1_damage():
    b = board(". . . . . .")
    pos = Position(b, [pusher(3), SOLDIER])
    p = pos.put(pusher(3), 0, 0, 0)
    e = pos.put(SOLDIER, 1, 1, 0)
    wall = pos.put(SOLDIER, 1, 3, 0)
    g = pos.game()
    act(g, "activate", p)
    act(g, "full", p, target=e, index=0)
    assert pos.perm(e).field == 2 and pos.perm(e).damage == 1
    assert pos.perm(wall).damage == 0 and pos.perm(wall).field == 3


@rules("R21.9")
def test_push_off_axis_steps_by_signs_and_edge_stops_without_damage():
    pos = Position(OPEN5, [pusher(5, 3), SOLDIER])
    p = pos.put(pusher(5, 3), 0, 0, 0)
    e = pos.put(SOLDIER, 1, 1, 2)  # offset (1, 2): steps of (+1, +1)
    g = pos.game()
    act(g, "activate", p)
    act(g, "full", p, target=e, index=0)
    assert pos.perm(e).field == pos.f(3, 4) and pos.perm(e).damage == 0


@rules("R14.1")
def test_a_spell_push_origin_is_chosen_by_its_controller():
    """R14.1: no permanent pushes, so the caster chooses the origin field with the play
    (R6.4). The fields next to the pushed unit give every direction (R21.9); the caster's own
    unit would push it south, the chosen origin (0,1) pushes it east into deep water (R14.4)."""
    wave = spell("Wave", eff("push", 1, tgt("unit", "enemy")), play=0)
    pos = Position(board(". . .\n. . ~\n. . ."), [wave, SOLDIER])
    pos.put(SOLDIER, 0, 1, 0)
    e = pos.put(SOLDIER, 1, 1, 1)
    w = pos.hand(0, wave)[0]
    g = pos.game()
    origins = sorted(a.field for a in g.legal_actions() if a.kind == "play" and a.card == w)
    assert origins == list(g.state.config.geometry.adjacent(pos.f(1, 1)))
    act(g, "play", w, target=e, field=pos.f(0, 1))
    assert e not in g.state.perms and g.state.zone_of(e) == "discard1"


@rules("R14.1")
def test_a_spell_pushing_each_unit_has_one_chosen_origin():
    """R14.1: one origin field for the action; the options are the fields that push the units
    differently: between them (both outward), at either end (both the same way), or below
    (every step off the board's edge, R21.9)."""
    tide = spell("Tide", eff("push", 1, tgt("unit", "enemy", each=True)), play=0)
    pos = Position(board(". . . . .\n. . . . ."), [tide, SOLDIER])
    a = pos.put(SOLDIER, 1, 1, 0)
    b = pos.put(SOLDIER, 1, 3, 0)
    pos.idle(0, 4, 1)
    t = pos.hand(0, tide)[0]
    g = pos.game()
    origins = sorted(x.field for x in g.legal_actions() if x.kind == "play" and x.card == t)
    assert origins == [pos.f(0, 0), pos.f(2, 0), pos.f(4, 0), pos.f(0, 1)]
    act(g, "play", t, field=pos.f(2, 0))
    assert pos.perm(a).field == pos.f(0, 0) and pos.perm(b).field == pos.f(4, 0)


@rules("R14.1")
def test_a_sacrificed_permanent_pushes_from_the_field_it_left():
    """R14.1: a permanent's push starts from its field; sacrificed as the cost (R6.7), it
    pushes from the field it stood on, not from its controller's other permanents."""
    pool = artifact(
        "Pool",
        free_actions=(
            FreeAction(Cost(sacrifice=True), (eff("push", 1, tgt("unit", "enemy", range_=2)),)),
        ),
    )
    pos = Position(board(". . .\n. . .\n. . ."), [pool, SOLDIER])
    p = pos.put(pool, 0, 0, 1)
    pos.put(SOLDIER, 0, 1, 0)
    e = pos.put(SOLDIER, 1, 1, 1)
    g = pos.game()
    act(g, "free", p, target=e, index=0)
    assert p not in g.state.perms and pos.perm(e).field == pos.f(2, 1)


# --- R15 artifacts, equipment, potions --------------------------------------------------------


@rules("R15.1")
def test_artifact_free_action():
    well = artifact("Well", free_actions=(FreeAction(Cost(resource=1), (eff("draw", 1),)),))
    pos = Position(OPEN5, [well, SOLDIER]).resource(0, 1)
    w = pos.put(well, 0, 2, 2)
    pos.deck(0, SOLDIER)
    g = pos.game()
    act(g, "free", w, index=0)
    s = g.state
    assert len(s.players[0].hand) == 1 and s.players[0].resource == 0


@rules("R15.2")
def test_carry_artifact_lands_next_to_the_unit():
    relic = artifact("Relic")
    b = board(". . . . .\n# # # # .")
    pos = Position(b, [relic, SOLDIER])
    u = pos.put(SOLDIER, 0, 1, 0)
    r = pos.put(relic, 0, 0, 0)
    pos.idle(0, 4, 1)
    g = pos.game()
    act(g, "activate", u)
    act(g, "carry", u, field=3, other=r)
    s = g.state
    assert pos.perm(u).field == 3
    if s.pending:  # two fields next to it: the player picks
        assert legal(g) == [f"place c{r} @2,0", f"place c{r} @4,0"]
        act(g, "place", r, field=4)
    assert pos.perm(r).field in (2, 4) and s.occ[pos.perm(r).field] == r and pos.perm(u).tapped


@rules("R15.2", "R15.7")
def test_carrying_equipment_does_not_wear_it():
    sword = equipment("Sword", durability=1)
    b = board(". . . # .")
    pos = Position(b, [sword, SOLDIER])
    u = pos.put(SOLDIER, 0, 1, 0)
    e = pos.put(sword, 0, 0, 0)
    pos.idle(0, 4, 0)
    g = pos.game()
    act(g, "activate", u)
    act(g, "carry", u, field=2, other=e)
    s = g.state
    assert e in s.perms and s.perms[e].durability == 1 and s.perms[e].field == 1


@rules("R15.3")
def test_swap_with_adjacent_artifact_uses_one_action():
    relic = artifact("Relic")
    pos = Position(OPEN5, [relic, SOLDIER, DUMMY])
    u = pos.put(SOLDIER, 0, 1, 1)
    r = pos.put(relic, 0, 2, 1)
    d = pos.put(DUMMY, 1, 4, 1)
    g = pos.game()
    act(g, "activate", u)
    act(g, "swap", u, other=r, index=0)  # spends the move
    s = g.state
    assert pos.perm(u).field == pos.f(2, 1) and pos.perm(r).field == pos.f(1, 1)
    assert s.occ[pos.f(2, 1)] == u and s.occ[pos.f(1, 1)] == r
    opts = legal(g)
    assert not any(t.startswith("move") for t in opts) and not pos.perm(u).tapped
    del d


@rules("R15.3", "R9.5")
def test_swap_only_where_both_end_on_fields_available_to_them():
    """R15.3 with R9.5: a swimmer on deep water cannot swap onto land, a land unit cannot swap
    an artifact onto deep water; a swimmer swaps with a swimming artifact on water. (The swap
    used to ignore the terrain: a swimmer ended on land, an artifact on deep water.)"""
    relic = artifact("Relic")
    buoy = artifact("Buoy", keywords=Keywords(swimming=True))
    eel = unit("Eel", keywords=Keywords(swimming=True))
    b = board(". ~ . .\n~ ~ ~ .\n. . . .")
    pos = Position(b, [relic, buoy, eel, SOLDIER])
    fish = pos.put(eel, 0, 1, 0)
    r = pos.put(relic, 0, 0, 0)
    y = pos.put(buoy, 0, 1, 1)
    u = pos.put(SOLDIER, 0, 0, 2)
    g = pos.game()
    act(g, "activate", fish)
    swaps = [t for t in legal(g) if t.startswith("swap")]
    # not onto the land of the Relic
    assert swaps == [f"swap c{fish} c{y} #0", f"swap c{fish} c{y} #1"]
    act(g, "tap", fish)
    act(g, "activate", u)
    assert not any(t.startswith("swap") for t in legal(g))  # the Buoy cannot go onto land
    del r


WAVE = spell("Wave", eff("push", 1, tgt("unit")), play=0)


def _pushed_away_in_response(verb: str, **where: int):
    """Seat 1's Soldier at (1,0) announces `verb` (an artifact or the Sword at (2,0) beside
    it); seat 2 answers with a push from (2,0): the Soldier stands at (0,0) when it resolves."""
    sword = equipment("Sword", durability=2)
    pos = Position(board(". . . . .\n. . . . ."), [SOLDIER, WAVE, sword])
    u = pos.put(SOLDIER, 0, 1, 0)
    other = pos.put(sword, 0, 2, 0)
    w = pos.hand(1, WAVE)[0]
    pos.idle(0, 4, 1)
    g = pos.game()
    act(g, "activate", u)
    act(g, verb, u, other=-1 if verb == "move" else other, respond=True, **where)
    act(g, "play", w, target=u, field=pos.f(2, 0))
    return pos, g, u, other


@rules("R6.4", "R15")
@pytest.mark.parametrize(
    "verb, where", [("swap", {"index": 0}), ("equip", {"index": 0}), ("carry", {"field": 6})]
)
def test_a_unit_pushed_away_in_response_does_not_act_from_afar(verb, where):
    """R6.4: an action's conditions are checked again when it resolves. Pushed to (0,0), the
    Soldier is no longer next to the Sword at (2,0), so it swaps, equips or carries nothing
    (R15.2, R15.3, R15.6). They used to resolve from afar: the unit jumped, the artifact came
    to it (seen by the referee in fuzzed games)."""
    pos, g, u, other = _pushed_away_in_response(verb, **where)
    s = g.state
    assert pos.perm(u).field == pos.f(0, 0) and pos.perm(u).under < 0 and not pos.perm(u).stack
    assert s.perms[other].field == pos.f(2, 0)
    assert [e[5] for e in events(s, "fizzle")] == [verb]


@rules("R15.3")
def test_swap_may_spend_the_attack():
    """R15.3 "statt einer Bewegung oder Angriffs": both are offered; spending the attack
    leaves the move."""
    relic = artifact("Relic")
    pos = Position(OPEN5, [relic, SOLDIER, DUMMY])
    u = pos.put(SOLDIER, 0, 1, 1)
    r = pos.put(relic, 0, 2, 1)
    d = pos.put(DUMMY, 1, 3, 2)
    g = pos.game()
    act(g, "activate", u)
    assert {f"swap c{u} c{r} #0", f"swap c{u} c{r} #1"} <= set(legal(g))
    act(g, "swap", u, other=r, index=1)
    assert pos.perm(u).field == pos.f(2, 1)
    opts = legal(g)
    assert f"attack c{u} c{d}" not in opts and f"move c{u} @2,0" in opts
    assert f"swap c{u} c{r} #0" in opts and f"swap c{u} c{r} #1" not in opts


@rules("R15.4")
def test_solid_enemy_artifact_cannot_be_carried_or_swapped_but_attacked():
    wall = artifact("Barricade", solid=2)
    pos = Position(OPEN5, [wall, SOLDIER])
    u = pos.put(unit("Axe", attack=3, move=0), 0, 1, 1)
    w = pos.put(wall, 1, 2, 1)
    g = pos.game()
    act(g, "activate", u)
    assert legal(g) == [f"attack c{u} c{w}", f"tap c{u}"]
    act(g, "attack", u, w)
    assert w not in g.state.perms  # 3 damage > solid 2


@rules("R15.4")
def test_own_solid_artifact_can_be_swapped():
    wall = artifact("Barricade", solid=2)
    pos = Position(OPEN5, [wall, SOLDIER])
    u = pos.put(SOLDIER, 0, 1, 1)
    w = pos.put(wall, 0, 2, 1)
    g = pos.game()
    act(g, "activate", u)
    assert f"swap c{u} c{w} #0" in legal(g)


@rules("R15.5", "R15.7")
def test_dropped_equipment_loses_durability_and_breaks_below_1():
    kill = destroy_spell()
    old = equipment("Old", durability=1)
    new = equipment("New", durability=2)
    b = board(". . . # .\n~ ~ ~ ~ ~")
    pos = Position(b, [old, new, SOLDIER, kill])
    pos.idle(0, 4, 0)
    u = pos.put(SOLDIER, 1, 1, 0)
    o = pos.stack_on(u, old)
    n = pos.stack_on(u, new)
    k = pos.hand(0, kill)[0]
    g = pos.game()
    act(g, "play", k, target=u)
    while g.state.pending:
        act(g, "place", g.state.pending[0].card, field=g.legal_actions()[0].field)
    s = g.state
    assert o not in s.perms and s.zone_of(o) == "discard1"
    assert n in s.perms and s.perms[n].durability == 1 and s.perms[n].field >= 0


@rules("R15.6")
def test_equipment_played_onto_a_field_or_onto_the_next_unit():
    sword = equipment("Sword", modifiers=Modifiers(attack=2))
    pos = Position(OPEN5, [sword, SOLDIER]).resource(0, 5)
    sw, so = pos.hand(0, sword, SOLDIER)
    g = pos.game()
    opts = legal(g)
    assert f"play c{sw} @0,0" in opts and f"play c{sw}" in opts
    act(g, "play", sw)  # no field: equipped to the next unit played
    assert g.state.players[0].equip_next == [sw]
    act(g, "play", so, field=0)
    s = g.state
    assert s.perms[sw].under == so and s.occ[0] == so and s.players[0].equip_next == []
    assert profile(s, s.perms[so]) == [(3, 1)]


@rules("R15.6")
def test_unit_equips_adjacent_equipment_instead_of_move():
    sword = equipment("Sword", modifiers=Modifiers(attack=2))
    pos = Position(OPEN5, [sword, SOLDIER, DUMMY])
    u = pos.put(SOLDIER, 0, 1, 1)
    e = pos.put(sword, 0, 2, 2)
    d = pos.put(DUMMY, 1, 1, 2)
    g = pos.game()
    act(g, "activate", u)
    act(g, "equip", u, other=e, index=0)  # spends the move
    s = g.state
    assert s.perms[e].under == u and s.occ[pos.f(2, 2)] == -1
    assert not any(t.startswith("move") for t in legal(g))
    act(g, "attack", u, d)
    assert pos.perm(d).damage == 3


@rules("R15.6")
def test_equip_may_spend_the_attack():
    """R15.6 "statt einer Bewegung oder eines Angriffs": equipping with the attack leaves the
    move."""
    sword = equipment("Sword", modifiers=Modifiers(attack=2))
    pos = Position(OPEN5, [sword, SOLDIER, DUMMY])
    u = pos.put(SOLDIER, 0, 1, 1)
    e = pos.put(sword, 0, 2, 2)
    d = pos.put(DUMMY, 1, 1, 2)
    g = pos.game()
    act(g, "activate", u)
    assert {f"equip c{u} c{e} #0", f"equip c{u} c{e} #1"} <= set(legal(g))
    act(g, "equip", u, other=e, index=1)
    assert g.state.perms[e].under == u
    opts = legal(g)
    assert f"attack c{u} c{d}" not in opts and f"move c{u} @2,1" in opts


@rules("R15.8")
def test_potion_used_only_when_equipped_and_then_gone():
    tonic = potion("Tonic", free=(FreeAction(Cost(sacrifice=True), (eff("gain", 2),)),))
    pos = Position(OPEN5, [tonic, SOLDIER])
    loose = pos.put(tonic, 0, 4, 4)
    u = pos.put(SOLDIER, 0, 1, 1)
    t = pos.stack_on(u, tonic)
    g = pos.game()
    opts = legal(g)
    assert f"free c{t} #0" in opts and f"free c{loose} #0" not in opts
    act(g, "free", t, index=0)
    s = g.state
    assert s.players[0].resource == 2 and t not in s.perms and s.zone_of(t) == "discard0"
    assert pos.perm(u).stack == []


@rules("R21.11")
def test_equipment_adds_its_modifiers():
    cloak = equipment(
        "Cloak",
        modifiers=Modifiers(
            attack=1, range=1, armor=1, life=2, move=1, keywords=Keywords(veiled=True)
        ),
    )
    from engine.permanents import armor, is_veiled, movement

    pos = Position(OPEN5, [cloak, SOLDIER])
    u = pos.put(SOLDIER, 0, 1, 1)
    pos.stack_on(u, cloak)
    s, p = pos.state, pos.perm(u)
    assert profile(s, p) == [(2, 2)] and life(s, p) == 5 and armor(s, p) == 1
    assert movement(s, p) == 3 and is_veiled(s, p)


@rules("R6.4", "R9.5")
def test_boarding_a_crew_unit_destroyed_in_response_fizzles():
    """R6.4, R9.5, R12.9: a swimmer announces boarding the crew unit on the high ground next to
    it; a response destroys the crew unit. The move fizzles: the field is no field for a
    swimmer. It used to put the swimmer onto the high ground (found by the fuzzer)."""
    wagon = crew(1, move=0)
    eel = unit("Eel", move=1, keywords=Keywords(swimming=True))
    kill = spell("Kill", eff("destroy", 1, tgt("unit")), play=0)
    pos = Position(board("~ ^ .\n~ . ."), [wagon, eel, kill])
    u = pos.put(eel, 0, 0, 0)
    w = pos.put(wagon, 0, 1, 0)
    k = pos.hand(1, kill)[0]
    pos.idle(0, 2, 1)
    g = pos.game()
    act(g, "activate", u)
    act(g, "move", u, field=pos.f(1, 0), respond=True)
    act(g, "play", k, target=w)
    s = g.state
    assert w not in s.perms and pos.perm(u).field == pos.f(0, 0)
    assert [e[5] for e in events(s, "fizzle")] == ["move"]
    check_invariants(s)


@rules("R10.3", "R12.9")
def test_boarding_a_crew_unit_next_to_it_is_one_step():
    """R10.3, R12.9: a unit next to a crew unit boards it with one step; its move used to be
    given a detour through another neighbour (2 steps with movement 1; found by the fuzzer and
    the referee)."""
    wagon = crew(1, move=0)
    scout = unit("Scout", move=1)
    pos = Position(board(". . .\n. . ."), [wagon, scout])
    u = pos.put(scout, 0, 1, 0)
    w = pos.put(wagon, 0, 0, 0)
    pos.idle(0, 2, 1)
    g = pos.game()
    act(g, "activate", u)
    act(g, "move", u, field=pos.f(0, 0))
    assert pos.perm(u).under == w
    assert [(e[4], e[5]) for e in events(g.state, "move")] == [(1, "0,0")]


@rules("R10.3", "R12.9")
def test_boarding_a_crew_unit_costs_movement_too():
    wagon = crew(1, move=0)
    scout = unit("Scout", move=1)
    pos = Position(board(". . . ."), [wagon, scout])
    u = pos.put(scout, 0, 0, 0)
    w = pos.put(wagon, 0, 2, 0)  # 2 steps away; movement 1
    g = pos.game()
    act(g, "activate", u)
    assert f"move c{u} @2,0" not in legal(g)
    del w


@rules("R6.4")
def test_a_move_pushed_off_its_start_in_response_fizzles():
    """R6.4: an action's path is checked again when it resolves. A unit announces a move from
    (1,1) along (2,1), (3,1); the enemy answers with a push (R21.6) that moves it to (1,2). The
    move does not resolve from there (before: it jumped along the old path to (3,1))."""
    wave = spell("Wave", eff("push", 1, tgt("unit", "enemy")), play=0)
    pos = Position(board(". . . . .\n. . . . .\n. . . . ."), [wave, SOLDIER])
    u = pos.put(SOLDIER, 0, 1, 1)
    pos.idle(1, 4, 2)
    w = pos.hand(1, wave)[0]
    g = pos.game()
    act(g, "activate", u)
    act(g, "move", u, field=pos.f(3, 1), respond=True)
    act(g, "play", w, target=u, field=pos.f(1, 0), respond=True)
    play_out(g)
    assert pos.perm(u).field == pos.f(1, 2)
    assert any(e[5] == "move" for e in events(g.state, "fizzle"))


@rules("R6.4", "R15.3")
def test_a_swap_whose_unit_was_pushed_away_fizzles():
    """R6.4, R15.3: a swap is checked again when it resolves. The unit at (1,1) announces a swap
    with the relic at (2,1); the enemy's push in response moves it to (0,1), two fields from
    the relic: the swap fizzles (before: the unit jumped onto the relic's field)."""
    wave = spell("Wave", eff("push", 1, tgt("unit", "enemy")), play=0)
    relic = artifact("Relic")
    pos = Position(OPEN5, [relic, wave, SOLDIER])
    u = pos.put(SOLDIER, 0, 1, 1)
    r = pos.put(relic, 0, 2, 1)
    pos.idle(1, 4, 4)
    w = pos.hand(1, wave)[0]
    g = pos.game()
    act(g, "activate", u)
    act(g, "swap", u, other=r, index=0, respond=True)
    act(g, "play", w, target=u, field=pos.f(2, 1), respond=True)
    play_out(g)
    assert pos.perm(u).field == pos.f(0, 1) and pos.perm(r).field == pos.f(2, 1)
    assert any(e[5] == "swap" for e in events(g.state, "fizzle"))


@rules("R6.4", "R10.3")
def test_a_move_blocked_in_response_walks_another_path_to_its_destination():
    """R6.4, R10.3: a move names its destination; checked again when it resolves, it walks the
    cheapest path there now. The runner (movement 3) announces (0,1) -> (2,1) through (1,1); the
    enemy pushes the runner's friend onto (1,1) in response; the move still reaches (2,1) around
    it at cost 3 (before: it fizzled on the blocked path)."""
    wave = spell("Wave", eff("push", 1, tgt("unit", "enemy")), play=0)
    runner = unit("Runner", life=3, move=3, attack=1)
    pos = Position(OPEN5, [wave, runner, SOLDIER])
    r = pos.put(runner, 0, 0, 1)
    f = pos.put(SOLDIER, 0, 1, 2)
    pos.idle(1, 4, 4)
    w = pos.hand(1, wave)[0]
    g = pos.game()
    act(g, "activate", r)
    act(g, "move", r, field=pos.f(2, 1), respond=True)
    act(g, "play", w, target=f, field=pos.f(1, 3), respond=True)
    play_out(g)
    assert pos.perm(f).field == pos.f(1, 1)
    assert pos.perm(r).field == pos.f(2, 1)
    (path,) = [e[5].split() for e in events(g.state, "move")]
    assert path[-1] == "2,1" and "1,1" not in path and len(path) == 3


@rules("R10.1", "R11.6", "R15.7")
def test_an_equipment_waiting_for_its_field_counts_its_ranges_from_where_it_dropped():
    """R10.1: a range counts from the source permanent's field. The Thorn's upkeep trigger
    first destroys its own carrier; the Thorn drops (R11.6, R15.7) and waits for its
    controller to choose among three fields, while its second effect still resolves. Its
    "enemy permanent in range 1" counts from the field it dropped from, (0,0): the enemy at
    (1,1) is destroyed, the one in the far corner is not. The engine used to measure from field
    -1, read as the last field of the board (found by the fuzzer, game 76945 of seed 2036)."""
    thorn = equipment(
        "Thorn",
        durability=2,
        triggers=(
            Trigger(
                "upkeep",
                (
                    eff("destroy", 1, tgt("unit", each=True, range_=0)),
                    eff("destroy", 1, tgt("permanent", "enemy", each=True, range_=1)),
                ),
            ),
        ),
    )
    pos = Position(board(". . . . . .\n. . . . . .\n. . . . . .\n. . . . . ."), [thorn, SOLDIER])
    carrier = pos.put(SOLDIER, 0, 0, 0)
    t = pos.stack_on(carrier, thorn)
    near = pos.put(SOLDIER, 1, 1, 1)
    far = pos.put(SOLDIER, 1, 5, 3)  # the board's last field
    pos.idle(0, 3, 0)
    g = pos.game(phase="start", advance=True)
    s = g.state
    assert carrier not in s.perms and t in s.perms and s.perms[t].field < 0  # waiting
    assert near not in s.perms
    assert far in s.perms


@rules("R11.6", "R12.2", "R13.2")
def test_a_poisoned_rider_placed_after_its_drop_is_defeated_before_the_next_action():
    """R13.2: a unit with more poison markers than life is defeated (R12.2: at once, by the
    state-based checks). The spell poisons every enemy unit (the rider, life 1, gets 3) and then
    destroys the crew unit beneath it, in one resolution; the rider drops (R11.6) and waits for
    its controller to choose its field, so the checks after the spell skip it. Placed, it is
    checked at once: it dies of its poison before anyone acts again. The engine used to leave it
    on the board until the next resolution (found by the fuzzer, game 72280 of seed 2039)."""
    dusk = spell(
        "Dusk",
        eff("poison", 3, tgt("unit", "enemy", each=True)),
        eff("destroy", 1, tgt("unit", "enemy")),
        play=0,
    )
    wisp = unit("Wisp", life=1, move=2, attack=1)
    wagon = crew(1, life=5, move=2, attack=1)
    pos = Position(OPEN5, [dusk, wisp, wagon])
    carrier = pos.put(wagon, 1, 2, 2)
    rider = pos.stack_on(carrier, wisp)
    pos.idle(0, 4, 4)
    (d,) = pos.hand(0, dusk)
    g = pos.game()
    act(g, "play", d, target=carrier)
    s = g.state
    assert carrier not in s.perms and rider in s.perms and s.perms[rider].field < 0  # waiting
    act(g, "place", rider, field=pos.f(2, 1))
    assert rider not in s.perms
    assert [e[0] for e in events(s, "death") if e[5] == "poison"] == ["Wisp"]
