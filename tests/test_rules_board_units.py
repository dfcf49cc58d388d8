"""Board, fields, permanents, units and combat (R9-R12, R21.8-R21.10), on small hand-built
positions with answers worked out from the rule text.

Maps: '.' plain, '~' deep water, '^' high ground, a digit a seat's deploy field (tests.builder).
"""

from __future__ import annotations

import dataclasses

import pytest

from engine.cards import Card
from engine.invariants import check_invariants
from engine.markers import Marker
from engine.permanents import damage_at, life, max_range, profile
from engine.vocab import Phase
from tests.builder import (
    CardType,
    Cost,
    FreeAction,
    Keywords,
    Modifiers,
    Position,
    Protection,
    Trigger,
    act,
    artifact,
    board,
    done,
    eff,
    equipment,
    events,
    spell,
    tgt,
    unit,
)
from tests.pieces import ARCHER, DUMMY, OPEN5, SOLDIER, crew, destroy_spell, legal
from tests.rules import rules

# --- R9 board and fields ----------------------------------------------------------------------


@rules("R9.1")
def test_board_sets_income_start_cards_and_victory():
    from engine.draft import start_game
    from tests.builder import Victory, VictoryKind

    b = board(
        "0 . 1",
        income=3,
        start_cards=(("Soldier", 2),),
        victory=Victory(VictoryKind.RESOURCE, target=50),
    )
    pos = Position(b, [SOLDIER])
    pos.state.phase = Phase.DRAFT  # the draft is over, the setup (start_game) to come
    start_game(pos.state)
    s = pos.state
    assert [len(p.hand) + len(p.deck) for p in s.players] == [2, 2]
    pos.game(advance=True)
    assert s.players[0].resource == 3 and s.phase == "main"  # income of the first upkeep
    assert s.config.board.victory.target == 50


@rules("R9.2", "R11.1")
def test_a_field_holds_one_permanent():
    pos = Position(OPEN5, [SOLDIER]).resource(0, 5)
    pos.put(SOLDIER, 0, 0, 0)
    pos.hand(0, SOLDIER)
    g = pos.game()
    plays = [a for a in legal(g) if a.startswith("play")]
    assert plays == ["play c1 @1,0"]  # (0,0) is taken, (1,0) is the other deploy field


@rules("R9.3", "R18.2")
def test_field_income_counts_for_units_standing_there():
    b = board("0+ . ++ 1", income=1)
    pos = Position(b, [SOLDIER])
    pos.put(SOLDIER, 0, 0, 0)
    pos.put(SOLDIER, 0, 2, 0)
    g = pos.game(phase="start", advance=True)
    assert g.state.players[0].resource == 1 + 1 + 2


@rules("R9.3")
def test_a_field_grants_its_free_action_to_the_unit_standing_on_it():
    heal = FreeAction(Cost(resource=1), (eff("heal", 2, tgt("self")),))
    plain = board("0 . 1")
    shrine = dataclasses.replace(plain.fields[1], mark="s", actions=(heal,))
    b = dataclasses.replace(plain, fields=(plain.fields[0], shrine, plain.fields[2]))
    pos = Position(b, [SOLDIER]).resource(0, 1)
    on = pos.put(SOLDIER, 0, 1, 0, damage=2)
    off = pos.put(SOLDIER, 0, 0, 0, damage=2)
    g = pos.game()
    frees = [t for t in legal(g) if t.startswith("free")]
    assert frees == [f"free c{on} #100"], "only the unit on the marked field, numbered from 100"
    act(g, "free", on, index=100)
    assert pos.perm(on).damage == 0 and pos.perm(off).damage == 2
    assert g.state.players[0].resource == 0


@rules("R9.4")
def test_moves_end_only_on_free_fields():
    pos = Position(board(". . .\n. . .\n. . ."), [SOLDIER])
    a = pos.put(
        SOLDIER,
        0,
        1,
        1,
    )
    pos.put(SOLDIER, 0, 0, 0)
    pos.put(SOLDIER, 1, 2, 2)
    g = pos.game()
    act(g, "activate", a)
    moves = [t for t in legal(g) if t.startswith("move")]
    assert moves == sorted(
        f"move c{a} @{x},{y}" for x, y in [(1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2)]
    )


@rules("R9.5")
def test_swimmers_only_on_deep_water_others_never():
    b = board("0~ 0 0~\n. ~ .")
    shark = unit("Shark", keywords=Keywords(swimming=True), move=2)
    pos = Position(b, [SOLDIER, shark]).resource(0, 9)
    pos.hand(0, SOLDIER, shark)
    g = pos.game()
    plays = [t for t in legal(g) if t.startswith("play")]
    assert plays == ["play c0 @1,0", "play c1 @0,0", "play c1 @2,0"]


@rules("R9.5")
def test_swimmer_moves_only_through_deep_water():
    b = board("~ ~ .\n. ~ ~\n. . ~")
    shark = unit("Shark", keywords=Keywords(swimming=True), move=3)
    pos = Position(b, [shark])
    s = pos.put(shark, 0, 0, 0)
    g = pos.game()
    act(g, "activate", s)
    moves = sorted(t for t in legal(g) if t.startswith("move"))
    assert moves == [f"move c{s} @1,0", f"move c{s} @1,1", f"move c{s} @2,1", f"move c{s} @2,2"]


@rules("R9.6", "R12.12")
def test_high_ground_gives_ranged_units_plus_one_range():
    b = board("^ . . . .\n. . . . .")
    bow = unit("Bow", attack=1, range_=2, move=0)
    pos = Position(b, [bow, DUMMY])
    a = pos.put(bow, 0, 0, 0)
    pos.put(DUMMY, 1, 3, 0)  # distance 3
    g = pos.game()
    act(g, "activate", a)
    assert f"attack c{a} c1" in legal(g)
    assert profile(g.state, pos.perm(a)) == [(1, 3)]


