#!/usr/bin/env bash
# Set up a virtual environment and run the whole test suite: lint, types, the layers
# (import-linter, pyproject.toml), tests.
# It installs the extras dev (test tools), dask, notebooks (the notebooks' own needs:
# tests/test_notebooks.py executes every notebook) and web (the page for hosts; its browser
# tests drive Debian's Chromium when installed: apt-get install chromium chromium-driver).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".[dev,dask,notebooks,web]"
.venv/bin/ruff check sim agents tests scripts benchmarks notebooks
.venv/bin/mypy
.venv/bin/lint-imports --no-cache
.venv/bin/python -m pytest "$@"
