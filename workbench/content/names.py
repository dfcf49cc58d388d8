"""Card names a designer can tell apart: boards and effects find cards by name, and
every command prints them.

A name is one line of characters that show: a line break, a control character, a bidi control
or a zero-width character (what `workbench.content.printable` escapes) is refused, since the
name would print like another or reorder the line it is printed in. Names that differ only in
look-alike characters (Cyrillic `В` for Latin `B`, `0` for `O`, full-width letters) are warned
about: they are different cards that read the same. Look-alikes are Unicode's confusables
(UTS #39, the data of the `confusable_homoglyphs` package), compared after NFKC.
"""

from __future__ import annotations

import functools
import unicodedata
from collections import defaultdict
from dataclasses import replace

from workbench.content.printable import escaped, unseen
from workbench.content.tables import Names, Problem

LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
"""What str.splitlines breaks a line at."""


def name_fault(name: str) -> str | None:
    """Why `name` cannot be a card's name, or None."""
    hidden = unseen(name)
    if not hidden:
        return None
    if any(ch in LINE_BREAKS for ch in hidden) or "\t" in hidden:
        what = "a tab" if "\t" in hidden else "a line break"
        return f"a card name is one line of text; this one holds {what}: remove it"
    ch = hidden[0]
    label = unicodedata.name(ch, "")
    what = f"U+{ord(ch):04X} {label}" if label else f"U+{ord(ch):04X}, a control character"
    return (
        f"the name holds {escaped(ch)} ({what}), which does not show as itself: the name "
        "would print like another, or reorder the line it is printed in; remove it"
    )


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each look-alike character -> one character of its class (the smallest), from the
    confusables' pairs of single characters (Unicode's classes: a prototype and the
    characters that look like it)."""
    from confusable_homoglyphs.confusables import confusables_data

    parent: dict[str, str] = {}

    def root(ch: str) -> str:
        while parent.get(ch, ch) != ch:
            ch = parent[ch]
        return ch

    for ch, glyphs in confusables_data.items():
        for glyph in glyphs:
            other = glyph["c"]
            if len(ch) == 1 and len(other) == 1:
                a, b = root(ch), root(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    return {ch: root(ch) for ch in parent}


def skeleton(name: str) -> str:
    """What `name` looks like: NFKC, each look-alike character replaced by its class's
    representative, then case-folded (card names ignore case)."""
    table = _prototypes()
    normal = unicodedata.normalize("NFKC", name)
    return "".join(table.get(ch, ch) for ch in normal).casefold()


def look_alikes(names: Names) -> list[Problem]:
    """A warning at each name that looks like another defined name but is not the same."""
    by_look: dict[str, list[str]] = defaultdict(list)
    for key, known in names.items():
        by_look[skeleton(known.name)].append(key)
    warnings = []
    for keys in by_look.values():
        if len(keys) < 2:
            continue
        for key in keys:
            known = names[key]
            others = ", ".join(repr(names[k].name) for k in keys if k != key)
            if known.where is None:
                continue
            odd = [
                f"{ch!r} is U+{ord(ch):04X} {unicodedata.name(ch, '?')}"
                for ch in dict.fromkeys(known.name)
                if not ch.isascii() and skeleton(ch) != ch.casefold()
            ]
            detail = f" ({'; '.join(odd)})" if odd else ""
            warnings.append(
                replace(
                    known.where,
                    message=f"card {known.name!r} looks like {others}{detail}: different "
                    "cards that print the same; rename one, or use the same characters",
                )
            )
    return warnings
