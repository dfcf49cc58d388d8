"""The valued agent: the heuristic agent whose buy steps (R7) follow card values learned from
what wins, not the hand-set value for money.

The values are data (`engine.agents.buy_values`, written by `workbench train-agent --buying`):
per board and stage of the game (rounds 1-4, 5-9, 10 on), for each card name, how much buying
it raised the buyer's share of wins over passing the buy step, measured at buy steps where the
choice was made at random (the explorer's purchases, then the valued agent's own with some of
its buys random, re-estimated round by round; workbench/training/buy_values.py). A
value is therefore the card's worth in this board's economy as the game is really played:
its price, its upkeep, what the resource would have bought instead and when it comes round
in the deck, all counted by the outcome rather than by a formula.

Buy step: the card of the highest value for the board and stage, if that value is above 0
(passing); otherwise it passes. With `sample=T` (Thompson sampling) each card's value at a buy
step is drawn around its estimate: the value plus T times its spread times a normal draw, the
spread being 1/2 over the root of the random steps behind the value and `PRIOR` (the weight the
trainer shrinks a value toward the pooled one by; a result's standard deviation is at most
1/2). A card is then bought at the chance the data gives it of beating passing: one measured
on few steps, or valued a little below passing, is still tried instead of never bought. The
draws come from the game's rng, so a game stays reproducible from its seed. A card the data
does not know (a designer's new card, or one too rarely offered to measure) is valued by the
heuristic's value for money, mapped onto the learned scale by the board's fitted line
(`FALLBACK`), so a new card is judged rather than ignored. A board the data does not know uses
the values pooled over the trained boards.

Deploying (R6.8) with `cap=F`: a unit with upkeep is deployed only while the upkeep of the
seat's units, this one's included, stays within F times its income (R5.1, R5.3), so that the
upkeep lock of BENCHMARKS.md (the heuristic deploys every unit whose upkeep it can pay next
turn, and from round 10 upkeep ate all income, buying stopped) is entered only where the board
leaves no choice. Without a cap (the default) it deploys as the heuristic does: a cap of 1
won 91 and lost 109 decided games against no cap (BENCHMARKS.md "The valued agent"), and the
learned buying alone brought upkeep from round 10 to 61-76% of income. Upkeep itself (R5.3,
R21.21) is paid by the heuristic's rule.

Drafting (R3): the heuristic drafter projecting this agent's own buy policy (the learned values
stand in for `buy_value`), so it drafts the cards it will buy on this board.

Everything else (the action phase, responses, pending choices, discards) is the heuristic's.

On the resource race (R19.2) it plays as the heuristic does, buying and drafting included:
there resource is the score, and values measured against random buying in the rest of the game
(which spends what a racer hoards) misled it; buying by them it lost 58 of 60 games to the
heuristic on gold-rush (BENCHMARKS.md "The valued agent").
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Mapping, Sequence

from engine import actions as A
from engine.actions import Action
from engine.agents.buy_policy import buy_value, seat_income, upkeep_load
from engine.agents.drafters import HeuristicDrafter
from engine.agents.heuristic import HeuristicAgent, score_actions
from engine.agents.values import View
from engine.agents.weights import DEFAULT, Weights
from engine.board import VictoryKind
from engine.cards import Card, CardType
from engine.game import Game
from engine.state import GameState
from engine.vocab import ActionKind, Phase

POOLED = "*"
"""The key of the values pooled over every trained board (for boards the data does not know)."""

STAGES = (4, 9)
"""The last round of each stage but the last: rounds 1-4, 5-9, 10 on."""

Table = Mapping[str, tuple[float, ...]]
"""Card name -> learned value per stage (win share over passing)."""


SCALE = 10_000
"""The data module writes values in ten-thousandths of a win share (short lines)."""

PRIOR = 100.0
"""The random buy steps a card's own estimate must have to outweigh the pooled one: the trainer
shrinks by it (`workbench train-agent --buying --prior`), and sampled buying counts it as
steps already seen when it draws a value (`BoardValues.spread`)."""


def _packed(packed: Mapping[str, Sequence[str]]) -> Iterator[tuple[str, str, str, str]]:
    """The entries of the data module's packed form, `name=taken:early,middle,late` joined by
    `|` in strings of a few cards each (so that the module stays short): (board, name, taken,
    values) as texts."""
    for board, chunks in packed.items():
        for chunk in chunks:
            for item in chunk.split("|"):
                name, _, rest = item.rpartition("=")
                taken, _, values = rest.partition(":")
                yield board, name, taken, values


def unpack(packed: Mapping[str, Sequence[str]]) -> dict[str, dict[str, tuple[float, ...]]]:
    """The values of the data module's packed form per board and card (in ten-thousandths
    there)."""
    out: dict[str, dict[str, tuple[float, ...]]] = {board: {} for board in packed}
    for board, name, _, values in _packed(packed):
        out[board][name] = tuple(int(x) / SCALE for x in values.split(","))
    return out


def taken_counts(packed: Mapping[str, Sequence[str]]) -> dict[str, dict[str, int]]:
    """The random buy steps that took each card, per board, of the data module's packed form."""
    out: dict[str, dict[str, int]] = {board: {} for board in packed}
    for board, name, taken, _ in _packed(packed):
        out[board][name] = int(taken)
    return out


