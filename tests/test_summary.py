"""The summary tables (workbench/summary.py, docs/schema.md): stored by `workbench simulate`,
and every analysis figure the same whether read from them, rebuilt for the session because
they are stale, or built for a version-3 file that has none."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import polars as pl
import pytest

from workbench.analysis import cards, draft, economy, sets, shape
from workbench.analysis.source import open_db
from workbench.cli import main
from workbench.summary import SCRATCH, SUMMARY_VERSION, TABLES


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("s") / "s.duckdb"
    assert main(["simulate", "--games", "6", "--workers", "1", "--seed", "5",
                 "--agents", "heuristic,random", "--db", str(path)]) == 0
    return path


def figures(path: Path) -> tuple[dict[str, pl.DataFrame], bool]:
    """Every analysis frame that reads the summaries, and whether a scratch build was needed."""
    con = open_db(path)
    try:
        out = {"cards": cards.card_table(con, [1]), "chances": cards.buy_chances(con, [1]),
               "draft": pl.concat([d.select("seen", "picks", "ata", "alsa")
                                   for d in draft.draft_tables(con, [1])]),
               "sets": sets.win_rates(con, [1], ["seat", "dominant", "pair", "agent"]),
               "rounds": economy.per_round(con, [1], ["agent"]),
               "round_sums": economy.round_sums(con, [1]),
               "finals": economy.final_sums(con, [1]),
               "totals": economy.totals(con, [1], ["board", "agent"]),
               "leads": shape.leads(con, [1])}
        scratch = con.execute("SELECT count(*) FROM duckdb_databases() WHERE database_name = ?",
                              [SCRATCH]).fetchall()[0][0] == 1
    finally:
        con.close()
    return out, scratch


def test_simulate_stores_current_summaries(db: Path) -> None:
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT run_id, version, games FROM summaries").fetchall() == [
        (1, SUMMARY_VERSION, 6)]
    seats = con.execute("SELECT count(*) FROM summary_seats").fetchall()[0][0]
    assert seats == con.execute("SELECT count(*) FROM game_seats").fetchall()[0][0]
    # every bought copy of a drafted card is counted, and only drafted cards are bought
    assert con.execute("SELECT sum(bought) FROM summary_cards").fetchall() == con.execute(
        "SELECT count(*) FROM events WHERE kind = 'buy'").fetchall()
    con.close()
    _, scratch = figures(db)
    assert not scratch


@pytest.mark.parametrize("how", ["stale", "other version", "version 3"])
def test_figures_are_the_same_when_the_summaries_are_built_on_read(db: Path, tmp_path: Path,
                                                                   how: str) -> None:
    stored, _ = figures(db)
    copy = tmp_path / "copy.duckdb"
    shutil.copy(db, copy)
    con = duckdb.connect(str(copy))
    if how == "stale":  # a run resumed since: more games than the summaries cover
        con.execute("UPDATE summaries SET games = games - 1")
    elif how == "other version":
        con.execute("UPDATE summaries SET version = version + 1")
    else:
        for table in TABLES:
            con.execute(f"DROP TABLE {table}")
        con.execute("UPDATE schema_info SET value = '3' WHERE key = 'schema_version'")
    con.close()
    rebuilt, scratch = figures(copy)
    assert scratch
    for name, frame in stored.items():
        assert frame.equals(rebuilt[name]), name
    assert stored["cards"].get_column("in_store").sum() > 0


def test_two_readers_of_one_file_in_one_process_both_see_the_rebuilt_summaries(
        db: Path, tmp_path: Path) -> None:
    """DuckDB shares an attached database between the connections to one file, but not their
    search path: the second reader must read the scratch summaries too, not the stale ones."""
    copy = tmp_path / "copy.duckdb"
    shutil.copy(db, copy)
    con = duckdb.connect(str(copy))
    con.execute("DELETE FROM summary_cards")
    con.execute("UPDATE summaries SET games = games - 1")
    con.close()
    first, second = open_db(copy), open_db(copy)
    try:
        a = cards.card_results(first, [1])
        b = cards.card_results(second, [1])
    finally:
        first.close()
        second.close()
    assert a.height > 0 and a.equals(b)
