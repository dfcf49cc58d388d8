"""One card verb as one entry: how it is written, what it does, what it is worth to the agents.

`Verb` holds all of a verb's parts; `Registry` holds the verbs by name and by every word that
names one. The language parses with an entry's words and target kinds, the wording writes an
effect back from the same fields, `engine.effects.resolve` calls its `effect`, and the agents
(`engine.agents.values`) call its `value` with their view of the board (an `Appraiser`: the
engine never imports the agents) and read its `card_worth` for cards in the draft and the store.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Protocol

from engine.actions import target_seats
from engine.board import VictoryKind
from engine.cards import Card, Effect, TargetKind
from engine.state import GameState, Perm
from engine.words import norm

PERMANENTS = frozenset(
    {
        TargetKind.SELF,
        TargetKind.UNIT,
        TargetKind.PERMANENT,
        TargetKind.ARTIFACT,
        TargetKind.EQUIPMENT,
    }
)
"""Target kinds of a verb that acts on any permanent."""
UNITS = frozenset({TargetKind.SELF, TargetKind.UNIT})
PLAYERS = frozenset({TargetKind.OPPONENT})
NO_TARGET: frozenset[TargetKind] = frozenset()


class Appraiser(Protocol):
    """An agent's view of the board for one decision, as a verb's value reads it (implemented
    by `engine.agents.values.View`, which carries the agent's weights)."""

    @property
    def s(self) -> GameState: ...
    @property
    def seat(self) -> int: ...
    @property
    def kind(self) -> VictoryKind: ...
    @property
    def objectives(self) -> AbstractSet[int]: ...

    def pv(self, p: Perm) -> float:
        """A permanent's worth now."""

    def card_value(self, card: Card) -> float:
        """A card's worth on its own."""

    def resource_value(self) -> float:
        """One resource's worth to the seat."""

    def danger(self, f: int) -> int:
        """The attack enemy units could bring on field `f` next turn."""


Act = Callable[[GameState, int, int, Effect, list[int], int], None]
"""An effect: (state, acting player, source permanent or card, the effect, its targets, the
push origin its controller chose or -1). Targets are permanent ids or player targets
(`engine.actions.player_target`)."""
Value = Callable[[Appraiser, int, Effect, list[int], int], float]
"""A value to an agent: (its view, source, the effect, its targets, the push origin)."""
PerTarget = Callable[[Appraiser, int, Effect, Perm, int], float]
"""A value of an effect on one permanent it reaches: (view, source, effect, permanent, origin)."""


@dataclass(frozen=True, slots=True)
class Verb:
    """A verb of the card language (docs/card-language.md, "Effects"), all of it in one place.

    Writing (parsed and written back by `engine.language` and `engine.wording`): `name` and its
    German `aliases`; the target kinds it accepts (`targets`) and the one used when none is
    written (`default`; None with `targets`: the target must be written); `amount` False: it
    takes no number (destroy); `card`: it names a card (create, R8.8); `particles`: words that
    may end it (German "wirf 2 ab"); `own`: it acts only on permanents its user controls
    (sacrifice, R11.3).
    Doing: `effect`, called once per effect as its action resolves (R6.4).
    Worth: `value`, to an agent choosing among actions; `card_worth`, per point of its amount
    on a card whose targets are not known yet (the draft, the store); `hurts`: it harms what it
    acts on, so on `self` it counts against the card.
    What the rest of the engine asks of a verb by what it does, not by its name: `pushes`: it
    pushes from an origin, so a card that is no permanent offers its controller the origin
    fields (R14.1); `gains`: it brings its user resource (R18.1), as much as its amount, or with
    `drains` as much as the targets held; `drains`: it takes resource from the seats it targets
    (R19.2: steal with `gains`, burn without); `scores`: it scores capture points (R19.3). The
    agents read these to value a card on the resource race or the capture-points board.
    """

    name: str
    aliases: tuple[str, ...]
    effect: Act
    value: Value
    card_worth: float
    targets: frozenset[TargetKind] = NO_TARGET
    default: TargetKind | None = None
    amount: bool = True
    card: bool = False
    particles: tuple[str, ...] = ()
    own: bool = False
    hurts: bool = False
    pushes: bool = False
    gains: bool = False
    drains: bool = False
    scores: bool = False

    @property
    def takes_target(self) -> bool:
        return bool(self.targets)


class Registry(Mapping[str, Verb]):
    """The verbs by canonical name (the `Effect.verb` they parse to), and by every word that
    names one; a name or word given twice is a ValueError."""

    def __init__(self, verbs: Iterable[Verb]) -> None:
        self._by_name: dict[str, Verb] = {}
        self._by_word: dict[str, Verb] = {}
        for verb in verbs:
            if verb.name in self._by_name:
                raise ValueError(f"verb {verb.name!r} registered twice")
            self._by_name[verb.name] = verb
            for word in (verb.name, *verb.aliases):
                if self._by_word.setdefault(norm(word), verb) is not verb:
                    raise ValueError(f"{word!r} names two verbs")

    def __getitem__(self, name: str) -> Verb:
        return self._by_name[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_name)

    def __len__(self) -> int:
        return len(self._by_name)

    def named(self, word: str) -> Verb | None:
        """The verb `word` names (any alias, any case), or None."""
        return self._by_word.get(norm(word))

    def words(self) -> list[str]:
        """Every word naming a verb, matching keys (for the nearest-word hints)."""
        return list(self._by_word)


# --- helpers the entries share ----------------------------------------------------------


def perms(state: GameState, targets: list[int]) -> list[Perm]:
    """The permanents among `targets` still on the board."""
    return [state.perms[t] for t in targets if t in state.perms]


def seats(state: GameState, player: int, targets: list[int]) -> list[int]:
    """The seats among `targets`; with no target at all, the first opponent."""
    chosen = target_seats(targets)
    if not chosen and not targets:
        chosen = [s for s in range(len(state.players)) if state.enemies(player, s)][:1]
    return chosen


def friendly(a: Appraiser, p: Perm) -> bool:
    """`p` is the seat's own or a teammate's."""
    seat = a.seat
    return p.controller == seat or (
        p.controller >= 0 and seat >= 0 and not a.s.enemies(seat, p.controller)
    )


def sign(a: Appraiser, p: Perm) -> float:
    """-1 for the seat's own or a teammate's permanent, 1 for any other."""
    return -1.0 if friendly(a, p) else 1.0


def on_each(worth: PerTarget) -> Value:
    """A value summed over the permanents an effect reaches (those gone count nothing)."""

    def value(a: Appraiser, source: int, e: Effect, targets: list[int], origin: int) -> float:
        total = 0.0
        on_board = a.s.perms
        for cid in targets:
            p = on_board.get(cid)
            if p is not None:
                total += worth(a, source, e, p, origin)
        return total

    return value


__all__ = [
    "NO_TARGET",
    "PERMANENTS",
    "PLAYERS",
    "UNITS",
    "Act",
    "Appraiser",
    "PerTarget",
    "Registry",
    "Value",
    "Verb",
    "friendly",
    "on_each",
    "perms",
    "seats",
    "sign",
]
