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
# # Study 5: rule options
#
# Every option of the rule set flipped from its default, one at a time, paired against the
# default at 25 players on common random numbers. Sweep file: `studies/05_rule_options.toml`.

# %%
# %matplotlib inline
import matplotlib.pyplot as plt
import pandas as pd

from sim.analysis.studies import forest, load_study, paired_rows, rule_label

study = load_study("05_rule_options")
df = study.df
base = df[df.label == "default"].cell_id.iloc[0]
labels = [lab for lab in df.label.unique() if lab != "default"]
rows = {lab: paired_rows(study, base, [df[df.label == lab].cell_id.iloc[0]]) for lab in labels}
order = sorted(labels, key=lambda lab: -max(abs(r["diff"]) for r in rows[lab]))
plain = {rule_label(lab): rows[lab] for lab in order}
fig, ax = plt.subplots(figsize=(9, 9))
forest(ax, list(plain), plain, "Rule options flipped, 25 players (paired against the default)")
study.save(fig, "rule_options.png")
plt.show()
pd.DataFrame([{"option": rule_label(lab),
               **{r["camp"]: round(100 * r["diff"], 2) for r in rows[lab]},
               "largest move": round(100 * max(abs(r["diff"]) for r in rows[lab]), 2)}
              for lab in order])

# %% [markdown]
# Options are sorted by the largest move they cause in any camp's win share. Attrition
# options (players leaving) act through the loss of the roles that leave; the maniac's
# options move the maniac's share almost point for point against Town's.
