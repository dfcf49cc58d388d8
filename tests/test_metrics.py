"""Every metric against the hand-built database of test_metrics_fixture (answers by hand)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest

from tests.test_metrics_fixture import build
from workbench.analysis import cards, costs, draft, economy, sets, shape
from workbench.analysis.runs import Runs
from workbench.analysis.source import AnalysisError, open_db, resolve_runs
from workbench.store import open_store

Z = 1.959963984540054


def wilson(k: int, n: int) -> tuple[float, float]:
    """The Wilson interval written out, to check scipy's against."""
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z / (1 + Z * Z / n) * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return centre - half, centre + half


@pytest.fixture(scope="module")
def con(tmp_path_factory: pytest.TempPathFactory) -> duckdb.DuckDBPyConnection:
    return open_db(build(tmp_path_factory.mktemp("m") / "m.duckdb", runs=2))


def row(df: pl.DataFrame, **keys: Any) -> dict[str, Any]:
    for k, v in keys.items():
        df = df.filter(pl.col(k) == v)
    assert df.height == 1, f"{keys}: {df.height} rows"
    return df.row(0, named=True)


def check_rate(r: dict[str, Any], name: str, k: int, n: int) -> None:
    assert r[name] == pytest.approx(k / n)
    lo, hi = wilson(k, n)
    assert (r[f"{name}_lo"], r[f"{name}_hi"]) == pytest.approx((lo, hi))


def test_card_picks(con: duckdb.DuckDBPyConnection) -> None:
    df = draft.card_picks(Runs(con, [1]))
    expected = {  # seen, picks, ata, alsa, seen first, first picks
        "a1": (5, 4, 5 / 4, 6 / 5, 4, 3),
        "a2": (4, 4, 1.0, 1.0, 4, 4),
        "b1": (7, 4, 7 / 4, 10 / 7, 4, 1),
        "b2": (8, 4, 2.0, 12 / 8, 4, 0),
    }
    assert sorted(df.get_column("card")) == sorted(expected)
    for card, (seen, picks, ata, alsa, seen_first, first) in expected.items():
        r = row(df, card=card)
        assert (r["seen"], r["picks"], r["seen_first"], r["first_picks"]) == (
            seen,
            picks,
            seen_first,
            first,
        )
        assert (r["ata"], r["alsa"]) == pytest.approx((ata, alsa))
        check_rate(r, "pick_rate", picks, seen)
        check_rate(r, "first_pick_rate", first, seen_first)


def test_picks_by_drafter_and_set(con: duckdb.DuckDBPyConnection) -> None:
    by = draft.card_picks(Runs(con, [1]), by_drafter=True)
    # b1 for seat 0 ("random"): seen at pick 1 of all four games, taken once (game 1)
    check_rate(row(by, card="b1", drafter="random"), "pick_rate", 1, 4)
    check_rate(row(by, card="b1", drafter="heuristic"), "pick_rate", 3, 3)
    per_set = draft.set_picks(Runs(con, [1]))
    a, b = row(per_set, set="A"), row(per_set, set="B")
    check_rate(a, "pick_rate", 8, 9)
    check_rate(b, "pick_rate", 8, 15)
    assert (a["ata"], a["alsa"], b["ata"], b["alsa"]) == pytest.approx(
        (9 / 8, 10 / 9, 15 / 8, 22 / 15)
    )


def test_card_results(con: duckdb.DuckDBPyConnection) -> None:
    df = cards.card_results(Runs(con, [1]))
    a1 = row(df, card="a1")
    check_rate(a1, "wr_in_store", 3, 4)
    check_rate(a1, "wr_bought", 2, 2)
    check_rate(a1, "wr_never_bought", 1, 2)
    check_rate(a1, "wr_played", 2, 2)
    check_rate(a1, "buy_rate", 2, 4)
    assert a1["bought_gain"] == pytest.approx(0.5)
    assert a1["avg_round_bought"] == pytest.approx(1.5)
    b1 = row(df, card="b1")
    check_rate(b1, "wr_in_store", 0, 4)
    assert (b1["bought"], b1["wins_bought"], b1["avg_round_bought"]) == (2, 0, 2.0)
    assert b1["bought_gain_p"] == 1.0  # 0/2 against 0/2: nothing to tell apart
    a2 = row(df, card="a2")
    check_rate(a2, "wr_in_store", 1, 4)
    check_rate(a2, "wr_bought", 0, 1)
    check_rate(a2, "wr_never_bought", 1, 3)
    check_rate(a2, "wr_played", 0, 1)
    b2 = row(df, card="b2")
    check_rate(b2, "wr_in_store", 2, 4)
    check_rate(b2, "wr_bought", 1, 1)
    assert b2["played"] == 0 and b2["wr_played"] is None


