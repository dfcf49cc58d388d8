"""The heuristic agent's numbers, in one place, so that they can be tuned.

`Weights()` holds the hand-set numbers the heuristic agent has always played with (the agent
`heuristic`); `engine.agents.tuned` holds a set found by `workbench train-agent` (the agent
`tuned`). Each field is one decision of the agent's, named after what it weighs; `SPACE` gives
the range the trainer searches for each.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass


@dataclass(frozen=True)
class Weights:
    """The tunable numbers of the heuristic agent (defaults: the hand-set agent)."""

    # buying (R7): value for money, raw value, the upkeep plan, saving for a better card
    buy_ratio: float = 2.0
    """weight of value for money (card value / cost over its life)"""
    buy_raw: float = 0.25
    """weight of the card's value itself"""
    buy_unit: float = 1.0
    """factor on the value of units when buying"""
    buy_spell: float = 1.0
    """factor on the value of spells when buying"""
    buy_other: float = 1.0
    """factor on the value of equipment and artifacts when buying"""
    upkeep_turns: float = 2.5
    """turns of upkeep counted in a card's cost over its life"""
    buy_overload: float = 0.6
    """factor on units whose upkeep the income cannot carry"""
    buy_margin: float = 2.0
    """how far the deck's upkeep may exceed the income before that factor applies"""
    buy_save: float = 1.6
    """save for a card affordable next turn worth this many times the best buy now (+1)"""
    buy_min: float = 0.0
    """a buy must score above this, else the agent buys nothing"""
    buy_gain: float = 1.0
    """R21.24: what a better buy's lead in score is worth (in card value) against the fast
    actions that gain the resource it needs in the buy step"""
    race_upkeep: float = 0.0
    """the resource race (R19.2): a buy's score less this per point of the card's upkeep"""
    # upkeep (R5.3, R21.21) and deploying units (R6.8)
    upkeep_keep: float = 0.0
    """pay a unit's upkeep only when its worth is at least this many times the upkeep"""
    unit_reserve: float = 0.0
    """resource kept beyond next turn's upkeep before a unit is deployed"""
    unit_crowd: float = 0.0
    """deploying is worth this much less per own unit already on the board"""
    deploy_base: float = 5.0
    """score of deploying a unit (against 4 for activating one: deploy first)"""
    deploy_goal: float = 0.3
    """the deploy field's distance to the objective, per field"""
    spell_cost: float = 0.8
    """weight of a spell's play cost"""
    perm_cost: float = 0.5
    """weight of a permanent's play cost"""
    convert_keep: float = 6.0
    """R8.6: hand cards worth at least this (and affordable next turn) are kept"""
    resource: float = 1.0
    """the value of one resource (twice this on the resource race)"""
    # moving and attacking (R12)
    goal_pull: float = 1.0
    """a unit's position: per field of distance to the objective"""
    danger_fear: float = 0.3
    """a unit's position in reach of enough enemy attack to defeat it: share of its value"""
    danger_soft: float = 0.0
    """a unit's position in reach of less enemy attack than defeats it: share of its value per
    share of its life the enemy could take"""
    area_pull: float = 3.0
    """a unit's position on a capture area (R19.3)"""
    income_pull: float = 4.0
    """a unit's position on an income field, per income (resource race)"""
    attack_look: float = 0.9
    """weight of the best attack from a field a unit moves to"""
    attack_bias: float = -0.2
    """added to an attack's exchange value (negative: attack only when clearly favourable)"""
    kill_bonus: float = 3.0
    """an exchange that defeats the target: its value plus this"""
    hurt: float = 0.7
    """an exchange that damages without defeating: this share of value per share of life"""
    objective_hit: float = 6.0
    """per point of damage to the board's objective (VIP, building, Tyrant)"""
    retaliation: float = 1.0
    """factor on what the attacker loses to the defender's strike back (R12.11)"""
    free_bias: float = -0.2
    """added to a free action's value over its cost"""

    def to_dict(self) -> dict[str, float]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, values: dict[str, float]) -> Weights:
        """Weights from a mapping; ValueError naming an unknown key."""
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(values) - names)
        if unknown:
            raise ValueError(f"unknown weights: {', '.join(unknown)}")
        return cls(**{k: float(v) for k, v in values.items()})


DEFAULT = Weights()

SPACE: dict[str, tuple[float, float]] = {
    "buy_ratio": (0.5, 4.0),
    "buy_raw": (0.0, 1.0),
    "buy_unit": (0.5, 1.5),
    "buy_spell": (0.5, 1.5),
    "buy_other": (0.5, 1.5),
    "upkeep_turns": (0.5, 6.0),
    "buy_overload": (0.1, 1.0),
    "buy_margin": (-2.0, 4.0),
    "buy_save": (1.0, 3.0),
    "buy_min": (-1.0, 3.0),
    "buy_gain": (0.0, 3.0),
    "race_upkeep": (0.0, 1.0),
    "upkeep_keep": (0.0, 4.0),
    "unit_reserve": (0.0, 4.0),
    "unit_crowd": (0.0, 2.0),
    "deploy_base": (3.0, 7.0),
    "deploy_goal": (0.0, 1.0),
    "spell_cost": (0.2, 2.0),
    "perm_cost": (0.0, 2.0),
    "convert_keep": (2.0, 12.0),
    "resource": (0.5, 3.0),
    "goal_pull": (0.2, 2.0),
    "danger_fear": (0.0, 1.0),
    "danger_soft": (0.0, 0.5),
    "area_pull": (0.0, 6.0),
    "income_pull": (0.0, 8.0),
    "attack_look": (0.3, 1.5),
    "attack_bias": (-2.0, 1.0),
    "kill_bonus": (0.0, 8.0),
    "hurt": (0.2, 1.2),
    "objective_hit": (1.0, 12.0),
    "retaliation": (0.5, 2.0),
    "free_bias": (-2.0, 1.0),
}
"""The range `workbench train-agent` searches for each weight (every field has one)."""

__all__ = ["DEFAULT", "SPACE", "Weights"]
