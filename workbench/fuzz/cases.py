"""Generating fuzz cases (issue 20): random **valid** card sets and boards, as the text of the
spreadsheets a designer would type, loaded by the same loader as `workbench simulate`.

The card language's own tables (`engine/language.py`, the verb registry `engine/verbs`) drive the
choice of verbs, trigger events, keywords, costs and target forms, so a new verb is fuzzed at
once; the boards cover every terrain, field mark and victory kind, 2-4 players, teams and the
Tyrant.
"""

from __future__ import annotations

import csv
import random
import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import cast

from engine.board import TieBreak, VictoryKind
from engine.cards import (
    CardType,
    Cost,
    Effect,
    FreeAction,
    Keywords,
    Modifiers,
    Protection,
    Side,
    Target,
    TargetKind,
)
from engine.language import TRIGGER_EVENTS
from engine.state import GameConfig
from engine.verbs import VERBS
from engine.wording import (
    render_effects,
    render_free_actions,
    render_keywords,
    render_modifiers,
)
from workbench.config import load_setup

CARD_COLUMNS = (
    "name",
    "type",
    "copies",
    "buy",
    "play",
    "upkeep",
    "life",
    "move",
    "attack",
    "range",
    "durability",
    "keywords",
    "effect",
    "trigger",
    "free action",
    "full action",
    "modifiers",
)
"""The card-set columns a case writes (docs/card-language.md)."""
BEHAVIOUR_COLUMNS = ("keywords", "effect", "trigger", "free action", "full action", "modifiers")
PLACEMENT_COLUMNS = ("card", "owner", "x", "y", "vip")
EVENT_WORDS = {
    "enters": "when this enters",
    "dies": "when this dies",
    "upkeep": "at upkeep",
    "attacks": "when this attacks",
    "kills": "when this kills",
}
"""How a designer writes each trigger event (R6.1); the tests check it covers TRIGGER_EVENTS."""
COST_KINDS = ("pay", "discard", "sacrifice", "use")
EXTREME = 0.04
"""How often a number is drawn far beyond the usual (a damage of 60, a map 24 wide)."""
GENERATED_NAME = re.compile(r"Fz \S+ [A-Z][a-z]+ \d+")
"""A generated card's name (`new_name`), left out of signatures."""
_NOUNS = (
    "Ash",
    "Bramble",
    "Cinder",
    "Dusk",
    "Ember",
    "Fen",
    "Gale",
    "Husk",
    "Ire",
    "Jade",
    "Kelp",
    "Lumen",
    "Mire",
    "Nettle",
    "Onyx",
    "Pyre",
    "Quill",
    "Rime",
    "Sable",
    "Thorn",
    "Umber",
    "Vale",
    "Wisp",
    "Yew",
    "Zephyr",
    "Öde",
    "Élan",
)


@dataclass
class Case:
    """The text of one card set and one board, cell by cell, as a designer would type them."""

    cards: list[dict[str, str]]
    map: list[list[str]]
    scenario: dict[str, str]
    placements: list[dict[str, str]] = field(default_factory=list)

    def write(self, folder: Path) -> tuple[Path, Path]:
        """`cards.csv` and the board `board.map.csv`, `board.scenario.csv`,
        `board.placements.csv` in `folder`; returns (card set, board) as simulate takes them."""
        folder.mkdir(parents=True, exist_ok=True)
        _write_csv(
            folder / "cards.csv",
            [list(CARD_COLUMNS)] + [[row.get(c, "") for c in CARD_COLUMNS] for row in self.cards],
        )
        _write_csv(folder / "board.map.csv", self.map)
        _write_csv(
            folder / "board.scenario.csv",
            [["key", "value"]] + [[k, v] for k, v in self.scenario.items()],
        )
        _write_csv(
            folder / "board.placements.csv",
            [list(PLACEMENT_COLUMNS)]
            + [[row.get(c, "") for c in PLACEMENT_COLUMNS] for row in self.placements],
        )
        return folder / "cards.csv", folder / "board"

    def to_json(self) -> dict[str, object]:
        return {
            "cards": self.cards,
            "map": self.map,
            "scenario": self.scenario,
            "placements": self.placements,
        }

    @staticmethod
    def from_json(data: dict[str, object]) -> Case:
        return Case(
            cast("list[dict[str, str]]", data["cards"]),
            cast("list[list[str]]", data["map"]),
            cast("dict[str, str]", data["scenario"]),
            cast("list[dict[str, str]]", data["placements"]),
        )


