"""The committed findings are what the committed sweep files produce: each study's results
match its file (the sweep hash), every cell is there, and every cell is precise to a 95%
half-width of 1 point or better."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.analysis.sweep import sweep_cells, sweep_hash
from sim.play.setup import load_toml
from sim.play.stats import half_width

ROOT = Path(__file__).resolve().parent.parent
STUDIES = sorted((ROOT / "studies").glob("*.toml"))


@pytest.mark.parametrize("study", STUDIES, ids=[p.stem for p in STUDIES])
def test_committed_results_match_the_sweep_file(study: Path) -> None:
    folder = ROOT / "results" / "studies" / study.stem
    if not folder.exists():
        pytest.skip("no committed results for this study")
    spec = load_toml(study)
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["sweep_hash"] == sweep_hash(spec), "the sweep file changed since its run"
    ids = [c.cell_id for c in sweep_cells(spec, str(study))]  # paths relative to the file
    assert manifest["cells"] == ids
    for cid in ids:
        summary = json.loads((folder / "cells" / f"{cid}.json").read_text())
        assert (folder / "cells" / f"{cid}.winners.npy").exists()
        n = summary["games"]
        for camp in summary["camps"].values():
            assert half_width(camp["wins"], n) <= 0.01, (cid, camp)
    assert (folder / "results.csv").exists() and (folder / "results.parquet").exists()
