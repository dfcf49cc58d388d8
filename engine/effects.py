"""Effects and their targets (R6.4, R10.1, R11.4, R14.1): what an effect acts on, and carrying
out an action's effects with the verbs of the registry (`engine.verbs`).

Each verb's `effect` is called with the resolved targets and the push origin the action's
controller chose. A chosen target is named when the action is announced and checked again when
it resolves (R6.4); a card names at most one chosen target, which all its `target ...` effects
share.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import verbs
from engine.actions import field_action_number, permanent_target, player_target
from engine.cards import CHOSEN_KINDS, CardType, Effect, FreeAction, Side, Target, TargetKind
from engine.permanents import is_veiled, origins, protected_from
from engine.state import GameState
from engine.vocab import EventKind


def free_action_of(state: GameState, source: int, index: int, field_: int = -1) -> FreeAction:
    """Free action `index` of permanent `source`: its card's own, or one its field grants
    (`field_`, default the field it stands on now; `engine.actions.field_action`)."""
    granted = field_action_number(index)
    if granted is None:
        return state.cards[source].free_actions[index]
    if field_ < 0:
        field_ = state.perm_field(state.perms[source])
    return state.config.board.fields[field_].actions[granted]


def chosen_spec(effects: Sequence[Effect]) -> Target | None:
    """The one chosen target of an effect list, if any (announced with the action, R6.4)."""
    for e in effects:
        t = e.target
        if not t.each and t.kind in CHOSEN_KINDS:  # `Target.is_chosen`, without the call
            return t
    return None


_KIND_TYPES: dict[TargetKind, frozenset[CardType]] = {
    TargetKind.UNIT: frozenset({CardType.UNIT}),
    TargetKind.ARTIFACT: frozenset(t for t in CardType if t.is_artifact),
    TargetKind.EQUIPMENT: frozenset(t for t in CardType if t.is_equipment),
    TargetKind.PERMANENT: frozenset(CardType),
    TargetKind.SELF: frozenset(CardType),
}
"""The card types each target kind matches (equipment and potions are artifacts too, potions
equipment too: R15.5, R15.8); a kind not listed matches no permanent."""
_NO_TYPES: frozenset[CardType] = frozenset()
_ANY = Side.ANY
_ENEMY = Side.ENEMY
_OPPONENT = TargetKind.OPPONENT


def _side_ok(state: GameState, player: int, controller: int, side: Side) -> bool:
    if side is _ENEMY:
        return state.enemies(player, controller)
    if side is Side.FRIENDLY:
        return controller == player or (
            player >= 0
            and controller >= 0
            and state.players[player].team == state.players[controller].team
        )
    return True


def candidates(
    state: GameState, player: int, source: int, spec: Target, targeting: bool
) -> list[int]:
    """Permanents (or player targets) matching `spec` from `source`'s point of view.

    `targeting` applies R11.4: veiled permanents and those with protection from the source card
    cannot be targeted; `each` effects do not target, so only damage is stopped by protection.
    Permanents in a stack (riders, equipped equipment) match too, on the stack's field (R11.5):
    no rule keeps them from being targeted.
    """
    if spec.kind is _OPPONENT:
        return [player_target(s) for s in range(len(state.players)) if state.enemies(player, s)]
    cards = state.cards
    src_card = cards[source]
    types = _KIND_TYPES.get(spec.kind, _NO_TYPES)
    side, reach = spec.side, spec.range
    geo = state.config.geometry
    rows = (
        [geo.distances_from(f) for f in origins(state, player, source)] if reach is not None else []
    )
    limit = reach if reach is not None else 0
    near = rows[0] if len(rows) == 1 else None  # one origin: the cheapest test, made first
    many = reach is not None and near is None
    sides: dict[int, bool] = {}  # by controller: whether its permanents are on `side`
    out = []
    for cid, p in state.perms.items():
        where = p.field
        if where < 0:
            if p.under < 0:
                continue  # a dropped permanent not yet placed (R11.6) stands nowhere
            where = state.perm_field(p)
        if near is not None and near[where] > limit:
            continue
        card = cards[cid]
        if card.type not in types:
            continue
        if side is not _ANY:
            ok = sides.get(p.controller)
            if ok is None:
                ok = sides[p.controller] = _side_ok(state, player, p.controller, side)
            if not ok:
                continue
        if targeting:
            kw = card.keywords
            if p.stack:
                if is_veiled(state, p) or protected_from(state, p, src_card):
                    continue
            elif kw.veiled or (kw.protections and protected_from(state, p, src_card)):
                continue
        if many:
            for row in rows:
                if row[where] <= limit:
                    break
            else:
                continue
        out.append(cid)
    out.sort()
    return out


def target_legal(state: GameState, player: int, source: int, spec: Target, target: int) -> bool:
    """R6.4: re-check a chosen target when the action resolves."""
    return target in candidates(state, player, source, spec, targeting=True)


def resolve(
    state: GameState,
    player: int,
    source: int,
    effects: Sequence[Effect],
    chosen: int,
    origin: int = -1,
) -> None:
    """Carry out all effects of one action at once (R6.4), in the order written; `origin` is
    the push origin its controller chose when no permanent pushes (R14.1)."""
    spec = chosen_spec(effects)
    chosen_ok = (
        spec is not None and chosen >= 0 and target_legal(state, player, source, spec, chosen)
    )
    if spec is not None and not chosen_ok:
        state.emit(EventKind.FIZZLE, player, source, permanent_target(chosen))
    # the shared target must suit each effect's own words too (side, kind, range), checked
    # now, as the action resolves: an earlier effect that moves it does not change that
    suits = {
        e.target: chosen_ok
        and (e.target == spec or target_legal(state, player, source, e.target, chosen))
        for e in effects
        if e.target.is_chosen
    }
    for e in effects:
        if e.target.is_chosen and not suits[e.target]:
            continue
        targets = effect_targets(state, player, source, e, chosen)
        verbs.VERBS[e.verb].effect(state, player, source, e, targets, origin)


def push_origins(
    state: GameState, player: int, source: int, effects: Sequence[Effect], chosen: int
) -> list[int]:
    """The origin fields to offer for an action whose pushes no permanent causes (R14.1), one
    per distinct outcome: fields giving the same first step to every permanent pushed now give
    the same push (R21.9: the direction is the signs of the offset), so the lowest-numbered
    field of each stands for them. An origin on a pushed permanent's field draws no line
    (R14.2) and is not offered. Only fields around the pushed ones need looking at: farther
    ones give the same signs as the ring just around them. Empty when nothing is pushed or a
    permanent pushes."""
    if state.cards[source].type.is_permanent:
        return []
    pushed: list[int] = []
    table = verbs.VERBS
    for e in effects:
        if table[e.verb].pushes:
            for t in effect_targets(state, player, source, e, chosen):
                p = state.perms.get(t)
                if p is not None and p.field >= 0:
                    pushed.append(p.field)
    if not pushed:
        return []
    geo = state.config.geometry
    xs = [geo.xs[f] for f in pushed]
    ys = [geo.ys[f] for f in pushed]
    w = geo.width
    best: dict[tuple[int | None, ...], int] = {}
    for y in range(max(0, min(ys) - 1), min(geo.height - 1, max(ys) + 1) + 1):
        for x in range(max(0, min(xs) - 1), min(w - 1, max(xs) + 1) + 1):
            f = y * w + x
            if f not in pushed:
                best.setdefault(tuple(geo.push_step(f, q) for q in pushed), f)
    return sorted(best.values())


def effect_targets(state: GameState, player: int, source: int, e: Effect, chosen: int) -> list[int]:
    """What one effect acts on: the chosen target, every match of `each`, the source itself,
    or nothing (the acting player's own verbs: draw, gain, ...)."""
    t = e.target
    if t.is_chosen:
        return [chosen] if chosen >= 0 else []
    if t.each:
        return candidates(state, player, source, t, targeting=False)
    if t.kind is TargetKind.SELF:
        return [source] if source in state.perms else []
    return []
