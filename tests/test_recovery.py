"""The recovery benchmark's pieces: the plant generator
(workbench/studies/plants.py) on hand-made cards and a hand-made set, and the scoring
(workbench/studies/recovery.py) on hand-made report tables whose figures are worked out here."""

from __future__ import annotations

import csv
import math
from pathlib import Path
from typing import Any

import pytest

from engine.cards import Card, CardType, Effect
from workbench.content.card_sets import load_cardsets, shipped_cardsets
from workbench.studies import plants as pl
from workbench.studies import recovery as rc
from workbench.studies import recovery_cases as rc_cases
from workbench.studies.plants import Direction, Plant, Size

STRONG, WEAK = Direction.STRONG, Direction.WEAK

SET_CSV = """name,type,copies,buy,play,upkeep,life,move,attack,range,effect,free action,text
Brute,unit,2,5,1,2,3,2,2,1,,,A body.
Bolt,spell,2,2,1,,,,,,damage 1 to target enemy unit in range 1,,One damage.
Flask,potion,2,1,0,,,,,,,use: heal 3 to target friendly unit in range 1,Heal 3.
Mason,unit,1,3,1,1,2,2,1,1,,pay 1: create Barricade,Builds.
Ward,artifact,1,3,1,,,,,,,pay 1: protect 1 to target friendly unit in range 1,Shields.
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def card(name: str, kind: CardType = CardType.UNIT, **fields: object) -> Card:
    return Card(name, "test", kind, **fields)  # type: ignore[arg-type]


# --- the generator -------------------------------------------------------------------------------


def test_the_first_cases_mix_types_sizes_and_directions() -> None:
    slots = [pl.slot(i) for i in range(20)]
    assert [s.type for s in slots[:5]] == list(pl.TYPES)
    assert (slots[0].size, slots[0].direction) == (Size.LARGE, STRONG)
    assert (slots[1].size, slots[1].direction) == (Size.MODERATE, STRONG)
    assert (slots[2].size, slots[2].direction) == (Size.LARGE, WEAK)
    assert (slots[3].size, slots[3].direction) == (Size.MODERATE, WEAK)
    for kind in pl.TYPES:  # each type meets all four size x direction within 20 cases
        assert {(s.size, s.direction) for s in slots if s.type is kind} == {
            (a, b) for a in Size for b in Direction
        }
    units = [s.fields[0] for s in slots if s.type is CardType.UNIT]
    assert units == ["buy", "upkeep", "effect", "play"]  # the unit's fields in turn


def test_a_plant_moves_the_number_the_planted_way_by_its_size() -> None:
    brute = card("Brute", buy=5, play=1, upkeep=2)
    assert [(p.old, p.new) for p in pl.plants_of(brute, "buy", Size.LARGE, STRONG)] == [(5, 1)]
    assert [(p.old, p.new) for p in pl.plants_of(brute, "buy", Size.LARGE, WEAK)] == [(5, 9)]
    assert [(p.old, p.new) for p in pl.plants_of(brute, "buy", Size.MODERATE, WEAK)] == [(5, 6)]
    assert [(p.old, p.new) for p in pl.plants_of(brute, "upkeep", Size.LARGE, STRONG)] == [(2, 0)]
    assert [(p.old, p.new) for p in pl.plants_of(brute, "play", Size.LARGE, WEAK)] == [(1, 3)]
    # out of range: no buy price below 1, no play cost below 0
    assert pl.plants_of(card("Cheap", buy=4, play=1), "buy", Size.LARGE, STRONG) == []
    assert pl.plants_of(brute, "play", Size.LARGE, STRONG) == []
    # only units have an upkeep to plant; a card without a buy price is never drafted
    spell = card("Zap", CardType.SPELL, buy=2, play=1, effects=(Effect("damage", 2),))
    assert pl.plants_of(spell, "upkeep", Size.MODERATE, STRONG) == []
    assert pl.plants_of(card("Token", buy=None, play=1), "play", Size.MODERATE, WEAK) == []


def test_a_units_attack_and_life_are_planted_upwards_for_stronger() -> None:
    """R12.1: more attack or life is a stronger unit; a large step is 2, a moderate 1, and
    neither goes below 1. Only units have them."""
    brute = card("Brute", buy=5, play=1, upkeep=2, attack=2, life=3)
    assert [(p.old, p.new) for p in pl.plants_of(brute, "attack", Size.LARGE, STRONG)] == [(2, 4)]
    assert [(p.old, p.new) for p in pl.plants_of(brute, "life", Size.LARGE, WEAK)] == [(3, 1)]
    assert [(p.old, p.new) for p in pl.plants_of(brute, "attack", Size.MODERATE, WEAK)] == [(2, 1)]
    assert pl.plants_of(brute, "attack", Size.LARGE, WEAK) == []  # 2 - 2 = 0 < 1
    zap = card("Zap", CardType.SPELL, buy=2, play=1, effects=(Effect("damage", 2),))
    assert pl.plants_of(zap, "attack", Size.MODERATE, STRONG) == []


def test_a_case_list_of_units_cycles_through_the_fields_it_asks_for() -> None:
    """kinds (unit,) and fields (upkeep, attack, life): the field turns with period 3, the size
    with period 2 and the direction with period 4, so 12 cases meet every combination; a field
    the type cannot take is left out (a spell asked for attack plants its own fields)."""
    units, fields = (CardType.UNIT,), ("upkeep", "attack", "life")
    slots = [pl.slot(i, kinds=units, fields=fields) for i in range(12)]
    assert [s.fields[0] for s in slots[:4]] == ["upkeep", "attack", "life", "upkeep"]
    assert slots[1].fields == ("attack", "life", "upkeep")
    assert {(s.fields[0], s.size, s.direction) for s in slots} == {
        (f, a, b) for f in fields for a in Size for b in Direction
    }
    assert pl.slot(0, CardType.SPELL, units, fields).fields == pl.TYPE_FIELDS[CardType.SPELL]
    assert pl.slot(7) == pl.slot(7, kinds=pl.TYPES)  # the default list: every type's own fields


def test_an_effect_plant_changes_a_number_whose_growth_helps_the_owner() -> None:
    spell = card(
        "Deal",
        CardType.SPELL,
        buy=2,
        play=0,
        effects=(Effect("sacrifice", 1), Effect("damage", 2), Effect("draw", 1)),
    )
    large = pl.plants_of(spell, "effect", Size.LARGE, STRONG)
    assert {(p.verb, p.old, p.new) for p in large} == {("damage", 2, 4), ("draw", 1, 3)}
    # weaker: damage 2 -> 0 and draw 1 -> -1 would leave the range; sacrifice is never planted
    assert pl.plants_of(spell, "effect", Size.LARGE, WEAK) == []
    assert {(p.verb, p.new) for p in pl.plants_of(spell, "effect", Size.MODERATE, WEAK)} == {
        ("damage", 1)
    }


def test_choose_plant_skips_taken_and_excluded_cards() -> None:
    units = [card(n, buy=5, play=1, upkeep=2) for n in ("Ann", "Bob", "Cid")]
    got = pl.choose_plant(0, units, 7, {("Ann", "buy")}, {"bob"})
    assert got is not None and (got.card, got.field, got.new) == ("Cid", "buy", 1)
    # every buy taken: the next field of the slot (upkeep 2 -> 0)
    got = pl.choose_plant(0, units, 7, {("Cid", "buy"), ("Ann", "buy")}, {"bob"})
    assert got is not None and (got.field, got.old, got.new) == ("upkeep", 2, 0)
    assert got.card in ("Ann", "Cid")
    # case 0 wants a unit: no unit, no plant
    spells = [card("Zap", CardType.SPELL, buy=5, play=1)]
    assert pl.choose_plant(0, spells, 7, set(), set()) is None
    # ... unless the case is given another type: slot 0's size, direction and first field
    got = pl.choose_plant(0, spells, 7, set(), set(), pl.slot(0, CardType.SPELL))
    assert got is not None and (got.card, got.field, got.old, got.new) == ("Zap", "buy", 5, 1)


@pytest.fixture
def handmade(tmp_path: Path) -> tuple[Path, list[Card]]:
    source = write(tmp_path / "src" / "handmade.csv", SET_CSV)
    (cardset,) = load_cardsets(source, shipped_cardsets())
    return source, list(cardset.cards)


def test_a_card_planted_in_a_field_on_the_board_before_is_not_planted_there_again(
    tmp_path: Path,
) -> None:
    """A case list that comes back to a board and set (seven boards, two sets: every 14th run)
    plants other cards or fields than the cases before it there: the same plant twice would
    count one plant's recall twice."""
    home = next(s for s in shipped_cardsets() if s.name == "iron-legion")
    kinds = ((CardType.UNIT,), ("upkeep", "attack"))
    first = rc_cases.run_plants(0, 4, 1, home, set(), kinds, tmp_path / "a")
    planted = frozenset((p.card, p.field) for p in first)
    again = rc_cases.run_plants(0, 4, 1, home, set(), kinds, tmp_path / "b", planted)
    assert len(first) == len(again) == 4
    assert not planted & {(p.card, p.field) for p in again}
    assert [(p.size, p.direction) for p in again] == [(p.size, p.direction) for p in first]


