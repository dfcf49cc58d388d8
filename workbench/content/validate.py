"""Check many card-set and board files together and summarise them (`workbench validate`).

Every file is read (never written); every problem of every file is collected, and card names are
resolved against all sets read together plus the shipped sets, so a token or start card defined
in another file counts (R8.8, R2.3); a card name is defined by one set only. A board is checked
against the cards it places (R9.5, R19). Files with problems get no summary.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from engine.board import Board
from engine.cards import CardSet
from workbench.content.boards import board_base, read_board
from workbench.content.card_sets import CONTENT_DIR, is_board, merge_names, read_cardsets
from workbench.content.names import look_alikes
from workbench.content.sheets import SPREADSHEET_SUFFIXES
from workbench.content.tables import Names, Problem, Ref, resolve, run_checks


@dataclass(frozen=True, slots=True)
class SetSummary:
    """A set at a glance: sizes, types and the buy-price curve over copies (R3.1)."""

    name: str
    source: str
    cards: int
    copies: int
    draftable: int
    by_type: tuple[tuple[str, int], ...]
    buy: tuple[int, float, int] | None  # min, median, max buy over draftable copies

    def __str__(self) -> str:
        types = ", ".join(f"{n} {t}" for t, n in self.by_type)
        curve = (
            "no buy prices"
            if self.buy is None
            else f"buy min {self.buy[0]} / median {self.buy[1]:g} / max {self.buy[2]}"
        )
        return (
            f"set {self.name} ({self.source}): {self.cards} cards, {self.copies} copies, "
            f"{self.draftable} draftable copies; {types}; {curve}"
        )


def summarize_set(cardset: CardSet) -> SetSummary:
    types = Counter(c.type.value for c in cardset.cards)
    prices = sorted(c.buy for c in cardset.cards if c.buy is not None for _ in range(c.copies))
    return SetSummary(
        name=cardset.name,
        source=cardset.source,
        cards=len(cardset.cards),
        copies=sum(c.copies for c in cardset.cards),
        draftable=len(prices),
        by_type=tuple(sorted(types.items())),
        buy=(prices[0], statistics.median(prices), prices[-1]) if prices else None,
    )


def describe_board(board: Board) -> str:
    victory = board.victory
    detail = victory.card or (str(victory.target) if victory.target else "")
    return (
        f"board {board.name} ({board.source}): {board.width}x{board.height}, "
        f"{board.players} players, victory {victory.kind.value}"
        + (f" ({detail})" if detail else "")
    )


@dataclass
class Report:
    """The problems (exit 2), the warnings (worth a look, not wrong: card names that look
    alike) and a summary of each set and board without problems."""

    problems: list[Problem] = field(default_factory=list)
    sets: list[SetSummary] = field(default_factory=list)
    boards: list[str] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def spreadsheet_files(paths: Sequence[Path]) -> tuple[list[Path], list[Problem]]:
    """Files as given, folders expanded to the spreadsheets in them (recursively)."""
    files: list[Path] = []
    problems: list[Problem] = []
    for path in paths:
        if path.is_dir():
            files += sorted(
                p
                for p in path.rglob("*")
                if p.is_file()
                and p.suffix.casefold() in SPREADSHEET_SUFFIXES
                and not p.name.startswith(("~$", "."))
            )
        elif (
            path.exists() or board_base(path).with_name(board_base(path).name + ".map.csv").exists()
        ):
            files.append(path)
        else:
            problems.append(Problem(str(path), message="no such file or folder"))
    return files, problems


def validate(paths: Sequence[Path]) -> Report:
    """Every problem in `paths`, and a summary of each set and board that has none."""
    files, problems = spreadsheet_files(paths)
    report = Report(problems)
    boards: dict[Path, Path] = {}
    set_files: list[Path] = []
    for path in files:
        if is_board(path):
            boards.setdefault(board_base(path).resolve(), path)
        else:
            set_files.append(path)
    names: Names = {}
    refs: list[Ref] = []
    sets: list[CardSet] = []
    for path in set_files:
        parsed = read_cardsets(path)
        report.problems += parsed.problems + merge_names(names, parsed.names)
        refs += parsed.refs
        sets += parsed.value or []
    report.problems += _duplicate_sets(sets)
    report.warnings = look_alikes(names)
    catalog = {**_shipped_names(set_files), **names}
    report.problems += resolve(refs, catalog)
    bad = {p.file for p in report.problems}
    report.sets = [summarize_set(s) for s in sets if s.source.split("#")[0] not in bad]
    for path in boards.values():
        parsed_board = read_board(path)
        board_problems = parsed_board.problems + resolve(parsed_board.refs, catalog)
        if not board_problems:
            board_problems = run_checks(parsed_board.checks, catalog)
        report.problems += board_problems
        if not board_problems and parsed_board.value is not None:
            report.boards.append(describe_board(parsed_board.value))
    return report


def _duplicate_sets(sets: list[CardSet]) -> list[Problem]:
    """Two files defining the same set would make card names ambiguous."""
    first: dict[str, CardSet] = {}
    problems = []
    for s in sets:
        other = first.setdefault(s.name.casefold(), s)
        if other is not s:
            problems.append(
                Problem(
                    s.source.split("#")[0],
                    message=f"set {s.name!r} is also defined in {other.source}",
                )
            )
    return problems


def _shipped_names(given: list[Path]) -> Names:
    """Card names of the shipped sets not among `given`, so one file can be checked alone."""
    done = {p.resolve() for p in given}
    names: Names = {}
    if CONTENT_DIR.is_dir():
        for path in sorted(CONTENT_DIR.iterdir()):
            if (
                path.suffix.casefold() in SPREADSHEET_SUFFIXES
                and path.resolve() not in done
                and not is_board(path)
            ):
                names.update(read_cardsets(path).names)
    return names
