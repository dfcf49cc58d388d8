"""A run's cards and boards read back from the database, as they were when it was played.

The spreadsheets may have changed since (or be gone); `run_cards` and `run_boards` keep every
number and the behaviour in the card language, so a stored game can be rebuilt from the database
alone (replays) and an old run never changes.
"""

from __future__ import annotations

import json
from dataclasses import replace

import duckdb

from engine.board import Board, Placement, TieBreak, Victory, VictoryKind
from engine.cards import Card, CardType
from engine.keywords import parse_keywords, parse_modifiers
from engine.language import parse_effects, parse_free_actions, parse_full_actions, parse_triggers
from engine.state import GameConfig
from workbench.content.board_map import parse_field
from workbench.store.keys import parse_teams
from workbench.store.schema import columns

_CARD_COLUMNS = columns("run_cards", "run_id")
_BOARD_COLUMNS = columns("run_boards", "run_id", "board_index", "content_hash")


class StoredRunError(ValueError):
    """The run or board is not in the database."""


def stored_cards(con: duckdb.DuckDBPyConnection, run_id: int) -> tuple[list[Card], list[Card]]:
    """(every card of the run's catalog, the drafted pool), in the order they were stored."""
    rows = con.execute(
        f"SELECT {', '.join(_CARD_COLUMNS)} FROM run_cards WHERE run_id = ?", [run_id]
    ).fetchall()
    if not rows:
        raise StoredRunError(f"run {run_id} has no stored cards")
    catalog, pool = [], []
    for row in rows:
        r = dict(zip(_CARD_COLUMNS, row, strict=True))
        card = Card(
            name=r["name"],
            set=r["set"],
            type=CardType(r["type"]),
            copies=r["copies"],
            buy=r["buy"],
            play=r["play"],
            upkeep=r["upkeep"],
            life=r["life"],
            move=r["move"],
            attack=r["attack"],
            range=r["range"],
            durability=r["durability"],
            keywords=parse_keywords(r["keywords"]),
            effects=parse_effects(r["effect"]),
            triggers=parse_triggers(r["trigger"]),
            free_actions=parse_free_actions(r["free_action"]),
            full_actions=parse_full_actions(r["full_action"]),
            modifiers=parse_modifiers(r["modifiers"]),
            text=r["text"],
        )
        catalog.append(card)
        if r["in_pool"]:
            pool.append(card)
    return catalog, pool


def _counts(text: str) -> tuple[tuple[str, int], ...]:
    """`Militia x 3, Supply x 4` -> (("Militia", 3), ("Supply", 4))."""
    out = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, n = part.rpartition(" x ")
        out.append((name, int(n)))
    return tuple(out)


def _placement(text: str) -> Placement:
    """`Commander@4,0:0*` -> Placement("Commander", owner 0, x 4, y 0, vip)."""
    card, _, rest = text.rpartition("@")
    where, _, owner = rest.partition(":")
    x, _, y = where.partition(",")
    vip = owner.endswith("*")
    return Placement(card, int(owner.rstrip("*")), int(x), int(y), vip)


def stored_board(con: duckdb.DuckDBPyConnection, run_id: int, board: str) -> Board:
    """The board `board` (its proper name, as in `games.board`) of run `run_id`."""
    row = con.execute(
        f"SELECT {', '.join(_BOARD_COLUMNS)} FROM run_boards WHERE run_id = ? AND board = ?",
        [run_id, board],
    ).fetchone()
    if row is None:
        raise StoredRunError(f"run {run_id} has no board {board!r}")
    r = dict(zip(_BOARD_COLUMNS, row, strict=True))
    actions = {
        mark: parse_free_actions(text)
        for mark, text in json.loads(r["field_actions"] or "{}").items()
    }
    fields = []
    for line in r["map"].splitlines():
        for code in line.split():
            f = parse_field(code)
            fields.append(replace(f, actions=actions[f.mark]) if f.mark else f)
    teams = parse_teams(r["teams"])
    victory = Victory(
        VictoryKind(r["victory_kind"]),
        r["victory_target"],
        r["victory_card"] or None,
        r["tyrant_goal"],
        r["shared_win"],
    )
    return Board(
        name=r["board"],
        width=r["width"],
        height=r["height"],
        fields=tuple(fields),
        victory=victory,
        players=r["players"],
        teams=teams,
        income=r["income"],
        unit_income=r["unit_income"],
        start_cards=_counts(r["start_cards"]),
        starting_hand=r["starting_hand"],
        round_limit=r["round_limit"],
        tie_break=TieBreak(r["tie_break"]),
        placements=tuple(_placement(p.strip()) for p in r["placements"].split(", ") if p),
        tyrant_deck=_counts(r["tyrant_deck"]),
        source=r["file"],
    )


def stored_config(
    con: duckdb.DuckDBPyConnection, run_id: int, board: str, **params: int | bool
) -> GameConfig:
    """The GameConfig a game of the run was played with, from the database alone."""
    catalog, pool = stored_cards(con, run_id)
    the_board = stored_board(con, run_id, board)
    return GameConfig(
        tuple(pool),
        {c.name.casefold(): c for c in catalog},
        the_board,
        players=the_board.players,
        **params,  # type: ignore[arg-type]
    )
