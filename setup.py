"""The build: the engine's modules compiled to C with mypyc (the same games, two to three
times as fast), or, where that fails (no C compiler), only the sources, which then run
(engine/compiled.py, docs/compiled.md). The project's metadata is in pyproject.toml."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).parent


def chooser() -> ModuleType:
    """engine/compiled.py, read without importing the engine package."""
    spec = importlib.util.spec_from_file_location("engine_compiled", HERE / "engine/compiled.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


COMPILED = chooser()
MARK = COMPILED.build_mark(HERE)
"""The sources' hashes as mypyc is about to read them: a source edited while the build runs
(it takes minutes) then fails the mark, and runs as source, instead of passing it with machine
code of the text before the edit."""


def extensions() -> list[Any]:
    """The compiled modules, optional: a failed build leaves the sources to run."""
    try:
        from mypyc.build import mypycify
    except ImportError:
        return []
    sources = COMPILED.engine_sources(HERE)
    compiled = [s for s in sources if s not in COMPILED.NOT_COMPILED]
    modules = mypycify(sources, only_compile_paths=compiled, group_name="engine")
    for ext in modules:
        ext.optional = True
    return modules


class BuildEngine(build_ext):
    """build_ext that marks a whole build with the hashes of the sources it was made from
    (engine/compiled.json), the mark engine/compiled.py loads compiled modules by; a partial
    build leaves no mark."""

    def run(self) -> None:
        marks = [COMPILED.BUILD]
        if not self.inplace:
            marks.append(Path(self.build_lib) / "engine" / COMPILED.BUILD.name)
        for mark in marks:
            mark.unlink(missing_ok=True)
        super().run()
        built = [Path(self.get_ext_fullpath(e.name)).exists() for e in self.extensions]
        if built and all(built):
            for mark in marks:
                mark.parent.mkdir(parents=True, exist_ok=True)
                mark.write_text(MARK, encoding="utf-8")


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildEngine})
