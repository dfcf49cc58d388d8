"""Parallel efficiency: the command imports only what it runs, workers start
before they are needed and finish together, and none of it changes what a run stores."""

from __future__ import annotations

import pickle
import subprocess
import sys
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor, Future, wait
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pytest

from app import consoles
from app.cli import build_parser
from tests.findings_fixture import Game, build
from workbench.analysis.interval import wilson
from workbench.analysis.stats import proportion_ci
from workbench.content.setup import DEFAULT_BOARD, DEFAULT_SETS
from workbench.play.jobs import BATCH_GAMES, Batch, Job, prepare
from workbench.play.pool import WorkerPool, chunks
from workbench.play.runner import seat_verdict, summary
from workbench.store import GAME_TABLES, RunSpec
from workbench.studies import abgames
from workbench.studies.study import variant_spec
from workbench.studies.sweep import card_variants

REPO = Path(__file__).resolve().parent.parent
SPEC = RunSpec(DEFAULT_SETS, (DEFAULT_BOARD,), 6, 2, ("random",) * 2, ("random",) * 2, 11)


def test_a_command_imports_its_own_module_and_no_plotting_or_statistics_library() -> None:
    """`simulate --help` (and so every simulate) leaves matplotlib, scipy and polars unloaded:
    they cost a second of import and exit that a 2-worker run pays as much as a 1-worker run."""
    code = (
        "import sys\n"
        "from app.cli import main\n"
        "try:\n"
        "    main(['simulate', '--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout
    modules = set(out.splitlines()[-1].split())
    assert "app.cmd_simulate" in modules
    assert not {m for m in modules if m.startswith("app.cmd_")} - {"app.cmd_simulate"}
    assert not {m.split(".")[0] for m in modules} & {"matplotlib", "scipy", "polars", "reports"}


def test_the_parser_of_one_command_reads_its_line_as_the_full_parser_does() -> None:
    line = ["simulate", "--games", "5", "--workers", "2", "--db", "x.duckdb", "--seed", "-1"]
    assert build_parser("simulate").parse_args(line) == build_parser().parse_args(line)


@pytest.mark.parametrize("games, workers", [(400, 2), (400, 1), (37, 4), (1, 2), (0, 2)])
def test_batches_cover_every_game_once_and_shrink_to_single_games(games: int, workers: int) -> None:
    """Guided batches: the last batches are single games, so no worker plays a whole batch
    alone at the end of a run while the others wait."""
    batches = chunks(range(games), workers)
    assert [i for b in batches for i in b] == list(range(games))
    sizes = [len(b) for b in batches]
    assert all(0 < s <= BATCH_GAMES for s in sizes)
    assert sizes == sorted(sizes, reverse=True)
    assert sizes[-2 * workers :] == [1] * min(games, 2 * workers)
    if games == 400:
        assert sizes[0] == BATCH_GAMES


def rows(batches: Iterable[Batch]) -> dict[str, list[str]]:
    """Every game table's rows, in a canonical order (batches come in any order and size)."""
    out: dict[str, list[str]] = {t: [] for t in GAME_TABLES}
    games = 0
    for n, tables in batches:
        games += n
        for t in GAME_TABLES:
            out[t] += [repr(sorted(r.items())) for r in tables[t].to_pylist()]
    assert games == SPEC.games
    return {t: sorted(v) for t, v in out.items()}


@pytest.mark.parametrize("fork", [False, True])
def test_early_started_workers_and_this_process_while_they_start_store_the_same_games(
    fork: bool,
) -> None:
    """A pool's workers start when it is made (spawned, or forked); while they start, this
    process plays the last batches itself. Whoever plays a game, its rows are the same as one
    process's."""
    job = Job(1, SPEC, prepare(SPEC).configs)
    reference = rows(WorkerPool(1).stream([(job, range(SPEC.games))]))
    with WorkerPool(2, fork=fork) as ready:
        wait(ready.starting)
        assert rows(ready.stream([(job, range(SPEC.games))])) == reference
    with WorkerPool(2) as starting:
        starting.starting = [Future()]  # never started: this process plays all it can
        assert rows(starting.stream([(job, range(SPEC.games))])) == reference


def test_the_closing_summarys_interval_is_scipys_wilson_interval() -> None:
    for n in (1, 2, 7, 30, 401):
        for k in range(n + 1):
            assert wilson(k, n) == pytest.approx(proportion_ci(k, n), abs=1e-12)


def test_the_closing_summary_sets_each_seat_beside_its_even_share(tmp_path: Path) -> None:
    """100 games, seat 1 wins 30, seat 2 wins 50, 20 draws. An even game
    gives each seat (1 - 0.2) / 2 = 40%, not 50%: seat 1 at 30% (21.9-39.6%) is behind and
    seat 2 at 50% (40.4-59.6%) ahead, each interval excluding 40% but not the band's edge
    (medium, as the report's seat finding says it); 38% of 100 would be even."""
    games = [Game([0])] * 30 + [Game([1])] * 50 + [Game([])] * 20
    db = build(tmp_path / "s.duckdb", games)
    con = duckdb.connect(str(db))
    try:
        out = consoles.console()
        with out.capture() as captured:
            out.print(summary(con, 1, str(db)))
    finally:
        con.close()
    lines = [" ".join(line.replace("│", " ").split()) for line in captured.get().splitlines()]
    assert "seat 1 30 30.0% 21.9% – 39.6% 40.0% behind (medium)" in lines
    assert "seat 2 50 50.0% 40.4% – 59.6% 40.0% ahead (medium)" in lines
    assert seat_verdict(0.38, 0.285, 0.48, 0.4, 100) == "even"
    assert seat_verdict(0.2, 0.1, 0.3, 0.4, 20) == "behind (low)"


@pytest.mark.parametrize(
    "fork",
    [False, pytest.param(True, marks=pytest.mark.skipif(sys.platform != "linux", reason="Linux"))],
)
def test_a_forking_pool_forks_its_workers_a_spawning_one_spawns_them(fork: bool) -> None:
    """Forked workers have what their parent had when the pool was made (here a marker
    module), ready without importing; spawned ones start afresh."""
    code = (
        "import sys\n"
        "from workbench.play.runner import WorkerPool\n"
        "sys.modules['parents_marker'] = sys\n"
        f"with WorkerPool(2, fork={fork}) as pool:\n"
        "    probe = \"'parents_marker' in __import__('sys').modules\"\n"
        "    assert pool.executor is not None\n"
        "    print(pool.executor.submit(eval, probe).result())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout
    assert out.split() == [str(fork)]


def _burn(seconds: float) -> float:
    """Spend `seconds` of CPU time in a worker."""
    import time

    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
    return seconds


def test_a_pool_closed_with_wait_counts_its_workers_cpu_time() -> None:
    """`workbench ab` prints the CPU time of the study with its workers' (RUSAGE_CHILDREN),
    which counts a worker only once it is joined: a pool closed with `wait` joins them."""
    import resource

    def children() -> float:
        u = resource.getrusage(resource.RUSAGE_CHILDREN)
        return u.ru_utime + u.ru_stime

    before = children()
    pool = WorkerPool(2)
    assert pool.executor is not None
    assert sum(f.result() for f in [pool.executor.submit(_burn, 0.3) for _ in range(2)]) == 0.6
    pool.close(wait=True)
    assert children() - before >= 0.55


class Pickling(Executor):
    """Runs each task here as a worker process receives it: its function and arguments
    pickled and unpickled."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        fn, args, kwargs = pickle.loads(pickle.dumps((fn, args, kwargs)))
        done: Future[Any] = Future()
        done.set_result(fn(*args, **kwargs))
        return done


_PLAYED: list[tuple[Job, str]] = []
"""The jobs and cards `_counts` was given."""


def _counts(job: Job, card: str, indices: Sequence[int], store: bool) -> abgames.Played:
    """abgames.play_counts as far as the test needs: what it was given, noted; no games."""
    _PLAYED.append((job, card))
    return list(indices), np.zeros((4, len(indices))), None


def test_every_task_of_a_study_plays_the_objects_its_worker_has(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An A/B study sends every chunk of games pickled: a worker plays every task of a value
    with the job it unpickled first, and both values with the same object for every card they
    share (the card it loaded, engine.cards.interned) and one board geometry (the one loaded,
    engine.geometry.geometry_of), so the caches keyed by cards and geometries find them by
    identity instead of comparing every field or starting afresh."""
    played = _PLAYED
    played.clear()
    monkeypatch.setattr(abgames, "play_counts", _counts)
    specs = [
        variant_spec(SPEC, "ab", v, i, False)
        for i, v in enumerate(card_variants("Legionary", "buy", [2, 3]))
    ]
    jobs = [Job(0, s, prepare(s).configs) for s in specs]
    abgames.Games(Pickling(), 1, jobs, "Legionary", 1).upto(3, 3)
    assert len(played) == 6 and {card for _, card in played} == {"Legionary"}
    a, b = ({id(job) for job, _ in played[v::2]} for v in (0, 1))
    assert len(a) == len(b) == 1 and a != b
    loaded = next(iter(jobs[0].configs.values())).catalog
    catalogs = [next(iter(job.configs.values())).catalog for job in (played[0][0], played[1][0])]
    for name, card in loaded.items():
        if name != "legionary":
            assert all(catalog[name] is card for catalog in catalogs)
    assert catalogs[0]["legionary"].buy == 2 and catalogs[1]["legionary"].buy == 3
    geometries = {id(config.geometry) for job, _ in played for config in job.configs.values()}
    assert len(geometries) == 1
