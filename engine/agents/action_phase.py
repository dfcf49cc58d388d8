"""The heuristic agent's scores in the action phase (R6.8): which card to play and where to
deploy it, which unit to activate, and each action of the activated unit (move toward the
objective of the board's victory condition, R19, R21.12-R21.15; attack when the exchange is
favourable, R12.7, R12.8, R12.11), free actions worth their cost, R8.6's convert before passing.
The agent itself, its upkeep, pending choices and discards are `engine.agents.heuristic`."""

from __future__ import annotations

from engine import actions as A
from engine import verbs
from engine.actions import Action
from engine.agents.buy_policy import seat_income, upkeep_load
from engine.agents.values import View, card_value, effect_value, exchange, perm_value, strike
from engine.board import Terrain, VictoryKind
from engine.cards import Card, CardType
from engine.effects import free_action_of
from engine.permanents import hp_left, is_veiled, max_range, protected_from
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
_SPELL, _UNIT, _HIGH_GROUND = CardType.SPELL, CardType.UNIT, Terrain.HIGH_GROUND
_CAPTURE, _RESOURCE, _STAFF = VictoryKind.CAPTURE, VictoryKind.RESOURCE, VictoryKind.STAFF


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
            return 0.5 if _near(v.geo._dist[p.field], v.enemy_units, 2) else -1
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
    card = s.cards[a.card]
    if card.type is _SPELL:
        val = effect_value(v, a.card, card.effects, a.target, a.field)
        return val - w.spell_cost * (card.play or 0) * v.resource_value() + 0.1
    known = v.deploys
    if a.card in known:
        worth = known[a.card]
    else:
        worth = known[a.card] = _permanent_worth(v, card)
    if worth is None:
        return -1.0
    val = worth
    if a.field < 0:
        # equip the next unit played (R15.6): only with a unit to play this turn
        after = s.players[v.seat].resource - (card.play or 0)
        cards = s.cards
        unit = any(
            cards[c].type is _UNIT and (cards[c].play or 0) <= after for c in s.players[v.seat].hand
        )
        return val + 1.0 if unit else -1.0
    if card.type is _UNIT:
        val += 2.0 - w.deploy_goal * v.goal_dist(a.field)
        if v.tyrant_field >= 0:
            val -= tyrant_adjacency(v, v.geo._dist[a.field][v.tyrant_field], 0.0)
        if v.kind is _RESOURCE and v.board.fields[a.field].income > 0:
            val += 3.0
        if (card.range or 1) > 1 and v.board.fields[a.field].terrain is _HIGH_GROUND:
            val += 1.0
        if w.unit_crowd:
            val -= w.unit_crowd * v.my_units()
        return w.deploy_base + val
    return 1.0 + val + 0.3 * _near(v.geo._dist[a.field], v.mine, 1) - 0.05 * v.goal_dist(a.field)


def _near(dist: list[int], perms: list[Perm], r: int) -> int:
    """How many of `perms` stand within distance r (`dist`: the distances from a field); a loop,
    which costs less than a generator over the few permanents of a board."""
    n = 0
    for p in perms:
        if dist[p.field] <= r:
            n += 1
    return n


def _permanent_worth(v: View, card: Card) -> float | None:
    """A permanent's worth against its play cost wherever it goes, None when its upkeep would
    not stay affordable next turn (or, on the resource race, it is one more costly unit)."""
    s, w = v.s, v.w
    after = s.players[v.seat].resource - (card.play or 0)
    up = card.upkeep or 0
    if (
        card.type is _UNIT
        and up > 0
        and after + seat_income(v) < upkeep_load(v) + up + w.unit_reserve
    ):
        return None
    if (
        v.kind is _RESOURCE
        and (card.play or 0) + 2 * up > 1
        and not any(verbs.VERBS[e.verb].gains for t in card.triggers for e in t.effects)
        and v.my_units() >= 3
    ):
        return None
    return card_value(card) - w.perm_cost * (card.play or 0) * v.resource_value()


def _convert_score(v: View) -> float:
    """R8.6 before passing: turn two leftover hand cards into 1 resource."""
    s = v.s
    pl = s.players[v.seat]
    hand = pl.hand
    can_pay = pl.resource + seat_income(v)
    least = v.w.convert_keep
    keep = 0
    for c in hand:
        card = s.cards[c]
        if card.play is not None and card.play <= can_pay and card_value(card) >= least:
            keep += 1
    if len(hand) - keep < 2:
        return -1.0
    return 0.05 + (0.5 if v.kind is _RESOURCE else 0.0)


