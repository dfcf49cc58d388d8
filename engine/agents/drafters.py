"""Drafters: who picks what from a pack (R3). A drafter is an agent asked for draft picks; every
drafter here also plays the match (with the heuristic) if it is used as an agent.

- `random`: the random agent (registry), a uniformly random pick.
- `heuristic`: values a card by what its own agent will do with it (the model below): its
  numbers and its synergy with what it already holds (set concentration, cost curve, units vs
  support, equipment needs bodies, crew wants riders, swimmers want water).
- `numbers`: the heuristic drafter before issue 16: a card's numbers, cost and the board's
  victory condition, plus the same synergy; it drafts cards its agent never buys (Kraken), and
  stays for comparison.
- `ratings`: reads card ratings (name -> score, e.g. the win rate of seats whose drafted store
  held the card) and picks the best rated card; cards without a rating fall back to the
  heuristic drafter's value. Ratings come from the spec's parameters:
  `ratings:ratings_file=PATH` (a JSON object `{"Card name": score}` or
  `{"Card name": {"score": s, "games": n}}`), or `ratings:db=PATH` through a loader the
  workbench registers (`register_ratings_loader`, done by `workbench.ratings`), so the engine
  never imports a database driver. Parameter `weight=W` (default 1) scales ratings against the
  heuristic value used to break ties; `min_games=N` ignores ratings seen in fewer games.

The heuristic drafter's model: a card is worth what the seat's agent will do with it. Only
cards it buys ever leave the store (R7.1), at most one a turn (R7.2), out of a store of 30, so
most picks are never bought; a card the agent never buys is worth nothing to its seat however
good its numbers. Before each pick the drafter projects the agent's buy steps over the game:
- the store: the cards held, plus the picks still to come, stood in for by cards spread evenly
  over the rest of the pool (the sets are public) ranked by the agent's buy value, so that an
  early pick meets the competition a full store will give it;
- the economy, turn by turn up to the board's round limit: the board's income (R5.1, R18), unit
  and field income, the upkeep triggers that gain resource, and the start deck's and bought
  spells' gains at the rate a hand of 3 draws them (R4.2, diluted as the deck grows); bought
  cards come round one deck cycle later and are played then for their play cost, a unit only
  while its upkeep stays payable next turn (the agent's deploy rule); deployed units pay upkeep
  (R5.3), and units whose upkeep the resource cannot meet are lost;
- the buy step (R7): the agent's own buy policy, asked through its methods `buy_value`,
  `race_buy` and `saves` (engine.agents.heuristic: value for money with the upkeep plan,
  the resource race's rule, saving for a clearly better card affordable next turn), so a
  retuned agent drafts with its own valuation.
A candidate is then walked along that projection: it is bought at the first buy step where it
is affordable and beats what the agent buys there, or where the agent would save for it, and
played at the first later turn with its play cost there (a unit: with its upkeep payable next
turn). Its value is its value by numbers (`numbers_value`: stats, effects, cost with upkeep,
the board's victory condition) and its synergy with the store, times its use: the share of the
game still to come when it is played, above a floor of `NEVER` for a card never bought or never
played (the projection is rough, and a pick also keeps the card from the next seat). The agent's policy says whether and
when a card is used; the numbers say what it is worth when it is (the policy's own scores are
not comparable across boards: the resource race scores every card it buys 1 to 3).
Not modelled: combat losses, the opponent's needs.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import NamedTuple, Protocol

from engine.actions import Action
from engine.agents.heuristic import HeuristicAgent, choose
from engine.agents.values import board_affinity, card_cost, card_value
from engine.board import Terrain, VictoryKind
from engine.cards import Card, CardType
from engine.game import Game
from engine.state import GameConfig, GameState
from engine.vocab import Phase

# --- synergy: what a pick adds to the store held so far ----------------------------------------

CURVE = {1: 0.15, 2: 0.3, 3: 0.3, 4: 0.15, 5: 0.1}
"""Share of the store the drafter wants at each buy price (5 = 5 and more)."""


def _bucket(card: Card) -> int:
    return max(1, min(5, card.buy or 1))


class Held:
    """What a seat's store holds so far, counted once per pick (not once per card offered)."""

    def __init__(self, s: GameState, seat: int) -> None:
        held = [s.cards[c] for c in s.players[seat].store]
        self.cards = held
        self.n = len(held)
        self.sets: dict[str, int] = {}
        self.buckets = {b: 0 for b in CURVE}
        self.units = self.ranged = self.crew = 0
        for h in held:
            self.sets[h.set] = self.sets.get(h.set, 0) + 1
            self.buckets[_bucket(h)] += 1
            if h.type is CardType.UNIT:
                self.units += 1
                self.ranged += (h.range or 1) > 1
            self.crew += bool(h.keywords.crew)


