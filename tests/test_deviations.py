"""The outside deviations of examples/deviations.py (issue 23): written through the public
agent API, each switched off plays exactly the shipped agents' games, so a paired
comparison with one switched on measures that deviation alone."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples"))

import deviations  # noqa: E402

from sim.play.runner import run  # noqa: E402
from sim.play.setup import build_setup  # noqa: E402

#: the role each deviation plays, as `--agent ROLE=deviations:NAME` names it
ROLES = {
    "RopeLiarMafioso": "mafioso", "RopeLiarKamikaze": "kamikaze", "RopeLiarThug": "thug",
    "YakuzaRopeLiarMafioso": "mafioso", "YakuzaRopeLiarKamikaze": "kamikaze",
    "TriadRopeLiarMafioso": "mafioso", "RopeLiarManiac": "maniac",
    "PreemptiveLiarMafioso": "mafioso", "YakuzaPreemptiveLiarMafioso": "mafioso",
    "YakuzaPreemptiveLiarKamikaze": "kamikaze", "TriadPreemptiveLiarMafioso": "mafioso",
    "PreemptiveLiarThug": "thug", "DoomedVoterMafioso": "mafioso",
    "DoomedVoterKamikaze": "kamikaze", "DoomedVoterThug": "thug",
    "YakuzaDoomedVoterMafioso": "mafioso", "YakuzaDoomedVoterKamikaze": "kamikaze",
    "TriadDoomedVoterMafioso": "mafioso", "DecoyCivilian": "civilian",
    "SilentDoctor": "doctor", "SilentNinja": "ninja", "SilentNecromancer": "necromancer",
    "YakuzaFakeCopMafioso": "mafioso", "TriadFakeCopMafioso": "mafioso",
    "FakeCopManiac": "maniac", "YakuzaRescueCopMafioso": "mafioso",
    "YakuzaRescueCopKamikaze": "kamikaze", "TriadRescueCopMafioso": "mafioso",
    "RescueCopThug": "thug",
    **{f"{when}Answer{role.title()}": role for when in ("Rope", "OffRope", "Late")
       for role in ("doctor", "ninja", "necromancer")},
}


def test_every_deviation_is_listed() -> None:
    public = {n for n, v in vars(deviations).items()
              if isinstance(v, type) and not n.startswith("_") and hasattr(v, "enabled")}
    assert public == set(ROLES)


def _winners(over: dict[str, str]) -> list[list[int]]:
    setup = build_setup(None, players=25, agent_overrides=over)
    res = run(setup, games=60, seed=17, keep_rows=True)
    assert res.rows is not None
    return res.rows.tolist()


@pytest.mark.parametrize("name", sorted(ROLES))
def test_a_deviation_switched_off_plays_the_default_games(name: str) -> None:
    off = type(f"Off{name}", (getattr(deviations, name),), {"enabled": False})
    setattr(deviations, off.__name__, off)
    assert _winners({ROLES[name]: f"deviations:{off.__name__}"}) == _winners({})


def test_a_deviation_switched_on_changes_games() -> None:
    assert _winners({"mafioso": "deviations:RopeLiarMafioso"}) != _winners({})


@pytest.mark.parametrize("over", [{"mafioso": "deviations:YakuzaFakeCopMafioso"},
                                  {"maniac": "deviations:FakeCopManiac"},
                                  {"mafioso": "deviations:TriadRescueCopMafioso",
                                   "thug": "deviations:RescueCopThug"}])
def test_the_false_commissar_claims_change_games(over: dict[str, str]) -> None:
    assert _winners(over) != _winners({})


def _outside(*args: str) -> subprocess.CompletedProcess[str]:
    script = ROOT / "scripts" / "outside_deviations.py"
    return subprocess.run([sys.executable, str(script), "--players", "14", "--games", "40",
                           "--seed", "3", "--jobs", "1", *args],
                          capture_output=True, text=True, cwd=ROOT)


def test_outside_rows_played_alone_join_the_file_in_the_list_order(tmp_path: Path) -> None:
    """`--only` plays the rows named, `--into` merges them into a run of the same games:
    a row played again replaces the old one, the others stay, in the script's order."""
    first = _outside("--only", "never counterclaim", "--json")
    assert first.returncode == 0, first.stderr
    doc = json.loads(first.stdout)
    assert [r["deviation"] for r in doc["deviations"]] == ["real heroes never counterclaim"]
    stale = {**doc["deviations"][0], "gain": 9.0}
    doc["deviations"] = [stale]
    into = tmp_path / "outside_14.json"
    into.write_text(json.dumps(doc))
    done = _outside("--only", "answer only claims made under the rope", "--into", str(into))
    assert done.returncode == 0, done.stderr
    rows = json.loads(into.read_text())["deviations"]
    assert [r["deviation"] for r in rows] == [
        "real heroes never counterclaim", "real heroes answer only claims made under the rope"]
    assert rows[0]["gain"] == 9.0  # not played again: kept as it was


def test_outside_rows_merge_only_into_a_run_of_the_same_games(tmp_path: Path) -> None:
    into = tmp_path / "outside_14.json"
    into.write_text(json.dumps({"players": 14, "games": 40, "seed": 4, "params": None,
                                "deviations": []}))
    bad = _outside("--only", "never counterclaim", "--into", str(into))
    assert bad.returncode == 2
    assert bad.stderr.strip().count("\n") == 0 and "seed" in bad.stderr
    none = _outside("--only", "no such habit")
    assert none.returncode == 2 and "no such habit" in none.stderr
    into.write_text("[]")
    other = _outside("--only", "never counterclaim", "--into", str(into))
    assert other.returncode == 2 and "not a file this script wrote" in other.stderr