@rules("R9.6", "R12.12")
def test_high_ground_does_not_help_melee():
    b = board("^ . .\n. . .")
    pos = Position(b, [SOLDIER, DUMMY])
    a = pos.put(unit("Axe", move=0), 0, 0, 0)
    pos.put(DUMMY, 1, 2, 0)  # distance 2
    g = pos.game()
    assert profile(g.state, pos.perm(a)) == [(1, 1)]
    act(g, "activate", a)
    assert not any(t.startswith("attack") for t in legal(g))


@rules("R10.2", "R10.3")
def test_a_step_goes_to_an_adjacent_available_field():
    b = board(". . .\n. ~ .\n. . .")
    scout = unit("Scout", move=1)
    pos = Position(b, [scout])
    u = pos.put(scout, 0, 1, 0)
    g = pos.game()
    act(g, "activate", u)
    moves = [t for t in legal(g) if t.startswith("move")]
    # the 8-neighbourhood of (1,0) minus deep water (1,1)
    assert moves == [f"move c{u} @{x},{y}" for x, y in [(0, 0), (0, 1), (2, 0), (2, 1)]]


def _jelly_position(trigger_effect):
    """Seat 1's Jelly dies at (0,0) next to seat 0's unit `near`; seat 1's other unit stands
    at (4,0) next to seat 0's unit `far`, 5 fields from the Jelly."""
    jelly = unit("Jelly", life=1, attack=0, triggers=(Trigger("dies", (trigger_effect,)),))
    kill = destroy_spell()
    pos = Position(board(". . . . . .\n. . . . . ."), [jelly, kill, SOLDIER])
    j = pos.put(jelly, 1, 0, 0)
    near = pos.put(SOLDIER, 0, 1, 0)
    pos.idle(1, 4, 0)
    far = pos.put(SOLDIER, 0, 5, 0)
    k = pos.hand(0, kill)[0]
    return pos, j, near, far, k


@rules("R10.1")
def test_a_death_trigger_measures_range_from_the_dead_units_field():
    """R10.1: a range has an origin. "When this dies: paralyse each enemy unit in range 1"
    counts from the field the unit died on, not from its controller's other permanents."""
    pos, j, near, far, k = _jelly_position(
        eff("paralyse", 1, tgt("unit", "enemy", each=True, range_=1))
    )
    g = pos.game()
    act(g, "play", k, target=j)
    assert j not in g.state.perms
    assert [pos.perm(c).markers[Marker.PARALYSIS] for c in (near, far)] == [1, 0]


@rules("R10.1")
def test_a_death_trigger_chooses_its_target_in_range_of_the_dead_units_field():
    """R10.1: the chosen target of a death trigger must be in range of the field it died on:
    only `near` is, so the target is not even a choice."""
    pos, j, near, far, k = _jelly_position(eff("damage", 1, tgt("unit", "enemy", range_=1)))
    g = pos.game()
    act(g, "play", k, target=j)
    assert not g.state.pending
    assert pos.perm(near).damage == 1 and pos.perm(far).damage == 0


@rules("R10.1", "R8.8")
def test_a_death_trigger_creates_its_tokens_next_to_where_it_died():
    """Tokens of "when this dies: create 1 Bones" go in range 1 of the source (R8.8): of the
    field it died on, not into the deploy zone."""
    bones = unit("Bones", buy=None)
    warrior = unit(
        "Warrior", life=1, triggers=(Trigger("dies", (eff("create", 1, card="Bones"),)),)
    )
    kill = destroy_spell()
    pos = Position(board("0 . . . . .\n. . . . . 1"), [warrior, bones, kill, SOLDIER])
    w = pos.put(warrior, 1, 3, 0)
    pos.put(SOLDIER, 0, 0, 0)
    k = pos.hand(0, kill)[0]
    g = pos.game()
    act(g, "play", k, target=w)
    s = g.state
    token = next(p for p in s.perms.values() if s.cards[p.cid].name == "Bones")
    assert token.controller == 1 and s.config.geometry.dist(token.field, pos.f(3, 0)) == 1


# --- R11 permanents ---------------------------------------------------------------------------


@rules("R11.2", "R8.5")
def test_destroyed_card_goes_to_owner_discard_markers_removed():
    kill = spell("Kill", eff("destroy", 1, tgt("unit", "enemy")), play=0)
    pos = Position(OPEN5, [SOLDIER, kill])
    # owned by seat 0 but controlled by seat 1 (e.g. taken over)
    u = pos.put(SOLDIER, 1, 2, 2, owner=0, poison=1, paralysis=2)
    pos.idle()
    k = pos.hand(0, kill)[0]
    g = pos.game()
    act(g, "play", k, target=u)
    s = g.state
    assert u not in s.perms and s.zone_of(u) == "discard0"


@rules("R11.2", "R8.8")
def test_destroyed_token_leaves_the_game():
    kill = spell("Kill", eff("destroy", 1, tgt("unit", "enemy")), play=0)
    pos = Position(OPEN5, [SOLDIER, kill])
    u = pos.put(SOLDIER, 1, 2, 2, token=True)
    k = pos.hand(0, kill)[0]
    g = pos.game()
    act(g, "play", k, target=u)
    assert g.state.zone_of(u) == "out"


@rules("R11.3")
def test_sacrifice_as_a_free_action_cost():
    cultist = unit("Cultist", free_actions=(FreeAction(Cost(sacrifice=True), (eff("gain", 2),)),))
    pos = Position(OPEN5, [cultist])
    c = pos.put(cultist, 0, 2, 2)
    pos.idle()
    g = pos.game()
    act(g, "free", c, index=0)
    s = g.state
    assert c not in s.perms and s.zone_of(c) == "discard0" and s.players[0].resource == 2


