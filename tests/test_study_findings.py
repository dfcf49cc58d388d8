"""The study pages' Findings: compare, sweep, tune, ablate and skill each open with a
ranked list computed in workbench/studies/findings.py, tested here on hand-made inputs
with known answers (the sentence, its numbers and its severity, and no finding when there is
nothing to say)."""

from __future__ import annotations

from typing import Any, cast

import polars as pl
import pytest

from workbench.studies import findings as sf
from workbench.studies.ablation import Ablation
from workbench.studies.fairvalue import FairValue
from workbench.studies.sweep import SweepResult
from workbench.studies.tune import CardTuning, Outcome, Probe

CHANGE_SCHEMA = dict.fromkeys(("what", "name", "field", "base", "candidate", "change"), pl.String)
SIG_SCHEMA = {
    "what": pl.String,
    "name": pl.String,
    "metric": pl.String,
    "base": pl.Float64,
    "candidate": pl.Float64,
    "change": pl.Float64,
    "n_base": pl.Int64,
    "n_candidate": pl.Int64,
    "p": pl.Float64,
    "p_holm": pl.Float64,
}


def _sig(*rows: tuple[str, str, str, float, float, int, int]) -> pl.DataFrame:
    return pl.DataFrame(
        [
            {
                "what": w,
                "name": n,
                "metric": m,
                "base": b,
                "candidate": c,
                "change": c - b,
                "n_base": nb,
                "n_candidate": nc,
                "p": 1e-6,
                "p_holm": 1e-5,
            }
            for w, n, m, b, c, nb, nc in rows
        ],
        schema=SIG_SCHEMA,
    )


CHANGED = pl.DataFrame(
    [
        {
            "what": "card",
            "name": "Scout",
            "field": "buy",
            "base": "1",
            "candidate": "30",
            "change": "changed",
        }
    ],
    schema=CHANGE_SCHEMA,
)
SAME = pl.DataFrame([], schema=CHANGE_SCHEMA)


def test_compare_findings_rank_significant_differences_with_their_interval() -> None:
    """Scout's buy rate 60% -> 0% (n=100 each): Newcombe's interval lies wholly beyond the 5
    point band, so high; seat 1 of a board 55% -> 45% (n=400 each) is significant but its
    interval reaches inside the band, so medium; the seat's database name 'BOARD SEAT' reads
    as 'seat N on BOARD'. The content change is listed with them."""
    found = sf.compare_findings(
        CHANGED,
        _sig(
            ("card", "Scout", "buy_rate", 0.6, 0.0, 100, 100),
            ("seat", "Tiny Duel 1", "win_rate", 0.55, 0.45, 400, 400),
        ),
        40,
    )
    assert [(f.kind, f.severity) for f in found] == [
        ("difference", "high"),
        ("difference", "medium"),
        ("content", "medium"),
    ]
    scout, seat, content = found
    assert scout.text.startswith(
        "The buy rate of card Scout falls from 60.0% to 0.0%: \u221260.0 points (\u221269."
    )
    assert "n=200), Holm-corrected p = 1e-05." in scout.text
    assert scout.low is not None and scout.high is not None
    assert scout.low < -0.6 < scout.high < -0.05 and scout.section == "cards"
    assert seat.text.startswith("The win rate of seat 1 on Tiny Duel falls from 55.0% to 45.0%")
    assert seat.section == "sets" and seat.high is not None and -0.05 < seat.high < 0
    assert content.text == (
        "1 field of the spreadsheets and settings changed (n=1): Scout buy 1 -> 30."
    )


def test_compare_findings_warn_when_nothing_or_everything_moved() -> None:
    """Rates that move with the same content point at the play; a change that moves nothing is
    said to have no effect these games can show; same content, nothing moved: no finding."""
    moved = sf.compare_findings(SAME, _sig(("card", "Scout", "buy_rate", 0.6, 0.0, 100, 100)), 9)
    # the warning qualifies every difference, so it leads them
    assert [(f.kind, f.severity) for f in moved] == [("content", "high"), ("difference", "high")]
    assert "although the runs' content and settings are the same" in moved[0].text
    still = sf.compare_findings(CHANGED, _sig(), 12)
    assert [(f.kind, f.severity, f.n) for f in still] == [
        ("content", "medium", 1),
        ("no effect", "low", 12),
    ]
    assert "n=12 tests" in still[1].text
    assert sf.compare_findings(SAME, _sig(), 12) == []


