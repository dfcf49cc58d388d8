"""Rebuild a game from its seed and action texts, check it against the stored events, and cut
it into one frame per turn for the replay page.

A stored game is only trustworthy if it can be rebuilt: the replay re-applies every action with
`parse_action` and compares the events each step emits with the stored ones, row by row, so a
changed engine or card shows up as the first step where the two part.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path

import duckdb

from engine.actions import Action, parse_action
from engine.events import EVENT_COLUMNS
from engine.game import Game
from engine.picture import seat_name
from engine.state import GameConfig, GameState
from engine.vocab import ActionKind
from workbench.analysis.source import AnalysisError, open_db
from workbench.stored import StoredRunError, stored_config

EventRow = tuple[object, ...]
"""One event in EVENT_COLUMNS order (seq first)."""
PLAYER = EVENT_COLUMNS.index("player")


def readable(row: EventRow) -> EventRow:
    """The event as a person reads it: its player as the seat's name (p1 for the database's
    seat 0, neutral, tyrant; empty for the game itself, stored as -1)."""
    v = row[PLAYER]
    who = "" if v == -1 else seat_name(v) if isinstance(v, int) else v
    return (*row[:PLAYER], who, *row[PLAYER + 1:])


class ReplayError(Exception):
    """A game that cannot be loaded for a replay (no such database or game)."""


@dataclass(frozen=True)
class Arrow:
    """A unit's move, carry or attack drawn on a frame, from field to field (x, y)."""

    kind: str
    seat: int
    start: tuple[int, int]
    end: tuple[int, int]


@dataclass
class Frame:
    """One step of the page: a turn (or the draft), the board after it, its events."""

    title: str
    turn: int
    state: GameState
    actions: list[str] = field(default_factory=list)
    events: list[EventRow] = field(default_factory=list)
    arrows: list[Arrow] = field(default_factory=list)


@dataclass(frozen=True)
class Divergence:
    """The first step where the rebuilt game leaves the stored one."""

    step: int
    """0-based index of the action being applied; -1 is the deal before the first action."""
    action: str
    round: int
    turn: int
    reason: str

    def __str__(self) -> str:
        if self.step < 0:
            where = "the deal before the first action"
        elif self.action:
            where = f"step {self.step} (action `{self.action}`)"
        else:
            where = f"the end, after {self.step} actions"
        return f"replay differs at {where}, round {self.round}, turn {self.turn}: {self.reason}"


@dataclass
class Replay:
    """The rebuilt game, its frames, and where it differs from the stored one (None: nowhere)."""

    game: Game
    frames: list[Frame]
    divergence: Divergence | None


def rebuild(config: GameConfig, seed: int, actions: Sequence[str],
            expected: Sequence[EventRow]) -> Replay:
    """Re-apply `actions` from `seed`, comparing the events with `expected` after each step.

    Stops at the first difference (the frames then end there too).
    """
    game = Game(config, seed)
    s = game.state
    frames: list[Frame] = []
    divergence = _compare(s, expected, 0, -1, "")
    for step, text in enumerate(actions):
        if divergence is not None:
            break
        if not frames or frames[-1].turn != s.turn:
            _close(frames, s)
            frames.append(_open(s))
        checked = len(s.events)
        try:
            action = parse_action(text, config.board.width)
        except ValueError as exc:
            divergence = Divergence(step, text, s.round, s.turn, f"unreadable action: {exc}")
            break
        if action not in game.legal_actions():
            divergence = Divergence(step, text, s.round, s.turn, "the action is not legal here")
            break
        frames[-1].actions.append(action.text(config.board.width))
        frames[-1].arrows.extend(_arrows(s, action))
        game.apply(action, check=False)
        divergence = _compare(s, expected, checked, step, text)
    if divergence is None and len(s.events) < len(expected):
        divergence = Divergence(len(actions), "", s.round, s.turn,
                                f"the stored game has {len(expected) - len(s.events)} more "
                                f"event(s) after the last action, from seq {len(s.events)}: "
                                f"{_row_text(expected[len(s.events)])}")
    if not frames:
        frames.append(_open(s))
    _close(frames, s)
    return Replay(game, frames, divergence)


def _compare(s: GameState, expected: Sequence[EventRow], start: int, step: int,
             action: str) -> Divergence | None:
    """The first new event (from `start`) that differs from the stored one."""
    got = s.events.rows()
    for seq in range(start, len(got)):
        want = tuple(expected[seq]) if seq < len(expected) else None
        if want != got[seq]:
            stored = _row_text(want) if want is not None else "nothing (the stored game ended)"
            return Divergence(step, action, s.round, s.turn,
                              f"event {seq}: stored {stored}; replayed {_row_text(got[seq])}")
    return None


