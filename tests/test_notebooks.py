"""Every notebook executes, in quick mode (a small game count, rebuilt from scratch), so
none can rot."""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_in_quick_mode(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAFIA_SIM_QUICK", "1")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    book = nbformat.read(path, as_version=4)
    client = NotebookClient(book, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    errors = [o for c in book.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors


def test_there_is_a_notebook_per_study() -> None:
    names = {p.stem for p in NOTEBOOKS}
    assert "00_quickstart" in names
    studies = Path(__file__).resolve().parent.parent / "studies"
    for study in studies.glob("0[1-6]_*.toml"):
        assert study.stem in names, study
    assert len(names) >= 7
    assert os.path.isdir(studies)
