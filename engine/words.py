"""How the card language matches a word: case-folded, German umlauts spelled out (Rüstung =
ruestung), and the nearest known words for an error message. Shared by the language, the verb
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


__all__ = ["aliases", "nearest", "norm"]