def _metrics(bought: list[int]) -> pl.DataFrame:
    return pl.DataFrame({"value": list(range(1, len(bought) + 1)), "bought": bought})


@pytest.mark.parametrize(
    ("fair", "severity", "words"),
    [
        (
            FairValue(2.5, 2.1, 3.0, 0.3, -0.12, "closed"),
            "high",
            (
                "The improvement when bought crosses +0.00 at Dud.buy = 2.50 (95% interval "
                "2.10–3.00, "
                "n=180)."
            ),
        ),
        (
            FairValue(
                2.5, 2.1, None, 0.3, -0.12, "the upper end is open: a wider range would close it."
            ),
            "medium",
            (
                "The improvement when bought crosses +0.00 at Dud.buy = 2.50 (95% interval "
                "2.10–open, "
                "n=180); the upper end is open: a wider range would close it."
            ),
        ),
        (
            FairValue(None, None, None, 0.3, 0.0, "no crossing: a wider range."),
            "low",
            (
                "No fair value for Dud.buy: the improvement when bought does not cross +0.00 in "
                "the "
                "swept range (n=180); no crossing: a wider range."
            ),
        ),
    ],
)
def test_sweep_findings_say_where_the_fair_value_lies(
    fair: FairValue, severity: str, words: str
) -> None:
    found = sf.sweep_findings(fair, _metrics([60, 60, 60]), 0.0, "Dud.buy", "Dud", "sweep")
    assert [(f.kind, f.severity, f.text, f.section) for f in found] == [
        ("fair value", severity, words, "sweep")
    ]


def test_sweep_findings_name_the_values_with_too_small_a_sample() -> None:
    found = sf.sweep_findings(
        FairValue(2.5, 2.1, 3.0, 0.3, -0.12, "closed"),
        _metrics([60, 12, 0]),
        0.0,
        "Dud.buy",
        "Dud",
        "sweep",
    )
    assert [(f.kind, f.severity) for f in found] == [
        ("fair value", "high"),
        ("small sample", "low"),
    ]
    assert found[1].text.startswith("At Dud.buy = 2 (n=12), 3 (n=0) fewer than 30")


def _sweep(fair: FairValue) -> SweepResult:
    return SweepResult(cast(Any, None), _metrics([60, 60]), fair, cast(Any, None), "bought_gain")


def _outcome(proposed: int | None, reached: bool, confirmed: bool, note: str) -> Outcome:
    return Outcome(proposed, reached, confirmed, (Probe(1, 0.3, 0.2, 0.4, 400, 1),), note)


def test_tune_findings_rank_by_effect_and_say_when_no_price_gets_there() -> None:
    tunings = [
        CardTuning("Dud", "buy", 3, "too weak", -0.15, -0.2, -0.1, _outcome(2, True, False, "x")),
        CardTuning(
            "Windfall",
            "buy",
            1,
            "too strong",
            0.2,
            0.12,
            0.28,
            _outcome(4, True, True, "effect +1.0 points at 4; on fresh seeds +2.0"),
        ),
        CardTuning(
            "Champion",
            "buy",
            1,
            "too strong",
            0.3,
            0.25,
            0.35,
            _outcome(6, False, False, "no price in range gets its effect inside the band: y"),
        ),
    ]
    found = sf.tune_findings(tunings, ["Tonic"], ["Ghost"])
    assert [(f.kind, f.severity, f.subject, f.section) for f in found] == [
        ("proposal", "high", "Windfall", "proposals"),
        ("no price gets there", "medium", "Champion", "proposals"),
        ("proposal", "medium", "Dud", "proposals"),
        ("not tuned", "low", "Tonic", "flagged"),
        ("not judged", "low", "Ghost", "flagged"),
    ]
    assert found[0].text == (
        "Windfall (too strong: effect +20.0 points (+12.0 to +28.0) by randomised buying): "
        "buy 1 -> 4; effect +1.0 points at 4; on fresh seeds +2.0."
    )
    assert "no price in range gets its effect inside the band" in found[1].text
    assert found[4].text == (
        "1 card of the set never drafted in the judging run, so not judged (n=1): Ghost."
    )
    assert sf.tune_findings([], [], []) == []


