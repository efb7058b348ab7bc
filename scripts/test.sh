#!/usr/bin/env bash
# Set up a virtual environment and run the whole test suite: lint, types, tests.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".[dev,dask]"
.venv/bin/ruff check sim agents tests scripts benchmarks
.venv/bin/mypy
.venv/bin/python -m pytest "$@"
