"""The progress bar of a run's games, shared by the local and the cluster runs."""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn


def progress_bar(console: Console) -> Progress:
    """Games stored of the run's total, games per second, time left."""
    columns = (
        TextColumn("[bold]simulate"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]:.1f} games/s"),
        TimeRemainingColumn(),
    )
    return Progress(*columns, console=console, transient=False)
