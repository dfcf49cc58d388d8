"""`workbench train-agent --buying`: learn the valued agent's buy values from random buy steps
and write them as its data (workbench/training/buy_values.py)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from app import training
from app.training import at_least_one, out_file, progress, refused
from engine.agents.valued import PRIOR, unpack
from workbench.training.buy_values import module_text, train
from workbench.training.train_agent import write_module

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "engine" / "agents" / "buy_values.py"


def add_options(parser: Any) -> None:
    """The options of the `--buying` mode, in a group of their own (--games, --boards, --seed,
    --workers and --out are the command's own)."""
    buying = training.mode(
        parser,
        "buying",
        "instead of tuning weights, learn the `valued` agent's buy values from buy steps "
        "taken at random (the explorer's, then the valued agent's own), --games games a board "
        "in each round (workbench/training/buy_values.py)",
        "train the valued agent",
    )
    buying.add_argument(
        "--rounds", type=int, default=2, help="rounds of play and estimate (default 2)"
    )
    buying.add_argument(
        "--explore",
        type=float,
        default=0.5,
        help="share of the valued agent's buy steps taken at random after the first round "
        "(default 0.5)",
    )
    buying.add_argument(
        "--prior",
        type=float,
        default=PRIOR,
        help="random steps a card's own estimate must have to outweigh the pooled one "
        f"(default {PRIOR:g})",
    )
    buying.add_argument(
        "--start",
        type=Path,
        default=None,
        help="a values module written before (engine/agents/buy_values.py's form): play every "
        "round with the valued agent from those values on, instead of starting from the "
        "explorer's random buying",
    )


def load_values(
    path: Path,
) -> tuple[dict[str, dict[str, tuple[float, ...]]], dict[str, tuple[float, float]]]:
    """VALUES and FALLBACK of a values module (read as data: its literals only)."""
    import ast

    found: dict[str, object] = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and node.value is not None
            and node.target.id in ("VALUES", "FALLBACK")
        ):
            found[node.target.id] = ast.literal_eval(node.value)
    if set(found) != {"VALUES", "FALLBACK"}:
        raise ValueError(f"{path}: not a values module (no VALUES and FALLBACK)")
    return unpack(found["VALUES"]), found["FALLBACK"]  # type: ignore[arg-type, return-value]


def run(args: argparse.Namespace) -> int:
    """The `--buying` mode of train-agent."""
    out: Path = args.out or DEFAULT_OUT
    shares = not 0.0 < args.explore <= 1.0 or args.prior < 0
    problem = (
        at_least_one(args, "games", "rounds")
        or ("--explore must lie in (0, 1] and --prior be at least 0" if shares else None)
        or out_file(out)
    )
    if problem is not None:
        return refused(problem)
    boards = training.boards(args)
    command = (
        f"workbench train-agent --buying --rounds {args.rounds} --games {args.games} "
        f"--explore {args.explore:g} --prior {args.prior:g} --boards {','.join(boards)} "
        f"--seed {args.seed}" + (f" --start {args.start}" if args.start else "")
    )
    try:
        start = None if args.start is None else load_values(args.start)
        result = train(
            args.rounds,
            args.games,
            args.explore,
            args.prior,
            args.seed,
            boards,
            args.workers,
            progress=progress,
            done=lambda result: write_module(out, module_text(result, command)),
            start=start,
        )
    except (ValueError, LookupError, OSError) as e:
        return refused(e)
    print(f"wrote {out}: {sum(len(v) for v in result.values.values()):,} values")
    return 0
