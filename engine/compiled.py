"""Which engine runs: the compiled one (mypyc, built at install by setup.py; the same games,
two to three times as fast) only when it was built from exactly the sources beside it,
otherwise the sources, so an edited module never runs stale machine code (docs/compiled.md).

Set WORKBENCH_ENGINE=source to run the sources anyway (a test compares the two). The only
reading of files in the engine: its own sources, to choose the code to load, before any rule
runs.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import SOURCE_SUFFIXES, FileFinder, ModuleSpec, SourceFileLoader
from pathlib import Path
from types import ModuleType

PACKAGE = Path(__file__).parent
BUILD = PACKAGE / "compiled.json"
"""Written by setup.py after a whole build: the hash of every engine source the build read."""
NOT_COMPILED = frozenset(
    {
        "engine/__init__.py",  # choose the code to load, before any compiled module runs
        "engine/compiled.py",
        "engine/cards.py",  # Enums whose members carry fields (__new__)
        "engine/markers.py",
        "engine/choices.py",  # a ClassVar beside frozen slots
        "engine/board.py",  # frozen dataclasses that travel pickled to the workers
        "engine/play.py",  # a runtime-checkable Protocol (Passer)
    }
)
"""Sources that stay Python (setup.py): each uses a feature compiled modules lack or must run
first."""


def source_hashes(root: Path, sources: Sequence[str]) -> dict[str, str]:
    """The sha256 of each source, by its path relative to `root`."""
    return {s: hashlib.sha256((root / s).read_bytes()).hexdigest() for s in sources}


def engine_sources(root: Path) -> list[str]:
    """Every source file of the engine under `root`, relative to it, sorted."""
    return sorted(p.relative_to(root).as_posix() for p in (root / "engine").rglob("*.py"))


def build_mark(root: Path) -> str:
    """The text of the mark setup.py writes after a whole build: the hashes of the engine's
    sources under `root`."""
    return json.dumps({"sources": source_hashes(root, engine_sources(root))}, indent=1)


def built_from_these_sources(root: Path) -> bool:
    """Whether the compiled build marked under `root` was made from the engine's sources there,
    all of them as they are now."""
    try:
        kept = json.loads((root / "engine" / BUILD.name).read_text(encoding="utf-8"))["sources"]
        return bool(kept) and kept == source_hashes(root, engine_sources(root))
    except (OSError, ValueError, KeyError, TypeError):
        return False


class Sources(MetaPathFinder):
    """Finds the engine's modules as source files, passing over compiled ones."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if not fullname.startswith("engine.") or path is None:
            return None
        for entry in path:
            finder = FileFinder(entry, (SourceFileLoader, SOURCE_SUFFIXES))
            spec = finder.find_spec(fullname, target)
            if spec is not None:
                return spec
        return None


def choose() -> str:
    """Load the engine's modules compiled or from their sources; which one ("compiled" or
    "source")."""
    if os.environ.get("WORKBENCH_ENGINE") != "source" and built_from_these_sources(PACKAGE.parent):
        return "compiled"
    if not any(isinstance(f, Sources) for f in sys.meta_path):
        sys.meta_path.insert(0, Sources())
    return "source"
