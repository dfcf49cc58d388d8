"""The recovery benchmark's case list (benchmarks/bench_recovery.py): which cards are planted,
on which board and set, four to a run, and the CSV copies of the sets each run plays (the
original twins and the planted copies, workbench/studies/plants.py)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from engine.cards import CardSet, CardType
from workbench.analysis.severity import Thresholds
from workbench.analysis.verdicts import priced_out, unused
from workbench.content.card_sets import shipped_cardsets
from workbench.content.setup import load_setup
from workbench.studies import plants as pl

BOARDS = {
    "kings-crossing": ("iron-legion", "tide-callers"),
    "gold-rush": ("tide-callers", "sky-wardens"),
    "three-hills": ("sky-wardens", "pestgericht"),
    "zwei-burgen": ("pestgericht", "iron-legion"),
    "drowned-sanctum": ("tide-callers", "pestgericht"),
    "tyrants-throne": ("sky-wardens", "iron-legion"),
    "four-banners": ("iron-legion", "sky-wardens"),
}
"""Every shipped board (every victory kind) with the two shipped sets its cases play."""
Content = tuple[str, tuple[str, ...]]
"""A board and the sets played on it: what a truth and an unplanted run are of."""
PER_RUN = 4
"""Cases planted together in one copy of one set (each on its own card): a run of the pipeline
and of the truth serves them all, so 40 cases cost 10 runs. The design randomises each card's
purchases on its own, so the truth of each plant is read off the one run."""
Kinds = tuple[tuple[CardType, ...], tuple[str, ...] | None]
"""The card types a case list cycles through and the fields it plants (None: each type's own)."""
Truth = Callable[[Content], Mapping[str, dict[str, Any]]]
"""A content's truth: the effect row (analysis/causal.card_effects) of each card of the original
sets on the board in a large design run."""


def content_key(board: str, sets: Sequence[str]) -> str:
    """The name a content's truth and unplanted run are kept under: the board for its BOARDS
    pair (as the first 160 cases were kept), else the board and the sets."""
    return board if tuple(sets) == BOARDS.get(board) else "+".join([board, *sets])


def parse_contents(text: str | None) -> tuple[Content, ...]:
    """Contents written BOARD=SET,SET;... (None: BOARDS' pairs); ValueError naming the item
    that is not a shipped board with two shipped sets."""
    if text is None:
        return tuple(BOARDS.items())
    _, by_name = shipped()
    found = []
    for item in filter(None, (t.strip() for t in text.split(";"))):
        board, _, names = (x.strip() for x in item.partition("="))
        sets = tuple(n.strip() for n in names.split(",") if n.strip())
        if board not in BOARDS or len(sets) != 2 or not set(sets) <= set(by_name):
            raise ValueError(
                f"{item!r}: BOARD=SET,SET with a board of {', '.join(BOARDS)} "
                f"and two sets of {', '.join(by_name)}"
            )
        found.append((board, sets))
    if not found:
        raise ValueError(f"{text!r} names no board")
    return tuple(found)


def shipped() -> tuple[list[CardSet], dict[str, CardSet]]:
    return (sets := shipped_cardsets()), {s.name: s for s in sets}


def source_of(cardset: CardSet) -> Path:
    return Path(cardset.source.split("#")[0])


def in_band(row: dict[str, Any] | None, band: float) -> bool:
    """Whether the original card is one the truth finds fine: its effect inside the band, its
    forced seats playing it (verdicts.unused) and not priced out. Only such cards are planted,
    so that a plant, when it is one, makes a card the report should newly name."""
    if row is None or row.get("effect") is None or unused(row) or priced_out(row):
        return False
    return abs(float(row["effect"])) <= band


def run_plants(
    j: int,
    count: int,
    seed: int,
    home: CardSet,
    excluded: set[str],
    kinds: Kinds,
    scratch: Path,
    before: frozenset[tuple[str, str]] = frozenset(),
) -> list[pl.Plant]:
    """Run j's plants on `home`'s cards (cases PER_RUN * j onwards, at most `count`): case i
    takes its slot's kind (`kinds`: the types and fields of the case list), or the next type
    that has a card to plant; each card once, and never a (card, field) in `before` (planted
    on this board by an earlier case: a case again would count one plant twice); the copy with
    all of them written once to check that cells carry them."""
    catalog, _ = shipped()
    types, fields = kinds
    plants: list[pl.Plant] = []
    for i in range(PER_RUN * j, min(count, PER_RUN * (j + 1))):
        skip = excluded | {p.card.casefold() for p in plants}
        taken = set(before)
        order = [types[(i + k) % len(types)] for k in range(len(types))]
        order += [t for t in pl.TYPES if t not in order]
        for kind in order:
            want = pl.slot(i, kind, types, fields)
            plant = pl.choose_plant(i, home.cards, seed, taken, skip, want)
            while plant is not None:
                taken.add((plant.card, plant.field))
                try:
                    pl.write_planted(
                        source_of(home),
                        home,
                        [*plants, plant],
                        scratch / f"{home.name}.csv",
                        catalog,
                    )
                    break
                except ValueError:
                    plant = pl.choose_plant(i, home.cards, seed, taken, skip, want)
            if plant is not None:
                plants.append(plant)
                break
        else:
            raise ValueError(f"case {i}: no card of {home.name} to plant")
    return plants


def make_cases(
    count: int,
    seed: int,
    truth: Truth,
    excluded: set[str],
    scratch: Path,
    kinds: Kinds = (pl.TYPES, None),
    before: Sequence[dict[str, Any]] = (),
    contents: Sequence[Content] = tuple(BOARDS.items()),
) -> list[dict[str, Any]]:
    """`count` cases after the cases `before` (a whole number of runs), PER_RUN to a run: run j
    on content j mod len(contents) (default: each board with its BOARDS pair), planted in the
    first of its sets on the content's first round of runs and in the second on the next; only
    cards the content's truth finds inside the band, no card named in `excluded` (casefolded),
    and no card in a field an earlier case planted on the board (whatever sets it played)."""
    _, by_name = shipped()
    band = Thresholds().card_band
    cases: list[dict[str, Any]] = list(before)
    count += len(cases)
    for j in range(len(cases) // PER_RUN, -(-count // PER_RUN)):
        board, sets = contents[j % len(contents)]
        home = by_name[sets[(j // len(contents)) % len(sets)]]
        cards = truth((board, sets))
        fine = {c.name.casefold() for c in home.cards if in_band(cards.get(c.name), band)}
        skip = excluded | {c.name.casefold() for c in home.cards} - fine
        planted = frozenset(
            (c["plant"]["card"], c["plant"]["field"]) for c in cases if c["board"] == board
        )
        plants = run_plants(j, count, seed, home, skip, kinds, scratch / str(j), planted)
        victory = load_setup(sets, board).board.victory.kind.value
        for plant in plants:
            cases.append(
                {
                    "id": f"c{len(cases) + 1:02d}",
                    "run": f"r{j + 1:02d}",
                    "board": board,
                    "victory": victory,
                    "sets": list(sets),
                    "plant": {
                        **asdict(plant),
                        "size": plant.size.value,
                        "direction": plant.direction.value,
                    },
                    "original_effect": cards[plant.card]["effect"],
                }
            )
    return cases


def plant_of(case: dict[str, Any]) -> pl.Plant:
    p = dict(case["plant"])
    return pl.Plant(**{**p, "size": pl.Size(p["size"]), "direction": pl.Direction(p["direction"])})


def runs_of(cases: Sequence[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The cases by run, in order."""
    runs: dict[str, list[dict[str, Any]]] = {}
    for case in cases:
        runs.setdefault(case["run"], []).append(case)
    return runs


def original_files(out: Path, sets: Sequence[str]) -> list[Path]:
    """The sets as checked CSV copies (the unplanted twins of the planted copies)."""
    catalog, by_name = shipped()
    paths = []
    for name in sets:
        target = out / "content" / "original" / f"{name}.csv"
        if not target.is_file():
            pl.write_original(source_of(by_name[name]), by_name[name], target, catalog)
        paths.append(target)
    return paths


def planted_files(out: Path, run: Sequence[dict[str, Any]]) -> list[Path]:
    """A run's sets: the planted copy of the set its plants are in, the other as the original
    copy."""
    catalog, by_name = shipped()
    plants = [plant_of(c) for c in run]
    (home,) = {p.set for p in plants}
    first = run[0]
    paths = []
    for name, original in zip(first["sets"], original_files(out, first["sets"]), strict=True):
        if name != home:
            paths.append(original)
            continue
        target = out / "content" / first["run"] / f"{name}.csv"
        if not target.is_file():
            pl.write_planted(source_of(by_name[name]), by_name[name], plants, target, catalog)
        paths.append(target)
    return paths
