"""`workbench simulate --backend ray` on a two-node Ray cluster: workers write Parquet shards,
the driver ingests them; the content equals the local backend's, and a run stopped after some
shards, or while ingesting, or with a half-written shard, resumes to the uninterrupted content."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from tests.test_runner import GAMES, content, simulate
from workbench.play import shards

pytestmark = [
    pytest.mark.skipif(
        importlib.util.find_spec("ray") is None,
        reason="ray is not installed (pip install -e .[ray]); .ci/run installs it",
    ),
    pytest.mark.cluster,
]

ROOT = Path(__file__).resolve().parent.parent
Content = dict[str, list[tuple[object, ...]]]


STARTUP = 240  # seconds for the cluster to come up, over all attempts
# Ray 2.60's raylet gives its agents 15 s to start, then exits; on a 2-core machine at load
# averages over about 10 their imports take longer, and a later attempt may find it quieter
ATTEMPTS = 3
# an unset Ray temp folder goes under pytest's per-worker one (.../pytest-of-x/pytest-N/popen-gw0/
# ...), where Ray's socket paths exceed the 107 bytes of AF_UNIX: `ray start` fails
TEMP_ROOT = "/tmp"
# with the pytest worker that started it, a node stops even if the worker dies before its
# teardown (Linux: PR_SET_PDEATHSIG, kept across exec): no cluster outlives its test run
DIE_WITH_PARENT = (
    "import ctypes, os, signal, sys; "
    "ctypes.CDLL(None).prctl(1, signal.SIGTERM); "
    "os.getppid() == int(sys.argv[1]) or sys.exit(1); "
    "os.execv(sys.argv[2], sys.argv[2:])"
)


def _start(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """`ray start --block ...` in its own session (its process group is the node's), its
    output to `log`."""
    command = [str(Path(sys.executable).with_name("ray")), "start", "--block", *args]
    if sys.platform == "linux":
        command = [sys.executable, "-c", DIE_WITH_PARENT, str(os.getpid()), *command]
    with log.open("wb") as out:
        return subprocess.Popen(
            command, env=env, start_new_session=True, stdout=out, stderr=subprocess.STDOUT
        )


def _stop(procs: list[subprocess.Popen[bytes]]) -> None:
    """`ray start --block` stops the node's processes on SIGTERM; whatever is left of the
    sessions these tests started is killed by their group id."""
    for proc in reversed(procs):
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    for proc in reversed(procs):
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=30)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def _warm(ray: Any) -> None:
    """Start a worker on every node and import the workbench there, so that the tests' first
    tasks find both nodes ready."""
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    def ready() -> str:
        import workbench.play.shards  # noqa: F401

        return str(ray.get_runtime_context().get_node_id())

    nodes = [n["NodeID"] for n in ray.nodes() if n["Alive"]]
    remote = ray.remote(ready)
    ray.get(
        [
            remote.options(
                scheduling_strategy=NodeAffinitySchedulingStrategy(n, soft=False)
            ).remote()
            for n in nodes
        ]
    )


def _wait_for_two_cpus(
    ray: Any, address: str, procs: list[subprocess.Popen[bytes]], deadline: float
) -> str:
    """Poll the cluster until it has both nodes' CPUs and warm them; the reason it did not
    come up, or ''."""
    cpus = 0.0
    while time.monotonic() < deadline:
        if any(p.poll() is not None for p in procs):
            return "`ray start` exited (" + ", ".join(str(p.poll()) for p in procs) + ")"
        try:
            ray.init(address=address, log_to_driver=False)
            cpus = ray.cluster_resources().get("CPU", 0)
            if cpus >= 2:
                _warm(ray)
                return ""
        except ConnectionError:
            pass
        finally:
            ray.shutdown()
        time.sleep(1)
    return f"{cpus:g} of 2 CPUs after {STARTUP} s"


def _start_cluster(
    ray: Any, temp: Path, deadline: float
) -> tuple[str, list[subprocess.Popen[bytes]], str]:
    """A head node (its Ray folder `temp`) and a second node of one CPU each, on a free port
    of this machine, their workers importing this checkout (PYTHONPATH): its address, its
    `ray start` processes and, if it did not come up, why (with the tails of their logs)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"127.0.0.1:{port}"
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "RAY_USAGE_STATS_ENABLED": "0",
        "RAY_AUTH_MODE": "disabled",
        "RAY_GRACEFUL_SHUTDOWN_DRAIN_TIMEOUT_S": "0",  # on SIGTERM, stop at once
    }  # a loopback test cluster: one worker runs its tests (tests/conftest.py)
    common = ["--num-cpus", "1", "--disable-usage-stats"]
    head = ["--head", "--port", str(port), "--include-dashboard", "false", "--temp-dir", str(temp)]
    logs = [temp / "head.log", temp / "node.log"]
    procs = [
        _start([*head, *common], env, logs[0]),
        _start(["--address", address, *common], env, logs[1]),  # its folder is the head's
    ]
    reason = _wait_for_two_cpus(ray, address, procs, deadline)
    if reason:
        reason += "".join(
            f"\n--- {log.name}:\n" + "\n".join(log.read_text(errors="replace").splitlines()[-15:])
            for log in logs
        )
    return address, procs, reason


