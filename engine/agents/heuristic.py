"""The rules-based heuristic agent: scores every legal action with a cheap function of the
public state and takes the best one (no cloning, no look-ahead).

What it does, decision by decision:
- draft picks: delegated to the heuristic drafter (`engine.agents.drafters`);
- response windows (R21.6): passes (its fast actions are used in its own action phase);
- upkeep (R5.3, R21.7, R21.21): pays for the units worth their upkeep, the most valuable first,
  while the resource lasts; short of it for a unit, first gains the rest with a resource spell,
  a free action or R8.6's convert when that costs less than the unit is worth;
- action phase (R6.8): plays spells whose effect is worth their cost, deploys permanents whose
  upkeep it can afford next turn (deploy field nearest the board's objective), activates each
  unit once, moves it toward the objective of the board's victory condition (R19, R21.12-R21.15)
  and attacks when the exchange is favourable (damage and kills weighed by card value, R12.7,
  R12.8, R12.11); uses free actions worth their cost; before passing, turns leftover hand cards
  into resource (R8.6) when it does not need to keep them;
- buy (R7): the best card it can afford by value for money, given the board and the upkeep its
  income can carry; on the resource race it saves instead. When a dearer card scores better
  than any it can afford, it first gains what is missing with a resource spell, a free action
  or R8.6's convert (R21.24), if their cost is less than the better card's lead;
- end of turn (R4.6): discards hand cards worse than an average draw, two of them for 1
  resource by R8.6's convert (R21.24) rather than for nothing.

Hidden information: it reads the board, resources, stores and discards (public, R8.2, R8.3),
its own hand, and the multiset of its own deck (known to its owner, never the order). It never
reads other players' hands or any deck order.

Parameters: `eps=F` (default 0): with probability F take a random legal action instead
(used by the search agent for varied rollouts).

Its numbers (how much a unit's position, an exchange, a resource, a buy are worth) are a
`Weights` object (`engine.agents.weights`): `heuristic` plays the hand-set ones, `tuned` those
`workbench train-agent` found (`engine.agents.tuned`).

What things are worth (cards, permanents, exchanges, effects) lives in `engine.agents.values`,
its buy policy (R7) in `engine.agents.buy_policy`, its scores of the action phase (R6.8) in
`engine.agents.action_phase`; this module holds the agent, its choice per decision, upkeep,
pending choices and discards.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from operator import itemgetter

from mypy_extensions import mypyc_attr

from engine import actions as A
from engine.actions import Action
from engine.agents.action_phase import main_score, unit_scores
from engine.agents.buy_policy import buy_score, buy_value, race_buy, saves, store_score
from engine.agents.drafters import HeuristicDrafter, Picker
from engine.agents.values import View, board_affinity, card_value, effect_value, resource_gain
from engine.agents.weights import DEFAULT, Weights
from engine.board import VictoryKind
from engine.cards import Card
from engine.choices import DiscardChoice, PlaceChoice
from engine.effects import free_action_of
from engine.game import Game
from engine.state import GameState, Perm
from engine.vocab import ActionKind, Phase

# The words as module constants: on Python 3.11 reading an enum member (`ActionKind.MOVE`)
# goes through EnumType.__getattr__ (~0.3 us), too slow once per generated or scored action.
(
    _BUY,
    _CONVERT,
    _DISCARD,
    _END,
    _FREE,
    _PAY,
    _PLAY,
    _PHASE_BUY,
    _PHASE_DISCARD,
    _PHASE_DRAFT,
    _PHASE_UPKEEP_DUE,
) = (
    ActionKind.BUY,
    ActionKind.CONVERT,
    ActionKind.DISCARD,
    ActionKind.END,
    ActionKind.FREE,
    ActionKind.PAY,
    ActionKind.PLAY,
    Phase.BUY,
    Phase.DISCARD,
    Phase.DRAFT,
    Phase.UPKEEP_DUE,
)
_GAINS = (_PLAY, _FREE, _CONVERT)
"""The kinds of the fast and free actions that may gain resource (R6.6, R6.7, R8.6)."""

_SCORE = itemgetter(0)
"""A scored action's score (the first best wins ties: the engine's order)."""

# --- the agent ---------------------------------------------------------------------------------


@mypyc_attr(allow_interpreted_subclasses=True)  # a designer's agent may build on it
class HeuristicAgent:
    """Greedy over a cheap score of each legal action; see the module docstring."""

    name = "heuristic"

    def __init__(
        self,
        eps: float = 0.0,
        weights: Weights = DEFAULT,
        name: str = "heuristic",
        drafter: Picker | None = None,
    ) -> None:
        self.eps = eps
        self.weights = weights
        self.name = name
        self.params: dict[str, float] = {"eps": eps} if eps else {}
        self._drafter = drafter

    def act(self, game: Game, legal: list[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        if self.eps and rng.random() < self.eps:
            return legal[rng.randrange(len(legal))]
        return choose(game.state, legal, rng, self)

    def passes(self, state: GameState) -> bool:
        """Whether `act` passes whatever the legal actions (`engine.play.Passer`): in a
        response window, unless `eps` would draw a random action there."""
        return not self.eps and passes(state)

    def drafter(self) -> Picker:
        """This agent's drafter: the one it was given, else one that drafts by what this agent's
        buy policy would buy."""
        if self._drafter is None:
            self._drafter = HeuristicDrafter(self)
        return self._drafter

    # the buy policy (R7), for the drafter's projection of what this agent will buy
    def buy_value(self, card: Card, kind: VictoryKind, deck_up: int, income: int) -> float:
        return buy_value(card, kind, deck_up, income, self.weights)

    def race_buy(self, card: Card, resource: float, target: int, round_: int) -> float:
        return race_buy(card, resource, target, round_, self.weights)

    def saves(self, save_for: float, score: float) -> bool:
        return saves(save_for, score, self.weights)


def choose(
    s: GameState, legal: list[Action], rng: random.Random, agent: HeuristicAgent | None = None
) -> Action:
    """The heuristic's choice for any decision."""
    if s.phase == _PHASE_DRAFT:
        d = agent.drafter() if agent is not None else HeuristicDrafter()
        return d.pick(s, legal)
    w = agent.weights if agent is not None else DEFAULT
    if s.pending:
        return _pending(s, legal, w)
    if s.priority:
        return A.PASS_ACTION if A.PASS_ACTION in legal else legal[0]
    if s.phase == _PHASE_UPKEEP_DUE:
        return _upkeep(s, legal, w)
    if s.phase == _PHASE_BUY:
        step = _afford_better(s, legal, w)
        if step is not None:
            return step
    return max(score_actions(s, legal, w), key=_SCORE)[1]


