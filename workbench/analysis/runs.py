"""The runs an analysis reads, as one object: `Runs(con, runs)` owns the connection and the
runs' ids, the thresholds that judge them and the design runs that judge their cards; it makes
the summary tables answer for all of them once, when it is made, and keeps every table marked
`@cached` for its life, so the report's sections and findings share one computation of each.

Every analysis function over runs takes it (`cards.card_table(r)`, `sets.win_rates(r, ["seat"])`)
instead of a bare connection and a list of ids, so none of them has to make sure the summaries
are there. In a notebook:

    con = open_db("runs.duckdb")
    r = Runs(con, resolve_runs(con, None))
    cards.card_table(r)

The functions here that take a connection find runs before any context exists (the report
checks its --causal-run with them; a context finds its design runs).
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Sequence
from typing import TypeVar, cast

import duckdb

from workbench.analysis.severity import Thresholds
from workbench.analysis.source import run_list
from workbench.store import summary

T = TypeVar("T")

_ASKED = weakref.WeakKeyDictionary[duckdb.DuckDBPyConnection, set[int]]()
"""Per connection, every run a context has asked summaries for. Each new context asks for them
all again: a scratch database it makes summary.ensure attach shadows the file's tables for the
whole connection, so it must hold the runs of the contexts made before too."""


class Runs:
    """The context of an analysis: `con`, `runs`, `th`, `design` (the design runs judging the
    cards: those given, else `companion_runs`) and `skill` (runs of the same setup played by
    other agents, set beside these by stability.across_skill). Made once per report or
    command; `of` narrows it to some of its runs without a second look at the summaries."""

    def __init__(
        self,
        con: duckdb.DuckDBPyConnection,
        runs: Sequence[int],
        th: Thresholds | None = None,
        design: Sequence[int] = (),
        skill: Sequence[int] = (),
    ) -> None:
        self.con = con
        self.runs = list(runs)
        self.th = th if th is not None else Thresholds()
        self.design = list(design) or companion_runs(con, self.runs)
        self.skill = list(skill)
        self.ensured = frozenset((*self.runs, *self.design, *self.skill))
        """The runs whose summary tables this context made answer (`of` keeps to them)."""
        self._tables: dict[Callable[[Runs], object], object] = {}
        asked = _ASKED.setdefault(con, set())
        asked |= self.ensured
        summary.ensure(con, sorted(asked))

    def of(self, runs: Sequence[int]) -> Runs:
        """The same analysis (connection, thresholds, design runs) over some of the runs this
        context ensured: one side of a comparison, a player's runs, the design runs."""
        if not set(runs) <= self.ensured:
            raise ValueError(
                f"run {run_list(sorted(set(runs) - self.ensured))} is not among the runs "
                f"this context ensured ({run_list(sorted(self.ensured))})"
            )
        narrowed = object.__new__(Runs)
        narrowed.con, narrowed.runs, narrowed.th = self.con, list(runs), self.th
        narrowed.design, narrowed.skill, narrowed.ensured = self.design, [], self.ensured
        narrowed._tables = {}
        return narrowed

    @functools.cached_property
    def _counts(self) -> tuple[int, int, int]:
        ids = run_list(self.runs)
        row = self.con.execute(
            f"""SELECT (SELECT count(DISTINCT board) FROM games WHERE run_id IN ({ids})),
                       count(DISTINCT agent), count(DISTINCT drafter)
                FROM game_seats WHERE run_id IN ({ids})"""
        ).fetchall()[0]
        return int(row[0]), int(row[1]), int(row[2])

    @property
    def boards(self) -> int:
        """Boards played: a split by board is shown only when there are several."""
        return self._counts[0]

    @property
    def agents(self) -> int:
        return self._counts[1]

    @property
    def drafters(self) -> int:
        return self._counts[2]

    @property
    def by_board(self) -> list[str]:
        """The board as a key column when the runs play several, else none."""
        return ["board"] if self.boards > 1 else []


def cached(table: Callable[[Runs], T]) -> Callable[[Runs], T]:
    """Mark a table of the runs that several readers share: computed on the first call for a
    context and kept with it (a new context, or one narrowed by `of`, computes its own)."""

    @functools.wraps(table)
    def kept(r: Runs) -> T:
        if table not in r._tables:
            r._tables[table] = table(r)
        return cast(T, r._tables[table])

    return kept


def has_design(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether the file has the `assignments` table (a file written before it existed has
    no design runs). Asked of every database but the summaries' scratch one, which becomes
    the current database once summary.ensure has attached it."""
    return bool(
        con.execute(
            "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'assignments' "
            "AND database_name <> ? AND NOT internal",
            [summary.SCRATCH],
        ).fetchall()[0][0]
    )


def design_runs(con: duckdb.DuckDBPyConnection, runs: Sequence[int]) -> list[int]:
    """Those of `runs` whose games carry the randomised buying design's arms (causal.py)."""
    if not runs or not has_design(con):
        return []
    return [
        int(r[0])
        for r in con.execute(
            f"SELECT DISTINCT run_id FROM assignments WHERE run_id IN ({run_list(runs)}) ORDER BY 1"
        ).fetchall()
    ]


def companion_runs(con: duckdb.DuckDBPyConnection, runs: Sequence[int]) -> list[int]:
    """The design runs that can judge the cards of `runs`: `runs` themselves if they played
    the design, else every other run of the file that did, with the same sets, boards and
    content (runs.content_hash: the same cards, numbers and changes)."""
    own = design_runs(con, runs)
    if own or not has_design(con):
        return own
    found = con.execute(
        f"""SELECT DISTINCT r.run_id FROM runs r
            JOIN runs me ON me.sets = r.sets AND me.boards = r.boards
                        AND me.content_hash = r.content_hash
            WHERE me.run_id IN ({run_list(runs)}) AND r.run_id NOT IN ({run_list(runs)})
              AND r.run_id IN (SELECT DISTINCT run_id FROM assignments)
            ORDER BY 1"""
    ).fetchall()
    return [int(r[0]) for r in found]
