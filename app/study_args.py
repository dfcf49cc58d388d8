"""Options shared by the study commands (sweep, tune, ablate, skill): what the base run plays
and where results go; checked like `workbench simulate` checks them."""

from __future__ import annotations

import argparse
from typing import Any

from app.cmd_simulate import DEFAULT_DB, new_spec
from app.workers import add_workers_option
from workbench.store import RunSpec

DEFAULT_GAMES = 400


EXPLORER_HELP = (
    "agent spec(s), as for simulate (default: explorer, the heuristic agent with "
    "random buys, so that whether a seat buys the card is a coin flip and not a "
    "judgement of its position; give heuristic to study the heuristic's own "
    "buying)"
)


def add_run_options(
    parser: Any,
    agents: bool = True,
    explore: bool = False,
    sets_help: str = "card sets, comma-separated (default: the shipped pair)",
    games: bool = True,
    out: bool = True,
) -> None:
    """--db, --sets, --board, --games, --agents, --drafters, --seed, --workers, --out;
    `explore`: the agents default to `explorer` (cost studies, docs/design-studies.md);
    without `games` or `out` (a study that decides its own games, or writes no report)."""
    parser.add_argument("--db", default=DEFAULT_DB, help=f"DuckDB file (default: {DEFAULT_DB})")
    parser.add_argument("--sets", help=sets_help)
    parser.add_argument("--board", help="board (default: kings-crossing)")
    if games:
        parser.add_argument(
            "--games",
            type=int,
            default=DEFAULT_GAMES,
            help=f"games per variant (default: {DEFAULT_GAMES})",
        )
    if agents:
        parser.add_argument(
            "--agents",
            default="explorer" if explore else "heuristic",
            help=EXPLORER_HELP
            if explore
            else "agent spec(s), as for simulate (default: heuristic)",
        )
        parser.add_argument("--drafters", help="drafter spec(s) (default: the agents)")
    parser.add_argument("--seed", type=int, default=1, help="seed shared by every variant")
    add_workers_option(parser)
    if out:
        parser.add_argument("--out", required=True, help="report folder")


def base_spec(args: argparse.Namespace, agents: str | None = None) -> RunSpec:
    """The base run the arguments describe (raises UsageError, LookupError, ValueError...)."""
    ns = argparse.Namespace(
        sets=args.sets,
        board=args.board,
        games=args.games,
        players=None,
        agents=agents or args.agents,
        drafters=getattr(args, "drafters", None),
        seed=args.seed,
        label=None,
    )
    spec, _ = new_spec(ns)
    return spec


def int_list(text: str) -> list[int | None]:
    """`1,2,3` or `none,1,2` -> values; ValueError names the bad entry."""
    out: list[int | None] = []
    for part in text.split(","):
        part = part.strip()
        if part.casefold() == "none":
            out.append(None)
            continue
        try:
            out.append(int(part))
        except ValueError:
            raise ValueError(f"{part!r} in {text!r} is not a whole number") from None
    if len(out) < 2:
        raise ValueError(f"give at least two values, not {text!r}")
    return out