@rules("R11.2", "R11.3")
@pytest.mark.parametrize("verb", ["sacrifice", "destroy"])
def test_each_permanent_destroyed_once_when_a_unit_takes_its_equipment_along(verb):
    """R11.2, R11.3, R15.5, R15.7: `sacrifice each friendly permanent` reaches the unit and its
    equipped Sword (R11.5: permanents in a stack count for `each`); the unit goes first, its
    stack drops and the Sword breaks (durability 1 - 1 < 1). The Sword, gone already, is not
    destroyed a second time (that used to stop the game with a KeyError; found by the fuzzer)."""
    sword = equipment("Sword", durability=1)
    purge = spell("Purge", eff(verb, 1, tgt("permanent", "friendly", each=True)), play=0)
    pos = Position(OPEN5, [SOLDIER, sword, purge])
    u = pos.put(SOLDIER, 0, 2, 2)
    e = pos.stack_on(u, sword)
    pos.idle(1)
    k = pos.hand(0, purge)[0]
    g = pos.game()
    act(g, "play", k)
    s = g.state
    check_invariants(s)
    assert u not in s.perms and e not in s.perms
    assert s.zone_of(u) == s.zone_of(e) == "discard0"


@rules("R11.4")
def test_veiled_cannot_be_attacked_or_targeted_but_each_effects_hit_it():
    ghost = unit("Ghost", life=3, attack=0, keywords=Keywords(veiled=True))
    bolt = spell("Bolt", eff("damage", 2, tgt("unit", "enemy")), play=0)
    quake = spell("Quake", eff("damage", 1, tgt("unit", "enemy", each=True)), play=0)
    pos = Position(OPEN5, [SOLDIER, ghost, bolt, quake])
    a = pos.put(SOLDIER, 0, 1, 1)
    v = pos.put(ghost, 1, 2, 1)
    b, q = pos.hand(0, bolt, quake)
    g = pos.game()
    assert not any(t.startswith(f"play c{b}") for t in legal(g))  # no target for Bolt
    act(g, "activate", a)
    assert not any(t.startswith("attack") for t in legal(g))
    act(g, "play", q)
    assert pos.perm(v).damage == 1


@rules("R11.4")
def test_protection_from_units_with_buy_over_7():
    shield = Protection(type=CardType.UNIT, stat="buy", op=">", value=7)
    knight = unit("Knight", life=3, attack=1, keywords=Keywords(protections=(shield,)))
    giant = unit("Giant", life=9, attack=5, buy=8)
    pos = Position(OPEN5, [knight, giant, SOLDIER])
    gi = pos.put(giant, 0, 1, 1)
    so = pos.put(SOLDIER, 0, 1, 2)
    k = pos.put(knight, 1, 2, 1)
    g = pos.game()
    act(g, "activate", gi)
    assert f"attack c{gi} c{k}" not in legal(g)
    done(g, gi)
    act(g, "activate", so)
    act(g, "attack", so, k)  # a cheap unit may attack it
    assert pos.perm(k).damage == 1


@rules("R11.4")
def test_protection_from_x_x_cannot_damage_it_even_untargeted():
    wall = unit(
        "Warden",
        life=2,
        attack=1,
        keywords=Keywords(protections=(Protection(type=CardType.SPELL),)),
    )
    quake = spell("Quake", eff("damage", 1, tgt("unit", "enemy", each=True)), play=0)
    bolt = spell("Bolt", eff("damage", 1, tgt("unit", "enemy")), play=0)
    pos = Position(OPEN5, [wall, quake, bolt, SOLDIER])
    pos.put(SOLDIER, 0, 0, 0)
    w = pos.put(wall, 1, 2, 2)
    s = pos.put(SOLDIER, 1, 3, 3)
    q, b = pos.hand(0, quake, bolt)
    g = pos.game()
    assert f"play c{b} c{w}" not in legal(g) and f"play c{b} c{s}" in legal(g)
    act(g, "play", q)
    assert pos.perm(w).damage == 0 and pos.perm(s).damage == 1


@rules("R11.4", "R15.5", "R15.8")
@pytest.mark.parametrize("kind", [CardType.EQUIPMENT, CardType.POTION])
def test_protection_from_artifacts_covers_equipment_and_potions(kind):
    """R15.5: equipment is an artifact; R15.8: potions are equipment. A unit with protection
    from artifacts takes no damage from an equipment's or a potion's effect. Only cards of the
    type "artifact" itself used to count (found by the fuzzer with the referee)."""
    ward = unit(
        "Ward", life=3, keywords=Keywords(protections=(Protection(type=CardType.ARTIFACT),))
    )
    shock = FreeAction(Cost(resource=0), (eff("damage", 1, tgt("unit", "enemy", each=True)),))
    spikes = Card("Spikes", "test", kind, buy=1, play=1, durability=2, free_actions=(shock,))
    pos = Position(OPEN5, [ward, spikes, SOLDIER])
    carrier = pos.put(SOLDIER, 0, 0, 0)
    x = pos.stack_on(carrier, spikes)
    w = pos.put(ward, 1, 2, 2)
    s = pos.put(SOLDIER, 1, 3, 3)
    pos.idle(0, 4, 0)
    g = pos.game()
    act(g, "free", x, index=0)
    assert pos.perm(w).damage == 0 and pos.perm(s).damage == 1


@rules("R11.4")
def test_protection_from_a_card_by_name_stops_its_retaliation():
    anti = unit(
        "Duelist", life=3, attack=2, keywords=Keywords(protections=(Protection(card="Brute"),))
    )
    brute = unit("Brute", life=5, attack=3)
    pos = Position(OPEN5, [anti, brute])
    d = pos.put(anti, 0, 1, 1)
    b = pos.put(brute, 1, 2, 1)
    g = pos.game()
    act(g, "activate", d)
    act(g, "attack", d, b)
    assert pos.perm(b).damage == 2 and pos.perm(d).damage == 0


