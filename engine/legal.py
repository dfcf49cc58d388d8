"""Legal actions of the current decision (R3, R5.3, R6.5-R6.8, R7, R8.6, R12, R15, R21.5,
R21.21, R21.22, R21.24).

Slow actions (playing permanents, a unit's actions) only in the active player's own action
phase with an empty stack (R6.5); fast actions (spells, free actions, R8.6) whenever the player
has a decision (R6.6): in upkeep (R21.21), the action phase, the buy and discard steps and every
response window (R21.24).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import actions as A
from engine import verbs
from engine.actions import Action
from engine.behaviours import attackable, destinations, path_onto
from engine.cards import Card, CardType, Effect, FreeAction
from engine.choices import DiscardChoice, PlaceChoice
from engine.effects import candidates, chosen_spec, push_origins
from engine.markers import Marker
from engine.permanents import available, can_swap, can_take_rider, max_range, profile
from engine.state import GameState, Perm
from engine.vocab import ActionKind, Phase

# The words as module constants: on Python 3.11 reading an enum member (`ActionKind.MOVE`)
# goes through EnumType.__getattr__ (~0.3 us), too slow once per generated or scored action.
_ACTIVATE = ActionKind.ACTIVATE
_ATTACK = ActionKind.ATTACK
_BUY = ActionKind.BUY
_CARRY = ActionKind.CARRY
_DISCARD = ActionKind.DISCARD
_EQUIP = ActionKind.EQUIP
_FREE = ActionKind.FREE
_FULL = ActionKind.FULL
_MOVE = ActionKind.MOVE
_PAY = ActionKind.PAY
_PICK = ActionKind.PICK
_PLACE = ActionKind.PLACE
_PLAY = ActionKind.PLAY
_SWAP = ActionKind.SWAP
_TAP = ActionKind.TAP
_TARGET = ActionKind.TARGET
_UNPARALYSE = ActionKind.UNPARALYSE
_POTION = CardType.POTION
_SPELL = CardType.SPELL
_UNIT = CardType.UNIT
_PARALYSIS = Marker.PARALYSIS
_PHASE_ACTION = Phase.ACTION
_PHASE_BUY = Phase.BUY
_PHASE_DISCARD = Phase.DISCARD
_PHASE_DRAFT = Phase.DRAFT
_PHASE_UPKEEP_DUE = Phase.UPKEEP_DUE
_new = tuple.__new__
"""`_new(Action, (kind, card, target, field, index, other))` builds an action without the
NamedTuple's keyword handling, several times faster, for the lists built per decision."""


def current_player(state: GameState) -> int:
    """Whose decision it is; -1 when the game is over."""
    if state.winners is not None:
        return -1
    if state.phase == _PHASE_DRAFT:
        return state.draft_seat
    if state.pending:
        return state.pending[0].player
    if state.priority:
        return state.priority[0]
    return state.active


def legal_actions(state: GameState) -> list[Action]:
    if state.winners is not None:
        return []
    if state.phase == _PHASE_DRAFT:
        return [Action(_PICK, c) for c in sorted(state.packs[state.draft_seat])]
    if state.pending:
        return _pending_actions(state)
    if state.priority:
        return [A.PASS_ACTION, *fast_actions(state, state.priority[0])]
    seat = state.active
    if state.phase == _PHASE_ACTION:
        if state.activated >= 0:
            return unit_actions(state, state.perms[state.activated])
        return main_actions(state, seat)
    if state.phase == _PHASE_UPKEEP_DUE:
        return upkeep_actions(state, seat)
    if state.phase == _PHASE_BUY:
        # R1.3, R7.1: from the player's own store, at the card's buy price, into the deck
        pl = state.players[seat]
        prices = {c: state.cards[c].buy for c in set_by_name(state, pl.store)}
        buys = [
            Action(_BUY, c)
            for c in sorted(prices)  # R7.3: no buy price, no buy
            if (price := prices[c]) is not None and price <= pl.resource
        ]
        # R21.24: fast and free actions before buying too (R6.6)
        return [A.PASS_ACTION, *buys, *fast_actions(state, seat)]
    if state.phase == _PHASE_DISCARD:
        # R4.6: any number of hand cards, one at a time, until the player ends the turn; and
        # R21.24: the fast and free actions meanwhile (R6.6)
        hand = state.players[seat].hand
        discards = [Action(_DISCARD, c) for c in sorted(set_by_name(state, hand))]
        return [A.END_ACTION, *discards, *fast_actions(state, seat)]
    return []


