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
# # Study 1: the player count
#
# The standard table (`Composition.standard(n)`) for 20 to 30 players with the default
# agents: each camp's win share with 95% intervals, game length, and how games end.
# Sweep file: `studies/01_player_count.toml`; regenerate with
# `mafia-sim sweep studies/01_player_count.toml --out results/studies/01_player_count`.

# %%
# %matplotlib inline
import matplotlib.pyplot as plt

from sim.analysis.studies import CAMP_COLORS, CAMPS, legend_outside, load_study

study = load_study("01_player_count")
df = study.df
df[df.camp.isin(CAMPS)].pivot(index="players", columns="camp", values="share").round(3)

# %%
fig, ax = plt.subplots(figsize=(7, 4))
for camp in CAMPS:
    d = df[df.camp == camp].sort_values("players")
    ax.errorbar(d.players, 100 * d.share, yerr=[100 * (d.share - d.low), 100 * (d.high - d.share)],
                marker="o", capsize=3, color=CAMP_COLORS[camp], label=camp)
ax.set_xlabel("players (standard table)")
ax.set_ylabel("win share, % (95% interval)")
ax.set_title("Who wins at 20-30 players (standard table, default agents)")
legend_outside(ax)
study.save(fig, "player_count_shares.png")
plt.show()

# %% [markdown]
# Town's share rises and falls with how the mafia count round(n/3) rounds: a table
# where the mafia just gained a member is harder for Town than one just before the next
# step. The Yakuza is ahead of the Triad where it holds the odd member, and on even splits
# too (the kamikaze is worth more than the thug, see study 2).

# %%
ends = [c for c in df.columns if c.startswith("ends_")]
e = df[df.camp == "town"].set_index("players")[ends].fillna(0)
e = e.loc[:, (e > 0).any()]
fig, axes = plt.subplots(1, 2, figsize=(13, 3.8), gridspec_kw={"wspace": 0.6})
e.rename(columns=lambda c: c[5:]).mul(100).plot.bar(stacked=True, ax=axes[0], colormap="tab20c")
axes[0].set_ylabel("% of games")
axes[0].set_title("How games end, 20-30 players")
legend_outside(axes[0])
t = df[df.camp == "town"].sort_values("players")
axes[1].plot(t.players, t.turns_mean, marker="o", color="black")
axes[1].set_xlabel("players")
axes[1].set_ylabel("mean turns")
axes[1].set_title("Game length, 20-30 players")
study.save(fig, "player_count_endings.png")
plt.show()

# %% [markdown]
# Most games end with one camp wiped out; about one in six goes to the endgame duel
# (R17.4), decided there by the votes cast over the whole game; the R17.5 ending (a mafioso
# left with his own VSB) is rare. Games last about one turn longer for every three more
# players.
