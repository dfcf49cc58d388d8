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