def test_cases_on_another_set_pair_keep_their_own_truth_and_the_board_s_plants(
    tmp_path: Path,
) -> None:
    """Cases on a board with sets other than its BOARDS pair are kept under their own content
    (its truth and unplanted run are of those sets), and plant no card in a field an earlier
    case planted on that board with its usual pair."""
    pair = ("iron-legion", "tide-callers")
    asked: list[rc_cases.Content] = []

    def truth(content: rc_cases.Content) -> dict[str, dict[str, object]]:
        asked.append(content)
        row = {"effect": 0.0, "n_forced": 100, "bought_forced": 90, "played_forced": 90}
        return {c.name: dict(row) for s in shipped_cardsets() if s.name in pair for c in s.cards}

    kinds = ((CardType.UNIT,), ("upkeep",))
    home = next(s for s in shipped_cardsets() if s.name == "iron-legion")
    earlier = rc_cases.run_plants(0, 4, 1, home, set(), kinds, tmp_path / "a")
    before = [
        {"board": board, "plant": {"card": p.card, "field": p.field}}
        for board in ("three-hills", "kings-crossing")
        for p in earlier
    ]
    cases = rc_cases.make_cases(
        4, 1, truth, set(), tmp_path / "b", kinds, before, (("three-hills", pair),)
    )[8:]
    assert asked == [("three-hills", pair)]
    assert {c["run"] for c in cases} == {"r03"}
    assert all(c["sets"] == list(pair) and c["board"] == "three-hills" for c in cases)
    assert {c["plant"]["set"] for c in cases} == {"iron-legion"}  # run 3: the pair's first set
    assert len(cases) == 4
    assert not {(p.card, p.field) for p in earlier} & {
        (c["plant"]["card"], c["plant"]["field"]) for c in cases
    }
    assert rc_cases.content_key("three-hills", pair) == "three-hills+iron-legion+tide-callers"
    assert rc_cases.content_key("three-hills", rc_cases.BOARDS["three-hills"]) == "three-hills"
    assert rc_cases.parse_contents("three-hills=iron-legion,tide-callers") == (
        ("three-hills", pair),
    )
    with pytest.raises(ValueError, match="'three-hill=iron-legion,tide-callers': BOARD=SET,SET"):
        rc_cases.parse_contents("three-hill=iron-legion,tide-callers")


