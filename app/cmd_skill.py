"""`workbench skill`: a card's metrics across agent strengths on the same seeds."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import polars as pl
from rich.console import Console

from app.consoles import consoles
from app.errors import UsageError, run_command
from app.study_args import add_run_options, base_spec
from reports import balance, design, html
from reports.html import Chart, Section, Table
from workbench.analysis import stability
from workbench.analysis.source import open_db
from workbench.play.agents import make_agent
from workbench.studies import findings as study_findings
from workbench.studies.skill import agent_variants, skill_table, skill_verdicts
from workbench.studies.study import Study, record_results, run_study


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "skill",
        help="a card's metrics across agent strengths",
        description="Play the setup once per agent spec (every seat that agent, drafting too), "
        "all on the same seeds, and show the card's pick rate, buy rate, win rate when bought "
        "and improvement when bought per agent, weakest first: a card whose improvement grows "
        "with skill rewards it. Every card of the setup is played in each run, so the page also "
        "says, per card, whether the report's verdict on it (too strong, fine, too weak) is the "
        "same for every agent or which agents disagree.",
    )
    parser.add_argument("--card", required=True, help="the card to study")
    parser.add_argument(
        "--agents",
        default="random,heuristic,search:budget=8",
        help="agent specs, weakest first (default: random,heuristic,search:budget=8)",
    )
    add_run_options(parser, agents=False)


def study(args: argparse.Namespace, console: Console) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Play the study and write its page; the studied card per agent, and every card's
    verdicts across the agents."""
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    if len(agents) < 2:
        raise UsageError("--agents needs at least two specs to compare")
    for a in agents:
        make_agent(a)
    base = base_spec(args, agents[0])
    st = run_study(
        args.db, base, "skill", args.card, "agents", agent_variants(agents), args.workers, console
    )
    con = open_db(args.db)
    try:
        table = skill_table(con, st, args.card)
        verdicts = skill_verdicts(con, st)
    finally:
        con.close()
    record_results(
        args.db,
        st.sweep_id,
        [
            (
                args.card,
                f"bought_gain@{r['agent']}",
                r["bought_gain"],
                r["bought_gain_lo"],
                r["bought_gain_hi"],
                f"run {r['run_id']}",
            )
            for r in table.iter_rows(named=True)
        ],
    )
    _write_page(args, st, base.seed, agents, table, verdicts)
    return table, verdicts


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


def _write_page(
    args: argparse.Namespace,
    st: Study,
    seed: int,
    agents: list[str],
    table: pl.DataFrame,
    verdicts: pl.DataFrame,
) -> None:
    """The page: the findings, the card per agent, then every card's verdict per agent."""
    found = study_findings.ranked(
        [
            *study_findings.skill_findings(args.card, table),
            *study_findings.stability_findings(verdicts, agents, "verdicts"),
        ]
    )
    html.write(
        Path(args.out),
        f"Skill sensitivity of {args.card}",
        [
            (
                "study",
                f"{st.sweep_id} in {args.db}, runs {', '.join(map(str, st.run_ids))}, "
                f"seed {seed} for every agent",
            )
        ],
        [
            balance.findings_list(found, FINDINGS_INTRO, NOTHING_FOUND),
            _card_section(args.card, table),
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


def run(args: argparse.Namespace) -> int:
    console, err = consoles()
    return run_command(
        "skill", err, lambda: study(args, err), lambda done: _show(args, *done, console)
    )


def _show(
    args: argparse.Namespace, table: pl.DataFrame, verdicts: pl.DataFrame, console: Console
) -> int:
    """One line per agent, the cards whose verdict depends on the agent, and the page."""
    for r in table.iter_rows(named=True):
        gain = r["bought_gain"]
        console.print(
            f"{r['agent']}: buy rate {r['buy_rate'] or 0:.1%}, improvement when "
            f"bought {'n/a' if gain is None else f'{gain:+.1%}'}, verdict "
            f"{r['verdict']}",
            markup=False,
            highlight=False,
        )
    unstable = stability.unstable(verdicts)
    console.print(
        f"verdicts that depend on the agent: {unstable.height} of {verdicts.height} "
        f"cards{': ' if unstable.height else ''}"
        f"{', '.join(unstable.get_column('card').to_list())}",
        markup=False,
        highlight=False,
    )
    console.print(str(Path(args.out) / "index.html"), markup=False, highlight=False)
    return 0
