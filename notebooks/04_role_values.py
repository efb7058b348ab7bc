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
# # Study 4: what each role is worth
#
# For each role, the change in every camp's win share when that role is replaced by a
# civilian, against the standard table, on common random numbers (the same seeds in both
# arms), at 20, 25 and 30 players. The commissar is removed with his sergeant (a sergeant
# without a commissar is not a valid table, D2.1). Sweep file: `studies/04_role_values.toml`.

# %%
# %matplotlib inline
import matplotlib.pyplot as plt
import pandas as pd

from sim.analysis.studies import forest, load_study, paired_rows

study = load_study("04_role_values")
df = study.df
labels = [lab for lab in df.label.unique() if lab != "baseline"]
fig, axes = plt.subplots(1, 3, figsize=(16, 5), sharey=True)
tables = []
for ax, n in zip(axes, sorted(df.players.unique()), strict=False):
    d = df[df.players == n]
    base = d[d.label == "baseline"].cell_id.iloc[0]
    rows = {lab: paired_rows(study, base, [d[d.label == lab].cell_id.iloc[0]]) for lab in labels}
    forest(ax, labels, rows, f"{n} players: role replaced by a civilian",
           legend=ax is axes[-1])
    for lab, rs in rows.items():
        tables.append({"players": n, "role": lab,
                       **{r["camp"]: round(100 * r["diff"], 2) for r in rs}})
study.save(fig, "role_values.png")
plt.show()
pd.DataFrame(tables).pivot(index="role", columns="players", values="town")

# %% [markdown]
# A negative Town change means the role was worth that much to Town. The table is
# Town's change in points for each role and table size; the forest plots show every camp with
# paired 95% intervals.
