"""The fast agent's extra games in a skill study (bench_stability.py
--fast-games): the extra run is pooled into the fast agent's runs only, found again from the
database alone, checked for the study's setup, and the games per agent are said wherever the
study is shown; the split halves and reliabilities stay right with runs of unequal length.

The hand-made store: study 1 of runs 1 (heuristic) and 2 (search:budget=16), 80 games each on
seeds 0..79, their games alternating halves as in test_stability's HALVES (run 2 with its halves
swapped), and run 3, the heuristic's extra run: 160 games on seeds of their own (1000..1159, run
seed 99), EXTRA's counts, 20 games per card and half. Improvement when bought per card C1..C4:

    run 1       even +.8 +.4 0 -.4 (ranks 4 3 2 1)   odd +.4 +.8 -.4 0 (3 4 1 2)
    run 2       even +.4 +.8 -.4 0 (3 4 1 2)         odd +.8 +.4 0 -.4 (4 3 2 1)
    runs 1 + 3  even 15/15-1/15, 11/15-5/15, 8/15-8/15, 5/15-11/15 = +14/15 +6/15 0 -6/15
                (4 3 2 1); odd 14/15-2/15, 12/15-4/15, 5/15-11/15, 8/15-8/15 = +12/15 +8/15
                -6/15 0 (4 3 1 2)

Reliability (Spearman-Brown of the halves' rho): run 1 alone and run 2, r = 0.6 -> 0.75; runs
1 + 3, sum d^2 = 2, r = 0.8 -> 1.6 / 1.8 = 8/9 over their 240 games, which need
0.7 * (1/9) / (8/9 * 0.3) = 7/24 of them, 70 games, for 0.7 (run 2: 63 of 80, as in
test_stability). Whole runs: run 1 and run 2 both +.6 +.6 -.2 -.2, rho 1; runs 1 + 3
bought 29/30, 23/30, 13/30, 13/30 and never bought 3/30, 9/30, 19/30, 19/30: +26/30 +14/30
-6/30 -6/30, ranks 4 3 1.5 1.5 against run 2's 3.5 3.5 1.5 1.5: deviations (1.5 .5 -1 -1) and
(1 1 -1 -1), rho = 4 / sqrt(4.5 * 4) = 2 sqrt(2) / 3.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import duckdb
import pytest

from tests.findings_fixture import Game, build
from tests.test_stability import FAST, HALVES, STRONG, bench, holder_games, record_study
from workbench.analysis.runs import Runs
from workbench.analysis.source import open_db
from workbench.analysis.stability import split_halves

Counts = dict[str, tuple[int, int, int, int]]
EXTRA: dict[str, tuple[tuple[int, int, int, int], tuple[int, int, int, int]]] = {
    "C1": ((10, 10, 0, 10), (10, 10, 0, 10)),
    "C2": ((7, 10, 3, 10), (7, 10, 3, 10)),
    "C3": ((5, 10, 5, 10), (3, 10, 7, 10)),
    "C4": ((3, 10, 7, 10), (5, 10, 5, 10)),
}
CARDS = [(c, "Gamma", 2) for c in HALVES]
DATA = Path(__file__).resolve().parent / "data" / "tuning"


def alternating(even: Counts, odd: Counts) -> list[Game]:
    """Games alternating halves: index 2k holds `even`'s k-th game, 2k + 1 `odd`'s."""
    pairs = zip(holder_games(even), holder_games(odd), strict=True)
    return [g for pair in pairs for g in pair]


def study(db: Path, extra_board: str = "plain") -> Path:
    """Study 1 (runs 1 and 2) and run 3, the fast agent's extra games, not yet in the study."""
    for run, agent, (first, second) in ((1, FAST, (0, 1)), (2, STRONG, (1, 0))):
        games = alternating(
            {c: h[first] for c, h in HALVES.items()}, {c: h[second] for c, h in HALVES.items()}
        )
        build(db, games, CARDS, run=run, agent=agent)
    extra = alternating({c: h[0] for c, h in EXTRA.items()}, {c: h[1] for c, h in EXTRA.items()})
    build(db, extra, CARDS, board=extra_board, run=3, agent=FAST)
    con = duckdb.connect(str(db))
    con.execute("UPDATE games SET seed = 1000 + game_index WHERE run_id = 3")
    con.execute("UPDATE runs SET seed = 99 WHERE run_id = 3")
    record_study(con)
    con.close()
    return db


