"""The recorded games play event for event as they did when recorded (tests/golden_games.py):
a refactor of the engine or the agents that changes one decision, one event or its order
fails here, naming the game and the first event that differs."""

from __future__ import annotations

import pytest

from engine.events import EVENT_COLUMNS
from tests.golden_games import Spec, games, key, play, stored

RECORDED = stored()


def test_every_recorded_game_is_still_listed() -> None:
    assert sorted(RECORDED) == sorted(key(spec) for spec in games())


@pytest.mark.parametrize("spec", list(games()), ids=key)
def test_a_recorded_game_plays_event_for_event_as_recorded(spec: Spec) -> None:
    then, now = RECORDED[key(spec)], play(spec)
    rows_then = list(zip(*(then[c] for c in EVENT_COLUMNS), strict=True))
    rows_now = list(zip(*(now[c] for c in EVENT_COLUMNS), strict=True))
    first = next(
        (i for i, (a, b) in enumerate(zip(rows_then, rows_now, strict=False)) if a != b),
        min(len(rows_then), len(rows_now)),
    )

    def at(rows: list[tuple[object, ...]]) -> object:
        return dict(zip(EVENT_COLUMNS, rows[first], strict=True)) if first < len(rows) else "end"

    assert rows_now == rows_then, (
        f"event {first} of {len(rows_then)} differs: recorded {at(rows_then)}, now {at(rows_now)}"
    )
