"""The summary tables (workbench/store/summary.py, docs/schema.md): stored by `workbench simulate`,
and every analysis figure the same whether read from them, rebuilt for the session because
they are stale, or built for a version-3 file that has none."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import polars as pl
import pytest

from app.cli import main
from workbench.analysis import cards, draft, drafted, economy, sets, shape
from workbench.analysis.runs import Runs
from workbench.analysis.source import in_runs, open_db, query, run_list
from workbench.analysis.stats import with_rate
from workbench.store.summary import EARLY_PICKS, SCRATCH, SUMMARY_VERSION, TABLES


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("s") / "s.duckdb"
    assert (
        main(
            [
                "simulate",
                "--games",
                "6",
                "--workers",
                "1",
                "--seed",
                "5",
                "--agents",
                "heuristic,random",
                "--db",
                str(path),
            ]
        )
        == 0
    )
    return path


def figures(path: Path) -> tuple[dict[str, pl.DataFrame], bool]:
    """Every analysis frame that reads the summaries, and whether a scratch build was needed."""
    con = open_db(path)
    try:
        out = {
            "cards": cards.card_table(Runs(con, [1])),
            "chances": cards.buy_chances(Runs(con, [1])),
            "draft": pl.concat(
                [
                    d.select("seen", "picks", "ata", "alsa")
                    for d in (
                        draft.card_picks(Runs(con, [1])),
                        draft.set_picks(Runs(con, [1])),
                        draft.card_picks(Runs(con, [1]), by_drafter=True),
                    )
                ]
            ),
            "sets": sets.win_rates(Runs(con, [1]), ["seat", "dominant", "pair", "agent"]),
            "rounds": economy.per_round(Runs(con, [1]), ["agent"]),
            "round_sums": economy.round_sums(Runs(con, [1])),
            "finals": economy.final_sums(Runs(con, [1])),
            "totals": economy.totals(Runs(con, [1]), ["board", "agent"]),
            "leads": shape.leads(Runs(con, [1])),
            "drafted_sets": drafted.set_shares(Runs(con, [1])),
            "drafted_cards": drafted.card_shares(Runs(con, [1])),
        }
        scratch = (
            con.execute(
                "SELECT count(*) FROM duckdb_databases() WHERE database_name = ?", [SCRATCH]
            ).fetchall()[0][0]
            == 1
        )
    finally:
        con.close()
    return out, scratch


def test_simulate_stores_current_summaries(db: Path) -> None:
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT run_id, version, games FROM summaries").fetchall() == [
        (1, SUMMARY_VERSION, 6)
    ]
    seats = con.execute("SELECT count(*) FROM summary_seats").fetchall()[0][0]
    assert seats == con.execute("SELECT count(*) FROM game_seats").fetchall()[0][0]
    # every bought copy of a drafted card is counted, and only drafted cards are bought
    assert (
        con.execute("SELECT sum(bought) FROM summary_cards").fetchall()
        == con.execute("SELECT count(*) FROM events WHERE kind = 'buy'").fetchall()
    )
    con.close()
    _, scratch = figures(db)
    assert not scratch


@pytest.mark.parametrize("how", ["stale", "other version", "version 3"])
def test_figures_are_the_same_when_the_summaries_are_built_on_read(
    db: Path, tmp_path: Path, how: str
) -> None:
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
    db: Path, tmp_path: Path
) -> None:
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
        a = cards.card_results(Runs(first, [1]))
        b = cards.card_results(Runs(second, [1]))
    finally:
        first.close()
        second.close()
    assert a.height > 0 and a.equals(b)


def _picks_from_events(runs: list[int]) -> str:
    """The event-level definition drafted.py used before it read the summaries (the reference):
    one row per drafted copy, bought when its seat's buys of the card reach its copy number."""
    ev = in_runs("game_id", runs)
    return f"""
    WITH g AS (SELECT game_id, board FROM games WHERE run_id IN ({run_list(runs)})),
    p AS (
        SELECT game_id, player, card, pick,
               pick - min(pick) OVER (PARTITION BY game_id, player, pack_round) + 1 AS in_pack,
               row_number() OVER (PARTITION BY game_id, player, card ORDER BY pick) AS copy
        FROM picks WHERE {ev}),
    b AS (
        SELECT game_id, player, card, count(*) AS n FROM events
        WHERE kind = 'buy' AND {ev} GROUP BY ALL),
    names AS (
        SELECT name, any_value("set") AS "set" FROM run_cards
        WHERE run_id IN ({run_list(runs)}) GROUP BY ALL)
    SELECT g.board, coalesce(n."set", '?') AS "set", p.card, p.game_id, p.player, p.pick,
           p.in_pack, p.copy <= coalesce(b.n, 0) AS bought
    FROM p JOIN g USING (game_id) LEFT JOIN b USING (game_id, player, card)
    LEFT JOIN names n ON n.name = p.card"""


