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

from sim.game.roles import Winner
from sim.play.setup import load_toml
from sim.play.stats import mcnemar_p, paired_diff_interval

#: the repository (sim/analysis/ is two folders below it)
ROOT = Path(__file__).resolve().parents[2]
STUDIES = ROOT / "studies"
RESULTS = ROOT / "results"
FIGURES = RESULTS / "figures"
QUICK_GAMES = 120

CAMPS = ["town", "yakuza", "triad", "maniac"]
#: one colour per camp, the same in every figure
CAMP_COLORS = {"town": "#2c7fb8", "yakuza": "#d7301f", "triad": "#238b45",
               "maniac": "#6a51a3", "draw": "#969696", "stalemate": "#525252"}


#: each rule option in plain words (sim.game.rules.RuleSet holds the defaults)
RULE_LABELS = {
    "require_vsb": "each clan must have its VSB",
    "allow_duplicate_roles": "a unique role may appear twice",
    "vote_rejection": "chance the host rejects a cast vote",
    "reveal_night_roles": "the newspaper reveals the roles of those killed at night",
    "p_absent": "chance a turn that a player posts nothing and leaves",
    "p_no_vote": "chance a turn that a player does not vote",
    "p_rule_break": "chance a turn that a player breaks a rule and is removed",
    "p_passive": "chance a turn that a player is removed for passive play",
    "abstention_limit": "turns without a vote before a player goes missing (0 = never)",
    "turn_limit": "turn at which a game stops as a stalemate",
    "maniac_vest": "the maniac has a bullet-proof vest",
    "maniac_ambush": "the maniac has a once-a-game ambush",
    "doctor_self_heal": "the doctor may heal himself",
    "doctor_repeat_heal": "the doctor may heal the same player two turns running",
    "harakiri_at": "peaceful kill at which the ninja commits harakiri (0 = never)",
    "necromancer_protects": "protects the necromancer hands out",
    "army_min_living": "living players the necromancer needs to raise the Army",
    "duel": "the endgame duel is played",
}


def _word(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    s = str(v).strip()
    if s.lower() in ("true", "false"):
        return "yes" if s.lower() == "true" else "no"
    try:
        return f"{float(s):g}"
    except ValueError:
        return s


def rule_label(label: str) -> str:
    """A study label such as "p_no_vote=0.1" in plain words with the option's default:
    "chance a turn that a player does not vote: 0.1 (p_no_vote, default 0)". Labels that are
    not a rule option come back as they are."""
    from dataclasses import fields

    from sim.game.rules import RuleSet

    name, _, value = label.partition("=")
    name = name.strip()
    if name not in RULE_LABELS or not value:
        return label
    default = next(f.default for f in fields(RuleSet) if f.name == name)
    return f"{RULE_LABELS[name]}: {_word(value)} ({name}, default {_word(default)})"


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


def load_study(name: str, quick: bool | None = None, results: Path | None = None,
               rebuild: bool = True) -> Study:
    """The committed results of studies/<name>.toml (under `results`, by default the
    repository's results/), or a quick rebuild (QUICK_GAMES games a cell) when they are absent
    or quick mode is on. With rebuild=False, absent results raise FileNotFoundError."""
    import pandas as pd

    from sim.analysis.sweep import run_sweep

    quick = quick_mode() if quick is None else quick
    folder = (RESULTS if results is None else results) / "studies" / name
    table = folder / "results.parquet"
    if not quick and table.exists():
        return Study(name, pd.read_parquet(table), folder, False)
    if not quick and not rebuild:
        raise FileNotFoundError(table)
    spec = load_toml(STUDIES / f"{name}.toml")
    spec["run"] = {"games": QUICK_GAMES, "seed": spec.get("run", {}).get("seed", 0)}
    tmp = Path(tempfile.mkdtemp(prefix=f"mafia-{name}-"))
    # where: the sweep file, so that paths in it (a params_file) read as from its folder
    df = run_sweep(spec, tmp, jobs=1, where=str(STUDIES / f"{name}.toml"))
    return Study(name, df, tmp, True)


def paired_rows(study: Study, base_id: str, ids: Iterable[str]) -> list[dict[str, Any]]:
    """For each cell, each camp's win-share difference against the base cell, with the
    paired 95% interval (the cells played the same seeds: common random numbers; Tango's
    score interval, sim.play.stats.paired_diff_interval) and McNemar's p-value."""
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
           title: str, legend: bool = True) -> None:
    """A forest plot: one row per label, one marker per camp with its 95% interval; the
    legend (unless legend=False, for all but one panel of a figure) outside the plot."""
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
    if legend:
        legend_outside(ax)


def legend_outside(ax: Any, **kw: Any) -> None:
    """The legend to the right of the plot area, where it covers no points."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0, fontsize=8, **kw)

