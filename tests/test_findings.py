"""results/README.md: the bottom line first, the robustness verdicts, the agents' exploit
table, and a page that survives any results missing. Runs on a tiny fake results tree."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import numpy as np
import pandas as pd
import pytest
from scripts_loader import load_script

from sim.analysis.findings import HOLDS_IN_SIGN, NOT_ROBUST, ROBUST, Estimate, verdict
from sim.analysis.studies import RULE_LABELS, rule_label
from sim.game.roles import Winner

ROOT = Path(__file__).resolve().parent.parent
CAMPS = ["town", "yakuza", "triad", "maniac"]


def summarize() -> ModuleType:
    return load_script("summarize_results")


def e(v: float, lo: float, hi: float) -> Estimate:
    return Estimate(v, lo, hi)


def test_verdict_robust_when_every_condition_is_significant_on_one_side() -> None:
    assert verdict([e(0.05, 0.03, 0.07), e(0.02, 0.001, 0.04)]) == ROBUST
    assert verdict([e(-0.05, -0.07, -0.03), e(-0.01, -0.02, -0.001)]) == ROBUST


def test_verdict_not_robust_when_a_condition_flips_significantly() -> None:
    assert verdict([e(0.05, 0.03, 0.07), e(-0.03, -0.05, -0.01)]) == NOT_ROBUST
    # an insignificant default that another condition significantly contradicts
    assert verdict([e(0.005, -0.01, 0.02), e(-0.03, -0.05, -0.01)]) == NOT_ROBUST


def test_verdict_holds_in_sign_otherwise() -> None:
    assert verdict([e(0.05, 0.03, 0.07), e(0.01, -0.01, 0.03)]) == HOLDS_IN_SIGN
    assert verdict([e(0.05, 0.03, 0.07), e(-0.01, -0.03, 0.01)]) == HOLDS_IN_SIGN


def test_verdict_for_a_share_uses_the_side_of_fifty_percent() -> None:
    assert verdict([e(0.60, 0.58, 0.62), e(0.55, 0.53, 0.57)], ref=0.5) == ROBUST
    assert verdict([e(0.60, 0.58, 0.62), e(0.45, 0.43, 0.47)], ref=0.5) == NOT_ROBUST
    assert verdict([e(0.60, 0.58, 0.62), e(0.51, 0.49, 0.53)], ref=0.5) == HOLDS_IN_SIGN
    assert verdict([]) == "not measured"


def test_rule_labels_cover_every_option_in_plain_words() -> None:
    from sim.game.rules import RuleSet
    assert set(RULE_LABELS) == set(RuleSet.names())
    assert rule_label("p_no_vote=0.1") == \
        "chance a turn that a player does not vote: 0.1 (p_no_vote, default 0)"
    assert rule_label("maniac_vest=false").endswith("no (maniac_vest, default yes)")
    assert rule_label("baseline") == "baseline"


# --- a tiny fake results tree -------------------------------------------------------------

def _cell(folder: Path, cid: str, winners: np.ndarray, extra: dict[str, object]) -> list[dict]:
    (folder / "cells").mkdir(parents=True, exist_ok=True)
    np.save(folder / "cells" / f"{cid}.winners.npy", winners)
    n = len(winners)
    rows = []
    for camp in [*CAMPS, "draw"]:
        wins = int(np.count_nonzero(winners == Winner[camp.upper()]))
        p = wins / n
        rows.append({"cell_id": cid, "camp": camp, "games": n, "wins": wins, "share": p,
                     "low": max(0.0, p - 0.02), "high": min(1.0, p + 0.02),
                     "turns_mean": 8.0, "duel_share": 0.1, **extra})
    return rows


def _winners(rng: np.random.Generator, n: int, town: float) -> np.ndarray:
    p = [town, (1 - town) * 0.4, (1 - town) * 0.35, (1 - town) * 0.25]
    return rng.choice(4, size=n, p=p).astype(np.int8)


def fake_tree(root: Path) -> Path:
    rng = np.random.default_rng(1)
    res = root / "results"
    # study 1: the standard table at 20, 25, 30 players
    f = res / "studies" / "01_player_count"
    rows = []
    for n, town in ((20, 0.58), (25, 0.62), (30, 0.60)):
        rows += _cell(f, f"p{n}", _winners(rng, 4000, town), {"players": n})
    pd.DataFrame(rows).to_parquet(f / "results.parquet")
    # study 4: role values at 20, 25 and 30 players, paired on the same games
    f = res / "studies" / "04_role_values"
    rows = []
    for n in (20, 25, 30):
        base = _winners(rng, 4000, 0.62)
        rows += _cell(f, f"b{n}", base, {"players": n, "label": "baseline"})
        for i, lab in enumerate(["commissar+sergeant", "ninja", "doctor", "necromancer",
                                 "kamikaze", "thug", "yakuza vsb", "triad vsb"]):
            w = base.copy()
            flip = rng.random(len(w)) < 0.08
            w[flip] = _winners(rng, int(flip.sum()), 0.4 if i % 2 == 0 else 0.7)
            rows += _cell(f, f"c{n}{i}", w, {"players": n, "label": lab})
    pd.DataFrame(rows).to_parquet(f / "results.parquet")
    pd.DataFrame([{"players": 25, "composition": "civilian*9,x", "standard": "civilian*10,x",
                   "games": 4000, "distance": 0.04, "standard_distance": 0.12, "standard_town": 0.6,
                   **{f"{c}{s}": v for c, v in zip(CAMPS, (0.5, 0.2, 0.2, 0.1), strict=True)
                      for s, v in (("", v), ("_low", v - 0.01), ("_high", v + 0.01))}}]
                 ).to_csv(res / "recommended.csv", index=False)
    (res / "exploit").mkdir()
    camps = {c: {"gain": 0.004, "low": -0.006, "high": 0.014,
                 "deviation": {f"{c}.noise": 0.1}, "tried": 12} for c in CAMPS}
    (res / "exploit" / "exploit_25.json").write_text(
        json.dumps({"games": 3000, "seed": 7, "camps": camps}))
    camps["town"] = {"gain": 0.069, "low": 0.047, "high": 0.092,
                     "deviation": {"town.crowd": 0.0}, "tried": 30}
    (res / "exploit" / "exploit_before_25.json").write_text(
        json.dumps({"games": 3000, "seed": 7, "camps": camps}))
    return res


def test_page_opens_with_the_bottom_line(tmp_path: Path) -> None:
    res = fake_tree(tmp_path)
    text = summarize().build(res, quick=False)
    assert text.startswith("# Findings\n\n## The bottom line\n")
    heads = [line for line in text.splitlines() if line.startswith("## ")]
    assert heads[:3] == ["## The bottom line", "## How far this holds",
                         "## How well the agents play"]
    assert heads[-1] == "## Method"
    bottom = text.split("## How far this holds")[0]
    assert "standard 25-player table favours Town by" in bottom
    assert "at 1 of the 1 table sizes" in bottom
    # conditions without results are skipped with a note, study 04 gives three conditions
    assert "`06b_skill_roles` has no results yet" in text
    assert "`07_profile_replaced_roles` has no results yet" in text
    assert "| 20 players |" in text and "| 30 players |" in text
    assert "### The value of the thug to the Triad:" in text
    # the exploit table, with the before-value beside it
    assert "### 25 players" in text and "`town.crowd=0.0`" in text and "+6.9 [+4.7, +9.2]" in text
    assert "not yet measured at 20" not in text  # no files at 20: no table at all
    # studies absent from the tree are noted, not rebuilt
    assert "results missing" in text


def test_recommendations_name_the_tables_passed_over(tmp_path: Path) -> None:
    """Issue 24 (point 3): a size where recommend passed over closer tables names them, and
    a size where no table held its check is marked so, in the table and the bottom line."""
    res = fake_tree(tmp_path)
    df = pd.read_csv(res / "recommended.csv")
    df = pd.concat([df, df.assign(players=26, composition="civilian*10,y")])
    df = df.assign(largest_gain=[0.01, 0.05], largest_gain_low=[-0.01, 0.03],
                   largest_gain_high=[0.03, 0.07], largest_gain_camp="town",
                   nash_conv=[0.02, 0.06], recommended=[True, False],
                   passed_over=["civilian*9,z", "civilian*10,y;civilian*11,w"])
    df.to_csv(res / "recommended.csv", index=False)
    text = summarize().build(res, quick=False)
    assert "| 26 (*none held*) | `civilian*10,y` |" in text and "| 25 | `civilian*9,x` |" in text
    assert ("Passed over by `recommend`'s check" in text and "25 players `civilian*9,z`" in text
            and "26 players `civilian*11,w`" in text)
    assert "no table near the standard one held against the best responses" in text
    # a file from before the column says nothing of it
    df.drop(columns=["recommended", "passed_over"]).to_csv(res / "recommended.csv", index=False)
    text = summarize().build(res, quick=False)
    assert "none held" not in text and "Passed over" not in text


def test_page_survives_an_empty_results_tree(tmp_path: Path) -> None:
    res = tmp_path / "results"
    res.mkdir()
    text = summarize().build(res, quick=False)
    assert text.startswith("# Findings\n\n## The bottom line\n")
    assert "not yet measured" in text
    assert "No robustness study has results yet." in text


def test_main_writes_the_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    res = fake_tree(tmp_path)
    summarize().main(["--results", str(res)])
    assert (res / "README.md").read_text().startswith("# Findings\n\n## The bottom line")


def test_the_findings_page_warns_when_the_studies_predate_the_agents(tmp_path: Path) -> None:
    """A study played under other agent defaults than today's (its manifest's
    `agents_defaults`, recorded by the sweep) makes the page say so at the top, naming it;
    studies played under today's defaults, or recording none, raise no warning."""
    from agents.registry import defaults_digest

    mod = summarize()
    for name, digest in (("01_a", "played long ago"), ("02_b", defaults_digest())):
        folder = tmp_path / "studies" / name
        folder.mkdir(parents=True)
        (folder / "manifest.json").write_text(json.dumps(
            {"sweep_hash": "x", "agents_defaults": {"heuristic": digest}}))
    (tmp_path / "studies" / "03_c").mkdir()
    (tmp_path / "studies" / "03_c" / "manifest.json").write_text(json.dumps({}))
    assert mod.stale_studies(tmp_path) == [("01_a", "played long ago")]
    mod.RESULTS = tmp_path
    out: list[str] = []
    mod.section_stale(out)
    assert "do not describe today's agents" in out[0] and "01_a" in out[0]
    assert "02_b" not in out[0]
    (tmp_path / "studies" / "01_a" / "manifest.json").unlink()
    out = []
    mod.section_stale(out)
    assert out == []


