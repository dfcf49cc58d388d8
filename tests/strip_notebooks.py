"""The shipped notebooks as they are kept in git: no outputs, no execution counts, and of the
metadata only what does not change when someone opens and saves one (the kernel it runs on, a
cell's tags). JupyterLab adds the Python version, widget state and cell timings when it saves:
`python -m tests.strip_notebooks` strips them again; tests/test_notebooks.py fails on a
notebook that differs from its stripped form."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
KEPT_METADATA = ("kernelspec",)
"""The notebook's metadata that stays: the kernel it is written for."""
KEPT_CELL_METADATA = ("tags",)
"""A cell's metadata that stays: tags a designer set on purpose."""


def stripped(nb: dict[str, Any]) -> dict[str, Any]:
    """The notebook without outputs, execution counts and volatile metadata."""
    cells = []
    for cell in nb["cells"]:
        kept = {k: v for k, v in cell.items() if k not in ("outputs", "execution_count")}
        kept["metadata"] = {
            k: v for k, v in cell.get("metadata", {}).items() if k in KEPT_CELL_METADATA
        }
        if cell["cell_type"] == "code":
            kept |= {"execution_count": None, "outputs": []}
        cells.append(kept)
    meta = {k: v for k, v in nb.get("metadata", {}).items() if k in KEPT_METADATA}
    return {**nb, "cells": cells, "metadata": meta}


def text(nb: dict[str, Any]) -> str:
    """The file as nbformat writes it (one-space indent, sorted keys, UTF-8)."""
    return json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main() -> int:
    """Strip every shipped notebook in place; the names of those that changed."""
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        old = path.read_text(encoding="utf-8")
        new = text(stripped(json.loads(old)))
        if new != old:
            path.write_text(new, encoding="utf-8")
            print(f"stripped {path.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
