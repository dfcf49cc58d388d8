"""The store's version and keys (docs/schema.md): one definition for the writer, the summaries,
the analysis and the referee, which must agree on them."""

from __future__ import annotations

from typing import Final

SCHEMA_VERSION: Final = "4"
"""The schema `workbench simulate` writes."""
READ_VERSIONS: Final = ("3", "4")
"""Versions the analysis reads: 4 added only the summary tables, which a reader of a version-3
file builds for its session (workbench/store/summary.py)."""
GAME_ID_BASE: Final = 1_000_000_000
"""game_id = run_id * GAME_ID_BASE + game_index: unique in a file, independent of play order."""


def teams_text(teams: tuple[tuple[int, ...], ...]) -> str:
    """A board's teams (0-based seats) as `run_boards.teams` holds them: 1-based seats, `,`
    within a team, `;` between teams (`1,3;2,4`); empty without teams."""
    return ";".join(",".join(str(s + 1) for s in team) for team in teams)


def parse_teams(text: str) -> tuple[tuple[int, ...], ...]:
    """`teams_text`'s teams read back."""
    return tuple(tuple(int(s) - 1 for s in team.split(",")) for team in text.split(";") if team)
