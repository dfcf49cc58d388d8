"""Turn structure, upkeep, buying, zones and the resource (R4, R5, R7, R8, R18, R21.3-R21.7,
R21.16, R21.18) on hand-built positions (tests.builder)."""

from __future__ import annotations

from engine.cards import CardType
from tests.builder import (
    Cost,
    FreeAction,
    Position,
    Trigger,
    act,
    artifact,
    board,
    eff,
    spell,
    texts,
    tgt,
    unit,
)
from tests.rules import rules

B = board("0 . . 1\n. . . .")
SOLDIER = unit("Soldier", upkeep=1)
FREE = unit("Free", upkeep=0)
NOUP = unit("NoUpkeep", upkeep=None)
SUPPLY = spell("Supply", eff("gain", 1), play=0, buy=None)
COIN = spell("Coin", eff("gain", 1), play=0, buy=2)
GEM = spell("Gem", eff("gain", 3), play=0, buy=5)


def legal(g) -> list[str]:
    return texts(g.legal_actions(), g.state.config.board.width)


def start(pos: Position, seat: int = 0):
    """Begin `seat`'s turn (R4.1-R4.3) and run to its first real decision."""
    pos.state.active = seat
    return pos.game(phase="start", advance=True)


# --- R4 turn structure ------------------------------------------------------------------------


@rules("R4.1", "R21.3")
def test_empty_deck_takes_the_shuffled_discard():
    pos = Position(B, [COIN])
    pos.idle(0)
    pos.idle(1)
    disc = pos.discard(0, COIN, COIN, COIN, COIN)
    g = start(pos)
    pl = g.state.players[0]
    assert len(pl.hand) == 3 and len(pl.deck) == 1 and pl.discard == []
    assert sorted(pl.hand + pl.deck) == disc


@rules("R21.3")
def test_deck_is_refilled_only_when_empty_a_draw_from_empty_deck_draws_nothing():
    pos = Position(B, [COIN])
    pos.idle(0)
    top = pos.deck(0, COIN)
    pos.discard(0, COIN, COIN, COIN)
    g = start(pos)
    pl = g.state.players[0]
    assert pl.hand == top and pl.deck == [] and len(pl.discard) == 3


@rules("R4.2")
def test_draw_until_the_hand_holds_3():
    pos = Position(B, [COIN])
    pos.idle(0)
    pos.hand(0, COIN, COIN)
    deck = pos.deck(0, COIN, COIN, COIN)
    g = start(pos)
    pl = g.state.players[0]
    assert len(pl.hand) == 3 and pl.deck == deck[:2]  # top (last) card drawn


@rules("R4.2")
def test_a_full_hand_draws_nothing():
    pos = Position(B, [COIN])
    pos.idle(0)
    pos.hand(0, COIN, COIN, COIN, COIN)
    pos.deck(0, COIN)
    g = start(pos)
    assert len(g.state.players[0].hand) == 4 and len(g.state.players[0].deck) == 1


@rules("R8.1")
def test_empty_deck_and_discard_stay_empty():
    pos = Position(B, [COIN])
    pos.idle(0)
    g = start(pos)
    pl = g.state.players[0]
    assert pl.hand == [] and pl.deck == [] and pl.discard == [] and g.state.phase == "main"


@rules("R4.3", "R4.4", "R4.5", "R4.6")
def test_turn_steps_in_order_upkeep_action_buy_discard():
    pos = Position(B, [COIN, SOLDIER])
    pos.idle(0)
    pos.idle(1)
    u = pos.put(SOLDIER, 0, 1, 0)
    pos.resource(0, 1)
    store = pos.store(0, COIN)
    pos.deck(0, GEM, GEM, GEM)
    g = start(pos)
    s = g.state
    assert s.phase == "upkeep_due" and s.players[0].resource == 3
    gem = min(s.players[0].hand)  # R6.6: fast actions too
    assert legal(g) == ["convert", f"pay c{u}", f"play c{gem}", "refuse"]  # R4.3 before R4.4
    act(g, "pay", u)
    assert s.phase == "main" and "pass" in legal(g)  # R4.4
    act(g, "pass")
    # R4.5, with the fast actions of R21.24
    assert s.phase == "buy" and legal(g) == [f"buy c{store[0]}", "convert", "pass", f"play c{gem}"]
    act(g, "buy", store[0])  # R4.5
    assert s.phase == "discard"
    hand = sorted(set(s.players[0].hand))
    # R4.6: one name, 3 copies; the fast actions of R21.24
    assert legal(g) == sorted(["end", f"discard c{hand[0]}", "convert", f"play c{hand[0]}"])
    act(g, "discard", hand[0])
    act(g, "end")
    assert s.active == 1 and len(s.players[0].hand) == 2


