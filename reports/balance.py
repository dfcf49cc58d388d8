"""The balance report: its sections in reading order, assembled from the analysis queries
(never from the engine).

Reading order: the findings first, then one section per subject, each subject in one place
(reports.sets_cards, reports.costs_economy, reports.shape_boards). A split by board, agent or
drafter is shown only when the run has more than one. Seats are numbered from 1, as people count
them (the database keeps them 0-based).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict

import duckdb

from reports.costs_economy import costs_section, economy_section
from reports.html import Chart, FindingList, Section, Table
from reports.sets_cards import cards_section, draft_section, sets_section
from reports.shape_boards import boards_section, shape_section
from workbench.analysis import findings, stability
from workbench.analysis.runs import Runs
from workbench.analysis.source import query, run_list
from workbench.studies.findings import stability_findings


def run_summary(con: duckdb.DuckDBPyConnection, runs: Sequence[int]) -> list[tuple[str, str]]:
    """What was simulated: runs, labels, games, sets, boards, agents, engine."""
    rows = query(
        con,
        f"""SELECT r.*, (SELECT count(*) FROM games g WHERE g.run_id = r.run_id)
                          AS stored FROM runs r WHERE run_id IN ({run_list(runs)})
                          ORDER BY run_id""",
    )
    out = []
    for r in rows.iter_rows(named=True):
        out.append(
            (
                f"run {r['run_id']}",
                f"{r['label'] or '(no label)'}: {r['stored']} of "
                f"{r['games']} games ({r['status']}), sets {r['sets']}, boards {r['boards']}, "
                f"agents {r['agents']}, drafters {r['drafters']}, seed {r['seed']}, "
                f"engine {r['engine_version']}",
            )
        )
    return out


def findings_list(found: Sequence[findings.Finding], intro: str, empty: str) -> Section:
    """The Findings section that opens every page: the headline list linking to the sections,
    and every finding in a table when the list leaves some out."""
    shown, left = findings.headline(found)
    where = {f.kind: f.section for f in found}
    items: list[Table | Chart | FindingList] = [
        FindingList(
            [(f.severity, f.text, f.section) for f in shown],
            [(kind, count, where[kind]) for kind, count in left.items()],
            empty,
        )
    ]
    if left:
        items.append(
            Table(
                "findings",
                "Every finding",
                findings.as_frame(found),
                show=["rank", "severity", "kind", "finding"],
            )
        )
    return Section("findings", "Findings", intro, items)


def findings_section(found: Sequence[findings.Finding], th: findings.Thresholds) -> Section:
    limits = ", ".join(f"{k} {v:g}" for k, v in asdict(th).items())
    return findings_list(
        found,
        "What to look at first, most severe first. High: the whole 95% interval lies "
        "beyond the threshold; medium: the estimate does and the interval excludes the even "
        "value; low: the estimate does, but the sample cannot tell it from noise. Intervals are "
        f"95%, n the sample. Thresholds (report --band, --threshold NAME=VALUE): {limits}.",
        "Nothing lies beyond the thresholds: seats, sets and cards are within their bands, "
        "no card is dead, the economy neither stalls nor piles up, and games end in time.",
    )


def sections(r: Runs) -> list[Section]:
    """Every section of the report on the context's runs, in reading order, the findings
    first. With `r.skill` (runs of the same setup played by other agents) each card's verdict
    is set beside its verdict there (stability.across_skill); `r.design` judges the cards
    (verdicts.card_verdicts)."""
    skill = stability.across_skill(r)
    extra = []
    if skill is not None:
        labels = [p for p, _ in stability.skill_players(r)]
        extra = stability_findings(skill, labels, "cards")
    return [
        findings_section(findings.findings(r, extra), r.th),
        sets_section(r),
        cards_section(r),
        costs_section(r),
        draft_section(r),
        economy_section(r),
        shape_section(r),
        boards_section(r),
    ]
