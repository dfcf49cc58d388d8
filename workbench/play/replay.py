"""Rebuild a game from its seed and action texts, check it against the stored events, and cut
it into one frame per turn for the replay page.

A stored game is only trustworthy if it can be rebuilt: the replay re-applies every action with
`parse_action` and compares the events each step emits with the stored ones, row by row, so a
changed engine or card shows up as the first step where the two part.

Frames and curves are plain data (fields, pieces, seat names, numbers, the text picture), read
off the engine here, so the page (reports/replay_html.py) draws them without the engine.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import cast

import duckdb

from engine.actions import Action, parse_action
from engine.cards import CardType
from engine.events import EVENT_COLUMNS
from engine.game import Game
from engine.permanents import life
from engine.picture import card_code, picture, seat_name
from engine.state import GameConfig, GameState
from engine.vocab import ActionKind
from workbench.analysis.source import AnalysisError, open_db
from workbench.store.stored import StoredRunError, stored_config

EventRow = tuple[object, ...]
"""One event in EVENT_COLUMNS order (seq first)."""
EVENT_HEADER: tuple[str, ...] = tuple(EVENT_COLUMNS)
"""The names of an event row's values, in order (the page's table head)."""
PLAYER = EVENT_COLUMNS.index("player")


def readable(row: EventRow) -> EventRow:
    """The event as a person reads it: its player as the seat's name (p1 for the database's
    seat 0, neutral, tyrant; empty for the game itself, stored as -1)."""
    v = row[PLAYER]
    who = "" if v == -1 else seat_name(v) if isinstance(v, int) else v
    return (*row[:PLAYER], who, *row[PLAYER + 1 :])


class ReplayError(Exception):
    """A game that cannot be loaded for a replay (no such database or game)."""


@dataclass(frozen=True)
class Arrow:
    """A unit's move, carry or attack drawn on a frame, from field to field (x, y); `owner` is
    its controller's seat name (p1, neutral, tyrant)."""

    kind: str
    owner: str
    start: tuple[int, int]
    end: tuple[int, int]


@dataclass(frozen=True)
class Piece:
    """A permanent on top of its field as the page draws it: where, whose (seat name), a unit
    or another permanent, its two-letter code, its life left/full ("" without life), and how
    many permanents lie under it."""

    x: int
    y: int
    owner: str
    unit: bool
    code: str
    life: str
    under: int


@dataclass(frozen=True)
class View:
    """The board at one moment: terrain per field (row by row), deploy zones (x, y, seat name),
    the pieces in card-id order, and the engine's text picture."""

    width: int
    height: int
    terrain: tuple[str, ...]
    zones: tuple[tuple[int, int, str], ...]
    pieces: tuple[Piece, ...]
    picture: str


