"""Games recorded before a refactor, replayed after it (the proof that a change of the
code's shape changed no rule): the ladder's boards and seeds with every fast agent and drafter,
and a few search games, stored event for event in `tests/data/golden_games.parquet`.

Regenerate only when a rule changes on purpose, and say which rule in the commit:

    python -m tests.golden_games
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from engine.agents.registry import make_agent
from engine.events import EVENT_COLUMNS
from engine.play import derive_seed, play_game
from workbench.training.train_agent import BOARDS, setup_for

STORE = Path(__file__).parent / "data" / "golden_games.parquet"

Spec = tuple[str, int, str, str]
"""(board, game index, agent spec, drafter spec)"""


def games() -> Iterator[Spec]:
    """Every recorded game: 4 heuristic games a board, then one a board for each other fast
    agent and drafter, then search on the two smallest boards."""
    for board in BOARDS:
        for i in range(4):
            yield board, i, "heuristic", "heuristic"
        yield board, 4, "random", "random"
        yield board, 5, "explorer", "numbers"
        yield board, 6, "tuned", "tuned"
        yield board, 7, "heuristic:eps=0.2", "heuristic"
    for board in ("gold-rush", "three-hills"):
        yield board, 8, "search:budget=2", "heuristic"


def play(spec: Spec) -> dict[str, list[object]]:
    """The events of one recorded game, column by column."""
    board, i, agent, drafter = spec
    setup = setup_for(board, i)
    n = setup.config.players
    record = play_game(
        setup.config,
        derive_seed("golden", board, i, agent, drafter),
        [make_agent(agent) for _ in range(n)],
        [make_agent(drafter) for _ in range(n)],
    )
    return {name: list(record.events.columns()[name]) for name in EVENT_COLUMNS}


def key(spec: Spec) -> str:
    return "|".join(map(str, spec))


def write() -> None:
    tables = []
    for spec in games():
        cols = play(spec)
        n = len(cols[EVENT_COLUMNS[0]])
        tables.append(pa.table({"game": [key(spec)] * n, "seq": list(range(n)), **cols}))
    pq.write_table(pa.concat_tables(tables), STORE, compression="zstd")


def stored() -> dict[str, dict[str, list[object]]]:
    """The recorded events per game key."""
    table = pq.read_table(STORE).to_pydict()
    out: dict[str, dict[str, list[object]]] = {}
    for row, game in enumerate(table["game"]):
        cols = out.setdefault(game, {name: [] for name in EVENT_COLUMNS})
        for name in EVENT_COLUMNS:
            cols[name].append(table[name][row])
    return out


if __name__ == "__main__":
    write()
