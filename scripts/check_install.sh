#!/usr/bin/env bash
# A non-editable `pip install .` (with the page's extra) into a fresh virtual environment,
# used from outside the source tree: the installed package must hold everything the command
# line and the page read (the agents' profile, the page's templates and the recommended
# tables of sim/data), and the compiled build must load from site-packages.
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=$(pwd)
PY=${PYTHON:-python3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
"$PY" -m venv "$TMP/venv"
"$TMP/venv/bin/python" -m pip install -q --disable-pip-version-check "$SRC[web]" httpx
cd "$TMP"
"$TMP/venv/bin/mafia-sim" --version
"$TMP/venv/bin/mafia-sim" run --players 25 --games 200 --seed 1 --quiet | head -3
"$TMP/venv/bin/mafia-sim" params >/dev/null
"$TMP/venv/bin/python" - "$SRC" <<'PYEOF'
import csv
import sys
from pathlib import Path

import sim
from sim import _native

src = Path(sys.argv[1]).resolve()
here = Path(sim.__file__).resolve()
assert src not in here.parents, f"sim imported from the source tree: {here}"
print("installed at", here.parent, "|", _native.describe())

from starlette.testclient import TestClient  # noqa: E402

from sim.web.app import create_app  # noqa: E402

form = {"civilian": "9", "commissar": "1", "sergeant": "1", "ninja": "1", "doctor": "1",
        "necromancer": "1", "maniac": "1", "yakuza_mafioso": "3", "kamikaze": "1",
        "yakuza_vsb": "1", "triad_mafioso": "3", "thug": "1", "triad_vsb": "1",
        "games": "200", "seed": "0", "require_vsb": "on", "maniac_vest": "on",
        "maniac_ambush": "on", "duel": "on", "abstention_limit": "2", "turn_limit": "100"}
with (src / "results" / "recommended.csv").open(newline="") as f:
    rec = next(row for row in csv.DictReader(f) if row["players"] == "25")
with TestClient(create_app()) as client:
    r = client.post("/table", data=form)
    assert r.status_code == 200, r.status_code
    assert 'id="recommendation"' in r.text and rec["composition"] in r.text, \
        "the page's recommendation box is missing from a non-editable install"
print("non-editable install: the command line and the page's recommendation work")
PYEOF
