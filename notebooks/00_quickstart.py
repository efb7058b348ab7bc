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
# # Quick start: a simulation, live
#
# This notebook plays games right here with the project's library: the standard 25-player
# table with the default (`heuristic`) agents, then the same table with a rule flipped, on
# common random numbers.

# %%
# %matplotlib inline
import matplotlib.pyplot as plt
import pandas as pd

from sim.analysis.compare import compare
from sim.analysis.studies import CAMP_COLORS, quick_mode
from sim.play.runner import run
from sim.play.setup import build_setup

GAMES = 150 if quick_mode() else 2000

# %%
setup = build_setup(None, players=25)
result = run(setup, games=GAMES, seed=1, jobs=1)
summary = result.summary()
table = pd.DataFrame(summary["camps"]).T[["wins", "share", "low", "high"]]
table

# %%
fig, ax = plt.subplots(figsize=(6, 3))
camps = ["town", "yakuza", "triad", "maniac", "draw"]
shares = [100 * summary["camps"][c]["share"] for c in camps]
err = [[100 * (summary["camps"][c]["share"] - summary["camps"][c]["low"]) for c in camps],
       [100 * (summary["camps"][c]["high"] - summary["camps"][c]["share"]) for c in camps]]
ax.bar(camps, shares, yerr=err, capsize=3, color=[CAMP_COLORS[c] for c in camps])
ax.set_ylabel("win share, % (95% interval)")
ax.set_title(f"Standard 25-player table, {summary['games']:,} games")
plt.show()

# %% [markdown]
# The bars are each camp's share of wins with its 95% (Wilson) interval. Now the
# same games with the maniac's vest taken away: both arms play the same seeds, so the
# difference is measured on paired games and its interval is narrow.

# %%
b = build_setup(None, players=25, rules={"maniac_vest": "false"})
res = compare(setup, b, games=GAMES, seed=1)
pd.DataFrame(res["camps"]).T[["a", "b", "diff", "low", "high", "p_value"]]
