#!/usr/bin/env bash
# Everything results/ holds beyond the sweeps: recommendations, calibration, figures.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:--1}
.venv/bin/python scripts/recommend_all.py --jobs "$JOBS" --games 200
.venv/bin/mafia-sim calibrate --players 25 --range 0,0.6 --points 7 --games 4000 --jobs "$JOBS" --json > results/calibration.json
.venv/bin/mafia-sim calibrate --players 25 --range 0,0.6 --points 7 --games 4000 --target 0.75 --jobs "$JOBS" --json > results/calibration_75.json
for nb in notebooks/*.ipynb; do
  .venv/bin/jupyter nbconvert --to notebook --execute --inplace "$nb"
done