# --- R5 upkeep --------------------------------------------------------------------------------


@rules("R5.1", "R18.2")
def test_income_base_plus_units_plus_fields():
    b = board("0 .+ . 1", income=2, unit_income=1)
    pos = Position(b, [FREE])
    pos.put(FREE, 0, 0, 0)
    pos.put(FREE, 0, 1, 0)
    pos.put(FREE, 1, 3, 0)  # the enemy's units do not count
    g = start(pos)
    assert g.state.players[0].resource == 2 + 2 * 1 + 1


@rules("R5.2")
def test_upkeep_triggers_resolve_before_paying():
    mine = unit("Mine", upkeep=0, triggers=(Trigger("upkeep", (eff("gain", 1),)),))
    big = unit("Big", upkeep=3)
    pos = Position(board("0 . . 1", income=2), [mine, big])
    pos.put(mine, 0, 0, 0)
    b = pos.put(big, 0, 1, 0)
    g = start(pos)
    assert g.state.players[0].resource == 3
    assert legal(g) == [f"pay c{b}", "refuse"]


@rules("R5.3", "R21.7")
def test_refused_or_unaffordable_units_are_defeated():
    pos = Position(board("0 . . 1", income=0), [SOLDIER])
    pos.idle(0, 3, 0)
    a = pos.put(SOLDIER, 0, 0, 0)
    b = pos.put(SOLDIER, 0, 1, 0)
    pos.resource(0, 1)
    g = start(pos)
    assert legal(g) == [f"pay c{a}", f"pay c{b}", "refuse"]
    act(g, "pay", a)
    s = g.state
    assert a in s.perms and b not in s.perms  # 0 left: b could only be refused
    assert s.zone_of(b) == "discard0" and s.players[0].resource == 0


@rules("R5.3", "R21.7")
def test_the_player_chooses_which_to_pay_for():
    """R21.7: with resource for all three units the player may still keep only some; refusing
    defeats the units left unpaid."""
    pos = Position(board("0 . . 1", income=0), [SOLDIER])
    pos.idle(0, 3, 0)
    a = pos.put(SOLDIER, 0, 0, 0)
    b = pos.put(SOLDIER, 0, 1, 0)
    c = pos.put(SOLDIER, 0, 2, 0)
    pos.resource(0, 3)
    g = start(pos)
    act(g, "pay", c)
    act(g, "pay", a)
    assert legal(g) == [f"pay c{b}", "refuse"]
    act(g, "refuse")
    s = g.state
    assert a in s.perms and c in s.perms and b not in s.perms
    assert s.players[0].resource == 1 and s.phase == "main"


@rules("R21.16")
def test_zero_or_no_upkeep_asks_nothing():
    pos = Position(board("0 . . 1", income=0), [FREE, NOUP])
    pos.put(FREE, 0, 0, 0)
    pos.put(NOUP, 0, 1, 0)
    g = start(pos)
    s = g.state
    assert s.phase == "main" and not s.pending and len(s.perms) == 2


# --- R7 buy -----------------------------------------------------------------------------------


def _buy_position(resource: int):
    """The buy step, with a 0-cost spell in hand (a fast action there too, R21.24)."""
    pos = Position(B, [COIN, GEM, SUPPLY])
    pos.idle(0)
    pos.resource(0, resource)
    store = pos.store(0, COIN, GEM, SUPPLY, COIN)
    pos.store(1, COIN)
    pos.hand(0, GEM)
    g = pos.game()
    act(g, "pass")
    return pos, g, store


