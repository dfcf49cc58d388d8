"""Loading card sets and boards from .csv, .xlsx and .ods (docs/card-language.md, docs/boards.md)."""

from __future__ import annotations

import csv
import re
import zipfile
from collections.abc import Sequence
from pathlib import Path

import openpyxl
import pandas as pd
import pytest

from engine.board import (
    NEUTRAL,
    TYRANT,
    Board,
    Field,
    Placement,
    Terrain,
    TieBreak,
    Victory,
    VictoryKind,
)
from engine.cards import (
    Card,
    CardSet,
    CardType,
    Cost,
    Effect,
    FreeAction,
    Keywords,
    Modifiers,
    Side,
    Target,
    TargetKind,
    Trigger,
)
from workbench.boards import field_code, load_board, parse_field
from workbench.loader import CONTENT_DIR, find_board, find_cardset, load_cardsets
from workbench.tables import ValidationError, cell_int

Rows = Sequence[Sequence[object]]

HEADER = ["name", "type", "copies", "buy", "play", "upkeep", "life", "move", "attack", "range",
          "armor", "durability", "keywords", "effect", "trigger", "modifiers", "text"]
ROWS: list[list[object]] = [
    ["Imp", "unit", 2, 3, 1, 0, 2, 2, 1, None, 1, None, "veiled", None,
     "when this dies: create 1 Skeleton", None, "a small demon"],
    ["Skeleton", "unit", None, None, None, None, 1, 1, None, None, None, None, None, None, None,
     None, None],
    ["Fireball", "spell", 1, 4, 0, None, None, None, None, None, None, None, None,
     "damage 3 to target enemy unit in range 3", None, None, None],
    ["Sword", "equipment", 1, 2, 1, None, None, None, None, None, None, 2, None, None, None,
     "+1 attack", None],
    ["Tonic", "potion", 1, 1, 0, None, None, None, None, None, None, None, None, None, None,
     None, None],
]


def expected(set_name: str, source: str) -> list[CardSet]:
    """The hand-written cards that HEADER/ROWS must load as."""
    cards = (
        Card("Imp", set_name, CardType.UNIT, copies=2, buy=3, play=1, upkeep=0, life=2, move=2,
             attack=1, range=1, keywords=Keywords(armor=1, veiled=True),
             triggers=(Trigger("dies", (Effect("create", 1, Target(), "Skeleton"),)),),
             text="a small demon"),
        Card("Skeleton", set_name, CardType.UNIT, life=1, move=1, attack=0, range=1),
        Card("Fireball", set_name, CardType.SPELL, buy=4, play=0, effects=(
            Effect("damage", 3, Target(TargetKind.UNIT, Side.ENEMY, False, 3)),)),
        Card("Sword", set_name, CardType.EQUIPMENT, buy=2, play=1, durability=2,
             modifiers=Modifiers(attack=1)),
        Card("Tonic", set_name, CardType.POTION, buy=1, play=0, durability=1),
    )
    return [CardSet(set_name, cards, source)]


def write_csv(path: Path, rows: Rows, delimiter: str = ",") -> Path:
    with path.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f, delimiter=delimiter).writerows(
            [["" if v is None else v for v in row] for row in rows])
    return path


def write_xlsx(path: Path, sheets: dict[str, Rows]) -> Path:
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(list(row))
    book.save(path)
    return path


def write_ods(path: Path, sheets: dict[str, Rows]) -> Path:
    with pd.ExcelWriter(path, engine="odf") as writer:
        for name, rows in sheets.items():
            pd.DataFrame([list(r) for r in rows]).to_excel(writer, sheet_name=name, index=False,
                                                          header=False)
    return path


def problems_of(path: Path, catalog: Sequence[CardSet] = ()) -> list[str]:
    with pytest.raises(ValidationError) as err:
        load_cardsets(path, catalog)
    return [str(p) for p in err.value.problems]


# --- card sets: the three formats ---------------------------------------------------------

def test_csv_loads_hand_written_cards(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "demons.csv", [HEADER, *ROWS])
    assert load_cardsets(path) == expected("demons", str(path))


def test_xlsx_loads_the_same(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "book.xlsx", {"demons": [HEADER, *ROWS]})
    assert load_cardsets(path) == expected("demons", f"{path}#demons")


