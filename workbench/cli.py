"""The `workbench` command: one sub-command per module, each with `add_parser` and `run`."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMANDS: dict[str, str] = {
    "validate": "workbench.cmd_validate",
    "simulate": "workbench.cmd_simulate",
    "report": "workbench.cmd_report",
    "compare": "workbench.cmd_compare",
    "demo": "workbench.cmd_demo",
    "sweep": "workbench.cmd_sweep",
    "tune": "workbench.cmd_tune",
    "ablate": "workbench.cmd_ablate",
    "skill": "workbench.cmd_skill",
    "replay": "workbench.cmd_replay",
    "play": "workbench.cmd_play",
    "check": "workbench.cmd_check",
}
"""Sub-command name -> module defining `add_parser(subparsers)` and `run(args) -> int`."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="workbench",
        description="Balance workbench for muhq's game: validate card sets and boards, simulate "
        "drafts and matches into DuckDB, and report on balance.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module in COMMANDS.items():
        importlib.import_module(module).add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code (2 for bad input, as argparse does)."""
    args = build_parser().parse_args(argv)
    module = importlib.import_module(COMMANDS[args.command])
    code: int = module.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
