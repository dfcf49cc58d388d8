"""Copying records field by field: every field of a record has a copy rule, so no copy can
leave one out (the game state's clone, `engine.state`, for a search's look-ahead)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

CopyRule = Callable[[Any], Any] | None
"""How a copy gets a field: None keeps the object itself (an immutable value: a number, a flag,
a string, a tuple, a NamedTuple record, a frozen dataclass), a function makes the copy's own from
the original's (`list` for a list of immutable values such as card ids)."""
SAME: CopyRule = None

_Record = TypeVar("_Record")


def slot_copier(cls: type[_Record], rules: Mapping[str, CopyRule]) -> Callable[[_Record], _Record]:
    """The copy function of a slotted record whose `__slots__` are the keys of `rules` (so a
    field cannot be declared without its copy rule), generated as straight-line code: as fast
    as a hand-written copy, without a hand-kept list of fields."""
    slots = tuple(getattr(cls, "__slots__", ()))
    if slots != tuple(rules):
        raise TypeError(f"{cls.__name__}: __slots__ {slots} are not the copy rules' fields")
    namespace: dict[str, Any] = {"cls": cls, **{f"copy_{n}": r for n, r in rules.items() if r}}
    body = "".join(
        f"    o.{n} = {f'copy_{n}(self.{n})' if r else f'self.{n}'}\n" for n, r in rules.items()
    )
    source = f"def copy(self):\n    o = cls.__new__(cls)\n{body}    return o\n"
    exec(source, namespace)  # noqa: S102 -- our own field names only, as dataclasses do
    copy: Callable[[_Record], _Record] = namespace["copy"]
    return copy
