"""`workbench skill`: a card's metrics across agent strengths on the same seeds."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console

from app.consoles import consoles
from app.errors import UsageError, run_command
from app.study_args import add_run_options, base_spec
from reports import skill as skill_page
from workbench.analysis import stability
from workbench.play.agents import make_agent
from workbench.studies.skill import SkillStudy, skill_study


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


def study(args: argparse.Namespace, console: Console) -> SkillStudy:
    """Play the study, record it and write its page."""
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    if len(agents) < 2:
        raise UsageError("--agents needs at least two specs to compare")
    for a in agents:
        make_agent(a)
    base = base_spec(args, agents[0])
    done = skill_study(args.db, base, args.card, agents, args.workers, console)
    skill_page.write_page(Path(args.out), args.db, args.card, base.seed, done)
    return done


def run(args: argparse.Namespace) -> int:
    console, err = consoles()
    return run_command(
        "skill",
        err,
        lambda: study(args, err),
        lambda done: _show(args, done, console),
    )


def _show(args: argparse.Namespace, done: SkillStudy, console: Console) -> int:
    """One line per agent, the cards whose verdict depends on the agent, and the page."""
    table, verdicts = done.table, done.verdicts
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
