"""Write results/README.md: the findings in numbers, from the committed study results.

The page opens with the bottom line for a host, then how far the headline findings hold and
how well the agents play, then the details, and the method last. Every number is read from
the results files; a study or file that is missing is noted, never an error.

Run: .venv/bin/python scripts/summarize_results.py [--results DIR] [--out FILE] [--quick]
(--quick, or MAFIA_SIM_QUICK=1, rebuilds the studies with a few games a cell instead).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pandas as pd

from sim.analysis import findings
from sim.analysis.recommend import CHECK_BUDGET, CHECK_GAMES, DEFAULT_TARGET
from sim.analysis.studies import RESULTS as DEFAULT_RESULTS
from sim.analysis.studies import Study, load_study, paired_rows, quick_mode, rule_label

CAMPS = ["town", "yakuza", "triad", "maniac"]
NAMES = {"town": "Town", "yakuza": "the Yakuza", "triad": "the Triad", "maniac": "the maniac"}
RESULTS = DEFAULT_RESULTS
QUICK = False


def study(name: str) -> Study:
    """A study's results under RESULTS (FileNotFoundError when absent), or a quick rebuild."""
    return load_study(name, quick=QUICK, results=RESULTS, rebuild=False)


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def ci(row: pd.Series) -> str:
    return f"{100 * row['share']:.1f}% [{100 * row['low']:.1f}, {100 * row['high']:.1f}]"


def pts(r: dict) -> str:
    return f"{100 * r['diff']:+.1f} [{100 * r['low']:+.1f}, {100 * r['high']:+.1f}]"


def section_player_count(out: list[str]) -> None:
    s = study("01_player_count")
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
    checked = "largest_gain" in df.columns
    held = "recommended" in df.columns
    out += ["## Recommended compositions for 20-30 players", "",
            "Closest to the default target (Town 50%, each clan 20%, maniac 10%) among the "
            "tables near the standard one, by `mafia-sim recommend` (successive halving), "
            "then confirmed to a 95% half-width under 1 point; the standard table's shares "
            "beside them." + (
                " Each recommended table is then checked against each camp's best response "
                "(`exploit`'s search with the talk, as `recommend --check` does: "
                f"{CHECK_BUDGET:,} selection and {CHECK_GAMES:,} confirming games a camp): the "
                "largest gain a camp finds by playing differently, with its 95% interval. A "
                "table balanced only because a camp blunders would show a large gain "
                "there." if checked else "") + (
                " `recommend` itself checks its closest confirmed tables in order and passes "
                "over one where a camp's best response surely gains more than 2 points "
                "(`recommend --max-gain`): the tables passed over are named under the table, "
                "and a size where none held is marked *none held*." if held else ""), "",
            *([STALE_RECOMMENDED, ""] if recommendations_stale(RESULTS) else []),
            "| players | composition | town | yakuza | triad | maniac | distance "
            "| standard: town / distance |" + (" largest gain (camp) | NashConv |"
                                               if checked else ""),
            "|---|---|---|---|---|---|---|---|" + ("---|---|" if checked else "")]
    for _, r in df.iterrows():
        cells = " | ".join(f"{100 * r[c]:.1f}% [{100 * r[c + '_low']:.1f}, "
                           f"{100 * r[c + '_high']:.1f}]" for c in CAMPS)
        line = (f"| {r.players} | `{r.composition}` | {cells} | {r.distance:.3f} | "
                f"{100 * r.standard_town:.1f}% / {r.standard_distance:.3f} |")
        if checked:
            line += (f" {100 * r.largest_gain:+.1f} [{100 * r.largest_gain_low:+.1f}, "
                     f"{100 * r.largest_gain_high:+.1f}] ({NAMES[r.largest_gain_camp]}) | "
                     f"{100 * r.nash_conv:.1f} |")
        if held and str(r.recommended) == "False":
            line = line.replace(f"| {r.players} |", f"| {r.players} (*none held*) |", 1)
        out.append(line)
    passed = ([(int(r.players), c) for _, r in df.iterrows()
               for c in (r.passed_over if isinstance(r.passed_over, str) else "").split(";")
               if c]
              if "passed_over" in df.columns else [])
    if passed:
        out += ["", "Passed over by `recommend`'s check (closer to the target, but a camp's "
                    "best response surely gained more than 2 points there): " + "; ".join(
                        f"{n} players `{c}`" for n, c in passed) + "."]
    if checked:
        worst = df.loc[df.largest_gain.idxmax()]
        if held and not any(str(v) == "True" for v in df.recommended):
            out += ["", "No size has a table that holds the check: against the default "
                        "agents a camp surely gains more than 2 points at every table listed "
                        "(Town, by the answer under *NashConv on the standard tables*), so "
                        "their shares describe the rules as played by a camp that blunders. "
                        "They are listed as the closest tables, not as recommendations."]
        out += ["", f"The largest gain any camp finds at a table listed here is "
                    f"{100 * worst.largest_gain:+.1f} points ({NAMES[worst.largest_gain_camp]}, "
                    f"{int(worst.players)} players); the standard tables' own are under "
                    "*NashConv on the standard tables*. These are gains against the default "
                    "agents, measured with smaller budgets than that section's, so a small "
                    "gain can hide in the intervals."]
    out += ["", "Regenerate: `.venv/bin/python scripts/recommend_all.py` (the check alone: "
                "`--check-only`).", ""]


