"""The page of `workbench ablate`: the findings, the card's change in win rate against its
baseline, and its metrics in both runs."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from reports import balance, html
from reports.html import Section, Table
from workbench.studies import findings as study_findings
from workbench.studies.ablation import Ablation, AblationStudy

RATES = {
    "pick_rate": "seen",
    "buy_rate": "in_store",
    "wr_in_store": "in_store",
    "wr_bought": "bought",
    "bought_gain": "bought",
}


def _summary(card: str, result: Ablation) -> pl.DataFrame:
    """The ablation as the page's one-row table."""
    return pl.DataFrame(
        [
            {
                "card": card,
                "seats": result.seats,
                "win_rate_with_card": result.with_card,
                "win_rate_with_baseline": result.with_baseline,
                "change": result.change,
                "change_low": result.low,
                "change_high": result.high,
                "won_only_with_card": result.gained,
                "won_only_with_baseline": result.lost,
                "sign_test_p": result.p_value,
            }
        ]
    )


FINDINGS_INTRO = (
    "What to look at first: the card's causal effect on its holders' win rate (high: the whole "
    "95% interval lies more than 5 points from no change; medium: the estimate does and the "
    "interval excludes no change; low: no clear effect). n counts the seat-games."
)


def write_page(out: Path, db: str, card: str, seed: int, done: AblationStudy) -> None:
    """The page: the findings, then the change in win rate and the card's metrics per run."""
    st, result = done.study, done.result
    found = study_findings.ablation_findings(card, result)
    html.write(
        out,
        f"Ablation of {card}",
        [
            (
                "study",
                f"{st.sweep_id} in {db}: run {st.run_ids[0]} original, run "
                f"{st.run_ids[1]} baseline, seed {seed} for both",
            )
        ],
        [
            balance.findings_list(found, FINDINGS_INTRO, "No effect to report."),
            Section(
                "ablation",
                f"{card} against its baseline",
                "Seats that drafted the card "
                "in the original run, compared with the same seats and seeds when the card is "
                "a plain baseline of the same costs. The change is causal up to the agents' "
                "play: everything else in those games started the same. Interval: 95% paired "
                "bootstrap over games.",
                [
                    Table("ablation", "Win rate change", _summary(card, result)),
                    Table(
                        "ablation_metrics",
                        "The card's metrics in both runs",
                        done.metrics,
                        RATES,
                        ["variant", "run_id", *RATES],
                    ),
                ],
            ),
        ],
    )