def test_card_effects(con: duckdb.DuckDBPyConnection) -> None:
    df = cards.card_effects(Runs(con, [1]))
    # a1's attack deals 2, b1 strikes back 1, b2's effect deals 3, a collision with a2 deals 1
    dealt = dict(zip(df.get_column("card"), df.get_column("damage_dealt"), strict=True))
    assert dealt == {"a1": 2, "b1": 1, "b2": 3, "a2": 1}
    assert row(df, card="a2")["upkeep_deaths"] == 1
    assert row(df, card="a1")["upkeep_deaths"] == 0
    assert row(df, card="a1")["deaths"] == 1
    table = cards.card_table(Runs(con, [1]))
    assert row(table, card="a1")["damage_per_play"] == pytest.approx(2 / 2)


def test_set_win_rates(con: duckdb.DuckDBPyConnection) -> None:
    dom = sets.win_rates(Runs(con, [1]), ["dominant"])
    check_rate(row(dom, dominant="A"), "win_rate", 1, 1)
    check_rate(row(dom, dominant="B"), "win_rate", 0, 1)
    check_rate(row(dom, dominant="mixed"), "win_rate", 2, 6)
    pair = sets.win_rates(Runs(con, [1]), ["pair"])
    check_rate(row(pair, pair="A + B"), "win_rate", 2, 6)
    check_rate(row(pair, pair="A"), "win_rate", 1, 1)
    seat = sets.win_rates(Runs(con, [1]), ["seat"])
    check_rate(row(seat, seat=0), "win_rate", 2, 4)
    check_rate(row(seat, seat=1), "win_rate", 1, 4)
    first = sets.win_rates(Runs(con, [1]), ["first"])
    check_rate(row(first, first=True), "win_rate", 2, 4)
    agent = sets.win_rates(Runs(con, [1]), ["agent"])
    check_rate(row(agent, agent="heuristic"), "win_rate", 1, 4)
    board = sets.win_rates(Runs(con, [1]), ["board", "dominant"])
    assert row(board, board="plain", dominant="mixed")["seats"] == 6
    bal = row(sets.seat_balance(Runs(con, [1])), board="plain")
    assert bal["balance"] == pytest.approx(1 - (0.5 - 0.25))
    with pytest.raises(ValueError):
        sets.win_rates(Runs(con, [1]), ["colour"])


def test_cost_curves(con: duckdb.DuckDBPyConnection) -> None:
    curve = costs.cost_curve(Runs(con, [1]))
    got = {(r["set"], r["kind"], r["cost"]): r["cards"] for r in curve.iter_rows(named=True)}
    assert got == {
        ("A", "buy", 2): 1,
        ("A", "buy", 3): 1,
        ("A", "play", 1): 1,
        ("A", "play", 2): 1,
        ("A", "upkeep", 1): 2,
        ("B", "buy", 2): 1,
        ("B", "buy", 4): 1,
        ("B", "play", 1): 1,
        ("B", "play", 3): 1,
    }
    pool = costs.pool_cards(Runs(con, [1]))
    assert "coin" not in pool.get_column("name").to_list()
    assert row(pool, name="a1")["stats_per_buy"] == pytest.approx(6 / 3)
    assert row(pool, name="a2")["stats_per_buy"] == pytest.approx(4 / 2)
    assert row(pool, name="b1")["stats"] == 0
    check = costs.price_check(pool, cards.card_results(Runs(con, [1])))
    # four seats per card is below MIN_SAMPLE: no fit, no flags, but the numbers are there
    assert check.get_column("pricing").to_list() == [""] * 4
    assert row(check, card="a1")["buy_rate"] == pytest.approx(0.5)


def test_price_check_flags_outliers() -> None:
    pool = pl.DataFrame({"name": [f"c{i}" for i in range(8)], "buy": [1, 2, 3, 4, 1, 2, 3, 4]})
    rates = [0.8, 0.7, 0.6, 0.5, 0.8, 0.7, 0.6, 0.5]
    rates[3] = 1.0  # a 4-cost card bought as often as a 1-cost one: underpriced
    results = pl.DataFrame(
        {
            "card": pool.get_column("name"),
            "in_store": [100] * 8,
            "buy_rate": rates,
            "bought": [50] * 8,
            "wr_bought": [0.5] * 8,
            "bought_gain": [0.0] * 8,
        }
    )
    flags = costs.price_check(pool, results)
    assert row(flags, card="c3")["pricing"] == "underpriced?"
    assert flags.filter(pl.col("pricing") != "").height == 1


