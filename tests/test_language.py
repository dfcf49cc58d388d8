"""The card language parser (docs/card-language.md): every verb, keyword, trigger, free action,
modifier, the German aliases, and the suggestions on a typo."""

from __future__ import annotations

import pytest

from engine.board import Terrain
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
    Trigger,
)
from engine.keywords import parse_keywords, parse_modifiers
from engine.language import (
    TRIGGER_EVENTS,
    parse_effects,
    parse_free_actions,
    parse_full_actions,
    parse_triggers,
)
from engine.verbs import VERBS
from engine.words import LanguageError

NONE = Target()
SELF = Target(TargetKind.SELF)
ENEMY_UNIT_3 = Target(TargetKind.UNIT, Side.ENEMY, False, 3)
OPPONENT = Target(TargetKind.OPPONENT)


def test_registry_names() -> None:
    assert set(VERBS) == {
        "damage",
        "heal",
        "draw",
        "gain",
        "steal",
        "burn",
        "discard",
        "push",
        "paralyse",
        "poison",
        "panic",
        "rage",
        "protect",
        "destroy",
        "sacrifice",
        "create",
        "score",
        "repair",
    }
    assert {"enters", "dies", "upkeep", "attacks", "kills"} == TRIGGER_EVENTS
    assert VERBS["damage"].takes_target and VERBS["damage"].default is None
    assert not VERBS["draw"].takes_target


@pytest.mark.parametrize(
    ("text", "effect"),
    [
        (
            "damage 2 to target enemy unit in range 3",
            Effect("damage", 2, Target(TargetKind.UNIT, Side.ENEMY, False, 3)),
        ),
        (
            "heal 2 to each friendly unit in range 1",
            Effect("heal", 2, Target(TargetKind.UNIT, Side.FRIENDLY, True, 1)),
        ),
        ("heal 1", Effect("heal", 1, SELF)),
        ("draw 1", Effect("draw", 1, NONE)),
        ("draw 2 cards", Effect("draw", 2, NONE)),
        ("gain 2", Effect("gain", 2, NONE)),
        ("steal 1 from target opponent", Effect("steal", 1, OPPONENT)),
        ("steal 1", Effect("steal", 1, OPPONENT)),
        ("burn 2 from each opponent", Effect("burn", 2, Target(TargetKind.OPPONENT, each=True))),
        ("discard 1", Effect("discard", 1, NONE)),
        ("push 2 target unit in range 1", Effect("push", 2, Target(TargetKind.UNIT, range=1))),
        (
            "paralyse 1 target enemy unit in range 2",
            Effect("paralyse", 1, Target(TargetKind.UNIT, Side.ENEMY, False, 2)),
        ),
        (
            "poison 1 to target enemy unit in range 1",
            Effect("poison", 1, Target(TargetKind.UNIT, Side.ENEMY, False, 1)),
        ),
        ("panic 1 to target enemy unit in range 3", Effect("panic", 1, ENEMY_UNIT_3)),
        (
            "rage 1 to target friendly unit",
            Effect("rage", 1, Target(TargetKind.UNIT, Side.FRIENDLY)),
        ),
        ("protect 2 to self", Effect("protect", 2, SELF)),
        (
            "destroy target artifact in range 1",
            Effect("destroy", 1, Target(TargetKind.ARTIFACT, range=1)),
        ),
        ("sacrifice self", Effect("sacrifice", 1, SELF)),
        ("sacrifice target unit", Effect("sacrifice", 1, Target(TargetKind.UNIT, Side.FRIENDLY))),
        ("create 2 Skeleton", Effect("create", 2, NONE, "Skeleton")),
        ("create Bone Golem", Effect("create", 1, NONE, "Bone Golem")),
        ("score 1", Effect("score", 1, NONE)),
        ("repair 1 to target equipment", Effect("repair", 1, Target(TargetKind.EQUIPMENT))),
        (
            "destroy each enemy permanent in range 2",
            Effect("destroy", 1, Target(TargetKind.PERMANENT, Side.ENEMY, True, 2)),
        ),
    ],
)
def test_every_verb(text: str, effect: Effect) -> None:
    assert parse_effects(text) == (effect,)


