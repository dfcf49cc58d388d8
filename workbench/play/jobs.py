"""A run's job: its setups loaded once (`prepare`), its row created, and its games played from
the job alone (`play_games`, spawn- and Ray-safe), each game seeded from (run seed, i) with its
board and seat rotation following from i alone, so the stored content is the same whatever the
workers, the backend, the batching or the interruptions.
"""

from __future__ import annotations

import traceback
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, fields

import duckdb
import pyarrow as pa

from engine.cards import Card
from engine.play import derive_seed, play_game
from engine.state import GameConfig
from workbench.content.setup import content_hash, load_setup, name_warnings
from workbench.content.tables import Problem
from workbench.content.variants import apply_change
from workbench.play.agents import make_agent
from workbench.store import (
    BoardSource,
    FailedGame,
    PlayedGame,
    RunSpec,
    batch_tables,
    create_run,
)

BATCH_GAMES = 16
"""Most games per batch: about 30k events, a few MB of Arrow, one transaction."""

Batch = tuple[int, dict[str, pa.Table]]
"""Number of games in a batch and their tables."""


@dataclass(frozen=True)
class Job:
    """What a worker needs: the run's id and spec and one loaded GameConfig per board."""

    run_id: int
    spec: RunSpec
    configs: dict[str, GameConfig]


@dataclass(frozen=True)
class Prepared:
    """A spec's setups loaded once in the main process, before any game is played."""

    configs: dict[str, GameConfig]
    boards: tuple[BoardSource, ...]
    cards: tuple[Card, ...]
    pool: tuple[Card, ...]
    params: dict[str, object]
    files: tuple[str, ...]
    content_hash: str
    warnings: tuple[Problem, ...] = ()
    """Card names that look alike (`setup.name_warnings`), as `workbench validate` warns."""


def prepare(spec: RunSpec) -> Prepared:
    """Load every board with the sets; raises LookupError/ValueError/ValidationError as is."""
    configs: dict[str, GameConfig] = {}
    boards: list[BoardSource] = []
    files: list[str] = []
    for name in spec.boards:
        setup = load_setup(spec.sets, name, spec.players or None)
        for change in spec.changes:
            setup = apply_change(setup, change)
        _check_draft(setup.config)
        configs[name] = setup.config
        boards.append(BoardSource(setup.board, setup.files[-1], setup.content_hash))
        files += [f for f in setup.files if f not in files]
    config = next(iter(configs.values()))
    params: dict[str, object] = {
        f.name: getattr(config, f.name)
        for f in fields(config)
        if f.init and f.name not in ("pool", "catalog", "board", "players")
    }
    if spec.changes:
        params["changes"] = [asdict(c) for c in spec.changes]
    return Prepared(
        configs,
        tuple(boards),
        tuple(config.catalog.values()),
        config.pool,
        params,
        tuple(files),
        content_hash(sorted(files), [c.label() for c in spec.changes]),
        tuple(name_warnings(spec.sets)),
    )


def create_prepared_run(
    con: duckdb.DuckDBPyConnection, spec: RunSpec, prep: Prepared, backend: str, workers: int
) -> int:
    """The run's row with its cards and boards as `prep` loaded them (store.create_run); its
    run_id."""
    return create_run(
        con,
        spec,
        prep.boards,
        prep.cards,
        prep.pool,
        prep.params,
        prep.files,
        prep.content_hash,
        backend,
        workers,
    )


def _check_draft(config: GameConfig) -> None:
    """R3.2, R3.3: the draft deals every seat a pack; with fewer copies it could not start."""
    copies = sum(c.copies for c in config.pool if c.draftable)
    if copies < config.players * config.pack_size:
        raise ValueError(
            f"the chosen sets have {copies} draftable copies (cards with a buy "
            f"price, R3.1): too few for the draft, which deals a pack of "
            f"{config.pack_size} to each of the {config.players} players (R3.2, "
            "R3.3); add copies or sets"
        )


def seat_specs(specs: Sequence[str], rotation: int) -> tuple[str, ...]:
    """Seat s gets base entry (s + rotation) % players."""
    return tuple(specs[(s + rotation) % len(specs)] for s in range(len(specs)))


def play_each(
    job: Job, indices: Sequence[int], configs: dict[str, GameConfig] | None = None
) -> Iterator[PlayedGame | FailedGame]:
    """Each of the given games of the run played (with `configs` instead of the job's, per
    board), in order: the game, or if it raised, its failure (seed, board, traceback).

    A game that raises is kept as a failed game and the others go on: one crash found by odd
    content must not cost the rest of a run."""
    spec = job.spec
    for i in indices:
        board, rotation = spec.board_of(i), spec.rotation_of(i)
        agents, drafters = seat_specs(spec.agents, rotation), seat_specs(spec.drafters, rotation)
        config = (configs or job.configs)[board]
        seed = derive_seed(spec.seed, i)
        try:
            record = play_game(
                config, seed, [make_agent(a) for a in agents], [make_agent(d) for d in drafters]
            )
        except Exception as exc:  # noqa: BLE001  # stored with its traceback, never hidden
            yield FailedGame(
                i,
                config.board.name,
                seed,
                rotation,
                agents,
                drafters,
                f"{type(exc).__name__}: {exc}",
                traceback.format_exc(),
            )
            continue
        yield PlayedGame(i, config.board.name, rotation, agents, drafters, record)


def play_games(job: Job, indices: Sequence[int]) -> Batch:
    """Play the given games of the run and return them as one batch (spawn- and Ray-safe)."""
    played, failed = [], []
    for game in play_each(job, indices):
        if isinstance(game, FailedGame):
            failed.append(game)
        else:
            played.append(game)
    return len(indices), batch_tables(job.run_id, played, failed)