def changed_cells(target: Path) -> list[tuple[int, int, str, str]]:
    """(row, column, before, after) of every cell of the copy `target` that differs from
    SET_CSV."""
    rows = list(csv.reader(target.read_text(encoding="utf-8").splitlines()))
    before = list(csv.reader(SET_CSV.splitlines()))
    return [
        (i, j, a, b)
        for i, (r, s) in enumerate(zip(before, rows, strict=True))
        for j, (a, b) in enumerate(zip(r, s, strict=True))
        if a != b
    ]


def _plant(cards: list[Card], name: str, field: str, size: Size, way: Direction) -> Plant:
    (only,) = pl.plants_of(next(c for c in cards if c.name == name), field, size, way)
    return only


def test_write_planted_changes_only_the_planted_cell(
    tmp_path: Path, handmade: tuple[Path, list[Card]]
) -> None:
    source, cards = handmade
    catalog = shipped_cardsets()
    (original,) = load_cardsets(source, catalog)
    plant = _plant(cards, "Brute", "buy", Size.LARGE, STRONG)
    target = pl.write_planted(source, original, [plant], tmp_path / "out" / "handmade.csv", catalog)
    changed = changed_cells(target)
    assert changed == [(1, 3, "5", "1")]  # Brute's buy: 5 -> 1, nothing else


