"""The consoles every command prints through. rich hard-wraps at the terminal's width, and at
80 columns when the output is not a terminal: a suggested command then breaks mid-argument and
a path where a designer would copy it (issue 36). Soft wrap writes each line whole and leaves
the wrapping to the terminal, so nothing that is not a terminal is wrapped at all; tables and
progress bars still fit the width.

Their text passes the one sanitiser (workbench.content.printable) as every print does (issue
35): a card name cannot clear, retitle or recolour the terminal, nor reorder a line with a bidi
control, in a table or a progress bar either."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.segment import Segment

from workbench.content.printable import printable


class PrintableConsole(Console):
    """A rich console that escapes its text (not its own control codes and styles)."""

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return super()._render_buffer(
            segment if segment.control else Segment(printable(segment.text), segment.style)
            for segment in buffer
        )


def console(stderr: bool = False) -> Console:
    """Standard output's console (standard error's with `stderr`), lines never hard-wrapped."""
    return PrintableConsole(stderr=stderr, soft_wrap=True)
