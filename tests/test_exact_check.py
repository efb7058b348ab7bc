"""The engine's correctness check: `uniform` games against the exact dynamic program
(sim.analysis.exact) on compositions of civilians, plain clans and the maniac (R3.1, R17.4, D17.2)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from agents.registry import resolve_agent_set
from sim.analysis.exact import deviation_z, exact_outcome
from sim.game.roles import Winner
from sim.game.rules import Composition, RuleSet
from sim.play.runner import run
from sim.play.setup import Setup

CASES = [
    # civilians, yakuza, triad, maniac
    (4, 1, 1, True),
    (6, 2, 0, False),
    (10, 2, 2, True),
    (15, 4, 4, True),
    (20, 5, 4, True),
]
GAMES = 20_000


@pytest.mark.parametrize(("civ", "yak", "tri", "maniac"), CASES)
def test_uniform_games_match_exact_probabilities(civ: int, yak: int, tri: int,
                                                 maniac: bool) -> None:
    """Every outcome's share over 20,000 uniform games lies within 4 standard errors of the
    exact probability."""
    comp = Composition.from_counts(civilian=civ, yakuza=yak, triad=tri, maniac=int(maniac))
    rules = RuleSet(require_vsb=False)
    setup = Setup(comp, rules, resolve_agent_set("uniform"))
    result = run(setup, games=GAMES, seed=2024, jobs=2)
    exact = exact_outcome(civ, yak, tri, maniac)
    for w in (Winner.TOWN, Winner.YAKUZA, Winner.TRIAD, Winner.MANIAC, Winner.DRAW):
        p = exact[w.key]
        z = deviation_z(int(result.tally.winners[w]), GAMES, p)
        assert abs(z) <= 4, (w.key, result.tally.winners[w], p, z)
    assert result.tally.winners[Winner.STALEMATE] == 0


def test_deviation_z_flags_an_impossible_outcome() -> None:
    """An outcome with exact probability 0 (or 1) that the simulation contradicts is an
    infinite deviation, never z = 0 (issue 11)."""
    assert deviation_z(0, 1000, 0.0) == 0.0
    assert deviation_z(1, 20_000, 0.0) == math.inf
    assert deviation_z(1000, 1000, 1.0) == 0.0
    assert deviation_z(999, 1000, 1.0) == -math.inf
    assert deviation_z(60, 100, 0.5) == pytest.approx(2.0)


def test_cli_exact_reports_z_and_exit_status() -> None:
    root = Path(__file__).resolve().parent.parent
    r = subprocess.run([sys.executable, "-m", "sim", "exact", "--games", "200", "--jobs", "1",
                        "--json"], cwd=root, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["impossible"] == []
    # the 6 civilians against 2 yakuza table has no triad and no maniac: z is exactly 0
    # there because nothing was won by them, not because the check was skipped
    case = next(c for c in out["cases"] if c["players"] == 8)
    assert case["triad"] == {"exact": 0.0, "simulated": 0.0, "z": 0.0}


def test_cmd_exact_fails_when_an_impossible_outcome_happens(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """If the engine ever let a camp win where the exact probability is 0, the command says
    so and exits 1 (simulated here by an exact table that forbids Town's wins)."""
    import argparse

    import sim.analysis.exact
    from sim.cli.analysis_commands import cmd_exact

    real = sim.analysis.exact.exact_outcome

    def no_town(*a: object) -> dict[str, float]:
        out = real(*a)  # type: ignore[arg-type]
        out["draw"] += out["town"]
        out["town"] = 0.0
        return out

    monkeypatch.setattr(sim.analysis.exact, "exact_outcome", no_town)
    code = cmd_exact(argparse.Namespace(games=50, seed=1, jobs=1, json=False))
    text = capsys.readouterr().out
    assert code == 1
    assert "(IMPOSSIBLE)" in text and "FAILED:" in text and "town has exact probability 0" in text