def test_several_plants_go_into_one_copy_each_in_its_own_cell(
    tmp_path: Path, handmade: tuple[Path, list[Card]]
) -> None:
    """Brute's buy 5 -> 1 and Bolt's damage 1 -> 2 in one copy: two cells change, the range
    of Bolt's cell stays 1, and the copy loads with both plants and every other card alike."""
    source, cards = handmade
    catalog = shipped_cardsets()
    (original,) = load_cardsets(source, catalog)
    brute = _plant(cards, "Brute", "buy", Size.LARGE, STRONG)
    bolt = _plant(cards, "Bolt", "effect", Size.MODERATE, STRONG)
    target = tmp_path / "out" / "handmade.csv"
    pl.write_planted(source, original, [brute, bolt], target, catalog)
    changed = [(i, j, b) for i, j, _, b in changed_cells(target)]
    assert changed == [(1, 3, "1"), (2, 10, "damage 2 to target enemy unit in range 1")]
    (copy,) = load_cardsets(target, catalog)
    planted = {c.name: c for c in copy.cards}
    assert planted["Brute"].buy == 1 and pl.is_planted(cards[1], planted["Bolt"], bolt)
    assert [planted[c.name] for c in cards[2:]] == cards[2:]


def test_a_stat_plant_changes_the_units_column(
    tmp_path: Path, handmade: tuple[Path, list[Card]]
) -> None:
    """Brute's attack 2 -> 4 (the column `attack`, the 9th): one cell, the copy loads with it."""
    source, cards = handmade
    catalog = shipped_cardsets()
    (original,) = load_cardsets(source, catalog)
    plant = _plant(cards, "Brute", "attack", Size.LARGE, STRONG)
    target = pl.write_planted(source, original, [plant], tmp_path / "o" / "handmade.csv", catalog)
    changed = changed_cells(target)
    assert changed == [(1, 8, "2", "4")]
    (copy,) = load_cardsets(target, catalog)
    assert copy.cards[0].attack == 4 and copy.cards[1:] == tuple(cards[1:])


def test_an_effect_plant_finds_the_effect_number_not_a_range(
    tmp_path: Path, handmade: tuple[Path, list[Card]]
) -> None:
    """Bolt's cell is `damage 1 to target enemy unit in range 1`: the plant damage 1 -> 2 must
    change the first 1, which the check by loading tells from the range's."""
    source, cards = handmade
    catalog = shipped_cardsets()
    (original,) = load_cardsets(source, catalog)
    plant = _plant(cards, "Bolt", "effect", Size.MODERATE, STRONG)
    target = pl.write_planted(source, original, [plant], tmp_path / "out" / "handmade.csv", catalog)
    (planted,) = load_cardsets(target, catalog)
    bolt = next(c for c in planted.cards if c.name == "Bolt")
    assert [(e.verb, e.amount, e.target.range) for e in bolt.effects] == [("damage", 2, 1)]
    assert "damage 2 to target enemy unit in range 1" in target.read_text(encoding="utf-8")
    flask = _plant(cards, "Flask", "effect", Size.LARGE, WEAK)  # heal 3 -> 1 in `use: ...`
    target = pl.write_planted(source, original, [flask], tmp_path / "out" / "handmade.csv", catalog)
    assert "use: heal 1 to target friendly unit in range 1" in target.read_text(encoding="utf-8")
    # Ward's `pay 1: protect 1 ... range 1`: the first 1 is the cost, the second the effect's
    ward = _plant(cards, "Ward", "effect", Size.MODERATE, STRONG)
    target = pl.write_planted(source, original, [ward], tmp_path / "out" / "handmade.csv", catalog)
    text = target.read_text(encoding="utf-8")
    assert "pay 1: protect 2 to target friendly unit in range 1" in text


