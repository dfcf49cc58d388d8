"""Findings: what a designer should look at first, ranked, each computed from the tables.

A finding is one sentence with its number, 95% interval and sample size, a severity, and the id
of the report section that shows it. Severity says how sure and how large:
- high: the whole interval lies beyond the threshold (the problem is real and at least that big);
- medium: the estimate lies beyond the threshold and the interval excludes the neutral value
  (for one-sided checks: the estimate does);
- low: the estimate lies beyond the threshold, but the sample cannot tell it from noise.
Cards use the report's multiple-comparison control instead: significant after Holm's correction
is medium (high when the improvement is at least `strong_gain`), after Benjamini-Hochberg only
low. A sample below `min_sample` makes any finding low. The thresholds are `Thresholds`, options
of `workbench report`.

A seat's or a set's "even share" is the mean win rate per seat on its board (draws and Tyrant
wins count as not won, so on two seats with 6% draws it is 47%). Seats are numbered from 1 here,
as people read them; the database keeps them 0-based.

Each kind is computed in the module named after it: balance_findings.py (seats, sets, victory
conditions), board_balance.py (which board is the more balanced), card_findings.py (cards),
play_findings.py (the economy, the games' shape, the agents); this module ranks them all.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from workbench.analysis import drafted
from workbench.analysis.balance_findings import seat_findings, set_findings
from workbench.analysis.board_balance import board_findings
from workbench.analysis.card_findings import (
    NEVER_AFFORDABLE,
    NEVER_DRAFTED,
    NO_ESTIMATE,
    PASSED,
    TOO_STRONG,
    TOO_WEAK,
    card_findings,
    card_verdict,
    dead_card_findings,
    dead_cards,
    kraken_findings,
)
from workbench.analysis.play_findings import (
    agent_findings,
    economy_findings,
    shape_findings,
)
from workbench.analysis.runs import Runs
from workbench.analysis.severity import SEVERITIES, Finding, Thresholds
from workbench.analysis.source import query, run_list
from workbench.analysis.verdicts import card_verdicts, verdict_findings, worth_buying, worthless

__all__ = [
    "NEVER_AFFORDABLE",
    "NEVER_DRAFTED",
    "NO_ESTIMATE",
    "PASSED",
    "TOO_STRONG",
    "TOO_WEAK",
    "Finding",
    "Thresholds",
    "as_frame",
    "card_findings",
    "card_verdict",
    "dead_card_findings",
    "dead_cards",
    "findings",
    "headline",
    "kraken_findings",
    "seat_findings",
    "set_findings",
]
"""The API: the findings on the balance of seats, sets and cards, and all of them ranked
(`Finding` and `Thresholds`, from severity.py, are the types it takes and gives)."""


# --- all of them ----------------------------------------------------------------------------


def findings(r: Runs, extra: Sequence[Finding] = ()) -> list[Finding]:
    """Every finding on the runs at the context's thresholds, ranked: by severity, agent caveats
    first, then by how far beyond its threshold; `extra` are ranked with them (the verdicts
    across skill of `report --skill-run`). With causal verdicts the dead-card findings count
    only the cards the randomised buyer also finds worthless (verdicts.worthless)."""
    th = r.th
    verdicts = card_verdicts(r)
    dead = dead_cards(r)
    causal = verdicts.get_column("estimator").str.starts_with("randomised").any()
    if causal:
        dead = dead.filter(pl.col("card").is_in(sorted(worthless(verdicts))))
    pool = (
        query(
            r.con,
            f"""SELECT DISTINCT name FROM run_cards WHERE in_pool AND buy IS NOT NULL
                         AND run_id IN ({run_list(r.runs)})""",
        )
        .get_column("name")
        .to_list()
    )
    found = [
        *seat_findings(r),
        *set_findings(r),
        *board_findings(r),
        *verdict_findings(verdicts, th),
        *dead_card_findings(dead, len(pool), th, bool(causal)),
        *kraken_findings(
            drafted.card_shares(r),
            th,
            worth_buying(verdicts) if causal else None,
        ),
        *economy_findings(r),
        *shape_findings(r),
        *agent_findings(r, pool),
        *extra,
    ]
    # a caveat about the agents qualifies every other finding: it leads its severity
    return sorted(found, key=lambda f: (SEVERITIES.index(f.severity), f.kind != "agent", -f.excess))


def headline(found: Sequence[Finding], per_kind: int = 5) -> tuple[list[Finding], dict[str, int]]:
    """The short list to read first: at most `per_kind` findings of each kind, in rank order,
    and how many more of each kind the sections hold."""
    shown: list[Finding] = []
    left: dict[str, int] = {}
    for f in found:
        if sum(1 for g in shown if g.kind == f.kind) < per_kind:
            shown.append(f)
        else:
            left[f.kind] = left.get(f.kind, 0) + 1
    return shown, left


def as_frame(found: Sequence[Finding]) -> pl.DataFrame:
    """The findings as a table (rank from 1), for the report's files."""
    return pl.DataFrame(
        {
            "rank": list(range(1, len(found) + 1)),
            "severity": [f.severity for f in found],
            "kind": [f.kind for f in found],
            "subject": [f.subject for f in found],
            "finding": [f.text for f in found],
            "value": [f.value for f in found],
            "low": [f.low for f in found],
            "high": [f.high for f in found],
            "n": [f.n for f in found],
            "section": [f.section for f in found],
        },
        schema={
            "rank": pl.Int64,
            "severity": pl.String,
            "kind": pl.String,
            "subject": pl.String,
            "finding": pl.String,
            "value": pl.Float64,
            "low": pl.Float64,
            "high": pl.Float64,
            "n": pl.Int64,
            "section": pl.String,
        },
    )
