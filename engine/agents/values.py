"""What things are worth to the heuristic agent: cards by their numbers (draft and buy), a
per-decision view of the board, permanents on it, combat exchanges and effects with targets.

Read only from public information and the seat's own cards (see `engine.agents.heuristic`).
"""

from __future__ import annotations

from functools import lru_cache

from engine.actions import target_seats
from engine.agents.weights import DEFAULT, Weights
from engine.behaviours import KeptAnswers
from engine.board import Board, Terrain, VictoryKind
from engine.cards import Card, CardType, Effect, TargetKind
from engine.effects import effect_targets, push_origin
from engine.geometry import Geometry
from engine.permanents import armor, damage_at, life, max_range, profile, protected_from
from engine.state import GameState, Perm
from engine.victory import area_counts

# --- static card values ------------------------------------------------------------------------

VERB_BASE = {"damage": 1.5, "heal": 0.5, "draw": 1.3, "gain": 1.0, "steal": 1.6, "burn": 0.7,
             "discard": -0.8, "push": 0.8, "paralyse": 1.2, "poison": 1.0, "panic": 0.8,
             "rage": 0.5, "protect": 1.0, "destroy": 5.0, "sacrifice": -1.5, "create": 2.5,
             "score": 2.0, "repair": 0.4}


def effects_value(effects: tuple[Effect, ...]) -> float:
    """A rough, target-free value of an effect list (card values, drafting, buying)."""
    v = 0.0
    for e in effects:
        base = VERB_BASE.get(e.verb, 0.5)
        if e.target.each:
            base *= 1.5
        if e.target.kind is TargetKind.SELF and e.verb in ("damage", "destroy", "sacrifice"):
            base = -abs(base)
        v += base * max(1, e.amount) if e.verb not in ("destroy", "sacrifice") else base
    return v


@lru_cache(maxsize=4096)
def card_value(card: Card) -> float:
    """What a card is worth on its own: stats, keywords, effects (independent of the board).
    A pure function of the card's value, cached by it (cards are frozen)."""
    kw = card.keywords
    v = 0.0
    if card.type is CardType.UNIT:
        rng = card.range or 1
        v = ((card.life or 0) + 2.0 * kw.armor + (card.attack or 0) * (2.0 + 0.6 * (rng - 1))
             + 0.5 * (card.move or 0) + 1.0 * kw.crew + (2.0 if kw.veiled else 0.0)
             + 1.5 * len(kw.protections))
    elif card.type.is_equipment:
        m = card.modifiers
        v = (2.0 * m.attack + 1.5 * m.range + 2.0 * m.armor + m.life + 0.7 * m.move
             + (2.0 if m.keywords and (m.keywords.veiled or m.keywords.protections) else 0.0)
             + (1.5 * m.keywords.crew if m.keywords else 0.0))
        v = max(v, 1.0)
    elif card.type is CardType.ARTIFACT:
        v = 0.5 * (kw.solid or 0) + (6.0 if kw.building else 0.0)
    v += effects_value(card.effects)
    for t in card.triggers:
        w = 3.0 if t.event == "upkeep" else 1.0 if t.event in ("enters", "dies") else 0.7
        v += w * effects_value(t.effects)
    for fa in card.free_actions:
        v += 0.6 * max(0.0, effects_value(fa.effects) - fa.cost.resource - fa.cost.discard)
    for fx in card.full_actions:
        v += 0.6 * max(0.0, effects_value(fx))
    return v


def card_cost(card: Card, upkeep_turns: float = DEFAULT.upkeep_turns) -> float:
    """What a card costs over its life: buy, play and `upkeep_turns` turns of upkeep."""
    return (card.buy or 0) + (card.play or 0) + upkeep_turns * (card.upkeep or 0)


def board_affinity(card: Card, kind: VictoryKind) -> float:
    """Extra value of a card for a victory condition."""
    verbs = {e.verb for e in card.effects}
    for t in card.triggers:
        verbs.update(e.verb for e in t.effects)
    for fa in card.free_actions:
        verbs.update(e.verb for e in fa.effects)
    bonus = 0.0
    if kind is VictoryKind.CAPTURE:
        if "score" in verbs:
            bonus += 4.0
        if card.type is CardType.UNIT:
            bonus += 1.0
    elif kind is VictoryKind.RESOURCE:
        if verbs & {"gain", "steal"}:
            bonus += 3.0
        if "burn" in verbs:
            bonus += 1.0
        bonus -= 2.0 * (card.upkeep or 0)
    elif kind is VictoryKind.BUILDINGS:
        if card.type is CardType.UNIT:
            bonus += 0.5 * (card.attack or 0)
    elif kind is VictoryKind.TYRANT:
        if card.type is CardType.UNIT:
            # only attack above the Tyrant's armor counts, best from out of its reach
            bite = max(0, (card.attack or 0) - 1)
            bonus += 1.5 * bite * (1.5 if (card.range or 1) > 1 else 1.0) - 1.0 * (bite == 0)
    elif kind is VictoryKind.STAFF:
        if card.type is CardType.UNIT:
            bonus += 0.3 * (card.move or 0)
    return bonus


