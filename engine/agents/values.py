"""What things are worth to the heuristic agent: cards by their numbers (draft and buy), a
per-decision view of the board, permanents on it, combat exchanges and effects with targets.

Read only from public information and the seat's own cards (see `engine.agents.heuristic`).
"""

from __future__ import annotations

from functools import lru_cache

from engine import verbs
from engine.actions import target_seats
from engine.agents.weights import DEFAULT, Weights
from engine.behaviours import KeptAnswers
from engine.board import Board, Terrain, VictoryKind
from engine.cards import Card, CardType, Effect, TargetKind
from engine.effects import effect_targets
from engine.geometry import Geometry
from engine.markers import Marker
from engine.permanents import (
    armor,
    damage_at,
    hp_left,
    life,
    max_range,
    profile,
    protected_from,
)
from engine.state import GameState, Perm
from engine.victory import area_counts

# --- static card values ------------------------------------------------------------------------


def effects_value(effects: tuple[Effect, ...]) -> float:
    """A rough, target-free value of an effect list (card values, drafting, buying): each
    verb's `card_worth` (engine.verbs), more for `each`, against the card when it hurts itself."""
    v = 0.0
    for e in effects:
        verb = verbs.VERBS[e.verb]
        base = verb.card_worth
        if e.target.each:
            base *= 1.5
        if e.target.kind is TargetKind.SELF and verb.hurts:
            base = -abs(base)
        v += base * max(1, e.amount) if verb.amount else base
    return v


@lru_cache(maxsize=4096)
def card_value(card: Card) -> float:
    """What a card is worth on its own: stats, keywords, effects (independent of the board).
    A pure function of the card's value, cached by it (cards are frozen)."""
    kw = card.keywords
    v = 0.0
    if card.type is CardType.UNIT:
        rng = card.range or 1
        v = (
            (card.life or 0)
            + 2.0 * kw.armor
            + (card.attack or 0) * (2.0 + 0.6 * (rng - 1))
            + 0.5 * (card.move or 0)
            + 1.0 * kw.crew
            + (2.0 if kw.veiled else 0.0)
            + 1.5 * len(kw.protections)
        )
    elif card.type.is_equipment:
        m = card.modifiers
        v = (
            2.0 * m.attack
            + 1.5 * m.range
            + 2.0 * m.armor
            + m.life
            + 0.7 * m.move
            + (2.0 if m.keywords and (m.keywords.veiled or m.keywords.protections) else 0.0)
            + (1.5 * m.keywords.crew if m.keywords else 0.0)
        )
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


@lru_cache(maxsize=4096)
def board_affinity(card: Card, kind: VictoryKind) -> float:
    """Extra value of a card for a victory condition (a pure function of both, cached)."""
    table = verbs.VERBS
    used = {e.verb for e in card.effects}
    for t in card.triggers:
        used.update(e.verb for e in t.effects)
    for fa in card.free_actions:
        used.update(e.verb for e in fa.effects)
    bonus = 0.0
    if kind is VictoryKind.CAPTURE:
        if any(table[v].scores for v in used):
            bonus += 4.0
        if card.type is CardType.UNIT:
            bonus += 1.0
    elif kind is VictoryKind.RESOURCE:
        if any(table[v].gains for v in used):
            bonus += 3.0
        if any(table[v].drains and not table[v].gains for v in used):
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
    elif kind is VictoryKind.STAFF and card.type is CardType.UNIT:
        bonus += 0.3 * (card.move or 0)
    return bonus


# --- a per-decision view of the board ------------------------------------------------------------

# The words the hot paths read as module constants: on Python 3.11 reading an enum member
# (`CardType.UNIT`) goes through EnumType.__getattr__ (~0.3 us), slow at every decision.
_UNIT = CardType.UNIT
_VIP, _BUILDINGS, _TYRANT, _STAFF, _CAPTURE, _RESOURCE = (
    VictoryKind.VIP,
    VictoryKind.BUILDINGS,
    VictoryKind.TYRANT,
    VictoryKind.STAFF,
    VictoryKind.CAPTURE,
    VictoryKind.RESOURCE,
)
_PARALYSIS, _POISON, _PROTECTION = Marker.PARALYSIS, Marker.POISON, Marker.PROTECTION


