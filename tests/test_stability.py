"""Verdicts across skill: the rank correlations and verdict differences of
benchmarks/bench_stability.py, `workbench skill` and `report --skill-run`, on a hand-made store
whose per-card metrics are worked out below, and the findings' wording on constructed tables.

The store holds two runs of the same seven cards, run 1 played by `heuristic`, run 2 by
`search:budget=16`. Every holder-seat-game is a game of its own: seat 0 drafted the card, bought
it or not, won or lost. Per card: (wins when bought, bought, wins when never bought, never
bought); in store = bought + never bought, win rate in store = all wins / in store, buy rate =
bought / in store, improvement when bought = bought win rate - never-bought win rate.

    card  set    heuristic (run 1)                 search:budget=16 (run 2)
    A1    Alpha  18/20, 2/20: .500 .500 +.800 S     9/10, 5/10:  .700 .500 +.400 fine
    A2    Alpha  6/10, 6/15:  .480 .400 +.200 fine  12/15, 2/10: .560 .600 +.600 S
    A3    Alpha  1/10, 9/12:  .455 .455 -.650 W     2/12, 10/12: .500 .500 -.667 W
    A4    Alpha  3/12, 3/4:   .375 .750 -.500 fine  1/2, 2/3:    .600 .400 -.167 fine
    B1    Beta   4/5, 10/20:  .560 .200 +.300 fine  5/10, 6/10:  .550 .500 -.100 fine
    B2    Beta   2/4, 1/6:    .300 .400 +.333 fine  3/6, 1/4:    .400 .600 +.250 fine
    B3    Beta   0/0, 4/8:    .500 .000  none       1/2, 2/4:    .500 .333  .000 fine
(columns: win rate in store, buy rate, improvement; S too strong, W too weak). The verdicts:
two-proportion p-values, Benjamini-Hochberg over the run's cards. Run 1: A1 p~4e-7 -> q 2.4e-6,
A3 p=.0023 -> q=.0069, the rest q >= .146. Run 2: A3 p=.0011 -> q=.0077, A2 p=.0031 -> q=.011,
A1 p=.051 -> q=.119, the rest larger.

Spearman by hand (ranks, ties averaged):
- Alpha, win rate in store: ranks (A1..A4) 4,3,2,1 against 4,2,1,3: sum d^2 = 6, rho = 1 - 36/60
  = 0.4. Improvement: 4,3,1,2 against 3,4,1,2: sum d^2 = 2, rho = 0.8. Buy rate: 3,1,2,4 against
  2.5,4,2.5,1 (a tie): Pearson of the ranks, -4.5 / sqrt(5 * 4.5) = -3 / sqrt(10).
- Beta, win rate in store and buy rate: the same order under both agents, rho = 1 (3 cards: no
  interval); improvement: 2 cards (B3 has none with heuristic), no rho.
- All cards, improvement (six cards): ranks (A1 A2 A3 A4 B1 B2) 6,3,1,2,4,5 against 5,6,1,2,3,4:
  sum d^2 = 12, rho = 1 - 72/210 = 23/35.
"""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path
from types import ModuleType

import duckdb
import polars as pl
import pytest
from scipy import stats

from app.cmd_report import write_report
from tests.findings_fixture import Game, build
from workbench.analysis import cards, stability
from workbench.analysis.findings import Thresholds, card_findings, card_verdict
from workbench.analysis.runs import Runs
from workbench.analysis.source import AnalysisError, open_db
from workbench.studies import findings as sf

CARDS = [(c, "Alpha", 2) for c in ("A1", "A2", "A3", "A4")] + [
    (c, "Beta", 2) for c in ("B1", "B2", "B3")
]
FAST, STRONG = "heuristic", "search:budget=16"
RUN_FAST = {
    "A1": (18, 20, 2, 20),
    "A2": (6, 10, 6, 15),
    "A3": (1, 10, 9, 12),
    "A4": (3, 12, 3, 4),
    "B1": (4, 5, 10, 20),
    "B2": (2, 4, 1, 6),
    "B3": (0, 0, 4, 8),
}
RUN_STRONG = {
    "A1": (9, 10, 5, 10),
    "A2": (12, 15, 2, 10),
    "A3": (2, 12, 10, 12),
    "A4": (1, 2, 2, 3),
    "B1": (5, 10, 6, 10),
    "B2": (3, 6, 1, 4),
    "B3": (1, 2, 2, 4),
}


