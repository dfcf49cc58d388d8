"""Tuning a set (`workbench tune`): judge its cards by their causal effect in a run of the
randomised buying design, search each flagged card's costs (workbench/studies/tune.py), choose
per card the cost to change, and write a marked copy of the set's spreadsheet."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import polars as pl
from rich.console import Console

from engine.cards import Card
from workbench.analysis import causal, verdicts
from workbench.analysis.runs import companion_runs
from workbench.analysis.source import open_db, resolve_runs
from workbench.content.proposals import Proposal, write_copy
from workbench.content.setup import load_setup
from workbench.play.jobs import Job, create_prepared_run, prepare
from workbench.play.pool import WorkerPool
from workbench.play.runner import execute
from workbench.store import RunSpec, load_run, open_store
from workbench.studies.tune import FLOOR, CardTuning, Probe, flag, tune_card

DESIGN = "factorial"
"""The judging run's and every probe's agent: the randomised buying design."""


@dataclass(frozen=True)
class SetTuning:
    """A tuned set: the judging run, the band, its cards judged (`flag`), every card and field
    searched, the marked copy (None without a proposal) and the set's cards never drafted."""

    run_id: int
    band: tuple[float, float]
    flagged: pl.DataFrame
    tunings: list[CardTuning]
    copy: Path | None
    unseen: list[str]


def tune_set(
    db: str,
    out: Path,
    base: RunSpec,
    run_id: int | None,
    given: str,
    band: tuple[float, float],
    fields: list[str],
    probes: int,
    workers: int,
    console: Console,
    judge_games: int | None = None,
) -> SetTuning:
    """Judge the set `given` (a name or a path) in the design run `run_id` (played from `base`,
    at `judge_games` games if given, when None), search each flagged card's `fields` in turn
    (each probe at `base`'s games), and write the marked copy of the set's spreadsheet into
    `out` when there is a proposal."""
    set_name = _set_name(given, base)
    setup = load_setup(base.sets, base.boards[0])
    _check_set(setup.sets, set_name, base.sets)
    if run_id is None:
        judge = base if judge_games is None else replace(base, games=judge_games)
        run_id = _play(db, judge, workers, console)
    names = [
        c.name for s in setup.sets if s.name.casefold() == set_name.casefold() for c in s.cards
    ]
    with open_db(db) as con:
        flagged = flag(causal.card_effects(con, [run_id]), names, band)
    current = {c.name: c for s in setup.sets for c in s.cards}
    tunings = _tune_flagged(
        db, base, run_id, flagged, current, fields, band, probes, workers, console
    )
    proposals = [
        Proposal(
            t.card,
            t.field,
            t.current,
            t.current if t.proposed is None else t.proposed,
            "" if t.outcome.confirmed else t.note,
        )
        for t in _chosen(tunings)
    ]
    copy = None
    if proposals:
        copy = write_copy(_source(setup.sets, set_name), out, proposals, run_id)
    judged = set(flagged.get_column("card").to_list())
    unseen = sorted(n for n in names if n not in judged)
    return SetTuning(run_id, band, flagged, tunings, copy, unseen)


def judging_run(db: str | Path, run: int) -> tuple[RunSpec, int]:
    """The design run `run` is judged by: itself if it played the design, else its design
    companion (a design run of the same setup); with the spec the probes play."""
    with open_db(db) as con:
        resolve_runs(con, [run])
        design = companion_runs(con, [run])
        if not design:
            raise ValueError(
                f"run {run} did not play the randomised buying design and the file "
                "holds no design run of its setup: play one with `workbench simulate "
                "--design causal` and the same sets and boards, or drop --run"
            )
        spec, _, _ = load_run(con, design[0])
    return spec, design[0]


def _check_set(setup_sets: Any, name: str, sets: tuple[str, ...]) -> None:
    names = [s.name for s in setup_sets]
    if name.casefold() not in (n.casefold() for n in names):
        raise ValueError(
            f"--set {name!r} is not among the judging run's sets "
            f"({', '.join(sets)}: {', '.join(names)})"
        )


def _play(db: str | Path, spec: RunSpec, workers: int, console: Console) -> int:
    """Play the judging run (the randomised buying design) into `db`."""
    prep = prepare(spec)
    con = open_store(db)
    try:
        run_id = create_prepared_run(con, spec, prep, "local", workers)
        console.print(f"tune: judging run {run_id} ({', '.join(spec.sets)})", highlight=False)
        job = Job(run_id, spec, prep.configs)
        execute(con, job, range(spec.games), WorkerPool(workers, once=True), console)
    finally:
        con.close()
    return run_id


def _chosen(tunings: list[CardTuning]) -> list[CardTuning]:
    """Per card, the field to change: the first whose cost gets inside the band, else the first
    searched (whose note says no price gets there)."""
    best: dict[str, CardTuning] = {}
    for t in tunings:
        if t.card not in best or (t.outcome.reached and not best[t.card].outcome.reached):
            best[t.card] = t
    return list(best.values())


def _tune_flagged(
    db: str,
    base: RunSpec,
    run_id: int,
    flagged: pl.DataFrame,
    current: dict[str, Card],
    fields: list[str],
    band: tuple[float, float],
    probes: int,
    workers: int,
    console: Console,
) -> list[CardTuning]:
    """Search each flagged card's costs in the order of `fields` (largest effect first), up to
    the first cost that gets inside the band (a cost the card does not have is skipped, and so
    is one already at its floor when the card must get cheaper)."""
    tunings: list[CardTuning] = []
    flags = flagged.filter(pl.col("verdict").is_in(["too strong", "too weak"]))
    for r in flags.iter_rows(named=True):
        for field in fields:
            value = getattr(current[r["card"]], field)
            if value is None or (r["verdict"] == "too weak" and value <= FLOOR[field]):
                continue
            start = Probe(
                int(value),
                r["effect"],
                r["low"],
                r["high"],
                int(r["n"]),
                run_id,
                priced_out=verdicts.priced_out(r),
            )
            t = tune_card(
                db,
                base,
                r["card"],
                field,
                start,
                r["verdict"],
                band,
                workers,
                console,
                probes,
            )
            tunings.append(t)
            if t.outcome.reached:
                break
    return tunings


def _set_name(given: str, base: RunSpec) -> str:
    """A set given as a path is named after its file (the loader's rule)."""
    path = Path(given)
    return path.stem if path.suffix else given


def _source(sets: Any, name: str) -> Path:
    for s in sets:
        if s.name.casefold() == name.casefold():
            return Path(s.source.split("#")[0])
    raise ValueError(f"set {name!r} is not among the run's sets")