def test_drafted_tables_equal_the_event_level_definition(db: Path) -> None:
    """drafted.set_shares and card_shares from summary_cards (early picks and their buys counted
    per copy when the summary is built) equal the old queries over picks and buy events."""
    con = open_db(db)
    try:
        sets_new, cards_new = (
            drafted.set_shares(Runs(con, [1])),
            drafted.card_shares(Runs(con, [1])),
        )
        old = _picks_from_events([1])
        sets_old = query(
            con,
            f"""
        WITH d AS ({old})
        SELECT board, "set", count(*) AS picks,
               count(*) FILTER (WHERE NOT bought) AS never_bought,
               count(*) FILTER (WHERE in_pack <= {EARLY_PICKS}) AS early_picks,
               count(*) FILTER (WHERE in_pack <= {EARLY_PICKS} AND NOT bought)
                   AS early_never_bought
        FROM d GROUP BY ALL ORDER BY board, "set"
        """,
        )
        cards_old = query(
            con,
            f"""
        WITH d AS ({old}),
        seat AS (
            SELECT board, "set", card, game_id, player, bool_or(bought) AS bought,
                   count(*) AS picks, count(*) FILTER (WHERE bought) AS copies,
                   sum(pick) AS pick_sum
            FROM d GROUP BY ALL),
        n AS (SELECT board, count(*) AS games FROM games WHERE run_id = 1 GROUP BY ALL)
        SELECT board, card, "set", any_value(n.games) AS games,
               count(DISTINCT game_id) AS games_drafted, count(*) AS seats_drafted,
               count(*) FILTER (WHERE bought) AS seats_bought, sum(picks) AS picks,
               sum(copies) AS copies_bought, sum(pick_sum) / sum(picks) AS ata
        FROM seat JOIN n USING (board) GROUP BY ALL ORDER BY board, card
        """,
        )
    finally:
        con.close()
    sets_old = with_rate(
        with_rate(sets_old, "never_bought", "picks", "never_bought_share"),
        "early_never_bought",
        "early_picks",
        "early_never_bought_share",
    )
    assert sets_new.equals(sets_old)
    assert cards_new.select(cards_old.columns).equals(cards_old)  # the rest derive from these
    # the run exercises the crediting: early copies bought and not, cards bought and not
    totals = sets_old.select(
        pl.col("early_picks", "early_never_bought", "picks", "never_bought").sum()
    ).row(0)
    assert 0 < totals[1] < totals[0] < totals[2] and 0 < totals[3] < totals[2]


def test_a_file_from_summary_version_1_gains_the_new_columns_and_takes_a_new_run(
    db: Path, tmp_path: Path
) -> None:
    """A file written before summary_cards had early_picks and early_bought: a new run stores
    current summaries in it, and the old run's figures are rebuilt on read as before."""
    stored, _ = figures(db)
    copy = tmp_path / "old.duckdb"
    shutil.copy(db, copy)
    con = duckdb.connect(str(copy))
    con.execute("ALTER TABLE summary_cards DROP COLUMN early_picks")
    con.execute("ALTER TABLE summary_cards DROP COLUMN early_bought")
    con.execute("UPDATE summaries SET version = 1")
    con.close()
    assert (
        main(
            [
                "simulate",
                "--games",
                "2",
                "--workers",
                "1",
                "--seed",
                "6",
                "--agents",
                "heuristic,random",
                "--db",
                str(copy),
            ]
        )
        == 0
    )
    con = duckdb.connect(str(copy), read_only=True)
    assert con.execute("SELECT run_id, version FROM summaries ORDER BY run_id").fetchall() == [
        (1, 1),
        (2, SUMMARY_VERSION),
    ]
    assert (
        con.execute("SELECT sum(early_picks) FROM summary_cards WHERE game_id >= 2e9").fetchall()[
            0
        ][0]
        > 0
    )
    con.close()
    rebuilt, scratch = figures(copy)
    assert scratch
    for name, frame in stored.items():
        assert frame.equals(rebuilt[name]), name
