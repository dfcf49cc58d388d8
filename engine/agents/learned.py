"""The learned agent: the heuristic agent with its action-phase choices re-ranked by a model
fitted to the search agent's choices ("distill search's choices into a learned
evaluation"; trained by `workbench train-agent --learned`, `workbench.training.distill`).

At each decision of its own action phase (R6.8, the decisions the search agent searches) it
takes the heuristic's `width` best actions (`candidates`, as the search agent takes its
candidates), describes each by cheap features of the position the action leads to
(`features`: where the unit ends, how much enemy attack reaches that field against its life
left, what it can attack from there now and threaten next turn, how far it is from the
objective, the exchange of an attack, what passing leaves unused, the heuristic's own score),
and takes the candidate with the highest linear score (a conditional logit's, coefficients in
`engine.agents.learned_model`). Every other decision (draft, upkeep, responses, buys, discards,
pending choices) is the heuristic's. No cloning, no look-ahead: the look-ahead the search does
is what the features try to stand in for.

Parameters: `width` the candidate count (default `WIDTH`).
"""

from __future__ import annotations

import random

from engine.actions import Action
from engine.agents.heuristic import HeuristicAgent, choose, score_actions
from engine.agents.values import View, card_value, exchange, strike
from engine.board import VictoryKind
from engine.cards import CardType
from engine.game import Game
from engine.markers import Marker
from engine.permanents import hp_left, max_range, profile
from engine.state import GameState, Perm
from engine.vocab import ActionKind as A

FEATURES: tuple[str, ...] = (
    "gap",
    "top",
    "k_pass",
    "k_activate",
    "k_move",
    "k_attack",
    "k_tap",
    "k_unit",
    "k_spell",
    "k_perm",
    "k_free",
    "k_convert",
    "k_other",
    "value",
    "goal",
    "goal_gain",
    "risk",
    "danger",
    "enemies_near",
    "friends_near",
    "attack_here",
    "threat",
    "threat_max",
    "solo_kill",
    "cover",
    "moved",
    "objective_field",
    "exchange",
    "kill",
    "lose",
    "idle_units",
    "idle_pass",
    "in_danger_now",
    "attack_now",
    "reach_targets",
    "blocking",
    "resource_after",
)
"""The features of a candidate, in the model's order:
- gap: the heuristic's score less the best candidate's (at least -20); top: 1 for its best;
- k_*: the kind of action (unit, spell, perm: a played card by type; other: full actions,
  equip, swap, carry, unparalyse);
- the unit the action moves, activates, attacks with or deploys, on the field it ends on
  (a move's destination, else where it stands; a deployed unit's field): value (its worth),
  goal (distance to the board's objective), goal_gain (a move: distance before less after),
  risk (its value when the enemy attack that reaches the field can defeat it, else 0), danger
  (that attack over its life left, at most 2), enemies_near / friends_near (enemy and own units
  next to the field), attack_here (the best exchange it can still make this turn from the
  field), threat (the value of enemy units within its move and range of the field: what it
  threatens next turn; threat_max the most valuable of them), solo_kill (one enemy unit alone
  can reach the field and deal its life left), cover (own units within two fields), moved (it
  has used its move this turn), objective_field (a capture area, an income field on the
  resource race);
- an attack: exchange (its value), kill (the target defeated), lose (the attacker defeated by
  the strike back, R12.11);
- idle_units: own units that can still be activated this turn; idle_pass: the same for a pass
  (0 for other actions); for an activation: in_danger_now (the unit can be defeated where it
  stands), attack_now (its best exchange from there), reach_targets (enemy units within its move
  and range), blocking (own idle units next to it);
- resource_after: the seat's resource after a play (its resource for other actions).
"""

WIDTH = 4
"""Candidates re-ranked: the heuristic's best 4 hold search:budget=16's choice in about 93% of
its decisions (its own 10 candidates in all), at a third of the features' cost."""

_KIND = {
    A.PASS: "k_pass",
    A.ACTIVATE: "k_activate",
    A.MOVE: "k_move",
    A.ATTACK: "k_attack",
    A.TAP: "k_tap",
    A.FREE: "k_free",
    A.CONVERT: "k_convert",
}
_INDEX = {name: i for i, name in enumerate(FEATURES)}


