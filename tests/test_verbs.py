"""The verb registry (engine/verbs, docs/engine.md "Adding a verb"): every verb is one entry
holding its words, its effect, its wording and its value to the agents; the worked example of
the docs is run as written; one table of card-type words for the loader and the language."""

from __future__ import annotations

import csv
import math
import re
from dataclasses import replace
from pathlib import Path

import pytest

import engine.verbs
from engine.actions import player_target
from engine.agents.values import View, board_affinity, effect_value, effects_value, resource_gain
from engine.board import VictoryKind
from engine.cards import CardType, Effect, Side, Target, TargetKind
from engine.effects import push_origins, resolve
from engine.keywords import CARD_TYPE_WORDS, parse_keywords
from engine.language import parse_effect
from engine.verbs import VERBS, Registry, Verb
from engine.verbs.board import DAMAGE, HEAL
from engine.wording import render_effect
from engine.words import LanguageError
from tests.builder import Position, board, equipment, spell, unit
from workbench.content.card_sets import load_cardsets

DOCS = Path(__file__).resolve().parent.parent / "docs" / "engine.md"
LEECH = unit("Leech", life=4)
SOLDIER = unit("Soldier", life=3)
SWORD = equipment("Sword", durability=1)


def _example() -> str:
    """The first python block of docs/engine.md's section "Adding a verb"."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("## Adding a verb", 1)[1].split("\n## ", 1)[0]
    match = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert match is not None, "docs/engine.md: 'Adding a verb' has no python block"
    return match.group(1)


@pytest.fixture
def drain(monkeypatch: pytest.MonkeyPatch) -> Verb:
    """The docs' DRAIN, built from the block as written, in a registry of its own."""
    namespace: dict[str, object] = {}
    exec(compile(_example(), str(DOCS), "exec"), namespace)  # noqa: S102 (our own docs)
    verb = namespace["DRAIN"]
    assert isinstance(verb, Verb)
    monkeypatch.setattr(engine.verbs, "VERBS", Registry((*VERBS.values(), verb)))
    return verb


def _position() -> tuple[Position, int, int]:
    """A damaged Leech of seat 0 next to a damaged Soldier of seat 1 and a Sword lying on the
    board; resource and a card in each deck and hand."""
    pos = Position(board("0 . .\n. . 1"), catalog=[LEECH, SOLDIER, SWORD])
    leech = pos.put(LEECH, 0, 0, 0, damage=3)
    soldier = pos.put(SOLDIER, 1, 1, 0, damage=1)
    pos.put(SWORD, 1, 0, 1)
    for seat in (0, 1):
        pos.resource(seat, 3).deck(seat, SOLDIER)
        pos.hand(seat, SOLDIER)
    return pos, leech, soldier


DRAIN_2 = Effect("drain", 2, Target(TargetKind.UNIT, Side.ENEMY, False, 1))


def test_docs_example_parses_in_english_and_german(drain: Verb) -> None:
    assert parse_effect("drain 2 to target enemy unit in range 1") == DRAIN_2
    assert parse_effect("entziehe 2 ziel gegnerische einheit in reichweite 1") == DRAIN_2
    with pytest.raises(LanguageError, match="drain cannot target opponent"):
        parse_effect("drain 1 from target opponent")


def test_docs_example_is_written_back(drain: Verb) -> None:
    text = render_effect(DRAIN_2)
    assert text == "drain 2 to target enemy unit in range 1"
    assert parse_effect(text) == DRAIN_2


def test_docs_example_resolves_as_documented(drain: Verb) -> None:
    """N damage to the target, the source heals what it took (here all of it)."""
    pos, leech, soldier = _position()
    resolve(pos.state, 0, leech, (DRAIN_2,), soldier)
    assert pos.perm(soldier).damage == 1 + 2 and pos.perm(leech).damage == 3 - 2
    heals = [
        (k, c)
        for k, c in zip(pos.state.events.kind, pos.state.events.card_id, strict=True)
        if k == "heal"
    ]
    assert heals == [("heal", leech)]


def test_docs_example_has_a_value_for_the_agents(drain: Verb) -> None:
    pos, leech, soldier = _position()
    view = View(pos.state, 0)
    damage, heal = (
        verb.value(view, leech, DRAIN_2, [soldier] if verb is DAMAGE else [leech], -1)
        for verb in (DAMAGE, HEAL)
    )
    assert damage > 0 and heal > 0
    assert effect_value(view, leech, (DRAIN_2,), soldier) == damage + heal
    assert effects_value((DRAIN_2,)) == 2.0 * 2