@pytest.mark.parametrize(
    ("german", "english"),
    [
        (
            "Schaden 2 auf Ziel gegnerische Einheit in Reichweite 3",
            "damage 2 to target enemy unit in range 3",
        ),
        (
            "heile 2 an jede eigene Einheit in Reichweite 1",
            "heal 2 to each friendly unit in range 1",
        ),
        ("ziehe 1", "draw 1"),
        ("erhalte 2", "gain 2"),
        ("stehle 1 von Ziel Gegner", "steal 1 from target opponent"),
        ("vernichte 2", "burn 2"),
        ("wirf 1 ab", "discard 1"),
        ("wirf 2 Karten ab", "discard 2"),
        ("Schieben 2 Ziel Einheit in Reichweite 1", "push 2 target unit in range 1"),
        ("Paralyse 1 Ziel gegnerische Einheit", "paralyse 1 target enemy unit"),
        ("Gift 1 auf Ziel gegnerische Einheit", "poison 1 to target enemy unit"),
        ("Panik 1 auf Ziel Einheit", "panic 1 to target unit"),
        ("Wut 1 auf Ziel eigene Einheit", "rage 1 to target friendly unit"),
        ("Schutz 2 auf selbst", "protect 2 to self"),
        ("zerstöre Ziel Artefakt", "destroy target artifact"),
        ("zerstoere Ziel Artefakt", "destroy target artifact"),
        ("opfere selbst", "sacrifice self"),
        ("erzeuge 2 Skelett", "create 2 Skelett"),
        ("punkte 1", "score 1"),
        ("repariere 1 auf Ziel Equipment", "repair 1 to target equipment"),
    ],
)
def test_german_verbs(german: str, english: str) -> None:
    assert parse_effects(german) == parse_effects(english)


def test_effect_lists_split_on_semicolon_comma_and() -> None:
    assert parse_effects("draw 1; gain 2, score 1 and heal 1 to self") == (
        Effect("draw", 1, NONE),
        Effect("gain", 2, NONE),
        Effect("score", 1, NONE),
        Effect("heal", 1, SELF),
    )


def test_and_inside_a_token_name_does_not_split() -> None:
    assert parse_effects("create 1 Salt and Pepper") == (
        Effect("create", 1, NONE, "Salt and Pepper"),
    )


def test_case_insensitive() -> None:
    assert parse_effects("DAMAGE 1 TO Target ENEMY Unit IN RANGE 3") == (
        Effect("damage", 1, Target(TargetKind.UNIT, Side.ENEMY, False, 3)),
    )


@pytest.mark.parametrize(
    ("text", "message", "suggestions"),
    [
        ("damge 2 to self", "unknown verb 'damge'", ("damage", "rage")),
        ("damage 2 to traget enemy unit", "unknown target word 'traget'", ("target",)),
        ("damage 2 to target enemy unti", "unknown target kind 'unti'", ("unit", "units")),
        ("damage 2", "damage needs a target, e.g. 'damage 1 to target enemy unit in range 1'", ()),
        ("draw 1 to self", "draw takes no target: 'self'", ()),
        ("destroy 2 target unit", "destroy takes no number: 'destroy 2 target unit'", ()),
        ("steal 1 from target unit", "steal cannot target unit (it targets opponent)", ()),
        ("create", "create needs a card name: 'create'", ()),
        ("sacrifice target enemy unit", "sacrifice takes only a permanent you control (R11.3)", ()),
        ("damage 1 to target unit in range x", "range must be a whole number, not 'x'", ()),
        ("draw 1,", "empty effect in 'draw 1,'", ()),
    ],
)
def test_effect_errors(text: str, message: str, suggestions: tuple[str, ...]) -> None:
    with pytest.raises(LanguageError) as err:
        parse_effects(text)
    assert err.value.message == message
    assert err.value.suggestions == suggestions


