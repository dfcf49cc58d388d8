"""The verbs of the card language and their targets (R6.4, R11.4, R13, R14, R16, R18, R19.2).

Each verb is one function in `VERBS`, called with the resolved targets (push, which also takes
the action's chosen origin, is called by `resolve` itself). A chosen target is named
when the action is announced and checked again when it resolves (R6.4); a card names at most one
chosen target, which all its `target ...` effects share.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.actions import field_action_number, permanent_target, player_target, target_seats
from engine.cards import CardType, Effect, FreeAction, Side, Target, TargetKind
from engine.permanents import (available, deal_damage, destroy, is_veiled, protected_from,
                               put_onto_board)
from engine.push import push
from engine.state import DiscardChoice, GameState, Perm
from engine.vocab import EventKind
from engine.zones import draw, gain, lose

STATE_MARKERS = ("paralysis", "poison", "panic", "rage", "protection")

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
        if e.target.is_chosen:
            return e.target
    return None


def _kind_ok(state: GameState, p: Perm, kind: TargetKind) -> bool:
    t = state.cards[p.cid].type
    if kind is TargetKind.UNIT:
        return t is CardType.UNIT
    if kind is TargetKind.ARTIFACT:
        return t.is_artifact
    if kind is TargetKind.EQUIPMENT:
        return t.is_equipment
    return kind is TargetKind.PERMANENT or kind is TargetKind.SELF


def _side_ok(state: GameState, player: int, p: Perm, side: Side) -> bool:
    if side is Side.ENEMY:
        return state.enemies(player, p.controller)
    if side is Side.FRIENDLY:
        return p.controller == player or (
            player >= 0 and p.controller >= 0
            and state.players[player].team == state.players[p.controller].team)
    return True


def origins(state: GameState, player: int, source: int) -> list[int]:
    """Fields ranges count from (R10.1): the source permanent's field, or the field it left
    the board from (a death trigger, a free action that sacrificed it); for a spell every field
    of a permanent its controller controls."""
    if state.cards[source].type.is_permanent:
        sp = state.perms.get(source)
        if sp is not None:
            return [state.perm_field(sp)]
        gone = state.left_from.get(source, -1)
        return [gone] if gone >= 0 else []
    return [p.field for p in state.perms.values() if p.controller == player and p.field >= 0]


def candidates(state: GameState, player: int, source: int, spec: Target,
               targeting: bool) -> list[int]:
    """Permanents (or player targets) matching `spec` from `source`'s point of view.

    `targeting` applies R11.4: veiled permanents and those with protection from the source card
    cannot be targeted; `each` effects do not target, so only damage is stopped by protection.
    Permanents in a stack (riders, equipped equipment) match too, on the stack's field (R11.5):
    no rule keeps them from being targeted.
    """
    if spec.kind is TargetKind.OPPONENT:
        return [player_target(s) for s in range(len(state.players)) if state.enemies(player, s)]
    geo = state.config.geometry
    src_card = state.cards[source]
    froms = origins(state, player, source) if spec.range is not None else []
    out = []
    for cid, p in state.perms.items():
        if p.field < 0 and p.under < 0:
            continue  # a dropped permanent not yet placed (R11.6) stands nowhere
        if not _kind_ok(state, p, spec.kind) or not _side_ok(state, player, p, spec.side):
            continue
        if targeting and (is_veiled(state, p) or protected_from(state, p, src_card)):
            continue
        if spec.range is not None:
            where = p.field if p.field >= 0 else state.perm_field(p)
            if not any(geo.dist(f, where) <= spec.range for f in froms):
                continue
        out.append(cid)
    out.sort()
    return out


def target_legal(state: GameState, player: int, source: int, spec: Target, target: int) -> bool:
    """R6.4: re-check a chosen target when the action resolves."""
    return target in candidates(state, player, source, spec, targeting=True)


def resolve(state: GameState, player: int, source: int, effects: Sequence[Effect],
            chosen: int, origin: int = -1) -> None:
    """Carry out all effects of one action at once (R6.4), in the order written; `origin` is
    the push origin its controller chose when no permanent pushes (R14.1)."""
    spec = chosen_spec(effects)
    chosen_ok = spec is not None and chosen >= 0 and target_legal(state, player, source, spec,
                                                                   chosen)
    if spec is not None and not chosen_ok:
        state.emit(EventKind.FIZZLE, player, source, permanent_target(chosen))
    # the shared target must suit each effect's own words too (side, kind, range), checked
    # now, as the action resolves: an earlier effect that moves it does not change that
    suits = {e.target: chosen_ok and (e.target == spec or target_legal(
        state, player, source, e.target, chosen)) for e in effects if e.target.is_chosen}
    for e in effects:
        if e.target.is_chosen and not suits[e.target]:
            continue
        targets = effect_targets(state, player, source, e, chosen)
        if e.verb == "push":
            _push(state, player, source, e, targets, origin)
        else:
            VERBS[e.verb](state, player, source, e, targets)


def push_origin(state: GameState, source: int, chosen: int) -> int:
    """R14.1: a push starts from the pushing permanent's field (the field it left, if it is
    gone); when no permanent pushes (a spell), from the field its controller chose."""
    if not state.cards[source].type.is_permanent:
        return chosen
    sp = state.perms.get(source)
    if sp is not None:
        return state.perm_field(sp)
    return state.left_from.get(source, -1)


def push_origins(state: GameState, player: int, source: int, effects: Sequence[Effect],
                 chosen: int) -> list[int]:
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
    for e in effects:
        if e.verb == "push":
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


def effect_targets(state: GameState, player: int, source: int, e: Effect,
                   chosen: int) -> list[int]:
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


Verb = Callable[[GameState, int, int, Effect, list[int]], None]


def _perms(state: GameState, targets: list[int]) -> list[Perm]:
    return [state.perms[t] for t in targets if t in state.perms]


def _seats(state: GameState, player: int, targets: list[int]) -> list[int]:
    seats = target_seats(targets)
    if not seats and not targets:
        seats = [s for s in range(len(state.players)) if state.enemies(player, s)][:1]
    return seats


def _damage(state: GameState, player: int, source: int, e: Effect, targets: list[int]) -> None:
    for p in _perms(state, targets):
        deal_damage(state, p, e.amount, state.cards[source], player, "effect")


def _heal(state: GameState, player: int, source: int, e: Effect, targets: list[int]) -> None:
    for p in _perms(state, targets):
        healed = min(p.damage, e.amount)
        if healed:
            p.damage -= healed
            state.emit(EventKind.HEAL, player, p.cid, amount=healed)


def _draw(state: GameState, player: int, source: int, e: Effect, targets: list[int]) -> None:
    if player >= 0:
        draw(state, player, e.amount)


def _gain(state: GameState, player: int, source: int, e: Effect, targets: list[int]) -> None:
    if player >= 0:
        gain(state, player, e.amount, "effect")


def _steal(state: GameState, player: int, source: int, e: Effect, targets: list[int]) -> None:
    for seat in _seats(state, player, targets):
        taken = lose(state, seat, e.amount, "stolen")
        if player >= 0:
            gain(state, player, taken, "steal")


def _burn(state: GameState, player: int, source: int, e: Effect, targets: list[int]) -> None:
    for seat in _seats(state, player, targets):
        lose(state, seat, e.amount, "burned")


def _discard(state: GameState, player: int, source: int, e: Effect, targets: list[int]) -> None:
    """The acting player discards N cards, one choice at a time: as many as the hand holds
    when they choose (another discard of the same action may have emptied it)."""
    if player >= 0 and e.amount > 0:
        state.pending.append(DiscardChoice(player, e.amount, source))


def _push(state: GameState, player: int, source: int, e: Effect, targets: list[int],
          chosen: int) -> None:
    """R14.1: every push of the action starts from one origin (`push_origin`); a permanent in
    a stack or on the origin itself is not pushed (R14.2: no line)."""
    origin = push_origin(state, source, chosen)
    if origin < 0:
        return
    for p in _perms(state, targets):
        if p.field >= 0 and p.field != origin:
            push(state, origin, p, e.amount, player)


def _marker(name: str) -> Verb:
    def apply(state: GameState, player: int, source: int, e: Effect, targets: list[int]) -> None:
        for p in _perms(state, targets):
            if name != "protection" and state.cards[p.cid].type is not CardType.UNIT:
                continue
            setattr(p, name, getattr(p, name) + e.amount)
            state.emit(EventKind.MARKER, player, p.cid, amount=e.amount, detail=name)
    return apply


def _destroy(state: GameState, player: int, source: int, e: Effect, targets: list[int]) -> None:
    """R11.2; a target that went with an earlier one (equipment breaking as its unit's stack
    drops, R15.7) is not destroyed twice."""
    for p in _perms(state, targets):
        if p.cid in state.perms:
            destroy(state, p, "destroyed by " + state.cards[source].name, player)


def _sacrifice(state: GameState, player: int, source: int, e: Effect, targets: list[int]) -> None:
    """R11.3: only permanents the acting player controls can be sacrificed (each once)."""
    for p in _perms(state, targets):
        if p.controller == player and p.cid in state.perms:
            destroy(state, p, "sacrificed", player)


def _create(state: GameState, player: int, source: int, e: Effect, targets: list[int]) -> None:
    """R8.8: tokens are created in play; permanent tokens on free available fields in range 1
    of the source (R10.1: of the field it died on, for a death trigger), else in the creator's
    deploy zone; with no room they never enter."""
    card = state.config.catalog[(e.card or "").casefold()]
    geo = state.config.geometry
    here = origins(state, player, source) if state.cards[source].type.is_permanent else []
    near = [f for o in here for f in geo.in_range_fields(o, 1)]
    for _ in range(e.amount):
        cid = len(state.cards)
        state.cards.append(card)
        state.owner.append(player)
        state.token.append(True)
        state.emit(EventKind.CREATE, player, cid)
        if not card.type.is_permanent:
            if player >= 0:
                state.players[player].hand.append(cid)
            else:
                state.out.append(cid)
            continue
        zone = list(state.config.deploy[player]) if player >= 0 else []
        spot = next((f for f in near + zone if available(state, cid, f)), -1)
        if spot < 0:
            state.out.append(cid)
            state.emit(EventKind.LEAVE, player, cid, detail="no room")
        else:
            put_onto_board(state, cid, player, spot)
            state.entered.append(cid)


def _score(state: GameState, player: int, source: int, e: Effect, targets: list[int]) -> None:
    if player >= 0:
        state.players[player].points += e.amount
        state.emit(EventKind.POINTS, player, amount=e.amount, detail="effect")


def _repair(state: GameState, player: int, source: int, e: Effect, targets: list[int]) -> None:
    for p in _perms(state, targets):
        if state.cards[p.cid].type.is_equipment:
            p.durability += e.amount
            state.emit(EventKind.DURABILITY, player, p.cid, amount=e.amount)


VERBS: dict[str, Verb] = {
    "damage": _damage,
    "heal": _heal,
    "draw": _draw,
    "gain": _gain,
    "steal": _steal,
    "burn": _burn,
    "discard": _discard,
    "paralyse": _marker("paralysis"),
    "poison": _marker("poison"),
    "panic": _marker("panic"),
    "rage": _marker("rage"),
    "protect": _marker("protection"),
    "destroy": _destroy,
    "sacrifice": _sacrifice,
    "create": _create,
    "score": _score,
    "repair": _repair,
}
