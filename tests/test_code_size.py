"""The sizes the code keeps: no module over 500 lines, no function over 60 lines (tests aside).

A module that outgrows a screenful of screens holds more than one job, and a function that
outgrows a screen mixes steps a reader has to hold at once; both are split where they grow, not
in a clean-up later. The limits apply to the code as `ruff format` lays it out (CI checks the
format), so they measure the code a reader sees.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECKED = ("engine", "workbench", "reports", "app", "benchmarks")
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 60


def sources(root: Path = ROOT) -> list[Path]:
    return sorted(p for package in CHECKED for p in (root / package).rglob("*.py"))


def too_long_modules(paths: list[Path], root: Path = ROOT) -> list[str]:
    """Modules over the limit, as "path: lines"."""
    found = []
    for path in paths:
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_MODULE_LINES:
            found.append(f"{path.relative_to(root)}: {lines} lines")
    return found


def too_long_functions(paths: list[Path], root: Path = ROOT) -> list[str]:
    """Functions and methods over the limit (decorators excluded), as "path:line name: lines"."""
    found = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    where = f"{path.relative_to(root)}:{node.lineno} {node.name}"
                    found.append(f"{where}: {lines} lines")
    return found


def test_no_module_is_over_500_lines() -> None:
    assert too_long_modules(sources()) == []


def test_no_function_is_over_60_lines() -> None:
    assert too_long_functions(sources()) == []


def test_the_checks_find_a_long_module_and_a_long_function(tmp_path: Path) -> None:
    """The checks themselves: a 61-line function and a 501-line module are reported, the
    limits themselves are not."""
    body = "\n".join(f"    x{i} = {i}" for i in range(59))
    (tmp_path / "long.py").write_text(f"def long():\n{body}\n    return 0\n")
    (tmp_path / "fits.py").write_text(f"def fits():\n{body}\n")
    (tmp_path / "big.py").write_text("x = 1\n" * 501)
    (tmp_path / "full.py").write_text("x = 1\n" * 500)
    paths = sorted(tmp_path.glob("*.py"))
    assert too_long_functions(paths, tmp_path) == ["long.py:1 long: 61 lines"]
    assert too_long_modules(paths, tmp_path) == ["big.py: 501 lines"]
