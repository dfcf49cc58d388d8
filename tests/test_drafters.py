"""The heuristic drafter drafts what its own agent will buy and play (R3, R5, R7)."""

from __future__ import annotations

import random

from engine.actions import Action
from engine.agents.drafters import (
    NEVER,
    Held,
    HeuristicDrafter,
    NumbersDrafter,
    numbers_value,
)
from engine.agents.heuristic import HeuristicAgent
from engine.agents.projection import Projection, _Run, _Shop
from engine.game import Game
from engine.legal import legal_actions
from engine.state import GameConfig
from tests.builder import Card, Victory, VictoryKind, board, spell, unit
from tests.rules import rules

# income 2 a turn for 6 rounds (R5.1, R18): at most 12 resource ever, nothing else gains any
BOARD = board("0 . 1", victory=Victory(VictoryKind.CAPTURE, target=99), income=2, round_limit=6)
PIKEMAN = unit("Pikeman", 2, 2, 1, buy=2, play=1, upkeep=0, copies=2)
# the numbers drafter's favourites: big bodies for the price
LEVIATHAN = unit("Leviathan", 12, 2, 6, buy=13, play=1, upkeep=1, copies=2)  # never affordable
BEHEMOTH = unit("Behemoth", 12, 2, 6, buy=2, play=1, upkeep=13, copies=2)  # never carried
POOL = (PIKEMAN, LEVIATHAN, BEHEMOTH)


def first_pick(*offered: str) -> tuple[Game, list[Action]]:
    """Seat 0's first pick from a pack of the named cards (ids of dealt copies)."""
    cfg = GameConfig(POOL, {c.name.casefold(): c for c in POOL}, BOARD, pack_size=3)
    game = Game(cfg, 1)
    s = game.state
    dealt = [c for p in s.packs + s.unopened for c in p] + s.out
    s.packs[0] = [next(c for c in dealt if s.cards[c].name == n) for n in offered]
    return game, legal_actions(s)


@rules("R7.1", "R5.3")
def test_drafter_values_a_card_its_agent_never_affords_or_carries_below_one_it_buys():
    """R7.1: only bought cards leave the store; with 1 income a turn for 6 rounds the agent can
    never pay 9 for the Leviathan, and never deploys the Behemoth, whose upkeep of 9 it can
    never pay (R5.3, its deploy rule): both are worth less to its drafter than the Pikeman it
    buys and plays, although their numbers are far better (the numbers drafter takes them)."""
    game, legal = first_pick("Leviathan", "Behemoth", "Pikeman")
    s = game.state
    name = {a.card: s.cards[a.card].name for a in legal}
    vals = {name[c]: v for c, v in HeuristicDrafter().values(s, legal).items()}
    assert vals["Pikeman"] > vals["Leviathan"] and vals["Pikeman"] > vals["Behemoth"]
    assert name[HeuristicDrafter().pick(s, legal).card] == "Pikeman"
    assert name[NumbersDrafter().pick(s, legal).card] != "Pikeman"


@rules("R7.1")
def test_projection_buys_the_pikeman_and_never_the_leviathan():
    """The projection behind those values, by hand: the store is the pick plus two stand-ins
    for the picks to come (a Leviathan and a Pikeman, spread over the pool). Round 1: 2
    resource, the stand-in Pikeman is bought (R7.2: one a turn); round 2: 2 more, it is played
    for 1 (R6.2), 1 left; round 3: 3, and the offered Pikeman is bought, played in round 4,
    with 3 of the 6 rounds to come. The Leviathan (13) is never affordable; the Behemoth is
    bought in round 1 but never played: its upkeep of 13 is never payable (R5.3)."""
    game, _ = first_pick("Leviathan", "Behemoth", "Pikeman")
    s = game.state
    agent = HeuristicAgent()
    proj = Projection(agent.drafter().economy(s.config), Held(s, 0))
    assert [(st.round, st.resource) for st in proj.steps] == [
        (1, 2.0),
        (2, 1.0),
        (3, 3.0),
        (4, 5.0),
        (5, 7.0),
        (6, 9.0),
    ]
    assert [st.card.name if st.card else None for st in proj.steps] == [
        "Pikeman",
        None,
        None,
        None,
        None,
        None,
    ]
    value = agent.buy_value(PIKEMAN, VictoryKind.CAPTURE, 0, 2)
    assert proj.first_buy(PIKEMAN) == (3, value)
    assert proj.use(PIKEMAN) == 3 / 6
    assert proj.first_buy(LEVIATHAN) == (0, 0.0)
    assert proj.first_buy(BEHEMOTH)[0] == 1 and proj.use(BEHEMOTH) == 0.0


