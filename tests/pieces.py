"""Pieces shared by the board and combat rule tests: a small open board, a few units, helpers."""

from __future__ import annotations

from tests.builder import Keywords, board, eff, spell, texts, tgt, unit

OPEN5 = board("""
0 0 . . .
. . . . .
. . . . .
. . . . .
. . . 1 1
""")

SOLDIER = unit("Soldier", life=3, move=2, attack=1)
DUMMY = unit("Dummy", life=9, move=0, attack=0)  # never strikes back
ARCHER = unit("Archer", life=2, move=1, attack=1, range_=3)


def crew(n: int, name: str = "Wagon", **kw) -> object:
    return unit(name, keywords=Keywords(crew=n), **kw)


def legal(g) -> list[str]:
    return texts(g.legal_actions(), g.state.config.board.width)


def destroy_spell() -> object:
    return spell("Kill", eff("destroy", 1, tgt("unit", "enemy")), play=0)
