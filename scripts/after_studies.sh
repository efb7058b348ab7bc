#!/usr/bin/env bash
# Everything results/ holds beyond the sweeps: recommendations, calibration, figures.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:--1}
.venv/bin/python scripts/recommend_all.py --jobs "$JOBS" --games 200
.venv/bin/mafia-sim calibrate --players 25 --range 0,0.6 --points 7 --games 4000 --jobs "$JOBS" --json > results/calibration.json
.venv/bin/mafia-sim calibrate --players 25 --range 0,0.6 --points 7 --games 4000 --target 0.75 --jobs "$JOBS" --json > results/calibration_75.json
# Each notebook's source is notebooks/NAME.py (jupytext py:percent); bring its .ipynb in
# step, then execute the .ipynb in place for its figures (needs the extra `notebooks`).
for src in notebooks/*.py; do
  .venv/bin/jupytext --sync "$src"
  .venv/bin/jupyter nbconvert --to notebook --execute --inplace "${src%.py}.ipynb"
done
