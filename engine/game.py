"""The state API every agent uses, and nothing else (OpenSpiel's shape): whose decision it is,
the legal actions, apply, terminal, returns, clone, and an observation that hides what a player
cannot see.
"""

from __future__ import annotations

from dataclasses import replace

from engine import actions as A
from engine import draft, flow
from engine.actions import Action
from engine.behaviours import path_to
from engine.board import TYRANT
from engine.legal import current_player, legal_actions
from engine.observation import Observation, observe
from engine.picture import picture
from engine.record import GameRecord
from engine.effects import free_action_of
from engine.permanents import destroy
from engine.state import (Decision, DiscardChoice, GameConfig, GameState, Perm, PlaceChoice,
                          StackItem)
from engine.victory import check_victory
from engine.vocab import ActionKind, EventKind, Phase, StackKind, UnitVerb
from engine.zones import discard_from_hand, pay


class IllegalAction(ValueError):
    """An action that is not among the legal actions of the current decision."""


class Game:
    """One game from setup to result. `Game(config, seed)` deals the draft at once."""

    def __init__(self, config: GameConfig, seed: int, *, _state: GameState | None = None):
        self._legal: list[Action] | None = None
        if _state is not None:
            self.state = _state
            return
        self.state = GameState(config, seed)
        draft.deal_packs(self.state)
        self._advance()

    # --- the API -----------------------------------------------------------------------------

    def current_player(self) -> int:
        return current_player(self.state)

    def legal_actions(self) -> list[Action]:
        """The legal actions of the current decision (computed once per decision)."""
        if self._legal is None:
            self._legal = legal_actions(self.state)
        return list(self._legal)

    def is_terminal(self) -> bool:
        return self.state.winners is not None

    def returns(self) -> list[float]:
        """+1 for a winner, -1 for a loser, 0 for everyone in a draw."""
        w = self.state.winners
        if not w:
            return [0.0] * len(self.state.players)
        return [1.0 if s in w else -1.0 for s in range(len(self.state.players))]

    def clone(self) -> Game:
        return Game(self.state.config, self.state.seed, _state=self.state.clone())

    def observation(self, player: int) -> Observation:
        return observe(self.state, player)

    def __str__(self) -> str:
        """The text picture of the state (board, players, stack), as `print(game)` shows it."""
        return picture(self.state)

    def apply(self, action: Action, *, check: bool = True) -> None:
        """Apply the current player's action, then every automatic step after it."""
        if check and action not in self.legal_actions():
            raise IllegalAction(f"{action.text(self.state.config.board.width)} is not legal "
                                f"for seat {current_player(self.state) + 1} now, in\n{self}")
        self.state.action_log.append(action.text())
        self._legal = None
        self._do(action)
        self._advance()

    def record(self) -> GameRecord:
        s = self.state
        return GameRecord(s.seed, len(s.players), 0, s.winners or (), s.reason, s.round,
                          s.guard_stopped, s.events, s.picks, s.snapshots, s.action_log,
                          [[s.cards[c].name for c in p.store] for p in s.players])

    # --- inside ------------------------------------------------------------------------------

    def _advance(self) -> None:
        """Run automatic steps; take forced single choices (they are not logged)."""
        s = self.state
        limit = s.config.game_guard
        while s.winners is None:
            s.steps += 1
            if s.steps > limit:
                flow.stop_at_game_guard(s)
                return
            while s.pending and _stale(s, s.pending[0]):
                s.pending.pop(0)
            pd = s.pending[0] if s.pending else None
            if isinstance(pd, PlaceChoice) and all(s.occ[f] >= 0 for f in pd.fields):
                # R11.6: no available field left for a dropped permanent: it is destroyed
                s.pending.pop(0)
                destroy(s, s.perms[pd.card], "no room to drop", pd.player, pd.origin)
                flow.after_resolution(s)
                continue
            if s.behaviour is not None and not (s.pending or s.priority or s.stack):
                flow.continue_behaviour(s, s.behaviour)
                continue
            if s.pending or s.priority or s.phase in _DECIDING or (
                    s.phase == Phase.UPKEEP_DUE and flow.upkeep_owed(s)):
                if s.phase == Phase.DRAFT or s.pending:
                    options = legal_actions(s)
                elif s.priority:
                    options = legal_actions(s)
                    if len(options) == 1:
                        # only passing: the window does not need the seat (R21.6)
                        s.priority.pop(0)
                        if not s.priority and s.stack:
                            flow.resolve_top(s)
                        continue
                else:
                    if s.stack:
                        flow.resolve_top(s)
                        continue
                    options = legal_actions(s)
                if len(options) > 1:
                    self._legal = options
                    return
                if not options:
                    raise RuntimeError(f"no legal action in phase {s.phase}")
                self._do(options[0])
                continue
            if s.stack:
                flow.resolve_top(s)
                continue
            STEPS[s.phase](s)

    def _do(self, a: Action) -> None:
        s = self.state
        if s.phase != Phase.DRAFT and flow.guard(s):
            return
        k = a.kind
        if k == ActionKind.PICK:
            draft.pick(s, a.card)
        elif s.pending and k in (ActionKind.DISCARD, ActionKind.PLACE, ActionKind.TARGET):
            self._answer_pending(a)
        elif k == ActionKind.PAY:
            flow.pay_upkeep(s, a.card)
        elif k == ActionKind.REFUSE:
            flow.refuse_upkeep(s)
        elif k == ActionKind.PASS:
            if s.priority:
                s.priority.pop(0)
                if not s.priority and s.stack:
                    flow.resolve_top(s)
            elif s.phase == Phase.ACTION:
                flow.end_action_phase(s)
            elif s.phase == Phase.BUY:
                flow.set_phase(s, Phase.DISCARD)
        elif k == ActionKind.PLAY:
            self._play(a)
        elif k == ActionKind.FREE:
            self._free(a)
        elif k == ActionKind.CONVERT:
            seat = current_player(s)
            s.pending.append(DiscardChoice(seat, 2))
            flow.announce(s, StackItem(StackKind.CONVERT, seat, -1))
        elif k == ActionKind.ACTIVATE:
            flow.activate(s, a.card)
        elif k == ActionKind.TAP:
            flow.finish_unit(s, s.perms[a.card])
            s.activated = -1
        elif k == ActionKind.UNPARALYSE:
            p = s.perms[a.card]
            _spend(p, a.index)
            p.paralysis -= 1
            s.emit(EventKind.MARKER, p.controller, p.cid, amount=-1, detail="paralysis")
            self._after_unit_action(p.cid)
        elif k in (ActionKind.MOVE, ActionKind.ATTACK, ActionKind.FULL, ActionKind.CARRY,
                   ActionKind.SWAP, ActionKind.EQUIP):
            self._unit_action(a)
        elif k == ActionKind.BUY:
            pl = s.players[s.active]
            pay(s, s.active, s.cards[a.card].buy or 0, "buy")
            pl.store.remove(a.card)
            pl.discard.append(a.card)
            pl.bought = True
            s.emit(EventKind.BUY, s.active, a.card, amount=s.cards[a.card].buy or 0)
            flow.set_phase(s, Phase.DISCARD)
        elif k == ActionKind.DISCARD:
            discard_from_hand(s, s.active, a.card, "end of turn")
        elif k == ActionKind.END:
            flow.end_turn(s)
        else:
            raise IllegalAction(f"unknown action kind {k!r}")

    def _answer_pending(self, a: Action) -> None:
        s = self.state
        pd = s.pending.pop(0)
        if isinstance(pd, DiscardChoice):
            discard_from_hand(s, pd.player, a.card, "effect")
            if pd.count > 1:
                s.pending.insert(0, replace(pd, count=pd.count - 1))
        elif isinstance(pd, PlaceChoice):
            flow.place_dropped(s, pd.card, a.field)
        else:
            flow.announce(s, StackItem(StackKind.TRIGGER, pd.player, pd.source,
                                       -1 if pd.trigger is None else pd.trigger, a.target))

    def _play(self, a: Action) -> None:
        """R6.2, R6.4: pay the play cost, the card leaves the hand onto the stack."""
        s = self.state
        seat = current_player(s)
        card = s.cards[a.card]
        pay(s, seat, card.play or 0, "play")
        s.players[seat].hand.remove(a.card)
        s.emit(EventKind.PLAY, seat, a.card, A.permanent_target(a.target), a.field,
               amount=card.play or 0)
        flow.announce(s, StackItem(StackKind.CARD, seat, a.card, target=a.target, field=a.field))

    def _free(self, a: Action) -> None:
        """R6.7: pay the cost (resource, discards, sacrifice), then the action is announced."""
        s = self.state
        seat = current_player(s)
        where = s.perm_field(s.perms[a.card])
        fa = free_action_of(s, a.card, a.index, where)
        pay(s, seat, fa.cost.resource, "free action")
        item = StackItem(StackKind.FREE, seat, a.card, a.index, a.target, where)
        if fa.cost.discard:
            s.pending.append(DiscardChoice(seat, fa.cost.discard, a.card))
        if fa.cost.sacrifice and a.card in s.perms:
            destroy(s, s.perms[a.card], "sacrificed", seat)
            check_victory(s)  # R19: a VIP or building paid as a cost is lost at once
            if s.winners is not None:
                return
        flow.announce(s, item)

    def _unit_action(self, a: Action) -> None:
        """R12.4: move and attack use their action; a full action (carry too) uses both;
        swapping and equipping use the one the player chose (R15.3, R15.6)."""
        s = self.state
        p = s.perms[a.card]
        path: tuple[int, ...] = ()
        if a.kind in (ActionKind.MOVE, ActionKind.CARRY):
            path = path_to(s, p, a.field) or (a.field,)
        if a.kind == ActionKind.MOVE:
            p.used_move = True
        elif a.kind == ActionKind.ATTACK:
            p.used_attack = True
        elif a.kind in (ActionKind.FULL, ActionKind.CARRY):
            p.used_move = p.used_attack = True
        else:
            _spend(p, a.index)
        flow.announce(s, StackItem(StackKind.UNIT, p.controller, p.cid, a.index, a.target, a.field,
                                   UnitVerb(a.kind), path, a.other, s.perm_field(p)))
        self._after_unit_action(p.cid)

    def _after_unit_action(self, cid: int) -> None:
        p = self.state.perms.get(cid)
        if p is not None and p.used_move and p.used_attack:
            flow.finish_unit(self.state, p)
            self.state.activated = -1


def _spend(p: Perm, which: int) -> None:
    """Spend the action a swap, an equip or removing paralysis names (R13.1, R15.3, R15.6)."""
    if which == A.SPEND_ATTACK:
        p.used_attack = True
    else:
        p.used_move = True


def _stale(s: GameState, pd: Decision) -> bool:
    """A choice about a permanent that has since left the board is void, and so is a discard
    from an empty hand."""
    if isinstance(pd, DiscardChoice):
        return not s.players[pd.player].hand
    return isinstance(pd, PlaceChoice) and pd.card not in s.perms


_DECIDING = (Phase.DRAFT, Phase.ACTION, Phase.BUY, Phase.DISCARD)
"""The phases in which the current player has a decision, stack or not."""

STEPS = {
    Phase.START: flow.start_turn,
    Phase.UPKEEP: flow.upkeep,
    Phase.UPKEEP_PAY: flow.queue_upkeep,
    Phase.UPKEEP_DUE: flow.end_upkeep,
}

__all__ = ["Game", "IllegalAction", "TYRANT"]