def candidates(s: GameState, legal: list[Action], width: int = WIDTH) -> list[tuple[float, Action]]:
    """The heuristic's `width` best actions with their scores, best first (ties keep the
    engine's order, as the search agent's candidates do)."""
    scored = score_actions(s, legal)
    order = sorted(range(len(scored)), key=lambda i: -scored[i][0])
    return [scored[i] for i in order[:width]]


def features(s: GameState, cands: list[tuple[float, Action]]) -> list[list[float]]:
    """One row of `FEATURES` per candidate (see there)."""
    seat = s.active
    v = View(s, seat)
    best = cands[0][0] if cands else 0.0
    idle = [
        p
        for p in v.mine
        if not p.tapped and s.cards[p.cid].type is CardType.UNIT and p.cid != s.activated
    ]
    resource = float(s.players[seat].resource)
    unit = s.perms.get(s.activated) if s.activated >= 0 else None
    memo: dict[tuple[int, int, int], float] = {}  # exchanges: (unit, target, distance)
    rows: list[list[float]] = []
    for score, a in cands:
        row = [0.0] * len(FEATURES)
        row[0] = max(-20.0, score - best)
        row[1] = 0.0 if rows else 1.0
        row[_INDEX["idle_units"]] = len(idle)
        row[_INDEX["resource_after"]] = resource
        k = a.kind
        if k in _KIND:
            row[_INDEX[_KIND[k]]] = 1.0
        elif k != A.PLAY:
            row[_INDEX["k_other"]] = 1.0
        if k == A.PASS:
            row[_INDEX["idle_pass"]] = len(idle)
        elif k == A.PLAY:
            _play_row(v, row, a, resource)
        elif k == A.ACTIVATE and a.card in s.perms:
            _activation_row(v, row, s.perms[a.card], idle, memo)
        elif unit is not None and unit.field >= 0:
            _unit_action_row(v, row, unit, a, memo)
        rows.append(row)
    return rows


def _play_row(v: View, row: list[float], a: Action, resource: float) -> None:
    """A played card: the resource it leaves and its type; a unit deployed on a field is
    described on that field by its card's numbers (no permanent stands for it yet)."""
    card = v.s.cards[a.card]
    row[_INDEX["resource_after"]] = resource - (card.play or 0)
    if card.type is CardType.UNIT:
        row[_INDEX["k_unit"]] = 1.0
        if a.field >= 0:
            _at(
                v,
                row,
                None,
                a.field,
                card_value(card),
                (card.life or 1) + 1,
                (card.move or 0) + (card.range or 1),
            )
    else:
        row[_INDEX["k_spell" if card.type is CardType.SPELL else "k_perm"]] = 1.0


def _activation_row(
    v: View, row: list[float], p: Perm, idle: list[Perm], memo: dict[tuple[int, int, int], float]
) -> None:
    """Activating unit p: where it stands, whether it is in danger there, what it can reach,
    and the idle units next to it it may be blocking."""
    s = v.s
    f = s.perm_field(p)
    _unit_at(v, row, p, f, memo)
    hp = hp_left(s, p)
    row[_INDEX["in_danger_now"]] = 1.0 if v.danger(f) >= hp else 0.0
    row[_INDEX["attack_now"]] = row[_INDEX["attack_here"]]
    reach = (s.cards[p.cid].move or 0) + (s.cards[p.cid].range or 1)
    dist = v.geo._dist[f]
    row[_INDEX["reach_targets"]] = sum(1 for e in v.enemy_units if dist[e.field] <= reach)
    row[_INDEX["blocking"]] = sum(1 for q in idle if q.cid != p.cid and dist[q.field] == 1)


def _unit_action_row(
    v: View, row: list[float], unit: Perm, a: Action, memo: dict[tuple[int, int, int], float]
) -> None:
    """An action of the activated unit: where it ends (a move's destination, else where it
    stands) and, for an attack, the exchange, the kill and the strike back (R12.11)."""
    s = v.s
    here = s.perm_field(unit)
    k = a.kind
    if k == A.MOVE:
        _unit_at(v, row, unit, a.field, memo)
        row[_INDEX["goal_gain"]] = v.goal_dist(here) - v.goal_dist(a.field)
    else:
        _unit_at(v, row, unit, here, memo)
    if k == A.ATTACK and a.target in s.perms:
        t = s.perms[a.target]
        d = v.geo.dist(here, s.perm_field(t))
        row[_INDEX["exchange"]] = exchange(v, unit, t, d)
        row[_INDEX["kill"]] = 1.0 if strike(s, unit, t, d) >= hp_left(s, t) else 0.0
        back = (
            strike(s, t, unit, d)
            if s.cards[t.cid].type is CardType.UNIT and (d <= max_range(profile(s, t)))
            else 0
        )
        row[_INDEX["lose"]] = 1.0 if back >= hp_left(s, unit) else 0.0