def tie_extra(db: Path) -> None:
    """Record run 3 as study 1's extra run, as bench_stability --fast-games does."""
    con = duckdb.connect(str(db))
    con.execute(f"INSERT INTO sweeps VALUES (1, '{bench().EXTRA}', 3, '', 'agents', 0, ?)", [FAST])
    con.close()


def analysed(db: Path, out: Path) -> dict[str, Any]:
    """bench_stability's analysis of stored study 1, as written to --out."""
    assert (
        bench().main(["--min-sample", "0", "--db", str(db), "--study", "1", "--out", str(out)]) == 0
    )
    [s] = json.loads(out.read_text())["studies"]
    return dict(s)


def bought_gain(s: dict[str, Any], key: str) -> Any:
    """A study's figure for improvement when bought over all cards: its rho or reliability row."""
    if key == "rho":
        rows = s["correlations"]
        return next(c["rho"] for c in rows if (c["set"], c["metric"]) == ("all", "bought_gain"))
    return next(r for r in s["reliability"] if r["metric"] == "bought_gain")


def test_the_extra_run_is_pooled_into_the_fast_agent_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = study(tmp_path / "x.duckdb")
    before = analysed(db, tmp_path / "before.json")
    tie_extra(db)
    after = analysed(db, tmp_path / "after.json")
    # without its extra run the study analyses as a plain same-seed one
    assert (before["runs"], before["games"], before["extra_runs"], before["extra_games"]) == (
        {FAST: [1], STRONG: [2]},
        {FAST: 80, STRONG: 80},
        [],
        0,
    )
    assert bought_gain(before, "rho") == pytest.approx(1.0)
    rel = bought_gain(before, "reliability")
    assert (rel[FAST], rel[STRONG], rel["games_for_0.7"]) == (
        pytest.approx(0.75),
        pytest.approx(0.75),
        {FAST: 63, STRONG: 63},
    )
    # with it, found from the database alone: the fast agent's runs and games grow
    assert (after["runs"], after["games"], after["extra_runs"], after["extra_games"]) == (
        {FAST: [1, 3], STRONG: [2]},
        {FAST: 240, STRONG: 80},
        [3],
        160,
    )
    assert (after["seed"], after["extra_seed"]) == ([1], [99])
    assert bought_gain(after, "rho") == pytest.approx(2 * math.sqrt(2) / 3)
    rel = bought_gain(after, "reliability")
    assert (rel[FAST], rel[STRONG], rel["ceiling"], rel["games_for_0.7"]) == (
        pytest.approx(8 / 9),
        pytest.approx(0.75),
        pytest.approx(math.sqrt(8 / 9 * 0.75)),
        {FAST: 70, STRONG: 63},
    )
    text = capsys.readouterr().out
    assert (
        f"### plain: {FAST} against {STRONG} (study 1, seed 1; {FAST} 80 games, {STRONG} 80, "
        "on the same seeds)"
    ) in text
    assert (
        f"### plain: {FAST} against {STRONG} (study 1, seed 1; {FAST} 240 games, {STRONG} 80: "
        f"the same seeds for 80, the {FAST}'s other 160 on seeds of their own (run seed 99))"
    ) in text
    assert f"| {FAST} even ~ {STRONG} even | partly same (40 shared) | 120 / 40 | +0.60 | 4 |" in (
        text
    )


def test_split_halves_say_which_seeds_and_how_many_games_each_half_holds(tmp_path: Path) -> None:
    """Each half holds half of every run's games; the fast agent's halves share the strong
    agent's seeds only for the study's games. rho as worked out above (ranks of the halves)."""
    db = study(tmp_path / "h.duckdb")
    con = open_db(db)
    plain = split_halves(Runs(con, [1, 2, 3]), (FAST, [1]), (STRONG, [2]))
    pooled = split_halves(Runs(con, [1, 2, 3]), (FAST, [1, 3]), (STRONG, [2]))
    con.close()
    assert [(r["seeds"], r["games"]) for r in plain] == [
        ("other", [40, 40]),
        ("other", [40, 40]),
        ("other", [40, 40]),
        ("other", [40, 40]),
        ("same", [40, 40]),
        ("same", [40, 40]),
    ]
    assert [(r["compared"], r["seeds"], r["games"]) for r in pooled] == [
        (f"{FAST} even ~ {FAST} odd", "other", [120, 120]),
        (f"{STRONG} even ~ {STRONG} odd", "other", [40, 40]),
        (f"{FAST} even ~ {STRONG} odd", "other", [120, 40]),
        (f"{FAST} odd ~ {STRONG} even", "other", [120, 40]),
        (f"{FAST} even ~ {STRONG} even", "partly same (40 shared)", [120, 40]),
        (f"{FAST} odd ~ {STRONG} odd", "partly same (40 shared)", [120, 40]),
    ]
    # 4321 ~ 4312, 3412 ~ 4321, 4321 ~ 4321, 4312 ~ 3412, 4321 ~ 3412, 4312 ~ 4321
    assert [r["rho"] for r in pooled] == pytest.approx([0.8, 0.6, 1.0, 0.8, 0.6, 0.8])