def numbers_value(card: Card, kind: VictoryKind) -> float:
    """A card's value for money by its numbers and the board's victory condition alone."""
    val = card_value(card) + board_affinity(card, kind)
    ratio = val / max(2.0, card_cost(card))
    return 2.0 * ratio + 0.2 * val


def synergy(s: GameState, card: Card, h: Held) -> float:
    """What `card` adds to the store held so far (set, cost curve, card kinds, terrain)."""
    board = s.config.board
    kind = board.victory.kind
    score = 0.0
    n = h.n
    if n:
        # set concentration: cards of the set most held work together
        score += 0.8 * h.sets.get(card.set, 0) / n
        # cost curve
        b = _bucket(card)
        score += 1.5 * (CURVE[b] - h.buckets[b] / n)
        if card.type is CardType.UNIT:
            score += 1.0 if h.units / n < 0.55 else -0.3
        if card.type.is_equipment:
            score += 0.5 if h.units >= 3 else -0.8
        if card.keywords.crew:
            score += 0.3 * min(h.ranged, 3)
        if card.type is CardType.UNIT and (card.range or 1) > 1:
            score += 0.3 * min(2, h.crew)
    if card.keywords.swimming or (card.type is CardType.UNIT and card.keywords.moves_on):
        water = sum(1 for f in board.fields if f.terrain is Terrain.DEEP_WATER)
        if card.keywords.swimming and water < len(board.fields) // 10:
            score -= 1.0
    if kind is VictoryKind.BUILDINGS and card.keywords.building:
        score += 1.0
    return score


def draft_value(s: GameState, seat: int, card: Card, held: Held | None = None) -> float:
    """The `numbers` drafter's value of taking `card` given the store held so far."""
    h = held if held is not None else Held(s, seat)
    return numbers_value(card, s.config.board.victory.kind) + synergy(s, card, h)


class NumbersDrafter:
    """Picks the card of highest `draft_value` (numbers and synergy); plays as the heuristic."""

    name = "numbers"

    def pick(self, s: GameState, legal: list[Action]) -> Action:
        seat = s.draft_seat
        held = Held(s, seat)
        return max(legal, key=lambda a: (draft_value(s, seat, s.cards[a.card], held), -a.card))

    def act(self, game: Game, legal: list[Action], rng: random.Random) -> Action:
        s = game.state
        if s.phase == Phase.DRAFT:
            return self.pick(s, legal)
        return choose(s, legal, rng)


# --- the heuristic drafter: what its agent will buy ----------------------------------------------

HAND = 3
"""R4.2: a turn draws the hand up to 3 cards, the rate at which the deck's spells come round."""
NEVER = 0.1
"""The share of its value by numbers that a card the projection never buys or plays keeps."""


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
    return sum(e.amount for e in card.effects if e.verb == "gain") - (card.play or 0)


