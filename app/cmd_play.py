"""`workbench play`: take a seat (draft and match) against AI agents in the terminal.

The finished game is stored as a run of one game (agent `human` at the person's seat), so
`workbench replay` and the analyses see it like any simulated game. An abandoned game leaves
nothing behind.
"""

from __future__ import annotations

import argparse
import io
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.board import Board
from engine.picture import seat_name
from engine.play import Agent, derive_seed, play_game
from engine.record import GameRecord
from workbench.content.printable import PrintableStream
from workbench.content.setup import DEFAULT_BOARD, DEFAULT_SETS, load_setup
from workbench.content.tables import ValidationError
from workbench.play.agents import make_agent
from workbench.play.human import Abandoned, HumanSeat, Lines, Sink
from workbench.play.jobs import Prepared, create_prepared_run, prepare
from workbench.store import (
    MAX_SEED,
    PlayedGame,
    RunSpec,
    StoreError,
    batch_tables,
    check_store,
    finish_run,
    open_store,
    write_batch,
)
from workbench.store.keys import GAME_ID_BASE

DEFAULT_DB = "runs.duckdb"


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play a game yourself against AI agents",
        description="Take one seat in a game (the draft, then the match) against AI agents. "
        "Every decision lists the legal actions; answer with a number, the action's text or "
        "its name. The finished game is stored in the database as a run of one game.",
    )
    parser.add_argument(
        "--sets",
        default=",".join(DEFAULT_SETS),
        help=f"card sets, comma-separated (default: {','.join(DEFAULT_SETS)})",
    )
    parser.add_argument(
        "--board", default=DEFAULT_BOARD, help=f"the board (default: {DEFAULT_BOARD})"
    )
    parser.add_argument("--seat", type=int, default=1, help="your seat, 1-based (default: 1)")
    parser.add_argument(
        "--agents",
        default="random",
        help="agent spec for the other seats, or one per other seat, "
        "comma-separated (default: random)",
    )
    parser.add_argument(
        "--seed", type=int, help=f"run seed, 0 to {MAX_SEED} (default: a random one, printed)"
    )
    parser.add_argument(
        "--db",
        type=Path,
        default=Path(DEFAULT_DB),
        help=f"DuckDB file to store the game in (default: {DEFAULT_DB})",
    )
    parser.add_argument("--label", default="", help="a note stored with the run")


def _other_seats(agents: str, players: int) -> list[str]:
    """The agent specs of the seats other than the person's: one for all, or one each."""
    others = [a.strip() for a in agents.split(",")]
    if len(others) == 1:
        others *= players - 1
    if len(others) != players - 1:
        raise ValueError(f"--agents lists {len(others)} specs for {players - 1} other seats")
    return others


@dataclass(frozen=True)
class Seating:
    """A checked game, ready to play: the board, the person's seat (0-based), the agents of the
    other seats in seat order, and the run it is stored as."""

    board: Board
    seat: int
    bots: list[Agent]
    spec: RunSpec
    prepared: Prepared


def _seating(args: argparse.Namespace, sets: tuple[str, ...], seed: int) -> Seating:
    """Check every argument before anything is created; StoreError, LookupError, ValueError or
    ValidationError names the first bad one."""
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"--seed must be 0 to {MAX_SEED}, not {seed}")
    check_store(args.db)
    board = load_setup(sets, args.board).board
    seat = args.seat - 1
    if not 0 <= seat < board.players:
        raise ValueError(f"--seat {args.seat}: board {board.name!r} has seats 1..{board.players}")
    others = _other_seats(args.agents, board.players)
    bots = [make_agent(a) for a in others]
    specs = (*others[:seat], "human", *others[seat:])
    spec = RunSpec(sets, (args.board,), 1, board.players, specs, specs, seed, args.label)
    return Seating(board, seat, bots, spec, prepare(spec))


def run(args: argparse.Namespace, inp: Lines | None = None, out: Sink | None = None) -> int:
    """Play one game with a person at `args.seat`; 0 stored, 1 abandoned, 2 bad arguments.
    Nothing is created before the arguments are checked, and nothing for an abandoned game.

    `inp` and `out` default to the terminal (read at call time, so tests may replace them).
    Input that is not UTF-8 reads as U+FFFD, never as an error; control characters in what is
    shown (card names) are printed escaped.
    """
    inp = inp or sys.stdin
    if isinstance(inp, io.TextIOWrapper):
        inp.reconfigure(errors="replace")
    out = PrintableStream(out or sys.stdout)
    sets = tuple(s.strip() for s in args.sets.split(",") if s.strip())
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    try:
        seating = _seating(args, sets, seed)
    except (StoreError, LookupError, ValueError, ValidationError) as exc:
        out.write(f"cannot start the game: {exc}\n")
        return 2
    config = seating.prepared.configs[args.board]
    human = HumanSeat(seating.seat, inp, out)
    agents: list[Agent] = [*seating.bots[: seating.seat], human, *seating.bots[seating.seat :]]
    out.write(f"{seating.board.name}: you are {seat_name(seating.seat)}; seed {seed}\n")
    try:
        record = play_game(config, derive_seed(seed, 0), agents)
    except Abandoned as exc:
        out.write(f"game abandoned ({exc}); nothing stored\n")
        return 1
    human.report(record.events.rows())
    won = ", ".join(seat_name(s) for s in record.winners) or "nobody (a draw)"
    out.write(f"game over: {won} won ({record.reason}) after {record.rounds} rounds\n")
    run_id = _store(args.db, seating, record)
    game_id = run_id * GAME_ID_BASE
    out.write(
        f"stored as run {run_id}, game {game_id} in {args.db}; see it with: "
        f"workbench replay --db {args.db} --game {game_id} --out replays\n"
    )
    return 0


def _store(db: Path, s: Seating, record: GameRecord) -> int:
    """Store the finished game as a run of one game; the run's id."""
    con = open_store(db)
    try:
        run_id = create_prepared_run(con, s.spec, s.prepared, "human", 1)
        write_batch(
            con,
            batch_tables(
                run_id,
                [PlayedGame(0, s.board.name, 0, s.spec.agents, s.spec.drafters, record)],
            ),
        )
        finish_run(con, run_id)
    finally:
        con.close()
    return run_id
