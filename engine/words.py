"""How the card language matches a word: case-folded, German umlauts spelled out (Rüstung =
ruestung), and the nearest known words for an error message; the `LanguageError` a cell that is
not card language raises, naming the bad word and those nearest to it, so a designer can fix a
typo at once. Shared by the language's grammars (`engine.language`, `engine.keywords`), the verb
registry and the loaders' tables."""

from __future__ import annotations

import difflib


def norm(word: str) -> str:
    """The matching key of a word: case-folded, umlauts spelled out (Rüstung = ruestung)."""
    folded = word.strip().casefold()
    for umlaut, spelled in (("ä", "ae"), ("ö", "oe"), ("ü", "ue")):
        folded = folded.replace(umlaut, spelled)
    return folded


def nearest(word: str, known: list[str]) -> tuple[str, ...]:
    """Up to three known words close to `word`, for error messages."""
    by_key = {norm(k): k for k in known}
    return tuple(by_key[k] for k in difflib.get_close_matches(norm(word), list(by_key), n=3))


def aliases(names: dict[str, tuple[str, ...]]) -> dict[str, str]:
    """{canonical: (aliases...)} -> {norm(word): canonical}, the canonical name included."""
    return {norm(alias): canon for canon, aliases in names.items() for alias in (canon, *aliases)}


class LanguageError(ValueError):
    """A cell that is not card language: `message` names the bad word, `suggestions` the nearest."""

    def __init__(self, message: str, suggestions: tuple[str, ...] = ()) -> None:
        self.message = message
        self.suggestions = suggestions
        hint = f"; did you mean {' or '.join(repr(s) for s in suggestions)}?" if suggestions else ""
        super().__init__(message + hint)


def lookup(word: str, table: dict[str, str], what: str) -> str:
    """`table[norm(word)]`, or a LanguageError naming `word` and the nearest keys."""
    key = norm(word)
    if key in table:
        return table[key]
    raise LanguageError(f"unknown {what} {word!r}", nearest(word, list(table)))


def is_number(word: str) -> bool:
    """Whether a word of a cell is a whole number (digits only)."""
    return word.isascii() and word.isdigit()


def whole_number(word: str, what: str) -> int:
    """A whole number >= 0 written in a cell's text."""
    if not is_number(word):
        raise LanguageError(f"{what} must be a whole number, not {word!r}")
    return int(word)


__all__ = ["LanguageError", "aliases", "is_number", "lookup", "nearest", "norm", "whole_number"]