def test_outside_deviations_target_counts_only_a_camps_own_deviation(tmp_path: Path) -> None:
    """Issue 24's second target is about a camp's own deviation from the default: the joint
    row (two clans at once) and the rows measured from another base are shown, each clan's
    gain in the joint row, but the "over the target" line names only own deviations."""
    def row(what: str, camp: str, g: float, hi: float, **kw: object) -> dict[str, object]:
        return {"deviation": what, "camp": camp, "gain": g, "low": g - 0.01, "high": hi, **kw}

    devs = [row("Yakuza members lie pre-emptively", "yakuza", -0.09, -0.08),
            row("both clans lie pre-emptively (joint)", "yakuza", 0.018, 0.033, joint=True,
                camps={"yakuza": {"gain": 0.018, "low": 0.003, "high": 0.033},
                       "triad": {"gain": -0.034, "low": -0.049, "high": -0.019}}),
            row("Yakuza members lie pre-emptively, when the Triad's do", "yakuza", -0.12,
                -0.10, base={"mafioso": "deviations:TriadPreemptiveLiarMafioso"})]
    (tmp_path / "outside_25.json").write_text(json.dumps({"games": 4000, "seed": 11,
                                                          "deviations": devs}))
    lines: list[str] = []
    summarize().section_outside(lines, tmp_path)
    page = "\n".join(lines)
    assert "| both clans lie pre-emptively (joint) | yakuza, triad | yakuza +1.8" in page
    assert "triad -3.4" in page
    assert "every camp's own deviation has its upper bound within +2 points" in page
    devs.append(row("Triad Don fakes the commissar on day 1", "triad", 0.02, 0.035))
    (tmp_path / "outside_25.json").write_text(json.dumps({"games": 4000, "seed": 11,
                                                          "deviations": devs}))
    lines = []
    summarize().section_outside(lines, tmp_path)
    over = [line for line in lines if line.startswith("Over the target")]
    assert over and "Triad Don fakes" in over[0] and "joint" not in over[0]