def set_by_name(state: GameState, cards: list[int]) -> list[int]:
    """One card per distinct name: copies are interchangeable, so the choice is the name."""
    if len(cards) < 2:
        return list(cards)
    seen: dict[str, int] = {}
    defs = state.cards
    for c in sorted(cards):
        seen.setdefault(defs[c].name, c)
    return list(seen.values())


def upkeep_actions(state: GameState, seat: int) -> list[Action]:
    """R5.3, R21.7, R21.21: pay for a due unit the resource covers, a fast action first (R6.6,
    R6.7, R8.6, e.g. to gain the resource), or refuse: the units still unpaid are defeated."""
    res = state.players[seat].resource
    cards = state.cards
    out = [Action(_PAY, c) for c in state.upkeep_due if (cards[c].upkeep or 0) <= res]
    out.append(A.REFUSE_ACTION)
    out.extend(fast_actions(state, seat))
    return out


def _pending_actions(state: GameState) -> list[Action]:
    pd = state.pending[0]
    if isinstance(pd, DiscardChoice):
        hand = state.players[pd.player].hand
        return [Action(_DISCARD, c) for c in sorted(set_by_name(state, hand))]
    if isinstance(pd, PlaceChoice):
        # R11.6: fields taken since the drop began (another dropped permanent) are no longer
        # available; the game destroys the permanent when none is left (engine.game._advance).
        return [Action(_PLACE, pd.card, field=f) for f in pd.fields if state.occ[f] < 0]
    trigger = -1 if pd.trigger is None else pd.trigger
    return [Action(_TARGET, pd.source, t, index=trigger) for t in pd.options]


def _payable_spell(card: Card, resource: int) -> bool:
    return card.type is _SPELL and card.play is not None and card.play <= resource


def fast_actions(state: GameState, seat: int) -> list[Action]:
    """Spells in hand (R16.1), free actions (R6.7, R15.8) and R8.6, for any decision; do not
    mutate. Kept on the state until the next event but a unit's activation or tapping
    (`GameState.changes`), or a change of the seat's resource or hand without one (a test's
    edit): a turn lists the same ones before and after each activation and tap."""
    pl = state.players[seat]
    key = (seat, state.changes, pl.resource, tuple(pl.hand))
    kept = state.fast_cache
    if kept is not None and kept[0] == key:
        return kept[1]
    out = _fast_actions(state, seat)
    state.fast_cache = (key, out)
    return out


def _fast_actions(state: GameState, seat: int) -> list[Action]:
    pl = state.players[seat]
    out: list[Action] = []
    cards = state.cards
    res = pl.resource
    spells = [c for c in pl.hand if _payable_spell(cards[c], res)]
    for c in set_by_name(state, spells) if spells else ():
        out.extend(_with_targets(state, seat, c, Action(_PLAY, c), cards[c].effects))
    fields = state.config.board.fields
    grants = state.config.geometry.grants_actions
    for p in _sources(state, seat, grants):
        if _held(state, p):
            continue
        card = cards[p.cid]
        # R15.1: a permanent's own free actions, an artifact's too (a potion's equipped, R15.8)
        if card.free_actions and (card.type is not _POTION or p.under >= 0):
            out.extend(_free(state, seat, p.cid, card.free_actions, 0))
        if grants and p.field >= 0 and card.type is _UNIT and (granted := fields[p.field].actions):
            out.extend(_free(state, seat, p.cid, granted, A.field_action(0)))
    if len(pl.hand) >= 2:
        out.append(A.CONVERT_ACTION)
    return out


