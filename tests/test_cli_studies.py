"""`sweep`, `tune` and `compare` explain themselves: an open interval says what would
close it, the x axis names the field swept, a misspelt card gets a "did you mean", `compare`
says what changed and what moved significantly, and `tune` moves a cost the way its flag says or
says why not."""

from __future__ import annotations

import csv
import math
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.figure import Figure

from app import cmd_tune
from app.cli import build_parser, main
from reports import design
from tests.test_report import CHROMIUM, SCREENSHOTS, chromium
from workbench.analysis import compare
from workbench.studies import findings as study_findings
from workbench.studies.fairvalue import Counts, FairValue, fair_value, in_words
from workbench.studies.tune import NOT_USED, STRONG, WEAK, Probe, flag, search, side

BAND = (-0.05, 0.05)

DATA = Path(__file__).resolve().parent / "data" / "tuning"
TINY = str(DATA / "tiny.csv")
DUEL = str(DATA / "duel.map.csv")


def _noisy(values: list[int], games: int, seed: int = 1) -> Counts:
    """One buyer and one non-buyer per game, both winning by coin flip: no crossing to find."""
    rng = np.random.default_rng(seed)
    shape = (len(values), games)
    n = np.ones(shape)
    return Counts(
        n,
        (rng.random(shape) < 0.5).astype(float),
        n.copy(),
        (rng.random(shape) < 0.5).astype(float),
    )


def test_an_open_interval_says_what_would_close_it() -> None:
    """A sweep over a flat truth with few games: whatever the estimate, an open end is
    explained by where the replicates cross, and the remedies are named."""
    values = [1, 2, 3]
    for seed in range(1, 30):
        f = fair_value(values, _noisy(values, 30, seed), replicates=400)
        if f.estimate is not None and f.low is None and f.high is None:
            break
    else:
        pytest.fail("no open – open interval in 29 seeds")
    assert "The 95% interval is open – open: of 400 bootstrap replicates" in f.note
    assert f"{f.above:.0%} cross above 3 (the highest)" in f.note
    assert "more games per value (now 30)" in f.note
    assert "values below 1 and above 3 (a wider range)" in f.note
    assert f.below + f.above + f.flat > 0.05


def test_a_closed_interval_needs_no_words() -> None:
    values = [1, 2, 3, 4, 5]
    rng = np.random.default_rng(2)
    games = 1500
    luck = rng.random(games)
    n = np.ones((5, games))
    w_a = np.array([(luck < 0.5 + 0.06 * (3 - v)) for v in values], dtype=float)
    w_b = np.array([(rng.random(games) < 0.5 - 0.06 * (3 - v)) for v in values], dtype=float)
    f = fair_value(values, Counts(n, w_a, n.copy(), w_b), replicates=400)
    assert f.low is not None and f.high is not None and "interval is open" not in f.note


def test_no_crossing_in_range_points_the_way_to_one() -> None:
    """The fitted line reaches the target beyond the swept values: the note says where."""
    f = FairValue(None, None, None, intercept=0.5, slope=-0.1, note="")
    assert f.reach(0.0) == pytest.approx(5.0)
    values = [1, 2, 3]
    rng = np.random.default_rng(3)
    games = 800
    n = np.ones((3, games))
    w_a = np.array([rng.random(games) < 0.75 - 0.05 * v for v in values], dtype=float)
    w_b = np.array([rng.random(games) < 0.25 + 0.05 * v for v in values], dtype=float)
    res = fair_value(values, Counts(n, w_a, n.copy(), w_b), replicates=200)
    assert res.estimate is None
    assert "no crossing in the swept range 1..3" in res.note
    assert "values above 3 (a wider range) would show whether it does" in res.note


