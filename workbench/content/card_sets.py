"""Card sets from spreadsheets (docs/card-language.md), and finding the shipped content.

A file with any problem yields no result at all: nothing half-loaded reaches the engine.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from engine.cards import (
    Card,
    CardSet,
    CardType,
    Effect,
    FreeAction,
    Keywords,
    Modifiers,
    Trigger,
    interned,
)
from engine.keywords import CARD_TYPE_WORDS, parse_keywords, parse_modifiers
from engine.language import parse_effects, parse_free_actions, parse_full_actions, parse_triggers
from workbench.content.boards import BOARD_SHEETS, board_base
from workbench.content.names import name_fault
from workbench.content.sheets import (
    SPREADSHEET_SUFFIXES,
    WORKBOOK_SUFFIXES,
    SheetError,
    read_sheets,
)
from workbench.content.tables import (
    Known,
    Names,
    Parsed,
    Problem,
    Record,
    Ref,
    ValidationError,
    aliases,
    header_key,
    hint,
    names_of,
    read_table,
    resolve,
    sheet_problems,
)

CONTENT_DIR = Path(__file__).resolve().parents[2] / "cardsets"
"""Shipped content: card sets at the top level, boards in `boards/` (docs/boards.md)."""
BOARDS_DIR = CONTENT_DIR / "boards"

# --- card sets ------------------------------------------------------------------------------

_CARD_COLUMNS = aliases(
    {
        "name": (),
        "set": (),
        "type": ("typ",),
        "copies": ("anzahl", "count"),
        "buy": ("kaufpreis",),
        "play": ("spielkosten",),
        "upkeep": ("unterhalt", "unterhaltskosten"),
        "life": ("leben",),
        "move": ("bewegung", "movement"),
        "attack": ("angriff",),
        "range": ("reichweite",),
        "armor": ("armour", "rüstung"),
        "durability": ("haltbarkeit",),
        "keywords": ("keyword", "schlüsselwörter", "schlüsselwort"),
        "effect": ("effects", "effekt", "effekte"),
        "trigger": ("triggers", "auslöser"),
        "free action": ("free actions", "freie aktion", "freie aktionen"),
        "full action": ("full actions", "volle aktion", "volle aktionen"),
        "modifiers": ("modifier", "modifikatoren"),
        "text": (),
        "notes": ("notizen", "note"),
    }
)
CARD_COLUMNS = tuple(dict.fromkeys(_CARD_COLUMNS.values()))
"""Every column a card set may have, by its English name, in the docs' order."""
COSTS = ("buy", "play", "upkeep")
"""A card's costs: its buy price (R7.1), play cost (R6.4) and upkeep (R5.3)."""
COLUMN_LIMITS = {
    **dict.fromkeys(COSTS, 99),
    "life": 999,
    "move": 99,
    "attack": 999,
    "range": 99,
    "durability": 999,
    "armor": 99,
    "copies": 99,
}
"""The number columns and the largest value of each (docs/card-language.md): far beyond any
playable card, well inside the store's INTEGER columns and a game's memory."""
LANGUAGE_LIMIT = 999
"""The largest number in a card-language cell (`damage N`, `crew N`, `+N attack`, ...)."""
LANGUAGE_COLUMNS = ("keywords", "effect", "trigger", "free action", "full action", "modifiers")
"""The columns written in the card language (docs/card-language.md)."""

_CARD_TYPES = aliases({t.value: words for t, words in CARD_TYPE_WORDS.items()})
"""The `type` column's words: the card language's table (R8.4)."""