# --- a per-decision view of the board ------------------------------------------------------------

class View:
    """What the agent needs about the board for one decision, computed once."""

    def __init__(self, s: GameState, seat: int, w: Weights = DEFAULT) -> None:
        self.s = s
        self.seat = seat
        self.w = w
        self.geo = s.config.geometry
        self.board = s.config.board
        self.kind = self.board.victory.kind
        self.mine: list[Perm] = []
        self.enemy: list[Perm] = []
        self.enemy_units: list[Perm] = []
        self.objectives: set[int] = set()
        self._goals: list[int] | None = None
        self._pv: dict[int, float] = {}
        self._danger: dict[int, int] = {}
        self._income: int | None = None
        self._goal_dist: list[int] | None = None
        self._plan: tuple[int, float] | None = None
        self._upkeep: int | None = None
        self._pool_avg: float | None = None
        self.staff = -1
        self.staff_base = -1
        cards = s.cards
        staff_board = self.kind is VictoryKind.STAFF
        unit = CardType.UNIT
        for cid, p in s.perms.items():
            if staff_board and cards[cid].keywords.staff:
                self.staff = cid
                if p.under >= 0:
                    self.staff_base = p.under
            if p.field < 0:
                continue
            c = p.controller
            if c == seat:
                self.mine.append(p)
            elif s.enemies(seat, c):
                self.enemy.append(p)
                if cards[cid].type is unit:
                    self.enemy_units.append(p)
        self.my_vip = s.vips.get(seat, -1)
        # the Tyrant's intention marker (public, R17.2): its unit should run from the Tyrant
        self.marked = s.marker_perm if s.marker_card >= 0 else -1
        self.tyrant_field = -1
        k = self.kind
        if k is VictoryKind.VIP:
            self.objectives = {c for st, c in s.vips.items() if s.enemies(seat, st)
                               and c in s.perms}
        elif k is VictoryKind.BUILDINGS:
            self.objectives = {p.cid for p in self.enemy if s.cards[p.cid].keywords.building}
        elif k is VictoryKind.TYRANT:
            self.objectives = {p.cid for p in self.enemy if s.cards[p.cid].keywords.tyrant}
            for c in self.objectives:
                self.tyrant_field = s.perm_field(s.perms[c])
        elif k is VictoryKind.STAFF and self.staff_base >= 0:
            base = s.perms[self.staff_base]
            if s.enemies(seat, base.controller):
                self.objectives = {base.cid}

    def pv(self, p: Perm) -> float:
        """perm_value, cached for this decision."""
        x = self._pv.get(p.cid)
        if x is None:
            x = self._pv[p.cid] = perm_value(self.s, p)
        return x

    # goals: fields the seat's units should approach
    def goals(self) -> list[int]:
        if self._goals is not None:
            return self._goals
        s, k = self.s, self.kind
        g: list[int] = []
        if k is VictoryKind.CAPTURE:
            g = self._capture_goals()
        elif k is VictoryKind.RESOURCE:
            g = [i for i, f in enumerate(self.board.fields) if f.income > 0]
        elif k is VictoryKind.STAFF:
            if self.staff >= 0:
                sp = s.perms[self.staff]
                if sp.under < 0:
                    g = [sp.field]
                elif self.staff_base in s.perms and s.enemies(
                        self.seat, s.perms[self.staff_base].controller):
                    g = [s.perm_field(s.perms[self.staff_base])]
        if not g and self.objectives:
            g = [s.perm_field(s.perms[c]) for c in self.objectives]
        if not g:
            g = [p.field for p in self.enemy_units] or [p.field for p in self.enemy]
        self._goals = g
        return g

    def _capture_goals(self) -> list[int]:
        s = self.s
        fields = self.board.fields
        counts: dict[str, dict[int, int]] = {}
        for a, by_seat in area_counts(s).items():
            d = counts[a] = {}
            for c, n in by_seat.items():
                team = s.players[c].team if c >= 0 else -9
                d[team] = d.get(team, 0) + n
        my_team = s.players[self.seat].team
        want: list[int] = []
        areas = _area_fields(self.board)
        for area, idx in areas.items():
            per = counts.get(area, {})
            mine = per.get(my_team, 0)
            best_other = max((n for t, n in per.items() if t != my_team), default=0)
            if mine <= best_other + 1:
                want.extend(idx)
        want.sort()
        return want or [i for i, f in enumerate(fields) if f.area is not None]

    def goal_dist(self, f: int) -> int:
        gd = self._goal_dist
        if gd is None:
            gd = self._goal_dist = _goal_distances(self.geo, tuple(self.goals()))
        return gd[f]

    def danger(self, f: int) -> int:
        """Attack enemy units could bring on field f next turn (move + range)."""
        d = self._danger.get(f)
        if d is not None:
            return d
        s, row = self.s, self.geo._dist[f]
        total = 0
        for e in self.enemy_units:
            if e.paralysis:
                continue
            c = s.cards[e.cid]
            if row[e.field] <= (c.move or 0) + (c.range or 1):
                total += c.attack or 0
        self._danger[f] = total
        return total


