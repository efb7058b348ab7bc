"""Every notebook executes, in quick mode (a small game count, rebuilt from scratch), so
none can rot. A notebook's source is its paired jupytext py:percent file, notebooks/NAME.py
(linted by ruff like the rest of the code); notebooks/NAME.ipynb is the same notebook with
its outputs, kept in step with `jupytext --sync`."""

from __future__ import annotations

import os
from pathlib import Path

import jupytext
import pytest
from nbclient import NotebookClient

DIR = Path(__file__).resolve().parent.parent / "notebooks"
SOURCES = sorted(DIR.glob("*.py"))
NOTEBOOKS = sorted(DIR.glob("*.ipynb"))


@pytest.mark.parametrize("path", SOURCES, ids=[p.stem for p in SOURCES])
def test_notebook_runs_in_quick_mode(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAFIA_SIM_QUICK", "1")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    book = jupytext.read(path)
    client = NotebookClient(book, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    errors = [o for c in book.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors


def test_every_notebook_is_a_pair() -> None:
    assert {p.stem for p in SOURCES} == {p.stem for p in NOTEBOOKS}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_ipynb_matches_its_text_source(path: Path) -> None:
    """The .ipynb holds the cells of its .py: run `jupytext --sync notebooks/NAME.py`."""
    text = jupytext.read(path.with_suffix(".py"))
    book = jupytext.read(path)
    assert book.metadata["jupytext"]["formats"] == "ipynb,py:percent"
    assert [(c.cell_type, c.source) for c in book.cells] == \
        [(c.cell_type, c.source) for c in text.cells], \
        f"{path.name} is out of step with {path.stem}.py: run jupytext --sync"


def test_there_is_a_notebook_per_study() -> None:
    names = {p.stem for p in SOURCES}
    assert "00_quickstart" in names
    studies = Path(__file__).resolve().parent.parent / "studies"
    for study in studies.glob("0[1-6]_*.toml"):
        assert study.stem in names, study
    assert len(names) >= 7
    assert os.path.isdir(studies)
