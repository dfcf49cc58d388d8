"""The heuristic drafter's projection of what its agent will buy and play over the game (the
model is told in `engine.agents.drafters`): the setup's economy worked out once per game
(`Economy`), and the agent's buy steps round by round with a projected store (`Projection`)."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import NamedTuple, Protocol

from engine import verbs
from engine.agents.held import Held
from engine.board import VictoryKind
from engine.cards import Card, CardType
from engine.state import GameConfig

HAND = 3
"""R4.2: a turn draws the hand up to 3 cards, the rate at which the deck's spells come round."""


class BuyPolicy(Protocol):
    """The agent's buy decision (R7) on plain numbers (engine.agents.heuristic.HeuristicAgent)."""

    def buy_value(self, card: Card, kind: VictoryKind, deck_up: int, income: int) -> float: ...

    def race_buy(self, card: Card, resource: float, target: int, round_: int) -> float: ...

    def saves(self, save_for: float, score: float) -> bool: ...


def _spell_gain(card: Card) -> int:
    """Resource a spell brings each time it is played: its gains less its play cost (below 0
    for a spell that costs more than it gains: the projection plays it as it comes round)."""
    if card.type is not CardType.SPELL:
        return 0
    return sum(e.amount for e in card.effects if _sure_gain(e.verb)) - (card.play or 0)


def _upkeep_gain(card: Card) -> int:
    """Resource a permanent gains at each of its controller's upkeeps (R5.2)."""
    return sum(
        e.amount
        for t in card.triggers
        if t.event == "upkeep"
        for e in t.effects
        if _sure_gain(e.verb)
    )


def _sure_gain(verb: str) -> bool:
    """The verb brings its user its amount of resource (gain; a steal brings what the robbed
    seat holds, which the projection cannot know)."""
    entry = verbs.VERBS[verb]
    return entry.gains and not entry.drains


class Step(NamedTuple):
    """One projected buy step: what the buy policy reads there and what it buys."""

    round: int
    resource: float
    deck_up: int
    income: int
    load: int
    """The upkeep of the units on the board."""
    best: float
    """The policy's score of the card it buys here, 0 when it passes."""
    save_for: float
    """The value of the best card affordable only next turn (the saving plan)."""
    card: Card | None
    """The card it buys here, or None."""


