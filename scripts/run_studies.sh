#!/usr/bin/env bash
# Run every study of studies/ into results/studies/<name>/ (resumable: run it again to go on).
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:--1}
for f in studies/*.toml; do
  name=$(basename "$f" .toml)
  .venv/bin/mafia-sim sweep "$f" --out "results/studies/$name" --jobs "$JOBS" --resume
done
