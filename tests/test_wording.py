"""The card language written back from specs reads back to the same specs (engine.wording)."""

from __future__ import annotations

import pytest

from engine.cards import (
    Card,
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
    Trigger,
)
from engine.keywords import parse_keywords, parse_modifiers
from engine.language import parse_effects, parse_free_actions, parse_full_actions, parse_triggers
from engine.wording import card_behaviour, render_effect, render_keywords, render_modifiers
from workbench.content.card_sets import shipped_cardsets

SHIPPED = [c for s in shipped_cardsets() for c in s.cards]


@pytest.mark.parametrize("card", SHIPPED, ids=[c.name for c in SHIPPED])
def test_every_shipped_card_reads_back_the_same(card: Card) -> None:
    text = card_behaviour(card)
    assert parse_keywords(text["keywords"]) == card.keywords
    assert parse_effects(text["effect"]) == card.effects
    assert parse_triggers(text["trigger"]) == card.triggers
    assert parse_free_actions(text["free_action"]) == card.free_actions
    assert parse_full_actions(text["full_action"]) == card.full_actions
    assert parse_modifiers(text["modifiers"]) == card.modifiers


def test_the_shipped_cards_use_every_behaviour_column() -> None:
    """The round trip above is only worth something if the shipped cards exercise it."""
    used = {column for c in SHIPPED for column, text in card_behaviour(c).items() if text}
    assert used == {"keywords", "effect", "trigger", "free_action", "full_action", "modifiers"}


@pytest.mark.parametrize(
    "effect, text",
    [
        (
            Effect("damage", 2, Target(TargetKind.UNIT, Side.ENEMY, range=3)),
            "damage 2 to target enemy unit in range 3",
        ),
        (
            Effect("heal", 1, Target(TargetKind.UNIT, Side.FRIENDLY, each=True, range=1)),
            "heal 1 to each friendly unit in range 1",
        ),
        (Effect("steal", 2, Target(TargetKind.OPPONENT)), "steal 2 from target opponent"),
        (Effect("create", 2, card="Skeleton"), "create 2 Skeleton"),
        (Effect("destroy", 1, Target(TargetKind.EQUIPMENT)), "destroy target equipment"),
        (Effect("draw", 1), "draw 1"),
    ],
)
def test_effects_are_written_as_designers_write_them(effect: Effect, text: str) -> None:
    assert render_effect(effect) == text
    assert parse_effects(text) == (effect,)


def test_keywords_and_modifiers_in_words() -> None:
    k = Keywords(
        armor=1,
        crew=2,
        swimming=True,
        solid=5,
        protections=(
            Protection(type=CardType.UNIT, stat="buy", op=">", value=7),
            Protection(card="Fireball"),
        ),
        moves_on=frozenset({"plain", "high ground"}),
    )
    assert render_keywords(k) == (
        "armor 1; crew 2; swimming; solid 5; protection from units "
        "with buy > 7; protection from Fireball; moves on high ground, "
        "plain"
    )
    assert parse_keywords(render_keywords(k)) == k
    m = Modifiers(attack=1, move=-1, armor=2, keywords=Keywords(veiled=True))
    assert render_modifiers(m) == "+1 attack; -1 move; +2 armor; veiled"
    assert parse_modifiers(render_modifiers(m)) == m


def test_costs_in_words() -> None:
    fa = (
        FreeAction(Cost(resource=2, discard=1), (Effect("draw", 2),)),
        FreeAction(Cost(sacrifice=True), (Effect("gain", 3),)),
        FreeAction(Cost(), (Effect("score", 1),)),
    )
    text = card_behaviour(Card("X", "s", CardType.ARTIFACT, free_actions=fa))["free_action"]
    assert text == "pay 2, discard 1: draw 2; sacrifice: gain 3; pay 0: score 1"
    assert parse_free_actions(text) == fa
    assert parse_triggers("when this dies: gain 2") == (Trigger("dies", (Effect("gain", 2),)),)