def test_ods_loads_the_same(tmp_path: Path) -> None:
    path = write_ods(tmp_path / "book.ods", {"demons": [HEADER, *ROWS]})
    assert load_cardsets(path) == expected("demons", f"{path}#demons")


def test_semicolon_csv_as_german_excel_writes_it(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "demons.csv", [HEADER, *ROWS], delimiter=";")
    assert load_cardsets(path) == expected("demons", str(path))


def test_one_set_per_sheet_and_set_column(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "book.xlsx", {
        "fire": [["name", "type"], ["Spark", "spell"]],
        "water": [["name", "type", "set"], ["Wave", "spell", "sea"], ["Drop", "spell", None]],
    })
    sets = load_cardsets(path)
    assert [(s.name, [c.name for c in s.cards]) for s in sets] == [
        ("fire", ["Spark"]), ("sea", ["Wave"]), ("water", ["Drop"])]


def test_german_headers_and_words(tmp_path: Path) -> None:
    german = ["Name", "Typ", "Anzahl", "Kaufpreis", "Spielkosten", "Unterhalt", "Leben",
              "Bewegung", "Angriff", "Reichweite", "Rüstung", "Haltbarkeit",
              "Schlüsselwörter", "Effekt", "Auslöser", "Modifikatoren", "Text"]
    rows = [list(r) for r in ROWS]
    rows[0][12], rows[0][14] = "verhüllt", "wenn dies stirbt: erzeuge 1 Skeleton"
    rows[2][1], rows[2][13] = "Zauber", "Schaden 3 auf Ziel gegnerische Einheit in Reichweite 3"
    rows[3][1], rows[3][15] = "Equipment", "+1 Angriff"
    rows[4][1] = "Trank"
    rows[0][1] = rows[1][1] = "Einheit"
    path = write_csv(tmp_path / "demons.csv", [german, *rows])
    assert load_cardsets(path) == expected("demons", str(path))


def test_headers_ignore_case_space_underscore_dash(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "s.csv", [["NAME", "Type", "Free_Action", "full-action"],
                                          ["Sage", "artifact", "discard 1: draw 1", None]])
    [cardset] = load_cardsets(path)
    assert cardset.cards[0].free_actions[0].effects == (Effect("draw", 1),)


def _cache_formula_value(path: Path, cell: str, value: str) -> None:
    """openpyxl saves formulas without a value; give one a cached value, as Excel would."""
    with zipfile.ZipFile(path) as z:
        files = {n: z.read(n) for n in z.namelist()}
    sheet = "xl/worksheets/sheet1.xml"
    xml = files[sheet].decode()
    xml, n = re.subn(rf'(<c r="{cell}"[^>]*>)<f>([^<]*)</f><v\s*/?>(</v>)?',
                     rf"\1<f>\2</f><v>{value}</v>", xml)
    assert n == 1
    files[sheet] = xml.encode()
    with zipfile.ZipFile(path, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)


def test_formula_counts_by_its_cached_value(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "f.xlsx", {"s": [["name", "type", "buy"],
                                                 ["Spark", "spell", "=1+2"]]})
    _cache_formula_value(path, "C2", "3")
    [cardset] = load_cardsets(path)
    assert cardset.cards[0].buy == 3


@pytest.mark.parametrize(("cell", "value"), [(3, 3), (3.0, 3), ("3", 3), (" 3 ", 3), ("0", 0)])
def test_numbers(cell: object, value: int) -> None:
    assert cell_int(cell) == value  # type: ignore[arg-type]


@pytest.mark.parametrize(("cell", "message"), [
    ("abc", "not a number"), (2.5, "not a whole number"), ("2.5", "not a whole number"),
    (-1, "must be 0 or more"), (True, "not a number")])