_GOAL_DISTANCES = KeptAnswers(4096)
"""Per board and goal fields, every field's distance to the nearest goal (0 without goals);
a few goal sets recur all game long, and in every clone a search plays out."""


def _goal_distances(geo: Geometry, goals: tuple[int, ...]) -> list[int]:
    kept = _GOAL_DISTANCES.table(geo)
    hit: list[int] | None = kept.get(goals)
    if hit is None:
        rows = [geo.distances_from(g) for g in goals]
        hit = kept[goals] = [min(r[f] for r in rows) if rows else 0 for f in range(geo.size)]
    return hit


_AREAS: dict[int, tuple[Board, dict[str, list[int]]]] = {}


def _area_fields(board: Board) -> dict[str, list[int]]:
    """The board's capture areas and their open fields, once per board (the board is fixed;
    the entry keeps its board, so a reused id cannot hit a stale entry)."""
    hit = _AREAS.get(id(board))
    if hit is None or hit[0] is not board:
        areas: dict[str, list[int]] = {}
        for i, f in enumerate(board.fields):
            if f.area is not None and f.terrain is not Terrain.BLOCKED:
                areas.setdefault(f.area, []).append(i)
        hit = _AREAS[id(board)] = (board, areas)
    return hit[1]


# --- values of things on the board -----------------------------------------------------------

def perm_value(s: GameState, p: Perm) -> float:
    """A permanent's worth now: its card, its equipment, less its damage."""
    card = s.cards[p.cid]
    v = card_value(card)
    if card.type is CardType.UNIT:
        lf = life(s, p)
        for c in p.stack:
            v += 0.8 * card_value(s.cards[c])
        hp = max(0, lf - p.damage - p.poison)
        v *= 0.4 + 0.6 * hp / max(1, lf)
        if p.paralysis:
            v *= 0.8
    elif card.keywords.building:
        v = 12.0 + 2.0 * max(0, (card.keywords.solid or 0) - p.damage)
    if card.keywords.tyrant:
        v = 30.0
    return v


def hp_left(s: GameState, p: Perm) -> int:
    """Damage it can still take before it is defeated (R12.2: more damage than life)."""
    return life(s, p) - p.damage + 1


def strike(s: GameState, attacker: Perm, target: Perm, d: int) -> int:
    """Damage `attacker` would deal to `target` at distance d (R12.7, R12.8, R13.5, R11.4)."""
    dealt = damage_at(profile(s, attacker), d)
    if dealt <= 0 or target.protection > 0 or protected_from(s, target, s.cards[attacker.cid]):
        return 0
    return max(0, dealt - armor(s, target))


def exchange(v: View, u: Perm, t: Perm, d: int) -> float:
    """Value of `u` attacking `t` at distance d (R12.11: both sides strike at once)."""
    s, w = v.s, v.w
    dealt = strike(s, u, t, d)
    tv = v.pv(t)
    score = 0.0
    if dealt > 0:
        left = hp_left(s, t)
        if dealt >= left:
            score += tv + w.kill_bonus
        else:
            score += tv * w.hurt * dealt / max(1, left)
        if t.cid in v.objectives:
            score += w.objective_hit * dealt + (40.0 if dealt >= left else 0.0)
    tcard = s.cards[t.cid]
    if tcard.type is CardType.UNIT and d <= max_range(profile(s, t)):
        back = strike(s, t, u, d)
        if back > 0:
            uv = v.pv(u)
            ul = hp_left(s, u)
            if u.cid == v.my_vip or u.cid == v.staff_base:
                uv += 40.0
            if back >= ul:
                score -= w.retaliation * (uv + 2.0)
            else:
                score -= w.retaliation * uv * w.hurt * back / max(1, ul)
    return score


# --- effect values with a target -----------------------------------------------------------------

def effect_value(v: View, source: int, effects: tuple[Effect, ...], target: int,
                 origin: int = -1) -> float:
    """What carrying out `effects` (with the chosen `target` and push `origin`) is worth to
    the seat."""
    return sum(_one_effect(v, source, e, effect_targets(v.s, v.seat, source, e, target), origin)
               for e in effects)


