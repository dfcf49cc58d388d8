"""The store's tables (docs/schema.md): every column and its DuckDB type, the tables a batch of
games writes, their Arrow schemas, and the CREATE statements."""

from __future__ import annotations

from typing import Final

import pyarrow as pa

from engine.events import EVENT_COLUMNS
from engine.record import PICK_COLUMNS, SNAPSHOT_COLUMNS
from workbench.store import summary

_EVENT_TYPES = {
    "phase": "VARCHAR",
    "kind": "VARCHAR",
    "card": "VARCHAR",
    "target": "VARCHAR",
    "detail": "VARCHAR",
}

TABLES: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    "schema_info": (("key", "VARCHAR PRIMARY KEY"), ("value", "VARCHAR")),
    "runs": (
        ("run_id", "BIGINT PRIMARY KEY"),
        ("label", "VARCHAR"),
        ("status", "VARCHAR"),
        ("seed", "BIGINT"),
        ("games", "INTEGER"),
        ("players", "INTEGER"),
        ("sets", "VARCHAR"),
        ("boards", "VARCHAR"),
        ("agents", "VARCHAR"),
        ("drafters", "VARCHAR"),
        ("params", "VARCHAR"),
        ("files", "VARCHAR"),
        ("content_hash", "VARCHAR"),
        ("engine_version", "VARCHAR"),
        ("backend", "VARCHAR"),
        ("workers", "INTEGER"),
        ("started_at", "TIMESTAMP"),
        ("finished_at", "TIMESTAMP"),
    ),
    "run_cards": (
        ("run_id", "BIGINT"),
        ("name", "VARCHAR"),
        ("set", "VARCHAR"),
        ("type", "VARCHAR"),
        ("in_pool", "BOOLEAN"),
        ("copies", "INTEGER"),
        ("buy", "INTEGER"),
        ("play", "INTEGER"),
        ("upkeep", "INTEGER"),
        ("life", "INTEGER"),
        ("move", "INTEGER"),
        ("attack", "INTEGER"),
        ("range", "INTEGER"),
        ("armor", "INTEGER"),
        ("durability", "INTEGER"),
        ("keywords", "VARCHAR"),
        ("effect", "VARCHAR"),
        ("trigger", "VARCHAR"),
        ("free_action", "VARCHAR"),
        ("full_action", "VARCHAR"),
        ("modifiers", "VARCHAR"),
        ("text", "VARCHAR"),
    ),
    "run_boards": (
        ("run_id", "BIGINT"),
        ("board_index", "INTEGER"),
        ("board", "VARCHAR"),
        ("file", "VARCHAR"),
        ("content_hash", "VARCHAR"),
        ("players", "INTEGER"),
        ("width", "INTEGER"),
        ("height", "INTEGER"),
        ("victory_kind", "VARCHAR"),
        ("victory_target", "INTEGER"),
        ("victory_card", "VARCHAR"),
        ("tyrant_goal", "INTEGER"),
        ("income", "INTEGER"),
        ("unit_income", "INTEGER"),
        ("round_limit", "INTEGER"),
        ("tie_break", "VARCHAR"),
        ("starting_hand", "INTEGER"),
        ("start_cards", "VARCHAR"),
        ("placements", "VARCHAR"),
        ("map", "VARCHAR"),
        ("field_actions", "VARCHAR"),
        ("teams", "VARCHAR"),
        ("shared_win", "BOOLEAN"),
        ("tyrant_deck", "VARCHAR"),
    ),
    "games": (
        ("game_id", "BIGINT PRIMARY KEY"),
        ("run_id", "BIGINT"),
        ("game_index", "INTEGER"),
        ("board", "VARCHAR"),
        ("seed", "BIGINT"),
        ("players", "INTEGER"),
        ("rotation", "INTEGER"),
        ("first_player", "INTEGER"),
        ("winners", "INTEGER[]"),
        ("draw", "BOOLEAN"),
        ("reason", "VARCHAR"),
        ("rounds", "INTEGER"),
        ("guard_stopped", "BOOLEAN"),
        ("events", "INTEGER"),
        ("actions", "INTEGER"),
    ),
    "game_seats": (
        ("game_id", "BIGINT"),
        ("run_id", "BIGINT"),
        ("seat", "INTEGER"),
        ("agent_index", "INTEGER"),
        ("agent", "VARCHAR"),
        ("drafter", "VARCHAR"),
        ("won", "BOOLEAN"),
        ("result", "INTEGER"),
        ("store", "VARCHAR"),
    ),
    "picks": (
        ("game_id", "BIGINT"),
        *((c, "VARCHAR" if c in ("card", "pack") else "INTEGER") for c in PICK_COLUMNS),
    ),
    "events": (
        ("game_id", "BIGINT"),
        *((c, _EVENT_TYPES.get(c, "INTEGER")) for c in EVENT_COLUMNS),
    ),
    "snapshots": (("game_id", "BIGINT"), *((c, "INTEGER") for c in SNAPSHOT_COLUMNS)),
    "actions": (("game_id", "BIGINT"), ("seq", "INTEGER"), ("action", "VARCHAR")),
    "assignments": (
        ("game_id", "BIGINT"),
        ("run_id", "BIGINT"),
        ("seat", "INTEGER"),
        ("card", "VARCHAR"),
        ("arm", "VARCHAR"),
    ),
    "failed_games": (
        ("game_id", "BIGINT PRIMARY KEY"),
        ("run_id", "BIGINT"),
        ("game_index", "INTEGER"),
        ("board", "VARCHAR"),
        ("seed", "BIGINT"),
        ("rotation", "INTEGER"),
        ("agents", "VARCHAR"),
        ("drafters", "VARCHAR"),
        ("error", "VARCHAR"),
        ("traceback", "VARCHAR"),
    ),
    "sweeps": (
        ("sweep_id", "BIGINT"),
        ("kind", "VARCHAR"),
        ("run_id", "BIGINT"),
        ("card", "VARCHAR"),
        ("field", "VARCHAR"),
        ("value", "INTEGER"),
        ("variant", "VARCHAR"),
    ),
    "sweep_results": (
        ("sweep_id", "BIGINT"),
        ("card", "VARCHAR"),
        ("quantity", "VARCHAR"),
        ("estimate", "DOUBLE"),
        ("low", "DOUBLE"),
        ("high", "DOUBLE"),
        ("note", "VARCHAR"),
    ),
    **summary.TABLES,
}
"""Every table's columns and DuckDB types, in docs/schema.md's order (tests compare the two)."""

GAME_TABLES: Final = (
    "games",
    "game_seats",
    "picks",
    "events",
    "snapshots",
    "actions",
    "assignments",
    "failed_games",
)
"""The tables a batch of games writes; everything a game leaves is in these."""

_ARROW = {
    "BIGINT": pa.int64(),
    "INTEGER": pa.int32(),
    "VARCHAR": pa.string(),
    "BOOLEAN": pa.bool_(),
    "INTEGER[]": pa.list_(pa.int32()),
}
ARROW_SCHEMAS: Final = {
    t: pa.schema([(c, _ARROW[ty.split(" ")[0]]) for c, ty in TABLES[t]]) for t in GAME_TABLES
}


def columns(table: str, *without: str) -> tuple[str, ...]:
    """The column names of `table` in TABLES's order, leaving out `without` (one list of a
    table's columns, for the code that selects or compares them by name)."""
    return tuple(c for c, _ in TABLES[table] if c not in without)


def ddl() -> list[str]:
    """CREATE TABLE statements for the whole schema."""
    return [
        f"CREATE TABLE {t} ({', '.join(f'{c} {ty}' for c, ty in cols)})"
        for t, cols in TABLES.items()
    ]
