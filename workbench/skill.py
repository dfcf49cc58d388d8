"""Skill sensitivity: a card's metrics under agents of different strength, on the same seeds.

Every agent spec plays all seats (and drafts) in its own run. A card whose improvement when
bought grows with the agents' strength rewards skill; one that is strong only for weak agents
is a trap for beginners or simply forgiving.
"""

from __future__ import annotations

import duckdb
import polars as pl

from workbench.study import Study, Variant
from workbench.sweep import card_metrics


def agent_variants(agents: list[str]) -> list[Variant]:
    return [Variant(a, agents=(a,), value=i) for i, a in enumerate(agents)]


def skill_table(con: duckdb.DuckDBPyConnection, study: Study, card: str) -> pl.DataFrame:
    """Per agent: the card's pick rate, buy rate, win rates and improvement when bought."""
    return card_metrics(con, study, card).rename({"variant": "agent"})
