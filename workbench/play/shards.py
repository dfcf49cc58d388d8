"""Runs on a Ray cluster: workers write Parquet shards, the driver ingests them (docs/scale.md).

The DuckDB file has one writer; a cluster's workers would wait on it. So each Ray task plays a
batch of consecutive games and writes it as one Parquet file per game table,
`<shards>/run-<id>/<table>/<first>-<last>.parquet`, each written under a temporary name and
renamed, the `games` file last: a batch whose `games` file exists is whole. The driver only
counts. When every game is played it inserts the shards in bulk in one transaction, then builds
the summary tables and marks the run finished as a local run does (store.finish_run), and
removes the shards: every query, report and notebook reads a Ray run from the file, as any
other.

Kill safety: a resume first deletes temporary files and batches without their `games` file,
plays the games in no whole batch and not in the file, and ingests every whole batch whose
games the file lacks. A killed ingest commits nothing, so the resume ingests again.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
from rich.console import Console

from workbench.play.jobs import Job, play_games
from workbench.play.progress import progress_bar
from workbench.store import GAME_TABLES, engine_version, finish_run

SHARD_GAMES: Final = 64
"""Most games per shard batch: fewer, larger files than the local runner's 16-game batches
(docs/scale.md: a batch of 64 heuristic games is a few seconds of play and about 1 MB)."""
MARKER: Final = "games"
"""The table whose shard is renamed last: its presence makes the batch whole."""
_NAME = re.compile(r"^(\d+)-(\d+)\.parquet$")


@dataclass(frozen=True)
class Cluster:
    """Where the run plays and where its shards go."""

    address: str | None
    """A Ray address (`ray start --head` prints it); None: RAY_ADDRESS, else a local Ray."""
    workers: int = 1
    """Worker processes of a local Ray (the slots if the cluster does not say)."""
    shards: Path | None = None
    """A folder every node and the driver see; None: beside the DuckDB file."""


@dataclass(frozen=True)
class Written:
    """What a task reports back: its games' range and counts, never their rows."""

    first: int
    last: int
    games: int
    failed: int
    node: str
    engine: str


def default_folder(db: str | Path) -> Path:
    """`runs.duckdb` -> `runs.shards` in the same folder."""
    db = Path(db)
    return db.with_name(f"{db.stem}.shards")


def shard_name(first: int, last: int) -> str:
    return f"{first:07d}-{last:07d}.parquet"


def write_shards(folder: Path, first: int, last: int, tables: dict[str, pa.Table]) -> None:
    """Each table of a batch as a file, written to a temporary name, synced, then renamed
    (the `games` file last): a file is whole or absent, and so is the batch."""
    name = shard_name(first, last)
    for table in [t for t in GAME_TABLES if t != MARKER and tables[t].num_rows] + [MARKER]:
        where = folder / table
        where.mkdir(parents=True, exist_ok=True)
        tmp = where / f".{name}.{uuid.uuid4().hex}.tmp"
        with open(tmp, "wb") as out:
            pq.write_table(tables[table], out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, where / name)


def play_to_shards(job: Job, indices: Sequence[int], folder: str) -> Written:
    """In a Ray task: play consecutive games and write them as shards under `folder`."""
    import ray

    n, tables = play_games(job, indices)
    write_shards(Path(folder), indices[0], indices[-1], tables)
    return Written(
        indices[0],
        indices[-1],
        n,
        tables["failed_games"].num_rows,
        ray.get_runtime_context().get_node_id(),
        engine_version(),
    )


def whole_batches(folder: Path) -> dict[int, int]:
    """first -> last game of every whole batch in the run folder."""
    marker = folder / MARKER
    if not marker.is_dir():
        return {}
    found = (_NAME.match(p.name) for p in marker.iterdir())
    return {int(m[1]): int(m[2]) for m in found if m}


def clean(folder: Path) -> None:
    """Delete what a killed task left: temporary files, and shards of batches that are not
    whole (their games are played again)."""
    whole = {shard_name(a, b) for a, b in whole_batches(folder).items()}
    for table in GAME_TABLES:
        where = folder / table
        if where.is_dir():
            for path in where.iterdir():
                if path.name not in whole:
                    path.unlink()