def holder_games(per_card: dict[str, tuple[int, int, int, int]]) -> list[Game]:
    """One game per holder-seat-game: seat 0 drafted the card, bought it or not, won or lost."""
    games = []
    for card, (bw, bn, nw, nn) in per_card.items():
        for bought, wins, n in ((True, bw, bn), (False, nw, nn)):
            for i in range(n):
                games.append(
                    Game(
                        [0] if i < wins else [1],
                        picks={0: [(card, card)]},
                        buys=[(0, card, 1)] if bought else [],
                    )
                )
    return games


@pytest.fixture
def store(tmp_path: Path) -> Path:
    db = tmp_path / "skill.duckdb"
    build(db, holder_games(RUN_FAST), CARDS, run=1, agent=FAST)
    build(db, holder_games(RUN_STRONG), CARDS, run=2, agent=STRONG)
    con = duckdb.connect(str(db))
    record_study(con)
    con.close()
    return db


def record_study(con: duckdb.DuckDBPyConnection) -> None:
    """Runs 1 (FAST) and 2 (STRONG) as skill study 1, as bench_stability records them."""
    con.executemany(
        "INSERT INTO sweeps VALUES (1, 'skill', ?, '', 'agents', ?, ?)",
        [[1, 0, FAST], [2, 1, STRONG]],
    )


def test_card_verdicts_are_the_reports_and_match_the_hand_worked_metrics(store: Path) -> None:
    con = open_db(store)
    fast = stability.card_verdicts(Runs(con, [1]))
    strong = stability.card_verdicts(Runs(con, [2]))
    table = cards.card_table(Runs(con, [1]))
    con.close()
    a1 = fast.row(by_predicate=pl.col("card") == "A1", named=True)
    assert (a1["in_store"], a1["wr_in_store"], a1["buy_rate"]) == (40, 0.5, 0.5)
    assert a1["bought_gain"] == pytest.approx(0.8)
    assert dict(fast.select("card", "verdict").iter_rows()) == {
        "A1": "too strong",
        "A2": "fine",
        "A3": "too weak",
        "A4": "fine",
        "B1": "fine",
        "B2": "fine",
        "B3": "no estimate",
    }
    assert dict(strong.select("card", "verdict").iter_rows()) == {
        "A1": "fine",
        "A2": "too strong",
        "A3": "too weak",
        "A4": "fine",
        "B1": "fine",
        "B2": "fine",
        "B3": "fine",
    }
    # one definition: the report's card findings are exactly the cards judged too strong or weak
    judged = {
        f.subject: f.text.split(" looks ")[1].split(":")[0]
        for f in card_findings(table, Thresholds())
    }
    assert judged == {"A1": "too strong", "A3": "too weak"}
    assert card_verdict(None, None) == "no estimate" and card_verdict(-0.2, 0.049) == "too weak"


def test_a_metric_from_fewer_observations_than_min_sample_is_not_ranked(store: Path) -> None:
    """With min_sample 10, a card's improvement when bought needs 10 buys and its other metrics
    10 seats in store, in each run. Bought counts (fast / strong): A1 20/10, A2 10/15, A3 10/12,
    A4 12/2, B1 5/10, B2 4/6, B3 0/2, so only A1-A3 rank on it. Their improvements, fast
    +.8 +.2 -.65 (ranks 3 2 1), strong +.4 +.6 -.67 (2 3 1): sum d^2 = 2, rho = 1 - 12/24 = .5.
    In store (fast / strong): A4 16/5 and B3 8/6 drop out of the other metrics."""
    con = open_db(store)
    fast = stability.card_verdicts(Runs(con, [1]), min_sample=10)
    corr = stability.rank_correlations(fast, stability.card_verdicts(Runs(con, [2]), min_sample=10))
    con.close()
    b1 = fast.filter(pl.col("card") == "B1").row(0, named=True)
    assert b1["bought_gain"] is None and b1["wr_in_store"] == pytest.approx(14 / 25)
    got = {(r["set"], r["metric"]): r for r in corr.iter_rows(named=True)}
    assert (got["Alpha", "bought_gain"]["cards"], got["Alpha", "bought_gain"]["rho"]) == (
        3,
        pytest.approx(0.5),
    )
    assert (got["Beta", "bought_gain"]["cards"], got["Beta", "bought_gain"]["rho"]) == (0, None)
    assert got["Alpha", "wr_in_store"]["cards"] == 3 and got["Beta", "buy_rate"]["cards"] == 2