def _cannot_start(reason: str) -> None:
    """Skip, with the reason, on a machine where Ray cannot start a cluster; a CI run that
    must prove the cluster claim sets WORKBENCH_REQUIRE_CLUSTER=1 and fails instead."""
    if os.environ.get("WORKBENCH_REQUIRE_CLUSTER") == "1":
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A two-node cluster on this machine (`_start_cluster`), tried up to ATTEMPTS times;
    stopped, and its folder removed, whatever happens."""
    import ray

    temp = Path(tempfile.mkdtemp(prefix="ray", dir=TEMP_ROOT))
    procs: list[subprocess.Popen[bytes]] = []
    try:
        deadline, attempt, reason = time.monotonic() + STARTUP, 0, "not tried"
        while reason and attempt < ATTEMPTS and time.monotonic() < deadline:
            if procs:
                _stop(procs)
            attempt += 1
            address, procs, reason = _start_cluster(ray, temp, deadline)
        if reason:
            _cannot_start(
                f"a two-node Ray cluster did not start (attempt {attempt} of {ATTEMPTS}): {reason}"
            )
        yield address
    finally:
        if ray.is_initialized():
            ray.shutdown()
        _stop(procs)
        shutil.rmtree(temp, ignore_errors=True)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Content:
    db = tmp_path_factory.mktemp("local") / "local.duckdb"
    assert simulate(*GAMES, "--workers", "1", "--db", str(db)) == 0
    return content(db)


def ray_run(db: Path, cluster: str, *args: str) -> int:
    return simulate(
        "--workers", "2", "--backend", "ray", "--address", cluster, "--db", str(db), *args
    )


def test_a_sharded_run_on_two_nodes_stores_what_the_local_backend_stores(
    tmp_path: Path, cluster: str, reference: Content, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "ray.duckdb"
    assert ray_run(db, cluster, *GAMES) == 0
    assert "played on 2 Ray nodes" in capsys.readouterr().err
    assert content(db) == reference
    assert not (tmp_path / "ray.shards").exists()  # ingested, then removed


def _stop_after(monkeypatch: pytest.MonkeyPatch, batches: int) -> None:
    """The driver stops as if killed once `batches` shards are written (Ctrl-C: the tasks in
    flight end with its job, and may leave their shards half-written or land after the stop).
    It cancels no task: a cancel racing a task's reply crashes it (ray-project/ray#54846)."""
    import ray

    def cancel(*args: Any, **kwargs: Any) -> None:
        pytest.fail("the driver cancelled a Ray task")

    monkeypatch.setattr(ray, "cancel", cancel)
    real = shards._stream

    def stream(*args: Any) -> Iterator[shards.Written]:
        for n, written in enumerate(real(*args)):
            if n == batches:
                raise KeyboardInterrupt
            yield written

    monkeypatch.setattr(shards, "_stream", stream)


def _games_in_shards(folder: Path) -> int:
    return sum(b - a + 1 for a, b in shards.whole_batches(folder).items())


def _resumed(err: str, kept: int) -> None:
    """The resume reused the `kept` games' shards, and any a task in flight wrote after the
    stop, and played the rest of the 6 games."""
    found = re.search(
        r"(\d+) games already in shards under .*?; playing (\d+)", " ".join(err.split())
    )
    assert found, err
    assert int(found[1]) >= kept and int(found[1]) + int(found[2]) == 6, found[0]