def claim(folder: Path, con: duckdb.DuckDBPyConnection, run_id: int) -> None:
    """Mark the run folder as this run's (`run.json`), or refuse one another database's run of
    the same id left in a shared --shards folder (its games would be ingested as ours)."""
    row = con.execute(
        "SELECT run_id, seed, content_hash, engine_version, started_at::VARCHAR "
        "FROM runs WHERE run_id = ?",
        [run_id],
    ).fetchall()[0]
    mine = dict(
        zip(("run_id", "seed", "content_hash", "engine_version", "started_at"), row, strict=True)
    )
    path = folder / "run.json"
    if path.exists():
        theirs = json.loads(path.read_text())
        if theirs != mine:
            raise FileExistsError(
                f"{folder} holds shards of another run ({theirs}); remove it "
                "or give --shards another folder"
            )
        return
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".run.json.{uuid.uuid4().hex}.tmp"
    tmp.write_text(json.dumps(mine, sort_keys=True))
    os.replace(tmp, path)


def spans(indices: Sequence[int], workers: int) -> list[list[int]]:
    """Batches of consecutive games (a shard is named by its first and last game), small
    enough early that every worker stays busy to the end."""
    runs: list[list[int]] = []
    for i in indices:
        if runs and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    size = max(1, min(SHARD_GAMES, len(indices) // (workers * 4) or 1))
    return [run[i : i + size] for run in runs for i in range(0, len(run), size)]


def connect(address: str | None, workers: int) -> bool:
    """Join the Ray cluster at `address` (else RAY_ADDRESS, else start a local Ray with
    `workers` CPUs) unless this process already has; True when this call connected. A local
    Ray is asked for by name: without an address, `ray.init` would join the cluster the last
    `ray start` on this machine recorded (/tmp/ray/ray_current_cluster), even a killed one."""
    import ray

    if ray.is_initialized():
        return False
    if address or os.environ.get("RAY_ADDRESS"):
        ray.init(address=address, log_to_driver=False)
    else:
        ray.init(address="local", num_cpus=workers, include_dashboard=False)
    return True


def _stream(job: Job, batches: Sequence[list[int]], folder: Path, slots: int) -> Iterator[Written]:
    """Ray tasks writing the batches, spread over the nodes; at most two per CPU of the
    cluster in flight. An interrupted driver does not cancel the tasks in flight: they end
    with its job when it disconnects (or, in a session it did not start, finish and leave
    whole shards for a resume). `ray.cancel` of a task whose reply is arriving fails a check
    in Ray's core worker and kills or hangs the driver (ray-project/ray#54846)."""
    import ray

    remote = ray.remote(play_to_shards).options(scheduling_strategy="SPREAD")
    job_ref = ray.put(job)
    pending: list[ray.ObjectRef[Written]] = []
    for batch in batches:
        if len(pending) >= 2 * slots:
            ready, pending = ray.wait(pending, num_returns=1)
            yield ray.get(ready[0])
        pending.append(remote.remote(job_ref, batch, str(folder)))
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        yield ray.get(ready[0])


def _check(written: Written, folder: Path) -> None:
    """The driver sees the shard a task wrote, and the task ran this engine."""
    if written.engine != engine_version():
        raise RuntimeError(
            f"Ray node {written.node} runs engine {written.engine}, this driver "
            f"{engine_version()}: its games would differ; install the same "
            "checkout on every node"
        )
    path = folder / MARKER / shard_name(written.first, written.last)
    if not path.exists():
        raise FileNotFoundError(
            f"Ray node {written.node} wrote {path.name}, which this machine "
            f"does not see under {folder}; give --shards a folder that every "
            "node and this machine share"
        )


def _stored(con: duckdb.DuckDBPyConnection, run_id: int) -> set[int]:
    return {
        int(r[0])
        for r in con.execute(
            "SELECT game_index FROM games WHERE run_id = ? UNION "
            "SELECT game_index FROM failed_games WHERE run_id = ?",
            [run_id, run_id],
        ).fetchall()
    }


def _sql_list(paths: Sequence[Path]) -> str:
    return "[" + ", ".join("'" + str(p).replace("'", "''") + "'" for p in paths) + "]"


def _ingest_table(con: duckdb.DuckDBPyConnection, table: str, files: Sequence[Path]) -> int:
    """Insert one table's shards (those present: an empty table writes none)."""
    present = [p for p in files if p.exists()]
    if not present:
        return 0
    con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM read_parquet({_sql_list(present)})")
    return len(present)


def ingest(con: duckdb.DuckDBPyConnection, run_id: int, folder: Path) -> int:
    """Insert every whole batch whose games the file lacks, in one transaction (all of them or
    none: a killed ingest leaves the file as it was); the games inserted."""
    stored = _stored(con, run_id)
    batches = sorted((a, b) for a, b in whole_batches(folder).items() if a not in stored)
    if not batches:
        return 0
    names = [shard_name(a, b) for a, b in batches]
    con.execute("BEGIN TRANSACTION")
    try:
        for table in GAME_TABLES:
            _ingest_table(con, table, [folder / table / n for n in names])
        con.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(duckdb.Error):  # a failed COMMIT leaves no transaction:
            con.execute("ROLLBACK")  # its own error is the one that matters
        raise
    return sum(b - a + 1 for a, b in batches)


def execute(
    con: duckdb.DuckDBPyConnection,
    job: Job,
    indices: Sequence[int],
    console: Console,
    cluster: Cluster,
) -> None:
    """Play the games of `indices` that no whole shard holds on the cluster, ingest the
    shards, then finish the run (summaries, status) and remove its shards."""
    run_id = job.run_id
    root = cluster.shards if cluster.shards is not None else default_folder(_db_path(con))
    folder = (root / f"run-{run_id}").resolve()
    claim(folder, con, run_id)
    clean(folder)
    on_disk = {i for a, b in whole_batches(folder).items() for i in range(a, b + 1)}
    todo = [i for i in indices if i not in on_disk]
    if len(todo) < len(indices):
        console.print(
            f"run {run_id}: {len(indices) - len(todo)} games already in shards under "
            f"{folder}; playing {len(todo)}",
            markup=False,
            highlight=False,
        )
    failed, nodes = (
        _play(job, todo, folder, cluster.workers, console, cluster.address) if todo else (0, set())
    )
    ingest(con, run_id, folder)
    missing = len(indices) - len(_stored(con, run_id) & set(indices))
    if missing:
        raise FileNotFoundError(
            f"{missing} games of run {run_id} are neither in the file nor "
            f"in shards under {folder}; resume the run to play them"
        )
    finish_run(con, run_id)
    shutil.rmtree(folder)
    if cluster.shards is None:
        with contextlib.suppress(OSError):  # the default folder beside the file goes when
            root.rmdir()  # its last run is in
    if nodes:
        console.print(
            f"run {run_id}: {len(todo)} games played on {len(nodes)} Ray "
            f"node{'s' if len(nodes) > 1 else ''}, ingested from {folder}",
            markup=False,
            highlight=False,
        )
    if failed:
        console.print(
            f"run {run_id}: {failed} of {len(todo)} games failed and are left out "
            "(table failed_games: seed, board, traceback)",
            markup=False,
        )


def _db_path(con: duckdb.DuckDBPyConnection) -> str:
    """The file of the open database (the default shards folder is beside it)."""
    return str(
        con.execute(
            "SELECT path FROM duckdb_databases() WHERE database_name = current_database()"
        ).fetchall()[0][0]
    )


def _play(
    job: Job,
    todo: Sequence[int],
    folder: Path,
    workers: int,
    console: Console,
    address: str | None,
) -> tuple[int, set[str]]:
    """Play `todo` on the cluster into shards under `folder`, with a progress bar over the
    whole run; the games that failed and the nodes that played."""
    import ray

    total = job.spec.games
    failed = 0
    nodes: set[str] = set()
    connected = connect(address, workers)
    try:
        resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
        slots = max(1, int(resources.get("CPU", workers)))
        start, played = time.perf_counter(), 0
        with progress_bar(console) as progress:
            task = progress.add_task("games", total=total, completed=total - len(todo), rate=0.0)
            for written in _stream(job, spans(todo, slots), folder, slots):
                _check(written, folder)
                failed += written.failed
                nodes.add(written.node)
                played += written.games
                progress.update(
                    task,
                    advance=written.games,
                    rate=played / max(time.perf_counter() - start, 1e-9),
                )
    finally:
        if connected:
            ray.shutdown()
    return failed, nodes
