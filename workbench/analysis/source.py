"""Opening a database for analysis and choosing its runs, with clear errors for bad input."""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Sequence
from pathlib import Path

import duckdb
import polars as pl

from workbench.analysis.errors import AnalysisError as AnalysisError  # re-exported
from workbench.store.files import NotAStore, OtherVersion, StoreError, open_read_only
from workbench.store.keys import GAME_ID_BASE, READ_VERSIONS

MEMORY_LIMIT = "1GB"
"""DuckDB's working memory for analysis (the rest of 2 GB is Python, polars and matplotlib)."""


def open_db(path: str | Path) -> duckdb.DuckDBPyConnection:
    """Open read-only (a report must never change a run) and check the schema version."""
    p = Path(path)
    if not p.is_file():
        raise AnalysisError(f"{p}: no such database file")
    try:
        con = open_read_only(p, READ_VERSIONS)
    except NotAStore:
        raise AnalysisError(f"{p}: not a workbench database (no schema_info table)") from None
    except OtherVersion as exc:
        raise AnalysisError(
            f"{p}: schema version {exc.version!r}, but this workbench reads versions "
            f"{' and '.join(map(repr, READ_VERSIONS))}; re-run the simulation "
            "with this workbench"
        ) from None
    except StoreError as exc:
        raise AnalysisError(str(exc)) from exc
    # the bar would print over the command's output; Jupyter refuses the setting
    with contextlib.suppress(duckdb.Error):
        con.execute("SET enable_progress_bar = false")
    # 100,000-game runs must fit a 2 GB machine: DuckDB spills its aggregations beyond this
    con.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
    con.execute(f"SET temp_directory = '{tempfile.gettempdir()}'")
    return con


def all_runs(con: duckdb.DuckDBPyConnection) -> list[int]:
    return [int(r[0]) for r in con.execute("SELECT run_id FROM runs ORDER BY run_id").fetchall()]


def resolve_runs(con: duckdb.DuckDBPyConnection, wanted: Sequence[int] | None) -> list[int]:
    """The runs to analyse: those asked for, or the latest; every one must exist and have games."""
    runs = all_runs(con)
    if not runs:
        raise AnalysisError("the database holds no runs yet: run `workbench simulate` first")
    chosen = list(wanted) if wanted else [runs[-1]]
    unknown = [r for r in chosen if r not in runs]
    if unknown:
        raise AnalysisError(
            f"unknown run {', '.join(map(str, unknown))}; the database holds "
            f"run {', '.join(map(str, runs))}"
        )
    ids = ", ".join(map(str, chosen))
    if con.execute(f"SELECT count(*) FROM games WHERE run_id IN ({ids})").fetchall()[0][0] == 0:
        raise AnalysisError(f"run {ids} has no stored games yet")
    return chosen


def in_runs(column: str, runs: Sequence[int]) -> str:
    """A SQL condition keeping rows of `runs` by a game_id column (events carry no run_id)."""
    lo_hi = " OR ".join(
        f"{column} BETWEEN {r * GAME_ID_BASE} AND {(r + 1) * GAME_ID_BASE - 1}" for r in runs
    )
    return f"({lo_hi})"


def run_list(runs: Sequence[int]) -> str:
    """`runs` as a SQL list (integers only, so formatting is safe)."""
    return ", ".join(str(int(r)) for r in runs)


def query(con: duckdb.DuckDBPyConnection, sql: str) -> pl.DataFrame:
    """Run SQL and return a polars frame (typed, for callers under mypy --strict)."""
    df: pl.DataFrame = con.sql(sql).pl()
    # DuckDB sums integers to HUGEINT, which arrives as Decimal; counts are plain integers
    return df.with_columns(pl.col(pl.Decimal).cast(pl.Int64))
