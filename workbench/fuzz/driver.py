"""The runs of `workbench fuzz` (app/cmd_fuzz.py): which case, seed and agents each fuzzed
game of a run plays, and a failure written as spreadsheets a developer opens and replays.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from engine.play import derive_seed
from engine.state import GameConfig
from workbench.content.setup import load_setup
from workbench.fuzz.cases import Case, generate_case, load_case
from workbench.fuzz.play import AGENT_MIXES, Outcome, agents_of, play_checked
from workbench.fuzz.shrink import Failing

# --- writing a failure for a developer ----------------------------------------------------------


def slug(signature: str) -> str:
    """A folder name for a signature: its words, cut short, and a hash of the whole."""
    words = re.sub(r"[^a-z0-9]+", "-", signature.casefold()).strip("-")[:50].strip("-")
    return f"{words}-{hashlib.sha256(signature.encode()).hexdigest()[:6]}"


def write_failure(
    folder: Path, failing: Failing, original: Failing | None = None, note: str = ""
) -> None:
    """The case as spreadsheets (cards.csv, board.*.csv), case.json, and README.md with the
    failure and the commands that show it again."""
    cards, board = failing.case.write(folder)
    agents = ",".join(failing.agents)
    (folder / "case.json").write_text(
        json.dumps(
            {
                "run_seed": failing.run_seed,
                "agents": list(failing.agents),
                "signature": failing.outcome.signature,
                "kind": failing.outcome.kind,
                "note": note,
                "case": failing.case.to_json(),
            },
            indent=1,
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )
    if original is not None and original.case != failing.case:
        original.case.write(folder / "original")
    (folder / "README.md").write_text(
        f"# {failing.outcome.kind}: {failing.outcome.signature}\n\n"
        f"{note}\n\n"
        f"Card set `cards.csv`, board `board` (`board.map.csv`, `board.scenario.csv`, "
        f"`board.placements.csv`): {len(failing.case.cards)} cards, a "
        f"{len(failing.case.map[0])}x{len(failing.case.map)} map"
        + (
            " (shrunk; the case as generated is in `original/`)"
            if original is not None and original.case != failing.case
            else ""
        )
        + ".\n\n"
        "Show it again, with the invariants checked at every decision:\n\n"
        f"    workbench fuzz --replay {folder}\n\n"
        "Play it as a run (a crash is stored in the table failed_games):\n\n"
        f"    workbench simulate --sets {cards} --board {board} --games 1 "
        f"--seed {failing.run_seed} --agents {agents} --drafters {agents} --workers 1 "
        f"--db fuzz-case.duckdb\n\n"
        f"## What happened\n\n```\n{failing.outcome.detail.strip()}\n```\n",
        encoding="utf-8",
    )


def replay_folder(folder: Path) -> tuple[Outcome, Failing]:
    """Play a written case again from its spreadsheets (edited or not) and its case.json."""
    meta = json.loads((folder / "case.json").read_text(encoding="utf-8"))
    agents = tuple(meta["agents"])
    setup = load_setup([str(folder / "cards.csv")], str(folder / "board"))
    outcome = play_checked(setup.config, int(meta["run_seed"]), agents, replay=False)
    return outcome, Failing(Case.from_json(meta["case"]), int(meta["run_seed"]), agents, outcome)


# --- one fuzzed game of a run ----------------------------------------------------------------

GAMES_PER_CASE = 4
"""Games played on each generated case, with the agent mixes in turn."""


@dataclass(frozen=True)
class Planned:
    """Fuzzed game `index` of a run: its case's seed, the simulate seed, the agents."""

    index: int
    case_seed: int
    run_seed: int
    mix: str


def plan(seed: int, index: int) -> Planned:
    return Planned(
        index,
        derive_seed(seed, "case", index // GAMES_PER_CASE),
        derive_seed(seed, "game", index),
        AGENT_MIXES[index % len(AGENT_MIXES)],
    )


_CONFIGS: dict[int, GameConfig | Exception] = {}
"""The last case's config per worker process (its games run one after another)."""


def play_planned(p: Planned) -> tuple[Outcome, tuple[str, ...]]:
    """Generate (or reuse) the case and play the planned game; an invalid generated case is a
    failure of the generator itself."""
    if p.case_seed not in _CONFIGS:
        _CONFIGS.clear()
        try:
            _CONFIGS[p.case_seed] = load_case(generate_case(p.case_seed))
        except Exception as exc:  # noqa: BLE001  # the generator made content the loader refuses
            _CONFIGS[p.case_seed] = exc
    config = _CONFIGS[p.case_seed]
    if isinstance(config, Exception):
        return Outcome(
            "invalid", "invalid:the generator made content the loader refuses", str(config)
        ), ()
    agents = agents_of(p.mix, config.players)
    return play_checked(config, p.run_seed, agents), agents


def failing_of(p: Planned, outcome: Outcome, agents: tuple[str, ...]) -> Failing:
    return Failing(generate_case(p.case_seed), p.run_seed, agents, outcome)
