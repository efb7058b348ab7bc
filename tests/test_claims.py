"""`mafia-sim claims`: Town's trust in a hero claim as a likelihood ratio measured under the
profile (issue 23, point 2; P5.6 for "under the rope")."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from sim.analysis.claims import ENEMY, OFF, ROPE, SHAPE, TOWN, ClaimRates, add_game, measure
from sim.engine.view import PublicDeath, PublicRecord
from sim.game.roles import Camp, Cause
from sim.game.talk import CLAIM, Statement
from sim.play.setup import build_setup, load_params_file

ROOT = Path(__file__).resolve().parents[1]


def _record() -> PublicRecord:
    """Five players, one day: 1 leads the vote 2-1 and claims doctor under the rope; 4
    claims ninja before any vote; 3 dies at night and misses day 1."""
    pub = PublicRecord(tuple(f"P{i}" for i in range(5)))
    pub.votes = [(0, 0, 1), (0, 3, 4), (0, 2, 1), (1, 0, 2), (1, 1, 2)]
    pub.statements = [Statement(0, 4, CLAIM, value="ninja"),
                      Statement(0, 1, CLAIM, value="doctor"),
                      Statement(0, 1, CLAIM, value="ninja")]  # his second claim: not counted
    pub.said_at = [0, 3, 3]
    pub.deaths = [PublicDeath(0, 3, (Cause.YAKUZA,), None)]
    pub.turn = 1
    return pub


def test_P5_6_claims_are_counted_by_context_and_camp() -> None:
    out = np.zeros(SHAPE, np.int64)
    camp = [Camp.TOWN, Camp.YAKUZA, Camp.TOWN, Camp.TOWN, Camp.TOWN]
    add_game(out, _record(), [int(c) for c in camp])
    # under the rope: day 0, P1 led with 2 votes (an enemy); day 1, P2 led with 2 (Town)
    assert out[ROPE, ENEMY].tolist() == [1, 1]
    assert out[ROPE, TOWN].tolist() == [1, 0]
    # off the rope: 4 Town began day 0 alive, 3 began day 1 (P3 died on turn 0); P1 both
    assert out[OFF, TOWN].tolist() == [7, 1]
    assert out[OFF, ENEMY].tolist() == [2, 0]


def test_trust_is_the_log_likelihood_ratio_and_falls_when_enemies_lie() -> None:
    counts = np.zeros(SHAPE, np.int64)
    counts[ROPE, TOWN] = [1000, 200]
    counts[ROPE, ENEMY] = [1000, 50]
    honest = ClaimRates(100, counts.copy()).trust(ROPE)
    assert math.isclose(honest[0], math.log(200.5 / 1001) - math.log(50.5 / 1001))
    assert honest[1] < honest[0] < honest[2]
    counts[ROPE, ENEMY] = [1000, 400]
    lying = ClaimRates(100, counts).trust(ROPE)
    assert lying[0] < 0 < honest[0]


def test_the_measured_trust_follows_the_clans_lies() -> None:
    """Under a profile where no enemy lies under the rope, a rope claim is strong evidence
    of Town; where the clans and the maniac always lie, it is evidence against."""
    base = build_setup(players=20, params={"clan.rope_claim": "0", "maniac.rope_claim": "0"})
    params = {"clan.rope_claim": "1", "maniac.rope_claim": "1"}
    honest = measure(base, games=120, seed=3)
    liars = measure(build_setup(players=20, params=params), games=120, seed=3)
    assert honest.counts[ROPE, ENEMY, 1] == 0 < liars.counts[ROPE, ENEMY, 1]
    assert liars.trust(ROPE)[0] < honest.trust(ROPE)[0]


def test_measure_is_the_same_on_one_job_or_two() -> None:
    s = build_setup(players=14)
    assert (measure(s, games=60, seed=5, jobs=1, batch=25).counts
            == measure(s, games=60, seed=5, jobs=2, batch=25).counts).all()


def test_cli_claims_writes_a_profile_the_runner_reads(tmp_path: Path) -> None:
    out = tmp_path / "trust.toml"
    r = subprocess.run([sys.executable, "-m", "sim", "claims", "--players", "14", "--games",
                        "40", "--seed", "2", "--jobs", "1", "--param", "clan.rope_claim=0.5",
                        "--out", str(out), "--json"], cwd=ROOT, capture_output=True,
                       text=True, timeout=300, env=os.environ)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    params = load_params_file(out)
    assert params["clan.rope_claim"] == 0.5
    assert params["town.rope_trust"] == got["params"]["town.rope_trust"]
    assert params["town.hero_claim"] == got["params"]["town.hero_claim"]
    assert got["contexts"]["rope"]["parameter"] == "town.rope_trust"
