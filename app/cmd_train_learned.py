"""`workbench train-agent --learned`: record the teacher's (search:budget=16's) choices, fit the
learned agent's model to them and write it as the `learned` agent's data
(workbench/training/distill.py)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from workbench.play.agents import check_spec
from workbench.training.distill import distill, gather, module_text
from workbench.training.train_agent import commit, write_module

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "engine" / "agents" / "learned_model.py"


def run(args: argparse.Namespace) -> int:
    """The `--learned` mode of train-agent (its options: --games, --teacher, --against,
    --boards, --seed, --workers, --data, --holdout, --l2, --out)."""
    for name in ("games", "workers"):
        if getattr(args, name) < 1:
            print(f"error: --{name} must be at least 1, not {getattr(args, name)}", file=sys.stderr)
            return 2
    for opt in ("teacher", "against"):
        try:
            check_spec(getattr(args, opt))
        except ValueError as e:
            print(f"error: --{opt}: {e}", file=sys.stderr)
            return 2
    boards = [b.strip() for b in args.boards.split(",") if b.strip()]
    out: Path = args.out or DEFAULT_OUT
    if out.is_dir() or not out.parent.is_dir():
        print(f"error: --out {out}: must name a file in an existing folder", file=sys.stderr)
        return 2
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
            progress=lambda line: print(line, file=sys.stderr, flush=True),
        )
        result = distill(games, args.holdout, args.l2)
    except (ValueError, LookupError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
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
