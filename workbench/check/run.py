"""Checking a whole store: per run, the bulk checks in SQL, then every game's events walked in
batches through the rule modules.
"""

from __future__ import annotations

import bisect
import json
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from engine.board import Board
from workbench.check import (
    capture,
    combat,
    draft,
    markers,
    movement,
    ranges,
    resource,
    turn,
    tyrant,
    victory,
)
from workbench.check.core import APPLY, Events, GameCheck, GameInfo, Hook, Violation
from workbench.check.table import Table
from workbench.store.files import NotAStore, OtherVersion, StoreError
from workbench.store.files import open_read_only as store_read_only
from workbench.store.keys import GAME_ID_BASE, READ_VERSIONS
from workbench.store.stored import stored_board, stored_cards

MODULES = (draft, turn, resource, movement, ranges, combat, markers, capture, victory, tyrant)
"""The rule groups, in the order their hooks see each event."""

BATCH = 400
"""Games whose events are read at once (a few MB of columns)."""


def _merge(name: str) -> dict[str, tuple[Hook, ...]]:
    hooks: dict[str, list[Hook]] = {}
    for m in MODULES:
        for kind, fns in getattr(m, name).items():
            hooks.setdefault(kind, []).extend(fns)
    return {k: tuple(v) for k, v in hooks.items()}


BEFORE = _merge("BEFORE")
AFTER = _merge("AFTER")


def _steps() -> dict[str, tuple[Hook, ...]]:
    """Per event kind everything that runs, in order: the checks that look before the table
    changes, the change, the checks that look after (one lookup per event)."""
    kinds = set(BEFORE) | set(AFTER) | set(APPLY)
    return {
        k: (*BEFORE.get(k, ()), *((APPLY[k],) if k in APPLY else ()), *AFTER.get(k, ()))
        for k in kinds
    }


STEPS = _steps()


class CheckError(Exception):
    """A store or run that cannot be checked; the message is for the user."""


@dataclass
class Report:
    """What `check` found."""

    runs: list[int] = field(default_factory=list)
    games: int = 0
    events: int = 0
    skipped: int = 0
    """Games stored without events (log_events off): nothing to re-check."""
    seconds: float = 0.0
    violations: list[Violation] = field(default_factory=list)

    def counts(self) -> list[tuple[str, int]]:
        """Violations per rule id, in rule order (R3.3 before R12.7)."""
        c = Counter(v.rule for v in self.violations)
        return sorted(c.items(), key=lambda kv: [int(n) for n in kv[0][1:].split(".")])


def open_read_only(path: Path) -> duckdb.DuckDBPyConnection:
    """The store, opened so that nothing can be written; CheckError if it is not one."""
    if not path.is_file():
        raise CheckError(f"no database file {path}")
    try:
        return store_read_only(path, READ_VERSIONS)
    except NotAStore:
        raise CheckError(f"{path} is not a workbench store (no schema_info table)") from None
    except OtherVersion as exc:
        raise CheckError(
            f"{path} has store schema version {exc.named}; check reads versions "
            f"{' and '.join(READ_VERSIONS)} only (events need their card ids): simulate again"
        ) from None
    except StoreError as exc:
        raise CheckError(str(exc)) from exc


def check_store(path: Path, run: int | None = None) -> Report:
    """Re-check every stored game of `run` (default: every run) from its events alone."""
    con = open_read_only(path)
    try:
        known = [r[0] for r in con.execute("SELECT run_id FROM runs ORDER BY 1").fetchall()]
        if run is not None and run not in known:
            raise CheckError(
                f"no run {run} in {path}; runs: {', '.join(map(str, known)) or 'none'}"
            )
        report = Report(runs=[run] if run is not None else known)
        start = time.perf_counter()
        for r in report.runs:
            _check_run(con, r, report)
        report.seconds = time.perf_counter() - start
        report.violations.sort(key=lambda v: (v.game_id, v.seq, v.rule))
        return report
    finally:
        con.close()


def _check_run(con: duckdb.DuckDBPyConnection, run_id: int, report: Report) -> None:
    catalog, pool = stored_cards(con, run_id)
    cards = {c.name.casefold(): c for c in catalog}
    row = con.execute("SELECT params FROM runs WHERE run_id = ?", [run_id]).fetchone()
    params = json.loads(row[0] if row and row[0] else "{}")
    rules = draft.DraftRules(
        int(params.get("pack_size", 10)),
        int(params.get("draft_target", 25)),
        bool(params.get("alternate_pass", False)),
        sum(c.copies for c in pool if c.buy is not None),
    )
    games = con.execute(
        "SELECT game_id, board, players, winners, guard_stopped, events "
        "FROM games WHERE run_id = ? ORDER BY game_id",
        [run_id],
    ).fetchall()
    boards: dict[str, Board] = {b: stored_board(con, run_id, b) for b in {g[1] for g in games}}
    low, high = run_id * GAME_ID_BASE, (run_id + 1) * GAME_ID_BASE - 1
    report.violations += turn.buys_per_turn(con, low, high)
    report.violations += resource.balances(con, low, high)
    report.violations += draft.check_picks(
        con, low, high, rules, {g[0]: g[2] for g in games}, cards
    )
    with_events = [g for g in games if g[5]]
    report.skipped += len(games) - len(with_events)
    report.games += len(with_events)
    for b in range(0, len(with_events), BATCH):
        batch = with_events[b : b + BATCH]
        ev = _events(con, batch[0][0], batch[-1][0])
        report.events += len(ev)
        lo = 0
        for gid, board, players, winners, guard, _ in batch:
            hi = bisect.bisect_right(ev.game_id, gid, lo)
            info = GameInfo(
                gid, boards[board], cards, players, tuple(winners or ()), bool(guard), rules.packs
            )
            report.violations += walk(ev, info, lo, hi)
            lo = hi


def _events(con: duckdb.DuckDBPyConnection, first: int, last: int) -> Events:
    table = con.sql(
        f"SELECT {', '.join(Events.COLUMNS)} FROM events "
        f"WHERE game_id BETWEEN {first:d} AND {last:d} ORDER BY game_id, seq"
    ).to_arrow_table()
    return Events({name: table.column(name).to_pylist() for name in Events.COLUMNS})


def walk(ev: Events, info: GameInfo, lo: int, hi: int) -> list[Violation]:
    """One game's events [lo, hi) in order: each kind's hooks before and after the table
    follows it."""
    g = GameCheck(ev, info, Table(info.board, info.cards, info.players))
    kinds, steps, nothing = ev.kind, STEPS, ()
    for i in range(lo, hi):
        g.i = i
        for step in steps.get(kinds[i], nothing):
            step(g, i)
    return g.violations


__all__ = ["CheckError", "Report", "check_store", "walk"]
