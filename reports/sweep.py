"""The page of `workbench sweep`: the findings, then the card's (or the board's) metrics against
the value with bands and the fair value."""

from __future__ import annotations

from pathlib import Path

from reports import balance, design, html
from workbench.studies import findings as study_findings
from workbench.studies.study import Study
from workbench.studies.sweep import SweepResult

FINDINGS_INTRO = (
    "What to look at first: where the fair value lies and how sure it is (high: "
    "a closed 95% interval, an answer to act on; medium: one end open, with what "
    "would close it; low: no estimate), and the values whose sample is too "
    "small. n counts the observations behind the fit."
)


def write_page(
    out: Path,
    db: str,
    study: Study,
    res: SweepResult,
    card: str,
    field: str,
    target: float,
    seeds: str,
) -> None:
    """The page: the findings, then the sweep's section (`design.sweep_section`); `seeds` says
    how the values were seeded."""
    what = f"{card}.{field}" if card else f"board {field}"
    found = study_findings.sweep_findings(res.fair, res.metrics, target, what, card, "sweep")
    html.write(
        out,
        f"Sweep {study.sweep_id}: {what}",
        [
            ("sweep", f"{study.sweep_id} in {db}, runs {', '.join(map(str, study.run_ids))}"),
            ("seeds", seeds),
        ],
        [
            balance.findings_list(
                found, FINDINGS_INTRO, "No fair value and nothing else to report."
            ),
            design.sweep_section(
                "sweep", f"Sweep of {what}", res.metrics, res.fair, target, card, what
            ),
        ],
    )
