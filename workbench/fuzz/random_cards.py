"""Drawing a fuzz case's cards: card rows as a designer would type them, their
behaviour drawn as specs from the card language's own tables (`engine/language.py`, the verb
registry `engine/verbs`) and written with `engine.wording`, so a new verb is fuzzed at once."""

from __future__ import annotations

import random
import re
from dataclasses import replace

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
from engine.verbs import VERBS
from engine.wording import (
    render_effects,
    render_free_actions,
    render_keywords,
    render_modifiers,
)

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


class Generator:
    """Draws one case (its cards here, its board with `random_boards`); every choice comes from
    `rng`, so a seed names a case."""

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
            k = replace(k, moves_on=self.terrains())
        # the players' own cards carry every keyword validation lets them have
        # (`tyrant` is the Tyrant's alone and refused on them)
        if kind in ("unit", "artifact") and self.chance(0.05):
            k = replace(k, building=True)
        if kind in ("equipment", "potion") and self.chance(0.08):
            k = replace(k, staff=True)
        return k

    def terrains(self) -> frozenset[str]:
        return frozenset(self.rng.sample(["plain", "high ground", "deep water"], self.n(1, 2)))

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
                building=self.chance(0.1),
                staff=self.chance(0.1),
                solid=self.n(1, 6) if self.chance(0.1) else None,
                moves_on=self.terrains() if self.chance(0.1) else None,
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
        keywords = self.keywords(kind, swimming)
        if extra_keywords:  # the board's building or staff: that keyword once
            keywords = replace(keywords, building=False, staff=False)
        row["keywords"] = "; ".join(k for k in (render_keywords(keywords), extra_keywords) if k)
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
