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
# # Study 2: the two clans
#
# Yakuza size x Triad size at 25 players (2 to 6 each, the special included, civilians
# filling up), and the kamikaze against the thug: each clan with and without its special
# (a plain mafioso in its place), on common random numbers.
# Sweep files: `studies/02_clans.toml`, `studies/02b_specials.toml`.

# %%
# %matplotlib inline
import matplotlib.pyplot as plt
import pandas as pd

from sim.analysis.studies import forest, load_study, paired_rows

study = load_study("02_clans")
df = study.df
def grid(camp):
    d = df[df.camp == camp]
    return d.pivot(index="clan.yakuza", columns="clan.triad", values="share")
# the two clans' maps share one colour scale (and one colour bar); Town's has its own
clan = [100 * grid(c).values for c in ("yakuza", "triad")]
scale = {"yakuza": (min(g.min() for g in clan), max(g.max() for g in clan))}
scale["triad"] = scale["yakuza"]
town = 100 * grid("town").values
scale["town"] = (town.min(), town.max())
fig, axes = plt.subplots(1, 3, figsize=(15, 4), layout="constrained")
images = {}
for ax, camp in zip(axes, ["yakuza", "triad", "town"], strict=True):
    g = grid(camp)
    vmin, vmax = scale[camp]
    im = ax.imshow(100 * g.values, origin="lower", cmap="viridis", vmin=vmin, vmax=vmax)
    images[camp] = im
    ax.set_xticks(range(len(g.columns)))
    ax.set_xticklabels(g.columns)
    ax.set_yticks(range(len(g.index)))
    ax.set_yticklabels(g.index)
    ax.set_xlabel("Triad size")
    ax.set_ylabel("Yakuza size")
    ax.set_title(f"{camp.capitalize()} win share, %, 25 players")
    for i in range(len(g.index)):
        for j in range(len(g.columns)):
            v = 100 * g.values[i, j]
            dark = v < (vmin + vmax) / 2
            ax.text(j, i, f"{v:.0f}", ha="center", va="center",
                    color="white" if dark else "black", fontsize=8)
fig.colorbar(images["yakuza"], ax=list(axes[:2]), shrink=0.8, label="clan win share, %")
fig.colorbar(images["town"], ax=axes[2], shrink=0.8, label="Town win share, %")
study.save(fig, "clans_heatmap.png")
plt.show()

# %% [markdown]
# Each clan's share grows with its own size and shrinks with its rival's; the
# diagonal (equal clans) is not symmetric because the clans' specials differ.

# %%
spec = load_study("02b_specials")
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
              for lab, rs in rows.items()])

# %% [markdown]
# Points are the change in each camp's win share (percentage points) when the
# special is replaced by a plain mafioso, against the table with both specials, with paired
# 95% intervals.
