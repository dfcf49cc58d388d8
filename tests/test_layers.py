"""The layers the code claims, checked on every module's imports (parsed, never imported).

From the bottom up: `engine` (the rules, no I/O, no project package above it; inside it only
`engine/agents` knows the agents), `workbench` (loading, running, storing, analysing: it uses the
engine), `reports` (pages and charts from the analysis: it uses the workbench, never the engine),
`app` (the command line: it uses them all). An import that points upwards, or a package loop,
is refused here before it is reviewed. The engine also opens no files: what it needs from one
(e.g. a drafter's ratings) the workbench reads and hands over as data (its loader alone reads
the engine's own sources, engine/compiled.py).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "workbench", "reports", "app")
ALLOWED = {
    "engine": set(),
    "workbench": {"engine"},
    "reports": {"workbench"},
    "app": {"engine", "workbench", "reports"},
}
"""Which project packages each package may import (the layers, bottom up)."""
FILE_CALLS = {"open", "read_text", "read_bytes", "write_text", "write_bytes", "isfile", "exists"}
"""Calls that reach the file system (builtin `open`, `Path.read_text`, `os.path.isfile`...)."""
ENGINE_NEVER = {"duckdb", "matplotlib", "polars", "pandas", "pyarrow", "sqlite3"}
WINGS = ("content", "store", "analysis", "play", "check", "studies", "fuzz", "training")
"""The workbench's wings (docs/architecture.md), bottom up: each builds only on those before it
(spreadsheets; the store; the analysis of its tables; playing runs into it; the referee; the
studies of several runs; fuzzing; the agents' training)."""
CIRCLES_FOR_TYPES = {frozenset({"engine.copying", "engine.state"})}
"""Import circles kept on purpose: engine/copying.py writes out the state's copies for the
compiled engine, which needs the state's classes as types there (mypyc compiles a call to a
known class into a direct one), and the state calls those copies (docs/compiled.md)."""


def modules(package: str, root: Path = ROOT) -> list[Path]:
    return sorted((root / package).rglob("*.py"))


def parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def imports(path: Path, root: Path = ROOT) -> Iterator[tuple[int, str]]:
    """(line, module) of every import in the file: nested ones, relative ones resolved,
    `from a import b` also as `a.b`, and `importlib.import_module("name")` with a literal name."""
    package = list(path.relative_to(root).parts[:-1])
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            yield node.lineno, module
            for alias in node.names:
                yield node.lineno, f"{module}.{alias.name}"
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            yield node.lineno, node.args[0].value


def calls(path: Path) -> Iterator[tuple[int, str]]:
    """(line, dotted name) of every call: `open`, `os.path.isfile`, `path.read_text`."""
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Call):
            parts, f = [], node.func
            while isinstance(f, ast.Attribute):
                parts.append(f.attr)
                f = f.value
            if isinstance(f, ast.Name):
                parts.append(f.id)
            yield node.lineno, ".".join(reversed(parts))


def violations(package: str, refused: tuple[str, ...], root: Path = ROOT) -> list[str]:
    """`file:line imports module` for every import of `package`'s modules that is one of
    `refused` (a package or a dotted module) or lies under it."""
    out = []
    for path in modules(package, root):
        for line, module in imports(path, root):
            if any(module == r or module.startswith(r + ".") for r in refused):
                out.append(f"{path.relative_to(root)}:{line} imports {module}")
    return sorted(set(out))


def test_every_package_is_parsed() -> None:
    """A layer check over no files would pass vacuously."""
    for package in PACKAGES:
        assert len(modules(package)) >= 3, package


def test_the_parser_sees_nested_relative_and_importlib_imports(tmp_path: Path) -> None:
    module = tmp_path / "engine" / "agents" / "x.py"
    module.parent.mkdir(parents=True)
    module.write_text(
        "import importlib\n\n\ndef f() -> None:\n    from ..play import Agent\n"
        "    from . import heuristic\n    importlib.import_module('app.cli')\n",
        encoding="utf-8",
    )
    assert {m for _, m in imports(module, tmp_path)} == {
        "importlib",
        "engine.play",
        "engine.play.Agent",
        "engine.agents",
        "engine.agents.heuristic",
        "app.cli",
    }
    assert violations("engine", ("app",), tmp_path) == ["engine/agents/x.py:7 imports app.cli"]


