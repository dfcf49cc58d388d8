"""The heuristic agent's scores in the action phase (R6.8): which card to play and where to
deploy it, which unit to activate, and each action of the activated unit (move toward the
objective of the board's victory condition, R19, R21.12-R21.15; attack when the exchange is
favourable, R12.7, R12.8, R12.11), free actions worth their cost, R8.6's convert before passing.
The agent itself, its upkeep, pending choices and discards are `engine.agents.heuristic`."""

from __future__ import annotations

from engine import actions as A
from engine.actions import Action
from engine.agents.buy_policy import seat_income, upkeep_load
from engine.agents.values import View, card_value, effect_value, exchange, perm_value, strike
from engine.board import Terrain, VictoryKind
from engine.cards import CardType
from engine.effects import free_action_of
from engine.permanents import hp_left, is_veiled, max_range, profile, protected_from
from engine.state import GameState, Perm
from engine.vocab import ActionKind

# The words as module constants: on Python 3.11 reading an enum member (`ActionKind.MOVE`)
# goes through EnumType.__getattr__ (~0.3 us), too slow once per scored action.
(
    _ACTIVATE,
    _ATTACK,
    _CARRY,
    _CONVERT,
    _EQUIP,
    _FREE,
    _FULL,
    _MOVE,
    _PASS,
    _PLAY,
    _SWAP,
    _TAP,
    _UNPARALYSE,
) = (
    ActionKind.ACTIVATE,
    ActionKind.ATTACK,
    ActionKind.CARRY,
    ActionKind.CONVERT,
    ActionKind.EQUIP,
    ActionKind.FREE,
    ActionKind.FULL,
    ActionKind.MOVE,
    ActionKind.PASS,
    ActionKind.PLAY,
    ActionKind.SWAP,
    ActionKind.TAP,
    ActionKind.UNPARALYSE,
)


def main_score(v: View, a: Action) -> float:
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


def unit_scores(v: View, u: Perm, legal: list[Action]) -> list[tuple[float, Action]]:
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
        return main_score(v, a) - 0.5


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