def test_the_sweep_charts_x_axis_names_the_field(monkeypatch: pytest.MonkeyPatch) -> None:
    figures: list[Figure] = []
    monkeypatch.setattr(design, "_png", lambda fig: figures.append(fig) or "")
    metrics = pl.DataFrame(
        {
            "value": [1, 2],
            "seen": [40, 40],
            "in_store": [40, 40],
            "bought": [40, 40],
            **{f"{c}{e}": [0.5, 0.4] for c, _, _ in design.CARD_PANELS for e in ("", "_lo", "_hi")},
        }
    )
    f = FairValue(1.5, None, None, 0.1, -0.05, "a note")
    section = design.sweep_section("s", "Sweep of Dud.buy", metrics, f, 0.0, "Dud", "Dud.buy")
    assert {ax.get_xlabel() for ax in figures[0].axes} == {"Dud.buy"}
    assert "How it was found: a note." in section.intro
    assert (
        "The fair Dud.buy is 1.5 at a guess: its 95% interval reaches beyond the values swept "
        "(1 to 2) at both ends." in section.intro
    )
    # a rate panel drawn from 0.4 says so, the improvement's (0 inside) not
    notes = [[t.get_text() for t in ax.texts] for ax in figures[0].axes]
    assert [n[0][:13] for n in notes[:3]] == ["y axis from 0"] * 3, notes
    assert notes[3] == []


@pytest.mark.parametrize(
    "fair, words",
    [
        (
            FairValue(2.46, 2.1, 2.94, 0.5, -0.2, "n"),
            "The fair Dud.buy is 2.5 (95% interval 2.1 to 2.9): there the improvement when "
            "bought crosses +0.00.",
        ),
        (
            FairValue(2.46, 2.1, None, 0.5, -0.2, "n"),
            "The fair Dud.buy is 2.5, at least 2.1: its 95% interval reaches above the values "
            "swept (1 to 4), so how much higher is not known.",
        ),
        (
            FairValue(None, None, None, 0.18, 0.2, "n"),
            "There is no fair Dud.buy among the values swept (1 to 4): the improvement when "
            "bought stays above +0.00 at every value swept, and its line would reach it only at "
            "-0.9, below 0, where no Dud.buy lies.",
        ),
        (
            FairValue(None, None, None, -0.1, 0.2, "n"),
            "There is no fair Dud.buy among the values swept (1 to 4): the improvement when "
            "bought stays above +0.00 at every value swept; its line would reach it near 0.5, "
            "so lower values than 1 would show where.",
        ),
        (
            FairValue(None, None, None, 0.1, 0.0, "n"),
            "There is no fair Dud.buy among the values swept (1 to 4): the improvement when "
            "bought does not change with Dud.buy in these games.",
        ),
        (
            FairValue(None, None, None, math.nan, math.nan, "n"),
            "There is no fair Dud.buy among the values swept (1 to 4): fewer than two of them "
            "have both buyers and seats that never bought it, so the improvement when bought "
            "cannot be measured.",
        ),
    ],
)
def test_a_fair_value_in_plain_words(fair: FairValue, words: str) -> None:
    """The fair cost and its interval in a sentence, or why there is none."""
    assert in_words(fair, [1, 2, 3, 4], "Dud.buy", "the improvement when bought", 0.0) == words