def _one_effect(v: View, source: int, e: Effect, targets: list[int], origin: int) -> float:
    s, seat, verb, n = v.s, v.seat, e.verb, e.amount
    if verb == "gain":
        return n * resource_value(v)
    if verb == "draw":
        return 1.3 * n
    if verb == "score":
        return 4.0 * n if v.kind is VictoryKind.CAPTURE else 0.2 * n
    if verb == "discard":
        return -0.8 * n
    if verb == "create":
        card = s.config.catalog.get((e.card or "").casefold())
        return n * (0.7 * card_value(card) if card is not None else 1.0)
    if verb in ("steal", "burn"):
        seats = target_seats(targets) or [
            x for x in range(len(s.players)) if s.enemies(seat, x)][:1]
        got = sum(min(n, s.players[x].resource) for x in seats)
        mult = 2.0 if verb == "steal" else 0.7
        if v.kind is VictoryKind.RESOURCE:
            mult *= 2.0
        return got * mult * resource_value(v) / 1.0
    total = 0.0
    for cid in targets:
        p = s.perms.get(cid)
        if p is None:
            continue
        friendly = p.controller == seat or (p.controller >= 0 and seat >= 0 and not s.enemies(
            seat, p.controller))
        sign = 1.0 if not friendly else -1.0
        card = s.cards[p.cid]
        pv = perm_value(s, p)
        is_unit = card.type is CardType.UNIT
        if verb == "damage":
            if protected_from(s, p, s.cards[source]) or p.protection > 0:
                continue
            dealt = max(0, n - armor(s, p))
            left = hp_left(s, p)
            val = pv + 2.0 if dealt >= left else pv * 0.7 * dealt / max(1, left)
            if cid in v.objectives:
                val += 5.0 * dealt
            total += sign * val
        elif verb == "destroy" or verb == "sacrifice":
            total += sign * (pv + 1.0) * (1.0 if verb == "destroy" else 0.9)
        elif verb == "heal":
            if is_unit and friendly:
                total += min(p.damage, n) * 0.6 * card_value(card) / max(1, life(s, p))
        elif verb in ("paralyse", "poison", "panic"):
            if is_unit and not card.keywords.tyrant or verb == "poison":
                w = {"paralyse": 0.25, "poison": 0.15, "panic": 0.15}[verb]
                total += sign * pv * min(1.0, w * n)
            elif is_unit:
                total += sign * 0.5
        elif verb == "rage":
            total += -0.3 if friendly else 0.3
        elif verb == "protect":
            if is_unit:
                threat = v.danger(s.perm_field(p)) if p.field >= 0 else 0
                total += -sign * min(n, 2) * (0.3 + (0.5 if threat else 0.0)) * pv / 4.0
        elif verb == "push":
            total += sign * (1.0 + _push_kill(v, source, p, n, origin) * (pv + 2.0))
        elif verb == "repair":
            total += -sign * 0.4 * n
    return total


def _push_kill(v: View, source: int, p: Perm, n: int, chosen: int) -> float:
    """1 when pushing `p` n steps from its origin (R14.1) would drown it (R14.4), else 0."""
    s = v.s
    origin = push_origin(s, source, chosen)
    if p.field < 0 or origin < 0 or origin == p.field:
        return 0.0
    geo = v.geo
    swim = any(s.cards[p.cid].keywords.swimming for _ in (0,))
    cur = p.field
    for _ in range(n):
        nxt = geo.push_step(origin, cur)
        if nxt is None or s.occ[nxt] >= 0:
            return 0.0
        terr = v.board.fields[nxt].terrain
        if (terr is Terrain.DEEP_WATER) != swim or terr is Terrain.BLOCKED:
            return 1.0
        cur = nxt
    return 0.0


def resource_gain(v: View, source: int, effects: tuple[Effect, ...], target: int) -> int:
    """The resource `effects` (with the chosen `target`) bring the seat: gains, and steals up to
    what the robbed seats hold."""
    got = 0
    for e in effects:
        if e.verb == "gain":
            got += e.amount
        elif e.verb == "steal":
            s = v.s
            targets = effect_targets(s, v.seat, source, e, target)
            seats = target_seats(targets) or [
                x for x in range(len(s.players)) if s.enemies(v.seat, x)][:1]
            got += sum(min(e.amount, s.players[x].resource) for x in seats)
    return got


def resource_value(v: View) -> float:
    """One resource's worth to the seat: twice as much on the resource race (R19.2)."""
    if v.kind is VictoryKind.RESOURCE:
        return 2.0 * v.w.resource
    return v.w.resource