def _upkeep_gain(card: Card) -> int:
    """Resource a permanent gains at each of its controller's upkeeps (R5.2)."""
    return sum(e.amount for t in card.triggers if t.event == "upkeep" for e in t.effects
               if e.verb == "gain")


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
        self.start = [cfg.catalog[n.casefold()] for n, k in board.start_cards
                      for _ in range(k) if n.casefold() in cfg.catalog]
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
        self.ranked = sorted((c for c in pool for _ in range(c.copies)),
                             key=lambda c: (-self.value(c, 0, board.income), c.name))
        """Every draftable copy, by the policy's buy value on an empty board."""

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
                self.policy.buy_value(c, self.kind, deck_up, income) for c in self.cards]
        return vals

    def value(self, card: Card, deck_up: int, income: int) -> float:
        return self.values(deck_up, income)[self.index(card)]

    def race(self, j: int, resource: float, rnd: int) -> float:
        """The policy's score of card `j` on the resource race (R19) with `resource` held (a
        whole number in the game: the projection's average is rounded down)."""
        key = (j, int(resource), rnd)
        sc = self._race.get(key)
        if sc is None:
            sc = self._race[key] = self.policy.race_buy(self.cards[j], int(resource),
                                                        self.target, rnd)
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
        self.steps = self._project(held.cards + eco.filler(held))

    def _project(self, store: Sequence[Card]) -> list[Step]:
        eco = self.eco
        race = eco.kind is VictoryKind.RESOURCE
        horizon = eco.horizon
        price, play, unit_upkeep = eco.price, eco.play, eco.unit_upkeep
        idx = [eco.index(c) for c in store]
        start = [eco.index(c) for c in eco.start]
        prices = [price[j] for j in idx]
        by_price = sorted(range(len(store)), key=prices.__getitem__)
        gone = [False] * len(store)
        rows: dict[tuple[int, int], list[float]] = {}
        steps: list[Step] = []
        r = 0.0
        deck_n = max(1, len(start))
        spell_gain = sum(eco.spell_gain[j] for j in start)
        # (round due, card): permanents waiting to be played; the start deck's come round at
        # the rate a hand draws them (R4.2)
        perms = [j for j in start if eco.permanent[j]]
        waiting = [(1 + int((k + 0.5) * deck_n / len(perms) / HAND), j)
                   for k, j in enumerate(perms)]
        deployed: list[int] = []  # the upkeep of each unit on the board
        up = units = perm_income = 0
        rnd = 0
        while rnd < horizon:
            rnd += 1
            income = (eco.income + eco.unit_income * units + perm_income
                      + eco.field_income * min(units, eco.field_share))
            # never below 0: spells are not played without the resource (R6.2), and a board
            # may give negative income (R5.1)
            r = max(0.0, r + income + HAND * spell_gain / deck_n)
            if up > r:  # R5.3: a unit whose upkeep cannot be paid is lost (the dearest first)
                deployed.sort()
                while deployed and up > r:
                    up -= deployed.pop()
                    units -= 1
            r -= up
            if waiting:
                later = []
                for due, j in waiting:
                    cost, upkeep = play[j], unit_upkeep[j]
                    if due <= rnd and r >= cost and (upkeep < 0 or r - cost + income
                                                     >= up + upkeep):
                        r -= cost
                        perm_income += eco.upkeep_gain[j]
                        if upkeep >= 0:
                            deployed.append(upkeep)
                            units += 1
                            up += upkeep
                    else:
                        later.append((max(due, rnd + 1), j))
                waiting = later
            # R7: the buy step, as the agent's policy decides it
            deck_up = up + sum(unit_upkeep[j] for _, j in waiting if unit_upkeep[j] > 0) // 2
            nxt = r + income
            best, choice, save_for = 0.0, -1, 0.0
            row = None
            if not race:
                row = rows.get((deck_up, income))
                if row is None:
                    table = eco.values(deck_up, income)
                    row = rows[deck_up, income] = [table[j] for j in idx]
            for i in by_price:
                p = prices[i]
                if p > nxt or (race and p > r):
                    break
                if gone[i]:
                    continue
                sc = row[i] if row is not None else eco.race(idx[i], r, rnd)
                if p <= r:
                    if sc > best:
                        best, choice = sc, i
                elif sc > save_for:
                    save_for = sc
            if choice >= 0 and eco.policy.saves(save_for, best):
                best, choice = 0.0, -1
            steps.append(Step(rnd, r, deck_up, income, up, best, save_for,
                              store[choice] if choice >= 0 else None))
            if choice >= 0:
                gone[choice] = True
                j = idx[choice]
                r -= prices[choice]
                deck_n += 1
                spell_gain += eco.spell_gain[j]
                if eco.permanent[j]:
                    waiting.append((rnd + max(1, round(deck_n / HAND)), j))
            elif not race and not any(r >= play[j] and (unit_upkeep[j] < 0 or r - play[j]
                                      + income >= up + unit_upkeep[j]) for _, j in waiting):
                net = income + HAND * spell_gain / deck_n - up
                if net <= 0:
                    # the resource only falls while every unit stays paid: those steps buy
                    # and play nothing, and a card affordable in them is affordable here
                    skip = horizon if net == 0 else int(r / -net)
                    r += net * min(skip, horizon - rnd)
                    rnd += skip
        return steps

    def first_buy(self, card: Card) -> tuple[int, float]:
        """(the round the agent would buy `card` in, its score there), or (0, 0.0) if never:
        the first step where it is affordable and beats the step's buy, or where the agent
        would pass to buy it next turn."""
        eco = self.eco
        j = eco.index(card)
        price = eco.price[j]
        steps = self.steps
        race = eco.kind is VictoryKind.RESOURCE
        saves = eco.policy.saves
        for i, st in enumerate(steps):
            if price <= st.resource:
                sc = (eco.race(j, st.resource, st.round) if race
                      else eco.values(st.deck_up, st.income)[j])
                if sc > 0 and sc > st.best and not saves(st.save_for, sc):
                    return st.round, sc
            elif (not race and st.best > 0 and i + 1 < len(steps)
                  and price <= st.resource + st.income):
                sc = eco.values(st.deck_up, st.income)[j]
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
            if st.round > rnd and st.resource >= cost and (
                    upkeep < 0 or st.resource - cost + st.income >= st.load + upkeep):
                return (eco.horizon - st.round + 1) / eco.horizon
        return 0.0


