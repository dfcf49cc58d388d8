"""The consoles every command prints through. rich hard-wraps at the terminal's width, and at
80 columns when the output is not a terminal: a suggested command then breaks mid-argument and
a path where a designer would copy it (issue 36). Soft wrap writes each line whole and leaves
the wrapping to the terminal, so nothing that is not a terminal is wrapped at all; tables and
progress bars still fit the width."""

from __future__ import annotations

from rich.console import Console


def console(stderr: bool = False) -> Console:
    """Standard output's console (standard error's with `stderr`), lines never hard-wrapped."""
    return Console(stderr=stderr, soft_wrap=True)
