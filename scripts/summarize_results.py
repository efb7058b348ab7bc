"""Write results/README.md: the findings in numbers, from the committed study results.

Run: .venv/bin/python scripts/summarize_results.py
"""

from __future__ import annotations

import json

import pandas as pd

from sim.studies import RESULTS, load_study, paired_rows

CAMPS = ["town", "yakuza", "triad", "maniac"]


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def ci(row: pd.Series) -> str:
    return f"{100 * row['share']:.1f}% [{100 * row['low']:.1f}, {100 * row['high']:.1f}]"


def pts(r: dict) -> str:
    return f"{100 * r['diff']:+.1f} [{100 * r['low']:+.1f}, {100 * r['high']:+.1f}]"


def section_player_count(out: list[str]) -> None:
    s = load_study("01_player_count", quick=False)
    df = s.df
    out += ["## 1. Who wins, by table size (standard table, default agents)", "",
            "![player count](figures/player_count_shares.png)", "",
            "| players | town | yakuza | triad | maniac | draw | mean turns | duel |",
            "|---|---|---|---|---|---|---|---|"]
    for n in sorted(df.players.unique()):
        d = df[df.players == n].set_index("camp")
        out.append(f"| {n} | " + " | ".join(ci(d.loc[c]) for c in CAMPS) +
                   f" | {pct(d.loc['draw', 'share'])} | {d.loc['town', 'turns_mean']:.2f} | "
                   f"{pct(d.loc['town', 'duel_share'])} |")
    out += ["", "Regenerate: `mafia-sim sweep studies/01_player_count.toml --out "
            "results/studies/01_player_count` (cells to a 95% half-width under 1 point).", ""]


def section_recommended(out: list[str]) -> None:
    path = RESULTS / "recommended.csv"
    if not path.exists():
        return
    df = pd.read_csv(path)
    out += ["## Recommended compositions for 20-30 players", "",
            "Closest to the default target (Town 50%, each clan 20%, maniac 10%) among the "
            "tables near the standard one, by `mafia-sim recommend` (successive halving), "
            "then confirmed to a 95% half-width under 1 point; the standard table's shares "
            "beside them.", "",
            "| players | composition | town | yakuza | triad | maniac | distance "
            "| standard: town / distance |",
            "|---|---|---|---|---|---|---|---|"]
    for _, r in df.iterrows():
        cells = " | ".join(f"{100 * r[c]:.1f}% [{100 * r[c + '_low']:.1f}, "
                           f"{100 * r[c + '_high']:.1f}]" for c in CAMPS)
        out.append(f"| {r.players} | `{r.composition}` | {cells} | {r.distance:.3f} | "
                   f"{100 * r.standard_town:.1f}% / {r.standard_distance:.3f} |")
    out += ["", "Regenerate: `.venv/bin/python scripts/recommend_all.py`.", ""]


def section_roles(out: list[str]) -> None:
    s = load_study("04_role_values", quick=False)
    df = s.df
    labels = [x for x in df.label.unique() if x != "baseline"]
    out += ["## 4. What each role is worth", "",
            "Change in win share (points, paired 95% interval) when the role is replaced by a "
            "civilian, on common random numbers (10,000 paired games a cell).", "",
            "![role values](figures/role_values.png)", "",
            "| role | players | town | yakuza | triad | maniac |", "|---|---|---|---|---|---|"]
    for lab in labels:
        for n in sorted(df.players.unique()):
            d = df[df.players == n]
            base = d[d.label == "baseline"].cell_id.iloc[0]
            rows = paired_rows(s, base, [d[d.label == lab].cell_id.iloc[0]])
            out.append(f"| {lab} | {n} | " + " | ".join(
                pts(next(r for r in rows if r["camp"] == c)) for c in CAMPS) + " |")
    out += ["", "Regenerate: `mafia-sim sweep studies/04_role_values.toml --out "
            "results/studies/04_role_values`.", ""]


