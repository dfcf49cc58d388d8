"""Setup and the booster draft (R2, R3, R21.1, R21.2), with small hand-made pools."""

from __future__ import annotations

from collections import Counter

from engine.draft import start_game
from engine.game import Game
from engine.state import GameConfig
from engine.vocab import Phase
from tests.builder import Keywords, Placement, Position, board, equipment, spell, unit
from tests.rules import rules

A = unit("A", buy=1, copies=10)
Bc = unit("B", buy=2, copies=10)
C = spell("C", buy=3, copies=5)
NOBUY = unit("NoBuy", buy=None, copies=3)
POOL = (A, Bc, C, NOBUY)
BOARD = board("0 . 1", start_cards=(("Militia", 3), ("Supply", 2)), starting_hand=2)
MILITIA = unit("Militia", buy=None)
SUPPLY = spell("Supply", buy=None, play=0)
CATALOG = {c.name.casefold(): c for c in (*POOL, MILITIA, SUPPLY)}


def config(
    players: int = 2, pack: int = 4, target: int = 25, pool=POOL, b=BOARD, **kw
) -> GameConfig:
    if players != b.players:
        b = board(" ".join(["."] * 3), players=players, start_cards=b.start_cards)
    return GameConfig(
        tuple(pool), CATALOG, b, players=players, pack_size=pack, draft_target=target, **kw
    )


def draft_all(game: Game) -> None:
    while game.state.phase == "draft":
        game.apply(game.legal_actions()[0])


@rules("R3.1", "R3.2", "R3.4")
def test_only_buyable_cards_dealt_in_packs_rest_out():
    g = Game(config(), seed=3)
    s = g.state
    dealt = [c for p in s.unopened + s.packs for c in p]
    assert all(s.cards[c].buy is not None for c in dealt + s.out)
    assert len(dealt) + len(s.out) == 25  # 10 + 10 + 5 copies
    assert len(s.out) == 25 % 4 and all(len(p) == 4 for p in s.unopened + s.packs)


@rules("R2.1")
def test_all_copies_of_the_chosen_sets_are_shuffled_together():
    counts = Counter(
        s.cards[c].name for s in [Game(config(), seed=5).state] for c in range(len(s.cards))
    )
    assert counts == Counter({"A": 10, "B": 10, "C": 5})
    orders = {
        tuple(
            Game(config(), seed=k).state.cards[c].name
            for p in Game(config(), seed=k).state.unopened
            for c in p
        )
        for k in range(4)
    }
    assert len(orders) > 1


@rules("R3.3")
def test_packs_pass_and_draft_stops_at_the_target_between_rounds():
    # 6 packs of 4 for 2 players: 3 pack rounds of 4 picks each; target 25 never reached
    g = Game(config(), seed=1)
    draft_all(g)
    s = g.state
    assert [len(p.store) for p in s.players] == [12, 12]
    assert s.pack_round == 3


@rules("R3.3")
def test_engine_reading_target_checked_per_pack_round():
    # docs/engine.md: with packs of 10 and target 25 each player ends with 30 cards
    big = (unit("A", buy=1, copies=50), unit("B", buy=1, copies=50))
    g = Game(config(pack=10, pool=big), seed=2)
    draft_all(g)
    assert [len(p.store) for p in g.state.players] == [30, 30]
    assert len(g.state.out) == 40


@rules("R2.2", "R8.3")
def test_drafted_cards_become_the_store_owned_by_the_drafter():
    g = Game(config(), seed=4)
    draft_all(g)
    s = g.state
    for seat, pl in enumerate(s.players):
        assert all(s.owner[c] == seat for c in pl.store)
    picked = s.picks.data["card"]
    assert Counter(picked) == Counter(s.cards[c].name for pl in s.players for c in pl.store)


@rules("R21.1")
def test_pass_to_the_next_seat():
    b3 = board(". . .", players=3)
    g = Game(GameConfig(POOL, CATALOG, b3, players=3, pack_size=4), seed=7)
    s = g.state
    first = [list(p) for p in s.packs]
    picks = {}
    for _ in range(3):
        seat = s.draft_seat
        a = g.legal_actions()[0]
        picks[seat] = a.card
        g.apply(a)
    for seat in range(3):
        expected = sorted(c for c in first[(seat - 1) % 3] if c != picks[(seat - 1) % 3])
        assert sorted(s.packs[seat]) == expected


@rules("R21.1")
def test_alternate_pass_parameter_reverses_every_second_round():
    b3 = board(". . .", players=3)
    g = Game(GameConfig(POOL, CATALOG, b3, players=3, pack_size=3, alternate_pass=True), seed=7)
    s = g.state
    while s.pack_round < 2:
        g.apply(g.legal_actions()[0])
    first = [list(p) for p in s.packs]
    picks = {}
    for _ in range(3):
        seat = s.draft_seat
        a = g.legal_actions()[0]
        picks[seat] = a.card
        g.apply(a)
    for seat in range(3):
        src = (seat + 1) % 3
        assert sorted(s.packs[seat]) == sorted(c for c in first[src] if c != picks[src])


@rules("R21.2")
def test_more_players_need_as_many_packs_as_players():
    b3 = board(". . .", players=3)
    # 25 cards in packs of 4: 6 packs -> 2 rounds of 3 packs for 3 players
    g = Game(GameConfig(POOL, CATALOG, b3, players=3, pack_size=4), seed=1)
    draft_all(g)
    assert [len(p.store) for p in g.state.players] == [8, 8, 8]
    assert g.state.pack_round == 2


@rules("R2.3")
def test_deck_from_start_cards_shuffled_and_starting_hand():
    g = Game(config(), seed=11)
    draft_all(g)
    s = g.state
    for pl in s.players:
        names = Counter(s.cards[c].name for c in pl.deck + pl.hand)
        assert names == Counter({"Militia": 3, "Supply": 2})
    # seat 0 has had its first turn start: starting hand 2, then drawn up to 3
    assert len(s.players[0].hand) == 3 and len(s.players[1].hand) == 2
    orders = set()
    for k in range(6):
        gk = Game(config(), seed=k)
        draft_all(gk)
        pl = gk.state.players[1]
        orders.add(tuple(gk.state.cards[c].name for c in pl.hand + pl.deck))
    assert len(orders) > 1  # shuffled


@rules("R2.4")
def test_board_placements_at_the_start():
    vip = unit("Commander", buy=None)
    staff = equipment("Staff", buy=None, keywords=Keywords(staff=True))
    places = (
        Placement("Commander", 0, 0, 0, vip=True),
        Placement("Commander", 1, 2, 0, vip=True),
        Placement("Staff", -1, 1, 0),
    )
    b = board("0 . 1", placements=places)
    pos = Position(b, [vip, staff])
    pos.state.phase = Phase.DRAFT  # the draft is over, the setup (start_game) to come
    start_game(pos.state)
    s = pos.state
    on_board = {(s.cards[p.cid].name, p.controller, p.field) for p in s.perms.values()}
    assert on_board == {("Commander", 0, 0), ("Commander", 1, 2), ("Staff", -1, 1)}
    assert s.cards[s.vips[0]].name == "Commander" and s.perms[s.vips[1]].field == 2