def test_economy_per_round(con: duckdb.DuckDBPyConnection) -> None:
    df = economy.per_round(Runs(con, [1]))
    r1, r2 = row(df, round=1), row(df, round=2)
    assert r1["turns"] == 4 and r2["turns"] == 4
    assert (r1["income"], r1["income_base"], r1["income_units"], r1["held"]) == (2, 2, 0, 2)
    assert (r1["spend_play"], r1["unspent"]) == pytest.approx((0.25, 1.75))
    assert r2["income"] == pytest.approx(9 / 4)
    assert (r2["income_base"], r2["income_units"], r2["income_fields"]) == pytest.approx(
        (2, 0.25, 0)
    )
    # held = carried over + income + gains (g0 seat 0 discarded 2 for 1 in round 2)
    assert (
        r2["carried"],
        r2["held"],
        r2["spend_buy"],
        r2["spend_upkeep"],
        r2["discard_gain"],
        r2["unspent"],
    ) == pytest.approx((1.75, 4.25, 1.5, 0.25, 0.25, 2.5))
    # ... and it all goes somewhere: the identity on the means
    assert r2["held"] == pytest.approx(
        sum(
            r2[c]
            for c in (
                "spend_buy",
                "spend_play",
                "spend_upkeep",
                "spend_free",
                "card_loss",
                "unspent",
            )
        )
    )
    assert (r2["upkeep_share"], r2["buys"], r2["buy_share"]) == pytest.approx((1 / 9, 2, 0.5))
    by_agent = economy.per_round(Runs(con, [1]), ["agent"])
    assert row(by_agent, agent="random", round=2)["spend_buy"] == pytest.approx(1.5)
    assert row(economy.per_round(Runs(con, [1]), ["board"]), board="plain", round=2)["turns"] == 4
    tot = row(economy.totals(Runs(con, [1]), ["agent"]), agent="random")
    # seat 0: g0 income 5, buys 3; g1 income 4, buys 0 -> means over the two games
    assert (tot["income"], tot["spend_buy"], tot["final_resource"]) == pytest.approx(
        (4.5, 1.5, 2.5)
    )
    with pytest.raises(ValueError):
        economy.per_round(Runs(con, [1]), ["seat"])


def test_game_shape(con: duckdb.DuckDBPyConnection) -> None:
    lead = shape.leads(Runs(con, [1]))
    g0, g1 = row(lead, game_id=1 * 10**9), row(lead, game_id=1 * 10**9 + 1)
    # g0: seat 0 leads rounds 1 and 2 and wins in round 3; g1: seat 0 then seat 1, who wins
    assert (g0["lead_changes"], g0["decided_round"], g0["decided_at"]) == (
        0,
        1,
        pytest.approx(1 / 3),
    )
    assert (g1["lead_changes"], g1["decided_round"], g1["decided_at"]) == (1, 2, 1.0)
    summ = row(shape.summary(Runs(con, [1])), board="all")
    assert (summ["games"], summ["draws"], summ["round_limit"], summ["guard_stopped"]) == (
        4,
        1,
        1,
        0,
    )
    assert summ["mean_rounds"] == pytest.approx(3.5)
    check_rate(summ, "draw_rate", 1, 4)
    assert summ["mean_lead_changes"] == pytest.approx(0.5)
    assert summ["mean_decided_at"] == pytest.approx((1 / 3 + 1) / 2)
    assert row(shape.summary(Runs(con, [1])), board="plain")["games"] == 4
    ends = shape.endings(Runs(con, [1]))
    check_rate(row(ends, reason="capture points"), "share", 3, 4)
    lengths = {r["rounds"]: r["games"] for r in shape.lengths(Runs(con, [1])).iter_rows(named=True)}
    assert lengths == {2: 1, 3: 1, 4: 1, 5: 1}


def test_two_runs_pool(con: duckdb.DuckDBPyConnection) -> None:
    """Runs analysed together add their samples (run 2 repeats run 1's games)."""
    check_rate(row(cards.card_results(Runs(con, [1, 2])), card="a1"), "wr_in_store", 6, 8)


def test_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(AnalysisError, match="no such database"):
        open_db(tmp_path / "missing.duckdb")
    other = tmp_path / "other.duckdb"
    duckdb.connect(str(other)).execute("CREATE TABLE t (x INT)").close()
    with pytest.raises(AnalysisError, match="not a workbench database"):
        open_db(other)
    newer = tmp_path / "newer.duckdb"
    c = duckdb.connect(str(newer))
    c.execute("CREATE TABLE schema_info (key VARCHAR, value VARCHAR)")
    c.execute("INSERT INTO schema_info VALUES ('schema_version', '99')")
    c.close()
    with pytest.raises(AnalysisError, match="schema version '99'"):
        open_db(newer)
    text = tmp_path / "text.duckdb"
    text.write_text("not a database")
    with pytest.raises(AnalysisError, match="is not a usable DuckDB database"):
        open_db(text)
    empty = tmp_path / "empty.duckdb"
    open_store(empty).close()
    with pytest.raises(AnalysisError, match="no runs"):
        resolve_runs(open_db(empty), None)
    full = open_db(build(tmp_path / "full.duckdb", runs=2))
    assert resolve_runs(full, None) == [2]
    with pytest.raises(AnalysisError, match="unknown run 9; the database holds run 1, 2"):
        resolve_runs(full, [9])