def test_a_plant_no_cell_carries_is_refused(
    tmp_path: Path, handmade: tuple[Path, list[Card]]
) -> None:
    """Mason's `create Barricade` has the number 1 without writing it: no cell to change."""
    source, cards = handmade
    catalog = shipped_cardsets()
    (original,) = load_cardsets(source, catalog)
    plant = _plant(cards, "Mason", "effect", Size.MODERATE, STRONG)
    assert (plant.verb, plant.old, plant.new) == ("create", 1, 2)
    with pytest.raises(ValueError, match="no cell carries"):
        pl.write_planted(source, original, [plant], tmp_path / "out" / "handmade.csv", catalog)
    assert not (tmp_path / "out" / "handmade.csv").exists()


def test_a_shipped_workbook_is_copied_to_a_csv_that_loads_alike(tmp_path: Path) -> None:
    catalog = shipped_cardsets()
    sky = next(s for s in catalog if s.name == "sky-wardens")
    source = Path(sky.source.split("#")[0])
    target = pl.write_original(source, sky, tmp_path / "sky-wardens.csv", catalog)
    (copy,) = load_cardsets(target, catalog)
    assert copy.cards == sky.cards


# --- scoring ---------------------------------------------------------------------------------


def table(path: Path, header: str, *rows: str) -> None:
    write(path, "\n".join([header, *rows]) + "\n")


def test_named_cards_read_as_the_findings_name_them(tmp_path: Path) -> None:
    """Before the verdicts table: the cards table's verdict (improvement when bought
    past Benjamini-Hochberg), the dead cards and the Kraken-like ones as too weak."""
    tables = tmp_path / "tables"
    table(
        tables / "cards.csv",
        "card,set,bought_gain,bought_gain_bh",
        "Ace,s,0.20,0.01",  # too strong
        "Bog,s,-0.15,0.02",  # too weak
        "Cat,s,0.30,0.20",  # fine: not past the correction
        "Dud,s,,",  # no estimate
    )
    table(tables / "dead_cards.csv", "card,set,reason", "Elk,s,never affordable")
    table(tables / "drafted_cards.csv", "board,card,kraken", "B,Fox,true", "B,Gnu,false")
    assert rc.named_cards(tables) == {
        "Ace": {STRONG},
        "Bog": {WEAK},
        "Elk": {WEAK},
        "Fox": {WEAK},
    }


def test_a_verdicts_table_decides_alone(tmp_path: Path) -> None:
    tables = tmp_path / "tables"
    table(
        tables / "card_verdicts.csv",
        "card,verdict,estimator,effect,low,high,n,severity",
        "Ace,too strong,forced vs banned,0.2,0.1,0.3,400,high",
        "Bog,too weak,forced vs banned,-0.2,-0.3,-0.1,400,high",
        "Cat,fine,forced vs banned,0.0,-0.05,0.05,400,",
        "Dud,agents do not use it,,,,,0,",
        "Elk,no estimate,,,,,0,",
    )
    table(tables / "dead_cards.csv", "card,set,reason", "Elk,s,never affordable")
    assert rc.named_cards(tables) == {"Ace": {STRONG}, "Bog": {WEAK}}