def test_error_text_carries_suggestion() -> None:
    with pytest.raises(LanguageError, match=r"unknown verb 'draww'; did you mean 'draw'\?"):
        parse_effects("draww 1")


@pytest.mark.parametrize(
    ("text", "event"),
    [
        ("when this enters", "enters"),
        ("wenn dies eintritt", "enters"),
        ("when this dies", "dies"),
        ("wenn dies stirbt", "dies"),
        ("at upkeep", "upkeep"),
        ("im Unterhalt", "upkeep"),
        ("when this attacks", "attacks"),
        ("wenn dies angreift", "attacks"),
        ("when this kills", "kills"),
        ("wenn dies tötet", "kills"),
    ],
)
def test_every_trigger(text: str, event: str) -> None:
    assert parse_triggers(f"{text}: gain 2") == (Trigger(event, (Effect("gain", 2),)),)


def test_several_triggers() -> None:
    assert parse_triggers("when this dies: gain 2; at upkeep: heal 1 to self, draw 1") == (
        Trigger("dies", (Effect("gain", 2),)),
        Trigger("upkeep", (Effect("heal", 1, SELF), Effect("draw", 1))),
    )


def test_trigger_errors() -> None:
    with pytest.raises(LanguageError) as err:
        parse_triggers("when this dise: gain 1")
    assert err.value.message == "unknown trigger event 'when this dise'"
    assert err.value.suggestions[0] == "when this dies"
    with pytest.raises(LanguageError, match="needs the form 'when this dies: gain 2'"):
        parse_triggers("gain 2")


@pytest.mark.parametrize(
    ("text", "cost"),
    [
        ("pay 2", Cost(resource=2)),
        ("zahle 2", Cost(resource=2)),
        ("discard 1", Cost(discard=1)),
        ("wirf 1 ab", Cost(discard=1)),
        ("discard 2 cards", Cost(discard=2)),
        ("sacrifice", Cost(sacrifice=True)),
        ("opfern", Cost(sacrifice=True)),
        ("use", Cost(sacrifice=True)),
        ("benutzen", Cost(sacrifice=True)),
        ("pay 1, discard 1", Cost(resource=1, discard=1)),
        ("pay 1 and sacrifice", Cost(resource=1, sacrifice=True)),
    ],
)
def test_every_free_action_cost(text: str, cost: Cost) -> None:
    assert parse_free_actions(f"{text}: draw 1") == (FreeAction(cost, (Effect("draw", 1),)),)


def test_several_free_actions_and_errors() -> None:
    assert parse_free_actions("discard 1: draw 1; pay 2: protect 1 to self") == (
        FreeAction(Cost(discard=1), (Effect("draw", 1),)),
        FreeAction(Cost(resource=2), (Effect("protect", 1, SELF),)),
    )
    with pytest.raises(LanguageError) as err:
        parse_free_actions("pya 2: draw 1")
    assert (err.value.message, err.value.suggestions) == ("unknown cost 'pya'", ("pay",))
    with pytest.raises(LanguageError, match="needs the form 'discard 1: draw 1'"):
        parse_free_actions("draw 1")


def test_full_actions_are_alternatives() -> None:
    assert parse_full_actions("damage 3 to target enemy unit in range 2; heal 2, draw 1") == (
        (Effect("damage", 3, Target(TargetKind.UNIT, Side.ENEMY, False, 2)),),
        (Effect("heal", 2, SELF), Effect("draw", 1)),
    )