class View:
    """What the agent needs about the board for one decision, computed once."""

    # what is worked out on demand, None until then (class defaults: a View is built at every
    # decision, and most decisions ask for few of them)
    def __init__(self, s: GameState, seat: int, w: Weights = DEFAULT) -> None:
        self.s = s
        self.seat = seat
        self.w = w
        cfg = s.config
        self.geo = cfg.geometry
        self.board = cfg.board
        self.kind = k = cfg.board.victory.kind
        mine: list[Perm] = []
        enemy: list[Perm] = []
        enemy_units: list[Perm] = []
        self.mine, self.enemy, self.enemy_units = mine, enemy, enemy_units
        self.objectives: set[int] = set()
        self._pv: dict[int, float] = {}
        self._profile: dict[int, list[tuple[int, int]]] = {}
        self.deploys: dict[int, float | None] = {}  # the heuristic's worth of a permanent played
        self._goals: list[int] | None = None
        self._danger: dict[int, int] | None = None
        self._threats: tuple[tuple[int, int, int], ...] = ()
        self._income: int | None = None
        self._goal_dist: list[int] | None = None
        self._plan: tuple[int, float] | None = None
        self._upkeep: int | None = None
        self._pool_avg: float | None = None
        self._my_units: int | None = None
        self.staff = -1
        self.staff_base = -1
        self.tyrant_field = -1
        cards = s.cards
        staff_board = k is _STAFF
        foes: dict[int, bool] = {seat: False}  # per controller: an enemy of the seat
        self._foes = foes
        for cid, p in s.perms.items():
            if staff_board and cards[cid].keywords.staff:
                self.staff = cid
                if p.under >= 0:
                    self.staff_base = p.under
            if p.field < 0:
                continue
            c = p.controller
            if c == seat:
                mine.append(p)
                continue
            foe = foes.get(c)
            if foe is None:
                foe = foes[c] = s.enemies(seat, c)
            if foe:
                enemy.append(p)
                if cards[cid].type is _UNIT:
                    enemy_units.append(p)
        self.my_vip = s.vips.get(seat, -1)
        # the Tyrant's intention marker (public, R17.2): its unit should run from the Tyrant
        self.marked = s.marker_perm if s.marker_card >= 0 else -1
        self._find_objectives()

    def _find_objectives(self) -> None:
        """The permanents the board's victory condition has the seat attack (R19, R21.12-R21.15),
        and the Tyrant's field."""
        s, seat, k, cards = self.s, self.seat, self.kind, self.s.cards
        if k is _VIP:
            # the enemies' VIPs, asking `enemies` once per seat (the controllers' answers kept)
            foes = self._foes
            for st, c in s.vips.items():
                foe = foes.get(st)
                if foe is None:
                    foe = s.enemies(seat, st)
                if foe and c in s.perms:
                    self.objectives.add(c)
        elif k is _BUILDINGS:
            self.objectives = {p.cid for p in self.enemy if cards[p.cid].keywords.building}
        elif k is _TYRANT:
            self.objectives = {p.cid for p in self.enemy if cards[p.cid].keywords.tyrant}
            for c in self.objectives:
                self.tyrant_field = s.perm_field(s.perms[c])
        elif k is _STAFF and self.staff_base >= 0:
            base = s.perms[self.staff_base]
            if s.enemies(seat, base.controller):
                self.objectives = {base.cid}

    def pv(self, p: Perm) -> float:
        """perm_value, cached for this decision."""
        x = self._pv.get(p.cid)
        if x is None:
            x = self._pv[p.cid] = perm_value(self.s, p)
        return x

    def profile(self, p: Perm) -> list[tuple[int, int]]:
        """`profile`, cached for this decision (an exchange asks for both sides' at every
        distance)."""
        x = self._profile.get(p.cid)
        if x is None:
            x = self._profile[p.cid] = profile(self.s, p)
        return x

    def my_units(self) -> int:
        """How many units the seat has on the board."""
        n = self._my_units
        if n is None:
            cards = self.s.cards
            n = self._my_units = sum(1 for p in self.mine if cards[p.cid].type is _UNIT)
        return n

    def card_value(self, card: Card) -> float:
        """card_value (for a verb's value, `engine.verbs.Appraiser`)."""
        return card_value(card)

    def resource_value(self) -> float:
        """One resource's worth to the seat: twice as much on the resource race (R19.2)."""
        if self.kind is _RESOURCE:
            return 2.0 * self.w.resource
        return self.w.resource

    # goals: fields the seat's units should approach
    def goals(self) -> list[int]:
        if self._goals is not None:
            return self._goals
        s, k = self.s, self.kind
        g: list[int] = []
        if k is _CAPTURE:
            g = self._capture_goals()
        elif k is _RESOURCE:
            g = [i for i, f in enumerate(self.board.fields) if f.income > 0]
        elif k is _STAFF and self.staff >= 0:
            sp = s.perms[self.staff]
            if sp.under < 0:
                g = [sp.field]
            elif self.staff_base in s.perms and s.enemies(
                self.seat, s.perms[self.staff_base].controller
            ):
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
            gd = self.goal_dists()
        return gd[f]

    def goal_dists(self) -> list[int]:
        """Every field's distance to the nearest goal. Do not mutate."""
        gd = self._goal_dist
        if gd is None:
            gd = self._goal_dist = _goal_distances(self.geo, tuple(self.goals()))
        return gd

    def danger(self, f: int) -> int:
        """Attack enemy units could bring on field f next turn (move + range)."""
        known = self._danger
        if known is None:
            known = self.dangers()
        d = known.get(f)
        if d is None:
            row = self.geo._dist[f]
            d = 0
            for e, r, a in self._threats:
                if row[e] <= r:
                    d += a
            known[f] = d
        return d

    def dangers(self) -> dict[int, int]:
        """`danger` per field asked so far, shared by every decision that faces the same
        threats (within a turn the enemy's units seldom move). Do not mutate."""
        known = self._danger
        if known is None:
            cards, paralysis = self.s.cards, _PARALYSIS
            threats = []  # (field, move + range, attack) of each enemy unit not paralysed
            for e in self.enemy_units:
                if not e.markers[paralysis]:
                    c = cards[e.cid]
                    threats.append((e.field, (c.move or 0) + (c.range or 1), c.attack or 0))
            self._threats = key = tuple(threats)
            table = _DANGERS.table(self.geo)
            known = table.get(key)
            if known is None:
                known = table[key] = {}
            self._danger = known
        return known


