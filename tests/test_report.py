"""`workbench report` and `workbench compare` on the hand-built database: files, escaping,
errors, and the page as headless Chromium renders it (every chart loads, every section is
there)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import duckdb
import polars as pl
import pytest

from app.cli import main
from tests.test_metrics_fixture import build
from workbench.store import open_store

CHROMIUM = "/usr/bin/chromium"
SECTIONS = ("findings", "sets", "cards", "costs", "draft", "economy", "shape", "boards")


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = build(tmp_path_factory.mktemp("r") / "r.duckdb", runs=2)
    con = duckdb.connect(str(path))
    # a card name a browser would take for markup must arrive as text
    for table, column in (("picks", "card"), ("events", "card"), ("run_cards", "name")):
        con.execute(f"UPDATE {table} SET {column} = '<i>b2&' WHERE {column} = 'b2'")
    con.execute("UPDATE picks SET pack = replace(pack, 'b2', '<i>b2&')")
    con.close()
    return path


@pytest.fixture(scope="module")
def report(db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("out")
    assert main(["report", "--db", str(db), "--run", "1", "--out", str(out)]) == 0
    return out / "index.html"


def test_report_files(report: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = report.read_text()
    for section in SECTIONS:
        assert f'<section id="{section}">' in page
    assert re.findall(r'<section id="([a-z]+)">', page) == list(SECTIONS)
    headings = re.findall(r"<h[23][^>]*>([^<]*)</h[23]>", page)
    assert len(headings) == len(set(headings)), "a heading is repeated"
    names = re.findall(r'data-name="([a-z_]+)"', page)
    assert len(names) >= 15
    for name in names:
        assert (report.parent / "tables" / f"{name}.csv").is_file()
        frame = pl.read_parquet(report.parent / "tables" / f"{name}.parquet")
        assert frame.height == pl.read_csv(report.parent / "tables" / f"{name}.csv").height
    assert "&lt;i&gt;b2&amp;" in page and "<i>b2&" not in page
    assert "http://" not in page and "https://" not in page  # readable offline
    cards = pl.read_parquet(report.parent / "tables" / "cards.parquet")
    assert cards.filter(pl.col("card") == "a1").get_column("wr_bought").item() == 1.0
    # small samples are greyed with their count, not hidden
    assert 'class="small"' in page and "n=4" in page


def test_report_defaults_to_latest_run(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", "--db", str(db), "--out", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == str(tmp_path / "index.html")
    assert "Balance report: run 2" in (tmp_path / "index.html").read_text()


def test_report_errors(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "--db", str(db), "--run", "7", "--out", str(tmp_path)]) == 2
    assert "unknown run 7; the database holds run 1, 2" in capsys.readouterr().err
    empty = tmp_path / "empty.duckdb"
    open_store(empty).close()
    assert main(["report", "--db", str(empty), "--out", str(tmp_path)]) == 2
    assert "no runs" in capsys.readouterr().err
    foreign = tmp_path / "foreign.duckdb"
    duckdb.connect(str(foreign)).execute("CREATE TABLE sales (x INT)").close()
    assert main(["report", "--db", str(foreign), "--out", str(tmp_path)]) == 2
    assert "not a workbench database" in capsys.readouterr().err
    assert main(["compare", "--db", str(db), "1", "5", "--out", str(tmp_path)]) == 2
    assert "unknown run 5" in capsys.readouterr().err


def test_compare(db: Path, tmp_path: Path) -> None:
    assert main(["compare", "--db", str(db), "1", "2", "--out", str(tmp_path)]) == 0
    changes = pl.read_csv(tmp_path / "tables" / "changes.csv", infer_schema=False)
    assert changes.filter(pl.col("what") == "card").select(
        "name", "change", "field", "base", "candidate"
    ).rows() == [("a1", "changed", "buy", "3", "4"), ("c1", "added", "", "", "present")]
    cards = pl.read_parquet(tmp_path / "tables" / "compare_cards.parquet")
    a1 = cards.filter(pl.col("card") == "a1").row(0, named=True)
    # run 2 replays run 1's games: same rates, no change, nothing significant
    assert (a1["wr_bought_base"], a1["wr_bought_cand"], a1["wr_bought_change"]) == (1, 1, 0)
    assert not cards.get_column("wr_in_store_change_significant").any()
    page = (tmp_path / "index.html").read_text()
    assert "expected by chance" in page and "Holm" in page


@pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (apt-get install -y chromium)",
)
def test_report_in_chromium(report: Path, tmp_path: Path) -> None:
    dom = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path}",
            "--virtual-time-budget=10000",
            "--dump-dom",
            report.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=90,
        check=True,
    ).stdout
    check = re.search(r'id="image-check" data-loaded="(\d+)" data-total="(\d+)"', dom)
    assert check, "the page's load script did not run"
    loaded, total = int(check.group(1)), int(check.group(2))
    assert total >= 10 and loaded == total
    assert 'data-loaded="no"' not in dom
    for section in SECTIONS:
        assert f'<section id="{section}">' in dom
    shutil.rmtree(tmp_path, ignore_errors=True)


SCREENSHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
"""Where the browser test leaves its pictures of the demo report (the README names it)."""


def chromium(tmp_path: Path, *args: str) -> str:
    return subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            f"--user-data-dir={tmp_path / 'profile'}",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout


@pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (apt-get install -y chromium)",
)
def test_demo_report_in_chromium(tmp_path: Path) -> None:
    """A demo-like run (the demo's agents, fewer games): Findings is the first section, no two
    sections share a heading, every table sorts by a click on any column (numbers by value),
    and pictures of the top of the report and of its economy section land in docs/screenshots."""
    demo = ["demo", "--out", str(tmp_path / "demo"), "--games", "60", "--causal-games", "200"]
    assert main([*demo, "--workers", "1"]) == 0
    report = tmp_path / "demo" / "report" / "index.html"
    page = report.read_text(encoding="utf-8")
    probe = report.with_name("probe.html")
    probe.write_text(
        page.replace(
            "</body>",
            """<script>
    window.addEventListener("load", function () {
      var t = document.querySelector('table[data-name="economy_rounds"]');
      var heads = Array.from(t.tHead.rows[0].cells), col = heads.findIndex(
        function (h) { return h.textContent === "buy_share"; });
      heads[col].click(); heads[col].click();
      document.body.dataset.sorted = Array.from(t.tBodies[0].rows).map(
        function (r) { return r.cells[col].dataset.v; }).join(" ");
    });</script></body>""",
        ),
        encoding="utf-8",
    )
    dom = chromium(tmp_path, "--virtual-time-budget=10000", "--dump-dom", probe.as_uri())
    sections = re.findall(r'<section id="([a-z]+)"><h2>([^<]*)</h2>', dom)
    assert sections[0] == ("findings", "Findings")
    titles = [t for _, t in sections]
    assert len(titles) == len(set(titles)) >= 7
    sorted_values = re.search(r'data-sorted="([^"]*)"', dom)
    assert sorted_values, "the sort script did not run"
    shares = [float(v) for v in sorted_values.group(1).split()]
    assert len(shares) > 5 and shares == sorted(shares, reverse=True)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    top = SCREENSHOTS / "report-top.png"
    chromium(tmp_path, "--window-size=1280,1400", f"--screenshot={top}", report.as_uri())
    economy = report.with_name("economy.html")  # the economy section alone, at the top
    economy.write_text(
        page.replace(
            "</head>", "<style>body > *:not(#economy) { display: none !important; }</style></head>"
        ),
        encoding="utf-8",
    )
    shot = SCREENSHOTS / "report-economy.png"
    chromium(tmp_path, "--window-size=1280,2200", f"--screenshot={shot}", economy.as_uri())
    for png in (top, shot):
        assert png.read_bytes().startswith(b"\x89PNG") and png.stat().st_size > 50_000
