"""The DuckDB event store (docs/schema.md): schema, run rows, batches of whole games, the summary
tables (`summary`), the stored games read back (`stored`) and the store's version (`keys`).

One process writes a file; workers hand it batches of Arrow tables. Every batch is one
transaction, so a run stopped at any moment leaves only complete games behind. One module per
job: `schema` the tables and their types, `files` opening (and refusing) a file, `runs` a run's
rows from its start to its end, `batches` the games' rows and their writing; this package is
their API.
"""

from workbench.store.batches import (
    FLUSH_ROWS,
    BatchWriter,
    FailedGame,
    PlayedGame,
    batch_tables,
    write_batch,
)
from workbench.store.files import (
    StoreError,
    check_store,
    engine_version,
    open_store,
    unusable,
)
from workbench.store.runs import (
    MAX_GAMES,
    MAX_SEED,
    BoardSource,
    RunSpec,
    board_hashes,
    create_run,
    failed_games,
    finish_run,
    load_run,
    missing_games,
    set_execution,
)
from workbench.store.schema import GAME_TABLES, TABLES, ddl

__all__ = [
    "FLUSH_ROWS",
    "GAME_TABLES",
    "MAX_GAMES",
    "MAX_SEED",
    "TABLES",
    "BatchWriter",
    "BoardSource",
    "FailedGame",
    "PlayedGame",
    "RunSpec",
    "StoreError",
    "batch_tables",
    "board_hashes",
    "check_store",
    "create_run",
    "ddl",
    "engine_version",
    "failed_games",
    "finish_run",
    "load_run",
    "missing_games",
    "open_store",
    "set_execution",
    "unusable",
    "write_batch",
]
