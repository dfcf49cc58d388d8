"""`--workers`: one definition for every command that plays games in worker processes, checked
in one place (app/cli.py) before the command starts any."""

from __future__ import annotations

import argparse
import os
from typing import Any


def cores() -> int:
    """The cores this process may run on (fewer than the machine's in a container or under
    taskset)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def add_workers_option(parser: Any, what: str = "worker processes") -> None:
    parser.add_argument(
        "--workers",
        type=int,
        default=cores(),
        help=f"{what}, 1 to the cores (default: all {cores()}; more than the cores are "
        "lowered to them)",
    )


def checked_workers(args: argparse.Namespace) -> tuple[str | None, str | None]:
    """(error, note) for the command's --workers: below 1 is an error; above the cores, local
    processes are lowered to the cores with a note (they would only wait for each other, and
    `--workers 100000` started over a thousand processes); a Ray cluster's workers
    (`--backend ray`) are the cluster's to count."""
    workers = getattr(args, "workers", None)
    if workers is None:
        return None, None
    if workers < 1:
        return f"--workers must be at least 1, not {workers}", None
    if workers > cores() and getattr(args, "backend", "local") == "local":
        args.workers = cores()
        return None, f"--workers {workers} is more than the {cores()} cores here: using {cores()}"
    return None, None
