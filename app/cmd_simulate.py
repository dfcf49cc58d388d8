"""`workbench simulate`: play a run of drafts and matches into a DuckDB store, or resume one.

Every argument is checked (sets, boards, agents, seats, the database) before the first game,
so a bad command never leaves a run behind or touches an existing database.
"""

from __future__ import annotations

import argparse
import errno
import importlib.util
import os
from pathlib import Path
from typing import Any

import duckdb
from rich.console import Console

from app.consoles import consoles
from app.errors import UsageError, run_command
from app.workers import add_workers_option
from workbench.content.setup import DEFAULT_BOARD, DEFAULT_SETS
from workbench.play.agents import check_spec, make_agent
from workbench.play.jobs import Job, Prepared, create_prepared_run, prepare
from workbench.play.pool import WorkerPool
from workbench.play.runner import BACKENDS, execute, summary
from workbench.play.shards import Cluster
from workbench.store import (
    MAX_GAMES,
    MAX_SEED,
    RunSpec,
    StoreError,
    board_hashes,
    engine_version,
    failed_games,
    load_run,
    missing_games,
    open_store,
    set_execution,
)

DEFAULT_DB = "runs.duckdb"
DEFAULT_GAMES = 1000
DESIGN_GAMES = 6000
"""The default games of a run of the randomised buying design: at 6,000 games a card's effect
has a standard error of about 2 points (kings-crossing, two seats), so a report finds a card
15 points beyond a +-5 band nearly always and the cards it names in one run are named again in
another with the same content (about 5% flip; BENCHMARKS.md, "Verdicts by randomised
buying"); at 1,000 games it misses a card 20 points off one time in four."""
DEFAULT_AGENT = "heuristic"
"""The demo's agent (workbench demo): a fresh `simulate` plays as the demo does."""
Opened = tuple[duckdb.DuckDBPyConnection, int, RunSpec, Prepared, WorkerPool | None]
"""A run ready to play: its open store, id, spec and prepared setup, and the workers started
for it (a new run's; a resume starts them when it plays)."""
RUN_ARGS = ("sets", "board", "games", "players", "agents", "drafters", "seed", "label", "design")
DESIGNS = {"own": None, "causal": "factorial"}
"""--design: the agents' own buying, or the randomised buying design (engine/agents/factorial.py),
the agent every seat gets: each store card forced or banned by a coin, so that the report can
estimate every card's causal effect from the run (workbench/analysis/causal.py)."""
DESIGN_HELP = (
    "causal: every seat buys by the randomised design (each card of its store forced, bought "
    "and saved for, or banned, by a coin from the game's seed; the arms go to table "
    "assignments), the rest of play the heuristic's; `workbench report` estimates every "
    "card's causal effect from such a run (default: own, the agents' own buying)"
)
"""Arguments that define a run; a resume takes them from the database instead."""


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="simulate drafts and matches into DuckDB",
        description="Play N games (draft, then match) of the chosen sets on the chosen board(s) "
        "and store every event, pick and per-turn snapshot in a DuckDB file (docs/schema.md). "
        "Game i is seeded from (seed, i): the content is the same for any workers or backend. "
        "An interrupted run is completed with --db PATH --resume RUN.",
    )
    csv = "comma-separated"
    parser.add_argument("--sets", help=f"card sets, {csv} (default: {','.join(DEFAULT_SETS)})")
    parser.add_argument(
        "--board",
        help=f"board, or several {csv} to compare them; games are "
        f"split evenly (default: {DEFAULT_BOARD})",
    )
    parser.add_argument(
        "--games",
        type=int,
        help=f"games in the run, 1 to {MAX_GAMES} (default: {DEFAULT_GAMES}; "
        f"{DESIGN_GAMES} with --design causal, what its verdicts need)",
    )
    parser.add_argument("--players", type=int, help="seats per game (default: the board's)")
    parser.add_argument(
        "--agents",
        help=f"agent spec for every seat, or one per seat, {csv}; "
        "parameters as name:key=value+key=value (default: "
        f"{DEFAULT_AGENT}, as in the demo); seats rotate from game to game",
    )
    parser.add_argument("--drafters", help="drafter specs like --agents (default: the agents)")
    parser.add_argument(
        "--design",
        choices=sorted(DESIGNS),
        help=DESIGN_HELP,
    )
    parser.add_argument("--seed", type=int, help=f"run seed, 0 to {MAX_SEED} (default: 1)")
    add_workers_option(parser, "local processes or Ray workers")
    parser.add_argument(
        "--backend",
        choices=sorted(BACKENDS),
        default="local",
        help="local processes, or Ray workers writing Parquet shards that this "
        "process ingests when the games are played (docs/scale.md)",
    )
    parser.add_argument(
        "--address",
        help="with --backend ray: the cluster's address (default: RAY_ADDRESS, else a local Ray)",
    )
    parser.add_argument(
        "--shards",
        help="with --backend ray: a folder every node and this "
        "machine share for the shards (default: beside --db, DB.shards)",
    )
    parser.add_argument("--db", default=DEFAULT_DB, help=f"DuckDB file (default: {DEFAULT_DB})")
    parser.add_argument("--label", help="a note stored with the run")
    parser.add_argument(
        "--resume", type=int, metavar="RUN", help="complete the unfinished run RUN of --db"
    )