def stage(round_: int) -> int:
    """The stage of the game a round belongs to (an index into a value's stages)."""
    for i, last in enumerate(STAGES):
        if round_ <= last:
            return i
    return len(STAGES)


class BoardValues:
    """One board's learned values and the line that maps the heuristic's value for money onto
    them for the cards the data does not know."""

    def __init__(
        self,
        table: Table,
        fallback: tuple[float, float],
        kind: VictoryKind,
        taken: Mapping[str, int] | None = None,
    ) -> None:
        self.table = table
        self.slope, self.intercept = fallback
        self.kind = kind
        self.taken = taken or {}

    def spread(self, card: Card) -> float:
        """The standard error of the card's value: 1/2 over the root of its random steps and
        PRIOR (a card the data does not know has PRIOR's alone). The steps are counted over the
        stages, so a stage's own spread is understated (a third of them, on average)."""
        return 0.5 / math.sqrt(self.taken.get(card.name, 0) + PRIOR)

    def value(self, card: Card, st: int, deck_up: int = 0, income: int = 2) -> float:
        """The card's value at stage `st` (the fallback line for an unknown card)."""
        known = self.table.get(card.name)
        if known is not None:
            return known[st]
        return self.intercept + self.slope * buy_value(card, self.kind, deck_up, income)

    # the projection's buy policy (engine.agents.projection.BuyPolicy), for the drafter: the
    # middle stage's value stands for the game
    def buy_value(self, card: Card, kind: VictoryKind, deck_up: int, income: int) -> float:
        return self.value(card, 1, deck_up, income)

    def race_buy(self, card: Card, resource: float, target: int, round_: int) -> float:
        return self.value(card, stage(round_))

    def saves(self, save_for: float, score: float) -> bool:
        return False


class ValuedAgent(HeuristicAgent):
    """The heuristic agent buying by learned values; see the module docstring."""

    def __init__(
        self,
        values: Mapping[str, Table],
        fallback: Mapping[str, tuple[float, float]],
        cap: float | None = None,
        weights: Weights = DEFAULT,
        name: str = "valued",
        taken: Mapping[str, Mapping[str, int]] | None = None,
        sample: float = 0.0,
    ) -> None:
        super().__init__(weights=weights, name=name)
        self.values = values
        self.fallback = fallback
        self.cap = cap
        self.taken = taken or {}
        self.sample = sample
        self.params = ({} if cap is None else {"cap": cap}) | ({"sample": sample} if sample else {})
        self._boards: dict[str, BoardValues] = {}
        self._drafters: dict[str, HeuristicDrafter] = {}

    def board_values(self, s: GameState) -> BoardValues:
        """The values of the state's board (pooled when the data does not know the board)."""
        board = s.config.board
        bv = self._boards.get(board.name)
        if bv is None:
            key = board.name if board.name in self.values else POOLED
            bv = self._boards[board.name] = BoardValues(
                self.values.get(key, {}),
                self.fallback.get(key, (0.0, 0.0)),
                board.victory.kind,
                self.taken.get(key),
            )
        return bv

    def act(self, game: Game, legal: list[Action], rng: random.Random) -> Action:
        s = game.state
        if s.config.board.victory.kind is VictoryKind.RESOURCE:
            return super().act(game, legal, rng)
        if s.phase == Phase.BUY and not s.pending and not s.priority and len(legal) > 1:
            return self.buy(s, legal, rng)
        if s.phase == Phase.DRAFT:
            return self.draft_pick(s, legal)
        if (
            self.cap is not None
            and s.phase == Phase.ACTION
            and s.activated < 0
            and not s.pending
            and not s.priority
            and len(legal) > 1
        ):
            return self.main(s, legal)
        return super().act(game, legal, rng)

    def main(self, s: GameState, legal: list[Action]) -> Action:
        """R6.8: the heuristic's best action but a unit deploy beyond the upkeep cap."""
        assert self.cap is not None
        cards = s.cards
        v: View | None = None
        best: tuple[float, Action] | None = None
        for sc, a in score_actions(s, legal, self.weights):
            if best is not None and sc <= best[0]:
                continue
            if a.kind is ActionKind.PLAY and (card := cards[a.card]).type is CardType.UNIT:
                up = card.upkeep or 0
                if up > 0:
                    if v is None:
                        v = View(s, s.active, self.weights)
                    if upkeep_load(v) + up > self.cap * seat_income(v):
                        continue
            best = (sc, a)
        return best[1] if best is not None else legal[0]

    def buy(self, s: GameState, legal: list[Action], rng: random.Random) -> Action:
        """R7: the legal buy of the highest learned value at this stage (drawn around it with
        `sample`), if above passing."""
        bv = self.board_values(s)
        st = stage(s.round)
        best, choice = 0.0, A.PASS_ACTION
        for a in legal:
            if a.kind is ActionKind.BUY:
                card = s.cards[a.card]
                v = bv.value(card, st)
                if self.sample:
                    v += self.sample * bv.spread(card) * rng.gauss(0.0, 1.0)
                if v > best:
                    best, choice = v, a
        return choice

    def draft_pick(self, s: GameState, legal: list[Action]) -> Action:
        """R3: the heuristic drafter projecting this agent's buys on the state's board."""
        name = s.config.board.name
        d = self._drafters.get(name)
        if d is None:
            d = self._drafters[name] = HeuristicDrafter(self.board_values(s))
        return d.pick(s, legal)