@rules("R11.4")
def test_equipped_equipment_can_be_targeted():
    """R11.4 forbids targeting only veiled and protected permanents: equipment in a unit's
    stack (R15.6) is a target in range of the stack's field (R11.5). An attack names a unit or
    a solid artifact (R12.10, R15.4), so the equipment is not attacked on its own."""
    smash = spell("Smash", eff("destroy", 1, tgt("equipment", "enemy", range_=3)), play=0)
    sword = equipment("Sword", modifiers=Modifiers(attack=2))
    pos = Position(OPEN5, [smash, sword, SOLDIER])
    a = pos.put(SOLDIER, 0, 0, 0)
    u = pos.put(SOLDIER, 1, 2, 2)  # (0,0) to (2,2): range 3
    e = pos.stack_on(u, sword)
    k = pos.hand(0, smash)[0]
    g = pos.game()
    assert f"play c{k} c{e}" in legal(g)
    act(g, "activate", a)
    act(g, "move", a, field=pos.f(1, 1))
    assert f"attack c{a} c{u}" in legal(g) and f"attack c{a} c{e}" not in legal(g)
    act(g, "play", k, target=e)
    s = g.state
    assert e not in s.perms and s.zone_of(e) == "discard1" and pos.perm(u).stack == []
    assert profile(s, pos.perm(u)) == [(1, 1)]


@rules("R11.4", "R11.5")
def test_a_rider_can_be_targeted_in_range_of_the_stacks_field():
    """Units riding a crew unit (R12.9) are permanents on the stack's field (R11.5): they can
    be targeted, and `each` effects count them."""
    wagon = crew(1, life=5)
    bolt = spell("Bolt", eff("damage", 1, tgt("unit", "enemy", range_=2)), play=0)
    quake = spell("Quake", eff("damage", 1, tgt("unit", "enemy", each=True, range_=2)), play=0)
    pos = Position(OPEN5, [wagon, bolt, quake, SOLDIER])
    pos.put(SOLDIER, 0, 0, 0)
    w = pos.put(wagon, 1, 2, 0)
    r = pos.stack_on(w, SOLDIER)
    b, q = pos.hand(0, bolt, quake)
    g = pos.game()
    assert f"play c{b} c{r}" in legal(g)
    act(g, "play", b, target=r)
    assert pos.perm(r).damage == 1 and pos.perm(w).damage == 0
    act(g, "play", q)
    assert pos.perm(r).damage == 2 and pos.perm(w).damage == 1


@rules("R11.5")
def test_a_stack_stands_on_the_field_of_the_permanent_beneath():
    wagon = crew(1, move=2, attack=1)
    pos = Position(OPEN5, [wagon, SOLDIER])
    w = pos.put(wagon, 0, 0, 2)
    r = pos.stack_on(w, SOLDIER)
    g = pos.game()
    act(g, "activate", w)
    act(g, "move", w, field=pos.f(2, 2))
    s = g.state
    assert s.perm_field(pos.perm(r)) == pos.f(2, 2) and s.occ[pos.f(2, 2)] == w
    assert s.occ[pos.f(0, 2)] == -1


@rules("R11.6")
def test_dropped_stack_controller_of_base_places_it_in_range_1():
    wagon = crew(1)
    kill = destroy_spell()
    b = board(". . ~\n~ ~ ~")
    pos = Position(b, [wagon, SOLDIER, kill])
    w = pos.put(wagon, 1, 0, 0)
    r = pos.stack_on(w, SOLDIER)
    k = pos.hand(0, kill)[0]
    g = pos.game()
    act(g, "play", k, target=w)
    assert g.current_player() == 1
    assert legal(g) == [f"place c{r} @0,0", f"place c{r} @1,0"]
    act(g, "place", r, field=pos.f(1, 0))
    assert g.state.occ[pos.f(1, 0)] == r and pos.perm(r).field == pos.f(1, 0)


@rules("R11.6")
def test_stack_dropped_with_no_room_is_destroyed():
    ferry = unit("Ferry", keywords=Keywords(swimming=True, crew=2))
    b = board("~ ~ ~ .\n~ ~ ~ ~")
    kill = destroy_spell()
    pos = Position(b, [ferry, SOLDIER, kill])
    f = pos.put(ferry, 1, 1, 0)
    r = pos.stack_on(f, SOLDIER)
    pos.idle(0, 3, 0)
    k = pos.hand(0, kill)[0]
    g = pos.game()
    act(g, "play", k, target=f)
    s = g.state
    assert f not in s.perms and r not in s.perms
    assert s.zone_of(r) == "discard1"
    assert [(e[0], e[5]) for e in events(s, "death")] == [
        ("Ferry", "destroyed by Kill"),
        ("Soldier", "no room to drop"),
    ]


@rules("R11.6")
def test_rider_without_room_drops_its_equipment_around_the_crew_field():
    """R11.6, R11.2: a rider with no room is destroyed where its crew unit stood, and its own
    stack drops around that field (it used to be destroyed "nowhere", its equipment dropped
    from field -1, the last field, leaving a ghost occupant)."""
    ferry = unit("Ferry", keywords=Keywords(swimming=True, crew=1))
    sword = equipment("Sword", durability=2)
    b = board("~ ~ ~ .\n~ ~ ~ .")
    kill = destroy_spell()
    pos = Position(b, [ferry, SOLDIER, sword, kill])
    f = pos.put(ferry, 1, 1, 0)
    r = pos.stack_on(f, SOLDIER)
    e = pos.stack_on(r, sword)
    pos.idle(0, 3, 0)
    k = pos.hand(0, kill)[0]
    g = pos.game()
    act(g, "play", k, target=f)
    s = g.state
    check_invariants(s)
    assert r not in s.perms and e not in s.perms and s.occ[pos.f(3, 1)] == -1
    assert s.zone_of(e) == "discard1"
    assert [(e_[0], e_[2:4]) for e_ in events(s, "death")] == [
        ("Ferry", (1, 0)),
        ("Soldier", (1, 0)),
    ]
    assert [(e_[0], e_[2:4], e_[5]) for e_ in events(s, "destroy")] == [
        ("Sword", (1, 0), "no room to drop")
    ]