def may_respond(state: GameState, seat: int) -> bool:
    """Whether `seat` might have a fast action now (R6.6): False only when `fast_actions` is
    empty, with neither a target search nor a list built, so that a response window in which
    the seat can only pass (R21.6) costs little. True when `fast_actions` has to tell: a
    payable spell (R16.1) or free action (R6.7, R9.3, R15.8) may still lack a legal target."""
    pl = state.players[seat]
    hand = pl.hand
    if len(hand) >= 2:
        return True  # R8.6: discard 2 cards, gain 1 resource
    res = pl.resource
    cards = state.cards
    if hand and _payable_spell(cards[hand[0]], res):
        return True
    fields, n = state.config.board.fields, len(hand)
    for p in _sources(state, seat, state.config.geometry.grants_actions):
        if _held(state, p):
            continue
        card = cards[p.cid]
        own = card.free_actions if card.type is not _POTION or p.under >= 0 else ()
        granted = fields[p.field].actions if p.field >= 0 and card.type is _UNIT else ()
        if (own and _any_payable(own, res, n)) or (granted and _any_payable(granted, res, n)):
            return True
    return False


def _sources(state: GameState, seat: int, grants: bool) -> list[Perm]:
    """`seat`'s permanents that may have free actions, in the permanents' order: those whose
    card has some (R6.7, R15.1), and every one when a field of the board grants some (R9.3)."""
    perms = state.perms.values()
    if grants:
        return [p for p in perms if p.controller == seat]
    cards = state.cards
    return [p for p in perms if p.controller == seat and cards[p.cid].free_actions]


def _held(state: GameState, p: Perm) -> bool:
    """R21.22 (R13.1): a paralysed unit takes none of its actions, free ones included, nor
    those a field or its equipment (a potion, R15.8) grants it: `p` is such a unit, or
    equipment on one."""
    if p.markers[_PARALYSIS] > 0:
        return True
    if p.under < 0:
        return False
    base = state.perms.get(p.under)
    return (
        base is not None
        and base.markers[_PARALYSIS] > 0
        and state.cards[p.cid].type.is_equipment
        and state.cards[base.cid].type is _UNIT
    )


def _any_payable(options: Sequence[FreeAction], resource: int, hand: int) -> bool:
    """Whether the player can pay for one of `options` (R6.7), as `_free` checks it."""
    return any(fa.cost.resource <= resource and fa.cost.discard <= hand for fa in options)


def _free(
    state: GameState, seat: int, source: int, options: Sequence[FreeAction], first: int
) -> list[Action]:
    """The payable free actions among `options`, numbered from `first` (R6.7, R9.3)."""
    pl = state.players[seat]
    out: list[Action] = []
    for i, fa in enumerate(options, first):
        if fa.cost.resource <= pl.resource and fa.cost.discard <= len(pl.hand):
            base = _new(Action, (_FREE, source, -1, -1, i, -1))
            out.extend(_with_targets(state, seat, source, base, fa.effects))
    return out


def _with_targets(
    state: GameState, seat: int, source: int, base: Action, effects: Sequence[Effect]
) -> list[Action]:
    """One action per legal chosen target (R6.4), or the action alone if it names none; a
    push no permanent causes names its origin field too (R14.1), one per distinct outcome."""
    spec = chosen_spec(effects)
    kind, card, _, field, index, other = base
    out = (
        [base]
        if spec is None
        else [
            _new(Action, (kind, card, t, field, index, other))
            for t in candidates(state, seat, source, spec, True)
        ]
    )
    if state.cards[source].type.is_permanent or not _pushes(effects):
        return out
    return [
        a._replace(field=f)
        for a in out
        for f in push_origins(state, seat, source, effects, a.target) or (-1,)
    ]


def _pushes(effects: Sequence[Effect]) -> bool:
    """Whether one of `effects` pushes (a loop: a quarter of `any` over a generator's cost)."""
    table = verbs.VERBS
    for e in effects:  # noqa: SIM110
        if table[e.verb].pushes:
            return True
    return False


def main_actions(state: GameState, seat: int) -> list[Action]:
    """R6.8: play a card, activate an untapped unit, a fast action, or pass (R21.5)."""
    pl = state.players[seat]
    out = [A.PASS_ACTION]
    if not state.stack:
        # R12.3: units (and the other permanents) are slow, played onto the deploy fields
        zone = state.config.deploy[seat]
        cards, perms, occ = state.cards, state.perms, state.occ
        for c in set_by_name(state, pl.hand):
            card = cards[c]
            if not card.type.is_permanent or card.play is None or card.play > pl.resource:
                continue
            swims = card.keywords.swimming
            out.extend(
                [
                    _new(Action, (_PLAY, c, -1, f, -1, -1))
                    for f in zone
                    if occ[f] < 0 and available(state, c, f, swims)
                ]
            )
            if card.type.is_equipment:
                out.append(Action(_PLAY, c))
        ready = [
            cid
            for cid, p in perms.items()
            if p.controller == seat and not p.tapped and cards[cid].type is _UNIT
        ]
        ready.sort()  # in order of the units' ids
        out.extend([_new(Action, (_ACTIVATE, cid, -1, -1, -1, -1)) for cid in ready])
    out.extend(fast_actions(state, seat))
    return out


