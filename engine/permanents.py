"""Permanents on the board: their numbers, where they may stand, entering and leaving (R9, R11,
R12, R13.5, R15, R21.10, R21.11).

Equipment in a unit's stack adds its modifiers (R21.11); units in a crew stack add their attack
per range (R12.7). Everything here changes the state only through the functions below, each of
which emits its event.
"""

from __future__ import annotations

from engine.board import Terrain
from engine.cards import Card, CardType, Keywords, Protection
from engine.choices import PlaceChoice
from engine.markers import Marker
from engine.state import GameState, Perm
from engine.vocab import DamageCause, DestroyCause, EventKind, LeaveReason

DROP_FIELDS_RADIUS = 1
"""R11.6: a dropped permanent lands on an available field in range 1 of the stack's field."""

# Members as module constants: these are read for every permanent of every legal-action list,
# and a class attribute read of an enum member costs more on Python 3.11.
_UNIT = CardType.UNIT
_HIGH_GROUND = Terrain.HIGH_GROUND
_POISON = Marker.POISON
_BLOCKED = Terrain.BLOCKED
_DEEP_WATER = Terrain.DEEP_WATER


# --- numbers ---------------------------------------------------------------------------------


def equipment_of(state: GameState, p: Perm) -> list[Card]:
    """The equipment cards in `p`'s stack (R15.6)."""
    if not p.stack:
        return []
    cards = state.cards
    return [cards[c] for c in p.stack if cards[c].type.is_equipment]


def riders_of(state: GameState, p: Perm) -> list[Perm]:
    """The units in `p`'s stack (crew, R12.9)."""
    if not p.stack:
        return []
    cards, perms = state.cards, state.perms
    return [perms[c] for c in p.stack if cards[c].type is _UNIT]


def keywords(state: GameState, p: Perm) -> list[Keywords]:
    """The card's keywords plus those its equipment grants (R21.11)."""
    cards = state.cards
    kws = [cards[p.cid].keywords]
    for c in p.stack:  # the equipment in the stack, as `equipment_of` lists it
        eq = cards[c]
        if eq.type.is_equipment and eq.modifiers.keywords is not None:
            kws.append(eq.modifiers.keywords)
    return kws


def life(state: GameState, p: Perm) -> int:
    """Units: life plus equipment; artifacts: their solid value (R15.4); others: 0."""
    card = state.cards[p.cid]
    if card.type is _UNIT:
        if not p.stack:
            return card.life or 0
        return (card.life or 0) + sum(e.modifiers.life for e in equipment_of(state, p))
    return card.keywords.solid or 0


def hp_left(state: GameState, p: Perm) -> int:
    """Damage it can still take before it is defeated (R12.2: more damage than life)."""
    return life(state, p) - p.damage + 1


def armor(state: GameState, p: Perm) -> int:
    if not p.stack:
        return state.cards[p.cid].keywords.armor
    return sum(k.armor for k in keywords(state, p)) + sum(
        e.modifiers.armor for e in equipment_of(state, p)
    )


def movement(state: GameState, p: Perm) -> int:
    card = state.cards[p.cid]
    if not p.stack:
        return card.move or 0
    return (card.move or 0) + sum(e.modifiers.move for e in equipment_of(state, p))


def is_veiled(state: GameState, p: Perm) -> bool:
    if not p.stack:
        return state.cards[p.cid].keywords.veiled
    return any(k.veiled for k in keywords(state, p))


def is_swimming(state: GameState, p: Perm) -> bool:
    if not p.stack:
        return state.cards[p.cid].keywords.swimming
    return any(k.swimming for k in keywords(state, p))


def own_profile(state: GameState, p: Perm) -> tuple[int, int]:
    """(attack, range) of one unit with its equipment; high ground is added by `profile`."""
    card = state.cards[p.cid]
    if not p.stack:
        return (card.attack or 0, card.range or 1)
    eqs = equipment_of(state, p)
    return (
        (card.attack or 0) + sum(e.modifiers.attack for e in eqs),
        (card.range or 1) + sum(e.modifiers.range for e in eqs),
    )