@rules("R11.6")
def test_rider_destroyed_waiting_for_room_drops_its_equipment_around_the_crew_field():
    """R11.6: the third rider of a crew finds the two fields taken by the first two; it is
    destroyed at the crew's field and its swimming equipment drops onto the water there."""
    wagon = crew(3)
    kill = destroy_spell()
    float_ = equipment("Float", durability=2, keywords=Keywords(swimming=True))
    b = board(". . ~ .\n~ ~ ~ .")
    pos = Position(b, [wagon, SOLDIER, kill, float_])
    pos.idle(0, 3, 0)
    w = pos.put(wagon, 1, 0, 0)
    riders = [pos.stack_on(w, SOLDIER) for _ in range(3)]
    e = pos.stack_on(riders[2], float_)
    k = pos.hand(0, kill)[0]
    g = pos.game()
    act(g, "play", k, target=w)
    while g.state.pending:
        act(g, "place", g.state.pending[0].card, field=g.legal_actions()[0].field)
    s = g.state
    check_invariants(s)
    assert riders[2] not in s.perms and s.occ[pos.f(3, 1)] == -1
    assert s.perms[e].field in (pos.f(0, 1), pos.f(1, 1))  # water in range 1 of (0,0)


@rules("R11.6")
def test_a_rider_destroyed_while_it_waits_for_its_field_drops_its_stack_there():
    """R11.2, R11.6: "destroy each enemy unit" destroys the Wagon first; its rider waits for
    its controller to choose a field, and is destroyed by the same effect; its Sword drops
    around the Wagon's field. It used to drop from field -1, the last field, leaving a ghost
    (found by the fuzzer)."""
    wagon = crew(1)
    sword = equipment("Sword", durability=2)
    purge = spell("Purge", eff("destroy", 1, tgt("unit", "enemy", each=True)), play=0)
    pos = Position(board(". . . . . .\n. . . . . ."), [wagon, SOLDIER, sword, purge])
    w = pos.put(wagon, 1, 1, 0)
    r = pos.stack_on(w, SOLDIER)
    e = pos.stack_on(r, sword)
    pos.idle(0, 5, 1)
    k = pos.hand(0, purge)[0]
    g = pos.game()
    act(g, "play", k)
    while g.state.pending:
        check_invariants(g.state)
        act(g, "place", g.state.pending[0].card, field=g.legal_actions()[0].field)
    s = g.state
    check_invariants(s)
    assert w not in s.perms and r not in s.perms
    assert [(x[0], x[2:4]) for x in events(s, "death")] == [("Wagon", (1, 0)), ("Soldier", (1, 0))]
    assert s.config.geometry.dist(s.perms[e].field, pos.f(1, 0)) <= 1


@rules("R11.6")
def test_two_dropped_permanents_never_share_a_field():
    wagon = crew(2)
    kill = destroy_spell()
    b = board(". . ~ .\n~ ~ ~ ~")
    pos = Position(b, [wagon, SOLDIER, kill])
    pos.idle(0, 3, 0)
    w = pos.put(wagon, 1, 0, 0)
    r1 = pos.stack_on(w, SOLDIER)
    r2 = pos.stack_on(w, SOLDIER)
    k = pos.hand(0, kill)[0]
    g = pos.game()
    act(g, "play", k, target=w)
    act(g, "place", r1, field=pos.f(0, 0))
    s = g.state
    # the second rider may only go where there is still room
    assert r2 in s.perms and s.perms[r2].field == pos.f(1, 0)
    assert s.occ[pos.f(0, 0)] == r1 and s.occ[pos.f(1, 0)] == r2


@rules("R11.6")
def test_third_dropped_permanent_without_room_left_is_destroyed():
    wagon = crew(3)
    kill = destroy_spell()
    b = board(". . ~ .\n~ ~ ~ ~")
    pos = Position(b, [wagon, SOLDIER, kill])
    pos.idle(0, 3, 0)
    w = pos.put(wagon, 1, 0, 0)
    riders = [pos.stack_on(w, SOLDIER) for _ in range(3)]
    k = pos.hand(0, kill)[0]
    g = pos.game()
    act(g, "play", k, target=w)
    while g.state.pending:
        act(g, "place", g.state.pending[0].card, field=g.legal_actions()[0].field)
    s = g.state
    alive = [r for r in riders if r in s.perms]
    assert len(alive) == 2
    assert sorted(s.perms[r].field for r in alive) == [0, 1]
    assert all(s.occ[s.perms[r].field] == r for r in alive)


# --- R12 units and combat ---------------------------------------------------------------------


@rules("R12.1")
def test_unit_numbers_and_profile():
    pos = Position(OPEN5, [ARCHER])
    a = pos.put(ARCHER, 0, 2, 2)
    s = pos.state
    assert life(s, pos.perm(a)) == 2 and profile(s, pos.perm(a)) == [(1, 3)]


