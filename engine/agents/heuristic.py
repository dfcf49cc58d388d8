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
  income can carry; on the resource race it saves instead;
- end of turn (R4.6): discards hand cards worse than an average draw.

Hidden information: it reads the board, resources, stores and discards (public, R8.2, R8.3),
its own hand, and the multiset of its own deck (known to its owner, never the order). It never
reads other players' hands or any deck order.

Parameters: `eps=F` (default 0): with probability F take a random legal action instead
(used by the search agent for varied rollouts).

Its numbers (how much a unit's position, an exchange, a resource, a buy are worth) are a
`Weights` object (`engine.agents.weights`): `heuristic` plays the hand-set ones, `tuned` those
`workbench train-agent` found (`engine.agents.tuned`).

What things are worth (cards, permanents, exchanges, effects) lives in `engine.agents.values`,
its buy policy (R7) in `engine.agents.buy_policy`.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from engine import actions as A
from engine.actions import Action
from engine.agents.buy_policy import (
    buy_score,
    buy_value,
    race_buy,
    saves,
    seat_income,
    upkeep_load,
)
from engine.agents.values import (
    View,
    board_affinity,
    card_value,
    effect_value,
    exchange,
    perm_value,
    resource_gain,
    strike,
)
from engine.agents.weights import DEFAULT, Weights
from engine.board import Terrain, VictoryKind
from engine.cards import Card, CardType
from engine.choices import DiscardChoice, PlaceChoice
from engine.effects import free_action_of
from engine.game import Game
from engine.permanents import hp_left, is_veiled, max_range, profile, protected_from
from engine.state import GameState, Perm
from engine.vocab import ActionKind, Phase

# The words as module constants: on Python 3.11 reading an enum member (`ActionKind.MOVE`)
# goes through EnumType.__getattr__ (~0.3 us), too slow once per generated or scored action.
(
    _ACTIVATE,
    _ATTACK,
    _CARRY,
    _CONVERT,
    _END,
    _EQUIP,
    _FREE,
    _FULL,
    _MOVE,
    _PASS,
    _PAY,
    _PLAY,
    _SWAP,
    _TAP,
    _UNPARALYSE,
    _PHASE_BUY,
    _PHASE_DISCARD,
    _PHASE_DRAFT,
    _PHASE_UPKEEP_DUE,
) = (
    ActionKind.ACTIVATE,
    ActionKind.ATTACK,
    ActionKind.CARRY,
    ActionKind.CONVERT,
    ActionKind.END,
    ActionKind.EQUIP,
    ActionKind.FREE,
    ActionKind.FULL,
    ActionKind.MOVE,
    ActionKind.PASS,
    ActionKind.PAY,
    ActionKind.PLAY,
    ActionKind.SWAP,
    ActionKind.TAP,
    ActionKind.UNPARALYSE,
    Phase.BUY,
    Phase.DISCARD,
    Phase.DRAFT,
    Phase.UPKEEP_DUE,
)

if TYPE_CHECKING:  # drafters import this module: the drafter is imported at use
    from engine.agents.drafters import HeuristicDrafter

# --- the agent ---------------------------------------------------------------------------------


class HeuristicAgent:
    """Greedy over a cheap score of each legal action; see the module docstring."""

    name = "heuristic"

    def __init__(
        self, eps: float = 0.0, weights: Weights = DEFAULT, name: str = "heuristic"
    ) -> None:
        self.eps = eps
        self.weights = weights
        self.name = name
        self.params: dict[str, float] = {"eps": eps} if eps else {}
        self._drafter: HeuristicDrafter | None = None

    def act(self, game: Game, legal: list[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        if self.eps and rng.random() < self.eps:
            return legal[rng.randrange(len(legal))]
        return choose(game.state, legal, rng, self)

    def drafter(self) -> HeuristicDrafter:
        """This agent's drafter: it drafts by what this agent's buy policy would buy."""
        if self._drafter is None:
            from engine.agents.drafters import HeuristicDrafter

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
        from engine.agents.drafters import HeuristicDrafter

        d = agent.drafter() if agent is not None else HeuristicDrafter()
        return d.pick(s, legal)
    w = agent.weights if agent is not None else DEFAULT
    if s.pending:
        return _pending(s, legal, w)
    if s.priority:
        return A.PASS_ACTION if A.PASS_ACTION in legal else legal[0]
    if s.phase == _PHASE_UPKEEP_DUE:
        return _upkeep(s, legal, w)
    scored = score_actions(s, legal, w)
    best = max(scored, key=lambda x: x[0])
    return best[1]


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
        return _unit_scores(v, s.perms[s.activated], legal)
    return [(_main_score(v, a), a) for a in legal]


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
        step = _gain_step(v, legal, up - res, worth)
        if step is not None:
            return step
    return A.REFUSE_ACTION


def _upkeep_worth(v: View, p: Perm) -> float:
    return v.pv(p) + (50.0 if p.cid == v.my_vip or p.cid == v.staff_base else 0.0)


def _gain_step(v: View, legal: list[Action], short: int, worth: float) -> Action | None:
    """The first step of the cheapest way to gain `short` resource with the legal fast and free
    actions (resource spells, free actions, R8.6's convert), or None when they cannot gain that
    much or it costs more than `worth`. Costs: what a spell's or free action's other effects
    and its discards and sacrifice lose; for a convert half the keep value of the two weakest
    hand cards (discarded cards come back with the discard pile, a defeated unit must be played
    again)."""
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
        kept = sorted(_keep_value(v, c) for c in s.players[v.seat].hand if c not in used)
        steps.extend(
            (0.5 * (kept[i] + kept[i + 1]), 1, A.CONVERT_ACTION) for i in range(0, len(kept) - 1, 2)
        )
    steps.sort(key=lambda x: x[0] / x[1])
    loss = 0.0
    for lost, got, _ in steps:
        loss += lost
        short -= got
        if short <= 0:
            return steps[0][2] if loss <= worth else None
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
    """R4.6: discard cards worse than an average card of the own deck (known multiset)."""
    if a.kind == _END:
        return 0.0
    s = v.s
    pl = s.players[v.seat]
    pool = pl.deck or pl.discard
    if not pool:
        return -1.0
    if v._pool_avg is None:
        v._pool_avg = sum(card_value(s.cards[c]) for c in pool) / len(pool)
    return v._pool_avg - _keep_value(v, a.card) - 0.5


# --- the action phase --------------------------------------------------------------------------


def _main_score(v: View, a: Action) -> float:
    """An action of the action phase (R6.8) outside a unit's activation."""
    s = v.s
    k = a.kind
    w = v.w
    if k == _PASS:
        return 0.0
    if k == _PLAY:
        return _play_score(v, a)
    if k == _ACTIVATE:
        p = s.perms[a.card]
        if p.cid == v.my_vip:
            return 0.5 if any(v.geo._dist[p.field][e.field] <= 2 for e in v.enemy_units) else -1
        urgent = 0.0
        if v.tyrant_field >= 0 and p.field >= 0:
            # the units the Tyrant threatens move first, before others block their way out
            dt = v.geo._dist[p.field][v.tyrant_field]
            urgent = 0.5 if p.cid == v.marked else 0.3 if dt <= 1 else 0.1 if dt == 2 else 0.0
        return 4.0 + urgent - 0.01 * v.goal_dist(s.perm_field(p))
    if k == _FREE:
        fa = free_action_of(s, a.card, a.index)
        val = effect_value(v, a.card, fa.effects, a.target)
        cost = fa.cost.resource * v.resource_value() + 0.9 * fa.cost.discard
        if fa.cost.sacrifice and a.card in s.perms:
            cost += perm_value(s, s.perms[a.card])
        return val - cost + w.free_bias
    if k == _CONVERT:
        return _convert_score(v)
    return -5.0


def _play_score(v: View, a: Action) -> float:
    """Playing a card (R6.2): a spell for its effect against its cost; a permanent whose upkeep
    stays affordable, a unit deployed toward the objective (R12.3)."""
    s, w = v.s, v.w
    pl = s.players[v.seat]
    card = s.cards[a.card]
    after = pl.resource - (card.play or 0)
    if card.type is CardType.SPELL:
        val = effect_value(v, a.card, card.effects, a.target, a.field)
        return val - w.spell_cost * (card.play or 0) * v.resource_value() + 0.1
    # permanents: the upkeep it adds must be affordable next turn
    up = card.upkeep or 0
    if (
        card.type is CardType.UNIT
        and up > 0
        and after + seat_income(v) < upkeep_load(v) + up + w.unit_reserve
    ):
        return -1.0
    if (
        v.kind is VictoryKind.RESOURCE
        and (card.play or 0) + 2 * up > 1
        and not ({e.verb for t in card.triggers for e in t.effects} & {"gain", "steal"})
        and len([p for p in v.mine if s.cards[p.cid].type is CardType.UNIT]) >= 3
    ):
        return -1.0
    val = card_value(card) - w.perm_cost * (card.play or 0) * v.resource_value()
    if a.field < 0:
        # equip the next unit played (R15.6): only with a unit to play this turn
        units = [
            c
            for c in pl.hand
            if s.cards[c].type is CardType.UNIT and (s.cards[c].play or 0) <= after
        ]
        return val + 1.0 if units else -1.0
    if card.type is CardType.UNIT:
        val += 2.0 - w.deploy_goal * v.goal_dist(a.field)
        if v.tyrant_field >= 0:
            val -= tyrant_adjacency(v, v.geo._dist[a.field][v.tyrant_field], 0.0)
        if v.kind is VictoryKind.RESOURCE and v.board.fields[a.field].income > 0:
            val += 3.0
        if (card.range or 1) > 1 and v.board.fields[a.field].terrain is Terrain.HIGH_GROUND:
            val += 1.0
        if w.unit_crowd:
            val -= w.unit_crowd * sum(s.cards[p.cid].type is CardType.UNIT for p in v.mine)
        return w.deploy_base + val
    near = sum(1 for p in v.mine if v.geo._dist[a.field][p.field] <= 1)
    return 1.0 + val + 0.3 * near - 0.05 * v.goal_dist(a.field)


def _convert_score(v: View) -> float:
    """R8.6 before passing: turn two leftover hand cards into 1 resource."""
    s = v.s
    pl = s.players[v.seat]
    hand = pl.hand
    keep = 0
    for c in hand:
        card = s.cards[c]
        if (
            card.play is not None
            and card.play <= pl.resource + seat_income(v)
            and card_value(card) >= v.w.convert_keep
        ):
            keep += 1
    if len(hand) - keep < 2:
        return -1.0
    return 0.05 + (0.5 if v.kind is VictoryKind.RESOURCE else 0.0)


def _unit_scores(v: View, u: Perm, legal: list[Action]) -> list[tuple[float, Action]]:
    """The activated unit: attack when favourable, move toward the objective, or tap."""
    look = _UnitLook(v, u)
    here = v.s.perm_field(u)
    base = look.position(here)
    att_here = look.best_attack_from(here)
    # swap, equip and unparalyse spend the move or the attack (R13.1, R15.3, R15.6): keep the
    # attack when one is worth making from here, else the move
    spend_move = att_here > 0
    return [(look.score(a, here, base, att_here, spend_move), a) for a in legal]


class _UnitLook:
    """What the activated unit weighs (R12.4): how good a field is to stand on, the best attack
    it could make from a field, and each of its legal actions."""

    def __init__(self, v: View, u: Perm) -> None:
        s = v.s
        self.v, self.u = v, u
        self.card = card = s.cards[u.cid]
        self.uv = v.pv(u)
        self.can_attack = not u.used_attack and u.under < 0
        self.is_vip = u.cid == v.my_vip
        self.holds_staff = u.cid == v.staff_base
        self.reach = max_range(profile(s, u)) if self.can_attack else 0
        self.hp = hp_left(s, u)
        self.own_range = card.range or 1
        self.ranged = self.own_range > 1
        self.harmless = v.tyrant_field >= 0 and all(
            strike(s, u, s.perms[c], 1) <= 0 for c in v.objectives
        )
        targets = [t for t in v.enemy if t.field >= 0]
        self.ok = [t for t in targets if _attackable(s, u, t)] if self.can_attack else []
        self.memo: dict[tuple[int, int], float] = {}

    def position(self, f: int) -> float:
        """How good it is for this unit to stand on f (before attacking from it)."""
        v, u, w, geo, uv = self.v, self.u, self.v.w, self.v.geo, self.uv
        sc = 0.0
        if self.is_vip or self.holds_staff:
            return -1.5 * v.danger(f) - (0.0 if not self.holds_staff else 0.1 * v.goal_dist(f))
        if u.cid == v.marked and v.tyrant_field >= 0:
            # R17.3/R17.4: the Tyrant must reach its marker; keep the marked unit away
            return 3.0 * min(6, geo._dist[f][v.tyrant_field])
        gd = v.goal_dist(f)
        if v.tyrant_field >= 0:
            sc -= tyrant_adjacency(v, geo._dist[f][v.tyrant_field], uv)
        if self.harmless:
            # it cannot hurt the Tyrant through its armor: keep clear, out of everyone's way
            sc -= 1.0 * abs(gd - 4)
        elif self.ranged and v.objectives and v.kind is not VictoryKind.CAPTURE:
            # ranged units keep their distance from what they shoot at
            sc -= 1.0 * abs(gd - self.own_range) + (1.5 if gd <= 1 else 0.0)
        else:
            sc -= w.goal_pull * gd
        if v.kind is VictoryKind.CAPTURE and v.board.fields[f].area is not None:
            sc += w.area_pull
        if v.kind is VictoryKind.RESOURCE:
            sc += w.income_pull * v.board.fields[f].income
        if v.kind is VictoryKind.STAFF and gd == 1 and v.staff_base < 0:
            sc += 3.0
        dg = v.danger(f)
        if dg >= self.hp:
            sc -= w.danger_fear * uv
        elif dg and w.danger_soft:
            sc -= w.danger_soft * uv * dg / self.hp
        if (self.card.range or 1) > 1 and v.board.fields[f].terrain is Terrain.HIGH_GROUND:
            sc += 0.5
        return sc

    def best_attack_from(self, f: int) -> float:
        """The best exchange (R12.11) it could start from f, 0 for none."""
        if not self.can_attack:
            return 0.0
        best = 0.0
        row = self.v.geo._dist[f]
        memo, reach = self.memo, self.reach
        for t in self.ok:
            d = row[t.field]
            if d <= reach:
                key = (t.cid, d)
                x = memo.get(key)
                if x is None:
                    x = memo[key] = exchange(self.v, self.u, t, d)
                best = max(best, x)
        return best

    def score(self, a: Action, here: int, base: float, att_here: float, spend_move: bool) -> float:
        """One legal action of the activated unit; `base` and `att_here` are the position and
        the best attack where it stands."""
        v, u, card = self.v, self.u, self.card
        s, w = v.s, v.w
        kept = 0.01 if (a.index == A.SPEND_MOVE) == spend_move else 0.0
        k = a.kind
        if k == _TAP:
            return 0.0
        if k == _ATTACK:
            t = s.perms[a.target]
            return exchange(v, u, t, v.geo.dist(here, s.perm_field(t))) + w.attack_bias
        if k == _MOVE:
            if s.occ[a.field] >= 0:
                # riding a crew unit (R12.9)
                return (
                    0.5
                    + self.position(a.field)
                    - base
                    + (1.0 if (card.range or 1) > 1 else 0.0)
                    - 0.5
                )
            gain = self.position(a.field) - base
            if self.can_attack:
                gain += w.attack_look * self.best_attack_from(a.field) - w.attack_look * att_here
            return gain - 0.05
        if k == _FULL:
            val = effect_value(v, u.cid, card.full_actions[a.index], a.target)
            return val - 1.0 - 0.5 * att_here
        if k == _EQUIP:
            eq = s.cards[a.other]
            return 100.0 + kept if eq.keywords.staff else card_value(eq) - 0.5 + kept
        if k == _SWAP:
            art = s.cards[a.other]
            return -1.0 + kept if not art.keywords.staff else -0.5 + kept
        if k == _CARRY:
            return -2.0
        if k == _UNPARALYSE:
            return 0.5 + kept
        return _main_score(v, a) - 0.5


def tyrant_adjacency(v: View, dt: int, uv: float) -> float:
    """The cost of ending the turn at distance dt of the Tyrant. R21.15: without a marker
    on the board the Tyrant marks the nearest unit and carries the intention out at once
    when it stands next to it; with a marker out it only attacks a neighbour."""
    if dt <= 1:
        return 4.0 if v.marked >= 0 else 14.0 + 0.5 * uv
    return 1.0 if dt == 2 and v.marked < 0 else 0.0


def _attackable(s: GameState, u: Perm, t: Perm) -> bool:
    card = s.cards[t.cid]
    if card.type is not CardType.UNIT and card.keywords.solid is None:
        return False
    return not is_veiled(s, t) and not protected_from(s, t, s.cards[u.cid])
