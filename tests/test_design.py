"""Design studies: paired variant runs, fair values, marked spreadsheet copies, and the
sweep / tune / ablate / skill commands end to end on a tiny constructed set."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import duckdb
import numpy as np
import openpyxl
import polars as pl
from rich.console import Console

from app.cli import main
from workbench.content.proposals import Proposal, write_copy
from workbench.store import RunSpec
from workbench.studies.fairvalue import Counts, difference_interval, fair_value
from workbench.studies.study import run_study
from workbench.studies.sweep import card_variants

DATA = Path(__file__).resolve().parent / "data" / "tuning"
SET = str(DATA / "tiny.csv")
BOARD = str(DATA / "duel.map.csv")
TINY = RunSpec((SET,), (BOARD,), 6, 2, ("random", "random"), ("random", "random"), seed=3)


def test_a_sweeps_variants_share_seeds_and_store_their_card_data(tmp_path: Path) -> None:
    db = tmp_path / "s.duckdb"
    study = run_study(
        db,
        TINY,
        "sweep",
        "Guard",
        "buy",
        card_variants("Guard", "buy", [2, 5]),
        1,
        Console(quiet=True),
    )
    con = duckdb.connect(str(db), read_only=True)
    seeds = [
        con.execute(
            "SELECT list(seed ORDER BY game_index), list(rotation ORDER BY "
            "game_index) FROM games WHERE run_id = ?",
            [r],
        ).fetchall()[0]
        for r in study.run_ids
    ]
    assert seeds[0] == seeds[1] and len(seeds[0][0]) == TINY.games
    assert con.execute("SELECT run_id, value, variant FROM sweeps ORDER BY run_id").fetchall() == [
        (study.run_ids[0], 2, "Guard.buy=2"),
        (study.run_ids[1], 5, "Guard.buy=5"),
    ]
    assert [
        con.execute(
            "SELECT buy FROM run_cards WHERE run_id = ? AND name = 'Guard'", [r]
        ).fetchall()[0][0]
        for r in study.run_ids
    ] == [2, 5]
    params = json.loads(
        con.execute("SELECT params FROM runs WHERE run_id = ?", [study.run_ids[1]]).fetchall()[0][0]
    )
    assert params["changes"] == [
        {"card": "Guard", "field": "buy", "setting": None, "value": 5, "baseline": False}
    ]


def _synthetic(values: list[int], games: int, crossing: float, seed: int = 1) -> Counts:
    """Per game one buyer and one non-buyer; the buyer's win chance falls with the value so
    that the contrast is 0.12 * (crossing - value); each seat's luck in game i is the same in
    every variant (paired seeds)."""
    rng = np.random.default_rng(seed)
    luck, luck_b = rng.random(games), rng.random(games)
    shape = (len(values), games)
    n = np.ones(shape)
    w_a = np.zeros(shape)
    w_b = np.zeros(shape)
    for i, v in enumerate(values):
        p_a = 0.5 + 0.06 * (crossing - v)
        w_a[i] = (luck < p_a).astype(float)
        w_b[i] = (luck_b < 0.5 - 0.06 * (crossing - v)).astype(float)
    return Counts(n, w_a, n.copy(), w_b)


def test_fair_value_lands_on_the_constructed_crossing_with_an_interval_around_it() -> None:
    values = [1, 2, 3, 4, 5]
    f = fair_value(values, _synthetic(values, 800, 3.0), replicates=500)
    assert f.estimate is not None and abs(f.estimate - 3.0) < 0.3
    assert f.low is not None and f.high is not None and f.low <= 3.0 <= f.high
    assert f.slope < 0


def test_no_crossing_in_the_swept_range_is_said_honestly() -> None:
    values = [1, 2, 3]
    f = fair_value(values, _synthetic(values, 400, 8.0), replicates=200)
    assert f.estimate is None and "no crossing in the swept range 1..3" in f.note


def test_pairing_narrows_the_interval_of_a_difference() -> None:
    c = _synthetic([1, 5], 600, 3.0)
    _, lo_p, hi_p = difference_interval(c, 0, 1, paired=True, replicates=500)
    _, lo_i, hi_i = difference_interval(c, 0, 1, paired=False, replicates=500)
    assert hi_p - lo_p < 0.75 * (hi_i - lo_i)


def test_an_xlsx_copy_marks_the_changed_cells_and_leaves_the_original_alone(tmp_path: Path) -> None:
    src = tmp_path / "set.xlsx"
    book = openpyxl.Workbook()
    ws = book.active
    ws.title = "Legion"
    ws.append(["Name", "Typ", "Kaufpreis", "Unterhalt"])
    ws.append(["Guard", "unit", 3, 1])
    ws.append(["Dud", "unit", 6, 1])
    book.save(src)
    before = src.read_bytes()
    copy = write_copy(src, tmp_path / "out", [Proposal("Dud", "buy", 6, 4)], 7)
    assert src.read_bytes() == before and copy != src
    cell = openpyxl.load_workbook(copy)["Legion"]["C3"]
    assert cell.value == 4 and cell.fill.start_color.rgb.endswith("FFFF00")
    assert cell.comment.text == "was 6; proposed by workbench tune run 7"
    assert (
        (tmp_path / "out" / "proposals.csv")
        .read_text()
        .splitlines()[1]
        .endswith("Legion,3,C,Dud,buy,6,4,")
    )
    write_copy(src, tmp_path / "out", [Proposal("Dud", "buy", 6, 5, "no price gets there")], 7)
    again = openpyxl.load_workbook(tmp_path / "out" / "set-proposed.xlsx")["Legion"]["C3"]
    assert again.comment.text == "was 6; proposed by workbench tune run 7; no price gets there"
    assert (
        (tmp_path / "out" / "proposals.csv")
        .read_text()
        .splitlines()[1]
        .endswith("Dud,buy,6,5,no price gets there")
    )


def test_proposals_csv_neutralises_formula_injection(tmp_path: Path) -> None:
    """OWASP's CSV injection advice, as for the report's exports: a text cell of
    proposals.csv starting with = + - @ tab or CR (a card or file the designer named so) is
    prefixed with ' so a spreadsheet program shows it instead of running it; the numbers stay
    numbers. The marked copy keeps the designer's own text. (A leading tab or CR never
    reaches a card name: the loader trims cells.)"""
    names = ['=HYPERLINK("http://evil.example","x")', "@SUM(1+1)", "+Cash", "-Debt"]
    src = tmp_path / "@set.csv"
    with src.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(
            [["name", "type", "buy", "upkeep"], *([n, "unit", 6, 1] for n in names)]
        )
    copy = write_copy(src, tmp_path / "out", [Proposal(n, "buy", 6, 4) for n in names], 7)
    with (tmp_path / "out" / "proposals.csv").open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [(r["card"], r["old"], r["new"]) for r in rows] == [("'" + n, "6", "4") for n in names]
    assert {r["copy"] for r in rows} == {"'@set-proposed.csv"}
    with copy.open(newline="", encoding="utf-8") as f:
        assert [r[0] for r in csv.reader(f)][1:] == names


def test_a_csv_copy_changes_only_the_proposed_cells(tmp_path: Path) -> None:
    out = tmp_path / "out"
    copy = write_copy(Path(SET), out, [Proposal("Champion", "buy", 1, 3)], 1)
    old = Path(SET).read_text().splitlines()
    new = copy.read_text().splitlines()
    changed = [(a, b) for a, b in zip(old, new, strict=True) if a != b]
    assert len(changed) == 1 and changed[0][1].startswith("Champion,unit,3,3,")
    again = write_copy(copy, out, [Proposal("Champion", "buy", 3, 4)], 1)
    assert again != copy and copy.read_text().splitlines() == new, "a copy of a copy is new"


def test_sweep_command_records_its_runs_estimate_and_report(tmp_path: Path) -> None:
    db, out = tmp_path / "w.duckdb", tmp_path / "rep"
    assert (
        main(
            [
                "sweep",
                "--db",
                str(db),
                "--sets",
                SET,
                "--board",
                BOARD,
                "--card",
                "Dud",
                "--field",
                "buy",
                "--values",
                "2,4,6",
                "--games",
                "12",
                "--agents",
                "random",
                "--workers",
                "1",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT count(DISTINCT run_id), any_value(kind) FROM sweeps").fetchall() == [
        (3, "sweep")
    ]
    quantities = {r[0] for r in con.execute("SELECT quantity FROM sweep_results").fetchall()}
    assert {"fair_value", "bought_gain@Dud.buy=2"} <= quantities
    assert (out / "index.html").is_file() and (out / "tables" / "sweep_variants.csv").is_file()


def test_ablate_and_skill_commands_store_their_results(tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    common = ["--db", str(db), "--sets", SET, "--board", BOARD, "--games", "8", "--workers", "1"]
    assert (
        main(
            [
                "ablate",
                "--card",
                "Champion",
                "--agents",
                "random",
                "--out",
                str(tmp_path / "ab"),
                *common,
            ]
        )
        == 0
    )
    assert (
        main(
            [
                "skill",
                "--card",
                "Champion",
                "--agents",
                "random,heuristic",
                "--out",
                str(tmp_path / "sk"),
                *common,
            ]
        )
        == 0
    )
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT kind, variant FROM sweeps ORDER BY run_id").fetchall() == [
        ("ablate", "original"),
        ("ablate", "baseline"),
        ("skill", "random"),
        ("skill", "heuristic"),
    ]
    rows = con.execute("SELECT quantity FROM sweep_results ORDER BY ALL").fetchall()
    assert [r[0] for r in rows] == [
        "ablation_win_rate_change",
        "bought_gain@heuristic",
        "bought_gain@random",
    ]
    verdicts = pl.read_csv(tmp_path / "sk" / "tables" / "verdicts.csv")
    assert {"verdict@random", "verdict@heuristic", "across_skill"} <= set(verdicts.columns)
    assert "Champion" in verdicts.get_column("card").to_list()
    assert con.execute(
        "SELECT text FROM run_cards WHERE run_id = 2 AND name = 'Champion'"
    ).fetchall() == [("baseline",)]
