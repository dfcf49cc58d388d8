"""Drawing a fuzz case's board: every terrain, field mark and victory kind, 2-4
players, teams and the Tyrant, with the cards the board needs drawn by `random_cards`."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.board import TieBreak, VictoryKind
from engine.wording import render_effects
from workbench.fuzz.random_cards import EXTREME, Generator


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


def _layout(g: Generator, players: int) -> tuple[_Layout, list[list[int]]]:
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
class DrawnBoard:
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

    def rows(self) -> list[list[str]]:
        """The map as its sheet's cells, row by row."""
        layout = self.layout
        return [
            [layout.code(y * layout.width + x) for x in range(layout.width)]
            for y in range(layout.height)
        ]


def draw_board(g: Generator, name: str) -> DrawnBoard:
    """The board with its cards: players and victory kind first, then the map, the cards, what
    the victory kind needs, and the rest of the scenario (in this order: a seed names a case)."""
    players = g.n(2, 4)
    victory = g.rng.choice(list(VictoryKind))
    layout, zones = _layout(g, players)
    board = DrawnBoard(
        layout, zones, {"name": name, "players": str(players), "victory": victory.value}
    )
    _deal_cards(g, board, players)
    _VICTORY[victory](g, board, players)
    _start_permanents(g, board, players, victory)
    _field_actions(g, board)
    _teams_and_economy(g, board, players)
    return board


def _deal_cards(g: Generator, board: DrawnBoard, players: int) -> None:
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


def _vip(g: Generator, board: DrawnBoard, players: int) -> None:
    """R19.1: a VIP for every seat."""
    vip = g.card("unit", buy=False)
    vip.pop("play", None)
    board.scenario["victory card"] = vip["name"]
    for seat, zone in enumerate(board.zones):
        f = next(f for f in zone if board.layout.land(f))
        board.layout.take(f)
        board.place(vip["name"], str(seat + 1), f, True)


def _resource(g: Generator, board: DrawnBoard, players: int) -> None:
    board.scenario["victory target"] = str(g.n(5, 40))


def _capture(g: Generator, board: DrawnBoard, players: int) -> None:
    """R19.3: areas to hold."""
    layout = board.layout
    for area in "ABC"[: g.n(1, 3)]:
        for f in g.rng.sample(range(layout.width * layout.height), g.n(1, 4)):
            if layout.terrain[f] != "#" and not any(c.isupper() for c in layout.marks[f]):
                layout.marks[f] += area
    if not any(c.isupper() for m in layout.marks for c in m):
        layout.marks[board.zones[0][0]] += "A"
    board.scenario["victory target"] = str(g.n(3, 15))


def _buildings(g: Generator, board: DrawnBoard, players: int) -> None:
    """R19.4: a building for every seat."""
    building = g.card("artifact", buy=False, extra_keywords="building")
    if "solid" not in building["keywords"]:
        building["keywords"] += f"; solid {g.n(1, 6)}"
    for seat in range(players):
        board.place(building["name"], str(seat + 1), board.layout.spot(True))


def _staff(g: Generator, board: DrawnBoard, players: int) -> None:
    """R21.12: the staff on the board."""
    staff = g.card("equipment", buy=False, extra_keywords="staff")
    board.scenario["victory card"] = staff["name"]
    board.place(staff["name"], "neutral", board.layout.spot(True))


def _tyrant(g: Generator, board: DrawnBoard, players: int) -> None:
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


def _start_permanents(g: Generator, board: DrawnBoard, players: int, victory: VictoryKind) -> None:
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


def _field_actions(g: Generator, board: DrawnBoard) -> None:
    """Fields that grant free actions (R9.3)."""
    layout = board.layout
    for letter in "abc"[: g.n(0, 2)]:
        f = g.rng.randrange(layout.width * layout.height)
        if layout.terrain[f] != "#" and not any(c.islower() for c in layout.marks[f]):
            layout.marks[f] += letter
            board.scenario[f"field action {letter}"] = g.free_actions()


def _teams_and_economy(g: Generator, board: DrawnBoard, players: int) -> None:
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