@rules("R12.2")
def test_defeated_only_by_more_damage_than_life_and_damage_stays():
    bolt = spell("Bolt", eff("damage", 1, tgt("unit", "enemy")), play=0)
    pos = Position(OPEN5, [SOLDIER, bolt])
    e = pos.put(SOLDIER, 1, 2, 2, damage=2)  # life 3: 2 damage is not defeat
    b1, b2 = pos.hand(0, bolt, bolt)
    g = pos.game()
    act(g, "play", b1, target=e)
    assert e in g.state.perms and pos.perm(e).damage == 3  # 3 = life: still standing
    act(g, "play", b2, target=e)
    assert e not in g.state.perms  # 4 > 3: dies


@rules("R12.3", "R21.8")
def test_units_are_played_on_free_deploy_fields_only():
    pos = Position(OPEN5, [SOLDIER]).resource(0, 1)
    c = pos.hand(0, SOLDIER)[0]
    g = pos.game()
    assert legal(g) == ["pass", f"play c{c} @0,0", f"play c{c} @1,0"]
    act(g, "play", c, field=pos.f(1, 0))
    s = g.state
    assert s.perms[c].field == pos.f(1, 0) and s.players[0].resource == 0


@rules("R12.3", "R6.5")
def test_units_are_slow_no_play_during_a_response():
    bolt = spell("Bolt", eff("damage", 1, tgt("unit", "enemy")), play=0)
    pos = Position(OPEN5, [SOLDIER, bolt]).resource(1, 5)
    e = pos.put(SOLDIER, 1, 3, 3)
    b = pos.hand(0, bolt)[0]
    pos.hand(1, SOLDIER, bolt)
    g = pos.game()
    act(g, "play", b, target=e, respond=True)
    assert g.current_player() == 1
    opts = legal(g)
    assert "pass" in opts and not any("@" in t for t in opts)  # no unit play, only fast ones


@rules("R12.4")
def test_one_move_and_one_attack_per_turn():
    pos = Position(OPEN5, [SOLDIER, DUMMY])
    a = pos.put(SOLDIER, 0, 0, 0)
    d = pos.put(DUMMY, 1, 2, 0)
    g = pos.game()
    act(g, "activate", a)
    act(g, "move", a, field=pos.f(1, 0))
    opts = legal(g)
    assert f"attack c{a} c{d}" in opts and not any(t.startswith("move") for t in opts)
    act(g, "attack", a, d)
    s = g.state
    assert s.activated == -1 and pos.perm(a).tapped
    assert f"activate c{a}" not in legal(g)


@rules("R12.4")
def test_full_action_needs_both_actions_unused():
    zap = unit("Zapper", full_actions=((eff("damage", 2, tgt("unit", "enemy", range_=3)),),))
    pos = Position(OPEN5, [zap, DUMMY])
    z = pos.put(zap, 0, 0, 0)
    d = pos.put(DUMMY, 1, 2, 0)
    g = pos.game()
    act(g, "activate", z)
    assert f"full c{z} #0 c{d}" in legal(g)
    act(g, "move", z, field=pos.f(0, 1))
    assert not any(t.startswith("full") for t in legal(g))


@rules("R12.4")
def test_full_action_uses_all_actions():
    zap = unit("Zapper", full_actions=((eff("damage", 2, tgt("unit", "enemy", range_=3)),),))
    pos = Position(OPEN5, [zap, DUMMY])
    z = pos.put(zap, 0, 0, 0)
    d = pos.put(DUMMY, 1, 2, 0)
    g = pos.game()
    act(g, "activate", z)
    act(g, "full", z, target=d, index=0)
    assert pos.perm(d).damage == 2 and pos.perm(z).tapped


@rules("R12.5")
def test_ranged_units_also_fight_in_melee():
    pos = Position(OPEN5, [ARCHER, DUMMY])
    a = pos.put(ARCHER, 0, 1, 1)
    d = pos.put(DUMMY, 1, 2, 1)
    g = pos.game()
    act(g, "activate", a)
    act(g, "attack", a, d)
    assert pos.perm(d).damage == 1


@rules("R12.6")
def test_unit_that_moves_only_on_plain():
    b = board(". ^ .\n. . .")
    cart = unit("Cart", move=2, keywords=Keywords(moves_on=frozenset({"plain"})))
    pos = Position(b, [cart])
    c = pos.put(cart, 0, 0, 0)
    g = pos.game()
    act(g, "activate", c)
    moves = [t for t in legal(g) if t.startswith("move")]
    assert moves == [f"move c{c} @0,1", f"move c{c} @1,1", f"move c{c} @2,1"]


# R12.7: the designer's three examples, as profiles and as combats at every distance.
EX1 = ((1, 1), [(1, 1)], {1: 2, 2: 0})
EX2 = ((1, 1), [(1, 2)], {1: 2, 2: 1, 3: 0})
EX3 = ((1, 3), [(1, 2), (1, 1)], {1: 3, 2: 2, 3: 1, 4: 0})


def _stack_position(base, riders, dist):
    b = board(". . . . . .")
    base_card = unit(
        "Base", attack=base[0], range_=base[1], move=0, keywords=Keywords(crew=len(riders))
    )
    pos = Position(b, [base_card, DUMMY])
    bid = pos.put(base_card, 0, 0, 0)
    for i, (a, r) in enumerate(riders):
        pos.stack_on(bid, unit(f"Rider{i}", attack=a, range_=r, move=0))
    d = pos.put(DUMMY, 1, dist, 0)
    return pos, bid, d


@rules("R12.7")
@pytest.mark.parametrize(
    "example", [EX1, EX2, EX3], ids=["1at1+1at1", "1at1+1at2", "1at3+1at2,1at1"]
)
def test_designer_examples_as_profiles(example):
    base, riders, want = example
    pos, bid, _ = _stack_position(base, riders, 5)
    prof = profile(pos.state, pos.perm(bid))
    assert {d: damage_at(prof, d) for d in want} == want
    assert max_range(prof) == max(d for d, v in want.items() if v)


