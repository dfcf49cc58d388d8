"""From names on a command line to a GameConfig: the chosen sets, the board, the catalog.

The catalog holds every shipped card (start cards, tokens, the Tyrant's cards) plus the cards of
any set given as a path, so references resolve however the sets are chosen.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from engine.board import Board
from engine.cards import CardSet
from engine.state import GameConfig
from workbench.content.boards import BOARD_PARTS, board_base, load_board
from workbench.content.card_sets import (
    find_board,
    find_cardset,
    load_cardsets,
    merge_names,
    read_cardsets,
    shipped_cardsets,
)
from workbench.content.names import look_alikes
from workbench.content.tables import Names, Problem

DEFAULT_SETS = ("iron-legion", "tide-callers")
DEFAULT_BOARD = "kings-crossing"


@dataclass(frozen=True)
class Setup:
    """A loaded game setup with where it came from (for the runs table)."""

    config: GameConfig
    sets: tuple[CardSet, ...]
    board: Board
    files: tuple[str, ...]
    content_hash: str


def board_files(path: Path) -> list[Path]:
    """The files a board is read from: a workbook, or every part of a CSV board."""
    if path.is_file() and path.suffix.casefold() != ".csv":
        return [path]
    base = board_base(path)
    parts = (base.with_name(f"{base.name}.{part}.csv") for part in BOARD_PARTS)
    return [p for p in parts if p.is_file()]


def _refuse_clashes(chosen: Sequence[CardSet]) -> None:
    """Two chosen sets defining one card name: both would be drafted, but cards are found by
    name, so one of them would be lost. (A chosen set given as a path replaces the cards of the
    same names in shipped sets that are not chosen: that is how an edited copy is tried.)"""
    first: dict[str, CardSet] = {}
    for cardset in chosen:
        for card in cardset.cards:
            other = first.setdefault(card.name.casefold(), cardset)
            if other.name.casefold() != cardset.name.casefold():
                raise ValueError(
                    f"card {card.name!r} is defined by set {other.name!r} "
                    f"({other.source}) and by set {cardset.name!r} "
                    f"({cardset.source}): a card name may be defined by one set "
                    "only; rename one of them"
                )


def load_setup(
    sets: Sequence[str] = DEFAULT_SETS,
    board: str = DEFAULT_BOARD,
    players: int | None = None,
    **params: int | bool,
) -> Setup:
    """Load the named sets and board; raise LookupError or ValidationError with a clear text."""
    shipped = shipped_cardsets()
    by_name = {s.name.casefold(): s for s in shipped}
    chosen: list[CardSet] = []
    files: list[Path] = []
    for name in sets:
        if name.casefold() in by_name and not Path(name).is_file():
            chosen.append(by_name[name.casefold()])
            files.append(find_cardset(name))
        else:
            path = find_cardset(name)
            chosen.extend(load_cardsets(path, shipped))
            files.append(path)
    board_path = find_board(board)
    _refuse_clashes(chosen)
    catalog_sets = [*shipped, *chosen]
    the_board = load_board(board_path, catalog_sets)
    files.extend(board_files(board_path))
    catalog = {c.name.casefold(): c for s in catalog_sets for c in s.cards}
    pool = tuple(c for s in chosen for c in s.cards)
    n = players if players is not None else the_board.players
    if n != the_board.players:
        raise ValueError(f"board {the_board.name!r} is for {the_board.players} players, not {n}")
    config = GameConfig(pool, catalog, the_board, players=n, **params)  # type: ignore[arg-type]
    return Setup(
        config,
        tuple(chosen),
        the_board,
        tuple(str(f) for f in files),
        content_hash(sorted(set(files))),
    )


def name_warnings(sets: Sequence[str]) -> list[Problem]:
    """`workbench validate`'s look-alike warnings (`names.look_alikes`, each at its cell) over
    the cards of the sets a run is loaded with, named as `--sets` names them: a set file's
    every set, a shipped set by its name alone (as `load_setup` loads them). Clashes are
    not this function's to report (`load_setup` refuses them)."""
    names: Names = {}
    for name in sets:
        path = find_cardset(name)
        defined = read_cardsets(path).names
        named = {k: v for k, v in defined.items() if v.set.casefold() == name.casefold()}
        merge_names(names, defined if Path(name).is_file() or not named else named)
    return look_alikes(names)


def content_hash(files: Sequence[str | Path], labels: Sequence[str] = ()) -> str:
    """16 hex digits over the bytes of every file, in the order given, then the labels (e.g. a
    variant's changes): any edit makes a new hash, so a resumed run can tell its inputs."""
    digest = hashlib.sha256()
    for f in files:
        digest.update(Path(f).read_bytes())
    for label in labels:
        digest.update(label.encode())
    return digest.hexdigest()[:16]