def passes(s: GameState) -> bool:
    """Whether `choose` passes whatever the legal actions: in a response window (R21.6) the
    heuristic always lets the stack resolve, so a rollout need not list them."""
    return bool(s.priority) and not s.pending and s.phase != _PHASE_DRAFT


def score_actions(
    s: GameState, legal: list[Action], w: Weights = DEFAULT
) -> list[tuple[float, Action]]:
    """Each legal action of a main, buy or discard decision with the heuristic's score (ties
    keep the engine's order). The search agent uses these scores to pick its candidates."""
    seat = s.active if not s.priority else s.priority[0]
    v = View(s, seat, w)
    if s.phase == _PHASE_BUY:
        return [(buy_score(v, a), a) for a in legal]
    if s.phase == _PHASE_DISCARD:
        return [(_end_discard_score(v, a), a) for a in legal]
    if s.activated >= 0 and s.activated in s.perms:
        return unit_scores(v, s.perms[s.activated], legal)
    return [(main_score(v, a), a) for a in legal]


# --- upkeep ------------------------------------------------------------------------------------


def _upkeep(s: GameState, legal: list[Action], w: Weights) -> Action:
    """R5.3, R21.7, R21.21: pay for the units worth their upkeep (worth at least
    `upkeep_keep` times it), the most valuable first; when the resource falls short of one,
    first gain what is missing with fast and free actions if that costs less than the unit is
    worth; refuse the rest."""
    seat = s.active
    v = View(s, seat, w)
    res = s.players[seat].resource
    ranked = sorted(
        ((_upkeep_worth(v, s.perms[c]), c) for c in s.upkeep_due), key=lambda x: (-x[0], x[1])
    )
    for worth, cid in ranked:
        up = s.cards[cid].upkeep or 0
        p = s.perms[cid]
        if (
            v.kind is VictoryKind.RESOURCE
            and worth < 3.0 * up + 3
            and not (p.field >= 0 and v.board.fields[p.field].income > 0)
        ):
            continue  # the resource race: a unit off the income fields is not worth its upkeep
        if worth < w.upkeep_keep * up:
            continue
        if up <= res:
            return Action(_PAY, cid)
        step = _gain_step(v, legal, up - res, worth, _needed_now)
        if step is not None:
            return step
    return A.REFUSE_ACTION


def _needed_now(v: View, cid: int) -> float:
    """A hand card's loss when discarded in upkeep: half its keep value (it comes back with the
    discard pile, but the action phase that follows could have used it)."""
    return 0.5 * _keep_value(v, cid)


def _upkeep_worth(v: View, p: Perm) -> float:
    return v.pv(p) + (50.0 if p.cid == v.my_vip or p.cid == v.staff_base else 0.0)