def _names(text: str | None, default: tuple[str, ...]) -> tuple[str, ...]:
    if text is None:
        return default
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    if not names:
        raise UsageError(f"empty list {text!r}")
    return names


def _per_seat(what: str, specs: tuple[str, ...], players: int) -> tuple[str, ...]:
    if len(specs) == 1:
        return specs * players
    if len(specs) != players:
        raise UsageError(
            f"--{what} lists {len(specs)} specs for {players} seats; give one for "
            "every seat or one for all"
        )
    return specs


def new_spec(args: argparse.Namespace) -> tuple[RunSpec, Prepared]:
    """The run the arguments describe, with its setups loaded (all checks happen here)."""
    design = DESIGNS[getattr(args, "design", None) or "own"]
    games = args.games if args.games is not None else DESIGN_GAMES if design else DEFAULT_GAMES
    if games < 1:
        raise UsageError(f"--games must be at least 1, not {games}")
    if games > MAX_GAMES:
        raise UsageError(
            f"--games must be 1 to {MAX_GAMES}, not {games}; split a larger study into several runs"
        )
    seed = 1 if args.seed is None else args.seed
    if not 0 <= seed <= MAX_SEED:
        raise UsageError(f"--seed must be 0 to {MAX_SEED}, not {seed}")
    sets = _names(args.sets, DEFAULT_SETS)
    boards = _names(args.board, (DEFAULT_BOARD,))
    if len(set(boards)) != len(boards):
        raise UsageError(f"--board names a board twice: {args.board}")
    if design is not None and args.agents is not None:
        raise UsageError(f"--design causal plays the {design} agent in every seat; drop --agents")
    agents = _names(args.agents, (design or DEFAULT_AGENT,))
    drafters = _names(args.drafters, agents)
    for name in {*agents, *drafters}:
        check_spec(name)  # a typo costs no games and writes nothing
    players = args.players
    if players is None:
        probe = RunSpec(sets, boards[:1], 1, 0, agents, drafters, 0)
        players = prepare(probe).configs[boards[0]].players
    elif players < 1:
        raise UsageError(f"--players must be at least 1, not {players}")
    spec = RunSpec(
        sets,
        boards,
        games,
        players,
        _per_seat("agents", agents, players),
        _per_seat("drafters", drafters, players),
        seed,
        args.label or "",
    )
    prepared = prepare(spec)
    for name in {*spec.agents, *spec.drafters}:
        make_agent(name)
    return spec, prepared


def run(args: argparse.Namespace) -> int:
    console, err = consoles()
    return run_command(
        "simulate", err, lambda: _open(args), lambda opened: _play(args, *opened, console, err)
    )


def _open(args: argparse.Namespace) -> tuple[Cluster | None, Opened]:
    """Everything checked before the first game: the cluster, then the run to play (a new one
    or the one --resume names)."""
    cluster = _cluster(args)
    return cluster, _resume(args) if args.resume is not None else _start(args)


