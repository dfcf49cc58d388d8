"""Shrinking a failing fuzz case: fewer players, placements, cards (the pool kept big
enough to draft), scenario keys, map rows and columns, behaviour cells and their pieces, as long
as the same failure (its signature) shows.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from engine.play import derive_seed
from workbench.fuzz.cases import BEHAVIOUR_COLUMNS, Case, load_case
from workbench.fuzz.play import Outcome, play_checked


@dataclass
class Failing:
    """A case that fails, with the game that shows it: `run_seed` as `workbench simulate
    --seed` takes it (game 0), the agents per seat, and the outcome."""

    case: Case
    run_seed: int
    agents: tuple[str, ...]
    outcome: Outcome


def reproduce(case: Case, run_seed: int, agents: Sequence[str]) -> Outcome:
    """Load and play the case (an invalid case is an outcome of kind `invalid`)."""
    try:
        config = load_case(case)
    except Exception as exc:  # noqa: BLE001  # the loader's refusals and anything else
        return Outcome("invalid", detail=str(exc))
    if config.players != len(agents):
        return Outcome("invalid", detail="players changed")
    return play_checked(config, run_seed, agents, replay=False)


def _items(cell: str, column: str) -> list[str]:
    """A behaviour cell's separable pieces: `;` items, and in `effect` also `,` effects."""
    pieces = [p.strip() for p in cell.split(";") if p.strip()]
    if column == "effect":
        pieces = [e.strip() for p in pieces for e in p.split(",") if e.strip()]
    return pieces


def _joined(pieces: Sequence[str], column: str) -> str:
    return ", ".join(pieces) if column == "effect" else "; ".join(pieces)


def _without_rows(rows: list[dict[str, str]], drop: set[int]) -> list[dict[str, str]]:
    return [r for i, r in enumerate(rows) if i not in drop]


def _chunks(n: int) -> Iterator[set[int]]:
    """Index sets to drop: halves, quarters, ... then single items (ddmin's order)."""
    size = max(1, n // 2)
    while True:
        for start in range(0, n, size):
            yield set(range(start, min(n, start + size)))
        if size == 1:
            return
        size = max(1, size // 2)


def _candidates(case: Case) -> Iterator[Case]:
    """Smaller or simpler cases, biggest cuts first; the loader rejects the invalid ones."""
    yield from _fewer_players(case)
    for drop in _chunks(len(case.placements)):
        yield replace(case, placements=_without_rows(case.placements, drop))
    for drop in _chunks(len(case.cards)):
        yield replace(case, cards=_topped_up(_without_rows(case.cards, drop), case.cards))
    for key in [k for k in case.scenario if k not in ("name", "players", "victory")]:
        yield replace(case, scenario={k: v for k, v in case.scenario.items() if k != key})
    yield from _smaller_maps(case)
    for i, row in enumerate(case.cards):
        for column in BEHAVIOUR_COLUMNS:
            pieces = _items(row.get(column, ""), column)
            options: list[list[str]] = [[]] if pieces else []
            if len(pieces) > 1:
                options += [pieces[:k] + pieces[k + 1 :] for k in range(len(pieces))]
            for kept in options:
                yield _with_cell(case, i, column, _joined(kept, column))
        if row.get("copies", "1") not in ("", "1"):
            yield _with_cell(case, i, "copies", "1")


def _draftable_copies(rows: Sequence[dict[str, str]]) -> int:
    return sum(int(r.get("copies") or 1) for r in rows if r.get("buy"))


def _topped_up(
    rows: list[dict[str, str]], before: Sequence[dict[str, str]]
) -> list[dict[str, str]]:
    """The first draftable card kept takes the copies of the draftable cards dropped, so the
    pool still deals every seat its packs (R3.2)."""
    missing = _draftable_copies(before) - _draftable_copies(rows)
    first = next((i for i, r in enumerate(rows) if r.get("buy")), None)
    if missing <= 0 or first is None:
        return rows
    rows = list(rows)
    rows[first] = {
        **rows[first],
        "copies": str(min(99, int(rows[first].get("copies") or 1) + missing)),
    }
    return rows


def _fewer_players(case: Case) -> Iterator[Case]:
    """The case without its last seat: its deploy zone, placements and teams go."""
    players = int(case.scenario.get("players", "2"))
    if players <= 2:
        return
    seat = str(players)
    scenario = {k: v for k, v in case.scenario.items() if k != "teams"}
    scenario["players"] = str(players - 1)
    rows = [
        [cell.replace(seat, "") if cell[:1] in ".~^#" else cell for cell in row] for row in case.map
    ]
    yield replace(
        case,
        map=rows,
        scenario=scenario,
        placements=[p for p in case.placements if p["owner"] != seat],
    )


def _with_cell(case: Case, index: int, column: str, value: str) -> Case:
    cards = list(case.cards)
    cards[index] = {**cards[index], column: value}
    return replace(case, cards=cards)


def _smaller_maps(case: Case) -> Iterator[Case]:
    """The map without its last or first row or column (placements move along)."""
    h, w = len(case.map), len(case.map[0])
    for dx, dy, keep_w, keep_h in (
        (0, 0, w - 1, h),
        (0, 0, w, h - 1),
        (1, 0, w - 1, h),
        (0, 1, w, h - 1),
    ):
        if keep_w < 2 or keep_h < 2:
            continue
        rows = [row[dx : dx + keep_w] for row in case.map[dy : dy + keep_h]]
        placements = []
        for p in case.placements:
            x, y = int(p["x"]) - dx, int(p["y"]) - dy
            if 0 <= x < keep_w and 0 <= y < keep_h:
                placements.append({**p, "x": str(x), "y": str(y)})
        yield replace(case, map=rows, placements=placements)


def minimise(failing: Failing, seconds: float = 120.0, seeds: int = 2) -> Failing:
    """Shrink the case while the same failure (its signature) shows, for up to `seconds`.

    A candidate counts when the failure shows with the current seed or one of `seeds` others
    (removing a card reshuffles the whole game, so a fixed seed alone shrinks little)."""
    deadline = time.monotonic() + seconds
    best = failing
    improved = True
    while improved and time.monotonic() < deadline:
        improved = False
        for candidate in _candidates(best.case):
            if time.monotonic() > deadline:
                break
            tries = [
                best.run_seed,
                *(derive_seed(best.run_seed, "shrink", k) for k in range(seeds)),
            ]
            agents = best.agents[: int(candidate.scenario.get("players", "2"))]
            for run_seed in tries:
                outcome = reproduce(candidate, run_seed, agents)
                if outcome.kind == "invalid":
                    break
                if outcome.signature == failing.outcome.signature:
                    best = Failing(candidate, run_seed, agents, outcome)
                    improved = True
                    break
            if improved:
                break
    return best