def test_rank_correlations_per_set_match_the_hand_worked_ranks(store: Path) -> None:
    con = open_db(store)
    corr = stability.rank_correlations(
        stability.card_verdicts(Runs(con, [1])), stability.card_verdicts(Runs(con, [2]))
    )
    con.close()
    got = {(r["set"], r["metric"]): r for r in corr.iter_rows(named=True)}
    assert got["Alpha", "wr_in_store"]["rho"] == pytest.approx(0.4)
    assert got["Alpha", "bought_gain"]["rho"] == pytest.approx(0.8)
    assert got["Alpha", "buy_rate"]["rho"] == pytest.approx(-3 / math.sqrt(10))
    assert got["Alpha", "buy_rate"]["cards"] == 4
    for metric in ("wr_in_store", "buy_rate"):
        r = got["Beta", metric]
        assert (r["cards"], r["rho"], r["rho_lo"], r["rho_hi"]) == (
            3,
            pytest.approx(1.0),
            None,
            None,
        )
    assert (got["Beta", "bought_gain"]["cards"], got["Beta", "bought_gain"]["rho"]) == (2, None)
    everything = got["all", "bought_gain"]
    rho = 23 / 35
    half = stats.norm.ppf(0.975) * math.sqrt((1 + rho * rho / 2) / 3)
    assert (everything["cards"], everything["rho"]) == (6, pytest.approx(rho))
    assert everything["rho_lo"] == pytest.approx(math.tanh(math.atanh(rho) - half))
    assert everything["rho_hi"] == pytest.approx(math.tanh(math.atanh(rho) + half))
    assert everything["rho_lo"] < 0 < rho < everything["rho_hi"] < 1


def test_verdict_table_names_the_cards_whose_verdict_differs(store: Path) -> None:
    con = open_db(store)
    table = stability.verdict_table(Runs(con, [1, 2]), [(FAST, [1]), (STRONG, [2])])
    con.close()
    assert dict(table.select("card", "across_skill").iter_rows()) == {
        "A1": f"differs: too strong with {FAST}; fine with {STRONG}",
        "A2": f"differs: fine with {FAST}; too strong with {STRONG}",
        "A3": "stable",
        "A4": "stable",
        "B1": "stable",
        "B2": "stable",
        "B3": f"not judged with {FAST}",
    }
    assert stability.unstable(table).get_column("card").to_list() == ["A1", "A2"]


