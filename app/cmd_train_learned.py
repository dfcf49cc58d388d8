"""`workbench train-agent --learned`: record the teacher's (search:budget=16's) choices, fit the
learned agent's model to them and write it as the `learned` agent's data
(workbench/training/distill.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

from app import training
from app.training import agent_specs, at_least_one, out_file, progress, refused
from workbench.training.distill import distill, gather, module_text
from workbench.training.train_agent import commit, write_module

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "engine" / "agents" / "learned_model.py"


def run(args: argparse.Namespace) -> int:
    """The `--learned` mode of train-agent (its options: --games, --teacher, --against,
    --boards, --seed, --workers, --data, --holdout, --l2, --out)."""
    out: Path = args.out or DEFAULT_OUT
    problem = (
        at_least_one(args, "games") or agent_specs(args, "teacher", "against") or out_file(out)
    )
    if problem is not None:
        return refused(problem)
    boards = training.boards(args)
    started = commit()
    try:
        games = gather(
            args.teacher,
            args.against,
            boards,
            args.games,
            args.seed,
            args.workers,
            args.data,
            progress=progress,
        )
        result = distill(games, args.holdout, args.l2)
    except (ValueError, LookupError, OSError) as e:
        return refused(e)
    command = (
        f"workbench train-agent --learned --games {args.games} --teacher {args.teacher} "
        f"--against {args.against} --boards {','.join(boards)} --seed {args.seed} "
        f"--holdout {args.holdout} --l2 {args.l2:g}"
    )
    write_module(out, module_text(result, command, started, len(games), boards))
    print(
        f"wrote {out}: agrees with {args.teacher} in {result.test_agreement:.1%} of "
        f"{result.test_decisions} held-out decisions (the heuristic "
        f"{result.heuristic_test_agreement:.1%})"
    )
    return 0
