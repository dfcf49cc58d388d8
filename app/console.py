"""The commands' rich consoles, whose text passes the one sanitiser (workbench.content.printable)
as every print does: a card name cannot clear, retitle or recolour the terminal, nor reorder a
line with a bidi control, in a table or a progress bar either."""

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


def consoles() -> tuple[Console, Console]:
    """A command's output and error consoles."""
    return PrintableConsole(), PrintableConsole(stderr=True)
