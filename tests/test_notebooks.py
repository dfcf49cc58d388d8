"""The notebooks run top to bottom on a small database (WORKBENCH_DB), so they never rot."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from tests import strip_notebooks
from tests.test_metrics_fixture import build

NOTEBOOKS = sorted(strip_notebooks.NOTEBOOKS.glob("*.ipynb"))


def test_there_are_the_three_notebooks() -> None:
    assert {p.stem for p in NOTEBOOKS} >= {"draft", "cards_and_costs", "economy"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORKBENCH_DB", str(build(tmp_path / "nb.duckdb", runs=2)))
    monkeypatch.setenv("WORKBENCH_RUN", "1")
    nb = nbformat.read(path, as_version=4)
    NotebookClient(
        nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    images = [
        o
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.get("outputs", [])
        if "image/png" in o.get("data", {})
    ]
    assert images, f"{path.name} showed no chart"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_shipped_notebooks_are_stripped(path: Path) -> None:
    """No outputs, execution counts or volatile metadata in git (python -m tests.strip_notebooks
    strips them), so opening a notebook leaves the clone as it was."""
    old = path.read_text(encoding="utf-8")
    assert old == strip_notebooks.text(strip_notebooks.stripped(json.loads(old))), (
        f"{path.name} is not stripped: run python -m tests.strip_notebooks"
    )


def test_a_notebook_saved_by_jupyterlab_strips_back_to_the_shipped_one() -> None:
    """What a run and a save add (outputs, counts, the Python version, cell timings) is what
    the strip removes; the kernel and a cell's tags stay."""
    shipped = json.loads(NOTEBOOKS[0].read_text(encoding="utf-8"))
    saved = json.loads(json.dumps(shipped))
    saved["metadata"]["language_info"] = {"name": "python", "version": "3.11.2"}
    saved["metadata"]["widgets"] = {"state": {}}
    for i, cell in enumerate(saved["cells"]):
        cell["metadata"] |= {"execution": {"iopub.execute_input": "2026-01-01T00:00:00Z"}}
        if cell["cell_type"] == "code":
            cell["execution_count"] = i
            cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": ["x\n"]}]
    text = strip_notebooks.text(strip_notebooks.stripped(saved))
    assert text == NOTEBOOKS[0].read_text(encoding="utf-8")


def test_git_ignores_what_jupyterlab_writes_beside_the_notebooks() -> None:
    repo = NOTEBOOKS[0].parent.parent
    for written in (
        "notebooks/.ipynb_checkpoints/draft-checkpoint.ipynb",
        "notebooks/.virtual_documents/draft.ipynb",
    ):
        ignored = subprocess.run(
            ["git", "-C", str(repo), "check-ignore", "-q", written], check=False
        )
        assert ignored.returncode == 0, f"git does not ignore {written}"