@rules("R7.1", "R7.3")
def test_buy_from_own_store_at_price_no_buy_price_never():
    _pos, g, store = _buy_position(5)
    gem = g.state.players[0].hand[0]
    assert legal(g) == sorted(["pass", f"buy c{store[0]}", f"buy c{store[1]}", f"play c{gem}"])


@rules("R7.1")
def test_only_what_the_resource_pays_for():
    _pos, g, store = _buy_position(2)
    gem = g.state.players[0].hand[0]
    assert legal(g) == sorted(["pass", f"buy c{store[0]}", f"play c{gem}"])


@rules("R7.2")
def test_one_card_per_turn_into_the_discard_pile():
    _pos, g, store = _buy_position(9)
    act(g, "buy", store[0])
    s = g.state
    assert s.phase == "discard" and not any(t.startswith("buy") for t in legal(g))
    assert s.zone_of(store[0]) == "discard0" and s.players[0].resource == 7


# --- R8 zones and cards -----------------------------------------------------------------------


@rules("R8.2", "R8.3")
def test_discards_and_stores_are_public_hands_are_not():
    pos = Position(B, [COIN, GEM])
    pos.discard(1, GEM)
    pos.store(1, COIN)
    pos.hand(1, COIN)
    obs = pos.game().observation(0)
    assert obs.discards[1] == ("Gem",) and obs.stores[1] == ("Coin",)
    assert obs.hand == () and obs.hand_sizes == (0, 1)


@rules("R8.4")
def test_types_and_permanents():
    perm = {t for t in CardType if t.is_permanent}
    assert perm == {CardType.UNIT, CardType.ARTIFACT, CardType.EQUIPMENT, CardType.POTION}
    assert {t.value for t in CardType} == {
        "spell",
        "unit",
        "artifact",
        "equipment",
        "potion",
        "intention",
    }


@rules("R8.6")
def test_discard_2_cards_gain_1_resource():
    pos = Position(B, [GEM])
    pos.idle(0)
    h = pos.hand(0, GEM, COIN, SUPPLY)
    g = pos.game()
    assert "convert" in legal(g)
    act(g, "convert", respond=True)
    act(g, "discard", h[0], respond=True)
    act(g, "discard", h[1])
    s = g.state
    assert s.players[0].resource == 1 and len(s.players[0].hand) == 1
    assert len(s.players[0].discard) == 2


@rules("R8.6")
def test_needs_two_cards():
    pos = Position(B, [GEM])
    pos.idle(0)
    pos.hand(0, unit("Pricey", play=9))
    assert "convert" not in legal(pos.game())


@rules("R8.7", "R21.16")
def test_costs_none_is_not_zero():
    free_play = spell("Freebie", eff("gain", 1), play=0)
    unplayable = spell("Relic", eff("gain", 1), play=None)
    pos = Position(B, [free_play, unplayable])
    pos.idle(0)
    f, u = pos.hand(0, free_play, unplayable)
    opts = legal(pos.game())
    assert f"play c{f}" in opts and not any(t.startswith(f"play c{u}") for t in opts)


@rules("R8.8")
def test_token_discarded_from_hand_leaves_the_game():
    pos = Position(B, [COIN])
    pos.idle(0)
    t = pos.card(COIN, 0, token=True)
    pos.state.players[0].hand.append(t)
    g = pos.game()
    act(g, "pass")
    act(g, "pass")  # the buy step: the token may be played there (R21.24)
    act(g, "discard", t)
    assert g.state.zone_of(t) == "out"


@rules("R8.8")
def test_played_token_spell_leaves_the_game():
    pos = Position(B, [COIN])
    pos.idle(0)
    t = pos.card(COIN, 0, token=True)
    pos.state.players[0].hand.append(t)
    g = pos.game()
    act(g, "play", t)
    assert g.state.zone_of(t) == "out" and g.state.players[0].resource == 1


# --- R18 resource -----------------------------------------------------------------------------


