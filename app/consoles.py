"""The consoles every command prints through.

Their text passes the one sanitiser (workbench.content.printable), as every print does: a card
name cannot clear, retitle or recolour the terminal, nor reorder a line with a bidi control, in
a table or a progress bar either. And they never hard-wrap: rich wraps at the terminal's width,
and at 80 columns when the output is not a terminal, so a suggested command would break
mid-argument and a path where a designer would copy it. Soft wrap writes each line whole and
leaves the wrapping to the terminal; tables and progress bars still fit the width.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.segment import Segment

from workbench.content.printable import printable


class PrintableConsole(Console):
    """A rich console that escapes its text (not its own control codes and styles) and writes
    each line whole."""

    def __init__(self, stderr: bool = False) -> None:
        super().__init__(stderr=stderr, soft_wrap=True)

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return super()._render_buffer(
            segment if segment.control else Segment(printable(segment.text), segment.style)
            for segment in buffer
        )


def console(stderr: bool = False) -> Console:
    """Standard output's console (standard error's with `stderr`)."""
    return PrintableConsole(stderr=stderr)


def consoles() -> tuple[Console, Console]:
    """A command's output and error consoles."""
    return console(), console(stderr=True)
