"""Data shipped inside the package, read with `importlib.resources` so that a non-editable
install has it: `recommended.csv`, the recommended compositions for 20-30 players written
by `scripts/recommend_all.py` (`results/recommended.csv` is a link to it, beside the other
committed findings)."""