@rules("R12.7")
@pytest.mark.parametrize("dist", [1, 2])
def test_example_1_combat(dist):
    pos, bid, d = _stack_position(*EX1[:2], dist)
    g = pos.game()
    act(g, "activate", bid)
    if EX1[2][dist] == 0:
        assert not any(t.startswith("attack") for t in legal(g))
    else:
        act(g, "attack", bid, d)
        assert pos.perm(d).damage == EX1[2][dist]


@rules("R12.7")
@pytest.mark.parametrize("dist", [1, 2, 3])
def test_example_2_combat(dist):
    pos, bid, d = _stack_position(*EX2[:2], dist)
    g = pos.game()
    act(g, "activate", bid)
    if EX2[2][dist] == 0:
        assert not any(t.startswith("attack") for t in legal(g))
    else:
        act(g, "attack", bid, d)
        assert pos.perm(d).damage == EX2[2][dist]


@rules("R12.7")
@pytest.mark.parametrize("dist", [1, 2, 3, 4])
def test_example_3_combat(dist):
    pos, bid, d = _stack_position(*EX3[:2], dist)
    g = pos.game()
    act(g, "activate", bid)
    if EX3[2][dist] == 0:
        assert not any(t.startswith("attack") for t in legal(g))
    else:
        act(g, "attack", bid, d)
        assert pos.perm(d).damage == EX3[2][dist]


@rules("R12.8")
def test_armor_reduces_damage():
    knight = unit("Knight", life=3, attack=0, keywords=Keywords(armor=1))
    ogre = unit("Ogre", life=5, attack=3)
    pos = Position(OPEN5, [knight, ogre, SOLDIER])
    o = pos.put(ogre, 0, 1, 1)
    s = pos.put(SOLDIER, 0, 3, 1)
    k = pos.put(knight, 1, 2, 1)
    g = pos.game()
    act(g, "activate", o)
    act(g, "attack", o, k)
    assert pos.perm(k).damage == 2
    done(g, o)
    act(g, "activate", s)
    act(g, "attack", s, k)  # 1 - 1 = 0
    assert pos.perm(k).damage == 2


@rules("R12.9")
def test_crew_takes_up_to_n_units_which_add_their_attack():
    wagon = crew(1, move=1, attack=1)
    pos = Position(OPEN5, [wagon, SOLDIER, DUMMY])
    w = pos.put(wagon, 0, 1, 1)
    s1 = pos.put(SOLDIER, 0, 0, 1)
    s2 = pos.put(SOLDIER, 0, 0, 2)
    d = pos.put(DUMMY, 1, 2, 1)
    g = pos.game()
    act(g, "activate", s1)
    assert f"move c{s1} @1,1" in legal(g)
    act(g, "move", s1, field=pos.f(1, 1))
    done(g, s1)
    st = g.state
    assert pos.perm(s1).under == w and st.occ[pos.f(0, 1)] == -1
    act(g, "activate", s2)
    assert f"move c{s2} @1,1" not in legal(g)  # crew 1 is full
    done(g, s2)
    act(g, "activate", w)
    act(g, "attack", w, d)
    assert pos.perm(d).damage == 2


@rules("R12.9")
def test_enemy_units_cannot_board_a_crew_unit():
    wagon = crew(2)
    pos = Position(OPEN5, [wagon, SOLDIER])
    pos.put(wagon, 1, 1, 1)
    s = pos.put(SOLDIER, 0, 0, 1)
    g = pos.game()
    act(g, "activate", s)
    assert f"move c{s} @1,1" not in legal(g)


@rules("R12.9")
def test_a_rider_moves_off_its_crew_unit():
    """R12.9: riders end a move on a crew unit; a rider's own move starts from the stack's
    field (R11.5) and takes it off the stack."""
    wagon = crew(1, move=1)
    pos = Position(OPEN5, [wagon, SOLDIER])
    w = pos.put(wagon, 0, 1, 1)
    r = pos.stack_on(w, SOLDIER)
    g = pos.game()
    act(g, "activate", r)
    assert f"move c{r} @3,1" in legal(g)  # 2 steps from (1,1)
    act(g, "move", r, field=pos.f(3, 1))
    s = g.state
    assert pos.perm(r).field == pos.f(3, 1) and pos.perm(r).under == -1
    assert s.occ[pos.f(3, 1)] == r and s.occ[pos.f(1, 1)] == w and pos.perm(w).stack == []


@rules("R12.9")
def test_a_rider_moves_from_one_crew_unit_onto_another():
    """R12.9: a rider's move may end on another crew unit: it leaves one stack for the other."""
    wagon = crew(1, move=1)
    pos = Position(OPEN5, [wagon, SOLDIER])
    w1 = pos.put(wagon, 0, 1, 1)
    w2 = pos.put(wagon, 0, 3, 1)
    r = pos.stack_on(w1, SOLDIER)
    g = pos.game()
    act(g, "activate", r)
    act(g, "move", r, field=pos.f(3, 1))
    assert pos.perm(r).under == w2 and pos.perm(w2).stack == [r] and pos.perm(w1).stack == []
    assert g.state.occ[pos.f(3, 1)] == w2 and pos.perm(r).field == -1


@rules("R12.10")
def test_perft_attack_targets_in_range_only():
    pos = Position(OPEN5, [ARCHER, DUMMY, SOLDIER])
    a = pos.put(ARCHER, 0, 0, 0)
    near = pos.put(DUMMY, 1, 3, 0)  # distance 3
    far = pos.put(DUMMY, 1, 4, 0)  # distance 4
    diag = pos.put(DUMMY, 1, 2, 2)  # distance 2 + 1 = 3
    pos.put(SOLDIER, 0, 1, 1)  # friendly: not a target
    g = pos.game()
    act(g, "activate", a)
    opts = legal(g)
    attacks = [t for t in opts if t.startswith("attack")]
    assert attacks == [f"attack c{a} c{near}", f"attack c{a} c{diag}"]
    assert f"attack c{a} c{far}" not in opts and f"attack c{a} c{a}" not in opts
    # perft: tap + 2 attacks + moves (move 1 from a corner: (1,0), (0,1); (1,1) is taken)
    assert len(opts) == 1 + 2 + 2


