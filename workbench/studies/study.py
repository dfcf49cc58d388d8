"""Studies: several variant runs of one setup played on the same seeds, grouped in `sweeps`.

A variant is an ordinary run whose spec carries changes (`RunSpec.changes`) or other agents.
Every variant keeps the base seed, so game i of each variant starts from the same draft shuffle,
seats and dice: differences between variants are not drowned by luck (paired). `independent`
gives each variant its own seed instead, for measuring what pairing is worth.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import duckdb
from rich.console import Console

from workbench.content.variants import Change
from workbench.play.jobs import Job, create_prepared_run, prepare
from workbench.play.pool import WorkerPool
from workbench.play.runner import Executor, execute
from workbench.play.shards import Cluster
from workbench.store import RunSpec, open_store, set_execution


@dataclass(frozen=True)
class Variant:
    """One run of a study: its label, the changes on top of the base, its value on the x axis,
    and another agent for every seat (skill studies) if any."""

    label: str
    changes: tuple[Change, ...] = ()
    value: int | None = None
    agents: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Study:
    """The stored study: its id and each variant with its run."""

    sweep_id: int
    kind: str
    card: str
    field: str
    runs: tuple[tuple[Variant, int], ...]

    @property
    def run_ids(self) -> list[int]:
        return [r for _, r in self.runs]


def variant_spec(
    base: RunSpec, kind: str, variant: Variant, index: int, independent: bool
) -> RunSpec:
    """The base spec with the variant's changes, agents and label (and seed if independent)."""
    agents = variant.agents * base.players if variant.agents else base.agents
    return dataclasses.replace(
        base,
        changes=base.changes + variant.changes,
        agents=agents,
        drafters=agents if variant.agents else base.drafters,
        label=f"{kind} {variant.label}",
        seed=base.seed + 7919 * index if independent else base.seed,
    )


def run_study(
    db: str | Path,
    base: RunSpec,
    kind: str,
    card: str,
    field: str,
    variants: Sequence[Variant],
    workers: int,
    console: Console,
    backend: str = "local",
    independent: bool = False,
    extend: Study | None = None,
    reuse: Mapping[str, int] | None = None,
) -> Study:
    """Play every variant into `db` and record them as one study; raises as `prepare` does
    (every variant is loaded before the first game, so a bad value costs no games).

    `extend`: add the variants to that study (same id; a sweep widened after the fact).
    `reuse`: variant label -> a run already in `db` that played exactly this variant (the
    judging run of `tune` is the sweep's current value): recorded, not played again."""
    done = len(extend.runs) if extend else 0
    specs = [variant_spec(base, kind, v, done + i, independent) for i, v in enumerate(variants)]
    prepared = [prepare(s) for s in specs]
    reuse = reuse or {}
    con = open_store(db)
    # one start-up for all variants
    executor: Executor = WorkerPool(workers) if backend == "local" else Cluster(None, workers)
    try:
        sweep_id = extend.sweep_id if extend else _next_sweep_id(con)
        runs = list(extend.runs) if extend else []
        for v, spec, prep in zip(variants, specs, prepared, strict=True):
            reused = v.label in reuse
            run_id = (
                reuse[v.label] if reused else create_prepared_run(con, spec, prep, backend, workers)
            )
            con.execute(
                "INSERT INTO sweeps VALUES (?, ?, ?, ?, ?, ?, ?)",
                [sweep_id, kind, run_id, card, field, v.value, v.label],
            )
            if reused:
                console.print(
                    f"{kind} {sweep_id}: run {run_id} = {v.label} (already played)", highlight=False
                )
            else:
                console.print(f"{kind} {sweep_id}: run {run_id} = {v.label}", highlight=False)
                set_execution(con, run_id, backend, workers)
                job = Job(run_id, spec, prep.configs)
                execute(con, job, range(spec.games), executor, console)
            runs.append((v, run_id))
    finally:
        if isinstance(executor, WorkerPool):
            executor.close()
        con.close()
    return Study(sweep_id, kind, card, field, tuple(runs))


def _next_sweep_id(con: duckdb.DuckDBPyConnection) -> int:
    """A new study's id: one above the database's last."""
    return int(con.execute("SELECT coalesce(max(sweep_id), 0) + 1 FROM sweeps").fetchall()[0][0])


def record_results(
    db: str | Path,
    sweep_id: int,
    rows: Sequence[tuple[str, str, float | None, float | None, float | None, str]],
) -> None:
    """Store a study's conclusions: (card, quantity, estimate, low, high, note) rows."""
    con = open_store(db)
    try:
        con.executemany(
            "INSERT INTO sweep_results VALUES (?, ?, ?, ?, ?, ?, ?)", [[sweep_id, *r] for r in rows]
        )
    finally:
        con.close()