def bench() -> ModuleType:
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_stability.py"
    spec = importlib.util.spec_from_file_location("bench_stability", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bench_stability_reports_a_stored_study(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "s.json"
    assert (
        bench().main(["--min-sample", "0", "--db", str(store), "--study", "1", "--out", str(out)])
        == 0
    )
    [s] = json.loads(out.read_text())["studies"]
    assert (s["study"], s["board"], s["runs"], s["games"]) == (
        1,
        "plain",
        {FAST: [1], STRONG: [2]},
        {FAST: 146, STRONG: 110},
    )
    assert (s["cards"], s["both_judged"], s["judged"]) == (7, 6, {FAST: 6, STRONG: 7})
    assert [(u["card"], u[FAST], u[STRONG]) for u in s["unstable"]] == [
        ("A1", "too strong", "fine"),
        ("A2", "fine", "too strong"),
    ]
    alpha = {c["metric"]: c["rho"] for c in s["correlations"] if c["set"] == "Alpha"}
    assert [r["metric"] for r in s["reliability"]] == ["wr_in_store", "bought_gain", "buy_rate"]
    assert alpha["bought_gain"] == pytest.approx(0.8)
    text = capsys.readouterr().out
    assert "| Alpha | improvement when bought | 4 | +0.80 | " in text
    assert "| Beta | improvement when bought | 2 | – | – |" in text
    assert "| Beta | buy rate | 3 | +1.00 | – |" in text
    assert (
        f"Verdicts that differ (2 of 6 cards judged by both; 6 judged by {FAST}, 7 by "
        f"{STRONG}, of 7 held): A1 (Alpha: too strong with {FAST}, fine with {STRONG}); "
        f"A2 (Alpha: fine with {FAST}, too strong with {STRONG})."
    ) in text


HALVES = {  # per card, (wins when bought, bought, wins never bought, never bought) per half
    "C1": ((5, 5, 1, 5), (4, 5, 2, 5)),  # improvement +.8 in the even games, +.4 in the odd
    "C2": ((4, 5, 2, 5), (5, 5, 1, 5)),  # +.4, +.8
    "C3": ((3, 5, 3, 5), (2, 5, 4, 5)),  # 0, -.4
    "C4": ((2, 5, 4, 5), (3, 5, 3, 5)),  # -.4, 0
}


def test_reliability_compares_a_runs_even_and_odd_games(tmp_path: Path) -> None:
    """The even games rank the improvement C1 > C2 > C3 > C4 (ranks 4 3 2 1), the odd games
    C2 > C1 > C4 > C3 (3 4 1 2): sum d^2 = 4, r = 1 - 6 * 4 / (4 * 15) = 0.6, and the whole run's
    reliability 2r / (1 + r) = 0.75. The games alternate halves, 40 in each."""
    even = holder_games({c: h[0] for c, h in HALVES.items()})
    odd = holder_games({c: h[1] for c, h in HALVES.items()})
    games = [g for pair in zip(even, odd, strict=True) for g in pair]
    db = build(tmp_path / "halves.duckdb", games, [(c, "Gamma", 2) for c in HALVES])
    con = open_db(db)
    halves = [stability.card_verdicts(Runs(con, [1]), h) for h in (0, 1)]
    reliability = stability.reliability(Runs(con, [1]))
    con.close()
    assert [dict(h.select("card", "bought_gain").iter_rows()) for h in halves] == [
        pytest.approx({"C1": 0.8, "C2": 0.4, "C3": 0.0, "C4": -0.4}),
        pytest.approx({"C1": 0.4, "C2": 0.8, "C3": -0.4, "C4": 0.0}),
    ]
    assert reliability["bought_gain"] == pytest.approx(0.75)
    assert reliability["buy_rate"] is None  # every card bought in half its games: no order
    # two runs of reliability 0.75 and 0.48 can correlate at most sqrt(0.36) = 0.6
    assert stability.ceiling(0.75, 0.48) == pytest.approx(0.6)
    assert stability.ceiling(0.75, None) is None
    # Spearman-Brown: k = 0.7 * 0.25 / (0.75 * 0.3) = 7/9 of the 80 games, 62.2 -> 63
    assert stability.games_for(0.75, 80, 0.7) == 63
    # from 0.5 at 100 games to 0.8: k = 0.8 * 0.5 / (0.5 * 0.2) = 4
    assert stability.games_for(0.5, 100, 0.8) == 400
    assert stability.games_for(0.0, 100, 0.8) is None


def _verdicts(*rows: tuple[str, str, str]) -> pl.DataFrame:
    """A verdict_table of two agents, `weak` and `strong`, from (card, verdict, verdict)."""
    df = pl.DataFrame(
        [{"card": c, "set": "S", "verdict@weak": a, "verdict@strong": b} for c, a, b in rows]
    )
    return df.with_columns(
        pl.Series(
            "across_skill", [stability.verdict_text({"weak": a, "strong": b}) for _, a, b in rows]
        )
    )


def test_stability_finding_names_the_skill_dependent_verdicts() -> None:
    table = _verdicts(
        ("Kraken", "too strong", "fine"),
        ("Siren", "fine", "fine"),
        ("Bolt", "fine", "too weak"),
        ("Dud", "no estimate", "fine"),
    )
    [f] = sf.stability_findings(table, ["weak", "strong"], "verdicts")
    assert (f.kind, f.severity, f.n, f.value, f.section, f.subject) == (
        "agent",
        "medium",
        3,
        2.0,
        "verdicts",
        "Bolt, Kraken",
    )
    assert f.text == (
        "Verdicts that depend on the player's skill (2 of 3 cards judged by weak, strong; n=3): "
        "Bolt (fine with weak; too weak with strong); Kraken (too strong with weak; fine with "
        "strong). One player's verdict survives the multiple-comparison control, another's does "
        "not: act on neither alone; more games would tell."
    )


def test_stability_finding_is_high_when_verdicts_point_opposite_ways() -> None:
    table = _verdicts(("Kraken", "fine", "too strong"), ("Siren", "too weak", "too strong"))
    [f] = sf.stability_findings(table, ["weak", "strong"], "verdicts")
    assert f.severity == "high"
    assert f.text == (
        "Verdicts that depend on the player's skill (2 of 2 cards judged by weak, "
        "strong; n=2): Siren (too weak with weak; too strong with strong); Kraken "
        "(fine with weak; too strong with strong)."
    )


def test_stability_finding_is_silent_when_every_verdict_holds() -> None:
    table = _verdicts(("Kraken", "fine", "fine"), ("Dud", "no estimate", "too weak"))
    assert table.get_column("across_skill").to_list() == ["stable", "not judged with weak"]
    assert sf.stability_findings(table, ["weak", "strong"], "verdicts") == []


def test_report_with_a_skill_run_shows_the_verdicts_across_skill(
    store: Path, tmp_path: Path
) -> None:
    page = write_report(store, [1], tmp_path / "rep", skill_runs=[2]).read_text()
    assert "Verdicts that depend on the player&#x27;s skill (2 of 6 cards" in page
    cards = pl.read_csv(tmp_path / "rep" / "tables" / "cards.csv")
    assert dict(cards.select("card", "across_skill").iter_rows())["A3"] == "stable"
    verdicts = pl.read_csv(tmp_path / "rep" / "tables" / "verdicts.csv")
    assert verdicts.columns[:4] == ["card", "set", f"verdict@{FAST}", f"bought_gain@{FAST}"]


def test_report_refuses_a_skill_run_of_another_setup(store: Path) -> None:
    build(
        store,
        holder_games({"A1": (1, 2, 1, 2)}),
        [("A1", "Alpha", 2)],
        board="other",
        run=3,
        agent=STRONG,
    )
    with pytest.raises(AnalysisError, match="--skill-run 3: run 3 plays other, not plain"):
        write_report(store, [1], store.parent / "rep", skill_runs=[3])


def test_split_halves_compare_each_agents_halves_with_its_own_and_the_others(
    tmp_path: Path,
) -> None:
    """Run 1's even games hold HALVES' first counts and its odd games the second; run 2 the other
    way round. Each run's halves agree at 0.6 (worked out above), the two runs' halves on the same
    seeds too, and a half of one run against the other half of the other holds the same counts:
    rho 1. Cross-agent halves agreeing at least as well as an agent's own say noise, not skill."""
    for run, agent, (first, second) in ((1, FAST, (0, 1)), (2, STRONG, (1, 0))):
        even = holder_games({c: h[first] for c, h in HALVES.items()})
        odd = holder_games({c: h[second] for c, h in HALVES.items()})
        games = [g for pair in zip(even, odd, strict=True) for g in pair]
        build(tmp_path / "h.duckdb", games, [(c, "Gamma", 2) for c in HALVES], run=run, agent=agent)
    con = open_db(tmp_path / "h.duckdb")
    rows = stability.split_halves(Runs(con, [1, 2]), (FAST, [1]), (STRONG, [2]))
    con.close()
    assert [(r["compared"], r["seeds"], r["cards"]) for r in rows] == [
        (f"{FAST} even ~ {FAST} odd", "other", 4),
        (f"{STRONG} even ~ {STRONG} odd", "other", 4),
        (f"{FAST} even ~ {STRONG} odd", "other", 4),
        (f"{FAST} odd ~ {STRONG} even", "other", 4),
        (f"{FAST} even ~ {STRONG} even", "same", 4),
        (f"{FAST} odd ~ {STRONG} odd", "same", 4),
    ]
    assert [r["rho"] for r in rows] == pytest.approx([0.6, 0.6, 1.0, 1.0, 0.6, 0.6])


POOL_FAST = (  # (wins when bought, bought, wins never bought, never bought) per card and run
    {"C1": (5, 5, 1, 5), "C2": (4, 5, 2, 5), "C3": (3, 5, 3, 5), "C4": (2, 5, 4, 5)},
    {"C1": (1, 5, 5, 5), "C2": (4, 5, 2, 5), "C3": (3, 5, 2, 5), "C4": (2, 5, 4, 5)},
)
POOL_STRONG = {"C1": (3, 5, 3, 5), "C2": (5, 5, 2, 5), "C3": (4, 5, 3, 5), "C4": (2, 5, 4, 5)}


def test_bench_stability_pools_studies_of_the_same_agents_and_setup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two skill studies (runs 1-2 and 3-4). Study 1 alone: the fast agent's improvements
    C1..C4 = +.8 +.4 0 -.4 (ranks 4 3 2 1), the strong one's 0 +.6 +.2 -.4 (2 4 3 1): sum d^2 =
    6, rho = 1 - 36/60 = 0.4. Pooled, the fast agent's C1 is 6/10 - 6/10 = 0, C2 8/10 - 4/10 =
    +.4, C3 6/10 - 5/10 = +.1, C4 -.4 (ranks 2 4 3 1), the strong agent's the same rates
    (both its runs hold POOL_STRONG): rho = 1, over 80 games a side."""
    db = tmp_path / "pool.duckdb"
    cards_ = [(c, "Gamma", 2) for c in POOL_STRONG]
    for study, fast_counts in enumerate(POOL_FAST, start=1):
        fast_run, strong_run = 2 * study - 1, 2 * study
        build(db, holder_games(fast_counts), cards_, run=fast_run, agent=FAST)
        build(db, holder_games(POOL_STRONG), cards_, run=strong_run, agent=STRONG)
        con = duckdb.connect(str(db))
        con.executemany(
            f"INSERT INTO sweeps VALUES ({study}, 'skill', ?, '', 'agents', ?, ?)",
            [[fast_run, 0, FAST], [strong_run, 1, STRONG]],
        )
        con.close()
    out = tmp_path / "p.json"
    rho = {}
    for args in (["--study", "1"], ["--study", "1", "--study", "2", "--pool"]):
        assert bench().main(["--min-sample", "0", "--db", str(db), *args, "--out", str(out)]) == 0
        [s] = json.loads(out.read_text())["studies"]
        rho[len(args)] = next(
            c["rho"] for c in s["correlations"] if (c["set"], c["metric"]) == ("all", "bought_gain")
        )
    assert rho[2] == pytest.approx(0.4)
    assert rho[5] == pytest.approx(1.0)
    assert (s["study"], s["runs"], s["games"]) == (
        [1, 2],
        {FAST: [1, 3], STRONG: [2, 4]},
        {FAST: 80, STRONG: 80},
    )
    assert (
        f"(studies 1, 2 pooled, seed 1; {FAST} 80 games, {STRONG} 80, on the same seeds)"
        in capsys.readouterr().out
    )
    with pytest.raises(SystemExit):
        bench().main(["--min-sample", "0", "--db", str(db), "--pool", "--out", str(out)])
    assert "--pool analyses stored studies: give them with --study" in capsys.readouterr().err


def test_bench_stability_refuses_to_pool_other_setups(tmp_path: Path) -> None:
    db = tmp_path / "pool.duckdb"
    for run, agent, board in ((1, FAST, "plain"), (2, STRONG, "plain"), (3, FAST, "hills")):
        build(
            db,
            holder_games(POOL_STRONG),
            [(c, "Gamma", 2) for c in POOL_STRONG],
            board=board,
            run=run,
            agent=agent,
        )
    build(
        db,
        holder_games(POOL_STRONG),
        [(c, "Gamma", 2) for c in POOL_STRONG],
        board="hills",
        run=4,
        agent=STRONG,
    )
    con = duckdb.connect(str(db))
    con.executemany(
        "INSERT INTO sweeps VALUES (?, 'skill', ?, '', 'agents', ?, ?)",
        [[1, 1, 0, FAST], [1, 2, 1, STRONG], [2, 3, 0, FAST], [2, 4, 1, STRONG]],
    )
    con.close()
    with pytest.raises(SystemExit, match="do not pool: run 3 plays hills, not plain"):
        bench().main(
            [
                "--min-sample",
                "0",
                "--db",
                str(db),
                "--study",
                "1",
                "--study",
                "2",
                "--pool",
                "--out",
                str(tmp_path / "p.json"),
            ]
        )
