"""Opening a store file: refuse what is not a workbench store of this schema version without
touching it, create a new one, and give an older file of this version the tables and columns
added since."""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import os
from collections.abc import Collection
from importlib import metadata
from pathlib import Path

import duckdb

from workbench.store import summary
from workbench.store.keys import SCHEMA_VERSION
from workbench.store.schema import TABLES, ddl


class StoreError(Exception):
    """A database that cannot be used: unwritable, not DuckDB, another schema, unknown run."""


class NotAStore(StoreError):
    """A DuckDB file without the workbench's `schema_info` table; `tables` are what it has."""

    def __init__(self, tables: set[str]) -> None:
        super().__init__(f"not a workbench store (it has {', '.join(sorted(tables))})")
        self.tables = tables


class OtherVersion(StoreError):
    """A workbench store of a schema version this workbench does not read (None: none stored)."""

    def __init__(self, version: str | None) -> None:
        super().__init__(f"store schema version {version}")
        self.version = version

    @property
    def named(self) -> str:
        """The version as the messages print it ("none" for none)."""
        return "none" if self.version is None else self.version


@functools.cache
def engine_version() -> str:
    """Package version plus a hash of the engine's source as imported (read once per process):
    a resumed run must use the same."""
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parents[2] / "engine"
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return f"{metadata.version('muhq-workbench')}+{digest.hexdigest()[:10]}"


def unusable(path: str | Path, exc: duckdb.Error) -> str:
    """Why DuckDB would not open `path`, the same from every command: held by another process
    (a simulation still writing it; DuckDB locks a file it writes), or not a DuckDB file."""
    if "could not set lock" in str(exc).casefold():
        return (
            f"{path} is in use by another process (a simulation still writing it?): wait "
            "until it is done, or copy the file and read the copy"
        )
    return f"{path} is not a usable DuckDB database: {exc}"


def check_store(path: str | Path) -> None:
    """Refuse what `open_store` would refuse, without creating or changing anything (so a
    command can check its --db before work whose end may be to store nothing)."""
    path = Path(path)
    if path.is_dir():
        raise StoreError(f"database path {path} is a folder, not a file")
    if path.exists():
        _check_existing(path)
    elif not path.parent.is_dir():
        raise StoreError(f"cannot create database {path}: folder {path.parent} does not exist")
    elif not os.access(path.parent, os.W_OK):
        raise StoreError(f"cannot create database {path}: folder {path.parent} is not writable")


def open_store(path: str | Path) -> duckdb.DuckDBPyConnection:
    """Open (creating if new) a store for writing; refuse anything else without changing it."""
    path = Path(path)
    check_store(path)
    try:
        con = duckdb.connect(str(path))
    except duckdb.Error as exc:
        raise StoreError(f"cannot open database {path} for writing: {exc}") from exc
    tables = {
        r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()
    }
    if not tables:
        _create(con)
    # sweeps added later in version 1, failed_games later in version 3, assignments later in
    # version 4: older files gain them
    for name in ("sweeps", "sweep_results", "failed_games", "assignments"):
        if tables and name not in tables:
            con.execute(f"CREATE TABLE {name} ({', '.join(f'{c} {ty}' for c, ty in TABLES[name])})")
    # summary columns that came later (early_picks and early_bought with summary version 2,
    # paid and gained with 3): older files gain them, empty (their older summaries are
    # rebuilt on read, as summary.ensure says)
    have = con.execute(
        "SELECT table_name, list(column_name) FROM duckdb_columns() "
        "WHERE database_name = current_database() GROUP BY ALL"
    ).fetchall()
    for name, columns in have:
        for column, ty in summary.TABLES.get(name, ()):
            if column not in columns:
                con.execute(f"ALTER TABLE {name} ADD COLUMN {column} {ty}")
    return con


def open_read_only(
    path: str | Path, versions: Collection[str], empty: bool = False
) -> duckdb.DuckDBPyConnection:
    """Open a store so that nothing can be written, refusing a file DuckDB will not open
    (StoreError, `unusable`'s line), one without the workbench's tables (NotAStore) and one of
    a schema version not in `versions` (OtherVersion); `empty`: a DuckDB file with no table at
    all passes (a new store in the making). Each caller words the refusal for its command."""
    try:
        con = duckdb.connect(str(path), read_only=True)
    except duckdb.Error as exc:
        raise StoreError(unusable(path, exc)) from exc
    tables = {
        r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()
    }
    if empty and not tables:
        return con
    if "schema_info" not in tables:
        con.close()
        raise NotAStore(tables)
    rows = con.execute("SELECT value FROM schema_info WHERE key = 'schema_version'").fetchall()
    version = rows[0][0] if rows else None
    if version not in versions:
        con.close()
        raise OtherVersion(version)
    return con


def _check_existing(path: Path) -> None:
    """Read-only look first, so a foreign or newer file is never touched."""
    try:
        open_read_only(path, (SCHEMA_VERSION,), empty=True).close()
    except NotAStore as exc:
        raise StoreError(
            f"{path} is a DuckDB file but not a workbench store "
            f"(no schema_info table; it has {', '.join(sorted(exc.tables))})"
        ) from None
    except OtherVersion as exc:
        raise StoreError(
            f"{path} has store schema version {exc.named}; this workbench "
            f"reads and writes version {SCHEMA_VERSION} only"
        ) from None


def _create(con: duckdb.DuckDBPyConnection) -> None:
    con.execute("BEGIN TRANSACTION")
    for statement in ddl():
        con.execute(statement)
    now = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    con.executemany(
        "INSERT INTO schema_info VALUES (?, ?)",
        [("schema_version", SCHEMA_VERSION), ("created_at", now), ("created_by", engine_version())],
    )
    con.execute("COMMIT")
