"""Helpers for the study notebooks: load a study's committed results (or rebuild it quickly
when they are absent or MAFIA_SIM_QUICK=1), paired differences between cells, and the
plotting conventions (camp colours) shared by every figure."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from sim.roles import Winner
from sim.setup import load_toml
from sim.stats import mcnemar_p, paired_diff_interval

ROOT = Path(__file__).resolve().parent.parent
STUDIES = ROOT / "studies"
RESULTS = ROOT / "results"
FIGURES = RESULTS / "figures"
QUICK_GAMES = 120

CAMPS = ["town", "yakuza", "triad", "maniac"]
#: one colour per camp, the same in every figure
CAMP_COLORS = {"town": "#2c7fb8", "yakuza": "#d7301f", "triad": "#238b45",
               "maniac": "#6a51a3", "draw": "#969696", "stalemate": "#525252"}


def quick_mode() -> bool:
    return os.environ.get("MAFIA_SIM_QUICK", "") not in ("", "0")


class Study:
    """One study's tidy table (`df`), where its cells live, and whether it is a quick run."""

    def __init__(self, name: str, df: Any, folder: Path, quick: bool):
        self.name = name
        self.df = df
        self.folder = folder
        self.quick = quick

    def winners(self, cell_id: str) -> np.ndarray:
        """Per-game winners of a cell, in game order (for paired comparisons)."""
        return np.load(self.folder / "cells" / f"{cell_id}.winners.npy")

    def save(self, fig: Any, filename: str) -> None:
        """Save a figure under results/figures, unless this is a quick rebuild."""
        if not self.quick:
            FIGURES.mkdir(parents=True, exist_ok=True)
            fig.savefig(FIGURES / filename, dpi=120, bbox_inches="tight")


def load_study(name: str, quick: bool | None = None) -> Study:
    """The committed results of studies/<name>.toml, or a quick rebuild (QUICK_GAMES games a
    cell) when they are absent or quick mode is on."""
    import pandas as pd

    from sim.analysis import run_sweep

    quick = quick_mode() if quick is None else quick
    folder = RESULTS / "studies" / name
    table = folder / "results.parquet"
    if not quick and table.exists():
        return Study(name, pd.read_parquet(table), folder, False)
    spec = load_toml(STUDIES / f"{name}.toml")
    spec["run"] = {"games": QUICK_GAMES, "seed": spec.get("run", {}).get("seed", 0)}
    tmp = Path(tempfile.mkdtemp(prefix=f"mafia-{name}-"))
    df = run_sweep(spec, tmp, jobs=1)
    return Study(name, df, tmp, True)


def paired_rows(study: Study, base_id: str, ids: Iterable[str]) -> list[dict[str, Any]]:
    """For each cell, each camp's win-share difference against the base cell, with the
    paired 95% interval (the cells played the same seeds: common random numbers; Tango's
    score interval, sim.stats.paired_diff_interval) and McNemar's p-value."""
    base = study.winners(base_id)
    out = []
    for cid in ids:
        w = study.winners(cid)
        n = min(len(base), len(w))
        for camp in CAMPS:
            k = Winner[camp.upper()]
            in_cell, in_base = w[:n] == k, base[:n] == k
            b_only = int(np.count_nonzero(in_cell & ~in_base))
            a_only = int(np.count_nonzero(in_base & ~in_cell))
            diff, low, high = paired_diff_interval(b_only, a_only, n)
            out.append({"cell_id": cid, "camp": camp, "diff": diff, "low": low, "high": high,
                        "p_value": mcnemar_p(b_only, a_only), "games": n})
    return out


def forest(ax: Any, labels: list[str], rows: Mapping[str, list[dict[str, Any]]],
           title: str) -> None:
    """A forest plot: one row per label, one marker per camp with its 95% interval."""
    offsets = {c: (i - 1.5) * 0.18 for i, c in enumerate(CAMPS)}
    for camp in CAMPS:
        ys, xs, lo, hi = [], [], [], []
        for i, label in enumerate(labels):
            r = next(r for r in rows[label] if r["camp"] == camp)
            ys.append(i + offsets[camp])
            xs.append(100 * r["diff"])
            lo.append(100 * (r["diff"] - r["low"]))
            hi.append(100 * (r["high"] - r["diff"]))
        ax.errorbar(xs, ys, xerr=[lo, hi], fmt="o", ms=4, capsize=2, color=CAMP_COLORS[camp],
                    label=camp)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(range(len(labels)))
    ax.set_yticklabels(labels)
    ax.invert_yaxis()
    ax.set_xlabel("change in win share, points (95% paired interval)")
    ax.set_title(title)
    ax.legend(loc="best", fontsize=8)
