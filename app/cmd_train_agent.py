"""`workbench train-agent`: tune the heuristic agent's weights with optuna and write them as the
`tuned` agent's data (workbench/training/train_agent.py)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from app import training
from app.cmd_train_buying import add_options as add_buying_options
from app.training import agent_specs, at_least_one, out_file, progress, refused
from app.workers import add_workers_option
from engine.agents.weights import SPACE
from workbench.training.train_agent import (
    BOARDS,
    decided,
    module_text,
    train,
    write_module,
)

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "engine" / "agents" / "tuned.py"
COUNTS = (
    ("trials", 200, "optuna trials (default 200)"),
    ("games", 20, "games a board in each trial (default 20)"),
    ("confirm", 100, "games a board to confirm the best trials (default 100)"),
    ("top", 5, "best trials confirmed on unseen seeds (default 5)"),
)
"""The search's counts (each at least 1): option, default, help."""


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "train-agent",
        help="tune the heuristic agent's weights (the `tuned` agent)",
        description="Search the heuristic agent's weights (engine/agents/weights.py) with "
        "optuna for the set that scores best against an opponent on every shipped board (seats "
        "swapped, sets rotating, every trial on the same seeds), confirm the best trials on "
        "unseen seeds against the hand-set weights, and write the winner to --out, the module "
        "the `tuned` agent loads.",
    )
    for name, default, text in COUNTS:
        parser.add_argument(f"--{name}", type=int, default=default, help=text)
    parser.add_argument(
        "--against", default="heuristic", help="the opponent's agent spec (default heuristic)"
    )
    parser.add_argument(
        "--boards",
        default=",".join(BOARDS),
        help="boards, comma-separated (default: every shipped board)",
    )
    parser.add_argument(
        "--weights",
        default="",
        help="the weights to search, comma-separated (default: every one in "
        "engine/agents/weights.py; the others keep their hand-set values)",
    )
    parser.add_argument("--seed", type=int, default=16, help="seed of the search (default 16)")
    add_workers_option(parser)
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="the module to write (default engine/agents/tuned.py; with "
        "--learned engine/agents/learned_model.py, with --buying engine/agents/buy_values.py)",
    )
    _add_learned_options(parser)
    add_buying_options(parser)


def _add_learned_options(parser: Any) -> None:
    """The options of the `--learned` mode (app/cmd_train_learned.py), in a group of their own."""
    learned = training.mode(
        parser,
        "learned",
        "instead of tuning weights, record the teacher's choices in games "
        "against --against (--games a board) and fit the `learned` agent's model to them "
        "(workbench/training/distill.py)",
        "train the learned agent",
    )
    learned.add_argument(
        "--teacher",
        default="search:budget=16",
        help="the agent whose choices are learned (default search:budget=16)",
    )
    learned.add_argument(
        "--data",
        type=Path,
        default=None,
        help="JSON-lines file of recorded games, reused and extended",
    )
    learned.add_argument(
        "--holdout",
        type=int,
        default=5,
        help="every N-th game is held out to measure agreement (default 5)",
    )
    learned.add_argument("--l2", type=float, default=1.0, help="the model's L2 penalty (default 1)")


def run(args: argparse.Namespace) -> int:
    if args.learned:
        from app.cmd_train_learned import run as run_learned

        return run_learned(args)
    if args.buying:
        from app.cmd_train_buying import run as run_buying

        return run_buying(args)
    out: Path = args.out or DEFAULT_OUT
    problem = (
        at_least_one(args, *(name for name, _, _ in COUNTS))
        or agent_specs(args, "against")
        or out_file(out)
    )
    if problem is not None:
        return refused(problem)
    boards = training.boards(args)
    names = [n.strip() for n in args.weights.split(",") if n.strip()] or list(SPACE)
    try:
        result = train(
            args.against,
            args.trials,
            args.games,
            args.confirm,
            args.top,
            args.seed,
            boards,
            args.workers,
            names,
            progress=progress,
        )
    except (ValueError, LookupError, OSError) as e:
        return refused(e)
    write_module(
        out,
        module_text(
            result,
            _command(args, boards, names),
            args.against,
            args.trials,
            args.games,
            args.confirm,
            args.seed,
            boards,
            names,
        ),
    )
    print(
        f"wrote {out}: mean score {result.confirmed.value:.3f} against {args.against} on "
        f"unseen seeds (hand-set weights {result.default.value:.3f})"
    )
    for b, c in result.confirmed.counts.items():
        print(f"  {b}: {decided(c)}")
    return 0


def _command(args: argparse.Namespace, boards: list[str], names: list[str]) -> str:
    """The command that reproduces the search, written into the module."""
    return (
        f"workbench train-agent --trials {args.trials} --games {args.games} --confirm "
        f"{args.confirm} --top {args.top} --against {args.against} --boards "
        f"{','.join(boards)} --seed {args.seed}"
        + (f" --weights {','.join(names)}" if args.weights else "")
    )
