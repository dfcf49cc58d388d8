"""What the three modes of `workbench train-agent` (the weights, `--learned`, `--buying`) share:
their arguments checked alike before any game is played, the boards' list, the progress lines
and the one-line refusal. (`--workers` is checked for every command in app/cli.py.)"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from workbench.play.agents import check_spec


def mode(parser: Any, name: str, text: str, help_: str) -> Any:
    """A mode's options in a group of their own, opened by the mode's flag `--NAME`."""
    group = parser.add_argument_group(f"--{name}", text)
    group.add_argument(f"--{name}", action="store_true", help=help_)
    return group


def at_least_one(args: argparse.Namespace, *names: str) -> str | None:
    """The first of the counts `names` below 1, in words; None when all are at least 1."""
    for name in names:
        if getattr(args, name) < 1:
            return f"--{name} must be at least 1, not {getattr(args, name)}"
    return None


def agent_specs(args: argparse.Namespace, *names: str) -> str | None:
    """The first of the agent specs `names` that names no agent, in words; None when all do."""
    for name in names:
        try:
            check_spec(getattr(args, name))
        except ValueError as e:
            return f"--{name}: {e}"
    return None


def out_file(out: Path) -> str | None:
    """Why `out` cannot be the module written; None when it can."""
    if out.is_dir() or not out.parent.is_dir():
        return f"--out {out}: must name a file in an existing folder"
    return None


def boards(args: argparse.Namespace) -> list[str]:
    """--boards as names."""
    return [b.strip() for b in args.boards.split(",") if b.strip()]


def progress(line: str) -> None:
    """A line of the training's progress, on stderr as it happens."""
    print(line, file=sys.stderr, flush=True)


def refused(problem: object) -> int:
    """The command's refusal: one line, exit 2."""
    print(f"error: {problem}", file=sys.stderr)
    return 2