def _write_csv(path: Path, rows: Sequence[Sequence[str]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)


def load_case(case: Case) -> GameConfig:
    """The case through the loader `workbench simulate` uses (raises ValidationError)."""
    with tempfile.TemporaryDirectory(prefix="fuzz-") as tmp:
        cards, board = case.write(Path(tmp))
        return load_setup([str(cards)], str(board)).config


# --- generating a case -------------------------------------------------------------------------


class _Generator:
    """Draws one case; every choice comes from `rng`, so a seed names a case."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.cards: list[dict[str, str]] = []
        self.names: list[str] = []
        self.tokens: list[str] = []

    def n(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def number(self, low: int, high: int) -> int:
        """Mostly `low`..`high`; now and then far beyond (up to 99), as a designer might type."""
        return self.n(high + 1, 99) if self.chance(EXTREME) else self.n(low, high)

    def new_name(self, kind: str) -> str:
        name = f"Fz {self.rng.choice(_NOUNS)} {kind} {len(self.names) + 1}"
        self.names.append(name)
        return name

    # the card language, drawn as specs and written with engine.wording
    def target(self, kinds: frozenset[TargetKind], verb: str) -> Target:
        kind = self.rng.choice(sorted(kinds, key=lambda k: k.value))
        if kind is TargetKind.SELF:
            return Target(TargetKind.SELF)
        each = self.chance(0.3)
        if kind is TargetKind.OPPONENT:
            return Target(kind, each=each)
        side = Side.FRIENDLY if VERBS[verb].own else self.rng.choice(list(Side))
        reach = self.number(0, 5) if self.chance(0.6) else None
        return Target(kind, side, each, reach)

    def effect(self) -> Effect:
        verb = self.rng.choice(sorted(VERBS))
        spec = VERBS[verb]
        amount = self.number(0, 3) if spec.amount else 1
        if spec.card:
            if not self.tokens:
                return Effect("draw", amount)
            return Effect(verb, amount, Target(), self.rng.choice(self.tokens))
        if not spec.takes_target or (spec.default is not None and self.chance(0.3)):
            return Effect(verb, amount, Target(spec.default or TargetKind.NONE))
        return Effect(verb, amount, self.target(spec.targets, verb))

    def effects(self, most: int = 2) -> tuple[Effect, ...]:
        """One to `most` effects; mostly sharing one chosen target (a card names one, R6.4),
        sometimes not (the engine then uses the first for all)."""
        out: list[Effect] = []
        for _ in range(self.n(1, most)):
            e = self.effect()
            first = next((o.target for o in out if o.target.is_chosen), None)
            if e.target.is_chosen and first is not None and self.chance(0.8):
                if first.kind not in VERBS[e.verb].targets or (
                    VERBS[e.verb].own and first.side is Side.ENEMY
                ):
                    continue
                e = replace(e, target=first)
            out.append(e)
        return tuple(out) or (Effect("draw", 1),)

    def cost(self, potion: bool) -> Cost:
        kind = self.rng.choice(COST_KINDS if potion else COST_KINDS[:3])
        if kind == "pay":
            return Cost(resource=self.n(0, 3))
        if kind == "discard":
            return Cost(resource=self.n(0, 1), discard=self.n(1, 2))
        return Cost(resource=self.n(0, 1), sacrifice=True)

    def free_actions(self, potion: bool = False) -> str:
        return render_free_actions(
            [FreeAction(self.cost(potion), self.effects()) for _ in range(self.n(1, 2))]
        )

    def protection(self) -> Protection:
        roll = self.rng.random()
        if roll < 0.3 and self.names:
            return Protection(card=self.rng.choice(self.names))
        ctype = self.rng.choice([None, *(t for t in CardType if t is not CardType.INTENTION)])
        if roll < 0.6:
            return Protection(type=ctype)
        stat = self.rng.choice(["buy", "play", "upkeep", "life", "move", "attack", "range"])
        return Protection(
            type=ctype,
            stat=stat,
            op=self.rng.choice(["<", "<=", ">", ">=", "="]),
            value=self.n(0, 6),
        )

    def keywords(self, kind: str, swimming: bool) -> Keywords:
        k = Keywords(swimming=swimming)
        if self.chance(0.25):
            k = replace(k, armor=self.n(1, 2))
        if kind == "unit" and self.chance(0.15):
            k = replace(k, crew=self.n(1, 2))
        if self.chance(0.1):
            k = replace(k, veiled=True)
        if self.chance(0.2):
            k = replace(k, protections=tuple(self.protection() for _ in range(self.n(1, 2))))
        if kind == "artifact" and self.chance(0.4):
            k = replace(k, solid=self.n(1, 6))
        if kind == "unit" and self.chance(0.1):
            k = replace(
                k,
                moves_on=frozenset(
                    self.rng.sample(["plain", "high ground", "deep water"], self.n(1, 2))
                ),
            )
        return k

    def modifiers(self) -> str:
        stats = {
            s: (self.n(-1, 2) if self.chance(0.4) else 0)
            for s in ("attack", "range", "life", "move", "armor")
        }
        kws = None
        if self.chance(0.3):
            kws = Keywords(
                veiled=self.chance(0.5),
                swimming=self.chance(0.2),
                crew=self.n(0, 1),
                protections=(self.protection(),) if self.chance(0.3) else (),
            )
        return render_modifiers(Modifiers(keywords=kws, **stats)) or "+1 attack"

    def triggers(self) -> str:
        events = self.rng.sample(sorted(TRIGGER_EVENTS), self.n(1, 2))
        return "; ".join(f"{EVENT_WORDS[e]}: {render_effects(self.effects())}" for e in events)

    def card(
        self,
        kind: str,
        *,
        buy: bool = True,
        swimming: bool = False,
        extra_keywords: str = "",
        plain: bool = False,
    ) -> dict[str, str]:
        """One card row of type `kind`: small numbers, behaviour drawn from the language
        (`plain`: none, as for tokens)."""
        row = {"name": self.new_name(kind.capitalize()), "type": kind, "copies": str(self.n(1, 4))}
        if buy:
            row["buy"] = str(self.n(0, 8))
        if self.chance(0.95):
            row["play"] = str(self.n(0, 5))
        if kind == "unit":
            row |= {
                "life": str(self.number(1, 7)),
                "move": str(self.number(0, 4)),
                "attack": str(self.number(0, 4)),
                "range": str(self.number(1, 4)),
            }
            if self.chance(0.7):
                row["upkeep"] = str(self.n(0, 2))
        if kind == "equipment":
            row["durability"] = str(self.n(1, 3))
            row["modifiers"] = self.modifiers()
        if kind == "potion":
            row["free action"] = self.free_actions(potion=True)
            if self.chance(0.5):
                row["modifiers"] = self.modifiers()
        row["keywords"] = "; ".join(
            k for k in (render_keywords(self.keywords(kind, swimming)), extra_keywords) if k
        )
        if plain:
            row["effect"] = "gain 1" if kind == "spell" else ""
            self.cards.append(row)
            return row
        if kind == "spell" or self.chance(0.3):
            row["effect"] = render_effects(self.effects())
        if kind != "spell" and self.chance(0.35):
            row["trigger"] = self.triggers()
        if kind in ("unit", "artifact", "equipment") and self.chance(0.25):
            row["free action"] = self.free_actions()
        if kind == "unit" and self.chance(0.3):
            row["full action"] = "; ".join(
                render_effects(self.effects()) for _ in range(self.n(1, 2))
            )
        self.cards.append(row)
        return row


@dataclass
class _Layout:
    """The map being drawn: terrain codes and marks per field, and the fields still free."""

    width: int
    height: int
    terrain: list[str]
    marks: list[str]
    free: list[int]

    def code(self, f: int) -> str:
        return self.terrain[f] + self.marks[f]

    def land(self, f: int) -> bool:
        return self.terrain[f] in ".^"

    def spot(self, land: bool) -> int:
        """A free field of the kind asked for (land or deep water), taken; -1 if none (deploy
        fields are the last resort)."""
        for f in self.free:
            if self.land(f) == land:
                self.take(f)
                return f
        return -1

    def take(self, f: int) -> None:
        if f in self.free:
            self.free.remove(f)


def _layout(g: _Generator, players: int) -> tuple[_Layout, list[list[int]]]:
    """Terrain, deploy zones in the corners (each with a land field, R21.8), income fields."""
    big = 24 if g.chance(EXTREME) else 11
    w, h = g.n(players + 2, big), g.n(players + 2, big)
    codes = [(".", 60), ("^", 15), ("~", 15), ("#", 10)]
    terrain = [g.rng.choices([c for c, _ in codes], [p for _, p in codes])[0] for _ in range(w * h)]
    marks = [""] * (w * h)
    corners = [(0, 0), (w - 1, h - 1), (w - 1, 0), (0, h - 1)]
    zones: list[list[int]] = []
    for seat in range(players):
        cx, cy = corners[seat]
        near = sorted(range(w * h), key=lambda f: (abs(f % w - cx) + abs(f // w - cy), f))
        zone = [f for f in near[:8] if not marks[f]][: g.n(2, 4)]
        for i, f in enumerate(zone):
            terrain[f] = "~" if i and g.chance(0.2) else g.rng.choice(".^")
            marks[f] = str(seat + 1)
        zones.append(zone)
    for f in g.rng.sample(range(w * h), g.n(0, 3)):
        if terrain[f] != "#":
            marks[f] += "$" * g.n(1, 2)
    free = [f for f in range(w * h) if terrain[f] != "#" and not marks[f][:1].isdigit()]
    deploy = [f for zone in zones for f in zone]
    g.rng.shuffle(free)
    g.rng.shuffle(deploy)
    return _Layout(w, h, terrain, marks, free + deploy), zones


@dataclass
class _Board:
    """The board being generated: its layout, deploy zones, scenario cells and placements."""

    layout: _Layout
    zones: list[list[int]]
    scenario: dict[str, str]
    placements: list[dict[str, str]] = field(default_factory=list)

    def place(self, card: str, owner: str, f: int, vip: bool = False) -> None:
        self.placements.append(
            {
                "card": card,
                "owner": owner,
                "x": str(f % self.layout.width),
                "y": str(f // self.layout.width),
                "vip": "yes" if vip else "",
            }
        )


def generate_case(seed: int) -> Case:
    """A random valid card set and board: any victory kind, 2-4 players, teams, the Tyrant."""
    g = _Generator(random.Random(seed))
    players = g.n(2, 4)
    victory = g.rng.choice(list(VictoryKind))
    layout, zones = _layout(g, players)
    board = _Board(
        layout, zones, {"name": f"fuzz {seed}", "players": str(players), "victory": victory.value}
    )
    _deal_cards(g, board, players)
    _VICTORY[victory](g, board, players)
    _start_permanents(g, board, players, victory)
    _field_actions(g, board)
    _teams_and_economy(g, board, players)
    rows = [
        [layout.code(y * layout.width + x) for x in range(layout.width)]
        for y in range(layout.height)
    ]
    return Case(g.cards, rows, board.scenario, board.placements)


def _deal_cards(g: _Generator, board: _Board, players: int) -> None:
    """Tokens, the start cards and the draftable cards, enough for a pack of 10 a seat."""
    g.tokens = [
        g.card(g.rng.choice(["unit", "artifact", "spell"]), buy=False, plain=True)["name"]
        for _ in range(g.n(1, 2))
    ]
    starters = [g.card(kind, buy=g.chance(0.3)) for kind in ("unit", "spell")]
    board.scenario["start cards"] = ", ".join(f"{r['name']} x {g.n(2, 5)}" for r in starters)
    kinds = ["unit"] * 9 + ["spell"] * 5 + ["artifact"] * 2 + ["equipment"] * 3 + ["potion"] * 2
    drafted = [g.card(g.rng.choice(kinds), swimming=g.chance(0.08)) for _ in range(g.n(8, 18))]
    pool = sum(int(r["copies"]) for r in drafted)
    while pool < players * 10:  # R3.2: every seat is dealt a pack of 10
        row = g.rng.choice(drafted)
        row["copies"] = str(int(row["copies"]) + 1)
        pool += 1


def _vip(g: _Generator, board: _Board, players: int) -> None:
    """R19.1: a VIP for every seat."""
    vip = g.card("unit", buy=False)
    vip.pop("play", None)
    board.scenario["victory card"] = vip["name"]
    for seat, zone in enumerate(board.zones):
        f = next(f for f in zone if board.layout.land(f))
        board.layout.take(f)
        board.place(vip["name"], str(seat + 1), f, True)


def _resource(g: _Generator, board: _Board, players: int) -> None:
    board.scenario["victory target"] = str(g.n(5, 40))


def _capture(g: _Generator, board: _Board, players: int) -> None:
    """R19.3: areas to hold."""
    layout = board.layout
    for area in "ABC"[: g.n(1, 3)]:
        for f in g.rng.sample(range(layout.width * layout.height), g.n(1, 4)):
            if layout.terrain[f] != "#" and not any(c.isupper() for c in layout.marks[f]):
                layout.marks[f] += area
    if not any(c.isupper() for m in layout.marks for c in m):
        layout.marks[board.zones[0][0]] += "A"
    board.scenario["victory target"] = str(g.n(3, 15))


def _buildings(g: _Generator, board: _Board, players: int) -> None:
    """R19.4: a building for every seat."""
    building = g.card("artifact", buy=False, extra_keywords="building")
    if "solid" not in building["keywords"]:
        building["keywords"] += f"; solid {g.n(1, 6)}"
    for seat in range(players):
        board.place(building["name"], str(seat + 1), board.layout.spot(True))


def _staff(g: _Generator, board: _Board, players: int) -> None:
    """R21.12: the staff on the board."""
    staff = g.card("equipment", buy=False, extra_keywords="staff")
    board.scenario["victory card"] = staff["name"]
    board.place(staff["name"], "neutral", board.layout.spot(True))


def _tyrant(g: _Generator, board: _Board, players: int) -> None:
    """R21.15: the Tyrant and its intentions."""
    tyrant = g.card("unit", buy=False, extra_keywords="tyrant")
    tyrant.pop("play", None)
    tyrant["life"] = str(g.n(5, 25))
    board.scenario["victory card"] = tyrant["name"]
    board.place(tyrant["name"], "tyrant", board.layout.spot(True))
    intentions = []
    for _ in range(g.n(1, 3)):
        row = {
            "name": g.new_name("Intention"),
            "type": "intention",
            "play": "0",
            "effect": render_effects(g.effects()),
        }
        g.cards.append(row)
        intentions.append(row["name"])
    board.scenario["tyrant deck"] = ", ".join(f"{n} x {g.n(1, 3)}" for n in intentions)
    board.scenario["tyrant goal"] = str(g.n(1, 5))
    board.scenario["shared win"] = g.rng.choice(["yes", "no"])


_VICTORY = {
    VictoryKind.VIP: _vip,
    VictoryKind.RESOURCE: _resource,
    VictoryKind.CAPTURE: _capture,
    VictoryKind.BUILDINGS: _buildings,
    VictoryKind.STAFF: _staff,
    VictoryKind.TYRANT: _tyrant,
}
"""What each victory kind adds to the board (its cards, areas and scenario cells)."""


def _start_permanents(g: _Generator, board: _Board, players: int, victory: VictoryKind) -> None:
    """More permanents on the board at the start (R2.4), of any owner."""
    owners = ["neutral", *(str(s + 1) for s in range(players))]
    owners += ["tyrant"] if victory is VictoryKind.TYRANT else []
    permanents = [
        r
        for r in g.cards
        if r["type"] in ("unit", "artifact", "equipment", "potion")
        and "tyrant" not in r["keywords"].split("; ")
    ]  # one Tyrant, its own
    for _ in range(g.n(0, 3)):
        row = g.rng.choice(permanents)
        f = board.layout.spot("swimming" not in row["keywords"].split("; "))
        if f >= 0:
            board.place(row["name"], g.rng.choice(owners), f)


def _field_actions(g: _Generator, board: _Board) -> None:
    """Fields that grant free actions (R9.3)."""
    layout = board.layout
    for letter in "abc"[: g.n(0, 2)]:
        f = g.rng.randrange(layout.width * layout.height)
        if layout.terrain[f] != "#" and not any(c.islower() for c in layout.marks[f]):
            layout.marks[f] += letter
            board.scenario[f"field action {letter}"] = g.free_actions()


def _teams_and_economy(g: _Generator, board: _Board, players: int) -> None:
    """Teams now and then, and the scenario's optional numbers."""
    if players == 4 and g.chance(0.5):
        board.scenario["teams"] = g.rng.choice(["1,3;2,4", "1,2;3,4"])
    elif players == 3 and g.chance(0.3):
        board.scenario["teams"] = "1,2;3"
    for key, value in (
        ("income", str(g.n(0, 4))),
        ("unit income", str(g.n(-1, 1))),
        ("starting hand", str(g.number(0, 3))),
        ("round limit", str(g.n(3, 30))),
        ("tie break", g.rng.choice([t.value for t in TieBreak])),
    ):
        if g.chance(0.6):
            board.scenario[key] = value