@rules("R18.1")
def test_resource_is_saved_from_turn_to_turn():
    pos = Position(board("0 . . 1", income=2), [COIN])
    pos.idle(0)
    pos.idle(1)
    pos.resource(0, 4)
    g = start(pos)
    assert g.state.players[0].resource == 6


# --- R21.4, R21.5 untap and passing -----------------------------------------------------------


@rules("R21.5")
def test_passing_taps_every_remaining_permanent():
    pos = Position(B, [FREE])
    a = pos.put(FREE, 0, 0, 0)
    b = pos.put(FREE, 0, 1, 0)
    pos.store(0, COIN)
    pos.resource(0, 9)
    g = pos.game()
    act(g, "pass")
    assert g.state.phase == "buy"
    assert g.state.perms[a].tapped and g.state.perms[b].tapped


@rules("R21.4")
def test_units_untap_at_their_controllers_turn_start_only():
    pos = Position(B, [FREE])
    a = pos.put(FREE, 0, 0, 0, tapped=True, used_move=True, used_attack=True)
    e = pos.put(FREE, 1, 3, 0, tapped=True, used_move=True, used_attack=True)
    pos.idle(1, 3, 1)
    g = start(pos, seat=1)
    assert not g.state.perms[e].tapped and g.state.perms[a].tapped
    assert not g.state.perms[e].used_move


# --- R21.18 the guard -------------------------------------------------------------------------


@rules("R21.18")
def test_a_turn_with_too_many_actions_ends_as_a_flagged_draw():
    pos = Position(B, [FREE], action_guard=4)
    a = pos.put(FREE, 0, 0, 0)
    g = pos.game()
    act(g, "activate", a)  # activate, move, tap, activate ... (R21.18)
    steps = 0
    while not g.is_terminal() and steps < 20:
        g.apply(g.legal_actions()[-1])
        steps += 1
    s = g.state
    assert g.is_terminal() and s.guard_stopped and s.winners == () and s.reason == "action guard"
    assert g.returns() == [0.0, 0.0]
    assert g.record().guard_stopped


@rules("R21.18")
def test_a_game_nobody_can_win_with_an_endless_round_limit_ends_at_the_game_guard():
    """R21.18 for a whole game: the per-turn guard never fires when every turn is short, so a
    board with an endless round limit that nobody can win used to play forever; the game
    guard ends it as a flagged draw after `game_guard` steps."""
    endless = board("0 . . 1", round_limit=10**9)
    pos = Position(endless, [FREE], game_guard=300)
    pos.idle(0)
    pos.idle(1)
    g = pos.game()
    steps = 0
    while not g.is_terminal() and steps < 10_000:
        g.apply(g.legal_actions()[0])
        steps += 1
    s = g.state
    assert g.is_terminal() and s.guard_stopped and s.winners == () and s.reason == "game guard"
    assert s.steps == 301 and g.record().guard_stopped


@rules("R21.18")
def test_an_endless_chain_of_triggers_ends_at_the_game_guard():
    """R21.18: an artifact that, entering, sacrifices itself and creates its like again loops
    without any player's decision (every response window only passes); the game guard stops
    it as a flagged draw."""
    phoenix = artifact(
        "Phoenix",
        triggers=(
            Trigger("enters", (eff("sacrifice", 1, tgt("self")), eff("create", 1, card="Phoenix"))),
        ),
    )
    egg = spell("Egg", eff("create", 1, card="Phoenix"), play=0)
    pos = Position(B, [phoenix, egg], game_guard=500)
    pos.idle(0)
    e = pos.hand(0, egg)[0]
    g = pos.game()
    act(g, "play", e)
    s = g.state
    assert g.is_terminal() and s.guard_stopped and s.reason == "game guard"


# --- R21.21 fast and free actions during upkeep -----------------------------------------------


def _short_of_upkeep(*hand):
    """Seat 0 with 0 resource and no income, one unit of upkeep 1, `hand` in hand, and an
    empty deck (nothing drawn); seat 1 holds a spell, so it has a real response window."""
    pos = Position(board("0 . . 1", income=0), [SOLDIER, COIN, *hand])
    pos.idle(0, 2, 0)
    pos.idle(1, 3, 0)
    u = pos.put(SOLDIER, 0, 0, 0)
    cards = pos.hand(0, *hand)
    pos.hand(1, COIN)
    return pos, u, cards


