"""The analysis context (workbench/analysis/runs.py): a report or a comparison asks for the
summary tables once, a narrowed context asks for none, a shared table is computed once per
context, and a context made earlier on the same connection still reads its runs after a later
one made a scratch database shadow the file's tables."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from app.cli import main
from tests.test_metrics_fixture import build
from workbench.analysis import cards, verdicts
from workbench.analysis.runs import Runs
from workbench.analysis.source import open_db
from workbench.store import open_store, summary


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """The runs of every call to summary.ensure from now on (each call still does its work)."""
    calls: list[list[int]] = []
    ensure = summary.ensure

    def counted(con: duckdb.DuckDBPyConnection, runs: Sequence[int]) -> None:
        calls.append(sorted(runs))
        ensure(con, runs)

    monkeypatch.setattr(summary, "ensure", counted)
    return calls


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """The hand-built runs 1 and 2 (no summaries in the file: the reader builds them), run 1
    with a design arm recorded, so it is its own design run and its cards go the causal way."""
    path = build(tmp_path / "r.duckdb", runs=2)
    con = duckdb.connect(str(path))
    con.execute("INSERT INTO assignments VALUES (1000000000, 1, 0, 'a1', 'forced')")
    con.close()
    return path


def test_a_report_asks_for_the_summaries_once(
    db: Path, tmp_path: Path, asked: list[list[int]]
) -> None:
    """The whole balance report of runs 1 and 2 (findings, every section, the causal verdicts
    of design run 1): one call, for both runs."""
    assert (
        main(["report", "--db", str(db), "--run", "1", "--run", "2", "--out", str(tmp_path)]) == 0
    )
    assert asked == [[1, 2]]
    judged = pl.read_csv(tmp_path / "tables" / "card_verdicts.csv")
    assert set(judged.get_column("estimator")) == {"randomised buying (run 1)"}


def test_a_comparison_asks_for_the_summaries_once(
    db: Path, tmp_path: Path, asked: list[list[int]]
) -> None:
    assert main(["compare", "--db", str(db), "--out", str(tmp_path), "1", "2"]) == 0
    assert asked == [[1, 2]]


def test_a_narrowed_context_asks_for_nothing_and_keeps_to_its_runs(
    db: Path, asked: list[list[int]]
) -> None:
    """Narrowed to run 2 it reads run 2 alone, with the same thresholds and design runs, and
    refuses a run whose summaries the context did not ensure."""
    con = open_db(db)
    try:
        both = Runs(con, [1, 2])
        one = both.of([2])
        assert (one.runs, one.th, one.design) == ([2], both.th, [1])
        # a1 was drafted in 4 seat-games of each run (tests/test_metrics.py)
        in_store = {
            len(r.runs): cards.card_results(r).filter(pl.col("card") == "a1").item(0, "in_store")
            for r in (both, one)
        }
        assert in_store == {2: 8, 1: 4}
        with pytest.raises(ValueError, match="run 3 is not among the runs"):
            both.of([2, 3])
    finally:
        con.close()
    assert asked == [[1, 2]]


def test_a_shared_table_is_computed_once_per_context(db: Path) -> None:
    """The verdicts the findings and the cards section both read are one frame; a new context
    computes its own, equal to it."""
    con = open_db(db)
    try:
        r = Runs(con, [1])
        first = verdicts.card_verdicts(r)
        assert verdicts.card_verdicts(r) is first
        again = verdicts.card_verdicts(Runs(con, [1]))
        assert again is not first
        assert_frame_equal(again, first)
    finally:
        con.close()


def test_an_earlier_context_still_reads_its_runs_after_a_later_one_made_a_scratch(
    tmp_path: Path,
) -> None:
    """Run 1's summaries are current in the file, run 2's are not: the context of run 1 reads
    the file's tables; the context of run 2 then attaches a scratch database that shadows them
    for the whole connection, and must give it run 1 too."""
    path = build(tmp_path / "s.duckdb", runs=2)
    con = open_store(path)
    summary.write(con, 1)
    con.close()
    con = open_db(path)
    try:
        one = Runs(con, [1])
        before = cards.card_results(one)
        Runs(con, [2])
        scratch = con.execute(
            "SELECT count(*) FROM duckdb_databases() WHERE database_name = ?", [summary.SCRATCH]
        ).fetchall()[0][0]
        assert scratch == 1
        assert before.height == 4
        assert_frame_equal(cards.card_results(one), before)
    finally:
        con.close()