def test_direction_of_verdict_words() -> None:
    assert rc.direction_of("too strong") is STRONG
    assert rc.direction_of("Too cheap for its numbers") is STRONG
    assert rc.direction_of("dead: a randomised buyer finds it worthless") is WEAK
    assert rc.direction_of("rarely bought") is WEAK
    assert rc.direction_of("fine (could have found 4 points)") is None
    assert rc.direction_of("the agents do not use it: no verdict") is None


def test_score_counts_recall_and_the_new_names_only() -> None:
    """Planted X too strong. The planted run names X strong, A strong, B weak, C weak; the
    unplanted run names A strong and B strong. Recalled; 4 named; false alarms B (named weak
    now, strong before) and C (not named before): 2 of 4."""
    planted = {
        "X": frozenset({STRONG}),
        "A": frozenset({STRONG}),
        "B": frozenset({WEAK}),
        "C": frozenset({WEAK}),
    }
    unplanted = {"a": frozenset({STRONG}), "B": frozenset({STRONG})}
    got = rc.score("x", STRONG, planted, unplanted)
    assert got == rc.CaseScore(True, 4, ("B", "C"))
    assert rc.score("X", WEAK, planted, unplanted).recalled is False  # the wrong way
    # A planted strong, named so by the unplanted run too: recalled, but not news
    assert rc.score("A", STRONG, planted, unplanted) == rc.CaseScore(True, 4, ("B", "C", "X"), True)
    assert rc.score("X", STRONG, {}, unplanted) == rc.CaseScore(False, 0, ())
    # C planted in the same run: named so by its own plant, not a false alarm of X's
    assert rc.score("x", STRONG, planted, unplanted, ["c"]) == rc.CaseScore(True, 4, ("B",))


def test_tune_proposal_is_read_for_the_planted_field(tmp_path: Path) -> None:
    path = tmp_path / "proposals.csv"
    table(
        path,
        "file,copy,sheet,row,column,card,field,old,new",
        "f,c,s,2,D,Brute,buy,1,3",
        "f,c,s,3,F,Bolt,upkeep,0,1",
    )
    assert rc.proposal(path, "brute", "buy") == 3
    assert rc.proposal(path, "Bolt", "buy") is None  # upkeep proposed, not the planted buy
    assert rc.proposal(tmp_path / "none.csv", "Brute", "buy") is None


def result(
    size: Size,
    confirmed: bool,
    recalled: bool,
    named: int,
    alarms: int,
    correction: int | None = None,
    tuned: bool = False,
    kind: str = "unit",
    victory: str = "vip",
    games: int = 100,
    run: str = "",
    field: str = "buy",
) -> rc.CaseResult:
    return rc.CaseResult(
        kind,
        victory,
        size,
        confirmed,
        recalled,
        named,
        alarms,
        tuned,
        correction,
        games,
        10.0,
        run,
        field,
    )


def test_summary_figures_worked_out_by_hand() -> None:
    """Six cases in five runs, the first two planted in one run (r1: its 5 names, 1 alarm and
    100 games counted once): large confirmed 3 (2 recalled), large unconfirmed 1 (recalled:
    does not count), moderate confirmed 2 (1 recalled). Named 5+6+5+0+0 = 16 cards, 1+2 = 3
    false alarms, unconfirmed cases included; games per run 100, 200, 400, 500, 600 (median
    400). Tune ran on 2 confirmed large plants, one put back within 1 (|d| 1), one with no
    proposal; the tuned unconfirmed one does not count."""
    L, M = Size.LARGE, Size.MODERATE
    cases = [
        result(L, True, True, 5, 1, correction=1, tuned=True, games=100, run="r1"),
        result(L, True, True, 5, 1, correction=None, tuned=True, games=100, run="r1"),
        result(L, True, False, 6, 2, kind="spell", victory="resource", games=200, run="r2"),
        result(L, False, True, 5, 0, correction=0, tuned=True, games=400, run="r3"),
        result(M, True, True, 0, 0, kind="spell", games=500, run="r4", field="effect"),
        result(M, True, False, 0, 0, games=600, run="r5"),
    ]
    rows = rc.summary(cases)
    overall = rows[0]
    assert overall == {
        "group": "all",
        "cases": "6",
        "confirmed": "5",
        "recall large": "2/3 (67%)",
        "recall moderate": "1/2 (50%)",
        "named, any plant": "4/6 (67%)",
        "false alarms": "3/16 (19%)",
        "tune within 1 (large)": "1/2 (50%)",
        "runs": "5",
        "games/run": "400",
        "CPU s/run": "10",
    }
    by_group = {r["group"]: r for r in rows}
    assert set(by_group) == {
        "all",
        "type spell",
        "type unit",
        "victory resource",
        "victory vip",
        "field buy",
        "field effect",
    }
    assert by_group["field effect"]["recall moderate"] == "1/1 (100%)"
    assert by_group["field buy"]["confirmed"] == "4"
    assert by_group["type spell"]["recall large"] == "0/1 (0%)"
    assert by_group["type spell"]["recall moderate"] == "1/1 (100%)"
    assert by_group["victory resource"]["false alarms"] == "2/6 (33%)"
    assert by_group["type unit"]["tune within 1 (large)"] == "1/2 (50%)"