def section_roles(out: list[str]) -> None:
    s = study("04_role_values")
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
    s = study("05_rule_options")
    df = s.df
    base = df[df.label == "default"].cell_id.iloc[0]
    labels = [x for x in df.label.unique() if x != "default"]
    rows = {lab: paired_rows(s, base, [df[df.label == lab].cell_id.iloc[0]]) for lab in labels}
    order = sorted(labels, key=lambda x: -max(abs(r["diff"]) for r in rows[x]))
    out += ["## 5. Rule options (25 players, each flipped alone, paired)", "",
            "![rule options](figures/rule_options.png)", "",
            "| option | town | yakuza | triad | maniac |", "|---|---|---|---|---|"]
    for lab in order:
        out.append(f"| {rule_label(lab)} | " + " | ".join(
            pts(next(r for r in rows[lab] if r["camp"] == c)) for c in CAMPS) + " |")
    out += ["", "Regenerate: `mafia-sim sweep studies/05_rule_options.toml --out "
            "results/studies/05_rule_options`.", ""]


def section_clans(out: list[str]) -> None:
    s = study("02_clans")
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
    sp = study("02b_specials")
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
    s = study("03_maniac")
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
    s = study("06_skill")
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
    r = study("06b_skill_roles")
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
            "| build | players | agents | jobs | games/s | ms/game |",
            "|---|---|---|---|---|---|"]
    for r in b["rows"]:  # each row names its build since bench compares them (issue 12)
        out.append(f"| {r.get('build', 'pure')} | {r['players']} | {r['agents']} | "
                   f"{r['jobs']} | {r['games_per_second']:,.0f} | {r['ms_per_game']:.2f} |")
    eff = b.get("parallel_efficiency")
    par = f"Parallel efficiency on {b['jobs']} jobs: {eff:.0%}; " if eff is not None else ""
    out += ["", f"{par}per-game cost grows as players^{b['growth_exponent_25_to_100']:.2f} "
            f"from 25 to 100 players; peak memory {b['peak_memory_mb']:.0f} MB.", ""]


def whole(x: float) -> str:
    """A target share as a plain percentage: 0.2 -> "20%"."""
    return f"{100 * x:g}%"


def signed(x: float) -> str:
    return f"{100 * abs(x):.1f} point" + ("" if round(100 * abs(x), 1) == 1 else "s")


def against(share: float, low: float, high: float, target: float) -> str:
    """How a share with its interval stands against a target, in words."""
    if low > target:
        return f"{signed(share - target)} above the {whole(target)} target"
    if high < target:
        return f"{signed(share - target)} below the {whole(target)} target"
    return f"within noise of the {whole(target)} target"


def interval(share: float, low: float, high: float) -> str:
    return f"{pct(share)} [{100 * low:.1f}, {100 * high:.1f}]"