@rules("R21.21", "R8.6")
def test_convert_during_upkeep_pays_for_the_unit():
    """R21.21, R8.6: 0 resource, a unit of upkeep 1, two cards in hand: the player discards 2
    for 1 during upkeep and pays for the unit (before, it was refused without a decision)."""
    pos, u, (h1, _) = _short_of_upkeep(unit("Pricey", play=9), unit("Dear", play=9))
    g = start(pos)
    s = g.state
    assert s.phase == "upkeep_due" and legal(g) == ["convert", "refuse"]
    act(g, "convert", respond=True)
    act(g, "discard", h1)  # the last card goes by itself; the others pass
    assert not s.players[0].hand and not s.stack  # the convert resolved (R6.9)
    assert s.players[0].resource == 1 and legal(g) == [f"pay c{u}", "refuse"]
    act(g, "pay", u)
    assert u in s.perms and s.players[0].resource == 0 and s.phase == "main"


@rules("R21.21", "R6.6")
def test_a_0_cost_spell_gaining_resource_during_upkeep_pays_for_the_unit_spell():
    """R21.21, R6.6: a 0-cost spell that gains 1 is played during upkeep; it goes on the stack,
    the other player may respond (R21.6), it resolves, and the gain pays for the unit."""
    pos, u, (sup,) = _short_of_upkeep(SUPPLY)
    g = start(pos)
    s = g.state
    assert legal(g) == [f"play c{sup}", "refuse"]
    act(g, "play", sup, respond=True)
    assert g.current_player() == 1 and "pass" in legal(g)  # a response window (R21.6)
    act(g, "pass")
    assert s.players[0].resource == 1 and not s.stack
    act(g, "pay", u)
    assert u in s.perms and s.players[0].resource == 0 and s.zone_of(sup) == "discard0"


@rules("R21.21", "R6.7")
def test_a_free_action_during_upkeep_pays_for_the_unit():
    """R21.21, R6.7: a permanent's free action (sacrifice: gain 2) taken during upkeep."""
    chest = artifact("Chest", free_actions=(FreeAction(Cost(sacrifice=True), (eff("gain", 2),)),))
    pos, u, _ = _short_of_upkeep()
    c = pos.put(chest, 0, 1, 0)
    g = start(pos)
    assert legal(g) == [f"free c{c} #0", "refuse"]
    act(g, "free", c, index=0)
    s = g.state
    assert c not in s.perms and s.players[0].resource == 2
    act(g, "pay", u)
    assert u in s.perms and s.players[0].resource == 1


@rules("R21.7", "R21.21")
def test_with_resource_for_one_of_two_units_the_player_picks_which():
    """R21.7: resource 1, two units of upkeep 1: either may be kept, the other is defeated."""
    for keep in (0, 1):
        pos = Position(board("0 . . 1", income=0), [SOLDIER])
        pos.idle(0, 3, 0)
        units = [pos.put(SOLDIER, 0, 0, 0), pos.put(SOLDIER, 0, 1, 0)]
        pos.resource(0, 1)
        g = start(pos)
        assert legal(g) == [f"pay c{units[0]}", f"pay c{units[1]}", "refuse"]
        act(g, "pay", units[keep])
        s = g.state
        assert units[keep] in s.perms and units[1 - keep] not in s.perms
        assert s.zone_of(units[1 - keep]) == "discard0" and s.phase == "main"


@rules("R5.3", "R21.7")
def test_a_unit_nothing_can_pay_for_is_refused_without_a_decision():
    """No resource, no fast or free action: refusing is the only choice, taken by the flow."""
    pos, u, _ = _short_of_upkeep(unit("Pricey", play=9))
    g = start(pos)
    s = g.state
    assert u not in s.perms and s.phase == "main" and s.players[0].upkeep_deaths == 1


# --- R21.24 fast and free actions in the buy and discard steps --------------------------------

PRICEY = unit("Pricey", play=9)
ZAP = spell("Zap", eff("damage", 1, tgt("unit", "enemy")), play=0)