class HeuristicDrafter:
    """Picks the card its agent will make most of (see the module docstring); plays the match as
    the heuristic agent. `policy` is the agent whose buy decisions it projects."""

    name = "heuristic"

    def __init__(self, policy: BuyPolicy | None = None) -> None:
        self.policy: BuyPolicy = policy if policy is not None else HeuristicAgent()
        self._eco: Economy | None = None

    def economy(self, cfg: GameConfig) -> Economy:
        """The setup's economy, worked out once per game (configs are shared and immutable)."""
        if self._eco is None or self._eco.config is not cfg:
            self._eco = Economy(cfg, self.policy)
        return self._eco

    def values(self, s: GameState, legal: list[Action]) -> dict[int, float]:
        """The drafter's value of each card offered, by card id."""
        seat = s.draft_seat
        held = Held(s, seat)
        proj = Projection(self.economy(s.config), held)
        kind = s.config.board.victory.kind
        out: dict[int, float] = {}
        for a in legal:
            card = s.cards[a.card]
            use = NEVER + (1.0 - NEVER) * proj.use(card)
            out[a.card] = use * (numbers_value(card, kind) + synergy(s, card, held))
        return out

    def pick(self, s: GameState, legal: list[Action]) -> Action:
        vals = self.values(s, legal)
        return max(legal, key=lambda a: (vals[a.card], -a.card))

    def act(self, game: Game, legal: list[Action], rng: random.Random) -> Action:
        s = game.state
        if s.phase == Phase.DRAFT:
            return self.pick(s, legal)
        return choose(s, legal, rng)


# --- the ratings drafter -------------------------------------------------------------------------

RatingsLoader = Callable[[str, dict[str, str]], dict[str, float]]
_LOADERS: list[RatingsLoader] = []


def register_ratings_loader(loader: RatingsLoader) -> None:
    """Let the workbench turn `db=PATH` into ratings (the engine stays free of databases)."""
    if loader not in _LOADERS:
        _LOADERS.append(loader)


def read_ratings_file(path: str) -> dict[str, float]:
    """A JSON file `{"name": score}` or `{"name": {"score": s, "games": n}}`."""
    with open(path, encoding="utf-8") as f:
        raw = json.load(f)
    if isinstance(raw, dict) and "ratings" in raw and isinstance(raw["ratings"], dict):
        raw = raw["ratings"]
    out: dict[str, float] = {}
    for name, v in raw.items():
        out[name] = float(v["score"]) if isinstance(v, dict) else float(v)
    return out


class RatingsDrafter:
    """Picks the best rated card; unrated cards get the mean rating. A win-rate difference of
    0.025 outweighs one point of the heuristic value (about 0..10, scaled by 0.1), which only
    breaks near-ties."""

    name = "ratings"

    def __init__(self, ratings: dict[str, float], weight: float = 1.0,
                 params: dict[str, str] | None = None) -> None:
        self.ratings = {k.casefold(): v for k, v in ratings.items()}
        self.weight = weight
        self.params = dict(params or {})
        vals = list(self.ratings.values())
        self.mean = sum(vals) / len(vals) if vals else 0.5
        self._heuristic = HeuristicDrafter()

    def pick(self, s: GameState, legal: list[Action]) -> Action:
        heuristic = self._heuristic.values(s, legal)

        def key(a: Action) -> tuple[float, int]:
            card = s.cards[a.card]
            r = self.ratings.get(card.name.casefold(), self.mean)
            # ratings dominate; the heuristic value (about 0..10) only breaks near-ties
            return (self.weight * (r - self.mean) * 40.0 + 0.1 * heuristic[a.card],
                    -a.card)
        return max(legal, key=key)

    def act(self, game: Game, legal: list[Action], rng: random.Random) -> Action:
        s = game.state
        if s.phase == Phase.DRAFT:
            return self.pick(s, legal)
        return choose(s, legal, rng)


def make_ratings_drafter(params: dict[str, str]) -> RatingsDrafter:
    """The `ratings` factory: `ratings_file=PATH`, or `db=PATH` through a registered loader,
    or no source at all (every card unrated: the heuristic drafter's picks)."""
    ratings: dict[str, float] = {}
    if "ratings_file" in params:
        ratings = read_ratings_file(params["ratings_file"])
    elif "db" in params:
        if not _LOADERS:
            # the workbench's loader registers itself on import; the engine itself never
            # imports a database driver (only this optional hook reaches the workbench)
            try:
                import importlib
                importlib.import_module("workbench.ratings")
            except ImportError:
                pass
        if not _LOADERS:
            raise ValueError("ratings:db=PATH needs the workbench's loader (import "
                             "workbench.ratings), or pass ratings_file=PATH")
        ratings = _LOADERS[-1](params["db"], params)
    return RatingsDrafter(ratings, float(params.get("weight", 1.0)), params)