def _gain_step(
    v: View, legal: list[Action], short: int, worth: float, card_loss: Callable[[View, int], float]
) -> Action | None:
    """The first step of the cheapest way to gain `short` resource with the legal fast and free
    actions (resource spells, free actions, R8.6's convert), or None when they cannot gain that
    much or it costs more than `worth`. Costs: what a spell's or free action's other effects
    and its discards and sacrifice lose; for a convert `card_loss` of the two hand cards that
    lose least."""
    s = v.s
    rv = v.resource_value()
    best: dict[int, tuple[float, int, Action]] = {}  # per card: (loss, resource, action)
    used: set[int] = set()
    for a in legal:
        if a.kind == _PLAY:
            effects = s.cards[a.card].effects
            spent, loss = s.cards[a.card].play or 0, 0.0
        elif a.kind == _FREE:
            fa = free_action_of(s, a.card, a.index)
            effects, spent = fa.effects, fa.cost.resource
            loss = 0.9 * fa.cost.discard + (v.pv(s.perms[a.card]) if fa.cost.sacrifice else 0.0)
        else:
            continue
        got = resource_gain(v, a.card, effects, a.target)
        if got <= spent:
            continue
        loss += max(0.0, got * rv - effect_value(v, a.card, effects, a.target))
        if a.card not in best or loss < best[a.card][0]:
            best[a.card] = (loss, got - spent, a)
        if a.kind == _PLAY:
            used.add(a.card)
    steps = list(best.values())
    if A.CONVERT_ACTION in legal:
        kept = sorted(card_loss(v, c) for c in s.players[v.seat].hand if c not in used)
        steps.extend(
            (kept[i] + kept[i + 1], 1, A.CONVERT_ACTION) for i in range(0, len(kept) - 1, 2)
        )
    steps.sort(key=lambda x: x[0] / x[1])
    loss = 0.0
    for lost, got, _ in steps:
        loss += lost
        short -= got
        if short <= 0:
            return steps[0][2] if loss <= worth else None
    return None


# --- buying ------------------------------------------------------------------------------------


def _afford_better(s: GameState, legal: list[Action], w: Weights) -> Action | None:
    """R21.24: the first step of gaining, with the legal fast and free actions, the resource a
    store card the seat cannot afford needs, when that card scores better as a buy than the
    best choice now (a card it can afford, or passing) by more than the gain costs (`_gain_step`,
    its lead weighed by `buy_gain`); the best such card first. Never on the resource race,
    where the resource is the goal (R19.2)."""
    if not any(a.kind in _GAINS for a in legal):
        return None
    v = View(s, s.active, w)
    if v.kind is VictoryKind.RESOURCE:
        return None
    res = s.players[v.seat].resource
    now = max([w.buy_min, *(buy_score(v, a) for a in legal if a.kind == _BUY)])
    dearer: dict[str, tuple[float, int]] = {}
    for c in s.players[v.seat].store:
        card = s.cards[c]
        if card.buy is not None and card.buy > res and card.name not in dearer:
            dearer[card.name] = (store_score(v, c), card.buy)
    for score, price in sorted(dearer.values(), reverse=True):
        if score <= now:
            break
        step = _gain_step(v, legal, price - res, w.buy_gain * (score - now), _kept_for_next_turn)
        if step is not None:
            return step
    return None


# --- pending choices ---------------------------------------------------------------------------


def _pending(s: GameState, legal: list[Action], w: Weights) -> Action:
    pd = s.pending[0]
    v = View(s, pd.player, w)
    if isinstance(pd, DiscardChoice):
        return min(legal, key=lambda a: (_keep_value(v, a.card), a.card))
    if isinstance(pd, PlaceChoice):
        return min(legal, key=lambda a: (v.goal_dist(a.field), a.field))
    card = s.cards[pd.source]
    effects = card.effects if pd.trigger is None else card.triggers[pd.trigger].effects
    return max(legal, key=lambda a: effect_value(v, pd.source, effects, a.target))


def _keep_value(v: View, cid: int) -> float:
    """How much a hand card is worth keeping (for discards)."""
    card = v.s.cards[cid]
    val = card_value(card) + board_affinity(card, v.kind)
    if card.play is not None and card.play > v.s.players[v.seat].resource + 3:
        val -= 3.0
    return val


def _end_discard_score(v: View, a: Action) -> float:
    """R4.6: discard cards worse than an average card of the own deck (known multiset); two or
    more such cards go by R8.6's convert first, for 1 resource (R21.24: the pending discards
    then take the least worth keeping). Other fast actions score below ending the turn."""
    if a.kind == _END:
        return 0.0
    if a.kind == _DISCARD:
        return _discard_gain(v, a.card)
    if a.kind == _CONVERT:
        gains = [x for c in v.s.players[v.seat].hand if (x := _discard_gain(v, c)) > 0]
        return max(gains) + 0.1 if len(gains) >= 2 else -1.0
    return -1.0


def _kept_for_next_turn(v: View, cid: int) -> float:
    """A hand card's loss when discarded at the end of the turn (the buy and discard steps):
    what it is worth keeping beyond the average card that the draw up to 3 brings instead."""
    return max(0.0, -0.5 - _discard_gain(v, cid))


def _discard_gain(v: View, cid: int) -> float:
    """How much better an average draw is than hand card `cid` (above 0: discard it)."""
    s = v.s
    pl = s.players[v.seat]
    pool = pl.deck or pl.discard
    if not pool:
        return -1.0
    if v._pool_avg is None:
        v._pool_avg = sum(card_value(s.cards[c]) for c in pool) / len(pool)
    return v._pool_avg - _keep_value(v, cid) - 0.5
