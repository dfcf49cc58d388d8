"""Variants of a setup: one change, nothing else touched, same change same config."""

from __future__ import annotations

import statistics

import pytest

from engine.cards import CardType, Effect
from workbench.content.setup import Setup, load_setup
from workbench.content.variants import Change, apply_change, baseline_of, card_value


@pytest.fixture(scope="module")
def setup() -> Setup:
    return load_setup()


def test_card_field_change_reaches_pool_catalog_and_sets(setup: Setup) -> None:
    card = setup.sets[0].cards[0]
    v = apply_change(setup, Change(card=card.name, field="buy", value=7))
    key = card.name.casefold()
    assert v.config.catalog[key].buy == 7
    assert [c.buy for c in v.config.pool if c.name == card.name] == [7]
    assert [c.buy for c in v.sets[0].cards if c.name == card.name] == [7]
    others = [(c.name, c.buy) for c in v.config.pool if c.name != card.name]
    assert others == [(c.name, c.buy) for c in setup.config.pool if c.name != card.name]
    assert setup.config.catalog[key].buy == card.buy, "the original setup is untouched"
    assert v.content_hash != setup.content_hash


def test_same_change_same_config(setup: Setup) -> None:
    card = setup.sets[0].cards[1].name
    a = apply_change(setup, Change(card=card, field="upkeep", value=0))
    b = apply_change(setup, Change(card=card, field="upkeep", value=0))
    assert a.config.pool == b.config.pool and a.content_hash == b.content_hash


def test_none_removes_a_buy_price(setup: Setup) -> None:
    card = setup.sets[0].cards[0].name
    v = apply_change(setup, Change(card=card, field="buy", value=None))
    assert card_value(v.config.catalog[card.casefold()], "buy") is None


def test_armor_is_the_keyword_number(setup: Setup) -> None:
    card = setup.sets[0].cards[0].name
    v = apply_change(setup, Change(card=card, field="armor", value=3))
    assert v.config.catalog[card.casefold()].keywords.armor == 3


@pytest.mark.parametrize(
    "setting, value, read",
    [
        ("income", 5, lambda b: b.income),
        ("round_limit", 9, lambda b: b.round_limit),
        ("victory_target", 12, lambda b: b.victory.target),
    ],
)
def test_board_setting(setup: Setup, setting: str, value: int, read: object) -> None:
    v = apply_change(setup, Change(setting=setting, value=value))
    assert read(v.config.board) == value  # type: ignore[operator]
    assert v.config.geometry.width == setup.config.board.width


@pytest.mark.parametrize(
    "change, message",
    [
        (Change(card="No Such Card", field="buy", value=1), "no card 'No Such Card'"),
        (Change(card="Legionary", field="colour", value=1), "cannot vary card field 'colour'"),
        (Change(card="Legionary", field="buy", value=-1), "must not be negative"),
        (Change(setting="gravity", value=1), "cannot vary board setting 'gravity'"),
        (Change(setting="round_limit", value=0), "round_limit must be at least 1"),
    ],
)
def test_bad_changes_are_named(setup: Setup, change: Change, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        apply_change(setup, change)


def test_baseline_unit_takes_median_stats_of_same_cost_units(setup: Setup) -> None:
    pool = setup.config.pool
    unit = next(c for c in pool if c.type is CardType.UNIT and c.keywords.armor)
    base = baseline_of(unit, pool)
    peers = sorted(
        c.life or 0
        for c in pool
        if c.type is CardType.UNIT and c.buy == unit.buy and c.name != unit.name
    )
    assert base.buy == unit.buy and base.upkeep == unit.upkeep and base.play == unit.play
    assert base.keywords.armor == 0 and not base.triggers and not base.effects
    if peers:
        assert base.life == max(1, int(statistics.median(peers)))


def test_baseline_spell_gains_play_cost_plus_one(setup: Setup) -> None:
    spell = next(c for c in setup.config.pool if c.type is CardType.SPELL)
    assert baseline_of(spell, setup.config.pool).effects == (Effect("gain", (spell.play or 0) + 1),)