@rules("R7.1")
def test_drafter_asks_its_own_agent_what_it_buys():
    """The drafter of a heuristic agent projects that agent's buy policy, so retuned weights
    flow into drafting: an agent whose buy value of the Pikeman is nothing never buys it
    (R7.1), and its drafter values the Pikeman at the floor for cards never used."""

    class Shunning(HeuristicAgent):
        def buy_value(self, card: Card, kind: VictoryKind, deck_up: int, income: int) -> float:
            return 0.0 if card.name == "Pikeman" else super().buy_value(card, kind, deck_up, income)

    agent = Shunning()
    assert agent.drafter().policy is agent
    game, legal = first_pick("Leviathan", "Behemoth", "Pikeman")
    s = game.state
    pikeman = next(a.card for a in legal if s.cards[a.card].name == "Pikeman")
    shunned = agent.drafter().values(s, legal)[pikeman]
    assert shunned == NEVER * numbers_value(PIKEMAN, VictoryKind.CAPTURE)
    assert shunned < HeuristicAgent().drafter().values(s, legal)[pikeman]


@rules("R6.2")
def test_projection_of_a_deck_of_dear_spells_ends() -> None:
    """A start deck of spells that cost 3 and gain nothing, on a board that takes 1 a turn
    (R5.1): the projected resource stays at 0 (R6.2: no spell is played without its cost)
    instead of going negative, and the projection ends (a fuzzed board of this kind once made
    it loop for ever)."""
    drain = spell("Drain", play=3, buy=None)
    bleak = board(
        "0 . 1",
        victory=Victory(VictoryKind.CAPTURE, target=99),
        income=-1,
        round_limit=6,
        start_cards=(("Drain", 4),),
    )
    cfg = GameConfig(POOL, {c.name.casefold(): c for c in (*POOL, drain)}, bleak, pack_size=3)
    s = Game(cfg, 1).state
    proj = Projection(HeuristicDrafter().economy(cfg), Held(s, 0))
    assert [st.resource for st in proj.steps] == [0.0] * len(proj.steps)
    assert all(st.card is None for st in proj.steps)


def _scan(shop: _Shop, run: _Run, income: int, taken: set[int]) -> tuple[float, int, float]:
    """The buy step as a plain scan of the store by price (the projection's rule before it
    bisected): (best score, its place, the best score affordable only next turn)."""
    r, nxt = run.r, run.r + income
    deck_up = (
        run.up
        + sum(shop.eco.unit_upkeep[j] for _, j in run.waiting if shop.eco.unit_upkeep[j] > 0) // 2
    )
    row = shop.eco.values(deck_up, income)
    best, choice, save_for = 0.0, -1, 0.0
    for i in sorted(range(len(shop.store)), key=shop.prices.__getitem__):
        p = shop.prices[i]
        if p > nxt:
            break
        if i in taken:
            continue
        sc = row[shop.idx[i]]
        if p <= r:
            if sc > best:
                best, choice = sc, i
        elif sc > save_for:
            save_for = sc
    if choice >= 0 and shop.eco.policy.saves(save_for, best):
        best, choice = 0.0, -1
    return best, choice, save_for


@rules("R7.1", "R7.2")
def test_projected_buy_step_takes_the_first_best_card_it_can_pay_now_and_next_turn() -> None:
    """R7.1, R7.2: the projected buy step (bisecting the live cards by price) buys what a plain
    scan of the store by price buys, ties to the first, for every resource, income (a negative
    one too: then only cards payable next turn as well count) and bought cards."""
    pricey = unit("Ogre", 5, 2, 3, buy=3, play=1, upkeep=0, copies=2)
    cheap = unit("Scout", 1, 1, 1, buy=1, play=1, upkeep=0, copies=2)
    pool = (PIKEMAN, LEVIATHAN, BEHEMOTH, pricey, cheap)
    cfg = GameConfig(pool, {c.name.casefold(): c for c in pool}, BOARD, pack_size=3)
    eco = HeuristicDrafter().economy(cfg)
    rng = random.Random(7)
    for _ in range(300):
        shop = _Shop(eco, [rng.choice(pool) for _ in range(rng.randint(1, 8))])
        taken: set[int] = set()
        for i in rng.sample(range(len(shop.store)), rng.randint(0, len(shop.store) - 1)):
            shop.take(i)
            taken.add(i)
        run = _Run(eco, [])
        run.r = float(rng.randint(0, 6))
        income = rng.randint(-2, 3)
        step, choice = shop.buy_step(run, 1, income, False)
        assert (step.best, choice, step.save_for) == _scan(shop, run, income, taken)
