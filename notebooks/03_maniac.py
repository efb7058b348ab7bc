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
# # Study 3: the maniac
#
# His win share by player count, with and without his vest and his ambush (the rule options
# `maniac_vest` and `maniac_ambush`), and how often he wins through the endgame duel.
# Sweep file: `studies/03_maniac.toml`.

# %%
# %matplotlib inline
import matplotlib.pyplot as plt
import numpy as np

from sim.analysis.studies import legend_outside, load_study

study = load_study("03_maniac")
df = study.df
m = df[df.camp == "maniac"].copy()
m["variant"] = np.where(m["rule.maniac_vest"], "vest", "no vest") + ", " + \
    np.where(m["rule.maniac_ambush"], "ambush", "no ambush")
fig, axes = plt.subplots(1, 2, figsize=(12, 4))
for (variant, d), style in zip(m.groupby("variant"), ["o-", "s--", "^-.", "d:"], strict=False):
    d = d.sort_values("players")
    axes[0].errorbar(d.players, 100 * d.share,
                     yerr=[100 * (d.share - d.low), 100 * (d.high - d.share)], fmt=style,
                     capsize=3, label=variant)
axes[0].set_xlabel("players")
axes[0].set_ylabel("maniac win share, % (95% interval)")
axes[0].set_title(f"The maniac's wins, {m.players.min()}-{m.players.max()} players")
duel_cols = [c for c in m.columns if c.startswith("wins_by_duel")]
m["duel_wins"] = m[duel_cols].fillna(0).sum(axis=1)
m["duel_part"] = m.duel_wins / m.wins.clip(lower=1)
for variant, d in m.groupby("variant"):
    d = d.sort_values("players")
    axes[1].plot(d.players, 100 * d.duel_part, marker="o", label=variant)
axes[1].set_ylim(0, 100)
axes[1].set_xlabel("players")
axes[1].set_ylabel("% of his wins")
axes[1].set_title(f"His wins through the duel (R17.4), {m.players.min()}-{m.players.max()} "
                  "players")
legend_outside(axes[1], title="rule options (default: vest, ambush)")
study.save(fig, "maniac.png")
plt.show()
m.pivot(index="players", columns="variant", values="share").round(3)

# %% [markdown]
# The vest is most of the maniac's strength: without it the clans' shots kill him
# at the first try. Many of his wins come through the duel: left with one opponent, he wins
# when fewer votes were cast against him over the game.