def section_rules(out: list[str]) -> None:
    s = load_study("05_rule_options", quick=False)
    df = s.df
    base = df[df.label == "default"].cell_id.iloc[0]
    labels = [x for x in df.label.unique() if x != "default"]
    rows = {lab: paired_rows(s, base, [df[df.label == lab].cell_id.iloc[0]]) for lab in labels}
    order = sorted(labels, key=lambda x: -max(abs(r["diff"]) for r in rows[x]))
    out += ["## 5. Rule options (25 players, each flipped alone, paired)", "",
            "![rule options](figures/rule_options.png)", "",
            "| option | town | yakuza | triad | maniac |", "|---|---|---|---|---|"]
    for lab in order:
        out.append(f"| `{lab}` | " + " | ".join(
            pts(next(r for r in rows[lab] if r["camp"] == c)) for c in CAMPS) + " |")
    out += ["", "Regenerate: `mafia-sim sweep studies/05_rule_options.toml --out "
            "results/studies/05_rule_options`.", ""]


def section_clans(out: list[str]) -> None:
    s = load_study("02_clans", quick=False)
    df = s.df
    out += ["## 2. The two clans (25 players)", "", "![clans](figures/clans_heatmap.png)", "",
            "Yakuza win share (rows: Yakuza size, columns: Triad size):", ""]
    g = df[df.camp == "yakuza"].pivot(index="clan.yakuza", columns="clan.triad", values="share")
    out.append("| Yakuza \\ Triad | " + " | ".join(str(c) for c in g.columns) + " |")
    out.append("|---|" + "---|" * len(g.columns))
    for y, row in g.iterrows():
        out.append(f"| {y} | " + " | ".join(pct(v) for v in row.values) + " |")
    g = df[df.camp == "triad"].pivot(index="clan.yakuza", columns="clan.triad", values="share")
    out += ["", "Triad win share:", "",
            "| Yakuza \\ Triad | " + " | ".join(str(c) for c in g.columns) + " |",
            "|---|" + "---|" * len(g.columns)]
    for y, row in g.iterrows():
        out.append(f"| {y} | " + " | ".join(pct(v) for v in row.values) + " |")
    sp = load_study("02b_specials", quick=False)
    d = sp.df

    def cid(k: int, t: int) -> str:
        return str(d[(d["role.kamikaze"] == k) & (d["role.thug"] == t)].cell_id.iloc[0])
    base = cid(1, 1)
    out += ["", "Kamikaze against thug: each special replaced by a plain mafioso (4 v 4, "
            "paired, points):", "", "![specials](figures/specials_forest.png)", "",
            "| case | town | yakuza | triad | maniac |", "|---|---|---|---|---|"]
    for lab, c in (("Yakuza without kamikaze", cid(0, 1)), ("Triad without thug", cid(1, 0)),
                   ("neither special", cid(0, 0))):
        rows = paired_rows(sp, base, [c])
        out.append(f"| {lab} | " + " | ".join(
            pts(next(r for r in rows if r["camp"] == cc)) for cc in CAMPS) + " |")
    out += ["", "Regenerate: `mafia-sim sweep studies/02_clans.toml --out results/studies/"
            "02_clans` and the same for `02b_specials`.", ""]


def section_maniac(out: list[str]) -> None:
    s = load_study("03_maniac", quick=False)
    m = s.df[s.df.camp == "maniac"].copy()
    duel = [c for c in m.columns if c.startswith("wins_by_duel")]
    m["duel_part"] = m[duel].fillna(0).sum(axis=1) / m.wins.clip(lower=1)
    out += ["## 3. The maniac", "", "![maniac](figures/maniac.png)", "",
            "| players | vest | ambush | maniac wins | of them by the duel |",
            "|---|---|---|---|---|"]
    for _, r in m.sort_values(["players", "rule.maniac_vest", "rule.maniac_ambush"],
                              ascending=[True, False, False]).iterrows():
        out.append(f"| {r.players} | {r['rule.maniac_vest']} | {r['rule.maniac_ambush']} | "
                   f"{ci(r)} | {pct(r.duel_part)} |")
    out += ["", "Regenerate: `mafia-sim sweep studies/03_maniac.toml --out results/studies/"
            "03_maniac`.", ""]


