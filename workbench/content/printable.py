"""What text from content may look like on a terminal: the one sanitiser for every line a command
prints (card, set, sheet and file names, error messages that quote a cell), and the characters a
card name may not hold.

Shown escaped, as Python writes them (`\\x1b`, `\\u202e`): control characters but newline and
tab (ESC and CSI start terminal escape sequences that clear the screen or retitle the window, CR
overwrites the line), the bidi controls (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C:
they reorder the text after them, so a name can print as another), the other invisible format
characters (zero-width space and joiners, word joiner, BOM, tag characters), line and paragraph
separators, and lone surrogates (a file name that is not UTF-8).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Protocol

_SUSPECT = re.compile(r"[^\t\n\x20-\x7e]")
"""Anything but printable ASCII, newline and tab: the candidates, checked one by one."""
_UNSEEN = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""Unicode's categories of what a terminal does not show as itself: controls, format
characters (bidi controls and zero-width characters among them), surrogates, separators."""


def unseen(text: str) -> list[str]:
    """The characters of `text` that `printable` escapes, newline and tab included (a name may
    not hold them either), each once, in order."""
    found = [ch for ch in text if ch in "\t\n" or _hidden(ch)]
    return list(dict.fromkeys(found))


def _hidden(ch: str) -> bool:
    return unicodedata.category(ch) in _UNSEEN


def escaped(ch: str) -> str:
    """One character as Python escapes it: `\\x1b`, `\\u202e`, `\\n`."""
    return repr(ch)[1:-1] if ch != "'" else ch


def printable(text: str) -> str:
    """`text` with every character a terminal would not show as itself escaped (newline and
    tab kept)."""
    return _SUSPECT.sub(lambda m: escaped(m[0]) if _hidden(m[0]) else m[0], text)


class Writer(Protocol):
    """Where text goes: a terminal, a file, a buffer in tests."""

    def write(self, text: str, /) -> int: ...


class PrintableStream:
    """A text stream that writes `printable(text)` to `raw`: installed as stdout and stderr
    by `workbench` (app/cli.py), so no print of any command passes content through raw.

    rich's consoles write to `rich_proxied_file` (the raw stream, so their own colours and
    progress bars reach the terminal) and sanitise their text themselves (app/console.py)."""

    def __init__(self, raw: Writer) -> None:
        self.raw = raw

    def write(self, text: str, /) -> int:
        self.raw.write(printable(text))
        return len(text)

    def flush(self) -> None:
        getattr(self.raw, "flush", lambda: None)()

    @property
    def rich_proxied_file(self) -> Writer:
        return self.raw

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)