def unit_scores(v: View, u: Perm, legal: list[Action]) -> list[tuple[float, Action]]:
    """The activated unit: attack when favourable, move toward the objective, or tap."""
    occ = v.s.occ
    # the steps to a free field (most of the actions) are scored together
    look = _UnitLook(v, u, [a.field for a in legal if a.kind == _MOVE and occ[a.field] < 0])
    gains, score = iter(look.gains), look.score
    return [(next(gains) if a.kind == _MOVE and occ[a.field] < 0 else score(a), a) for a in legal]


_PULL, _HARMLESS, _KEEP_RANGE = 0, 1, 2
"""How a unit's position weighs its distance to the goal (`_UnitLook.positions`)."""


class _UnitLook:
    """What the activated unit weighs (R12.4): how good a field is to stand on, the best attack
    it could make from a field, and each of its legal actions. Built once per decision, with
    what the fields' scores share worked out once; `gains` are the steps' to the free
    `fields`."""

    def __init__(self, v: View, u: Perm, fields: list[int]) -> None:
        s, w = v.s, v.w
        self.v, self.u, self.w = v, u, w
        self.card = s.cards[u.cid]
        self.can_attack = not u.used_attack and u.under < 0
        self.reach = max_range(v.profile(u)) if self.can_attack else 0
        self.dist = v.geo._dist
        self.targets = v.enemy if self.can_attack else []
        self.oks: dict[int, bool] = {}  # per target: whether it may be attacked at all
        self.memo: dict[tuple[int, int], float] = {}  # exchanges per (target, distance)
        self.here = here = s.perm_field(u)
        fields = [here, *fields]
        pos = self.positions(fields)
        self.base = base = pos[0]
        if self.can_attack:
            att = self.best_attacks(fields)
            self.att_here = att[0]
            # a step's gain: what standing there and attacking from there gain
            look, look_here = w.attack_look, w.attack_look * att[0]
            self.gains = [
                p - base + (look * x - look_here) - 0.05 for p, x in zip(pos, att, strict=True)
            ][1:]
        else:
            self.att_here = 0.0
            self.gains = [p - base - 0.05 for p in pos[1:]]
        # swap, equip and unparalyse spend the move or the attack (R13.1, R15.3, R15.6): keep
        # the attack when one is worth making from here, else the move
        self.spend_move = self.att_here > 0

    def positions(self, fields: list[int]) -> list[float]:
        """How good it is for this unit to stand on each of `fields` (before attacking)."""
        v, w, u = self.v, self.w, self.u
        staff = u.cid == v.staff_base
        if u.cid == v.my_vip or staff:
            return [
                -1.5 * v.danger(f) - (0.0 if not staff else 0.1 * v.goal_dist(f)) for f in fields
            ]
        dist, tf = self.dist, v.tyrant_field
        if u.cid == v.marked and tf >= 0:
            return _escape(v, dist, tf, fields)
        own = self.card.range or 1
        rule, pull, uv, hp = self._rule(own), w.goal_pull, v.pv(u), hp_left(v.s, u)
        fear, soft, soft_uv = w.danger_fear * uv, w.danger_soft, w.danger_soft * uv
        kind, board, dangers = v.kind, v.board.fields, v.dangers()
        capture, resource = kind is _CAPTURE, kind is _RESOURCE
        staff_hunt = kind is _STAFF and v.staff_base < 0
        high = own > 1
        gds = v.goal_dists()
        out: list[float] = []
        for f in fields:
            sc = 0.0
            gd = gds[f]
            if tf >= 0:
                sc -= tyrant_adjacency(v, dist[f][tf], uv)
            if rule == _PULL:
                sc -= pull * gd
            elif rule == _HARMLESS:
                sc -= 1.0 * abs(gd - 4)
            else:
                sc -= 1.0 * abs(gd - own) + (1.5 if gd <= 1 else 0.0)
            field = board[f]
            if capture and field.area is not None:
                sc += w.area_pull
            if resource:
                sc += w.income_pull * field.income
            if staff_hunt and gd == 1:
                sc += 3.0
            dg = dangers.get(f)
            if dg is None:
                dg = v.danger(f)
            if dg >= hp:
                sc -= fear
            elif dg and soft:
                sc -= soft_uv * dg / hp
            if high and field.terrain is _HIGH_GROUND:
                sc += 0.5
            out.append(sc)
        return out

    def _rule(self, own_range: int) -> int:
        """How this unit weighs its distance to the goal: a unit that cannot hurt the Tyrant
        through its armor keeps clear, out of everyone's way; ranged units keep their distance
        from what they shoot at; the others close in."""
        v, s = self.v, self.v.s
        if v.tyrant_field >= 0 and all(strike(s, self.u, s.perms[c], 1) <= 0 for c in v.objectives):
            return _HARMLESS
        if own_range > 1 and v.objectives and v.kind is not _CAPTURE:
            return _KEEP_RANGE
        return _PULL

    def best_attacks(self, fields: list[int]) -> list[float]:
        """The best exchange (R12.11) it could start from each of `fields`, 0 for none."""
        targets = self.targets
        if not targets:
            return [0.0] * len(fields)
        dist, reach, oks, exchange_ = self.dist, self.reach, self.oks, self.exchange
        out: list[float] = []
        for f in fields:
            best = 0.0
            row = dist[f]
            for t in targets:
                d = row[t.field]
                if d <= reach:
                    ok = oks.get(t.cid)
                    if ok is None:
                        ok = oks[t.cid] = _attackable(self.v.s, self.u, t)
                    if ok:
                        x = exchange_(t, d)
                        if x > best:
                            best = x
            out.append(best)
        return out

    def exchange(self, t: Perm, d: int) -> float:
        """`exchange` against t at distance d, once per decision."""
        key = (t.cid, d)
        x = self.memo.get(key)
        if x is None:
            x = self.memo[key] = exchange(self.v, self.u, t, d)
        return x

    def score(self, a: Action) -> float:
        """One legal action of the activated unit other than a step to a free field."""
        v, u, card = self.v, self.u, self.card
        s, w = v.s, v.w
        kept = 0.01 if (a.index == A.SPEND_MOVE) == self.spend_move else 0.0
        k = a.kind
        if k == _TAP:
            return 0.0
        if k == _ATTACK:
            t = s.perms[a.target]
            return self.exchange(t, v.geo.dist(self.here, s.perm_field(t))) + w.attack_bias
        if k == _MOVE:
            # riding a crew unit (R12.9)
            return (
                0.5
                + self.positions([a.field])[0]
                - self.base
                + (1.0 if (card.range or 1) > 1 else 0.0)
                - 0.5
            )
        if k == _FULL:
            val = effect_value(v, u.cid, card.full_actions[a.index], a.target)
            return val - 1.0 - 0.5 * self.att_here
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
    """The cost of ending the turn at distance dt of the Tyrant: next to it, its attack (R21.19:
    never on the marked unit). Without a marker on the board it also marks the nearest unit,
    which must then run or answer in the next round: an intention played in a Tyrant turn is
    carried out at the earliest in its next turn (R21.19)."""
    if dt <= 1:
        return 4.0 if v.marked >= 0 else 5.0 + 0.1 * uv
    return 0.5 if dt == 2 and v.marked < 0 else 0.0


def _escape(v: View, dist: list[list[int]], tf: int, fields: list[int]) -> list[float]:
    """Where the marked unit should stand (R17.3, R21.19): the Tyrant carries the intention
    out only if it starts its turn next to the marker, and it does not move before then: any
    field two or more away saves the unit this round. Among those, farther (the Tyrant walks
    two fields after it) and with room to run again next round rather than into a corner."""
    geo = v.geo
    w, h = geo.width, geo.height
    out = []
    for f in fields:
        d = dist[f][tf]
        x, y = geo.xs[f], geo.ys[f]
        room = min(x, y, w - 1 - x, h - 1 - y, 2)
        out.append((8.0 if d >= 2 else 0.0) + 1.0 * min(5, d) + 0.6 * room)
    return out


def _attackable(s: GameState, u: Perm, t: Perm) -> bool:
    card = s.cards[t.cid]
    if card.type is not _UNIT and card.keywords.solid is None:
        return False
    return not is_veiled(s, t) and not protected_from(s, t, s.cards[u.cid])