@pytest.mark.parametrize("package", PACKAGES)
def test_a_package_imports_only_the_layers_below_it(package: str) -> None:
    refused = tuple(p for p in PACKAGES if p != package and p not in ALLOWED[package])
    assert violations(package, refused) == []


def test_the_game_loop_does_not_know_the_agents() -> None:
    """Only `engine/agents` imports `engine.agents`: the rules and the game loop (engine/play.py
    with its `Agent` protocol) stand without it."""
    found = [
        v for v in violations("engine", ("engine.agents",)) if not v.startswith("engine/agents/")
    ]
    assert found == []


def test_the_engine_imports_no_database_or_plotting_library() -> None:
    assert violations("engine", tuple(sorted(ENGINE_NEVER))) == []


def test_no_loops_between_packages() -> None:
    graph = {
        p: {m.split(".")[0] for path in modules(p) for _, m in imports(path)} & set(PACKAGES) - {p}
        for p in PACKAGES
    }

    def reaches(start: str, goal: str, seen: frozenset[str]) -> bool:
        return any(
            n == goal or (n not in seen and reaches(n, goal, seen | {n})) for n in graph[start]
        )

    assert [p for p in PACKAGES if reaches(p, p, frozenset())] == []


LOADER = ROOT / "engine" / "compiled.py"
"""The one engine module that reads files: its own sources, hashed on import to choose between
the compiled modules and the sources (docs/compiled.md), before any rule runs."""


def test_the_engine_opens_no_files() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line} calls {name}"
        for path in modules("engine")
        for line, name in calls(path)
        if name.split(".")[-1] in FILE_CALLS and path != LOADER
    ]
    assert found == []


def test_no_module_chooses_the_plotting_backend_by_import_order() -> None:
    """pyplot's backend and figure list are process state that the import order decided;
    figures are drawn on an explicit Agg canvas instead (reports/charts.py)."""
    found = [v for p in PACKAGES for v in violations(p, ("matplotlib.pyplot",))]
    found += [
        f"{path.relative_to(ROOT)}:{line} calls {name}"
        for p in PACKAGES
        for path in modules(p)
        for line, name in calls(path)
        if name == "matplotlib.use"
    ]
    assert found == []


def test_every_workbench_module_lives_in_a_wing() -> None:
    """Nothing at workbench/'s top but its package file: a newcomer finds each module's job from
    the folder it is in."""
    top = [p.name for p in (ROOT / "workbench").glob("*.py")]
    folders = sorted(p.name for p in (ROOT / "workbench").iterdir() if (p / "__init__.py").exists())
    assert top == ["__init__.py"] and folders == sorted(WINGS)


@pytest.mark.parametrize("wing", WINGS)
def test_a_wing_imports_only_the_wings_below_it(wing: str) -> None:
    above = tuple(f"workbench.{w}" for w in WINGS[WINGS.index(wing) + 1 :])
    found = [v for v in violations("workbench", above) if v.startswith(f"workbench/{wing}/")]
    assert found == []


def module_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the project's modules it imports (at any depth of the code, type-only ones
    too: a circle of types is still a circle a reader must untie)."""
    names = {
        ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): path
        for p in PACKAGES
        for path in modules(p, root)
    }

    def targets(path: Path) -> set[str]:
        found = [(line, m) for line, m in imports(path, root) if m in names]
        # `from a import b` of a module b reads a.b; it needs package a only to be on the way
        via = {(line, m.rpartition(".")[0]) for line, m in found}
        return {m for line, m in found if (line, m) not in via}

    return {name: targets(path) - {name} for name, path in names.items()}


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected sets of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = set()
            while True:
                w = stack.pop()
                part.add(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(frozenset(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_circle_finder_finds_a_loop_of_three(tmp_path: Path) -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [frozenset("abc")]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_itself_round_a_circle() -> None:
    """No two modules of the four packages import each other, directly or round a loop (the
    pair kept for the compiled engine's types aside)."""
    found = [sorted(c) for c in circles(module_graph()) if c not in CIRCLES_FOR_TYPES]
    assert found == []
