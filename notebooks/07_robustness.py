# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.7
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Study 7: how far the findings hold
#
# Each headline finding measured again under other conditions: the default agents at
# 25 players (study 4), Town reading worse and better (`town_skill` 0, 0.3 and 0.6; default
# 0.15; study 6b), the clans reading half and twice as well (`mafia_skill` 0.3 and 1.2;
# default 0.6; study 6c), the agent profile the current default replaced (study 7), and 20
# and 30 players (study 4). A role's value is its camp's win share with the role minus
# without it, paired on the same games. A study without results is skipped with a note.
# Sweep files: `studies/04_role_values.toml`, `studies/06b_skill_roles.toml`,
# `studies/06c_mafia_skill_roles.toml`, `studies/07_profile_replaced_roles.toml`.

# %%
# %matplotlib inline
from functools import partial

import matplotlib.pyplot as plt
import pandas as pd

from sim.analysis import findings
from sim.analysis.studies import legend_outside, load_study, quick_mode

conds = findings.load_conditions(partial(load_study, rebuild=quick_mode()))
for note in conds.notes:
    print("note:", note)
hs = [h for h in findings.headlines(conds) if h.rows]
pd.DataFrame([{"finding": h.title, "default": findings.fmt(h.rows[0][1], h.unit),
               "verdict": h.verdict, "conditions": len(h.rows)} for h in hs])

# %%
names = [c.name for c in conds.items]
colors = dict(zip(names, plt.cm.tab10.colors, strict=False))
share = [h for h in hs if h.unit == "share"]
points = [h for h in hs if h.unit != "share"]
fig, axes = plt.subplots(1, 2, figsize=(15, 7), width_ratios=[1, 3], layout="constrained")
# left: Town's share on the standard table, one row per condition
for h in share:
    for i, (name, e) in enumerate(h.rows):
        axes[0].errorbar([100 * e.value], [i], xerr=[[100 * (e.value - e.low)],
                                                     [100 * (e.high - e.value)]],
                         fmt="o", ms=4, capsize=2, color=colors[name])
    axes[0].set_yticks(range(len(h.rows)))
    axes[0].set_yticklabels([n for n, _ in h.rows], fontsize=8)
    axes[0].set_title(f"Town's share of the standard table\n({h.verdict})")
axes[0].axvline(50, color="black", lw=0.8)
axes[0].invert_yaxis()
# right: the differences, one block per finding, one marker per condition
step = 0.8 / max(1, len(names))
ax = axes[1]
for name in names:
    ys, xs, lo, hi = [], [], [], []
    for i, h in enumerate(points):
        e = next((e for n, e in h.rows if n == name), None)
        if e is None:
            continue
        ys.append(i + (names.index(name) - (len(names) - 1) / 2) * step)
        xs.append(100 * e.value)
        lo.append(100 * (e.value - e.low))
        hi.append(100 * (e.high - e.value))
    ax.errorbar(xs, ys, xerr=[lo, hi], fmt="o", ms=4, capsize=2, color=colors[name],
                label=name)
ax.axvline(0, color="black", lw=0.8)
ax.set_yticks(range(len(points)))
ax.set_yticklabels([f"{h.title}\n({h.verdict})" for h in points], fontsize=8)
ax.invert_yaxis()
axes[0].set_xlabel("Town's win share, % (95% interval; 50% = balanced)")
axes[1].set_xlabel("points (95% paired interval)")
fig.suptitle("How far the findings hold: 25 players unless the condition names another size")
legend_outside(axes[1], title="condition")
if conds.items:
    conds.items[0].study.save(fig, "robustness.png")
plt.show()

# %%
pd.DataFrame([{"finding": h.title, "condition": n, "value": findings.fmt(e, h.unit)}
              for h in hs for n, e in h.rows]).pivot(index="finding", columns="condition",
                                                     values="value")

# %% [markdown]
# A finding is **robust** when every condition's interval lies on the default's side of
# zero (of 50% for Town's share), **not robust** when some condition's interval lies wholly
# on the other side, and otherwise **holds in sign, not everywhere significant**. The
# verdicts are in the labels of the figure and in `results/README.md`.