def section_skill(out: list[str]) -> None:
    s = load_study("06_skill", quick=False)
    t = s.df[s.df.camp == "town"].pivot(index="param.town_skill", columns="players",
                                        values="share")
    out += ["## 6. Skill", "", "![skill](figures/skill.png)", "",
            "Town's win share by town skill (rows) and table size (columns):", "",
            "| town_skill | " + " | ".join(str(c) for c in t.columns) + " |",
            "|---|" + "---|" * len(t.columns)]
    for k, row in t.iterrows():
        out.append(f"| {k} | " + " | ".join(pct(v) for v in row.values) + " |")
    for name in ("calibration.json", "calibration_75.json"):
        cal = RESULTS / name
        if not cal.exists():
            continue
        c = json.loads(cal.read_text())
        cmd = (f"`mafia-sim calibrate --players 25 --range 0,0.6 --points 7 --games 4000 "
               f"--target {c['target']}`")
        if c.get("value") is None:
            out += ["", f"Calibration for Town {c['target']:.0%} ({cmd}): {c['note']}."]
        else:
            out += ["", f"Calibration ({cmd}): Town wins {c['target']:.0%} of the standard "
                    f"25-player table at town_skill = {c['value']:.3f} (95% interval "
                    f"{c['low']:.3f} to {c['high']:.3f})."]
    r = load_study("06b_skill_roles", quick=False)
    d = r.df
    labels = [x for x in d.label.unique() if x != "baseline"]
    out += ["", "What each role is worth to Town (points, paired) across the skill range, "
            "25 players:", "", "![skill roles](figures/skill_roles.png)", "",
            "| role | " + " | ".join(f"skill {k}" for k in sorted(d['param.town_skill'].unique()))
            + " |", "|---|" + "---|" * d["param.town_skill"].nunique()]
    for lab in labels:
        cells = []
        for k in sorted(d["param.town_skill"].unique()):
            dk = d[d["param.town_skill"] == k]
            base = dk[dk.label == "baseline"].cell_id.iloc[0]
            rows = paired_rows(r, base, [dk[dk.label == lab].cell_id.iloc[0]])
            cells.append(pts(next(x for x in rows if x["camp"] == "town")))
        out.append(f"| {lab} | " + " | ".join(cells) + " |")
    out += ["", "Regenerate: `mafia-sim sweep studies/06_skill.toml --out results/studies/"
            "06_skill` and the same for `06b_skill_roles`.", ""]


def section_speed(out: list[str]) -> None:
    path = RESULTS / "bench.json"
    if not path.exists():
        return
    b = json.loads(path.read_text())
    out += ["## Speed of this machine (2 cores)", "",
            "`mafia-sim bench --jobs -1 --json > results/bench.json`:", "",
            "| players | agents | jobs | games/s | ms/game |", "|---|---|---|---|---|"]
    for r in b["rows"]:
        out.append(f"| {r['players']} | {r['agents']} | {r['jobs']} | "
                   f"{r['games_per_second']:,.0f} | {r['ms_per_game']:.2f} |")
    eff = b.get("parallel_efficiency")
    par = f"Parallel efficiency on {b['jobs']} jobs: {eff:.0%}; " if eff is not None else ""
    out += ["", f"{par}per-game cost grows as players^{b['growth_exponent_25_to_100']:.2f} "
            f"from 25 to 100 players; peak memory {b['peak_memory_mb']:.0f} MB.", ""]


def main() -> None:
    out = ["# Findings", "",
           "Every number below comes from the sweep files in `studies/`, run by `mafia-sim "
           "sweep` into `results/studies/<name>/` (tidy tables `results.csv` and "
           "`results.parquet`, one row per cell and camp; `cells/` holds each cell's summary "
           "and its per-game winners, for paired comparisons). All runs use the default "
           "`heuristic` agents and the default rule set unless a row says otherwise; every "
           "cell of a sweep plays the same seeds (common random numbers). Shares are given "
           "with their 95% interval. `scripts/run_studies.sh` reruns them all, "
           "`scripts/after_studies.sh` the recommendations, the calibration and the "
           "notebooks, and `.venv/bin/python scripts/summarize_results.py` this page.", ""]
    for f in (section_player_count, section_recommended, section_clans, section_maniac,
              section_roles, section_rules, section_skill, section_speed):
        try:
            f(out)
        except FileNotFoundError as e:
            out += [f"({f.__name__}: results missing: {e})", ""]
    (RESULTS / "README.md").write_text("\n".join(out) + "\n")
    print("wrote", RESULTS / "README.md")


if __name__ == "__main__":
    main()
