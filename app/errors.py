"""How a command reports a failure that is the user's to fix (a bad argument, card set, board or
database): one line `workbench NAME: error: WHY` on stderr and exit code 2, the code argparse
gives bad arguments, never a traceback. One place, so every command says it the same way."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from rich.console import Console

from workbench.analysis.errors import AnalysisError
from workbench.content.tables import ValidationError
from workbench.store import StoreError


class UsageError(Exception):
    """A bad argument, reported before any work."""


KNOWN_ERRORS = (UsageError, StoreError, LookupError, ValueError, ValidationError, AnalysisError)
"""What bad input raises: an argument, a setup file or a database the command cannot use."""

T = TypeVar("T")


def run_command(name: str, err: Console, work: Callable[[], T], show: Callable[[T], int]) -> int:
    """Do the command's `work`, then `show` its result and return show's exit code; a known
    error in the work becomes the one-line message on `err` and exit code 2. Only the work is
    guarded: a failure while showing the result is a bug, and keeps its traceback."""
    try:
        result = work()
    except KNOWN_ERRORS as exc:
        err.print(f"workbench {name}: error: {exc}", markup=False, highlight=False, soft_wrap=True)
        return 2
    return show(result)
