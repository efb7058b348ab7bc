"""Write the study notebooks of notebooks/ (run: .venv/bin/python scripts/make_notebooks.py).

Each notebook reads the committed results of its study from results/ (or rebuilds it with
a small game count when they are absent or MAFIA_SIM_QUICK=1), draws its figures and says
in a few lines what they show."""

from pathlib import Path

import nbformat as nbf

OUT = Path(__file__).resolve().parent.parent / "notebooks"

SETUP = """\
import json
import numpy as np
import pandas as pd
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from sim.studies import CAMPS, CAMP_COLORS, RESULTS, load_study, paired_rows, forest, quick_mode
%matplotlib inline"""


def nb(cells):
    book = nbf.v4.new_notebook()
    book.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                   "language": "python"}
    book.cells = [nbf.v4.new_markdown_cell(c[1]) if c[0] == "md" else nbf.v4.new_code_cell(c[1])
                  for c in cells]
    return book


NOTEBOOKS = {
"00_quickstart": [
("md", """# Quick start: a simulation, live

This notebook plays games right here with the project's library: the standard 25-player
table with the default (`heuristic`) agents, then the same table with a rule flipped, on
common random numbers."""),
("code", SETUP + """
from sim.setup import build_setup
from sim.runner import run
from sim.analysis import compare
GAMES = 150 if quick_mode() else 2000"""),
("code", """setup = build_setup(None, players=25)
result = run(setup, games=GAMES, seed=1, jobs=1)
summary = result.summary()
table = pd.DataFrame(summary["camps"]).T[["wins", "share", "low", "high"]]
table"""),
("code", """fig, ax = plt.subplots(figsize=(6, 3))
camps = ["town", "yakuza", "triad", "maniac", "draw"]
shares = [100 * summary["camps"][c]["share"] for c in camps]
err = [[100 * (summary["camps"][c]["share"] - summary["camps"][c]["low"]) for c in camps],
       [100 * (summary["camps"][c]["high"] - summary["camps"][c]["share"]) for c in camps]]
ax.bar(camps, shares, yerr=err, capsize=3, color=[CAMP_COLORS[c] for c in camps])
ax.set_ylabel("win share, % (95% interval)")
ax.set_title(f"Standard 25-player table, {summary['games']:,} games")
plt.show()"""),
("md", """The bars are each camp's share of wins with its 95% (Wilson) interval. Now the
same games with the maniac's vest taken away: both arms play the same seeds, so the
difference is measured on paired games and its interval is narrow."""),
("code", """b = build_setup(None, players=25, rules={"maniac_vest": "false"})
res = compare(setup, b, games=GAMES, seed=1)
pd.DataFrame(res["camps"]).T[["a", "b", "diff", "low", "high", "p_value"]]"""),
],
"01_player_count": [
("md", """# Study 1: the player count

The standard table (`Composition.standard(n)`) for 20 to 30 players with the default
agents: each camp's win share with 95% intervals, game length, and how games end.
Sweep file: `studies/01_player_count.toml`; regenerate with
`mafia-sim sweep studies/01_player_count.toml --out results/studies/01_player_count`."""),
("code", SETUP + """
study = load_study("01_player_count")
df = study.df
df[df.camp.isin(CAMPS)].pivot(index="players", columns="camp", values="share").round(3)"""),
("code", """fig, ax = plt.subplots(figsize=(7, 4))
for camp in CAMPS:
    d = df[df.camp == camp].sort_values("players")
    ax.errorbar(d.players, 100 * d.share, yerr=[100 * (d.share - d.low), 100 * (d.high - d.share)],
                marker="o", capsize=3, color=CAMP_COLORS[camp], label=camp)
ax.set_xlabel("players (standard table)")
ax.set_ylabel("win share, % (95% interval)")
ax.set_title("Who wins, by table size (default agents)")
ax.legend()
study.save(fig, "player_count_shares.png")
plt.show()"""),
("md", """Town's share rises and falls with how the mafia count round(n/3) rounds: a table
where the mafia just gained a member is harder for Town than one just before the next
step. The Yakuza is ahead of the Triad where it holds the odd member, and on even splits
too (the kamikaze is worth more than the thug, see study 2)."""),
("code", """ends = [c for c in df.columns if c.startswith("ends_")]
e = df[df.camp == "town"].set_index("players")[ends].fillna(0)
e = e.loc[:, (e > 0).any()]
fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
e.rename(columns=lambda c: c[5:]).mul(100).plot.bar(stacked=True, ax=axes[0], colormap="tab20c")
axes[0].set_ylabel("% of games")
axes[0].set_title("How games end")
t = df[df.camp == "town"].sort_values("players")
axes[1].plot(t.players, t.turns_mean, marker="o", color="black")
axes[1].set_xlabel("players")
axes[1].set_ylabel("mean turns")
axes[1].set_title("Game length")
study.save(fig, "player_count_endings.png")
plt.show()"""),
("md", """Most games end with one camp wiped out; about one in six goes to the endgame duel
(R17.4), decided there by the votes cast over the whole game; the R17.5 ending (a mafioso
left with his own VSB) is rare. Games last about one turn longer for every three more
players."""),
],
"02_clans": [
("md", """# Study 2: the two clans

Yakuza size x Triad size at 25 players (2 to 6 each, the special included, civilians
filling up), and the kamikaze against the thug: each clan with and without its special
(a plain mafioso in its place), on common random numbers.
Sweep files: `studies/02_clans.toml`, `studies/02b_specials.toml`."""),
("code", SETUP + """
study = load_study("02_clans")
df = study.df
def grid(camp):
    d = df[df.camp == camp]
    return d.pivot(index="clan.yakuza", columns="clan.triad", values="share")
fig, axes = plt.subplots(1, 3, figsize=(14, 4))
for ax, camp in zip(axes, ["yakuza", "triad", "town"]):
    g = grid(camp)
    im = ax.imshow(100 * g.values, origin="lower", cmap="viridis")
    ax.set_xticks(range(len(g.columns))); ax.set_xticklabels(g.columns)
    ax.set_yticks(range(len(g.index))); ax.set_yticklabels(g.index)
    ax.set_xlabel("Triad size"); ax.set_ylabel("Yakuza size")
    ax.set_title(f"{camp} win share, %")
    for i in range(len(g.index)):
        for j in range(len(g.columns)):
            v = g.values[i, j]
            dark = v < (g.values.min() + g.values.max()) / 2
            ax.text(j, i, f"{100 * v:.0f}", ha="center", va="center",
                    color="white" if dark else "black", fontsize=8)
    fig.colorbar(im, ax=ax, shrink=0.8)
study.save(fig, "clans_heatmap.png")
plt.show()"""),
("md", """Each clan's share grows with its own size and shrinks with its rival's; the
diagonal (equal clans) is not symmetric because the clans' specials differ."""),
("code", """spec = load_study("02b_specials")
s = spec.df
def cid(k, t):
    return s[(s["role.kamikaze"] == k) & (s["role.thug"] == t)].cell_id.iloc[0]
base = cid(1, 1)
labels = {"Yakuza without kamikaze": cid(0, 1), "Triad without thug": cid(1, 0),
          "neither special": cid(0, 0)}
rows = {lab: [r for r in paired_rows(spec, base, [c])] for lab, c in labels.items()}
fig, ax = plt.subplots(figsize=(8, 3.5))
forest(ax, list(labels), rows, "Kamikaze against thug (25 players, paired)")
spec.save(fig, "specials_forest.png")
plt.show()
pd.DataFrame([{"case": lab, **{r["camp"]: round(100 * r["diff"], 2) for r in rs}}
              for lab, rs in rows.items()])"""),
("md", """Points are the change in each camp's win share (percentage points) when the
special is replaced by a plain mafioso, against the table with both specials, with paired
95% intervals."""),
],
"03_maniac": [
("md", """# Study 3: the maniac

His win share by player count, with and without his vest and his ambush (the rule options
`maniac_vest` and `maniac_ambush`), and how often he wins through the endgame duel.
Sweep file: `studies/03_maniac.toml`."""),
("code", SETUP + """
study = load_study("03_maniac")
df = study.df
m = df[df.camp == "maniac"].copy()
m["variant"] = np.where(m["rule.maniac_vest"], "vest", "no vest") + ", " + \\
    np.where(m["rule.maniac_ambush"], "ambush", "no ambush")
fig, axes = plt.subplots(1, 2, figsize=(12, 4))
for (variant, d), style in zip(m.groupby("variant"), ["o-", "s--", "^-.", "d:"]):
    d = d.sort_values("players")
    axes[0].errorbar(d.players, 100 * d.share, yerr=[100 * (d.share - d.low), 100 * (d.high - d.share)],
                     fmt=style, capsize=3, label=variant)
axes[0].set_xlabel("players"); axes[0].set_ylabel("maniac win share, % (95% interval)")
axes[0].set_title("The maniac's wins"); axes[0].legend()
duel_cols = [c for c in m.columns if c.startswith("wins_by_duel")]
m["duel_wins"] = m[duel_cols].fillna(0).sum(axis=1)
m["duel_part"] = m.duel_wins / m.wins.clip(lower=1)
for variant, d in m.groupby("variant"):
    d = d.sort_values("players")
    axes[1].plot(d.players, 100 * d.duel_part, marker="o", label=variant)
axes[1].set_ylim(0, 100)
axes[1].set_xlabel("players"); axes[1].set_ylabel("% of his wins")
axes[1].set_title("Maniac wins that came through the duel (R17.4)"); axes[1].legend()
study.save(fig, "maniac.png")
plt.show()
m.pivot(index="players", columns="variant", values="share").round(3)"""),
("md", """The vest is most of the maniac's strength: without it the clans' shots kill him
at the first try. Many of his wins come through the duel: left with one opponent, he wins
when fewer votes were cast against him over the game."""),
],
"04_role_values": [
("md", """# Study 4: what each role is worth

For each role, the change in every camp's win share when that role is replaced by a
civilian, against the standard table, on common random numbers (the same seeds in both
arms), at 20, 25 and 30 players. The commissar is removed with his sergeant (a sergeant
without a commissar is not a valid table, D2.1). Sweep file: `studies/04_role_values.toml`."""),
("code", SETUP + """
study = load_study("04_role_values")
df = study.df
labels = [l for l in df.label.unique() if l != "baseline"]
fig, axes = plt.subplots(1, 3, figsize=(16, 5), sharey=True)
tables = []
for ax, n in zip(axes, sorted(df.players.unique())):
    d = df[df.players == n]
    base = d[d.label == "baseline"].cell_id.iloc[0]
    rows = {lab: paired_rows(study, base, [d[d.label == lab].cell_id.iloc[0]]) for lab in labels}
    forest(ax, labels, rows, f"{n} players: role replaced by a civilian")
    for lab, rs in rows.items():
        tables.append({"players": n, "role": lab, **{r["camp"]: round(100 * r["diff"], 2) for r in rs}})
study.save(fig, "role_values.png")
plt.show()
pd.DataFrame(tables).pivot(index="role", columns="players", values="town")"""),
("md", """A negative Town change means the role was worth that much to Town. The table is
Town's change in points for each role and table size; the forest plots show every camp with
paired 95% intervals."""),
],
"05_rule_options": [
("md", """# Study 5: rule options

Every option of the rule set flipped from its default, one at a time, paired against the
default at 25 players on common random numbers. Sweep file: `studies/05_rule_options.toml`."""),
("code", SETUP + """
study = load_study("05_rule_options")
df = study.df
base = df[df.label == "default"].cell_id.iloc[0]
labels = [l for l in df.label.unique() if l != "default"]
rows = {lab: paired_rows(study, base, [df[df.label == lab].cell_id.iloc[0]]) for lab in labels}
order = sorted(labels, key=lambda l: -max(abs(r["diff"]) for r in rows[l]))
fig, ax = plt.subplots(figsize=(9, 8))
forest(ax, order, rows, "Rule options flipped (25 players, paired against the default)")
study.save(fig, "rule_options.png")
plt.show()
pd.DataFrame([{"option": l, **{r["camp"]: round(100 * r["diff"], 2) for r in rows[l]},
               "largest move": round(100 * max(abs(r["diff"]) for r in rows[l]), 2)}
              for l in order])"""),
("md", """Options are sorted by the largest move they cause in any camp's win share. Attrition
options (players leaving) act through the loss of the roles that leave; the maniac's
options move the maniac's share almost point for point against Town's."""),
],
"06_skill": [
("md", """# Study 6: skill

How the answers of studies 1 and 4 move across the town-skill range (`town_skill`, the
signal-to-noise figure of Town's daily reads: 0 no information, 1 sharp), and the
calibrated skill at which the standard table gives Town half the wins.
Sweep files: `studies/06_skill.toml`, `studies/06b_skill_roles.toml`."""),
("code", SETUP + """
study = load_study("06_skill")
df = study.df
fig, axes = plt.subplots(1, 3, figsize=(15, 4), sharey=True)
for ax, n in zip(axes, sorted(df.players.unique())):
    for camp in CAMPS:
        d = df[(df.players == n) & (df.camp == camp)].sort_values("param.town_skill")
        ax.errorbar(d["param.town_skill"], 100 * d.share,
                    yerr=[100 * (d.share - d.low), 100 * (d.high - d.share)],
                    marker="o", capsize=3, color=CAMP_COLORS[camp], label=camp)
    ax.set_title(f"{n} players"); ax.set_xlabel("town skill")
axes[0].set_ylabel("win share, % (95% interval)"); axes[0].legend()
study.save(fig, "skill.png")
plt.show()
df[df.camp == "town"].pivot(index="param.town_skill", columns="players", values="share").round(3)"""),
("code", """roles = load_study("06b_skill_roles")
r = roles.df
labels = [l for l in r.label.unique() if l != "baseline"]
fig, axes = plt.subplots(1, 3, figsize=(16, 5), sharey=True)
value = []
for ax, sk in zip(axes, sorted(r["param.town_skill"].unique())):
    d = r[r["param.town_skill"] == sk]
    base = d[d.label == "baseline"].cell_id.iloc[0]
    rows = {lab: paired_rows(roles, base, [d[d.label == lab].cell_id.iloc[0]]) for lab in labels}
    forest(ax, labels, rows, f"town skill {sk}: role replaced by a civilian")
    for lab, rs in rows.items():
        value.append({"skill": sk, "role": lab, "town": round(100 * next(x["diff"] for x in rs if x["camp"] == "town"), 2)})
roles.save(fig, "skill_roles.png")
plt.show()
pd.DataFrame(value).pivot(index="role", columns="skill", values="town")"""),
("code", """from pathlib import Path
from sim.analysis import calibrate
from sim.setup import build_setup
for name, target in (("calibration.json", 0.5), ("calibration_75.json", 0.75)):
    path = RESULTS / name
    if path.exists() and not quick_mode():
        cal = json.loads(path.read_text())
    else:
        cal = calibrate(build_setup(None, players=25), lo=0.0, hi=0.6, points=4, games=150,
                        target=target)
    if cal.get("value") is None:
        print(f"target {cal['target']:.0%}: {cal.get('note')}")
    else:
        print(f"Town wins {cal['target']:.0%} at town_skill = {cal['value']:.3f} "
              f"(95% interval {cal['low']:.3f} to {cal['high']:.3f})")
pd.DataFrame(cal["grid"])"""),
("md", """The calibration fits a logistic curve of Town's win against the skill over a grid
and solves it for the target. With the default agents the standard table never gives
Town half the wins: even with no reads at all (skill 0) the commissar's checks, which Town
trusts, carry Town above 50%. The second line calibrates a target that the skill reaches."""),
],
}


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for name, cells in NOTEBOOKS.items():
        nbf.write(nb(cells), OUT / f"{name}.ipynb")
        print("wrote", OUT / f"{name}.ipynb")


if __name__ == "__main__":
    main()