def _short_of_a_buy():
    """The issue's position: seat 0 with 1 resource, a card costing 2 in its store, a 0-cost
    spell that gains 1 and two cards it cannot play in hand; seat 1 holds a spell, so a
    response window would ask it (R21.6). Seat 0 passes its action phase: the buy step."""
    pos = Position(board("0 . . 1", income=0), [COIN, SUPPLY, PRICEY, ZAP])
    pos.idle(0, 1, 0)
    pos.idle(1, 3, 0)
    pos.resource(0, 1)
    (coin,) = pos.store(0, COIN)
    sup, p1, p2 = pos.hand(0, SUPPLY, PRICEY, PRICEY)
    (zap,) = pos.hand(1, ZAP)
    g = pos.game()
    act(g, "pass")
    return g, coin, sup, (p1, p2), zap


@rules("R21.24", "R6.6", "R7.1")
def test_a_spell_gaining_resource_in_the_buy_step_pays_for_the_buy():
    """R21.24: in the buy step the player may play a spell that gains resource, then buy the
    card it could not afford (before, the buy step offered only `pass` and the flow took it)."""
    g, coin, sup, _, _ = _short_of_a_buy()
    s = g.state
    assert s.phase == "buy" and legal(g) == ["convert", "pass", f"play c{sup}"]
    act(g, "play", sup)
    assert s.phase == "buy" and s.players[0].resource == 2
    assert legal(g) == [f"buy c{coin}", "convert", "pass"]
    act(g, "buy", coin)
    assert s.zone_of(coin) == "discard0" and s.players[0].resource == 0
    assert s.players[0].buy_resource == 2  # what the price met, after the spell


@rules("R21.24", "R8.6", "R7.1")
def test_discarding_2_in_the_buy_step_pays_for_the_buy():
    """R21.24, R8.6: "discard 2: gain 1" in the buy step, then the buy."""
    g, coin, sup, (p1, p2), _ = _short_of_a_buy()
    s = g.state
    act(g, "convert", respond=True)
    act(g, "discard", p1, respond=True)
    act(g, "discard", p2)
    assert s.phase == "buy" and s.players[0].hand == [sup] and s.players[0].resource == 2
    act(g, "buy", coin)
    assert s.zone_of(coin) == "discard0" and s.players[0].resource == 0


@rules("R21.24", "R6.6", "R8.6", "R4.6")
def test_fast_actions_in_the_discard_step():
    """R21.24: in the discard step (R4.6) the player may still play the spell and discard 2
    for 1 before ending the turn (before, it could only discard or end)."""
    g, _, sup, (p1, _), _ = _short_of_a_buy()
    s = g.state
    act(g, "pass")  # buys nothing
    assert s.phase == "discard"
    assert legal(g) == sorted(
        ["convert", f"discard c{p1}", f"discard c{sup}", "end", f"play c{sup}"]
    )
    act(g, "play", sup)
    assert s.phase == "discard" and s.players[0].resource == 2
    assert s.zone_of(sup) == "discard0"
    act(g, "convert")  # two copies of one card: which to discard is no choice
    # an empty hand leaves only `end`, which the flow takes: seat 1's turn
    assert s.active == 1 and s.players[0].resource == 3 and not s.players[0].hand
    assert s.snapshots.data["buy_resource"][-1] == 1  # it passed the buy with 1


@rules("R21.24", "R21.6")
def test_a_fast_action_in_the_buy_or_discard_step_opens_a_window_for_the_other_players():
    """R21.24, R21.6: a spell seat 0 plays in its buy step, and one in its discard step, goes
    on the stack, and seat 1 may answer it with a fast action of its own."""
    for step in ("buy", "discard"):
        g, _, sup, _, zap = _short_of_a_buy()
        s = g.state
        if step == "discard":
            act(g, "pass")
        assert s.phase == step
        act(g, "play", sup, respond=True)
        assert g.current_player() == 1 and s.stack
        assert "pass" in legal(g) and any(t.startswith(f"play c{zap}") for t in legal(g))
        act(g, "pass")
        assert s.phase == step and s.players[0].resource == 2