def _row(
    effect: float | None, se: float, n_forced: int = 400, bought: int = 320, played: int = 300
) -> dict[str, Any]:
    """An effect row of causal.card_effects with a 95% interval of effect +- 1.96 se."""
    z = 1.959964
    return {
        "effect": effect,
        "se": se,
        "low": None if effect is None else effect - z * se,
        "high": None if effect is None else effect + z * se,
        "n_forced": n_forced,
        "bought_forced": bought,
        "played_forced": played,
    }


def test_a_plant_is_confirmed_beyond_the_band_and_moved_the_planted_way() -> None:
    """+0.15 +- 1.96 * 0.03 = [0.091, 0.209] lies above the band 0.05; from +0.02 (se 0.03)
    the shift +0.13 has half-width 1.96 * sqrt(0.03^2 + 0.03^2) = 0.0832: [0.047, 0.213]."""
    truth = rc.confirmed(_row(0.15, 0.03), _row(0.02, 0.03), Direction.STRONG, 0.05)
    assert truth.confirmed
    assert truth.shift == pytest.approx(0.13)
    assert truth.shift_low == pytest.approx(0.13 - 1.959964 * math.sqrt(2) * 0.03)
    # the same effect planted the other way is no "too weak" plant
    assert not rc.confirmed(_row(0.15, 0.03), _row(0.02, 0.03), Direction.WEAK, 0.05).confirmed
    # beyond the band but already so before: the shift +0.03 is inside its noise
    assert not rc.confirmed(_row(0.15, 0.03), _row(0.12, 0.03), Direction.STRONG, 0.05).confirmed
    # moved, but not beyond the band with the whole interval: 0.09 - 0.0588 = 0.031 < 0.05
    assert not rc.confirmed(_row(0.09, 0.03), _row(-0.05, 0.03), Direction.STRONG, 0.05).confirmed
    # a weak plant: [-0.199, -0.081] below -0.05, shift -0.16 [-0.243, -0.077]
    assert rc.confirmed(_row(-0.14, 0.03), _row(0.02, 0.03), Direction.WEAK, 0.05).confirmed


def test_a_plant_the_agents_do_not_use_or_price_out_is_judged_by_that() -> None:
    """Forced seats that bought it but hardly played it (50 of 320): no truth. Made dearer so
    that 60 of 400 forced seats could pay for it (under 20%) while the original was bought by
    320: confirmed too weak, whatever its effect."""
    unused = _row(0.2, 0.03, played=50)
    assert not rc.confirmed(unused, _row(0.0, 0.03), Direction.STRONG, 0.05).confirmed
    priced = _row(0.0, 0.03, bought=60, played=50)
    truth = rc.confirmed(priced, _row(0.0, 0.03), Direction.WEAK, 0.05)
    assert truth.priced_out and truth.confirmed
    assert not rc.confirmed(priced, _row(0.0, 0.03, bought=60), Direction.WEAK, 0.05).confirmed
    assert not rc.confirmed(None, _row(0.0, 0.03), Direction.STRONG, 0.05).confirmed
    assert not rc.confirmed(_row(None, 0.03), _row(0.0, 0.03), Direction.WEAK, 0.05).confirmed