def _play(
    args: argparse.Namespace,
    cluster: Cluster | None,
    opened: Opened,
    console: Console,
    err: Console,
) -> int:
    """Play the run's missing games and sum it up; 1 when games failed or the store stopped
    the run, 130 when interrupted (the complete games are kept either way)."""
    con, run_id, spec, prepared, pool = opened
    try:
        for warning in prepared.warnings:  # as `workbench validate` prints them
            err.print(f"warning: {warning}", markup=False, highlight=False)
        todo = missing_games(con, run_id, spec.games)
        if todo or load_run(con, run_id)[1] != "finished":  # killed after its last game
            set_execution(con, run_id, args.backend, args.workers)
            executor = cluster or pool or WorkerPool(args.workers, once=True)
            execute(con, Job(run_id, spec, prepared.configs), todo, executor, err)
        console.print(summary(con, run_id, args.db))
        failed = failed_games(con, run_id)
        if failed:
            index, board, seed, error = failed[0]
            err.print(
                f"workbench simulate: {len(failed)} of {spec.games} games failed; the "
                f"first: game {index} on {board}, seed {seed}: {error}\nseed, board and "
                f"traceback of each are in table failed_games of {args.db}",
                markup=False,
                highlight=False,
            )
            return 1
        return 0
    except KeyboardInterrupt:
        err.print(
            f"interrupted: run {run_id} keeps its complete games; finish it with "
            f"workbench simulate --db {args.db} --resume {run_id}",
            markup=False,
        )
        return 130
    except (duckdb.Error, OSError) as exc:
        err.print(
            f"workbench simulate: stopped: {_cause(exc, args.db)}\nrun {run_id} keeps its "
            f"complete games; finish it with workbench simulate --db {args.db} --resume "
            f"{run_id}",
            markup=False,
        )
        return 1
    finally:
        if pool is not None:
            pool.close()
        con.close()


def _cluster(args: argparse.Namespace) -> Cluster | None:
    """The Ray cluster and shard folder of --backend ray; refuses --address and --shards
    without it."""
    if args.backend != "ray":
        given = [f"--{a}" for a in ("address", "shards") if getattr(args, a) is not None]
        if given:
            raise UsageError(f"{' and '.join(given)} go with --backend ray")
        return None
    if importlib.util.find_spec("ray") is None:
        raise UsageError("--backend ray needs ray: pip install -e '.[ray]'")
    shards = Path(args.shards) if args.shards is not None else None
    if shards is not None and shards.exists() and not shards.is_dir():
        raise UsageError(f"--shards {shards} is a file, not a folder")
    return Cluster(args.address, args.workers, shards)


def _cause(exc: BaseException, db: str) -> str:
    """What stopped the run, named first: a full disk says so (not the failed rollback after)."""
    if getattr(exc, "errno", None) == errno.ENOSPC or "no space left" in str(exc).casefold():
        return (
            f"no space left on device ({exc}); free some space, or move {db} to a disk "
            "with room, then resume"
        )
    return str(exc)


def _start(args: argparse.Namespace) -> Opened:
    """A new run, checked, created and stored; its workers start once the arguments are
    checked, so that they are ready for the first batch (a 2-worker run waited for
    them)."""
    spec, prepared = new_spec(args)
    new = not os.path.exists(args.db)
    # forked before the store is opened: no database thread to copy
    pool = WorkerPool(args.workers, once=True, fork=True) if args.backend == "local" else None
    try:
        return (*_create(args, spec, prepared, new), pool)
    except BaseException:
        if pool is not None:
            pool.close()
        raise


def _create(
    args: argparse.Namespace, spec: RunSpec, prepared: Prepared, new: bool
) -> tuple[duckdb.DuckDBPyConnection, int, RunSpec, Prepared]:
    """The run stored in --db; a database made for it alone is removed if that fails."""
    con = open_store(args.db)
    try:
        run_id = create_prepared_run(con, spec, prepared, args.backend, args.workers)
    except duckdb.Error as exc:
        con.close()
        if new:  # a database made for this run only is not left behind empty
            for path in (Path(args.db), Path(f"{args.db}.wal")):
                path.unlink(missing_ok=True)
        raise StoreError(f"cannot store the run in {args.db}: {exc}") from exc
    return con, run_id, spec, prepared


def _resume(args: argparse.Namespace) -> Opened:
    given = [f"--{a}" for a in RUN_ARGS if getattr(args, a) is not None]
    if given:
        raise UsageError(
            f"--resume takes the run's settings from the database; drop {', '.join(given)}"
        )
    if not os.path.isfile(args.db):
        raise UsageError(f"no database {args.db} to resume from")
    con = open_store(args.db)
    try:
        spec, _, version = load_run(con, args.resume)
        if version != engine_version():
            raise UsageError(
                f"run {args.resume} was played by engine {version}, this is "
                f"{engine_version()}; its remaining games would differ"
            )
        prepared = prepare(spec)
        stored = board_hashes(con, args.resume)
        changed = [
            b.board.name for b in prepared.boards if stored.get(b.board.name) != b.content_hash
        ]
        if changed:
            raise UsageError(
                f"the card sets or board files of run {args.resume} changed since "
                f"it began ({', '.join(changed)}); start a new run instead"
            )
    except BaseException:
        con.close()
        raise
    return con, args.resume, spec, prepared, None
