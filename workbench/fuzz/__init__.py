"""Fuzzing with content a designer could type: random valid card sets and boards,
played by random and heuristic agents with the engine's invariants checked at every decision; a
failing case is shrunk to a small spreadsheet pair (card set + board, CSV) a developer opens.

A case is the text of the spreadsheets, not engine objects: it goes through the same loader as
`workbench simulate`, so what the fuzzer finds is what a designer would meet. One module per
job: `cases` generates them (drawing their cards with `random_cards`, their boards with
`random_boards`), `play` plays one game with the checks, `shrink` minimises a failing case,
`driver` plans a run's games and writes and replays failures for `workbench fuzz`
(app/cmd_fuzz.py), which runs many games in parallel; the test suite plays a small sample on
every run (tests/test_fuzz.py).
"""

from workbench.fuzz.cases import Case, generate_case, load_case
from workbench.fuzz.driver import (
    Planned,
    failing_of,
    plan,
    play_planned,
    replay_folder,
    slug,
    write_failure,
)
from workbench.fuzz.play import (
    AGENT_MIXES,
    Outcome,
    agents_of,
    check_decision,
    check_game,
    play_checked,
    referee,
)
from workbench.fuzz.random_cards import EVENT_WORDS
from workbench.fuzz.shrink import Failing, minimise, reproduce

__all__ = [
    "AGENT_MIXES",
    "EVENT_WORDS",
    "Case",
    "Failing",
    "Outcome",
    "Planned",
    "agents_of",
    "check_decision",
    "check_game",
    "failing_of",
    "generate_case",
    "load_case",
    "minimise",
    "plan",
    "play_checked",
    "play_planned",
    "referee",
    "replay_folder",
    "reproduce",
    "slug",
    "write_failure",
]