@pytest.mark.parametrize(
    ("board", "agents", "drafters", "why"),
    [
        ("hills", FAST, FAST, "do not pool: run 3 plays hills, not plain"),
        ("plain", STRONG, STRONG, f"extra run 3 is played by {STRONG} .drafters {STRONG}., not"),
        ("plain", FAST, "random", f"extra run 3 is played by {FAST} .drafters random., not as"),
    ],
)
def test_an_extra_run_of_another_setup_or_player_is_refused(
    tmp_path: Path, board: str, agents: str, drafters: str, why: str
) -> None:
    db = study(tmp_path / "r.duckdb", extra_board=board)
    tie_extra(db)
    con = duckdb.connect(str(db))
    con.execute("UPDATE runs SET agents = ?, drafters = ? WHERE run_id = 3", [agents, drafters])
    con.close()
    with pytest.raises(SystemExit, match=why):
        analysed(db, tmp_path / "r.json")


def test_bench_stability_plays_the_fast_agents_extra_games_end_to_end(tmp_path: Path) -> None:
    """A tiny study (random against heuristic, 4 games on the tiny set's duel board) with the
    fast agent given 10: its 6 more games are a run of their own in the study, on other seeds,
    played as the study's fast run; `--study 1` finds them again."""
    db, out = tmp_path / "e.duckdb", tmp_path / "e.json"
    common = ["--db", str(db), "--sets", str(DATA / "tiny.csv"), "--board"]
    args = [*common, str(DATA / "duel.map.csv"), "--fast", "random", "--strong", "heuristic"]
    assert (
        bench().main(
            ["--min-sample", "0", *args, "--games", "4", "--fast-games", "10", "--out", str(out)]
        )
        == 0
    )
    [played] = json.loads(out.read_text())["studies"]
    assert (played["runs"], played["games"], played["extra_games"]) == (
        {"random": [1, 3], "heuristic": [2]},
        {"random": 10, "heuristic": 4},
        6,
    )
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT kind, run_id, variant FROM sweeps ORDER BY run_id").fetchall() == [
        ("skill", 1, "random"),
        ("skill", 2, "heuristic"),
        ("skill-extra", 3, "random"),
    ]
    same = con.execute(
        "SELECT count(*) FROM games a JOIN games b ON a.seed = b.seed "
        "WHERE a.run_id = 3 AND b.run_id IN (1, 2)"
    ).fetchall()
    players = con.execute("SELECT agents, drafters FROM runs ORDER BY run_id").fetchall()
    notes = con.execute("SELECT DISTINCT note FROM sweep_results").fetchall()
    con.close()
    assert same == [(0,)] and players[0] == players[2] == ("random,random", "random,random")
    assert {n.split(", ", 1)[1] for (n,) in notes} == {
        "random 10 games, heuristic 4: the same seeds for 4, the random's other 6 on seeds "
        f"of their own (run seed {played['extra_seed'][0]})"
    }
    assert (
        bench().main(["--min-sample", "0", "--db", str(db), "--study", "1", "--out", str(out)]) == 0
    )
    [again] = json.loads(out.read_text())["studies"]
    assert again == played


def test_fast_games_are_at_least_the_studys_and_only_for_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = str(tmp_path / "o.json")
    for args, why in (
        (["--games", "10", "--fast-games", "4"], "--fast-games 4 is fewer than --games 10"),
        (["--study", "1", "--fast-games", "40"], "--fast-games plays: the extra runs of a"),
    ):
        with pytest.raises(SystemExit):
            bench().main(
                ["--min-sample", "0", "--db", str(tmp_path / "none.duckdb"), *args, "--out", out]
            )
        assert why in capsys.readouterr().err