def _row_text(row: EventRow) -> str:
    return ", ".join(f"{n}={v!r}" for n, v in zip(EVENT_COLUMNS, readable(row), strict=True)
                     if v not in ("", -1))


def _open(s: GameState) -> Frame:
    title = "draft" if s.phase == "draft" else f"round {s.round}, turn {s.turn}: p{s.active + 1}"
    return Frame(title, s.turn, s)


def _close(frames: list[Frame], s: GameState) -> None:
    """The last frame takes the state as it is now and the events since the frame before."""
    if not frames:
        return
    frame = frames[-1]
    start = sum(len(f.events) for f in frames[:-1])
    frame.events = s.events.rows()[start:]
    frame.state = s.clone()


def _arrows(s: GameState, a: Action) -> list[Arrow]:
    """Where a unit action goes, drawn from where the unit stands when it is announced."""
    p = s.perms.get(a.card)
    if p is None or a.kind not in (ActionKind.MOVE, ActionKind.CARRY, ActionKind.ATTACK):
        return []
    start = s.xy(s.perm_field(p))
    if a.kind == ActionKind.ATTACK:
        target = s.perms.get(a.target)
        if target is None:
            return []
        return [Arrow(a.kind, p.controller, start, s.xy(s.perm_field(target)))]
    return [Arrow(a.kind, p.controller, start, s.xy(a.field))]


# --- from the database ---------------------------------------------------------------------

@dataclass(frozen=True)
class StoredGame:
    """What the store keeps of one game and its run, enough to rebuild it."""

    game_id: int
    run_id: int
    seed: int
    board: str
    """The board's proper name (as in `games.board` and `run_boards.board`)."""
    sets: tuple[str, ...]
    players: int
    params: dict[str, int | bool]
    winners: tuple[int, ...]
    reason: str
    rounds: int
    actions: list[str]
    events: list[EventRow]


def load_game(db: Path, game_id: int) -> StoredGame:
    """Read one game; ReplayError with the known ids when it is not there."""
    con = _connect(db)
    try:
        row = con.execute(
            "SELECT g.run_id, g.seed, g.board, r.sets, g.players, r.params, g.winners, "
            "g.reason, g.rounds FROM games g JOIN runs r USING (run_id) WHERE g.game_id = ?",
            [game_id]).fetchone()
        if row is None:
            known = [str(r[0]) for r in con.execute(
                "SELECT game_id FROM games ORDER BY game_id LIMIT 5").fetchall()]
            raise ReplayError(f"no game {game_id} in {db}; first game ids: "
                              f"{', '.join(known) or 'none'}")
        run_id, seed, board, sets, players, params, winners, reason, rounds = row
        actions = [r[0] for r in con.execute(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", [game_id]).fetchall()]
        events = [tuple(r) for r in con.execute(
            f"SELECT {', '.join(EVENT_COLUMNS)} FROM events WHERE game_id = ? ORDER BY seq",
            [game_id]).fetchall()]
    finally:
        con.close()
    return StoredGame(game_id, run_id, seed, board, tuple(sets.split(",")), players,
                      json.loads(params or "{}"), tuple(winners or ()), reason, rounds, actions,
                      events)


def config_of(db: Path, stored: StoredGame) -> GameConfig:
    """The game's setup from the database alone: the run's cards and board as they were, so a
    later edit (or loss) of the spreadsheets does not change what is replayed."""
    names = {f.name for f in fields(GameConfig) if f.init} - {"pool", "catalog", "board",
                                                               "players", "log_events"}
    params = {k: v for k, v in stored.params.items() if k in names}
    with _connect(db) as con:
        try:
            return stored_config(con, stored.run_id, stored.board, log_events=True, **params)
        except StoredRunError as err:
            raise ReplayError(str(err)) from err


def _connect(db: Path) -> duckdb.DuckDBPyConnection:
    """Open the store read-only as `report` does (the same messages, e.g. for a file a running
    simulation holds)."""
    try:
        return open_db(db)
    except AnalysisError as err:
        raise ReplayError(str(err)) from err


def replay_stored(db: Path, game_id: int) -> tuple[StoredGame, Replay, list[str]]:
    """Load, rebuild and check one stored game; notes say what could not be checked."""
    stored = load_game(db, game_id)
    notes: list[str] = []
    replay = rebuild(config_of(db, stored), stored.seed, stored.actions, stored.events)
    if not stored.events:
        notes.append("the game was stored without events; only its result is compared")
    s = replay.game.state
    result = (tuple(s.winners or ()), s.reason, s.round)
    if replay.divergence is None and result != (stored.winners, stored.reason, stored.rounds):
        replay.divergence = Divergence(len(stored.actions), "", s.round, s.turn,
                                       f"result {result} differs from the stored "
                                       f"{(stored.winners, stored.reason, stored.rounds)}")
    return stored, replay, notes