def test_bad_numbers(cell: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        cell_int(cell)  # type: ignore[arg-type]


def test_empty_cost_is_none_and_zero_is_a_cost(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "s.csv", [["name", "type", "buy", "play"],
                                          ["Free", "spell", 0, None]])
    [cardset] = load_cardsets(path)
    assert (cardset.cards[0].buy, cardset.cards[0].play) == (0, None)


# --- card sets: malformed ----------------------------------------------------------------

@pytest.mark.parametrize(("rows", "problem"), [
    ([["name", "type", "buy"], ["X", "spell", "abc"]], "row 2, column buy (C): 'abc': not a number"),
    ([["name", "type", "buy"], ["X", "spell", -1]], "row 2, column buy (C): '-1': must be 0 or more"),
    ([["name", "type", "buy"], ["X", "spell", 2.5]],
     "row 2, column buy (C): '2.5': not a whole number"),
    ([["name", "type"], ["X", "spel"]],
     "row 2, column type (B): 'spel': unknown card type 'spel'; did you mean 'spell'?"),
    ([["name", "type", "keywords"], ["X", "unit", "veild"]],
     "row 2, column keywords (C): 'veild': unknown keyword 'veild'; did you mean 'veiled'?"),
    ([["name", "type", "effect"], ["X", "spell", "damge 1 to self"]],
     "row 2, column effect (C): 'damge 1 to self': unknown verb 'damge'; did you mean 'damage' "
     "or 'rage'?"),
    ([["name", "type"], ["X", "spell"], ["x", "spell"]],
     "row 3, column name (A): 'x': duplicate card name 'x' in set 's' (first in row 2)"),
    ([["name", "type", "life"], ["X", "unit", 2]],
     "row 2, column move (no such column): a unit needs move (R12.1)"),
    ([["name", "type", "life", "move"], ["X", "unit", None, 1]],
     "row 2, column life (C): a unit needs life (R12.1)"),
    ([["name", "type", "durability"], ["X", "equipment", None]],
     "row 2, column durability (C): equipment needs durability (R15.5)"),
    ([["name", "buy"], ["X", 1]], "row 1: missing required column 'type'"),
    ([["name", "type", "atack"], ["X", "spell", 1]],
     "row 1, column atack (C): 'atack': unknown column; did you mean 'attack'?"),
    ([["name", "type", "effect"], ["X", "spell", "create 1 Skeletn"]],
     "row 2, column effect (C): 'create 1 Skeletn': unknown card 'Skeletn' (token)"),
    ([["name", "type"], [None, "spell"]], "row 2, column name (A): missing card name"),
])
def test_malformed_card_rows(tmp_path: Path, rows: Rows, problem: str) -> None:
    path = write_csv(tmp_path / "s.csv", rows)
    assert f"{path}, {problem}" in problems_of(path)


def test_malformed_xlsx_names_sheet(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "b.xlsx", {"fire": [[None], ["name", "type"], ["X", "unti"]]})
    assert problems_of(path) == [f"{path}, sheet 'fire', row 3, column type (B): 'unti': unknown "
                                 "card type 'unti'; did you mean 'unit'?"]


def test_every_problem_at_once(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "s.csv", [["name", "type", "buy", "play"],
                                          ["A", "spel", "x", -2], ["B", "unit", 1, 1]])
    assert len(problems_of(path)) == 5  # type, buy, play, B's life and move


@pytest.mark.parametrize(("name", "content", "message"), [
    ("empty.csv", b"", "empty file"),
    ("empty.xlsx", b"", "empty file"),
    ("corrupt.xlsx", b"this is not a zip", "not a readable .xlsx workbook"),
    ("corrupt.ods", b"PK\x03\x04broken", "not a readable .ods workbook"),
    ("notes.txt", b"name,type\n", "not a spreadsheet (expected .csv, .xlsx or .ods)"),
    ("blank.csv", b",,\n,,\n", "no values in any sheet"),
    ("binary.csv", b"\x00\x01\x02", "binary data, not a CSV spreadsheet"),
])
def test_bad_files(tmp_path: Path, name: str, content: bytes, message: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    [problem] = problems_of(path)
    assert problem.startswith(f"{path}: {message}")


def test_header_only_file_has_no_cards(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "s.csv", [["name", "type"]])
    assert problems_of(path) == [f"{path}: no cards: expected a header row with 'name' and "
                                 "'type', then one card per row"]


def test_tokens_resolve_against_catalog(tmp_path: Path) -> None:
    tokens = write_csv(tmp_path / "tokens.csv", [["name", "type", "life", "move"],
                                                 ["Skeleton", "unit", 1, 1]])
    path = write_csv(tmp_path / "s.csv", [["name", "type", "effect"],
                                          ["Raise", "spell", "create 2 Skeleton"]])
    [cardset] = load_cardsets(path, load_cardsets(tokens))
    assert cardset.cards[0].effects == (Effect("create", 2, Target(), "Skeleton"),)


# --- boards -------------------------------------------------------------------------------

MAP = [[".1", ".1", "~"], ["^A", ".$$", "#"], ["water", ".2", ".2"]]
SCENARIO = [["key", "value"], ["name", "Duel"], ["players", 2], ["victory", "vip"],
            ["victory card", "Hero"], ["start cards", "Peasant x3, Gold x2"],
            ["teams", "1;2"], ["unit income", -1], ["round limit", 20], ["tie break", "points"]]
PLACEMENTS = [["card", "owner", "x", "y", "vip"], ["Hero", 1, 0, 0, "yes"],
              ["Hero", 2, 2, 2, "yes"], ["Hero", "neutral", 1, 0, None],
              ["Hero", "tyrant", 1, 2, "no"]]
CATALOG = [CardSet("starter", (
    Card("Hero", "starter", CardType.UNIT, life=5, move=2, attack=2, range=1),
    Card("Peasant", "starter", CardType.UNIT, life=1, move=1, attack=1, range=1),
    Card("Gold", "starter", CardType.ARTIFACT),
))]


def expected_board(source: str) -> Board:
    p, w, h = Terrain.PLAIN, Terrain.DEEP_WATER, Terrain.HIGH_GROUND
    return Board(
        name="Duel", width=3, height=3,
        fields=(Field(p, 0), Field(p, 0), Field(w), Field(h, area="A"), Field(p, income=2),
                Field(Terrain.BLOCKED), Field(w), Field(p, 1), Field(p, 1)),
        victory=Victory(VictoryKind.VIP, card="Hero"), players=2, teams=((0,), (1,)),
        unit_income=-1, start_cards=(("Peasant", 3), ("Gold", 2)), round_limit=20,
        tie_break=TieBreak.POINTS,
        placements=(Placement("Hero", 0, 0, 0, True), Placement("Hero", 1, 2, 2, True),
                    Placement("Hero", NEUTRAL, 1, 0), Placement("Hero", TYRANT, 1, 2)),
        source=source,
    )


def test_board_from_xlsx(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "duel.xlsx", {"map": MAP, "scenario": SCENARIO,
                                               "placements": PLACEMENTS})
    assert load_board(path, CATALOG) == expected_board(str(path))


def test_board_from_ods_with_german_sheets(tmp_path: Path) -> None:
    german = [["Schlüssel", "Wert"], ["Name", "Duel"], ["Spieler", 2], ["Siegbedingung", "vip"],
              ["Siegkarte", "Hero"], ["Startkarten", "Peasant x3, Gold x2"], ["Teams", "1;2"],
              ["Einheiteneinkommen", -1], ["Rundenlimit", 20], ["Tie-Break", "Punkte"]]
    placements = [["Karte", "Besitzer", "x", "y", "vip"], *PLACEMENTS[1:]]
    path = write_ods(tmp_path / "duel.ods", {"Karte": MAP, "Szenario": german,
                                             "Aufstellung": placements})
    assert load_board(path, CATALOG) == expected_board(str(path))


def test_board_from_csv_triple(tmp_path: Path) -> None:
    write_csv(tmp_path / "duel.map.csv", MAP)
    write_csv(tmp_path / "duel.scenario.csv", SCENARIO)
    write_csv(tmp_path / "duel.placements.csv", PLACEMENTS)
    path = tmp_path / "duel.scenario.csv"
    assert load_board(path, CATALOG) == expected_board(str(path))


@pytest.mark.parametrize(("text", "field"), [
    (".", Field()), ("~", Field(Terrain.DEEP_WATER)), ("^A", Field(Terrain.HIGH_GROUND, area="A")),
    ("#", Field(Terrain.BLOCKED)), (".4", Field(deploy=3)), (".$", Field(income=1)),
    (".B2$", Field(deploy=1, area="B", income=1)), ("deep water 2", Field(Terrain.DEEP_WATER, 1)),
    ("Hügel A", Field(Terrain.HIGH_GROUND, area="A")), ("Fels", Field(Terrain.BLOCKED)),
])
def test_field_codes(text: str, field: Field) -> None:
    assert parse_field(text) == field


def board_problems(tmp_path: Path, map_rows: Rows = MAP, scenario: Rows = SCENARIO,
                   placements: Rows = PLACEMENTS) -> list[str]:
    path = write_xlsx(tmp_path / "b.xlsx", {"map": map_rows, "scenario": scenario,
                                            "placements": placements})
    with pytest.raises(ValidationError) as err:
        load_board(path, CATALOG)
    prefix = f"{path}, "
    return [str(p).removeprefix(prefix) for p in err.value.problems]


def _set(rows: Rows, key: str, value: object) -> list[list[object]]:
    return [[k, value] if k == key else list(r) for r in rows for k in [r[0]]]


def test_ragged_map(tmp_path: Path) -> None:
    assert board_problems(tmp_path, [[".1", ".1"], ["."], [".2", ".2"]]) == [
        "sheet 'map', row 2: ragged map: this row has 1 fields, row 1 has 2"]


def test_empty_map(tmp_path: Path) -> None:
    assert "sheet 'map': empty map: one cell per field expected" in board_problems(
        tmp_path, [[None]])


def test_unknown_field_code(tmp_path: Path) -> None:
    assert board_problems(tmp_path, [[".1", ".!"], [".2", "."]]) == [
        "sheet 'map', row 1, column B: '.!': unknown field code '!' "
        "(known: . ~ ^ # 1-4 A-Z a-z $)"]


def test_R9_3_field_action_mark_without_its_scenario_text(tmp_path: Path) -> None:
    marked = [MAP[0], ["^A", ".$$s", "#"], MAP[2]]
    assert board_problems(tmp_path, marked) == [
        "sheet 'map': the map marks fields with 's' but the scenario has no "
        "'field action s' (R9.3)"]


def test_R9_3_field_action_with_a_bad_text_names_its_row(tmp_path: Path) -> None:
    scenario = [*SCENARIO, ["Feldaktion s", "pay 1: heel 2"]]
    problems = board_problems(tmp_path, [MAP[0], ["^As", ".$$", "#"], MAP[2]], scenario)
    assert len(problems) == 1
    assert problems[0].startswith(f"sheet 'scenario', row {len(scenario)}, column value (B): "
                                  "'pay 1: heel 2': unknown verb 'heel'")


def test_R9_3_field_actions_load_onto_their_fields(tmp_path: Path) -> None:
    scenario = [*SCENARIO, ["field action s", "pay 1: heal 2"]]
    marked = [MAP[0], ["^As", ".$$s", "#"], MAP[2]]
    path = write_xlsx(tmp_path / "b.xlsx", {"map": marked, "scenario": scenario,
                                            "placements": PLACEMENTS})
    board = load_board(path, CATALOG)
    heal = (FreeAction(Cost(resource=1), (Effect("heal", 2, Target(TargetKind.SELF)),)),)
    assert [(i, f.mark, f.actions) for i, f in enumerate(board.fields) if f.mark] == [
        (3, "s", heal), (4, "s", heal)]
    assert board.fields[4].income == 2 and board.fields[3].area == "A"


def test_seat_without_deploy_zone(tmp_path: Path) -> None:
    assert board_problems(tmp_path, [[".1", "."], [".", "."]], placements=[PLACEMENTS[0]]) == [
        "sheet 'map': seat 2 of 2 has no deploy zone: mark its fields with 2 (R21.8)"]


@pytest.mark.parametrize(("victory", "missing"), [
    ("resource", "victory target"), ("capture", "victory target"), ("vip", "victory card"),
    ("staff", "victory card"), ("tyrant", "tyrant deck")])
def test_victory_missing_parameters(tmp_path: Path, victory: str, missing: str) -> None:
    scenario = [r for r in _set(SCENARIO, "victory", victory) if r[0] != "victory card"]
    found = board_problems(tmp_path, scenario=scenario, placements=[PLACEMENTS[0]])
    assert any(p.startswith("sheet 'scenario'") and f"missing {missing!r}" in p for p in found)


def test_missing_victory(tmp_path: Path) -> None:
    scenario = [r for r in SCENARIO if r[0] != "victory"]
    assert board_problems(tmp_path, scenario=scenario) == [
        "sheet 'scenario': missing 'victory': one of vip, resource, capture, buildings, staff, "
        "tyrant"]


def test_bad_scenario_values(tmp_path: Path) -> None:
    scenario = _set(_set(SCENARIO, "players", 5), "round limit", "abc")
    scenario.append(["victroy", "vip"])
    assert board_problems(tmp_path, scenario=scenario, placements=[PLACEMENTS[0]]) == [
        "sheet 'scenario', row 11, column key (A): 'victroy': unknown scenario key; did you mean "
        "'victory' or 'victory card' or 'victory target'?",
        "sheet 'scenario', row 3, column value (B): '5': must be 2 to 4",
        "sheet 'scenario', row 9, column value (B): 'abc': not a number",
    ]


def test_unknown_card_references(tmp_path: Path) -> None:
    scenario = _set(_set(SCENARIO, "start cards", "Peasnt x3"), "victory card", "Heroo")
    placements = [PLACEMENTS[0], ["Hro", 1, 0, 0, None]]
    assert board_problems(tmp_path, scenario=scenario, placements=placements) == [
        "sheet 'scenario', row 5, column value (B): 'Heroo': unknown card 'Heroo' (victory "
        "card); did you mean 'Hero'?",
        "sheet 'scenario', row 6, column value (B): 'Peasnt x3': unknown card 'Peasnt' (start "
        "card); did you mean 'Peasant'?",
        "sheet 'placements', row 2, column card (A): 'Hro': unknown card 'Hro' (placement); did "
        "you mean 'Hero'?",
    ]


def test_bad_placements(tmp_path: Path) -> None:
    placements = [PLACEMENTS[0], ["Hero", 3, 0, 0, None], ["Hero", 1, 9, 0, None],
                  ["Hero", 1, 2, 1, None], ["Hero", 1, 0, 0, "maybe"], ["Hero", 1, 0, 0, None],
                  ["Gold", 1, 0, 0, None]]
    assert board_problems(tmp_path, placements=placements) == [
        "sheet 'placements', row 2, column owner (B): '3': seat 3 does not play: the board has "
        "2 players",
        "sheet 'placements', row 3, column x (C): '9': (9, 0) is off the 3x3 map",
        "sheet 'placements', row 4, column x (C): '2': (2, 1) is a blocked field",
        "sheet 'placements', row 5, column vip (E): 'maybe': write yes or no",
        "sheet 'placements', row 5, column x (C): '0': (0, 0) is taken by row 2 (R9.2)",
        "sheet 'placements', row 6, column x (C): '0': (0, 0) is taken by row 2 (R9.2)",
        "sheet 'placements', row 7, column x (C): '0': (0, 0) is taken by row 2 (R9.2)",
    ]


def test_missing_board_sheet(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "b.xlsx", {"map": MAP})
    with pytest.raises(ValidationError) as err:
        load_board(path, CATALOG)
    assert [str(p) for p in err.value.problems] == [
        f"{path}: missing board scenario (a sheet 'scenario' or a file NAME.scenario.csv)"]


# --- shipped content ----------------------------------------------------------------------

def test_find_shipped_content_by_name_or_path(tmp_path: Path) -> None:
    assert find_cardset("starter") == CONTENT_DIR / "starter.csv"
    other = write_csv(tmp_path / "mine.csv", [["name", "type"], ["X", "spell"]])
    assert find_cardset(str(other)) == other
    with pytest.raises(LookupError, match="did you mean 'starter'"):
        find_cardset("startr")
    boards = sorted((CONTENT_DIR / "boards").glob("*.xlsx"))
    if boards:
        assert find_board(boards[0].stem) == boards[0]


@pytest.mark.parametrize("code", [".", "~2", "^1A$$", "#", ".B$s", "^4Zz"])
def test_field_code_writes_back_what_parse_field_reads(code: str) -> None:
    assert field_code(parse_field(code)) == code