def profile(state: GameState, p: Perm) -> list[tuple[int, int]]:
    """The attacks a stack deals, as (attack, range) pairs of each unit in it (R12.7).

    A ranged unit (range > 1, R12.5) on high ground gets +1 range (R9.6, R12.12).
    """
    card = state.cards[p.cid]
    if card.type is not _UNIT:
        return []
    here = p.field if p.under < 0 else state.perm_field(p)
    high = state.config.board.fields[here].terrain is _HIGH_GROUND
    if not p.stack:
        r = card.range or 1
        return [(card.attack or 0, r + 1 if high and r > 1 else r)]
    out = []
    for u in [p, *riders_of(state, p)]:
        a, r = own_profile(state, u)
        if high and r > 1:
            r += 1
        out.append((a, r))
    return out


def damage_at(prof: list[tuple[int, int]], d: int) -> int:
    """R12.7: the sum of the attack of every unit in the stack whose range is at least d."""
    if len(prof) == 1:  # a unit alone: no generator (the agents ask this per field and foe)
        a, r = prof[0]
        return a if r >= d else 0
    return sum(a for a, r in prof if r >= d)


def max_range(prof: list[tuple[int, int]]) -> int:
    """The longest range among the stack's units that attack; 0 when none does."""
    if len(prof) == 1:
        a, r = prof[0]
        return r if a > 0 else 0
    return max((r for a, r in prof if a > 0), default=0)


def protected_from(state: GameState, p: Perm, source: Card | None) -> bool:
    """R11.4: `p` has protection from the card `source` (by name, type or condition)."""
    if source is None:
        return False
    if not p.stack:
        own = state.cards[p.cid].keywords.protections
        return bool(own) and any(_matches(pr, source) for pr in own)
    return any(_matches(pr, source) for k in keywords(state, p) for pr in k.protections)


def _matches(pr: Protection, card: Card) -> bool:
    """`pr` names `card`: by name, or by type; equipment and potions are artifacts too, potions
    equipment too (R15.5, R15.8), intentions spells too (R17.1, R21.23)."""
    if pr.card is not None:
        return pr.card.casefold() == card.name.casefold()
    if pr.type is not None and not (
        card.type is pr.type
        or (pr.type is CardType.ARTIFACT and card.type.is_artifact)
        or (pr.type is CardType.EQUIPMENT and card.type.is_equipment)
        or (pr.type is CardType.SPELL and card.type.is_spell)
    ):
        return False
    if pr.stat is None:
        return True
    value = getattr(card, pr.stat, None)
    if not isinstance(value, int):
        return False
    return {
        "<": value < pr.value,
        "<=": value <= pr.value,
        ">": value > pr.value,
        ">=": value >= pr.value,
        "=": value == pr.value,
    }.get(pr.op or "", False)


# --- where permanents may stand --------------------------------------------------------------


def standing(state: GameState, p: Perm) -> int:
    """The field a permanent counts as standing on: its stack's (R11.5), or, while it waits for
    its controller to choose where it lands (R11.6), the field its stack dropped from; -1 if
    neither (its ranges then count from nowhere, R10.1)."""
    here = state.perm_field(p)
    if here >= 0:
        return here
    return next(
        (pd.origin for pd in state.pending if isinstance(pd, PlaceChoice) and pd.card == p.cid), -1
    )


def origins(state: GameState, player: int, source: int) -> list[int]:
    """Fields ranges count from (R10.1): the source permanent's field, or the field it left
    the board from (a death trigger, a free action that sacrificed it); for a spell every field
    of a permanent its controller controls."""
    if state.cards[source].type.is_permanent:
        sp = state.perms.get(source)
        if sp is not None:
            here = standing(state, sp)
            return [here] if here >= 0 else []
        gone = state.left_from.get(source, -1)
        return [gone] if gone >= 0 else []
    return [p.field for p in state.perms.values() if p.controller == player and p.field >= 0]


def terrain_ok(state: GameState, card: Card, swimming: bool, field_: int) -> bool:
    """R9.5: blocked fields take nothing; deep water only swimmers, swimmers only deep water."""
    t = state.config.board.fields[field_].terrain
    if t is _BLOCKED:
        return False
    return (t is _DEEP_WATER) == swimming


def available(state: GameState, cid: int, field_: int, swimming: bool | None = None) -> bool:
    """R9.4/R9.5: `field_` is free and its terrain takes the card."""
    card = state.cards[cid]
    if swimming is None:
        swimming = card.keywords.swimming
    return state.occ[field_] < 0 and terrain_ok(state, card, swimming, field_)