def _scored(field: str, size: str, confirmed: bool, tune: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "plant": {"field": field, "size": size},
        "confirm": {"confirmed": confirmed},
        "tune": tune,
        "games": 7000,
        "cpu": 300.0,
    }


def test_tune_is_scored_on_confirmed_large_cost_plants_only() -> None:
    run = [
        _scored("buy", "large", True, None),
        _scored("buy", "large", False, None),  # not a plant: nothing to put back
        _scored("upkeep", "moderate", True, None),
        _scored("attack", "large", True, None),  # no cost to return to
        _scored("play", "large", True, None),
    ]
    assert rc.tuned_cases(run) == [run[0], run[4]]


def test_untune_takes_each_fields_tune_off_the_runs_cost_once() -> None:
    """The run's cases share a buy tune (400 games, 20 CPU s) and a play tune (600, 30): each
    case's 7,000 games and 300 CPU s lose 1,000 games and 50 s, and every tune is forgotten."""
    buy = {"proposal": 3, "correction": 1, "games": 400, "cpu": 20.0}
    play = {"proposal": 1, "correction": 0, "games": 600, "cpu": 30.0}
    run = [
        _scored("buy", "large", True, buy),
        _scored("buy", "large", True, buy),
        _scored("play", "large", True, play),
        _scored("life", "large", True, None),
    ]
    rc.untune(run)
    assert [(r["tune"], r["games"], r["cpu"]) for r in run] == [(None, 6000, 250.0)] * 4


def test_a_plant_leans_when_its_estimates_point_the_planted_way_unconfirmed() -> None:
    """+0.08 +- 1.96 * 0.03 = [0.021, 0.139] reaches into the band 0.05, so not confirmed; its
    point estimate lies beyond the band and its shift +0.06 points the planted way: it leans.
    Planted the other way it does not; nor does a shift against the plant, nor an estimate
    inside the band, nor a plant already confirmed."""
    lean = rc.confirmed(_row(0.08, 0.03), _row(0.02, 0.03), Direction.STRONG, 0.05)
    assert not lean.confirmed and rc.leaning(lean, Direction.STRONG, 0.05)
    weak = rc.confirmed(_row(0.08, 0.03), _row(0.02, 0.03), Direction.WEAK, 0.05)
    assert not rc.leaning(weak, Direction.WEAK, 0.05)
    back = rc.confirmed(_row(0.08, 0.03), _row(0.10, 0.03), Direction.STRONG, 0.05)
    assert not rc.leaning(back, Direction.STRONG, 0.05)
    inside = rc.confirmed(_row(0.04, 0.03), _row(-0.05, 0.03), Direction.STRONG, 0.05)
    assert not rc.leaning(inside, Direction.STRONG, 0.05)
    sure = rc.confirmed(_row(0.15, 0.03), _row(0.02, 0.03), Direction.STRONG, 0.05)
    assert sure.confirmed and not rc.leaning(sure, Direction.STRONG, 0.05)
    assert rc.leaning(
        rc.confirmed(_row(-0.08, 0.03), _row(0.0, 0.03), Direction.WEAK, 0.05),
        Direction.WEAK,
        0.05,
    )


def test_a_plant_counts_when_either_truth_run_confirms_it() -> None:
    """The second run decides for a case the first did not confirm; tune is then scored on it."""
    first = _scored("upkeep", "large", False, None)
    assert not rc.is_confirmed(first) and rc.tuned_cases([first]) == []
    again = {**first, "reconfirm": {"confirmed": True}}
    assert rc.is_confirmed(again) and rc.tuned_cases([again]) == [again]
    assert not rc.is_confirmed({**first, "reconfirm": {"confirmed": False}})
    assert rc.is_confirmed(_scored("upkeep", "large", True, None))
