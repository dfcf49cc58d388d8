"""Fuzzing with content a designer could type (issue 20): random valid card sets and boards,
played by random and heuristic agents with the engine's invariants checked at every decision; a
failing case is shrunk to a small spreadsheet pair (card set + board, CSV) a developer opens.

A case is the text of the spreadsheets, not engine objects: it goes through the same loader as
`workbench simulate`, so what the fuzzer finds is what a designer would meet. The generator
covers every verb, trigger, keyword, cost, target form, terrain, field mark and victory kind the
loader knows (the card language's own tables drive it, so a new verb is fuzzed at once), 2-4
players, teams and the Tyrant. `workbench fuzz` (workbench/cmd_fuzz.py) runs many games in
parallel; the test suite plays a small sample on every run (tests/test_fuzz.py).
"""

from __future__ import annotations

import csv
import hashlib
import json
import random
import re
import signal
import tempfile
import time
import traceback
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import FrameType

from engine.actions import parse_action
from engine.agents.registry import make_agent
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
from engine.game import Game
from engine.invariants import violations
from engine.language import TRIGGER_EVENTS, VERB_SPECS
from engine.play import derive_seed
from engine.state import GameConfig
from engine.wording import (
    render_effects,
    render_free_actions,
    render_keywords,
    render_modifiers,
)
from workbench.check.core import Events, GameInfo, Violation
from workbench.check.run import walk
from workbench.config import load_setup
from workbench.store import PlayedGame, batch_tables

CARD_COLUMNS = ("name", "type", "copies", "buy", "play", "upkeep", "life", "move", "attack",
                "range", "durability", "keywords", "effect", "trigger", "free action",
                "full action", "modifiers")
"""The card-set columns a case writes (docs/card-language.md)."""
BEHAVIOUR_COLUMNS = ("keywords", "effect", "trigger", "free action", "full action", "modifiers")
PLACEMENT_COLUMNS = ("card", "owner", "x", "y", "vip")
EVENT_WORDS = {"enters": "when this enters", "dies": "when this dies", "upkeep": "at upkeep",
               "attacks": "when this attacks", "kills": "when this kills"}