def _card(rec: Record, set_name: str, names: Names, refs: list[Ref]) -> Card | None:
    """One card row; None (with problems recorded) when anything in it is wrong."""
    ctype = _card_type(rec)
    name = _name(rec, ctype, set_name, names)
    copies = rec.count("copies", most=COLUMN_LIMITS["copies"])
    buy, play, upkeep = (rec.count(c, most=COLUMN_LIMITS[c]) for c in ("buy", "play", "upkeep"))
    life, move = (rec.count(c, most=COLUMN_LIMITS[c]) for c in ("life", "move"))
    attack, reach = (rec.count(c, most=COLUMN_LIMITS[c]) for c in ("attack", "range"))
    armor, durability = (rec.count(c, most=COLUMN_LIMITS[c]) for c in ("armor", "durability"))
    keywords, effects, triggers, free, full, modifiers = _behaviour(rec)
    _tyrant_keyword(rec, ctype, buy, keywords, modifiers)
    if ctype is CardType.INTENTION and buy is not None:
        rec.fail("buy", INTENTION_PRICE)
    if armor is not None:
        if keywords.armor and keywords.armor != armor:
            rec.fail("armor", f"armor {armor} differs from 'armor {keywords.armor}' in keywords")
        keywords = replace(keywords, armor=armor)
    if ctype is CardType.UNIT:
        attack, reach = _unit_numbers(rec, life, move, attack, reach)
    if ctype in (CardType.EQUIPMENT, CardType.POTION):
        durability = _durability(rec, ctype, durability)
    _token_refs(rec, refs, effects, triggers, free, full, ctype is not CardType.INTENTION)
    for p in (
        *keywords.protections,
        *(modifiers.keywords.protections if modifiers.keywords else ()),
    ):
        if p.card is not None:
            refs.append(Ref(p.card, "protection from", rec.where("keywords")))
    if not rec.ok or name is None or ctype is None:
        return None
    card = Card(
        name=name,
        set=set_name,
        type=ctype,
        copies=1 if copies is None else copies,
        buy=buy,
        play=play,
        upkeep=upkeep,
        life=life,
        move=move,
        attack=attack,
        range=reach,
        durability=durability,
        keywords=keywords,
        effects=effects,
        triggers=triggers,
        free_actions=free,
        full_actions=full,
        modifiers=modifiers,
        text=rec.text("text") or "",
    )
    return interned(card)  # the same row read again (another setup, an A/B's other side)


def _card_type(rec: Record) -> CardType | None:
    """The `type` column (R8.4); a missing column is reported once, not at every row."""
    text = rec.text("type")
    if text is None:
        if "type" in rec.table.columns:
            rec.fail("type", "missing card type")
        return None
    if header_key(text) in _CARD_TYPES:
        return CardType(_CARD_TYPES[header_key(text)])
    rec.fail("type", f"unknown card type {text!r}" + hint(text, _CARD_TYPES))
    return None


def _name(rec: Record, ctype: CardType | None, set_name: str, names: Names) -> str | None:
    """The card's name, one line of characters that show (`names.name_fault`), noted in
    `names`; a missing column is reported once, not at every row."""
    name = rec.text("name")
    if name is None:
        if "name" in rec.table.columns:
            rec.fail("name", "missing card name")
        return None
    fault = name_fault(name)
    if fault is not None:
        rec.fail("name", fault)
    names.setdefault(name.casefold(), Known(name, ctype, set_name, rec.where("name")))
    return name


_Behaviour = tuple[
    Keywords,
    tuple[Effect, ...],
    tuple[Trigger, ...],
    tuple[FreeAction, ...],
    tuple[tuple[Effect, ...], ...],
    Modifiers,
]


def _behaviour(rec: Record) -> _Behaviour:
    """The card-language columns, parsed, each number in them at most LANGUAGE_LIMIT."""
    keywords = rec.parse("keywords", parse_keywords) or Keywords()
    effects = rec.parse("effect", parse_effects) or ()
    triggers = rec.parse("trigger", parse_triggers) or ()
    free = rec.parse("free action", parse_free_actions) or ()
    full = rec.parse("full action", parse_full_actions) or ()
    modifiers = rec.parse("modifiers", parse_modifiers) or Modifiers()
    for column, spec in zip(
        LANGUAGE_COLUMNS, (keywords, effects, triggers, free, full, modifiers), strict=True
    ):
        too_large = [n for n in _numbers(spec) if abs(n) > LANGUAGE_LIMIT]
        if too_large:
            rec.fail(
                column,
                f"{too_large[0]} is too large: numbers in the card language are "
                f"at most {LANGUAGE_LIMIT}",
            )
    return keywords, effects, triggers, free, full, modifiers


TYRANT_ONLY = (
    "the keyword tyrant marks the Tyrant's unit, the board's own side, which only a board "
    "places (owner tyrant; R17.1, R21.15)"
)


INTENTION_PRICE = (
    "an intention is a spell of the Tyrant's own deck, played by the game (R17.1), never "
    "drafted or bought by a player (R3.1, R7.3): remove the buy price"
)


def _tyrant_keyword(
    rec: Record, ctype: CardType | None, buy: int | None, keywords: Keywords, mods: Modifiers
) -> None:
    """`tyrant` is the board's side's keyword, never a player's: not on a card the players
    draft, not on a card other than a unit, not given by equipment (R17.1, R21.15)."""
    if keywords.tyrant and ctype is not None and ctype is not CardType.UNIT:
        rec.fail("keywords", f"{TYRANT_ONLY}: a {ctype.value} cannot carry it")
    elif keywords.tyrant and buy is not None:
        rec.fail(
            "keywords",
            f"{TYRANT_ONLY}: a card with a buy price is drafted by the players (R3.1); "
            "remove the buy price or the keyword",
        )
    if mods.keywords is not None and mods.keywords.tyrant:
        rec.fail("modifiers", f"{TYRANT_ONLY}: equipment cannot give it to a player's unit")