def view_of(s: GameState) -> View:
    """The plain picture of the board in `s`."""
    board = s.config.board
    pieces = []
    for cid in sorted(s.perms):
        p = s.perms[cid]
        if p.under >= 0 or p.field < 0:
            continue
        x, y = s.xy(p.field)
        full = life(s, p)
        pieces.append(
            Piece(
                x,
                y,
                seat_name(p.controller),
                s.cards[cid].type is CardType.UNIT,
                card_code(s.name(cid)).strip(),
                f"{full - p.damage}/{full}" if full else "",
                len(p.stack),
            )
        )
    return View(
        board.width,
        board.height,
        tuple(f.terrain.value for f in board.fields),
        tuple(
            (i % board.width, i // board.width, seat_name(f.deploy))
            for i, f in enumerate(board.fields)
            if f.deploy is not None
        ),
        tuple(pieces),
        picture(s),
    )


@dataclass(frozen=True)
class Frame:
    """One step of the page: a turn (or the draft), its actions and arrows, the board after
    it, its events."""

    title: str
    turn: int
    view: View
    actions: tuple[str, ...]
    events: tuple[EventRow, ...]
    arrows: tuple[Arrow, ...]


@dataclass
class _Turn:
    """A frame while its turn is being replayed."""

    title: str
    turn: int
    actions: list[str] = field(default_factory=list)
    arrows: list[Arrow] = field(default_factory=list)


@dataclass(frozen=True)
class Curve:
    """One seat's resource and victory points at the end of each of its turns, by round."""

    seat: str
    rounds: tuple[int, ...]
    resource: tuple[int, ...]
    points: tuple[int, ...]


def curves_of(game: Game) -> tuple[Curve, ...]:
    """Every seat's curve from the game's snapshots."""
    record = game.record()
    data = record.snapshots.data
    out = []
    for seat in range(record.players):
        rows = [i for i, p in enumerate(data["player"]) if p == seat]
        # the snapshot columns round, resource and points hold whole numbers
        rounds, resource, points = (
            cast("tuple[int, ...]", tuple(data[c][i] for i in rows))
            for c in ("round", "resource", "points")
        )
        out.append(Curve(seat_name(seat), rounds, resource, points))
    return tuple(out)


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
    """The rebuilt game, its frames and curves, and where it differs from the stored one (None:
    nowhere)."""

    game: Game
    frames: list[Frame]
    curves: tuple[Curve, ...]
    divergence: Divergence | None


def rebuild(
    config: GameConfig, seed: int, actions: Sequence[str], expected: Sequence[EventRow]
) -> Replay:
    """Re-apply `actions` from `seed`, comparing the events with `expected` after each step.

    Stops at the first difference (the frames then end there too).
    """
    game = Game(config, seed)
    s = game.state
    frames: list[Frame] = []
    turn: _Turn | None = None
    divergence = _compare(s, expected, 0, -1, "")
    for step, text in enumerate(actions):
        if divergence is not None:
            break
        if turn is None or turn.turn != s.turn:
            if turn is not None:
                frames.append(_close(turn, frames, s))
            turn = _open(s)
        checked = len(s.events)
        try:
            action = parse_action(text, config.board.width)
        except ValueError as exc:
            divergence = Divergence(step, text, s.round, s.turn, f"unreadable action: {exc}")
            break
        if action not in game.legal_actions():
            divergence = Divergence(step, text, s.round, s.turn, "the action is not legal here")
            break
        turn.actions.append(action.text(config.board.width))
        turn.arrows.extend(_arrows(s, action))
        game.apply(action, check=False)
        divergence = _compare(s, expected, checked, step, text)
    if divergence is None and len(s.events) < len(expected):
        divergence = Divergence(
            len(actions),
            "",
            s.round,
            s.turn,
            f"the stored game has {len(expected) - len(s.events)} more "
            f"event(s) after the last action, from seq {len(s.events)}: "
            f"{_row_text(expected[len(s.events)])}",
        )
    frames.append(_close(turn if turn is not None else _open(s), frames, s))
    return Replay(game, frames, curves_of(game), divergence)


def _compare(
    s: GameState, expected: Sequence[EventRow], start: int, step: int, action: str
) -> Divergence | None:
    """The first new event (from `start`) that differs from the stored one."""
    got = s.events.rows()
    for seq in range(start, len(got)):
        want = tuple(expected[seq]) if seq < len(expected) else None
        if want != got[seq]:
            stored = _row_text(want) if want is not None else "nothing (the stored game ended)"
            return Divergence(
                step,
                action,
                s.round,
                s.turn,
                f"event {seq}: stored {stored}; replayed {_row_text(got[seq])}",
            )
    return None


def _row_text(row: EventRow) -> str:
    return ", ".join(
        f"{n}={v!r}" for n, v in zip(EVENT_COLUMNS, readable(row), strict=True) if v not in ("", -1)
    )


def _open(s: GameState) -> _Turn:
    title = "draft" if s.phase == "draft" else f"round {s.round}, turn {s.turn}: p{s.active + 1}"
    return _Turn(title, s.turn)


def _close(turn: _Turn, frames: Sequence[Frame], s: GameState) -> Frame:
    """The turn's frame: the board as it is now and the events since the frames before."""
    start = sum(len(f.events) for f in frames)
    return Frame(
        turn.title,
        turn.turn,
        view_of(s),
        tuple(turn.actions),
        tuple(s.events.rows()[start:]),
        tuple(turn.arrows),
    )


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
        return [Arrow(a.kind, seat_name(p.controller), start, s.xy(s.perm_field(target)))]
    return [Arrow(a.kind, seat_name(p.controller), start, s.xy(a.field))]


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
            [game_id],
        ).fetchone()
        if row is None:
            known = [
                str(r[0])
                for r in con.execute(
                    "SELECT game_id FROM games ORDER BY game_id LIMIT 5"
                ).fetchall()
            ]
            raise ReplayError(
                f"no game {game_id} in {db}; first game ids: {', '.join(known) or 'none'}"
            )
        run_id, seed, board, sets, players, params, winners, reason, rounds = row
        actions = [
            r[0]
            for r in con.execute(
                "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", [game_id]
            ).fetchall()
        ]
        events = [
            tuple(r)
            for r in con.execute(
                f"SELECT {', '.join(EVENT_COLUMNS)} FROM events WHERE game_id = ? ORDER BY seq",
                [game_id],
            ).fetchall()
        ]
    finally:
        con.close()
    return StoredGame(
        game_id,
        run_id,
        seed,
        board,
        tuple(sets.split(",")),
        players,
        json.loads(params or "{}"),
        tuple(winners or ()),
        reason,
        rounds,
        actions,
        events,
    )


def config_of(db: Path, stored: StoredGame) -> GameConfig:
    """The game's setup from the database alone: the run's cards and board as they were, so a
    later edit (or loss) of the spreadsheets does not change what is replayed."""
    names = {f.name for f in fields(GameConfig) if f.init} - {
        "pool",
        "catalog",
        "board",
        "players",
        "log_events",
    }
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
        replay.divergence = Divergence(
            len(stored.actions),
            "",
            s.round,
            s.turn,
            f"result {result} differs from the stored "
            f"{(stored.winners, stored.reason, stored.rounds)}",
        )
    return stored, replay, notes