"""How a designer writes each trigger event (R6.1); the tests check it covers TRIGGER_EVENTS."""
COST_KINDS = ("pay", "discard", "sacrifice", "use")
AGENT_MIXES = ("random", "heuristic", "mixed")
"""Who plays a fuzzed game: random agents, heuristic agents, or the two alternating by seat."""
EXTREME = 0.04
"""How often a number is drawn far beyond the usual (a damage of 60, a map 24 wide)."""
GAME_SECONDS = 60.0
"""A game still running after this long (CPU and guards notwithstanding) is a hang."""
_NAME = re.compile(r"Fz \S+ [A-Z][a-z]+ \d+")
"""A generated card's name (`new_name`), left out of signatures."""
_NOUNS = ("Ash", "Bramble", "Cinder", "Dusk", "Ember", "Fen", "Gale", "Husk", "Ire", "Jade",
          "Kelp", "Lumen", "Mire", "Nettle", "Onyx", "Pyre", "Quill", "Rime", "Sable", "Thorn",
          "Umber", "Vale", "Wisp", "Yew", "Zephyr", "Öde", "Élan")


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
        _write_csv(folder / "cards.csv", [list(CARD_COLUMNS)] + [
            [row.get(c, "") for c in CARD_COLUMNS] for row in self.cards])
        _write_csv(folder / "board.map.csv", self.map)
        _write_csv(folder / "board.scenario.csv",
                   [["key", "value"]] + [[k, v] for k, v in self.scenario.items()])
        _write_csv(folder / "board.placements.csv", [list(PLACEMENT_COLUMNS)] + [
            [row.get(c, "") for c in PLACEMENT_COLUMNS] for row in self.placements])
        return folder / "cards.csv", folder / "board"

    def to_json(self) -> dict[str, object]:
        return {"cards": self.cards, "map": self.map, "scenario": self.scenario,
                "placements": self.placements}

    @staticmethod
    def from_json(data: dict[str, object]) -> Case:
        return Case(data["cards"], data["map"], data["scenario"],  # type: ignore[arg-type]
                    data["placements"])  # type: ignore[arg-type]


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
        side = Side.FRIENDLY if verb == "sacrifice" else self.rng.choice(list(Side))
        reach = self.number(0, 5) if self.chance(0.6) else None
        return Target(kind, side, each, reach)

    def effect(self) -> Effect:
        verb = self.rng.choice(sorted(VERB_SPECS))
        spec = VERB_SPECS[verb]
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
                if first.kind not in VERB_SPECS[e.verb].targets or (
                        e.verb == "sacrifice" and first.side is Side.ENEMY):
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
        return render_free_actions([FreeAction(self.cost(potion), self.effects())
                                    for _ in range(self.n(1, 2))])

    def protection(self) -> Protection:
        roll = self.rng.random()
        if roll < 0.3 and self.names:
            return Protection(card=self.rng.choice(self.names))
        ctype = self.rng.choice([None, *(t for t in CardType if t is not CardType.INTENTION)])
        if roll < 0.6:
            return Protection(type=ctype)
        stat = self.rng.choice(["buy", "play", "upkeep", "life", "move", "attack", "range"])
        return Protection(type=ctype, stat=stat, op=self.rng.choice(["<", "<=", ">", ">=", "="]),
                          value=self.n(0, 6))

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
            k = replace(k, moves_on=frozenset(self.rng.sample(
                ["plain", "high ground", "deep water"], self.n(1, 2))))
        return k

    def modifiers(self) -> str:
        stats = {s: (self.n(-1, 2) if self.chance(0.4) else 0)
                 for s in ("attack", "range", "life", "move", "armor")}
        kws = None
        if self.chance(0.3):
            kws = Keywords(veiled=self.chance(0.5), swimming=self.chance(0.2),
                           crew=self.n(0, 1),
                           protections=(self.protection(),) if self.chance(0.3) else ())
        return render_modifiers(Modifiers(keywords=kws, **stats)) or "+1 attack"

    def triggers(self) -> str:
        events = self.rng.sample(sorted(TRIGGER_EVENTS), self.n(1, 2))
        return "; ".join(f"{EVENT_WORDS[e]}: {render_effects(self.effects())}" for e in events)

    def card(self, kind: str, *, buy: bool = True, swimming: bool = False,
             extra_keywords: str = "", plain: bool = False) -> dict[str, str]:
        """One card row of type `kind`: small numbers, behaviour drawn from the language
        (`plain`: none, as for tokens)."""
        row = {"name": self.new_name(kind.capitalize()), "type": kind,
               "copies": str(self.n(1, 4))}
        if buy:
            row["buy"] = str(self.n(0, 8))
        if self.chance(0.95):
            row["play"] = str(self.n(0, 5))
        if kind == "unit":
            row |= {"life": str(self.number(1, 7)), "move": str(self.number(0, 4)),
                    "attack": str(self.number(0, 4)), "range": str(self.number(1, 4))}
            if self.chance(0.7):
                row["upkeep"] = str(self.n(0, 2))
        if kind == "equipment":
            row["durability"] = str(self.n(1, 3))
            row["modifiers"] = self.modifiers()
        if kind == "potion":
            row["free action"] = self.free_actions(potion=True)
            if self.chance(0.5):
                row["modifiers"] = self.modifiers()
        row["keywords"] = "; ".join(k for k in (render_keywords(self.keywords(kind, swimming)),
                                                extra_keywords) if k)
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
            row["full action"] = "; ".join(render_effects(self.effects())
                                           for _ in range(self.n(1, 2)))
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
    terrain = [g.rng.choices([c for c, _ in codes], [p for _, p in codes])[0]
               for _ in range(w * h)]
    marks = [""] * (w * h)
    corners = [(0, 0), (w - 1, h - 1), (w - 1, 0), (0, h - 1)]
    zones: list[list[int]] = []
    for seat in range(players):
        cx, cy = corners[seat]
        near = sorted(range(w * h), key=lambda f: (abs(f % w - cx) + abs(f // w - cy), f))
        zone = [f for f in near[:8] if not marks[f]][:g.n(2, 4)]
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


def generate_case(seed: int) -> Case:
    """A random valid card set and board: any victory kind, 2-4 players, teams, the Tyrant."""
    g = _Generator(random.Random(seed))
    players = g.n(2, 4)
    victory = g.rng.choice(list(VictoryKind))
    layout, zones = _layout(g, players)
    scenario: dict[str, str] = {"name": f"fuzz {seed}", "players": str(players),
                                "victory": victory.value}
    placements: list[dict[str, str]] = []

    def place(card: str, owner: str, f: int, vip: bool = False) -> None:
        placements.append({"card": card, "owner": owner, "x": str(f % layout.width),
                           "y": str(f // layout.width), "vip": "yes" if vip else ""})

    g.tokens = [g.card(g.rng.choice(["unit", "artifact", "spell"]), buy=False, plain=True)
                ["name"] for _ in range(g.n(1, 2))]
    starters = [g.card(kind, buy=g.chance(0.3)) for kind in ("unit", "spell")]
    scenario["start cards"] = ", ".join(f"{r['name']} x {g.n(2, 5)}" for r in starters)
    kinds = ["unit"] * 9 + ["spell"] * 5 + ["artifact"] * 2 + ["equipment"] * 3 + ["potion"] * 2
    drafted = [g.card(g.rng.choice(kinds), swimming=g.chance(0.08)) for _ in range(g.n(8, 18))]
    pool = sum(int(r["copies"]) for r in drafted)
    while pool < players * 10:      # R3.2: every seat is dealt a pack of 10
        row = g.rng.choice(drafted)
        row["copies"] = str(int(row["copies"]) + 1)
        pool += 1
    if victory is VictoryKind.VIP:          # R19.1: a VIP for every seat
        vip = g.card("unit", buy=False)
        vip.pop("play", None)
        scenario["victory card"] = vip["name"]
        for seat, zone in enumerate(zones):
            f = next(f for f in zone if layout.land(f))
            layout.take(f)
            place(vip["name"], str(seat + 1), f, True)
    elif victory is VictoryKind.RESOURCE:
        scenario["victory target"] = str(g.n(5, 40))
    elif victory is VictoryKind.CAPTURE:    # R19.3: areas to hold
        for area in "ABC"[:g.n(1, 3)]:
            for f in g.rng.sample(range(layout.width * layout.height), g.n(1, 4)):
                if layout.terrain[f] != "#" and not any(c.isupper() for c in layout.marks[f]):
                    layout.marks[f] += area
        if not any(c.isupper() for m in layout.marks for c in m):
            layout.marks[zones[0][0]] += "A"
        scenario["victory target"] = str(g.n(3, 15))
    elif victory is VictoryKind.BUILDINGS:  # R19.4: a building for every seat
        building = g.card("artifact", buy=False, extra_keywords="building")
        if "solid" not in building["keywords"]:
            building["keywords"] += f"; solid {g.n(1, 6)}"
        for seat in range(players):
            place(building["name"], str(seat + 1), layout.spot(True))
    elif victory is VictoryKind.STAFF:      # R21.12: the staff on the board
        staff = g.card("equipment", buy=False, extra_keywords="staff")
        scenario["victory card"] = staff["name"]
        place(staff["name"], "neutral", layout.spot(True))
    else:                                   # R21.15: the Tyrant and its intentions
        tyrant = g.card("unit", buy=False, extra_keywords="tyrant")
        tyrant.pop("play", None)
        tyrant["life"] = str(g.n(5, 25))
        scenario["victory card"] = tyrant["name"]
        place(tyrant["name"], "tyrant", layout.spot(True))
        intentions = []
        for _ in range(g.n(1, 3)):
            row = {"name": g.new_name("Intention"), "type": "intention", "play": "0",
                   "effect": render_effects(g.effects())}
            g.cards.append(row)
            intentions.append(row["name"])
        scenario["tyrant deck"] = ", ".join(f"{n} x {g.n(1, 3)}" for n in intentions)
        scenario["tyrant goal"] = str(g.n(1, 5))
        scenario["shared win"] = g.rng.choice(["yes", "no"])
    owners = ["neutral", *(str(s + 1) for s in range(players))]
    owners += ["tyrant"] if victory is VictoryKind.TYRANT else []
    permanents = [r for r in g.cards if r["type"] in ("unit", "artifact", "equipment", "potion")
                  and "tyrant" not in r["keywords"].split("; ")]   # one Tyrant, its own
    for _ in range(g.n(0, 3)):      # more permanents on the board at the start (R2.4)
        row = g.rng.choice(permanents)
        f = layout.spot("swimming" not in row["keywords"].split("; "))
        if f >= 0:
            place(row["name"], g.rng.choice(owners), f)
    for letter in "abc"[:g.n(0, 2)]:  # fields that grant free actions (R9.3)
        f = g.rng.randrange(layout.width * layout.height)
        if layout.terrain[f] != "#" and not any(c.islower() for c in layout.marks[f]):
            layout.marks[f] += letter
            scenario[f"field action {letter}"] = g.free_actions()
    if players == 4 and g.chance(0.5):
        scenario["teams"] = g.rng.choice(["1,3;2,4", "1,2;3,4"])
    elif players == 3 and g.chance(0.3):
        scenario["teams"] = "1,2;3"
    for key, value in (("income", str(g.n(0, 4))), ("unit income", str(g.n(-1, 1))),
                       ("starting hand", str(g.number(0, 3))), ("round limit", str(g.n(3, 30))),
                       ("tie break", g.rng.choice([t.value for t in TieBreak]))):
        if g.chance(0.6):
            scenario[key] = value
    rows = [[layout.code(y * layout.width + x) for x in range(layout.width)]
            for y in range(layout.height)]
    return Case(g.cards, rows, scenario, placements)


# --- playing a case with checks -------------------------------------------------------------

def check_decision(game: Game) -> list[str]:
    """What is checked at each decision of a fuzzed game: the engine's invariants
    (engine/invariants.py), and that a live game offers a real choice (the engine takes forced
    ones itself). One line per finding, led by the rule id or the check's name."""
    found = violations(game.state)
    if len(game.legal_actions()) < 2:
        found.append(f"API: a decision with fewer than 2 legal actions: {game.legal_actions()}")
    return found


def referee(game: Game) -> list[Violation]:
    """The referee of `workbench check` (docs/check.md: a second, independent reading of the
    rules) over the game's events, as it walks a stored game."""
    s = game.state
    config = s.config
    columns: dict[str, list[object]] = dict(s.events.columns())  # type: ignore[arg-type]
    columns["game_id"] = [0] * len(s.events)
    packs = sum(c.copies for c in config.pool if c.buy is not None) // config.pack_size
    info = GameInfo(0, config.board, dict(config.catalog), config.players,
                    tuple(s.winners or ()), s.guard_stopped, packs)
    return walk(Events(columns), info, 0, len(s.events))


def check_game(game: Game, agents: Sequence[str], replay: bool = True) -> list[str]:
    """What is checked once a game is over: the invariants, the referee, the text picture, the
    game stored as `workbench simulate` stores it, and its recorded actions replayed from the
    seed to the same end. Checks of a whole game plug in here."""
    found = violations(game.state)
    str(game)
    record = game.record()
    batch_tables(1, [PlayedGame(0, game.state.config.board.name, 0, tuple(agents),
                                tuple(agents), record)])
    found += [f"{v.rule} (referee): {v.message}" for v in referee(game)]
    if replay:
        again = Game(game.state.config, game.state.seed)
        for text in record.actions:
            again.apply(parse_action(text, 0))
        if (again.state.winners, len(again.state.events)) != (game.state.winners,
                                                              len(game.state.events)):
            found.append(f"replay: the recorded actions give another game (winners "
                         f"{again.state.winners}, not {game.state.winners})")
    return found


@dataclass(frozen=True)
class Outcome:
    """How a fuzzed game went: `kind` ok, crash, violation (of the invariants or the API),
    referee (a departure from the rules the referee sees), hang, or invalid (content the loader
    refuses); `signature` names the failure so the same defect is counted once; `detail` is
    the message or traceback."""

    kind: str
    signature: str = ""
    detail: str = ""
    steps: int = 0
    reason: str = ""
    guard: bool = False
    cpu: float = 0.0

    @property
    def failed(self) -> bool:
        return self.kind != "ok"


class Hang(Exception):
    """A game ran past GAME_SECONDS."""


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Raise Hang in this (main) thread after `seconds` of wall time; a no-op elsewhere."""
    def alarm(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"no end after {seconds:.0f} s")
    try:
        old = signal.signal(signal.SIGALRM, alarm)
    except ValueError:      # not the main thread: no alarm
        yield
        return
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


CLONE_EVERY = 7
"""Every this many decisions the chosen action is also applied to a clone (search relies on
`Game.clone`), and the two states must agree."""


def fingerprint(game: Game) -> tuple[object, ...]:
    """What a game's future depends on, to compare a clone with its original."""
    s = game.state
    perms = tuple((c, p.controller, p.field, p.damage, p.paralysis, p.poison, p.panic, p.rage,
                   p.protection, p.used_move, p.used_attack, p.tapped, tuple(p.stack), p.under,
                   p.durability) for c, p in sorted(s.perms.items()))
    players = tuple((tuple(pl.deck), tuple(pl.hand), tuple(pl.discard), tuple(pl.store),
                     tuple(pl.equip_next), pl.resource, pl.points) for pl in s.players)
    return (s.phase, s.active, s.round, s.turn, s.steps, s.winners, players, perms,
            tuple(s.stack), tuple(s.pending), tuple(s.priority), s.activated, tuple(s.occ),
            tuple(s.out), len(s.cards), s.rng.getstate(), game.legal_actions())


def agents_of(mix: str, players: int) -> tuple[str, ...]:
    if mix == "mixed":
        return tuple("random" if s % 2 else "heuristic" for s in range(players))
    return (mix,) * players


def _signature(exc: BaseException) -> str:
    """`crash:KeyError@engine/flow.py:_move`: the exception type and the innermost frame of the
    project's own code."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if "/engine/" in f.filename or "/workbench/" in f.filename]
    where = ours[-1] if ours else (frames[-1] if frames else None)
    place = f"@{Path(where.filename).parent.name}/{Path(where.filename).name}:{where.name}" \
        if where else ""
    return f"crash:{type(exc).__name__}{place}"


def _violation_signature(kind: str, found: str) -> str:
    """A finding without its ids, numbers and names: `violation:R9.2:field N holds cN ...`."""
    rule, _, rest = found.partition(":")
    rest = re.sub(r"\d+", "N", re.sub(r"\([^)]*\)", "", re.sub(_NAME, "CARD", rest)))
    return f"{kind}:{rule.replace(' (referee)', '')}:{' '.join(rest.split())}"


def play_checked(config: GameConfig, run_seed: int, agents: Sequence[str],
                 seconds: float = GAME_SECONDS, replay: bool = True) -> Outcome:
    """Play game 0 of a simulate run with seed `run_seed` (the same game `workbench simulate
    --seed RUN_SEED --games 1` plays) with `check_decision` at every decision and `check_game`
    at the end; every `CLONE_EVERY`th action is applied to a clone too, which must agree."""
    start = time.process_time()
    seed = derive_seed(run_seed, 0)
    players = [make_agent(a) for a in agents]
    rngs = [random.Random(derive_seed(seed, "seat", s)) for s in range(len(agents))]
    game: Game | None = None

    def outcome(kind: str, found: list[str]) -> Outcome:
        steps = game.state.steps if game is not None else 0
        return Outcome(kind, _violation_signature(kind, found[0]), "\n".join(found), steps,
                       cpu=time.process_time() - start)

    try:
        with _time_limit(seconds):
            game = Game(config, seed)
            while not game.is_terminal():
                found = check_decision(game)
                if found:
                    return outcome("violation", found)
                seat = game.current_player()
                game.observation(seat)
                action = players[seat].act(game, game.legal_actions(), rngs[seat])
                twin = game.clone() if game.state.steps % CLONE_EVERY == 0 else None
                game.apply(action, check=False)
                if twin is not None:
                    twin.apply(action, check=False)
                    if fingerprint(twin) != fingerprint(game):
                        found = [f"clone: a clone plays on differently after {action.text()}"]
                        return outcome("violation", found)
            found = check_game(game, agents, replay)
            if found:   # the referee's findings alone are the referee's (docs/check.md)
                judged = all("(referee):" in f for f in found)
                return outcome("referee" if judged else "violation", found)
    except Hang as exc:
        return replace(outcome("hang", [str(exc)]), signature="hang")
    except Exception as exc:  # noqa: BLE001  # every crash is a finding, kept with its traceback
        return replace(outcome("crash", [traceback.format_exc()]), signature=_signature(exc))
    s = game.state
    return Outcome("ok", steps=s.steps, reason=s.reason, guard=s.guard_stopped,
                   cpu=time.process_time() - start)


# --- shrinking a failing case ----------------------------------------------------------------

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
                options += [pieces[:k] + pieces[k + 1:] for k in range(len(pieces))]
            for kept in options:
                yield _with_cell(case, i, column, _joined(kept, column))
        if row.get("copies", "1") not in ("", "1"):
            yield _with_cell(case, i, "copies", "1")


def _draftable_copies(rows: Sequence[dict[str, str]]) -> int:
    return sum(int(r.get("copies") or 1) for r in rows if r.get("buy"))


def _topped_up(rows: list[dict[str, str]], before: Sequence[dict[str, str]]
               ) -> list[dict[str, str]]:
    """The first draftable card kept takes the copies of the draftable cards dropped, so the
    pool still deals every seat its packs (R3.2)."""
    missing = _draftable_copies(before) - _draftable_copies(rows)
    first = next((i for i, r in enumerate(rows) if r.get("buy")), None)
    if missing <= 0 or first is None:
        return rows
    rows = list(rows)
    rows[first] = {**rows[first],
                   "copies": str(min(99, int(rows[first].get("copies") or 1) + missing))}
    return rows


def _fewer_players(case: Case) -> Iterator[Case]:
    """The case without its last seat: its deploy zone, placements and teams go."""
    players = int(case.scenario.get("players", "2"))
    if players <= 2:
        return
    seat = str(players)
    scenario = {k: v for k, v in case.scenario.items() if k != "teams"}
    scenario["players"] = str(players - 1)
    rows = [[cell.replace(seat, "") if cell[:1] in ".~^#" else cell for cell in row]
            for row in case.map]
    yield replace(case, map=rows, scenario=scenario,
                  placements=[p for p in case.placements if p["owner"] != seat])


def _with_cell(case: Case, index: int, column: str, value: str) -> Case:
    cards = list(case.cards)
    cards[index] = {**cards[index], column: value}
    return replace(case, cards=cards)


def _smaller_maps(case: Case) -> Iterator[Case]:
    """The map without its last or first row or column (placements move along)."""
    h, w = len(case.map), len(case.map[0])
    for dx, dy, keep_w, keep_h in ((0, 0, w - 1, h), (0, 0, w, h - 1), (1, 0, w - 1, h),
                                   (0, 1, w, h - 1)):
        if keep_w < 2 or keep_h < 2:
            continue
        rows = [row[dx:dx + keep_w] for row in case.map[dy:dy + keep_h]]
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
            tries = [best.run_seed, *(derive_seed(best.run_seed, "shrink", k)
                                      for k in range(seeds))]
            agents = best.agents[:int(candidate.scenario.get("players", "2"))]
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


# --- writing a failure for a developer ----------------------------------------------------------

def slug(signature: str) -> str:
    """A folder name for a signature: its words, cut short, and a hash of the whole."""
    words = re.sub(r"[^a-z0-9]+", "-", signature.casefold()).strip("-")[:50].strip("-")
    return f"{words}-{hashlib.sha256(signature.encode()).hexdigest()[:6]}"


def write_failure(folder: Path, failing: Failing, original: Failing | None = None,
                  note: str = "") -> None:
    """The case as spreadsheets (cards.csv, board.*.csv), case.json, and README.md with the
    failure and the commands that show it again."""
    cards, board = failing.case.write(folder)
    agents = ",".join(failing.agents)
    (folder / "case.json").write_text(json.dumps({
        "run_seed": failing.run_seed, "agents": list(failing.agents),
        "signature": failing.outcome.signature, "kind": failing.outcome.kind,
        "note": note, "case": failing.case.to_json(),
    }, indent=1, ensure_ascii=False), encoding="utf-8")
    if original is not None and original.case != failing.case:
        original.case.write(folder / "original")
    (folder / "README.md").write_text(
        f"# {failing.outcome.kind}: {failing.outcome.signature}\n\n"
        f"{note}\n\n"
        f"Card set `cards.csv`, board `board` (`board.map.csv`, `board.scenario.csv`, "
        f"`board.placements.csv`): {len(failing.case.cards)} cards, a "
        f"{len(failing.case.map[0])}x{len(failing.case.map)} map"
        + (" (shrunk; the case as generated is in `original/`)" if original is not None
           and original.case != failing.case else "") + ".\n\n"
        "Show it again, with the invariants checked at every decision:\n\n"
        f"    workbench fuzz --replay {folder}\n\n"
        "Play it as a run (a crash is stored in the table failed_games):\n\n"
        f"    workbench simulate --sets {cards} --board {board} --games 1 "
        f"--seed {failing.run_seed} --agents {agents} --drafters {agents} --workers 1 "
        f"--db fuzz-case.duckdb\n\n"
        f"## What happened\n\n```\n{failing.outcome.detail.strip()}\n```\n",
        encoding="utf-8")


def replay_folder(folder: Path) -> tuple[Outcome, Failing]:
    """Play a written case again from its spreadsheets (edited or not) and its case.json."""
    meta = json.loads((folder / "case.json").read_text(encoding="utf-8"))
    agents = tuple(meta["agents"])
    setup = load_setup([str(folder / "cards.csv")], str(folder / "board"))
    outcome = play_checked(setup.config, int(meta["run_seed"]), agents, replay=False)
    return outcome, Failing(Case.from_json(meta["case"]), int(meta["run_seed"]), agents,
                            outcome)


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
    return Planned(index, derive_seed(seed, "case", index // GAMES_PER_CASE),
                   derive_seed(seed, "game", index), AGENT_MIXES[index % len(AGENT_MIXES)])


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
        return Outcome("invalid", "invalid:the generator made content the loader refuses",
                       str(config)), ()
    agents = agents_of(p.mix, config.players)
    return play_checked(config, p.run_seed, agents), agents


def failing_of(p: Planned, outcome: Outcome, agents: tuple[str, ...]) -> Failing:
    return Failing(generate_case(p.case_seed), p.run_seed, agents, outcome)


__all__ = ["AGENT_MIXES", "Case", "Failing", "Outcome", "Planned", "check_decision",
           "generate_case", "load_case", "minimise", "plan", "play_checked", "play_planned",
           "replay_folder", "reproduce", "write_failure"]