def _unit_numbers(
    rec: Record, life: int | None, move: int | None, attack: int | None, reach: int | None
) -> tuple[int, int]:
    """A unit's life and movement are given (R12.1); attack defaults to 0, range to 1 and is
    at least 1 (R12.5). Returns (attack, range)."""
    for stat, value in (("life", life), ("move", move)):
        if value is None and rec.text(stat) is None:
            rec.fail(stat, f"a unit needs {stat} (R12.1)")
    attack = 0 if attack is None else attack
    reach = 1 if reach is None else reach
    if reach < 1:
        rec.fail("range", "a unit's range is 1 or more (R12.5)")
    return attack, reach


def _durability(rec: Record, ctype: CardType, durability: int | None) -> int | None:
    """Equipment needs a durability of 1 or more (R15.5); a potion's defaults to 1 (R15.8)."""
    if ctype is CardType.EQUIPMENT and rec.text("durability") is None:
        rec.fail("durability", "equipment needs durability (R15.5)")
    if durability == 0:
        rec.fail("durability", "durability below 1 destroys the equipment (R15.5)")
    if ctype is CardType.POTION and durability is None:
        return 1  # R15.8
    return durability


def _numbers(spec: object) -> list[int]:
    """Every whole number inside a parsed card-language value (amounts, ranges, costs, ...)."""
    if isinstance(spec, bool):
        return []
    if isinstance(spec, int):
        return [spec]
    if isinstance(spec, tuple):
        return [n for item in spec for n in _numbers(item)]
    if dataclasses.is_dataclass(spec) and not isinstance(spec, type):
        return [n for f in dataclasses.fields(spec) for n in _numbers(getattr(spec, f.name))]
    return []


def _token_refs(
    rec: Record,
    refs: list[Ref],
    effects: tuple[Effect, ...],
    triggers: tuple[Trigger, ...],
    free: tuple[FreeAction, ...],
    full: tuple[tuple[Effect, ...], ...],
    player: bool,
) -> None:
    """`create NAME` names a card of some loaded set (R8.8); a player's card creates a
    player's token (`player`: not an intention, the Tyrant's card)."""
    groups: list[tuple[str, tuple[Effect, ...]]] = [("effect", effects)]
    groups += [("trigger", t.effects) for t in triggers]
    groups += [("free action", a.effects) for a in free]
    groups += [("full action", alt) for alt in full]
    for column, group in groups:
        refs.extend(Ref(e.card, "token", rec.where(column), player=player) for e in group if e.card)


def read_cardsets(path: Path) -> Parsed[list[CardSet]]:
    """One set per CSV file (set = file stem) or per workbook sheet (set = sheet name), unless a
    `set` column names another; names from other files are left as refs (see `resolve`)."""
    file = str(path)
    try:
        sheets = read_sheets(path)
    except SheetError as err:
        return Parsed(None, [Problem(file, message=err.reason)])
    is_csv = path.suffix.casefold() == ".csv"
    problems: list[Problem] = []
    refs: list[Ref] = []
    names: Names = {}
    sets: dict[str, tuple[str, str, list[Card]]] = {}
    seen: dict[str, tuple[str, Problem]] = {}
    for sheet in sheets:
        sheet_name = None if is_csv else sheet.name
        problems += sheet_problems(
            file,
            sheet,
            not is_csv,
            "every sheet of a card-set workbook "
            "is read as a set; unhide it, or move it to another file",
        )
        table = read_table(file, sheet_name, sheet.rows, _CARD_COLUMNS, ("name", "type"), problems)
        if table is None:
            continue
        for number, cells in table.rows:
            rec = Record(table, number, cells, problems)
            set_name = rec.text("set") or (path.stem if is_csv else sheet.name)
            _check_unique(rec, set_name, seen, file)
            card = _card(rec, set_name, names, refs)
            source = file if is_csv else f"{file}#{sheet.name}"
            entry = sets.setdefault(set_name.casefold(), (set_name, source, []))
            if card is not None:
                entry[2].append(card)
                known = names[card.name.casefold()]
                if known.card is None and known.where == rec.where("name"):
                    names[card.name.casefold()] = known._replace(card=card)
    if not problems and not any(cards for _, _, cards in sets.values()):
        problems.append(
            Problem(
                file,
                message="no cards: expected a header row with 'name' and "
                "'type', then one card per row",
            )
        )
    if problems:
        return Parsed(None, problems, refs, names)
    value = [CardSet(n, tuple(cards), src) for n, src, cards in sets.values()]
    return Parsed(value, problems, refs, names)