@rules("R12.11")
def test_simultaneous_deaths():
    duel = unit("Duelist", life=1, attack=2)
    pos = Position(OPEN5, [duel])
    a = pos.put(duel, 0, 1, 1)
    b = pos.put(duel, 1, 2, 1)
    pos.idle()
    g = pos.game()
    act(g, "activate", a)
    act(g, "attack", a, b)
    s = g.state
    assert a not in s.perms and b not in s.perms
    assert s.zone_of(a) == "discard0" and s.zone_of(b) == "discard1"


@rules("R12.11", "R21.10")
def test_no_strike_back_from_outside_its_range():
    pos = Position(OPEN5, [ARCHER, SOLDIER])
    a = pos.put(ARCHER, 0, 0, 0)
    s = pos.put(SOLDIER, 1, 2, 0)
    g = pos.game()
    act(g, "activate", a)
    act(g, "attack", a, s)
    assert pos.perm(s).damage == 1 and pos.perm(a).damage == 0


@rules("R21.10")
def test_retaliation_with_a_stack_at_that_distance():
    base = unit("Base", attack=1, range_=1, move=0, life=9, keywords=Keywords(crew=1))
    sling = unit("Sling", attack=1, range_=2, move=0)
    gun = unit("Gun", attack=0, range_=1, life=9, move=1, full_actions=())
    bow = unit("Bow", attack=1, range_=2, life=9, move=0)
    pos = Position(OPEN5, [base, sling, gun, bow])
    b = pos.put(base, 1, 2, 2)
    pos.stack_on(b, sling)
    far = pos.put(bow, 0, 0, 2)  # distance 2
    near = pos.put(bow, 0, 1, 2)  # distance 1
    g = pos.game()
    act(g, "activate", far)
    act(g, "attack", far, b)
    assert pos.perm(far).damage == 1  # 1@2 strikes back at 2
    done(g, far)
    act(g, "activate", near)
    act(g, "attack", near, b)
    assert pos.perm(near).damage == 2  # 2@1 at 1
    assert pos.perm(b).damage == 2


@rules("R21.10")
def test_artifacts_and_buildings_do_not_strike_back():
    keep = artifact("Keep", keywords=Keywords(solid=3, building=True))
    pos = Position(OPEN5, [keep, SOLDIER])
    s = pos.put(SOLDIER, 0, 1, 1)
    k = pos.put(keep, 1, 2, 1)
    g = pos.game()
    act(g, "activate", s)
    act(g, "attack", s, k)
    assert pos.perm(k).damage == 1 and pos.perm(s).damage == 0


@rules("R10.3", "R9.5", "R12.9")
def test_a_unit_cannot_step_through_a_friendly_crew_unit_with_room():
    """R10.3 with R12.9 (docs/engine.md, Readings): boarding a crew unit ends the move
    ("als Ende einer Bewegung"), so a unit of move 2 in a corridor reaches the wagon with room
    next to it but not the free field behind it."""
    pos = Position(board("0 . . .\n# # # #"), [SOLDIER])
    w = pos.put(crew(2), 0, 1, 0)
    s = pos.put(SOLDIER, 0, 0, 0)
    pos.idle(1, 3, 0)
    g = pos.game()
    act(g, "activate", s)
    assert legal(g) == ["move c1 @1,0", "tap c1"] and w == 0 and s == 1


@rules("R10.3", "R12.9")
def test_boarding_a_crew_unit_takes_the_cheapest_whole_move():
    """R10.3: the move onto a crew unit walks the path whose whole cost (every second diagonal
    step counts two) fits the movement: from (1,3) onto the wagon at (1,1) with movement 2 the
    path is (1,2), (1,1) at cost 2, not (0,2), (1,1) at cost 3 (the old choice by path length,
    seen by `workbench check` as an R10.3 violation)."""
    wagon = crew(1, move=1)
    pos = Position(OPEN5, [wagon, SOLDIER])
    w = pos.put(wagon, 0, 1, 1)
    s = pos.put(SOLDIER, 0, 1, 3)
    g = pos.game()
    act(g, "activate", s)
    act(g, "move", s, field=pos.f(1, 1))
    assert pos.perm(s).under == w
    (move,) = events(g.state, "move")
    assert move[5] == "1,2 1,1"


@rules("R10.3", "R12.9", "R6.4")
def test_boarding_a_crew_unit_counts_the_diagonal_steps_of_the_whole_path():
    """R10.3: from (0,0) onto the wagon at (3,3) with movement 4 the path (1,1), (2,2), (3,3)
    costs 1 + 2 + 1 = 4. Another path of cost 3 reaches (2,2), (1,0), (2,1), (2,2), but with
    one diagonal step, so its step onto the wagon costs 2 (total 5): a search that keeps one
    path per field and adds the last step found no way, left the boarding out of the legal
    actions and refused it when it resolved (fuzz game 62,333 of seed 3504, R6.4)."""
    runner = unit("Runner", life=3, move=4, attack=1)
    wagon = crew(2)
    pos = Position(OPEN5, [wagon, runner])
    w = pos.put(wagon, 0, 3, 3)
    s = pos.put(runner, 0, 0, 0)
    g = pos.game()
    act(g, "activate", s)
    assert f"move c{s} @3,3" in legal(g)
    act(g, "move", s, field=pos.f(3, 3))
    assert pos.perm(s).under == w
    (move,) = events(g.state, "move")
    assert move[5] == "1,1 2,2 3,3"
