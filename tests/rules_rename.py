"""Move rule ids out of test names into `@rules(...)` (tests/rules.py).

    python -m tests.rules_rename tests/test_rules_turn_economy.py ...   (default: tests/test_*.py)

`test_R7_1_R7_3_buy_at_price` becomes `@rules("R7.1", "R7.3")` over `test_buy_at_price`
(`R15_` alone is the chapter `R15`). Parametrised tests keep their parameters under the new
decorator. A file whose new names would clash is left unchanged and reported. Running it again
changes nothing: it is for tests written in the old naming (chapter-and-line ids).
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
IMPORT = "from tests.rules import rules"
FIRST_PARTY = ("engine", "reports", "tests", "workbench")
ID_TOKEN = re.compile(r"R\d+")
LEFT_IN_NAME = re.compile(r"(?:^|_)R\d+_")


def split_name(name: str) -> tuple[list[str], str]:
    """(rule ids, name without them) of a test name:
    `test_R8_R9_2_x` -> (["R8", "R9.2"], "test_x")."""
    words = name.removeprefix("test_").split("_")
    ids: list[str] = []
    while len(words) > 1 and ID_TOKEN.fullmatch(words[0]):
        if words[1].isdigit():
            ids.append(f"{words[0]}.{words[1]}")
            words = words[2:]
        else:
            ids.append(words[0])
            words = words[1:]
    rest = "test_" + "_".join(words)
    if LEFT_IN_NAME.search(rest.removeprefix("test")):
        raise ValueError(f"{name}: a rule id inside the name, not at its start")
    return ids, rest


def tests_with_ids(tree: ast.Module) -> list[tuple[ast.FunctionDef, list[str], str]]:
    """(test function, its ids, its new name) of every test whose name carries rule ids."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
            ids, rest = split_name(node.name)
            if ids:
                out.append((node, ids, rest))
    return out


def convert(text: str) -> str:
    """The file's text with every rule id moved from a test's name to its `@rules` decorator."""
    tree = ast.parse(text)
    found = tests_with_ids(tree)
    if not found:
        return text
    renamed = {node.name: rest for node, _, rest in found}
    names = [
        renamed.get(n.name, n.name)
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        and n.col_offset == 0
    ]
    clashes = sorted({n for n in names if names.count(n) > 1})
    if clashes:
        raise ValueError(f"names would clash: {clashes}")
    lines = text.splitlines(keepends=True)
    for node, ids, rest in sorted(found, key=lambda f: -f[0].lineno):
        first = min([d.lineno for d in node.decorator_list] + [node.lineno]) - 1
        indent = " " * node.col_offset
        lines[node.lineno - 1] = lines[node.lineno - 1].replace(
            f"def {node.name}(", f"def {rest}(", 1
        )
        quoted = ", ".join(f'"{i}"' for i in ids)
        lines.insert(first, f"{indent}@rules({quoted})\n")
    out = "".join(lines)
    for old, new in renamed.items():
        out = re.sub(rf"\b{old}\b", new, out)
    return add_import(out)


def add_import(text: str) -> str:
    """Add `from tests.rules import rules` in sorted place among the project's own imports."""
    tree = ast.parse(text)
    if any(isinstance(n, ast.ImportFrom) and n.module == "tests.rules" for n in tree.body):
        return text
    imports = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    ours = [
        n
        for n in imports
        if isinstance(n, ast.ImportFrom) and str(n.module).split(".")[0] in FIRST_PARTY
    ]
    after = [n for n in ours if str(n.module) > "tests.rules"]
    lines = text.splitlines(keepends=True)
    at = after[0].lineno - 1 if after else (ours or imports)[-1].end_lineno or 0
    lines.insert(at, IMPORT + "\n")
    return "".join(lines)


def main(argv: list[str]) -> int:
    files = [Path(a) for a in argv] or sorted((REPO / "tests").glob("test_*.py"))
    failed = 0
    for f in files:
        text = f.read_text(encoding="utf-8")
        try:
            new = convert(text)
        except ValueError as e:
            print(f"{f}: {e}", file=sys.stderr)
            failed += 1
            continue
        if new != text:
            f.write_text(new, encoding="utf-8")
            print(f"{f}: {len(tests_with_ids(ast.parse(text)))} tests converted")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