class Economy:
    """What the projection needs of a game's setup, worked out once per game (the config)."""

    def __init__(self, cfg: GameConfig, policy: BuyPolicy) -> None:
        board = cfg.board
        self.config = cfg
        self.policy = policy
        self.kind = board.victory.kind
        self.target = board.victory.target
        self.horizon = max(1, board.round_limit)
        self.income = board.income
        self.unit_income = board.unit_income
        income_fields = [f.income for f in board.fields if f.income > 0]
        self.field_share = len(income_fields) // max(1, cfg.players)
        self.field_income = sum(income_fields) // len(income_fields) if income_fields else 0
        self.start = [
            cfg.catalog[n.casefold()]
            for n, k in board.start_cards
            for _ in range(k)
            if n.casefold() in cfg.catalog
        ]
        pool = [c for c in cfg.pool if c.draftable]
        copies = sum(c.copies for c in pool)
        size = cfg.pack_size
        # R3.3: each pack round gives every seat a pack's worth, until the target is reached
        self.store_size = size * min(-(-cfg.draft_target // size), copies // size // cfg.players)
        self.cards: list[Card] = []
        self.price: list[int] = []
        self.play: list[int] = []
        self.unit_upkeep: list[int] = []
        self.permanent: list[bool] = []
        self.spell_gain: list[int] = []
        self.upkeep_gain: list[int] = []
        self._index: dict[int, int] = {}
        self._race: dict[tuple[int, int, int], float] = {}
        self._values: dict[tuple[int, int], list[float]] = {}
        self.ranked = sorted(
            (c for c in pool for _ in range(c.copies)),
            key=lambda c: (-self.value(c, 0, board.income), c.name),
        )
        """Every draftable copy, by the policy's buy value on an empty board."""
        self.start_rows = [self.index(c) for c in self.start]
        """The start deck's rows."""

    def index(self, card: Card) -> int:
        """The card's row in the tables (the config's cards, shared by every copy): its price,
        play cost, upkeep if a unit (-1 if not), whether a permanent, its resource per play
        or upkeep, and its buy values."""
        i = self._index.get(id(card))
        if i is None:
            i = self._index[id(card)] = len(self.cards)
            self.cards.append(card)
            self.price.append(card.buy or 0)
            self.play.append(card.play or 0)
            self.unit_upkeep.append(card.upkeep or 0 if card.type is CardType.UNIT else -1)
            self.permanent.append(card.type.is_permanent)
            self.spell_gain.append(_spell_gain(card))
            self.upkeep_gain.append(_upkeep_gain(card))
            for key, vals in self._values.items():
                vals.append(self.policy.buy_value(card, self.kind, *key))
        return i

    def values(self, deck_up: int, income: int) -> list[float]:
        """The policy's buy value of every card indexed so far, for one upkeep plan and income
        (asked once per game and plan: the projection asks them many times)."""
        vals = self._values.get((deck_up, income))
        if vals is None:
            vals = self._values[deck_up, income] = [
                self.policy.buy_value(c, self.kind, deck_up, income) for c in self.cards
            ]
        return vals

    def value(self, card: Card, deck_up: int, income: int) -> float:
        return self.values(deck_up, income)[self.index(card)]

    def race(self, j: int, resource: float, rnd: int) -> float:
        """The policy's score of card `j` on the resource race (R19) with `resource` held (a
        whole number in the game: the projection's average is rounded down)."""
        key = (j, int(resource), rnd)
        sc = self._race.get(key)
        if sc is None:
            sc = self._race[key] = self.policy.race_buy(
                self.cards[j], int(resource), self.target, rnd
            )
        return sc

    def filler(self, held: Held) -> list[Card]:
        """Stand-ins for the picks still to come: the rest of the pool, spread evenly over the
        policy's buy values."""
        m = self.store_size - held.n - 1
        if m <= 0:
            return []
        mine: dict[str, int] = {}
        for c in held.cards:
            mine[c.name] = mine.get(c.name, 0) + 1
        rest = []
        for c in self.ranked:
            if mine.get(c.name, 0) > 0:
                mine[c.name] -= 1
            else:
                rest.append(c)
        m = min(m, len(rest))
        return [rest[int((i + 0.5) * len(rest) / m)] for i in range(m)]


class Projection:
    """The agent's buy steps over the game with the projected store (see the module docstring)."""

    def __init__(self, eco: Economy, held: Held) -> None:
        self.eco = eco
        self.race = eco.kind is VictoryKind.RESOURCE
        self.steps = self._project(held.cards + eco.filler(held))
        # each step's buy values (off the resource race), which every card offered reads
        self.tables = [] if self.race else [eco.values(st.deck_up, st.income) for st in self.steps]

    def _project(self, store: Sequence[Card]) -> list[Step]:
        """The buy steps round by round up to the round limit; rounds in which the resource
        only falls, buying and playing nothing, are skipped at once."""
        eco, race = self.eco, self.race
        shop = _Shop(eco, store)
        run = _Run(eco, eco.start_rows)
        steps: list[Step] = []
        rnd = 0
        while rnd < eco.horizon:
            rnd += 1
            income = run.income()
            run.upkeep(income)
            if run.waiting:
                run.play_waiting(rnd, income)
            step, choice = shop.buy_step(run, rnd, income, race)
            steps.append(step)
            if choice >= 0:
                shop.take(choice)
                run.bought(shop.idx[choice], shop.prices[choice], rnd)
            elif not race and not run.can_play(income):
                rnd = run.idle(rnd, income)
        return steps

    def first_buy(self, card: Card) -> tuple[int, float]:
        """(the round the agent would buy `card` in, its score there), or (0, 0.0) if never:
        the first step where it is affordable and beats the step's buy, or where the agent
        would pass to buy it next turn."""
        eco = self.eco
        j = eco.index(card)
        price = eco.price[j]
        steps, tables, race = self.steps, self.tables, self.race
        saves = eco.policy.saves
        for i, st in enumerate(steps):
            if price <= st.resource:
                sc = eco.race(j, st.resource, st.round) if race else tables[i][j]
                if sc > 0 and sc > st.best and not saves(st.save_for, sc):
                    return st.round, sc
            elif (
                not race and st.best > 0 and i + 1 < len(steps) and price <= st.resource + st.income
            ):
                sc = tables[i][j]
                if saves(sc, st.best) and sc > steps[i + 1].best:
                    return st.round + 1, sc
        return 0, 0.0

    def use(self, card: Card) -> float:
        """What the agent will do with `card`: the share of the game left when it first can
        play it after buying it (a unit: with its upkeep payable next turn, the agent's deploy
        rule); 0 when it never buys or never plays it."""
        rnd, _ = self.first_buy(card)
        if rnd == 0:
            return 0.0
        eco = self.eco
        j = eco.index(card)
        cost, upkeep = eco.play[j], eco.unit_upkeep[j]
        for st in self.steps:
            if (
                st.round > rnd
                and st.resource >= cost
                and (upkeep < 0 or st.resource - cost + st.income >= st.load + upkeep)
            ):
                return (eco.horizon - st.round + 1) / eco.horizon
        return 0.0


class _Run:
    """The projected seat's resource, deck and board as the rounds pass."""

    __slots__ = (
        "deck_n",
        "deployed",
        "eco",
        "perm_income",
        "r",
        "spell_gain",
        "units",
        "up",
        "waiting",
    )

    def __init__(self, eco: Economy, start: list[int]) -> None:
        self.eco = eco
        self.r = 0.0
        self.deck_n = max(1, len(start))
        self.spell_gain = sum(eco.spell_gain[j] for j in start)
        # (round due, card): permanents waiting to be played; the start deck's come round at
        # the rate a hand draws them (R4.2)
        perms = [j for j in start if eco.permanent[j]]
        self.waiting = [
            (1 + int((k + 0.5) * self.deck_n / len(perms) / HAND), j) for k, j in enumerate(perms)
        ]
        self.deployed: list[int] = []  # the upkeep of each unit on the board
        self.up = self.units = self.perm_income = 0

    def income(self) -> int:
        """R5.1, R18: the board's income, per unit and from income fields, and what the
        permanents' upkeep triggers gain (R5.2)."""
        eco = self.eco
        return (
            eco.income
            + eco.unit_income * self.units
            + self.perm_income
            + eco.field_income * min(self.units, eco.field_share)
        )

    def upkeep(self, income: int) -> None:
        """The round's gains, then the units' upkeep (R5.3)."""
        # never below 0: spells are not played without the resource (R6.2), and a board
        # may give negative income (R5.1)
        self.r = max(0.0, self.r + income + HAND * self.spell_gain / self.deck_n)
        if self.up > self.r:  # R5.3: a unit whose upkeep cannot be paid is lost (the dearest first)
            self.deployed.sort()
            while self.deployed and self.up > self.r:
                self.up -= self.deployed.pop()
                self.units -= 1
        self.r -= self.up

    def play_waiting(self, rnd: int, income: int) -> None:
        """Play the permanents that came round and are payable (a unit: with its upkeep
        payable next turn, the agent's deploy rule)."""
        eco = self.eco
        later = []
        for due, j in self.waiting:
            cost, upkeep = eco.play[j], eco.unit_upkeep[j]
            if (
                due <= rnd
                and self.r >= cost
                and (upkeep < 0 or self.r - cost + income >= self.up + upkeep)
            ):
                self.r -= cost
                self.perm_income += eco.upkeep_gain[j]
                if upkeep >= 0:
                    self.deployed.append(upkeep)
                    self.units += 1
                    self.up += upkeep
            else:
                later.append((max(due, rnd + 1), j))
        self.waiting = later

    def bought(self, j: int, price: int, rnd: int) -> None:
        """Card `j` bought (R7.2): it joins the deck and comes round a deck cycle later."""
        eco = self.eco
        self.r -= price
        self.deck_n += 1
        self.spell_gain += eco.spell_gain[j]
        if eco.permanent[j]:
            self.waiting.append((rnd + max(1, round(self.deck_n / HAND)), j))

    def can_play(self, income: int) -> bool:
        """Whether a waiting permanent is payable now."""
        eco = self.eco
        play, unit_upkeep = eco.play, eco.unit_upkeep
        r = self.r
        return any(
            r >= play[j]
            and (unit_upkeep[j] < 0 or r - play[j] + income >= self.up + unit_upkeep[j])
            for _, j in self.waiting
        )

    def idle(self, rnd: int, income: int) -> int:
        """The round after the steps in which the resource only falls while every unit stays
        paid: those steps buy and play nothing, and a card affordable in them is affordable
        here. Returns `rnd` when the resource grows."""
        horizon = self.eco.horizon
        net = income + HAND * self.spell_gain / self.deck_n - self.up
        if net <= 0:
            skip = horizon if net == 0 else int(self.r / -net)
            self.r += net * min(skip, horizon - rnd)
            rnd += skip
        return rnd


class _Shop:
    """The projected store: its cards' rows in the economy's tables, their prices, and the
    cards not bought yet (`live`, the cheapest first, with their prices `live_prices`)."""

    __slots__ = ("eco", "idx", "live", "live_prices", "prices", "rows", "store")

    def __init__(self, eco: Economy, store: Sequence[Card]) -> None:
        self.eco = eco
        self.store = store
        self.idx = [eco.index(c) for c in store]
        self.prices = [eco.price[j] for j in self.idx]
        self.live = sorted(range(len(store)), key=self.prices.__getitem__)
        self.live_prices = [self.prices[i] for i in self.live]
        self.rows: dict[tuple[int, int], list[float]] = {}

    def take(self, i: int) -> None:
        """Card `i` of the store is bought."""
        k = self.live.index(i)
        del self.live[k], self.live_prices[k]

    def buy_step(self, run: _Run, rnd: int, income: int, race: bool) -> tuple[Step, int]:
        """R7: the buy step as the agent's policy decides it: the step, and the position in
        the store of the card bought (-1 for none). The cards it may buy now are the cheapest
        live ones up to the resource (and up to next turn's, which a negative income makes
        the lesser), the ones it may save for those up to next turn's; the first best wins."""
        eco, live, live_prices = self.eco, self.live, self.live_prices
        r, up, unit_upkeep = run.r, run.up, eco.unit_upkeep
        deck_up = up + sum(unit_upkeep[j] for _, j in run.waiting if unit_upkeep[j] > 0) // 2
        nxt = r + income
        now = bisect_right(live_prices, min(r, nxt))
        best, choice, save_for = 0.0, -1, 0.0
        if race:
            idx, race_score = self.idx, eco.race
            for i in live[:now]:
                sc = race_score(idx[i], r, rnd)
                if sc > best:
                    best, choice = sc, i
        else:
            row = self.rows.get((deck_up, income))
            if row is None:
                table = eco.values(deck_up, income)
                row = self.rows[deck_up, income] = [table[j] for j in self.idx]
            if now:
                i = max(live[:now], key=row.__getitem__)
                if row[i] > 0.0:
                    best, choice = row[i], i
            later = bisect_right(live_prices, nxt, now)
            if later > now:
                save_for = max(0.0, max([row[i] for i in live[now:later]]))
        if choice >= 0 and eco.policy.saves(save_for, best):
            best, choice = 0.0, -1
        return Step(
            rnd, r, deck_up, income, up, best, save_for, self.store[choice] if choice >= 0 else None
        ), choice