def can_swap(state: GameState, unit: Perm, art: Perm) -> bool:
    """R15.3 with R9.5: a swap leaves each of the two on a field available to it."""
    return terrain_ok(
        state, state.cards[unit.cid], is_swimming(state, unit), art.field
    ) and terrain_ok(state, state.cards[art.cid], is_swimming(state, art), unit.field)


def can_take_rider(state: GameState, base: Perm, rider: Perm) -> bool:
    """R12.9: a crew unit takes up to n other units of its controller in its stack."""
    if base.controller != rider.controller or base.under >= 0:
        return False
    if not base.stack:
        return state.cards[base.cid].keywords.crew > 0
    crew = sum(k.crew for k in keywords(state, base))
    return crew > 0 and len(riders_of(state, base)) < crew


# --- entering and leaving --------------------------------------------------------------------


def put_onto_board(state: GameState, cid: int, controller: int, field_: int) -> Perm:
    """Put a permanent card onto a free field (R11.1); equipment gets its durability (R15.5)."""
    card = state.cards[cid]
    durability = (
        card.durability
        if card.durability is not None
        else (1 if card.type is CardType.POTION else 0)
    )
    p = Perm(cid, controller, field_, durability)
    state.perms[cid] = p
    state.occ[field_] = cid
    state.emit(EventKind.ENTER, controller, cid, field_=field_)
    return p


def attach(state: GameState, base: Perm, top: Perm) -> None:
    """Place `top` into `base`'s stack (R11.5, R12.9, R15.6); it leaves its own field."""
    if top.field >= 0 and state.occ[top.field] == top.cid:
        state.occ[top.field] = -1
    top.field = -1
    top.under = base.cid
    base.stack.append(top.cid)
    state.emit(EventKind.STACK, top.controller, top.cid, base.cid, state.perm_field(base))


def detach(state: GameState, p: Perm) -> None:
    """Take `p` out of the stack it is in (it then stands nowhere until placed)."""
    if p.under >= 0:
        base = state.perms[p.under]
        base.stack.remove(p.cid)
        p.under = -1


def place(state: GameState, p: Perm, field_: int) -> None:
    """Put a permanent that stands nowhere (dropped, carried) onto `field_`."""
    p.field = field_
    state.occ[field_] = p.cid
    state.emit(EventKind.PLACE, p.controller, p.cid, field_=field_)


def relocate(state: GameState, p: Perm, field_: int) -> None:
    """Move a permanent from its field to another (steps, pushes, swaps)."""
    if p.field >= 0 and state.occ[p.field] == p.cid:
        state.occ[p.field] = -1
    p.field = field_
    state.occ[field_] = p.cid


def deal_damage(
    state: GameState,
    target: Perm,
    amount: int,
    source: Card | None,
    player: int,
    cause: DamageCause,
) -> int:
    """Damage after protection from X, armor, then protection markers (R11.4, R12.8, R13.5).

    R21.20: armor reduces the damage first; protection markers prevent what is left and are
    spent only when something is left. Returns the damage actually taken. Death is checked by
    `check_deaths` so that the two sides of a combat take their damage at once (R12.11).
    """
    if amount <= 0 or protected_from(state, target, source):
        return 0
    taken = max(0, amount - armor(state, target))
    shields = target.markers[Marker.PROTECTION]
    if taken and shields > 0:
        removed = min(shields, taken)
        target.markers[Marker.PROTECTION] -= removed
        # the damage that met the unit, so a reader can check armor came first (R21.20)
        state.emit(EventKind.PREVENT, player, target.cid, amount=amount, detail=cause)
        state.emit(
            EventKind.MARKER,
            target.controller,
            target.cid,
            amount=-removed,
            detail=Marker.PROTECTION,
        )
        return 0
    if taken:
        target.damage += taken
        state.emit(EventKind.DAMAGE, player, target.cid, amount=taken, detail=cause)
    return taken


def is_defeated(state: GameState, p: Perm) -> bool:
    """R12.2: more damage than life; R13.2: more poison markers than life. A solid artifact's
    life is its X (R15.4), read the same way."""
    card = state.cards[p.cid]
    if card.type is _UNIT:
        lf = (card.life or 0) if not p.stack else life(state, p)
        return p.damage > lf or p.markers[_POISON] > lf
    solid = card.keywords.solid
    return solid is not None and p.damage > solid