def _unit_at(
    v: View, row: list[float], p: Perm, f: int, memo: dict[tuple[int, int, int], float]
) -> None:
    """The features of unit p ending on field f."""
    s = v.s
    card = s.cards[p.cid]
    _at(v, row, p, f, v.pv(p), hp_left(s, p), (card.move or 0) + (card.range or 1))
    if p.used_attack or p.under >= 0:
        return
    # the best exchange it can still make this turn from f
    reach = max_range(profile(s, p))
    dist = v.geo._dist[f]
    best = 0.0
    for t in v.enemy:
        d = dist[t.field]
        if d <= reach and (
            s.cards[t.cid].type is CardType.UNIT or s.cards[t.cid].keywords.solid is not None
        ):
            key = (p.cid, t.cid, d)
            x = memo.get(key)
            if x is None:
                x = memo[key] = exchange(v, p, t, d)
            best = max(best, x)
    row[_INDEX["attack_here"]] = best


def _at(
    v: View, row: list[float], p: Perm | None, f: int, value: float, hp: int, reach: int
) -> None:
    """Where a unit of `value`, `hp` life left and move + range `reach` ends: field f."""
    s, geo = v.s, v.geo
    dist = geo._dist[f]
    danger = v.danger(f)
    row[_INDEX["value"]] = value
    row[_INDEX["goal"]] = v.goal_dist(f)
    row[_INDEX["risk"]] = value if danger >= hp else 0.0
    row[_INDEX["danger"]] = min(2.0, danger / max(1, hp))
    row[_INDEX["enemies_near"]] = sum(1 for e in v.enemy_units if dist[e.field] == 1)
    row[_INDEX["friends_near"]] = sum(
        1
        for q in v.mine
        if dist[q.field] == 1 and q is not p and s.cards[q.cid].type is CardType.UNIT
    )
    near = [e for e in v.enemy_units if dist[e.field] <= reach]
    row[_INDEX["threat"]] = sum(v.pv(e) for e in near)
    row[_INDEX["threat_max"]] = max((v.pv(e) for e in near), default=0.0)
    cards = s.cards
    row[_INDEX["solo_kill"]] = float(
        any(
            (cards[e.cid].attack or 0) >= hp
            and not e.markers[Marker.PARALYSIS]
            and dist[e.field] <= (cards[e.cid].move or 0) + (cards[e.cid].range or 1)
            for e in v.enemy_units
        )
    )
    row[_INDEX["cover"]] = sum(
        1
        for q in v.mine
        if q is not p and dist[q.field] <= 2 and cards[q.cid].type is CardType.UNIT
    )
    if p is not None and p.used_move:
        row[_INDEX["moved"]] = 1.0
    fld = v.board.fields[f]
    if v.kind is VictoryKind.CAPTURE:
        row[_INDEX["objective_field"]] = 1.0 if fld.area is not None else 0.0
    elif v.kind is VictoryKind.RESOURCE:
        row[_INDEX["objective_field"]] = float(fld.income)


class LearnedAgent(HeuristicAgent):
    """The heuristic with its action-phase choices re-ranked by the learned model."""

    def __init__(self, coef: dict[str, float], width: int = WIDTH, name: str = "learned") -> None:
        super().__init__(name=name)
        unknown = sorted(set(coef) - set(FEATURES))
        if unknown:
            raise ValueError(f"unknown features: {', '.join(unknown)}")
        self.coef = [coef.get(f, 0.0) for f in FEATURES]
        self.width = max(1, width)
        self.params = {"width": float(self.width)}

    def act(self, game: Game, legal: list[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        s = game.state
        if s.phase != "main" or s.pending or s.priority:
            return choose(s, legal, rng, self)
        cands = candidates(s, legal, self.width)
        if len(cands) == 1:
            return cands[0][1]
        w = self.coef
        best, pick = -1e300, cands[0][1]
        for (_, a), row in zip(cands, features(s, cands), strict=True):
            x = sum(w[i] * f for i, f in enumerate(row) if f)
            if x > best:
                best, pick = x, a
        return pick


__all__ = ["FEATURES", "WIDTH", "LearnedAgent", "candidates", "features"]
