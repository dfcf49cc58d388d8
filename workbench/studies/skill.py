"""Skill sensitivity: a card's metrics under agents of different strength, on the same seeds.

Every agent spec plays all seats (and drafts) in its own run. A card whose improvement when
bought grows with the agents' strength rewards skill; one that is strong only for weak agents
is a trap for beginners or simply forgiving. Every card of the setup is played in each run, so
the study also says, per card, whether the report's verdict on it holds for every agent
(analysis/stability.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import polars as pl
from rich.console import Console

from workbench.analysis.findings import card_verdict
from workbench.analysis.runs import Runs
from workbench.analysis.source import open_db
from workbench.analysis.stability import verdict_table
from workbench.store import RunSpec
from workbench.studies.study import Study, Variant, record_results, run_study
from workbench.studies.sweep import card_metrics


def agent_variants(agents: list[str]) -> list[Variant]:
    return [Variant(a, agents=(a,), value=i) for i, a in enumerate(agents)]


def skill_table(r: Runs, study: Study, card: str) -> pl.DataFrame:
    """Per agent: the card's pick rate, buy rate, win rates, improvement when bought and the
    report's verdict on it in that agent's run (`r`: a context over the study's runs)."""
    t = card_metrics(r, study, card).rename({"variant": "agent"})
    return t.with_columns(
        pl.Series(
            "verdict",
            [
                card_verdict(g, q)
                for g, q in zip(
                    t.get_column("bought_gain").to_list(),
                    t.get_column("bought_gain_bh").to_list(),
                    strict=True,
                )
            ],
            dtype=pl.String,
        )
    )


def skill_verdicts(r: Runs, study: Study) -> pl.DataFrame:
    """Every card of the setup: the report's verdict with each agent of the study and whether
    it is the same for all (stability.verdict_table; the agents are the study's labels)."""
    return verdict_table(r, [(v.label, [run]) for v, run in study.runs])


@dataclass(frozen=True)
class SkillStudy:
    """A played skill study: the stored study, its agents (weakest first), the studied card
    per agent (`skill_table`) and every card's verdicts across them (`skill_verdicts`)."""

    study: Study
    agents: list[str]
    table: pl.DataFrame
    verdicts: pl.DataFrame


def skill_study(
    db: str | Path, base: RunSpec, card: str, agents: list[str], workers: int, console: Console
) -> SkillStudy:
    """Play the setup once per agent on the same seeds (`workbench skill`) and record the
    card's improvement when bought per agent in the study's results."""
    st = run_study(db, base, "skill", card, "agents", agent_variants(agents), workers, console)
    with open_db(db) as con:
        r = Runs(con, st.run_ids)
        table = skill_table(r, st, card)
        verdicts = skill_verdicts(r, st)
    record_results(
        db,
        st.sweep_id,
        [
            (
                card,
                f"bought_gain@{r['agent']}",
                r["bought_gain"],
                r["bought_gain_lo"],
                r["bought_gain_hi"],
                f"run {r['run_id']}",
            )
            for r in table.iter_rows(named=True)
        ],
    )
    return SkillStudy(st, agents, table, verdicts)