_DANGERS = KeptAnswers(1024)
"""Per board and enemy threats (`View.dangers`), each field's danger asked so far: a pure
function of them, shared by the decisions that face the same threats, in every clone too."""

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
    if card.type is _UNIT:
        lf = life(s, p)
        for c in p.stack:
            v += 0.8 * card_value(s.cards[c])
        hp = max(0, lf - p.damage - p.markers[_POISON])
        v *= 0.4 + 0.6 * hp / max(1, lf)
        if p.markers[_PARALYSIS]:
            v *= 0.8
    elif card.keywords.building:
        v = 12.0 + 2.0 * max(0, (card.keywords.solid or 0) - p.damage)
    if card.keywords.tyrant:
        v = 30.0
    return v


def strike(s: GameState, attacker: Perm, target: Perm, d: int) -> int:
    """Damage `attacker` would deal to `target` at distance d (R12.7, R12.8, R13.5, R11.4)."""
    return _strike(s, profile(s, attacker), s.cards[attacker.cid], target, d)


def _strike(s: GameState, prof: list[tuple[int, int]], source: Card, target: Perm, d: int) -> int:
    """`strike` of an attacker with the attack profile `prof` and card `source`."""
    dealt = damage_at(prof, d)
    if dealt <= 0 or target.markers[_PROTECTION] > 0 or protected_from(s, target, source):
        return 0
    return max(0, dealt - armor(s, target))


def exchange(v: View, u: Perm, t: Perm, d: int) -> float:
    """Value of `u` attacking `t` at distance d (R12.11: both sides strike at once)."""
    s, w = v.s, v.w
    dealt = _strike(s, v.profile(u), s.cards[u.cid], t, d)
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
    if tcard.type is _UNIT and d <= max_range(tprof := v.profile(t)):
        back = _strike(s, tprof, tcard, u, d)
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


def effect_value(
    v: View, source: int, effects: tuple[Effect, ...], target: int, origin: int = -1
) -> float:
    """What carrying out `effects` (with the chosen `target` and push `origin`) is worth to
    the seat: each verb's `value` (engine.verbs). A loop, not a generator: it runs for every
    spell, free action and pending choice scored, mostly over one effect."""
    total = 0.0
    s, seat, table = v.s, v.seat, verbs.VERBS
    for e in effects:
        total += table[e.verb].value(
            v, source, e, effect_targets(s, seat, source, e, target), origin
        )
    return total


def resource_gain(v: View, source: int, effects: tuple[Effect, ...], target: int) -> int:
    """The resource `effects` (with the chosen `target`) bring the seat: gains, and steals up to
    what the robbed seats hold."""
    got = 0
    table = verbs.VERBS
    for e in effects:
        verb = table[e.verb]
        if not verb.gains:
            continue
        if not verb.drains:
            got += e.amount
        else:
            s = v.s
            targets = effect_targets(s, v.seat, source, e, target)
            seats = (
                target_seats(targets)
                or [x for x in range(len(s.players)) if s.enemies(v.seat, x)][:1]
            )
            got += sum(min(e.amount, s.players[x].resource) for x in seats)
    return got
