"""A person at one seat: an agent whose decisions are typed in a terminal.

It plays through the same `play_game` as every AI, so its games are stored, replayed and counted
like any other. Each decision shows what happened since the person last chose, the board picture
and the numbered legal actions with readable names; the answer is a number, an action's text
(`move c7 @3,4`) or its readable name. Anything else gets the list again, never a crash. Input
and output are streams, so tests script a whole game.
"""

from __future__ import annotations

import random
from typing import Protocol

from engine.actions import Action, parse_action
from engine.events import EVENT_COLUMNS
from engine.game import Game
from engine.names import describe
from engine.picture import picture, seat_name


class Lines(Protocol):
    """Where answers come from (a terminal, or a script in tests)."""

    def readline(self) -> str: ...


class Sink(Protocol):
    """Where the seat writes (a terminal, or a buffer in tests)."""

    def write(self, text: str, /) -> int: ...


class Abandoned(Exception):
    """The person quit or the input ended; the game is not stored."""


HELP = (
    "answer with a number, an action's text (e.g. `move c7 @3,4`) or its name; "
    "`board` shows the board again, `quit` abandons the game"
)


class HumanSeat:
    """An agent (and drafter) reading its decisions from `inp` and writing to `out`."""

    name = "human"

    def __init__(self, seat: int, inp: Lines, out: Sink) -> None:
        self.seat = seat
        self.inp = inp
        self.out = out
        self.seen = 0
        """Events shown so far: the next decision first reports the ones after them."""

    def act(self, game: Game, legal: list[Action], rng: random.Random) -> Action:
        """Show the news and the options, then ask until the answer is one of them."""
        self.report(game.state.events.rows())
        if game.state.phase != "draft":
            self._say(picture(game.state))
        self._say(self._own_cards(game))
        names = [describe(game, a) for a in legal]
        self._options(legal, names, game.state.config.board.width)
        while True:
            self.out.write(f"{seat_name(self.seat)}> ")
            line = self.inp.readline()
            if not line:
                raise Abandoned("the input ended")
            answer = line.strip()
            if answer.casefold() == "quit":
                raise Abandoned("quit")
            if answer.casefold() == "board":
                self._say(picture(game.state))
                continue
            choice = choose(answer, legal, names, game.state.config.board.width)
            if choice is not None:
                return choice
            self._say(f"not one of the choices: {answer!r}. {HELP}")
            self._options(legal, names, game.state.config.board.width)

    def report(self, events: list[tuple[object, ...]]) -> None:
        """The events since this seat last chose (what the others did meanwhile)."""
        rows = events[self.seen :]
        self.seen += len(rows)
        shown = [r for r in rows if r[EVENT_COLUMNS.index("kind")] not in ("pick", "deal")]
        if shown:
            self._say("since your last choice:")
            for r in shown:
                self._say("  " + event_text(r))

    def _own_cards(self, game: Game) -> str:
        pl = game.state.players[self.seat]
        names = game.state.cards
        hand = ", ".join(sorted(names[c].name for c in pl.hand)) or "nothing"
        store = ", ".join(sorted(names[c].name for c in pl.store)) or "nothing"
        return f"your hand: {hand}\nyour store: {store}"

    def _options(self, legal: list[Action], names: list[str], width: int) -> None:
        self._say("choose one:")
        for i, (a, name) in enumerate(zip(legal, names, strict=True), start=1):
            self._say(f"  {i:>3}. {name}   [{a.text(width)}]")

    def _say(self, text: str) -> None:
        self.out.write(text + "\n")


def choose(answer: str, legal: list[Action], names: list[str], width: int) -> Action | None:
    """The legal action an answer names: its 1-based number, its text or its readable name."""
    if answer.isascii() and answer.isdigit():  # `²` is a digit to isdigit(), not to int()
        n = int(answer)
        return legal[n - 1] if 1 <= n <= len(legal) else None
    folded = answer.casefold()
    for a, name in zip(legal, names, strict=True):
        if folded == name.casefold():
            return a
    try:
        action = parse_action(answer, width)
    except ValueError:
        return None
    return action if action in legal else None


def event_text(row: tuple[object, ...]) -> str:
    """One event as a short line: `p2 move Militia 3,4 (2) 2,4 3,4`."""
    values = dict(zip(EVENT_COLUMNS, row, strict=True))
    player = values["player"]
    who = seat_name(player) if isinstance(player, int) and player != -1 else "game"
    parts = [who, str(values["kind"]), str(values["card"])]
    if values["target"]:
        parts.append(f"-> {values['target']}")
    if values["x"] != -1:
        parts.append(f"@{values['x']},{values['y']}")
    if values["amount"]:
        parts.append(f"({values['amount']})")
    if values["detail"]:
        parts.append(str(values["detail"]))
    return " ".join(p for p in parts if p)