def test_a_verb_that_pushes_or_gains_says_so_on_its_entry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A new verb flagged `pushes` has its origin fields offered as push has (R14.1), one
    flagged `gains` is counted as resource by the agents as gain is (R18.1, R19.2): the entry's
    flags say it, not the verb's name. A spell pushing the enemy Soldier offers origin fields
    with "shove" as with "push" (none with "damage"); "earn 2" brings 2 resource as "gain 2"
    does, "steal 2" the 2 of the opponent's 3, every other verb none."""
    shove = replace(VERBS["push"], name="shove", aliases=("schubse",))
    earn = replace(VERBS["gain"], name="earn", aliases=("verdiene",))
    monkeypatch.setattr(engine.verbs, "VERBS", Registry((*VERBS.values(), shove, earn)))
    pos, _, soldier = _position()
    (bolt,) = pos.hand(0, spell("Shove"))
    enemy = Target(TargetKind.UNIT, Side.ENEMY, False, None)
    origins = {
        verb: push_origins(pos.state, 0, bolt, (Effect(verb, 1, enemy),), soldier)
        for verb in ("push", "shove", "damage")
    }
    assert origins["shove"] == origins["push"] != [] and origins["damage"] == []
    view = View(pos.state, 0)
    every = engine.verbs.VERBS
    gains = {v: resource_gain(view, bolt, (Effect(v, 2, Target()),), -1) for v in every}
    assert gains == dict.fromkeys(every, 0) | {"gain": 2, "earn": 2, "steal": 2}
    earning, gaining = (
        board_affinity(spell(v, Effect(v, 1, Target())), VictoryKind.RESOURCE)
        for v in ("earn", "gain")
    )
    assert earning == gaining == 3.0


def _sample(verb: Verb) -> Effect:
    """An effect of `verb` the way a card would write it, aimed at something it acts on in
    `_position`: a unit or equipment in range 1, or its default target."""
    if verb.card:
        return Effect(verb.name, 2, Target(), SOLDIER.name)
    amount = 2 if verb.amount else 1
    for kind in (TargetKind.UNIT, TargetKind.EQUIPMENT):
        if kind in verb.targets and not verb.own:
            return Effect(verb.name, amount, Target(kind, Side.ANY, False, 1))
    return Effect(verb.name, amount, Target(verb.default or TargetKind.NONE))


@pytest.mark.parametrize("name", sorted(VERBS))
def test_every_verb_has_all_four_parts(name: str) -> None:
    """Words (each alias parses, the wording round trips), an effect that resolves in a small
    position, a value to the agents, a worth on a card."""
    verb = VERBS[name]
    e = _sample(verb)
    text = render_effect(e)
    assert parse_effect(text) == e
    for alias in verb.aliases:
        assert parse_effect(text.replace(name, alias, 1)) == e
    pos, leech, soldier = _position()
    kind = e.target.kind
    chosen = (
        player_target(1)
        if kind is TargetKind.OPPONENT
        else soldier
        if kind is TargetKind.UNIT
        else pos.state.occ[pos.f(0, 1)]
        if kind is TargetKind.EQUIPMENT
        else -1
    )
    worth = verb.value(View(pos.state, 0), leech, e, [chosen] if chosen >= 0 else [], -1)
    assert isinstance(worth, float) and math.isfinite(worth)
    assert isinstance(verb.card_worth, float) and verb.card_worth != 0.0
    before = len(pos.state.events)
    resolve(pos.state, 0, leech, (e,), chosen)
    assert len(pos.state.events) > before or pos.state.pending, f"{name} did nothing"


def test_every_verb_is_in_the_card_language_docs() -> None:
    table = (DOCS.parent / "card-language.md").read_text(encoding="utf-8")
    assert [n for n in VERBS if f"| `{n}" not in table] == []


def test_a_word_names_one_verb() -> None:
    with pytest.raises(ValueError, match="'damage' registered twice"):
        Registry((*VERBS.values(), DAMAGE))
    with pytest.raises(ValueError, match="'schaden' names two verbs"):
        Registry((*VERBS.values(), Verb("hurt", ("schaden",), DAMAGE.effect, DAMAGE.value, 1.0)))


# --- one table of card-type words -------------------------------------------------------

TYPE_WORDS = [(t, w) for t, words in CARD_TYPE_WORDS.items() for w in (t.value, *words)]


def test_every_card_type_has_its_words() -> None:
    assert set(CARD_TYPE_WORDS) == set(CardType)


@pytest.mark.parametrize(("ctype", "word"), TYPE_WORDS)
def test_the_loader_and_the_language_read_the_same_type_words(
    ctype: CardType, word: str, tmp_path: Path
) -> None:
    """R8.4 types: a card sheet's `type` column and `protection from X` (R11.4) take the same
    words, from the one table."""
    path = tmp_path / "set.csv"
    with path.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(
            [
                ["name", "type", "life", "move", "attack", "durability"],
                [
                    "Thing",
                    word,
                    *(["1", "1", "1"] if ctype is CardType.UNIT else ["", "", ""]),
                    "1" if ctype.is_equipment else "",
                ],
            ]
        )
    [card_set] = load_cardsets(path)
    assert card_set.cards[0].type is ctype
    [protection] = parse_keywords(f"protection from {word}").protections
    assert protection.type is ctype
