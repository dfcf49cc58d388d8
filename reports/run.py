"""The runs a balance report is about: what every one of its sections reads."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import duckdb
import polars as pl

from workbench.analysis import findings


@dataclass(frozen=True)
class Run:
    """What every section needs to know about the runs reported on."""

    con: duckdb.DuckDBPyConnection
    runs: Sequence[int]
    boards: int
    agents: int
    drafters: int
    cards: pl.DataFrame
    """cards.card_table"""
    dead: pl.DataFrame
    """findings.dead_cards"""
    drafts: tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]
    """draft.draft_tables: per card, per set, per card and drafter (one pass over the packs)"""
    shares: pl.DataFrame
    """drafted.card_shares at the report's Kraken thresholds"""
    th: findings.Thresholds
    card_verdicts: pl.DataFrame
    """verdicts.card_verdicts: every pool card's verdict and the estimator behind it"""
    verdicts: pl.DataFrame | None = None
    """stability.verdict_table of the runs against the --skill-run runs, if any"""
    players: Sequence[str] = ()
    """their labels, the reported runs first"""

    @property
    def by_board(self) -> list[str]:
        return ["board"] if self.boards > 1 else []