@pytest.mark.parametrize(
    ("change", "low", "high", "severity", "tail"),
    [
        (-0.12, -0.18, -0.07, "high", "the card is worth less than a plain card of its costs."),
        (0.08, 0.01, 0.15, "medium", "the card is worth more than a plain card of its costs."),
        (
            0.01,
            -0.04,
            0.06,
            "low",
            "these games cannot tell the card from a plain one of its costs.",
        ),
    ],
)
def test_ablation_finding_states_the_causal_change(
    change: float, low: float, high: float, severity: str, tail: str
) -> None:
    r = Ablation(400, 0.5 + change, 0.5, change, low, high, 0.01, 30, 20)
    [f] = sf.ablation_findings("Dud", r)
    assert (f.kind, f.severity, f.n, f.section) == ("ablation", severity, 400, "ablation")
    assert f.text.startswith(
        f"Dud changes its holders' win rate by {sf.num(100 * change, True)}"
        " points against a plain baseline ("
    )
    assert f.text.endswith(tail)


def _skill(*rows: tuple[str, float, float, float, int]) -> pl.DataFrame:
    return pl.DataFrame(
        [
            {"agent": a, "bought_gain": g, "bought_gain_lo": lo, "bought_gain_hi": hi, "bought": n}
            for a, g, lo, hi, n in rows
        ]
    )


def test_skill_findings_show_a_verdict_that_flips_with_agent_strength() -> None:
    found = sf.skill_findings(
        "Champion", _skill(("random", -0.12, -0.2, -0.06, 60), ("search", 0.15, 0.08, 0.22, 70))
    )
    assert [(f.kind, f.severity, f.subject) for f in found] == [
        ("verdict flips", "high", "Champion"),
        ("agent verdict", "high", "search"),
        ("agent verdict", "high", "random"),
    ]
    assert found[0].text == (
        "Champion's verdict depends on agent strength: improvement when "
        "bought +15.0 points (8.0–22.0 points, n=70) with search, "
        "\u221212.0 points (\u221220.0 to \u22126.0 points, n=60) with "
        "random."
    )
    assert found[1].text == (
        "Champion looks too strong +15.0 points (8.0–22.0 points, n=70) with search."
    )


def test_skill_findings_stay_quiet_when_agents_agree() -> None:
    assert (
        sf.skill_findings(
            "Champion", _skill(("random", 0.01, -0.05, 0.07, 60), ("search", 0.02, -0.03, 0.07, 70))
        )
        == []
    )
    [weak] = sf.skill_findings(
        "Champion", _skill(("random", -0.01, -0.08, 0.06, 60), ("search", 0.02, -0.03, 0.07, 70))
    )
    assert (weak.kind, weak.severity) == ("verdict flips", "low")
    assert weak.text.endswith("the intervals overlap zero, so more games would tell.")


def test_skill_findings_say_when_an_agent_has_no_estimate() -> None:
    """Every holder bought the card: no improvement to compare, said rather than called even."""
    table = pl.DataFrame(
        {
            "agent": ["random", "heuristic"],
            "bought_gain": [None, 0.01],
            "bought_gain_lo": [None, -0.04],
            "bought_gain_hi": [None, 0.06],
            "bought": [60, 64],
        },
        schema_overrides={"bought_gain": pl.Float64},
    )
    [f] = sf.skill_findings("Champion", table)
    assert (f.kind, f.severity, f.subject, f.n) == ("no estimate", "low", "random", 1)
    assert f.text.startswith("No improvement when bought for Champion with random (n=1 agent): ")