def _status(db: Path) -> tuple[str, int]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return (
            con.execute("SELECT status FROM runs").fetchall()[0][0],
            con.execute("SELECT count(*) FROM games").fetchall()[0][0],
        )
    finally:
        con.close()


def test_a_run_stopped_after_some_shards_resumes_without_replaying_them(
    tmp_path: Path,
    cluster: str,
    reference: Content,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    db = tmp_path / "stopped.duckdb"
    _stop_after(monkeypatch, 2)
    assert ray_run(db, cluster, *GAMES) == 130
    assert _status(db) == ("unfinished", 0)  # nothing ingested
    folder = tmp_path / "stopped.shards" / "run-1"
    kept = _games_in_shards(folder)
    assert kept >= 2
    monkeypatch.undo()
    capsys.readouterr()
    assert ray_run(db, cluster, "--resume", "1") == 0
    _resumed(capsys.readouterr().err, kept)
    assert content(db) == reference


def test_a_half_written_shard_is_ignored_and_its_games_played_again(
    tmp_path: Path,
    cluster: str,
    reference: Content,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    db = tmp_path / "half.duckdb"
    folder = tmp_path / "elsewhere" / "run-1"
    _stop_after(monkeypatch, 3)
    assert ray_run(db, cluster, *GAMES, "--shards", str(folder.parent)) == 130
    monkeypatch.undo()
    first, last = min(shards.whole_batches(folder).items())
    name = shards.shard_name(first, last)
    # killed between writing a batch's events and renaming its games file
    (folder / "games" / name).rename(folder / "games" / f".{name}.0123.tmp")
    (folder / "events" / ".0000000-0000000.parquet.4567.tmp").write_bytes(b"PAR1 half")
    kept = _games_in_shards(folder)
    capsys.readouterr()
    assert ray_run(db, cluster, "--shards", str(folder.parent), "--resume", "1") == 0
    _resumed(capsys.readouterr().err, kept)
    assert content(db) == reference


def test_a_run_killed_while_ingesting_resumes_to_the_same_content(
    tmp_path: Path, cluster: str, reference: Content, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Killed inside the ingest's transaction: nothing of it stays. Resumed and killed after
    the ingest, before the summaries: the games stay, the run stays unfinished. Resumed again:
    nothing is ingested twice, the summaries are built and the shards removed."""
    db = tmp_path / "ingest.duckdb"
    real = shards._ingest_table
    calls: list[str] = []

    def killed_midway(*args: Any) -> int:
        calls.append(args[1])
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args)

    def killed(*args: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(shards, "_ingest_table", killed_midway)
    assert ray_run(db, cluster, *GAMES) == 130
    assert calls == ["games", "game_seats", "picks"]
    assert _status(db) == ("unfinished", 0)
    monkeypatch.undo()
    monkeypatch.setattr(shards, "finish_run", killed)
    assert ray_run(db, cluster, "--resume", "1") == 130
    assert _status(db) == ("unfinished", 6)
    monkeypatch.undo()
    assert ray_run(db, cluster, "--resume", "1") == 0
    assert content(db) == reference
    assert not (tmp_path / "ingest.shards").exists()


def test_shards_of_another_database_in_a_shared_folder_are_refused(
    tmp_path: Path, cluster: str, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "shared"
    (folder / "run-1").mkdir(parents=True)
    (folder / "run-1" / "run.json").write_text('{"run_id": 1, "seed": 5}')
    assert ray_run(tmp_path / "other.duckdb", cluster, *GAMES, "--shards", str(folder)) == 1
    assert "holds shards of another run" in capsys.readouterr().err


@pytest.mark.parametrize(
    "args, message",
    [
        (["--address", "127.0.0.1:1"], "--address go with --backend ray"),
        (["--shards", "somewhere"], "--shards go with --backend ray"),
    ],
)
def test_cluster_options_need_the_ray_backend(
    tmp_path: Path, args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert simulate(*GAMES, *args, "--db", str(tmp_path / "x.duckdb")) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "x.duckdb").exists()