def destroy(
    state: GameState, p: Perm, cause: DestroyCause, player: int, at: int = -1, by: str | None = None
) -> None:
    """R11.2: drop the stack (R11.6), remove markers, card to its owner's discard (tokens leave).

    Emits `death` for units (R12.2 "dies") and `destroy` for other permanents; the flow module
    turns `dies` into triggers by reading `state.dead`. The field it left is kept in
    `state.left_from` (R10.1, R14.1); `at` names it for a dropped permanent that stands nowhere.
    `by` names the card that destroyed it (`DestroyCause.BY_CARD`). Whoever destroys the
    Tyrant, by damage or otherwise, has defeated it (R21.15).
    """
    cid = p.cid
    card = state.cards[cid]
    if card.keywords.tyrant:
        state.killer = player
    field_ = standing(state, p) if p.field >= 0 or p.under >= 0 else at
    if field_ < 0:
        field_ = standing(state, p)
    detach(state, p)
    if p.field >= 0 and state.occ[p.field] == cid:
        state.occ[p.field] = -1
    del state.perms[cid]
    if field_ >= 0:
        state.left_from[cid] = field_
    state.emit(
        EventKind.DEATH if card.type is CardType.UNIT else EventKind.DESTROY,
        player,
        cid,
        field_=field_,
        detail=cause if by is None else f"{cause} {by}",
    )
    if state.marker_perm == cid:
        _intention_leaves(state)
    for top in list(p.stack):
        drop(state, state.perms[top], field_, p.controller)
    p.stack.clear()
    to_owner_discard(state, cid)
    state.dead.append((cid, p.controller, card.type is CardType.UNIT))


def _intention_leaves(state: GameState) -> None:
    """R17.4: a marker on a unit is removed when the unit leaves; R17.2: the card is discarded."""
    state.emit(EventKind.MARKER, -2, state.marker_card, detail="intention removed")
    state.tyrant_discard.append(state.marker_card)
    state.set_aside.remove(state.marker_card)
    state.marker_card = state.marker_perm = state.marker_field = -1


def drop(state: GameState, p: Perm, origin: int, chooser: int, wear: bool = True) -> None:
    """R11.6: place a permanent of a dropped stack on an available field in range 1 of `origin`,
    chosen by the controller of the permanent beneath; destroy it if there is none. Equipment
    loses 1 durability whenever its stack drops (R15.7) and is destroyed below 1 (R15.5);
    `wear=False` for a carried artifact put down (R15.2), which is no dropped stack."""
    p.under = -1
    p.field = -1
    card = state.cards[p.cid]
    if card.type.is_equipment and wear:
        p.durability -= 1
        state.emit(EventKind.DURABILITY, p.controller, p.cid, amount=-1)
        if p.durability < 1:
            destroy(state, p, DestroyCause.DURABILITY, p.controller, origin)
            return
    swimming = is_swimming(state, p)
    geo = state.config.geometry
    options = (
        tuple(
            f
            for f in (origin, *geo.in_range_fields(origin, DROP_FIELDS_RADIUS))
            if available(state, p.cid, f, swimming)
        )
        if origin >= 0
        else ()
    )
    if not options:
        destroy(state, p, DestroyCause.NO_ROOM_TO_DROP, chooser, origin)
    elif len(options) == 1 or chooser < 0:
        place(state, p, options[0])
    else:
        state.pending.append(PlaceChoice(chooser, p.cid, tuple(sorted(options)), origin))


def to_owner_discard(state: GameState, cid: int) -> None:
    """R8.8, R11.2: a card goes to its owner's discard pile; a token leaves the game instead."""
    owner = state.owner[cid]
    if state.token[cid] or owner < 0:
        if owner == -2 and state.cards[cid].type is CardType.INTENTION:
            state.tyrant_discard.append(cid)
            return
        state.out.append(cid)
        state.emit(
            EventKind.LEAVE,
            owner,
            cid,
            detail=LeaveReason.TOKEN if state.token[cid] else LeaveReason.NEUTRAL,
        )
        return
    state.players[owner].discard.append(cid)