def _check_unique(
    rec: Record, set_name: str, seen: dict[str, tuple[str, Problem]], file: str
) -> None:
    """Fail the row's name if a row before it (`seen`: name -> its set and place) defined it:
    boards and effects find cards by name."""
    name = rec.text("name")
    if name is None:
        return
    key = name.casefold()
    if key in seen:
        first_set, first = seen[key]
        rec.fail(
            "name",
            f"duplicate card name {name!r} in set {set_name!r} (first in row {first.row})"
            if first_set.casefold() == set_name.casefold()
            else clash(name, first_set, first, file),
        )
    seen.setdefault(key, (set_name, rec.where("name")))


def clash(name: str, first_set: str, first: Problem, file: str) -> str:
    """The message for a card name that a second set defines again: where the first is."""
    where = [] if first.file == file else [first.file]
    if first.sheet is not None:
        where.append(f"sheet {first.sheet!r}")
    where.append(f"row {first.row}")
    return (
        f"card {name!r} is also defined in set {first_set!r} ({', '.join(where)}): a card "
        "name may be defined by one set only, since boards and effects find cards by name; "
        "rename one of them"
    )


def load_cardsets(path: Path | str, catalog: Sequence[CardSet] = ()) -> list[CardSet]:
    """The sets of one file; token names resolve against the file itself and `catalog`.
    Raises ValidationError listing every problem."""
    parsed = read_cardsets(Path(path))
    problems = parsed.problems + resolve(parsed.refs, {**names_of(catalog), **parsed.names})
    if problems or parsed.value is None:
        raise ValidationError(problems)
    return parsed.value


# --- shipped content ------------------------------------------------------------------------


def is_board(path: Path) -> bool:
    """A board: a CSV part `*.map.csv` etc., or a workbook with a map or scenario sheet."""
    if path.suffix.casefold() == ".csv":
        return board_base(path) != path.with_suffix("")
    if path.suffix.casefold() not in WORKBOOK_SUFFIXES:
        return False
    try:
        return any(
            BOARD_SHEETS.get(header_key(s.name)) in ("map", "scenario") for s in read_sheets(path)
        )
    except SheetError:
        return False


def _spreadsheets(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(
        p
        for p in folder.iterdir()
        if p.is_file()
        and p.suffix.casefold() in SPREADSHEET_SUFFIXES
        and not p.name.startswith(("~$", "."))
    )


def _named(name: str, folder: Path, candidates: list[Path], what: str) -> Path:
    """The candidate whose name (file name without suffixes) is `name`, case-insensitively."""
    by_name = {board_base(p).name.casefold(): p for p in candidates}
    if name.casefold() in by_name:
        return by_name[name.casefold()]
    close = difflib.get_close_matches(name.casefold(), list(by_name), n=3)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    raise LookupError(f"no {what} {name!r}: not a file, nor in {folder}{hint}")


def find_cardset(name: str) -> Path:
    """`starter` -> cardsets/starter.csv (or .xlsx/.ods); a path to a spreadsheet as it is."""
    path = Path(name)
    if path.is_file():
        return path
    return _named(
        name, CONTENT_DIR, [p for p in _spreadsheets(CONTENT_DIR) if not is_board(p)], "card set"
    )


def find_board(name: str) -> Path:
    """`duel` -> cardsets/boards/duel.xlsx (or duel.map.csv); a board path as it is."""
    path = Path(name)
    if path.is_file() or board_base(path).with_name(board_base(path).name + ".map.csv").is_file():
        return path
    boards = [
        p
        for p in _spreadsheets(BOARDS_DIR)
        if p.suffix.casefold() in WORKBOOK_SUFFIXES or p.name.casefold().endswith(".map.csv")
    ]
    return _named(name, BOARDS_DIR, boards, "board")


def merge_names(names: Names, more: Names) -> list[Problem]:
    """Add the names of another file to `names`; a name some other set already defines is a
    clash, reported where the second definition is."""
    problems = []
    for key, known in more.items():
        first = names.get(key)
        if first is None:
            names[key] = known
        elif (
            first.set.casefold() != known.set.casefold()
            and first.where is not None
            and known.where is not None
        ):
            problems.append(
                replace(
                    known.where, message=clash(known.name, first.set, first.where, known.where.file)
                )
            )
    return problems


def shipped_cardsets() -> list[CardSet]:
    """Every card set at the top level of `cardsets/`, tokens resolved across them."""
    parsed = [read_cardsets(p) for p in _spreadsheets(CONTENT_DIR) if not is_board(p)]
    names: Names = {}
    problems = [p for one in parsed for p in merge_names(names, one.names)]
    problems += [p for one in parsed for p in one.problems + resolve(one.refs, names)]
    if problems:
        raise ValidationError(problems)
    return [s for one in parsed for s in one.value or []]
