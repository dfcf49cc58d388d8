"""The page of `workbench skill`: the findings, the studied card per agent, and every card's
verdict per agent."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from reports import balance, design, html
from reports.html import Chart, Section, Table
from workbench.studies import findings as study_findings
from workbench.studies.skill import SkillStudy

FINDINGS_INTRO = (
    "What to look at first: whether the card's verdict changes with agent strength (its "
    "improvement when bought pointing opposite ways for two agents), and each agent for whom it "
    "lies more than 5 points from zero; then the verdicts on any card of the setup that depend "
    "on the agent. Intervals are 95% (Newcombe), n the buyers."
)
NOTHING_FOUND = (
    "The verdict does not change with agent strength: no agent's improvement when bought lies "
    "outside the band, none points the opposite way, and every card's verdict is the same for "
    "every agent that judged it."
)


def write_page(out: Path, db: str, card: str, seed: int, done: SkillStudy) -> None:
    """The page: the findings, the card per agent, then every card's verdict per agent."""
    st, agents, table, verdicts = done.study, done.agents, done.table, done.verdicts
    found = study_findings.ranked(
        [
            *study_findings.skill_findings(card, table),
            *study_findings.stability_findings(verdicts, agents, "verdicts"),
        ]
    )
    html.write(
        out,
        f"Skill sensitivity of {card}",
        [
            (
                "study",
                f"{st.sweep_id} in {db}, runs {', '.join(map(str, st.run_ids))}, "
                f"seed {seed} for every agent",
            )
        ],
        [
            balance.findings_list(found, FINDINGS_INTRO, NOTHING_FOUND),
            _card_section(card, table),
            _verdicts_section(agents, verdicts),
        ],
    )


def _card_section(card: str, table: pl.DataFrame) -> Section:
    """The studied card's metrics per agent, as a chart and a table."""
    return Section(
        "skill",
        f"{card} across agents",
        "The card's metrics when every seat is "
        "played by the same agent, weakest first, on the same seeds.",
        [
            Chart(
                "Metrics per agent",
                design.category_bars(table, "agent", design.CARD_PANELS, f"{card} per agent"),
            ),
            Table(
                "skill",
                "Per agent",
                table,
                design.CARD_RATES,
                ["agent", *design.CARD_METRICS, "wr_never_bought", "bought_gain", "verdict"],
            ),
        ],
    )


def _verdicts_section(agents: list[str], verdicts: pl.DataFrame) -> Section:
    """Every card's verdict in each agent's run, and whether they agree."""
    verdict_cols = [c for a in agents for c in (f"verdict@{a}", f"bought_gain@{a}")]
    return Section(
        "verdicts",
        "Verdicts across skill",
        "Every card of the setup with the "
        "report's verdict on it in each agent's run (too strong or too weak when its "
        "improvement when bought survives Benjamini-Hochberg's correction, else fine; "
        "no estimate when no holder bought it or every one did) and across_skill: "
        "stable when every agent that judged it agrees, else which agents disagree.",
        [
            Table(
                "verdicts",
                "Per card",
                verdicts,
                {},
                ["card", "set", *verdict_cols, "across_skill"],
            )
        ],
    )