def unit_actions(state: GameState, p: Perm) -> list[Action]:
    """R12.4, R13.1, R15.2, R15.3, R15.6: what an activated unit can do, or tap it."""
    seat, cid = p.controller, p.cid
    out = [Action(_TAP, cid)]
    can_move, can_attack = not p.used_move, not p.used_attack
    # R13.1, R15.3, R15.6: the player chooses which unused action these spend
    spend = [i for i, unused in ((A.SPEND_MOVE, can_move), (A.SPEND_ATTACK, can_attack)) if unused]
    if p.markers[_PARALYSIS] > 0:
        out.extend(Action(_UNPARALYSE, cid, index=i) for i in spend)
        out.extend(fast_actions(state, seat))
        return out
    geo = state.config.geometry
    perms, cards = state.perms, state.cards
    here = state.perm_field(p)
    moves = destinations(state, p) if can_move else {}
    out.extend([_new(Action, (_MOVE, cid, -1, f, -1, -1)) for f in sorted(moves)])
    if can_move:
        # R12.9: onto a crew unit of the same controller (`can_take_rider` asks that first; a
        # unit alone takes riders only with crew, asked here without a call)
        for b in perms.values():
            if (
                b.controller == seat
                and b.field >= 0
                and b.field != here
                and (b.stack or cards[b.cid].keywords.crew > 0)
                and can_take_rider(state, b, p)
                and path_onto(state, p, b.field) is not None
            ):
                out.append(_new(Action, (_MOVE, cid, -1, b.field, -1, -1)))
    if can_attack and p.under < 0:
        reach = max_range(profile(state, p))
        dist = geo.distances_from(here)
        # `attackable` wants an enemy (R12.10): never the unit's own controller; the targets
        # in order of their ids, sorted once found
        targets = [
            t
            for t, tp in perms.items()
            if tp.field >= 0
            and tp.controller != seat
            and dist[tp.field] <= reach
            and attackable(state, p, tp)
        ]
        targets.sort()
        out.extend([_new(Action, (_ATTACK, cid, t, -1, -1, -1)) for t in targets])
    card = cards[cid]
    if can_move and can_attack:
        for i, effects in enumerate(card.full_actions):
            out.extend(_with_targets(state, seat, cid, Action(_FULL, cid, index=i), effects))
    if (can_move or can_attack) and p.under < 0:
        out.extend(_artifact_actions(state, p, here, moves, spend, can_move and can_attack))
    out.extend(fast_actions(state, seat))
    return out


def _artifact_actions(
    state: GameState,
    p: Perm,
    here: int,
    moves: dict[int, tuple[int, ...]],
    spend: list[int],
    both: bool,
) -> list[Action]:
    """R15.2, R15.3, R15.6: swap with, carry (`both` actions unused) or equip an artifact next
    to the unit; not an enemy's solid one, nor a building."""
    seat, cid = p.controller, p.cid
    perms, cards, occ = state.perms, state.cards, state.occ
    out: list[Action] = []
    for a in state.config.geometry.adjacent(here):
        if occ[a] < 0:
            continue
        ap = perms.get(occ[a])
        if ap is None:
            continue
        art = cards[ap.cid]
        if not art.type.is_artifact or art.keywords.building:
            continue
        enemy_solid = art.keywords.solid is not None and state.enemies(seat, ap.controller)
        if not enemy_solid:
            if can_swap(state, p, ap):
                out.extend(Action(_SWAP, cid, other=ap.cid, index=i) for i in spend)
            if both:
                out.extend(Action(_CARRY, cid, field=f, other=ap.cid) for f in sorted(moves))
        if art.type.is_equipment and not enemy_solid:
            out.extend(Action(_EQUIP, cid, other=ap.cid, index=i) for i in spend)
    return out