@pytest.mark.parametrize(
    ("text", "keywords"),
    [
        ("armor 1", Keywords(armor=1)),
        ("Rüstung 2", Keywords(armor=2)),
        ("crew 2", Keywords(crew=2)),
        ("Bemannen 1", Keywords(crew=1)),
        ("swimming", Keywords(swimming=True)),
        ("schwimmend", Keywords(swimming=True)),
        ("veiled", Keywords(veiled=True)),
        ("verhüllt", Keywords(veiled=True)),
        ("solid 5", Keywords(solid=5)),
        ("building; solid 8", Keywords(building=True, solid=8)),
        ("Gebäude", Keywords(building=True)),
        ("staff", Keywords(staff=True)),
        ("Stab", Keywords(staff=True)),
        ("tyrant", Keywords(tyrant=True)),
        ("Tyrann", Keywords(tyrant=True)),
        ("moves on plain", Keywords(moves_on=frozenset({Terrain.PLAIN.value}))),
        (
            "moves on plain, high ground; veiled",
            Keywords(veiled=True, moves_on=frozenset({"plain", "high ground"})),
        ),
        ("bewegt auf Wasser", Keywords(moves_on=frozenset({"deep water"}))),
        ("protection from spells", Keywords(protections=(Protection(type=CardType.SPELL),))),
        (
            "protection from units with buy > 7",
            Keywords(protections=(Protection(type=CardType.UNIT, stat="buy", op=">", value=7),)),
        ),
        ("Schutz vor Feuerball", Keywords(protections=(Protection(card="Feuerball"),))),
        (
            "Schutz vor Einheiten mit Kaufpreis >= 3",
            Keywords(protections=(Protection(type=CardType.UNIT, stat="buy", op=">=", value=3),)),
        ),
        (
            "protection from cards with attack < 2",
            Keywords(protections=(Protection(stat="attack", op="<", value=2),)),
        ),
    ],
)
def test_every_keyword(text: str, keywords: Keywords) -> None:
    assert parse_keywords(text) == keywords


@pytest.mark.parametrize(
    ("text", "message", "suggestions"),
    [
        ("veild", "unknown keyword 'veild'", ("veiled",)),
        ("armor", "armor needs one number, e.g. 'armor 2', not 'armor'", ()),
        ("armor 1; armor 2", "keyword 'armor' given twice", ()),
        ("moves on lava", "unknown terrain 'lava'", ()),
        ("protection from units with bye > 7", "unknown stat 'bye'", ("buy",)),
        ("veiled 2", "veiled takes nothing more: 'veiled 2'", ()),
    ],
)
def test_keyword_errors(text: str, message: str, suggestions: tuple[str, ...]) -> None:
    with pytest.raises(LanguageError) as err:
        parse_keywords(text)
    assert (err.value.message, err.value.suggestions) == (message, suggestions)


@pytest.mark.parametrize(
    ("text", "modifiers"),
    [
        ("+1 attack, +1 range", Modifiers(attack=1, range=1)),
        ("+2 life; +1 move", Modifiers(life=2, move=1)),
        ("armor 1", Modifiers(armor=1)),
        ("+2 armor", Modifiers(armor=2)),
        ("-1 move", Modifiers(move=-1)),
        (
            "+1 Angriff, +1 Reichweite, +1 Leben, +1 Bewegung, Rüstung 1",
            Modifiers(attack=1, range=1, life=1, move=1, armor=1),
        ),
        ("+1 attack, veiled", Modifiers(attack=1, keywords=Keywords(veiled=True))),
        (
            "swimming; protection from spells",
            Modifiers(
                keywords=Keywords(swimming=True, protections=(Protection(type=CardType.SPELL),))
            ),
        ),
    ],
)
def test_every_modifier(text: str, modifiers: Modifiers) -> None:
    assert parse_modifiers(text) == modifiers


def test_modifier_errors() -> None:
    with pytest.raises(LanguageError) as err:
        parse_modifiers("+1 atack")
    assert (err.value.message, err.value.suggestions) == ("unknown modifier 'atack'", ("attack",))
    with pytest.raises(LanguageError) as err:
        parse_modifiers("shiny")
    assert err.value.message == "unknown modifier 'shiny'"