def test_an_unknown_card_gets_a_did_you_mean(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, out = tmp_path / "s.duckdb", tmp_path / "out"
    assert (
        main(
            [
                "sweep",
                "--sets",
                TINY,
                "--board",
                DUEL,
                "--card",
                "Champoin",
                "--field",
                "buy",
                "--values",
                "1,2",
                "--games",
                "2",
                "--workers",
                "1",
                "--db",
                str(db),
                "--out",
                str(out),
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert "no card 'Champoin' in the chosen sets; did you mean Champion?" in err
    assert not db.exists() and not out.exists()


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Run 1: tiny.csv; run 2: the same with Scout unaffordable (buy 1 -> 30) and Champion's
    buy 1 -> 2, on the same seed, and income 2 -> 3 on a copy of the board."""
    tmp = tmp_path_factory.mktemp("cmp")
    edited = tmp / "tiny.csv"
    edited.write_text(
        Path(TINY)
        .read_text()
        .replace("\nScout,unit,8,1,", "\nScout,unit,8,30,")
        .replace("\nChampion,unit,3,1,", "\nChampion,unit,3,2,")
    )
    for part in DATA.glob("duel.*.csv"):
        (tmp / part.name).write_text(part.read_text().replace("income,2", "income,3"))
    db = tmp / "c.duckdb"
    for sets, board in ((TINY, DUEL), (str(edited), str(tmp / "duel.map.csv"))):
        assert (
            main(
                [
                    "simulate",
                    "--db",
                    str(db),
                    "--sets",
                    sets,
                    "--board",
                    board,
                    "--games",
                    "30",
                    "--workers",
                    "1",
                ]
            )
            == 0
        )
    return db


def test_compare_prints_what_changed_and_what_moved_significantly(
    two_runs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["compare", "--db", str(two_runs), "1", "2", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "What changed from run 1 to run 2:"
    assert "  Champion: buy 1 -> 2" in out and "  Scout: buy 1 -> 30" in out
    assert "  board Tiny Duel: income 2 -> 3" in out
    assert any(line.startswith("  run settings: sets ") for line in out)
    head = out.index(next(line for line in out if line.startswith("Significant differences")))
    assert "Holm-corrected p < 0.05" in out[head]
    scout = [line for line in out[head:] if line.startswith("  card Scout: buy rate ")]
    assert scout and "-> 0.0% (-" in scout[0], out
    assert out[-1] == str(tmp_path / "index.html")


def test_the_compare_page_opens_with_the_answers(two_runs: Path, tmp_path: Path) -> None:
    """Findings come first: Scout's collapsed buy rate with its interval, linking to the cards,
    and what changed; then the changes and the significant differences, as tables short
    enough to read without scrolling; every significant row is also in the full tables."""
    assert main(["compare", "--db", str(two_runs), "1", "2", "--out", str(tmp_path)]) == 0
    page = (tmp_path / "index.html").read_text()
    first = page.index("<section")
    assert page[first:].startswith('<section id="findings"><h2>Findings</h2>')
    found = page[first : page.index("</section>", first)]
    scout = re.search(
        r'<li class="sev-high"><span class="sev">high</span> The buy rate of card '
        r"Scout falls from [0-9.]+% to 0.0%: \u2212[0-9.]+ points \(\u2212[0-9.]+ "
        r"to \u2212[0-9.]+ points, n=\d+\), Holm-corrected p = [0-9.e-]+\. <a "
        r'class="to" href="#cards">',
        found,
    )
    assert scout, found
    assert "fields of the spreadsheets and settings changed" in found
    first = page.index("<section", first + 1)
    assert page[first:].startswith('<section id="answers">')
    answers = page[first : page.index("</section>", first)]
    assert 'data-name="changes"' in answers and 'data-name="significant"' in answers
    sig = pl.read_csv(tmp_path / "tables" / "significant.csv")
    assert {"what", "name", "metric", "base", "candidate", "change", "p_holm"} <= set(sig.columns)
    assert (sig.get_column("p_holm") < 0.05).all()
    row = sig.filter((pl.col("name") == "Scout") & (pl.col("metric") == "buy_rate")).row(
        0, named=True
    )
    assert row["candidate"] == 0.0 and row["base"] > 0.5
    cards = pl.read_parquet(tmp_path / "tables" / "compare_cards.parquet")
    assert cards.filter(pl.col("card") == "Scout").get_column("buy_rate_change_significant").item()


def test_compare_shows_the_improvement_when_bought_of_both_runs_and_its_change(
    two_runs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The report's balance measure per card in both runs, with its buyers,
    and its change with an interval, printed and on the page (the cards section's first
    table, its files keeping every column)."""
    capsys.readouterr()
    assert main(["compare", "--db", str(two_runs), "1", "2", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    head = out.index(
        "Improvement when bought per card (the report's balance measure; base -> candidate, "
        "the change with its 95% interval):"
    )
    effects = pl.read_parquet(tmp_path / "tables" / "compare_card_effects.parquet")
    both = effects.filter(pl.col("bought_gain_change").is_not_null())
    assert both.height >= 1
    r = both.row(0, named=True)

    def sign(v: float) -> str:
        return f"{100 * v:+.1f}".replace("-", "\u2212")

    assert (
        f"  {r['card']}: {sign(r['bought_gain_base'])} (n={r['bought_base']}) -> "
        f"{sign(r['bought_gain_cand'])} (n={r['bought_cand']}): "
        f"{sign(r['bought_gain_change'])} points ({sign(r['bought_gain_change_lo'])} to "
        f"{sign(r['bought_gain_change_hi'])})"
    ) in [line.split(", significant")[0] for line in out[head:]]
    assert r["bought_gain_change"] == pytest.approx(r["bought_gain_cand"] - r["bought_gain_base"])
    page = (tmp_path / "index.html").read_text()
    cards = page[page.index('<section id="cards">') :]
    assert cards.index('data-name="compare_card_effects"') < cards.index(
        'data-name="compare_cards"'
    )
    for column in ("bought_gain_base", "bought_gain_cand", "bought_gain_change"):
        assert f">{column}</th>" in cards


def test_the_change_of_an_effect_has_the_interval_of_a_difference() -> None:
    """By hand: +10 points (2 to 18) in the base, -5 (-15 to +4) in the candidate: a change of
    -15 points, from -15 - sqrt(10^2 + 8^2) = -27.8 to -15 + sqrt(9^2 + 8^2) = -3.0; standard
    errors 19/3.92 and 16/3.92 points give z = 2.367, p = 0.0179. A card without an estimate
    in one run has no change and is not tested."""
    df = pl.DataFrame(
        {
            "card": ["A", "B"],
            "bought_gain_base": [0.10, 0.2],
            "bought_gain_base_lo": [0.02, 0.1],
            "bought_gain_base_hi": [0.18, 0.3],
            "bought_gain_cand": [-0.05, None],
            "bought_gain_cand_lo": [-0.15, None],
            "bought_gain_cand_hi": [0.04, None],
        }
    )
    a, b = compare._with_change(df, "bought_gain").iter_rows(named=True)
    assert a["bought_gain_change"] == pytest.approx(-0.15)
    assert a["bought_gain_change_lo"] == pytest.approx(-0.15 - math.hypot(0.10, 0.08))
    assert a["bought_gain_change_hi"] == pytest.approx(-0.15 + math.hypot(0.09, 0.08))
    assert a["bought_gain_change_p"] == pytest.approx(0.01792, abs=2e-5)
    assert a["bought_gain_change_holm"] == pytest.approx(a["bought_gain_change_p"])
    assert a["bought_gain_change_significant"]
    assert b["bought_gain_change"] is None and b["bought_gain_change_p"] is None
    assert not b["bought_gain_change_significant"]
    moved = {
        "what": "card",
        "name": "A",
        "metric": "bought_gain",
        "base": 0.10,
        "candidate": -0.05,
        "change": -0.15,
        "low": a["bought_gain_change_lo"],
        "high": a["bought_gain_change_hi"],
        "n_base": 40,
        "n_candidate": 35,
        "p": 0.0179,
        "p_holm": 0.0179,
    }
    (found,) = [
        f
        for f in study_findings.compare_findings(pl.DataFrame(), pl.DataFrame([moved]), 1)
        if f.kind == "difference"
    ]
    assert found.text == (
        "The improvement when bought of card A falls from +10.0 to \u22125.0 points: "
        "\u221215.0 points (\u221227.8 to \u22123.0 points, n=75), Holm-corrected p = 0.018."
    )


# --- tune: a proposal moves the cost the way the flag points, or says why not ---------------

LOPSIDED = str(DATA / "lopsided.csv")
RACE = str(DATA / "race.map.csv")


def _measure(
    effect: Callable[[int], float], fresh: Callable[[int], float] | None = None
) -> Callable[[int, bool], Probe]:
    """A design run's answer at each value, from a known effect curve (interval +-0.005)."""

    def measure(value: int, is_fresh: bool) -> Probe:
        e = (fresh or effect)(value) if is_fresh else effect(value)
        return Probe(value, e, e - 0.005, e + 0.005, 500, value, is_fresh)

    return measure


def _start(value: int, effect: float) -> Probe:
    return Probe(value, effect, effect - 0.005, effect + 0.005, 500, 0)


def test_the_search_finds_the_price_whose_effect_is_inside_the_band() -> None:
    """Too strong at buy 1 (+0.31), 5 points weaker per step: inside +-0.05 from 7 to 8. The
    search brackets with 2, 3, 5, 9, halves to 7 (inside) and 6 (still too strong), so 7 is
    the nearest price inside the band; 7 is checked on fresh seeds."""
    out = search(_measure(lambda v: 0.31 - 0.05 * (v - 1)), _start(1, 0.31), 1, BAND, 1)
    assert out.proposed == 7 and out.reached and out.confirmed
    assert [p.value for p in out.probes if not p.fresh] == [1, 2, 3, 5, 6, 7, 9]
    assert [p.value for p in out.probes if p.fresh] == [7]
    # +0.01 (+0.005 to +0.015) on fresh seeds: the whole interval inside +-0.05
    assert out.note.endswith(
        "on fresh seeds effect +1.0 points (+0.5 to +1.5), inside the band too"
    )


def test_a_too_weak_card_is_searched_downwards_to_its_floor_and_no_further() -> None:
    """Crown Jewel at 30, fair at 4 or less (effect -0.06 per step above 4, +0.06 per step
    below): the search goes down by 1, 2, 4, 8, 16 (to 14), then to the floor 1 (too
    strong), halves to 7 (too weak) and 4 (inside), and proposes 4: 5, between them, would
    be a tenth run, and the budget keeps one for the fresh check."""
    out = search(_measure(lambda v: -0.06 * (v - 4)), _start(30, -1.56), -1, BAND, 1)
    assert out.proposed == 4 and out.confirmed
    assert [p.value for p in out.probes if not p.fresh] == [1, 4, 7, 14, 22, 26, 28, 29, 30]


def test_when_no_price_gets_inside_the_band_it_says_so_and_proposes_the_nearest() -> None:
    """The effect jumps from +0.20 at 3 to -0.15 at 4: no price is inside the band; 4 is the
    nearer to the band's middle and is proposed with the reason."""
    out = search(_measure(lambda v: 0.20 if v <= 3 else -0.15), _start(1, 0.20), 1, BAND, 1)
    assert out.proposed == 4 and not out.reached and not out.confirmed
    assert "no price in range gets its effect inside the band" in out.note
    assert "between 3 and 4 its effect jumps over the band" in out.note


def test_a_card_priced_out_of_play_is_tried_at_its_floor_first() -> None:
    """Priced out at 30 (and down to 10), fair at 3: the floor 1 brackets it at once, then
    halving: 15, 8, 4, 2, 3."""

    def measure(value: int, fresh: bool) -> Probe:
        e = -0.06 * (value - 3)
        return Probe(value, e, e - 0.005, e + 0.005, 500, value, fresh, priced_out=value >= 10)

    start = Probe(30, -0.01, -0.05, 0.03, 500, 0, priced_out=True)
    out = search(measure, start, -1, BAND, 1)
    assert out.proposed == 3 and out.confirmed
    assert [p.value for p in out.probes if not p.fresh] == [1, 2, 3, 4, 8, 15, 30]


def test_the_proposal_is_where_the_line_through_the_probes_crosses_the_band() -> None:
    """At 400 games an interval is about +-0.11: +0.10 at buy 3 (-0.01 to +0.21) already
    reaches into the band, but the line through the probes 1, 2, 3 and 5 (0.30 - 0.10 per
    step) crosses the band's middle at 4, which is proposed and checked on fresh seeds."""

    def measure(value: int, fresh: bool) -> Probe:
        e = 0.30 - 0.10 * (value - 1)
        return Probe(value, e, e - 0.11, e + 0.11, 400, value, fresh)

    out = search(measure, Probe(1, 0.3, 0.19, 0.41, 400, 0), 1, BAND, 1)
    assert out.proposed == 4 and out.confirmed
    assert [p.value for p in out.probes if p.fresh] == [4]
    assert "crosses the band's middle at 4" in out.note
    # 0.00 (-0.11 to +0.11) on fresh seeds reaches into the band and out of it: not "inside"
    assert "inside the band too" not in out.note
    assert "not told apart from the band (its interval reaches beyond it)" in out.note


def test_a_line_nearly_flat_in_the_cost_proposes_at_most_two_steps_past_the_probes() -> None:
    """Too strong at buy 3 (+0.147), a point weaker per step, each interval +-0.08: 4 is still
    too strong (+0.057 to +0.217), 5 reaches into the band (+0.047). The line through 3, 4
    and 5 crosses the band's middle at 18 (0.147 / 0.01 = 14.7 steps past 3, rounded), far
    from anything played; the proposal is held to 7, two steps (REACH) past the probes, and
    says why."""

    def measure(value: int, fresh: bool) -> Probe:
        e = 0.147 - 0.01 * (value - 3)
        return Probe(value, e, e - 0.08, e + 0.08, 400, value, fresh)

    out = search(measure, measure(3, False), 1, BAND, 1)
    assert [p.value for p in out.probes if not p.fresh] == [3, 4, 5]
    assert out.proposed == 7 and out.reached
    assert "crosses the band's middle at 18, far beyond the values played" in out.note
    assert "so 7, 2 steps past them, is proposed" in out.note


def test_noisy_probes_put_the_proposal_within_one_of_the_fair_cost() -> None:
    """A card fair at buy 6 (effect 0.06 per step, +0.30 at the planted 1), each probe's
    effect drawn with the standard error of 400 games (0.056), 400 searches: the line through
    the probes, held to REACH steps beyond them, proposes 5, 6 or 7 in 77% of them and a value
    more than 3 away in 1% (unheld: 70% and 3%; at 0.10 a step, 97%); the nearest value whose
    interval reaches the band (the rule before) stops short, at 3 or 4 mostly: 18%."""
    rng = np.random.default_rng(7)
    se = 0.056

    def measure(value: int, fresh: bool) -> Probe:
        e = -0.06 * (value - 6) + float(rng.normal(0, se))
        return Probe(value, e, e - 1.96 * se, e + 1.96 * se, 400, value, fresh)

    near, far, old = 0, 0, 0
    for _ in range(400):
        out = search(measure, measure(1, False), 1, BAND, 1)
        near += out.proposed is not None and abs(out.proposed - 6) <= 1
        far += out.proposed is not None and abs(out.proposed - 6) > 3
        first_inside = [p.value for p in out.probes if not p.fresh and side(p, BAND) == 0]
        old += bool(first_inside) and abs(min(first_inside) - 6) <= 1
    assert near >= 0.75 * 400
    assert far <= 0.02 * 400
    assert old <= 0.25 * 400


def test_a_price_that_does_not_matter_gets_no_proposal() -> None:
    """Too weak whatever its price: down to the floor nothing comes nearer the band."""
    out = search(_measure(lambda v: -0.20), _start(5, -0.20), -1, BAND, 1)
    assert out.proposed is None and not out.reached
    assert "1 is the floor" in out.note and "change its other numbers instead" in out.note


def test_a_proposal_fresh_seeds_contradict_is_not_confirmed() -> None:
    out = search(
        _measure(lambda v: 0.2 - 0.1 * (v - 1), fresh=lambda v: 0.15),
        _start(1, 0.2),
        1,
        BAND,
        1,
    )
    assert out.proposed == 3 and out.reached and not out.confirmed
    assert "not confirmed" in out.note


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from([1, -1]),
    st.integers(1, 30),
    st.lists(st.floats(-0.5, 0.5), min_size=100, max_size=100),
    st.integers(2, 10),
)
def test_a_proposal_never_moves_against_the_flag(
    way: int, current: int, curve: list[float], budget: int
) -> None:
    """Whatever the effects (even not monotone): a proposal moves the cost the way the flag
    points, stays within the floor and CAP, and never plays more than `budget` runs."""
    start = _start(current, 0.3 * way)
    out = search(_measure(lambda v: curve[v]), start, way, BAND, 1, 99, budget)
    if out.proposed is not None:
        assert (out.proposed - current) * way > 0 and 1 <= out.proposed <= 99
    else:
        assert out.note
    assert len(out.probes) <= budget


def test_flags_are_ranked_by_how_far_their_interval_lies_outside_the_band() -> None:
    effects = pl.DataFrame(
        {
            "card": ["A", "B", "C", "D", "E"],
            "effect": [0.12, -0.30, 0.01, 0.25, -0.2],
            "low": [0.08, -0.36, -0.03, 0.20, -0.25],
            "high": [0.16, -0.24, 0.05, 0.30, -0.15],
            "n": [400] * 5,
            "n_forced": [100] * 5,
            "bought_forced": [90, 90, 90, 90, 90],
            "played_forced": [80, 80, 80, 80, 3],
        }
    )
    df = flag(effects, ["A", "B", "C", "D", "E", "Other"], BAND)
    assert df.select("card", "verdict").rows() == [
        ("B", WEAK),
        ("D", STRONG),
        ("A", STRONG),
        ("C", ""),
        ("E", NOT_USED),
    ]


@pytest.mark.parametrize(
    "given, sets",
    [
        ("tide-callers", ("iron-legion", "tide-callers")),
        (LOPSIDED, (LOPSIDED,)),
    ],
)
def test_the_judging_run_plays_the_sets_the_help_names(given: str, sets: tuple[str, ...]) -> None:
    args = build_parser().parse_args(
        [
            "tune",
            "--set",
            given,
            "--band=-0.05,0.05",
            "--out",
            "o",
            "--board",
            RACE if given == LOPSIDED else "kings-crossing",
        ]
    )
    spec, run = cmd_tune._judging_spec(args)
    assert spec.sets == sets and run is None
    args = build_parser().parse_args(
        [
            "tune",
            "--set",
            given,
            "--band=-0.05,0.05",
            "--out",
            "o",
            "--sets",
            "iron-legion,pestgericht",
        ]
    )
    assert cmd_tune._judging_spec(args)[0].sets == ("iron-legion", "pestgericht")


def test_the_judging_run_plays_the_reports_games_and_each_probe_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """tune flags what the report would: its own judging run plays DESIGN_GAMES (what
    `simulate --design causal` plays for the verdicts) unless --judge-games says otherwise,
    while --games stays each probe's (the spec the search is given)."""
    from app.cmd_simulate import DESIGN_GAMES
    from workbench.studies import tune_set as ts

    played: list[int] = []

    class Stop(Exception):
        pass

    def judge(db: object, spec: object, workers: int, console: object) -> int:
        played.append(spec.games)  # type: ignore[attr-defined]
        raise Stop

    monkeypatch.setattr(ts, "_play", judge)
    words = ["tune", "--set", "tide-callers", "--band=-0.05,0.05", "--db", str(tmp_path / "t")]
    for extra, games in (([], DESIGN_GAMES), (["--judge-games", "300"], 300)):
        args = build_parser().parse_args([*words, "--games", "50", *extra, "--out", "o"])
        base, run = cmd_tune._judging_spec(args)
        assert base.games == 50 and run is None  # the probes' spec
        with pytest.raises(Stop):
            cmd_tune.tune(args, cmd_tune.consoles()[1])
        assert played[-1] == games
    assert DESIGN_GAMES == 6000


def test_a_judging_run_of_no_games_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    words = ["tune", "--set", "tide-callers", "--band=-0.05,0.05", "--judge-games", "0"]
    assert main([*words, "--db", str(tmp_path / "t"), "--out", str(tmp_path / "o")]) == 2
    assert "--judge-games must be at least 1, not 0" in capsys.readouterr().err
    assert not (tmp_path / "t").exists()


def test_a_set_outside_the_judging_run_is_refused_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, out = tmp_path / "t.duckdb", tmp_path / "out"
    assert (
        main(
            [
                "tune",
                "--set",
                "tide-callers",
                "--sets",
                "iron-legion,pestgericht",
                "--band",
                "-0.05,0.05",
                "--db",
                str(db),
                "--out",
                str(out),
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert "--set 'tide-callers' is not among the judging run's sets" in err
    assert not db.exists() and not out.exists()


def test_tune_raises_a_card_far_too_cheap_and_lowers_one_far_too_dear(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """tests/data/tuning/lopsided.csv: in a six-round resource race, Windfall gains 8 for a
    price of 1 and Crown Jewel costs 30 (hardly any purse holds that much) next to fillers
    whose gain equals their price. Judged by randomised buying, tune must propose a higher buy
    for Windfall and a lower one for Crown Jewel, each checked on fresh seeds, with the
    marked copy and proposals.csv saying whether the band is reached."""
    db, out = tmp_path / "t.duckdb", tmp_path / "out"
    assert (
        main(
            [
                "tune",
                "--db",
                str(db),
                "--set",
                LOPSIDED,
                "--board",
                RACE,
                "--band",
                "-0.05,0.05",
                "--games",
                "100",
                "--judge-games",
                "100",
                "--seed",
                "1",
                "--workers",
                "1",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    printed = " ".join(capsys.readouterr().out.split())
    with (out / "proposals.csv").open(newline="") as f:
        rows = {r["card"]: r for r in csv.DictReader(f)}
    proposals = {c: (int(r["old"]), int(r["new"])) for c, r in rows.items()}
    assert proposals["Windfall"][0] == 1 and proposals["Windfall"][1] > 1
    assert proposals["Crown Jewel"][0] == 30 and proposals["Crown Jewel"][1] < 30
    assert f"Windfall (too strong): buy 1 -> {proposals['Windfall'][1]} (" in printed
    assert f"Crown Jewel (too weak): buy 30 -> {proposals['Crown Jewel'][1]} (" in printed
    for r in rows.values():  # confirmed on fresh seeds, or the reason it is not
        assert r["note"] == "" or "not confirmed" in r["note"] or "no price" in r["note"]
    page = (out / "index.html").read_text()
    assert page.index('<section id="proposals">') < page.index('<section id="flagged">')
    first = page.index("<section")
    assert page[first:].startswith('<section id="findings"><h2>Findings</h2>')
    found = page[first : page.index("</section>", first)]
    assert re.search(
        r'<span class="sev">(high|medium)</span> Windfall \(too strong: effect \+[0-9.]+ '
        r"points \([+−0-9.]+ to [+−0-9.]+\) by randomised buying\): "
        rf"buy 1 -&gt; {proposals['Windfall'][1]}; ",
        found,
    ), found
    probes = pl.read_csv(out / "tables" / "tune_probes.csv")
    jewel = probes.filter(pl.col("card") == "Crown Jewel").sort("run_id")
    assert jewel.get_column("value").to_list()[:2] == [30, 1], "priced out: the floor first"


def test_the_sweep_charts_legend_covers_no_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fair-value panel's legend sits right of the plot, outside the axes, where no line,
    band or point can lie under it."""
    figures: list[Figure] = []
    monkeypatch.setattr(design, "_png", lambda fig: figures.append(fig) or "")
    metrics = pl.DataFrame(
        {
            "value": [1, 2, 3],
            "seen": [40] * 3,
            "in_store": [40] * 3,
            "bought": [40] * 3,
            **{
                f"{c}{e}": [0.6, 0.5, 0.4]
                for c, _, _ in design.CARD_PANELS
                for e in ("", "_lo", "_hi")
            },
        }
    )
    design.sweep_section(
        "s",
        "Sweep of Dud.buy",
        metrics,
        FairValue(2.0, 1.5, 2.5, 0.1, -0.05, "closed"),
        0.0,
        "Dud",
        "Dud.buy",
    )
    fig = figures[0]
    fig.canvas.draw()
    legends = [(ax, ax.get_legend()) for ax in fig.axes if ax.get_legend() is not None]
    assert legends
    for ax, legend in legends:
        box, plot = legend.get_window_extent(), ax.get_window_extent()
        assert box.x0 >= plot.x1, (box, plot)


@pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="Debian's chromium is not installed (apt-get install -y chromium)",
)
def test_the_compare_page_in_chromium(two_runs: Path, tmp_path: Path) -> None:
    """As a browser renders it, the compare page opens with Findings, and pictures of its top
    and of its cards section, the improvement when bought of both runs first, land in
    docs/screenshots beside the report's."""
    out = tmp_path / "compare"
    assert main(["compare", "--db", str(two_runs), "1", "2", "--out", str(out)]) == 0
    page = out / "index.html"
    dom = chromium(tmp_path, "--virtual-time-budget=5000", "--dump-dom", page.as_uri())
    sections = re.findall(r'<section id="([a-z_]+)"><h2>([^<]*)</h2>', dom)
    assert sections[:2] == [("findings", "Findings"), ("answers", "What changed and what it did")]
    assert 'class="sev-high"' in dom
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / "compare-top.png"
    chromium(tmp_path, "--window-size=1280,1100", f"--screenshot={shot}", page.as_uri())
    cards = page.with_name("cards.html")  # the cards section alone, at the top
    cards.write_text(
        page.read_text(encoding="utf-8").replace(
            "</head>", "<style>body > *:not(#cards) { display: none !important; }</style></head>"
        ),
        encoding="utf-8",
    )
    balance = SCREENSHOTS / "compare-cards.png"
    chromium(tmp_path, "--window-size=1280,1100", f"--screenshot={balance}", cards.as_uri())
    for png in (shot, balance):
        assert png.read_bytes().startswith(b"\x89PNG") and png.stat().st_size > 30_000
