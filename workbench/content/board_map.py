"""A board's map from its sheet: one cell per field, each a terrain code or word and its marks
(docs/boards.md; R9, R21.8)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.board import Field, Terrain
from engine.words import nearest, norm
from workbench.content.sheets import Cell, column_letter
from workbench.content.tables import Problem, cell_text

_TERRAIN_CODES = {
    ".": Terrain.PLAIN,
    "~": Terrain.DEEP_WATER,
    "^": Terrain.HIGH_GROUND,
    "#": Terrain.BLOCKED,
}
_TERRAIN_NAMES = {
    norm(w): t
    for t, words in (
        (Terrain.PLAIN, ("plain", "ebene")),
        (Terrain.DEEP_WATER, ("water", "deep water", "wasser", "tiefes wasser")),
        (Terrain.HIGH_GROUND, ("high", "high ground", "hügel")),
        (Terrain.BLOCKED, ("blocked", "fels")),
    )
    for w in words
}
MAX_SIDE = 32
"""A map is at most this many fields wide and high: a game's precomputed geometry grows with the
square of the fields (a 32x32 map takes 0.4 s to set up, a 120x120 one a minute a game)."""


def parse_field(text: str) -> Field:
    """A map cell: terrain code or word, then marks: seat 1-4, area A-Z, `$` income, a-z the
    field action of that letter (its text comes from the scenario)."""
    if text[0] in _TERRAIN_CODES:
        terrain, marks = _TERRAIN_CODES[text[0]], text[1:]
    else:
        words = text.split()
        two, one = norm(" ".join(words[:2])), norm(words[0])
        if len(words) > 1 and two in _TERRAIN_NAMES:
            terrain, marks = _TERRAIN_NAMES[two], "".join(words[2:])
        elif one in _TERRAIN_NAMES:
            terrain, marks = _TERRAIN_NAMES[one], "".join(words[1:])
        else:
            close = nearest(text, list(_TERRAIN_NAMES))
            hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
            raise ValueError(
                f"unknown field code: a field starts with . ~ ^ # or a terrain word{hint}"
            )
    deploy: int | None = None
    area: str | None = None
    action: str | None = None
    income = 0
    for mark in marks:
        if mark in "1234" and deploy is None:
            deploy = int(mark) - 1
        elif "A" <= mark <= "Z" and area is None:
            area = mark
        elif mark == "$":
            income += 1
        elif "a" <= mark <= "z" and action is None:
            action = mark
        elif mark in "1234" or "A" <= mark <= "Z" or "a" <= mark <= "z":
            what = (
                "deploy seats" if mark.isdigit() else "areas" if mark.isupper() else "field actions"
            )
            raise ValueError(f"two {what} in one field")
        else:
            raise ValueError(f"unknown field code {mark!r} (known: . ~ ^ # 1-4 A-Z a-z $)")
    return Field(terrain, deploy, area, income, action)


def field_code(f: Field) -> str:
    """A field as the map writes it (the inverse of `parse_field`): `^1A$s`."""
    terrain = next(code for code, t in _TERRAIN_CODES.items() if t is f.terrain)
    seat = "" if f.deploy is None else str(f.deploy + 1)
    return terrain + seat + (f.area or "") + "$" * f.income + (f.mark or "")


@dataclass
class BoardMap:
    """A board's map: its size and its fields, row by row."""

    width: int
    height: int
    fields: tuple[Field, ...]


def read_map(
    file: str, sheet: str | None, rows: Sequence[tuple[Cell, ...]], problems: list[Problem]
) -> BoardMap | None:
    """The map sheet: no header, one cell per field, every row equally long."""
    texts = [[cell_text(c) for c in row] for row in rows]
    for row in texts:
        while row and row[-1] is None:
            row.pop()
    while texts and not texts[-1]:
        texts.pop()
    if not texts:
        problems.append(Problem(file, sheet, message="empty map: one cell per field expected"))
        return None
    wide = max(len(row) for row in texts)
    if wide > MAX_SIDE or len(texts) > MAX_SIDE:
        problems.append(
            Problem(
                file,
                sheet,
                message=f"the map is {wide} fields wide and "
                f"{len(texts)} high: at most {MAX_SIDE}x{MAX_SIDE} "
                "(docs/boards.md)",
            )
        )
        return None
    before = len(problems)
    width = len(texts[0])
    fields: list[Field] = []
    for y, row in enumerate(texts):
        if not row:
            problems.append(Problem(file, sheet, y + 1, message="empty map row"))
            continue
        if len(row) != width:
            problems.append(
                Problem(
                    file,
                    sheet,
                    y + 1,
                    message=f"ragged map: this row has {len(row)} fields, row 1 has {width}",
                )
            )
        for x, text in enumerate(row):
            where = Problem(file, sheet, y + 1, column_letter(x), text)
            if text is None:
                problems.append(
                    replace(where, message="empty field: every field needs a terrain code")
                )
                continue
            try:
                fields.append(parse_field(text))
            except ValueError as err:
                problems.append(replace(where, message=str(err)))
    if len(problems) > before:
        return None
    return BoardMap(width, len(texts), tuple(fields))


def deploy_problems(
    board_map: BoardMap, players: int, file: str, sheet: str | None
) -> list[Problem]:
    """R21.8: every seat has a deploy zone, with a land field (R9.5: else only swimmers)."""
    problems = []
    for seat in range(players):
        zone = [i for i, f in enumerate(board_map.fields) if f.deploy == seat]
        if not zone:
            problems.append(
                Problem(
                    file,
                    sheet,
                    message=f"seat "
                    f"{seat + 1} of {players} has no deploy zone: mark its "
                    f"fields with {seat + 1} (R21.8)",
                )
            )
        elif not any(
            board_map.fields[i].terrain in (Terrain.PLAIN, Terrain.HIGH_GROUND) for i in zone
        ):
            problems.append(
                Problem(
                    file,
                    sheet,
                    message=f"seat "
                    f"{seat + 1}'s deploy zone has no land field (only blocked "
                    "or deep water), so no unit that does not swim can be "
                    f"played: mark a plain or high field with {seat + 1} "
                    "(R21.8, R9.5)",
                )
            )
    return problems
