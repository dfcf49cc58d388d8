"""The state API every agent uses, and nothing else (OpenSpiel's shape): whose decision it is,
the legal actions, apply, terminal, returns, clone, and an observation that hides what a player
cannot see. The rules run in `engine.flow` and the modules named after them.
"""

from __future__ import annotations

from engine import draft, flow
from engine.actions import Action
from engine.board import TYRANT
from engine.legal import current_player, legal_actions
from engine.observation import Observation, observe
from engine.picture import picture
from engine.record import GameRecord
from engine.state import GameConfig, GameState


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
        self._legal = flow.advance(self.state)

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
            raise IllegalAction(
                f"{action.text(self.state.config.board.width)} is not legal "
                f"for seat {current_player(self.state) + 1} now, in\n{self}"
            )
        self.state.action_log.append(action.text())
        flow.apply(self.state, action)
        self._legal = flow.advance(self.state)

    def record(self) -> GameRecord:
        s = self.state
        return GameRecord(
            s.seed,
            len(s.players),
            0,
            s.winners or (),
            s.reason,
            s.round,
            s.guard_stopped,
            s.events,
            s.picks,
            s.snapshots,
            s.action_log,
            [[s.cards[c].name for c in p.store] for p in s.players],
        )


__all__ = ["TYRANT", "Game", "IllegalAction"]