def section_bottom_line(out: list[str]) -> None:
    out += ["## The bottom line", ""]
    try:
        df = study("01_player_count").df
    except FileNotFoundError:
        out += ["The player-count study (`01_player_count`) has no results yet, so this page "
                "cannot yet say which camp the standard table favours.", ""]
        section_bottom_recommended(out)
        return
    sizes = sorted(int(n) for n in df.players.unique())
    n0 = 25 if 25 in sizes else sizes[len(sizes) // 2]
    d = df[df.players == n0].set_index("camp")
    t = d.loc["town"]
    games = int(t.games)
    if t.low > 0.5:
        head = (f"**The standard {n0}-player table favours Town by {signed(t.share - 0.5)}.** "
                f"Town wins {interval(t.share, t.low, t.high)} of games, where a balanced "
                "table would give it 50%")
    elif t.high < 0.5:
        head = (f"**The standard {n0}-player table favours Town's enemies: Town wins "
                f"{signed(0.5 - t.share)} less than the 50% of a balanced table**, "
                f"{interval(t.share, t.low, t.high)} of games")
    else:
        head = (f"**The standard {n0}-player table is within noise of balanced.** Town wins "
                f"{interval(t.share, t.low, t.high)} of games, and 50% lies inside that "
                "interval")
    out += [head + f" ({games:,} games with the default agents; a point is one percentage "
            "point, and brackets hold the 95% interval).", ""]
    nc = nash_conv_row(n0)
    if nc is not None:
        camp = max(CAMPS, key=lambda c: -1 if pd.isna(nc.get(f"{c}_gain")) else
                   nc[f"{c}_gain"])
        out += [f"Read it beside how well the agents play: against them, {NAMES[camp]} "
                f"could still gain {nc[f'{camp}_gain'] * 100:+.1f} points "
                f"[{nc[f'{camp}_low'] * 100:+.1f}, {nc[f'{camp}_high'] * 100:+.1f}] by "
                f"playing differently, and the camps' gains sum to NashConv "
                f"{nc['nash_conv'] * 100:.1f}% (`exploit`; *How well the agents play* "
                "below).", ""]
        outside = read_json(RESULTS / "exploit" / "outside_25.json") or {}
        holes = [r for r in outside.get("deviations", []) if r.get("low", 0) > 0.02]
        if holes:
            worst = max(holes, key=lambda r: r["gain"])
            out += [f"**But a habit the search did not hold beats the agents**: "
                    f"\"{worst['deviation']}\" gains {NAMES[worst['camp']]} "
                    f"{gain(worst)} points at this table (a deviation written outside the "
                    "project: *Deviations written outside the project* below), so these "
                    "shares describe the agents' play until their equilibrium answers it.",
                    ""]
    lines = []
    for camp in CAMPS[1:]:
        if camp not in d.index:
            continue
        r = d.loc[camp]
        name = NAMES[camp][0].upper() + NAMES[camp][1:]
        lines.append(f"- {name} wins {interval(r.share, r.low, r.high)}: "
                     f"{against(r.share, r.low, r.high, DEFAULT_TARGET[camp])}.")
    if lines:
        out += [f"Against the default target (Town {whole(DEFAULT_TARGET['town'])}, the "
                f"Yakuza {whole(DEFAULT_TARGET['yakuza'])}, the Triad "
                f"{whole(DEFAULT_TARGET['triad'])}, the maniac "
                f"{whole(DEFAULT_TARGET['maniac'])}):",
                "", *lines, ""]
    town = df[df.camp == "town"].sort_values("share")
    if len(town) > 1:
        lo, hi = town.iloc[0], town.iloc[-1]
        above = int((town.low > 0.5).sum())
        below = int((town.high < 0.5).sum())
        k = len(town)
        if above == k:
            where = "above 50% at every size"
        elif below == k:
            where = "below 50% at every size"
        else:
            where = (f"above 50% at {above} of the {k} sizes, below it at {below}, and within "
                     f"noise of it at {k - above - below}")
        out += [f"Across {sizes[0]} to {sizes[-1]} players (the standard table at each size) "
                f"Town's share runs from {interval(lo.share, lo.low, lo.high)} at "
                f"{int(lo.players)} players to {interval(hi.share, hi.low, hi.high)} at "
                f"{int(hi.players)}: {where}.", ""]
    section_bottom_recommended(out)


def section_bottom_recommended(out: list[str]) -> None:
    path = RESULTS / "recommended.csv"
    if not path.exists():
        out += ["Which tables come closer to the target is not yet measured "
                "(`results/recommended.csv` is missing).", ""]
        return
    df = pd.read_csv(path)
    if df.empty:
        return
    if recommendations_stale(RESULTS):
        out += [STALE_RECOMMENDED, ""]
    better = df[df.distance < df.standard_distance]
    best = df.sort_values("distance").head(3)
    out += [f"The tables closest to the target (by `mafia-sim recommend`, confirmed on fresh "
            f"games): at {len(better)} of the {len(df)} table sizes a recommended composition "
            "is closer to the target than the standard table. The closest:", ""]
    for _, r in best.iterrows():
        shares = ", ".join(f"{NAMES[c]} {interval(r[c], r[c + '_low'], r[c + '_high'])}"
                           for c in CAMPS)
        check = (f"; the largest gain a camp finds against the agents there: "
                 f"{100 * r.largest_gain:+.1f} [{100 * r.largest_gain_low:+.1f}, "
                 f"{100 * r.largest_gain_high:+.1f}] points, {NAMES[r.largest_gain_camp]}"
                 if "largest_gain" in df.columns and not pd.isna(r.largest_gain) else "")
        if "recommended" in df.columns and str(r.recommended) == "False":
            check += "; no table near the standard one held against the best responses"
        out.append(f"- {int(r.players)} players, `{r.composition}`: {shares} (distance "
                   f"{r.distance:.3f}; the standard {int(r.players)}-player table "
                   f"{r.standard_distance:.3f}{check}).")
    out += ["", "The distance is the root of the summed squared gaps between each camp's share "
            "and its target; the full list is under *Recommended compositions* below.", ""]


def nash_conv_row(players: int, profile: str = "default") -> pd.Series | None:
    """The committed NashConv row of a standard table, or None."""
    path = RESULTS / "nash_conv.csv"
    if not path.exists():
        return None
    df = pd.read_csv(path)
    rows = df[(df.players == players) & (df.profile == profile)]
    return None if rows.empty else rows.iloc[0]


def default_exploit_file(players: int) -> str:
    """The `exploit --json` run the default's NashConv row was recorded from
    (`scripts/nash_conv.py --from-json`), so the per-size tables show the same run; else
    exploit_N.json."""
    import re

    row = nash_conv_row(players)
    found = re.search(r"recorded from (\S+\.json)", str(row["command"])) if row is not None \
        else None
    return found.group(1) if found else f"exploit_{players}.json"


#: the first day of nash_conv.csv rows measured by the search that replays sim/data/answers.toml
ANSWERS_SINCE = "2026-12-07"


def section_nash_conv(out: list[str]) -> None:
    """Each camp's best gain and NashConv on the standard tables (sim/data/nash_conv.csv,
    linked from results/, written by scripts/nash_conv.py): the figures every balance
    number on this page is read beside (issue 24)."""
    path = RESULTS / "nash_conv.csv"
    out += ["### NashConv on the standard tables (the current default agents)", ""]
    if not path.exists():
        out += ["Not measured yet (`results/nash_conv.csv` is missing: "
                "`scripts/nash_conv.py`).", ""]
        return
    df = pd.read_csv(path)
    default = df[df.profile == "default"]
    measured = (f"seed {', '.join(str(int(x)) for x in sorted(set(default.seed.dropna())))}"
                f", {', '.join(sorted(set(default.date.dropna().astype(str))))}")
    # the search has replayed the answers found before since 2026-12-07 (ad69545)
    new = df.date.astype(str) >= ANSWERS_SINCE
    replayed = []
    for name in sorted(set(df[new & (df.profile != "default")].profile)):
        mine = df.profile == name
        seeds = sorted({int(x) for x in df[mine & new].seed.dropna()})
        replayed.append(name if new[mine].all() else
                        f"{name}'s seed-{'/'.join(map(str, seeds))} rows")
    also = f" and the rows of {', '.join(replayed)}" if replayed else ""
    out += ["A balance figure describes the rules only as far as no camp could do better by "
            "playing differently. Each row is `mafia-sim exploit` on the standard table: "
            "each camp's best deviation found (its talk and votes included) against the "
            "profile named, its gain in the camp's own win share in points with the 95% "
            "interval, and NashConv, the gains summed (a loss counting 0). *default* is "
            "what `mafia-sim run` plays, the shipped mixture (agents/profiles/heuristic.toml: "
            "mixture_25s, since the evening of 2026-12-07; the studies below were measured "
            "under it); *mixture_25p_as_played* was the default earlier that day, and "
            "*mixture_25g* from 2026-12-04 to 2026-12-07 (their *seed 43* rows were measured "
            "as the default, with the search of their day); "
            "*shipped_single* is the shipped file's single profile (`--single-profile`, "
            "the default until 2026-12-04); another name is the parameter file measured "
            "(`--params`, results/profiles/). Every figure is what the search found, a "
            f"lower bound on what a camp could gain. The *default* rows ({measured}){also} "
            "come from the search that replays the answers found before "
            "(`sim/data/answers.toml`; the default's were measured again late on 2026-12-07, "
            "once Town's answer found by PSRO at 20 players was among them: every search "
            "against the default at 20 players had let it go, mixture.md, \"2026-12-07 "
            "(fifth)\"); the other rows come from the search before it, "
            "which missed Town's answer to the default (a hero's "
            "silence with a defence from the first votes, two changes that each lose "
            "alone: the early defence brings Town's decoys to claim at the first votes, "
            "and a hero who answers them shows himself), so they understate what Town "
            "could gain: against mixture_25g, by about 8 points. The rows of mixture_25k "
            "to mixture_25q measure those mixtures as they were played: their files' "
            "`[params]` then overrode the clans' `mafia_follow` and `rope_claim` in every "
            "profile (mixture.md, \"2026-12-07 (third)\"). Issue 24's target is "
            "every gain at most 1 point with its upper end at most 2, at least 30 "
            "deviations tried a camp.", "",
            "| profile | players | Town | Yakuza | Triad | maniac | NashConv | fewest tried "
            "| command |", "|---|---|---|---|---|---|---|---|---|"]
    for _, r in df.sort_values(["profile", "players"]).iterrows():
        cells = []
        for c in CAMPS:
            if pd.isna(r.get(f"{c}_gain")):
                cells.append("-")
                continue
            cells.append(f"{r[f'{c}_gain'] * 100:+.1f} [{r[f'{c}_low'] * 100:+.1f}, "
                         f"{r[f'{c}_high'] * 100:+.1f}]")
        tried = min(int(r[f"{c}_tried"]) for c in CAMPS if not pd.isna(r.get(f"{c}_tried")))
        out.append(f"| {r['profile']} | {int(r['players'])} | " + " | ".join(cells)
                   + f" | {r['nash_conv'] * 100:.1f} [{r['nash_conv_low'] * 100:.1f}, "
                   f"{r['nash_conv_high'] * 100:.1f}] | {tried} | `{r['command']}` |")
    out += ["", "The mixtures PSRO found at 25 players (`mafia-sim equilibrate --mixture`), "
                "round by round, why mixture_25g was the default, why mixture_25p, as "
                "played, replaced it (less exploitable at every standard size; the headline "
                "studies under both, side by side: "
                "[under_mixture_25p/](under_mixture_25p/README.md)), and why mixture_25s "
                "replaced that (within a point a camp at 25 and 30 players): "
                "[mixture.md](mixture.md).",
            ""]


def section_robustness(out: list[str]) -> None:
    out += ["## How far this holds", "",
            "Each headline finding measured again under other conditions: the default agents "
            "at 25 players (study 04), with Town reading worse and better (`town_skill` 0, "
            "0.3 and 0.6; default 0.15; study 06b), with the clans reading half and twice as "
            "well (`mafia_skill` 0.3 and 1.2; default 0.6; study 06c), under an older "
            "profile (study 07, `results/profiles/pre_equilibrium.toml`, the default before "
            "issue 10; its parameters win over the mixture's), and at 20 and 30 players "
            "(study 04). "
            "A role's value is the owner camp's win share with the role minus without it "
            "(the role replaced by a civilian or a plain mafioso), in points, paired on the "
            "same games. Town's share here is study 04's standard table, on that study's own "
            "games, so it can differ from the bottom line's figure by noise. Verdicts: "
            "**robust** when every condition's interval lies on the "
            "default's side of zero (of 50% for Town's share); **not robust** when some "
            "condition's interval lies wholly on the other side; otherwise **holds in sign, "
            "not everywhere significant**.", ""]
    loader: Any = study
    conds = findings.load_conditions(loader)
    for note in conds.notes:
        out.append(f"- Note: {note}.")
    if conds.notes:
        out.append("")
    if not conds.items:
        out += ["No robustness study has results yet.", ""]
        return
    hs = findings.headlines(conds)
    out += ["![robustness](figures/robustness.png)", "",
            "| finding | default | verdict | conditions |", "|---|---|---|---|"]
    for h in hs:
        if not h.rows:
            continue
        out.append(f"| {h.title} | {findings.fmt(h.rows[0][1], h.unit)} | {h.verdict} | "
                   f"{len(h.rows)} |")
    out.append("")
    for h in hs:
        if not h.rows:
            continue
        unit = "share" if h.unit == "share" else "points"
        out += [f"### {h.title}: {h.verdict}", "", f"| condition | {unit} [95% interval] |",
                "|---|---|"]
        out += [f"| {name} | {findings.fmt(e, h.unit)} |" for name, e in h.rows]
        out.append("")
    section_across_profiles(out)


def section_across_profiles(out: list[str], table: Path | None = None) -> None:
    """The headline findings with one camp held to one of the default mixture's profiles
    (scripts/across_profiles.py): the range each finding spans over them."""
    import pandas as pd

    table = table or RESULTS / "across_profiles.csv"
    if not table.exists():
        return
    df = pd.read_csv(table, keep_default_na=False)
    out += ["### Across the default mixture's profiles", "",
            "The default agents draw each camp's profile per game from the shipped mixture, "
            "so each figure above averages over profiles. Held to one profile at a time (one "
            "camp, the others keeping their mixture, the same seeds), the findings span "
            "(details: [across_profiles.md](across_profiles.md)):", ""]
    for n, d in df.groupby("players", sort=False):
        std = d[(d.cell == "standard") & (d.camp == "town")]
        held = std[std.held != ""]
        mixed = 100 * std[std.held == ""].value.iloc[0]
        parts = [f"Town's share {100 * held.value.min():.1f}% to "
                 f"{100 * held.value.max():.1f}% over {len(held)} profiles held (the "
                 f"mixture: {mixed:.1f}%; "
                 f"{'above' if held.low.min() > 0.5 else 'not always above'} 50%)"]
        for cell, g in d[(d.cell != "standard") & (d.held != "")].groupby("cell", sort=False):
            sign = ("positive under every one" if (g.low > 0).all() else
                    "of one sign" if (g.value >= 0).all() or (g.value <= 0).all() else
                    "of both signs")
            parts.append(f"the {cell[len('value of '):]}'s value {100 * g.value.min():+.1f} "
                         f"to {100 * g.value.max():+.1f} points ({sign})")
        out.append(f"- {n} players: " + "; ".join(parts) + ".")
    out.append("")


def deviation(dev: Any) -> str:
    if not dev:
        return "none (the defaults)"
    if isinstance(dev, dict):
        return ", ".join(f"`{k}={v}`" for k, v in dev.items())
    return f"`{dev}`"


def gain(c: dict[str, Any] | None) -> str:
    if not c or c.get("gain") is None:
        return "-"
    return f"{100 * c['gain']:+.1f} [{100 * c['low']:+.1f}, {100 * c['high']:+.1f}]"


def largest(camps: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The camp of an exploit run with the largest gain, and its figures."""
    return max(camps.items(), key=lambda kv: kv[1].get("gain") or 0.0)


def read_json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def section_agents(out: list[str]) -> None:
    out += ["## How well the agents play", "",
            "A balance figure describes the rules only if no camp could do better by playing "
            "differently. `mafia-sim exploit` searches each camp's own deviations from the "
            "default agents (the other camps unchanged, paired games) and reports the best "
            "gain in that camp's own win share, in points with its 95% interval. Small gains "
            "mean the numbers on this page describe the rules, not the agents' mistakes. "
            "*Before* is the agents before the equilibrium work, measured with the search "
            "of that day, which did not replay the answers found before "
            "(`sim/data/answers.toml`), so it is no lower bar for the current figures: "
            "Town's largest gain at the default now is that answer.", ""]
    section_nash_conv(out)
    folder = RESULTS / "exploit"
    found = False
    for n in (20, 25, 30):
        after = read_json(folder / default_exploit_file(n))
        before = read_json(folder / f"exploit_before_{n}.json")
        if after is None and before is None:
            continue
        found = True
        src = after or before or {}
        out += [f"### {n} players", "",
                f"`mafia-sim exploit --players {n} --games {src.get('games', '?')} --budget "
                f"{src.get('budget', '?')} --seed {src.get('seed', '?')} --json` (against the "
                "default agents of the day it ran; *before*: the single profile before the "
                "equilibrium work).", "",
                "| camp | best gain | deviation | tried | before: best gain | before: "
                "deviation |", "|---|---|---|---|---|---|"]
        for camp in CAMPS:
            a = (after or {}).get("camps", {}).get(camp)
            b = (before or {}).get("camps", {}).get(camp)
            if a is None and b is None:
                continue
            dev_a = deviation(a.get("deviation")) if a else "-"
            if a and a.get("overlay"):
                dev_a += " (over its mixture)"
            dev_b = deviation(b.get("deviation")) if b else "-"
            out.append(f"| {camp} | {gain(a)} | {dev_a} | {(a or {}).get('tried', '-')} | "
                       f"{gain(b)} | {dev_b} |")
        if after is None:
            out.append("")
            out.append(f"The current agents are not yet measured at {n} players.")
        elif after.get("camps"):
            worst = largest(after["camps"])
            out += ["", f"Largest gain now: {worst[0]}, {gain(worst[1])} points."]
            if after.get("nash_conv") is not None:
                out[-1] += (f" NashConv {100 * after['nash_conv']:.1f} "
                            f"[{100 * after['low']:.1f}, {100 * after['high']:.1f}].")
        out.append("")
    if not found:
        out += ["The agents' exploitability is not yet measured (no `results/exploit/"
                "exploit_*.json`).", ""]
    section_outside(out, folder)
    section_cycle(out, folder)
    profiles = sorted((RESULTS / "profiles").glob("equilibrium_*.toml"))
    if profiles:
        out.append("Equilibrium profiles (`mafia-sim equilibrate`): " + ", ".join(
            f"[{p.name}](profiles/{p.name})" for p in profiles) + ".")
        out.append("")
    prev = RESULTS / "profiles" / "pre_equilibrium.toml"
    if prev.exists():
        out += ["The profile the default replaced: "
                "[pre_equilibrium.toml](profiles/pre_equilibrium.toml).", ""]


def section_outside(out: list[str], folder: Path) -> None:
    """The deviations written outside the project through the public agent API
    (examples/deviations.py, scripts/outside_deviations.py), against the default agents:
    each deviating camp's own gain at each table size."""
    runs = {n: read_json(folder / f"outside_{n}.json") for n in (20, 25, 30)}
    runs = {n: d for n, d in runs.items() if d and d.get("deviations")}
    if not runs:
        return
    sizes = sorted(runs)
    first = runs[sizes[0]]
    out += ["### Deviations written outside the project", "",
            "Each row is a habit a strong forum player might adopt, written as a subclass of "
            "the shipped agents through the public agent API (`examples/deviations.py`) and "
            "played against the default agents on the same seeds (`scripts/outside_deviations."
            f"py --players N --games {first.get('games')} --seed {first.get('seed')}`): the "
            "deviating camp's own gain in points, with its 95% paired interval. Issue 24's "
            "target: no camp's own deviation gains more than 2 points (upper bound) at 25 "
            "players. A large gain is a hole in the agents' strategy space: the habit is then "
            "added to it as a parameter, so that `exploit` and `equilibrate` try it.", "",
            "| deviation | camp | " + " | ".join(f"{n} players" for n in sizes) + " |",
            "|---|---|" + "---|" * len(sizes)]
    def own(r: dict[str, Any]) -> bool:
        """A camp's own deviation from the default agents: what the target is about."""
        return not r.get("joint") and not r.get("base")

    def cell(r: dict[str, Any]) -> str:
        if r.get("joint") and r.get("camps"):  # each deviating clan's gain
            return "; ".join(f"{c} {gain(r['camps'][c])}" for c in ("yakuza", "triad"))
        return gain(r)

    rows = list(first["deviations"])
    for n in sizes:  # rows a later run added (the first run read may predate them)
        rows += [r for r in runs[n]["deviations"]
                 if r["deviation"] not in {x["deviation"] for x in rows}]
    joint = {r["deviation"] for n in sizes for r in runs[n]["deviations"] if r.get("joint")}
    rows = [dict(r, joint=True) if r["deviation"] in joint else r for r in rows]
    for row in rows:
        cells = []
        for n in sizes:
            r = next((d for d in runs[n]["deviations"] if d["deviation"] == row["deviation"]),
                     None)
            if r and row.get("joint") and not r.get("camps"):  # a run before the split
                cells.append(f"yakuza {gain(r)} (mafiosi only, an earlier run)")
                continue
            cells.append(cell(r) if r else "-")
        camp = "yakuza, triad" if row.get("joint") else row["camp"]
        out.append(f"| {row['deviation']} | {camp} | " + " | ".join(cells) + " |")
    out.append("")
    if any(not own(r) for r in rows):
        out += ["The joint row is two camps deviating at once, and the rows \"when the "
                "other clan's do\" measure one clan's lie from a base where the other clan "
                "already lies (arm A is that base, not the default agents). Neither is a "
                "camp's own deviation from the default, so the target does not count them; "
                "they show where a clan's gain in the joint row comes from: its own lie, or "
                "what the other clan's lie hands it.", ""]
    if 25 in runs:
        over = [r for r in runs[25]["deviations"] if own(r) and r["high"] > 0.02]
        if over:
            out += ["Over the target at 25 players (upper bound above +2 points): " + "; ".join(
                f"{r['deviation']} ({r['camp']}, {gain(r)})" for r in over) + ".", ""]
        else:
            out += ["At 25 players every camp's own deviation has its upper bound within "
                    "+2 points.", ""]


def section_cycle(out: list[str], folder: Path) -> None:
    """The profiles around the default that were measured too: why best response does not
    settle, and why the default is the one with the smallest largest gain."""
    probes = [(p, read_json(p)) for p in sorted(folder.glob("cycle_25_*.json"))]
    probes = [(p, d) for p, d in probes if d and d.get("camps")]
    if not probes:
        return
    out += ["### Why best response does not settle (25 players)", "",
            "Best response cycles: when Town follows the day's leader, a clan gains by voting "
            "its Don's target as a bloc (it steers the herd); when the clans vote as blocs, "
            "Town gains by no longer following the leader; and then the clans gain by "
            "following the leader again. Each row below is `mafia-sim exploit` on a profile "
            "next to the single profile that was the default until 2026-12-04 (`--params`; a "
            "dash: that camp was not searched): a cycle among pure profiles, which a mixture "
            "of them resolves (the default is such a mixture, *mixture.md*).", "",
            "| profile | town | yakuza | triad | maniac | largest |", "|---|---|---|---|---|---|"]
    for path, d in probes:
        camps = d["camps"]
        cells = [gain(camps.get(c)) if c in camps else "-" for c in CAMPS]
        worst = largest(camps)
        out.append(f"| {d.get('label', path.stem)} ([{path.name}](exploit/{path.name})) | "
                   + " | ".join(cells) + f" | {worst[0]} {gain(worst[1])} |")
    out.append("")


def section_method(out: list[str]) -> None:
    out += ["## Method", "",
            "Every number on this page comes from the sweep files in `studies/`, run by "
            "`mafia-sim sweep` into `results/studies/<name>/` (tidy tables `results.csv` and "
            "`results.parquet`, one row per cell and camp; `cells/` holds each cell's summary "
            "and its per-game winners, for paired comparisons). All runs use the default "
            "`heuristic` agents and the default rule set unless a row says otherwise; every "
            "cell of a sweep plays the same seeds (common random numbers). Shares are given "
            "with their 95% interval; differences in points (percentage points) with their "
            "paired 95% interval. `scripts/run_studies.sh` reruns them all, "
            "`scripts/after_studies.sh` the recommendations, the calibration and the "
            "notebooks, and `.venv/bin/python scripts/summarize_results.py` this page.", ""]


def stale_studies(results: Path) -> list[tuple[str, str]]:
    """The committed studies played under other agent defaults than today's (their
    manifest's `agents_defaults` against agents.registry.defaults_digest): (name, what the
    manifest says)."""
    from agents.registry import defaults_digest

    out = []
    for manifest in sorted((results / "studies").glob("*/manifest.json")):
        recorded = json.loads(manifest.read_text()).get("agents_defaults", {})
        for name, digest in recorded.items():
            if digest != defaults_digest(name):
                out.append((manifest.parent.name, str(digest)))
                break
    return out


def recommendations_stale(results: Path) -> bool:
    """Whether results/recommended.csv was searched under other agent defaults than today's
    (scripts/recommend_all.py records them in results/recommended.json; none recorded:
    from before it did)."""
    from agents.registry import defaults_digest

    side = results / "recommended.json"
    if not side.exists():
        return True
    recorded = json.loads(side.read_text()).get("agents_defaults", {})
    return recorded.get("heuristic") != defaults_digest("heuristic")


STALE_RECOMMENDED = ("> **Played under other agent defaults than today's** (no record, or "
                     "another one, in `results/recommended.json`): these tables were searched "
                     "before the agents' defaults last changed (on 2026-12-07 the default "
                     "became mixture_25s); `scripts/after_studies.sh` replays them.")


def section_stale(out: list[str]) -> None:
    """A warning at the top when the studies do not describe today's agents."""
    stale = stale_studies(RESULTS)
    if not stale:
        return
    whens = sorted({w for _, w in stale})
    out += ["> **These studies do not describe today's agents.** "
            f"{len(stale)} of them ({', '.join(n for n, _ in stale)}) were played under other "
            f"agent defaults than `mafia-sim run` plays now ({'; '.join(whens)}): for "
            "example the standard 25-player table's Town share is 62.5% in study 1 and "
            "56.9% [56.0, 57.9] in `mafia-sim run --players 25 --games 10000 --seed 1` "
            "today. Read their numbers as the earlier agents' until they are rerun "
            "(`scripts/run_studies.sh` into fresh folders: a sweep refuses to resume under "
            "other defaults). The NashConv table and the recommendations' check below were "
            "measured with today's agents.", ""]


def build(results: Path, quick: bool = False) -> str:
    """The page, from the results under `results` (quick: rebuild the studies quickly)."""
    global RESULTS, QUICK
    RESULTS, QUICK = results, quick
    out = ["# Findings", ""]
    if quick:
        out += ["*Quick rebuild: a few games a cell, for checking this page only; the "
                "numbers are not findings.*", ""]
    else:
        section_stale(out)
    for f in (section_bottom_line, section_robustness, section_agents,
              section_player_count, section_recommended, section_clans, section_maniac,
              section_roles, section_rules, section_skill, section_speed, section_method):
        try:
            f(out)
        except FileNotFoundError as e:
            out += [f"({f.__name__.removeprefix('section_').replace('_', ' ')}: results "
                    f"missing: {Path(str(e.filename or e)).parent.name or e})", ""]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", type=Path, default=DEFAULT_RESULTS,
                    help="results tree to read (default: the repository's results/)")
    ap.add_argument("--out", type=Path, default=None,
                    help="page to write (default: README.md in the results tree)")
    ap.add_argument("--quick", action="store_true", default=quick_mode(),
                    help="rebuild the studies with a few games a cell (default: "
                    "MAFIA_SIM_QUICK)")
    a = ap.parse_args(argv)
    text = build(a.results, a.quick)
    out = a.out or a.results / "README.md"
    out.write_text(text)
    print("wrote", out)


if __name__ == "__main__":
    main()
