"""Map every rule id of RULES.md to the tests that check it and to the engine code that carries it
out, and write docs/rules-coverage.md.

Run from the repository root: `python -m tests.rules_coverage` (or
`python tests/rules_coverage.py`).
A test names its rule ids with `@rules("R12.7", ...)` (tests/rules.py), read here from the
source (ast); the engine cites them in a docstring or comment where it carries them out, spelled
the same, so `grep -rn "R12.7"` finds the rule, its code and its tests. The R1 ideas are mapped
below to the tests of the rules that carry them out.
"""

from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RULES_PATH = Path("shared") / "rules" / "RULES.md"
RULE_ID = re.compile(r"^- (R\d+\.\d+) |^\| (R\d+\.\d+) \|", re.MULTILINE)
CHAPTER = re.compile(r"^## (R\d+) ", re.MULTILINE)
#: the rules' code: the engine less its agents, which play by the rules but carry none out
ENGINE_SOURCES = tuple(sorted((REPO / "engine").glob("*.py")))

DESIGN_IDEAS = {
    # R1 states design ideas; these tests check what the ideas turn into (a chapter: any of its
    # rules).
    "R1.1": ("R2.1", "R3.1"),  # sets chosen and shuffled together
    "R1.2": ("R3.3", "R2.2"),  # the draft fixes each store
    "R1.3": ("R7.1", "R7.2"),  # buying from one's own store into the deck
    "R1.4": ("R4.2",),  # the hand refilled each turn
    "R1.5": ("R9.1", "R19"),  # the board sets the victory condition
    "R1.6": ("R18.1", "R18.2"),  # one resource
}


def rules_file() -> Path | None:
    """RULES.md in shared/ beside the clone (or beside any folder above it: a worktree)."""
    return next((p / RULES_PATH for p in REPO.parents if (p / RULES_PATH).is_file()), None)


def rule_ids(text: str) -> list[str]:
    return [a or b for a, b in RULE_ID.findall(text)]


def chapters(text: str) -> list[str]:
    return CHAPTER.findall(text)


def marked_ids(func: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
    """The ids of a test's `@rules(...)` (or `@pytest.mark.rules(...)`) decorators."""
    out: list[str] = []
    for dec in func.decorator_list:
        if not isinstance(dec, ast.Call):
            continue
        name = (
            dec.func.id
            if isinstance(dec.func, ast.Name)
            else (dec.func.attr if isinstance(dec.func, ast.Attribute) else "")
        )
        if name == "rules":
            out += [
                a.value
                for a in dec.args
                if isinstance(a, ast.Constant) and isinstance(a.value, str)
            ]
    return tuple(out)


def collect_tests(tests_dir: Path = REPO / "tests") -> list[tuple[str, tuple[str, ...]]]:
    """(file::test, its rule ids) of every test function in tests/test_*.py."""
    out = []
    for f in sorted(tests_dir.glob("test_*.py")):
        tree = ast.parse(f.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
                "test_"
            ):
                out.append((f"tests/{f.name}::{node.name}", marked_ids(node)))
    return out


def _names(key: str, ids: tuple[str, ...]) -> bool:
    """Whether a test's ids name `key` (a chapter key: any rule of the chapter)."""
    return key in ids or ("." not in key and any(i.split(".")[0] == key for i in ids))


def coverage(ids: list[str], tests: list[tuple[str, tuple[str, ...]]]) -> dict[str, list[str]]:
    table: dict[str, list[str]] = {i: [] for i in ids}
    for ref, marked in tests:
        for rid in marked:
            if rid in table and ref not in table[rid]:
                table[rid].append(ref)
    for rid, keys in DESIGN_IDEAS.items():
        if rid in table:
            table[rid] = [ref for ref, marked in tests if any(_names(k, marked) for k in keys)]
    return table


def cited_text(path: Path) -> str:
    """The comments and string literals (docstrings) of a source file, one per line."""
    toks = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    return "\n".join(t.string for t in toks if t.type in (tokenize.COMMENT, tokenize.STRING))


def cites(text: str, rid: str) -> bool:
    """Whether `text` names `rid` as spelled in RULES.md: R7.2, not within R17.2 or R7.21."""
    return re.search(rf"(?<![\w.]){re.escape(rid)}(?![\d])", text) is not None


def engine_citations(
    ids: list[str], sources: tuple[Path, ...] = ENGINE_SOURCES
) -> dict[str, list[str]]:
    """Rule id -> the engine modules whose docstrings or comments cite it."""
    texts = {p.name: cited_text(p) for p in sources}
    return {rid: [name for name, text in texts.items() if cites(text, rid)] for rid in ids}


def render(table: dict[str, list[str]], where: dict[str, list[str]], source: str) -> str:
    lines = [
        "# Rules coverage",
        "",
        (
            f"Every rule id of `{source}`, the engine modules that cite it where they carry "
            "it out, and the tests that check it. Generated by `python -m tests.rules_coverage` "
            'from the tests\' `@rules("R12.7", ...)` decorators (tests/rules.py) and the '
            "engine's docstrings and comments; do not edit by hand. R1 states design ideas: "
            "they are cited where they shape the engine and mapped to the tests of the rules "
            "that carry them out."
        ),
        "",
        "| rule | engine | tests |",
        "|---|---|---|",
    ]
    for rid, refs in table.items():
        code = ", ".join(f"`{m}`" for m in where.get(rid, [])) or "**none**"
        cell = "<br>".join(f"`{r}`" for r in refs) if refs else "**none**"
        lines.append(f"| {rid} | {code} | {cell} |")
    missing = [r for r, refs in table.items() if not refs]
    uncited = [r for r in table if not where.get(r)]
    lines += [
        "",
        f"{len(table) - len(missing)} of {len(table)} rule ids have tests."
        + (f" Missing: {', '.join(missing)}." if missing else ""),
        f"{len(table) - len(uncited)} of {len(table)} are cited in the engine."
        + (f" Missing: {', '.join(uncited)}." if uncited else ""),
        "",
    ]
    return "\n".join(lines)


def main() -> int:
    rules = rules_file()
    if rules is None:
        print(f"RULES.md not found (expected {RULES_PATH} beside the clone)", file=sys.stderr)
        return 1
    ids = rule_ids(rules.read_text(encoding="utf-8"))
    table = coverage(ids, collect_tests())
    where = engine_citations(ids)
    out = REPO / "docs" / "rules-coverage.md"
    out.write_text(render(table, where, "shared/rules/RULES.md"), encoding="utf-8")
    missing = [r for r, refs in table.items() if not refs]
    uncited = [r for r in ids if not where[r]]
    print(
        f"wrote {out.relative_to(REPO)}: {len(table)} rule ids, {len(missing)} without tests"
        + (f": {', '.join(missing)}" if missing else "")
        + f", {len(uncited)} not cited in the engine"
        + (f": {', '.join(uncited)}" if uncited else "")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
