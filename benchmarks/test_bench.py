"""pytest-benchmark suite (not part of the test suite; timings are never asserted).

Run: .venv/bin/python -m pytest benchmarks --benchmark-only
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agents.registry import resolve_agent_set
from sim.game.rules import Composition, RuleSet
from sim.play.driver import Driver
from sim.play.runner import play_batch
from sim.play.setup import build_setup
from sim.play.streams import game_streams

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("agents", ["heuristic", "uniform", "random"])
@pytest.mark.parametrize("players", [20, 25, 30, 60, 100])
def test_one_game(benchmark, agents: str, players: int) -> None:  # type: ignore[no-untyped-def]
    driver = Driver(Composition.standard(players), RuleSet(), resolve_agent_set(agents))
    seeds = iter(range(10**9))
    benchmark(lambda: driver.play(game_streams(0, next(seeds), players)))


def test_batch_of_200_standard_games(benchmark) -> None:  # type: ignore[no-untyped-def]
    setup = build_setup(None, players=25)
    benchmark.pedantic(lambda: play_batch(setup, 1, 0, 200), rounds=3, iterations=1)


@pytest.mark.skipif(not os.environ.get("MAFIA_SIM_BENCH_LONG"),
                    reason="about 16 minutes: set MAFIA_SIM_BENCH_LONG=1")
def test_equilibrate_25_players_three_rounds(benchmark, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Issue 24's cost target: `equilibrate --mixture` for the 25-player table within 30
    minutes on 2 jobs; the budgets, seed and start of results/mixture.md's seventh run (801 s
    with the default meta-solver on 2026-12-04), from the committed mixture_25d."""
    from sim.cli.main import main

    args = ["equilibrate", "--mixture", "--players", "25", "--params",
            str(ROOT / "results" / "profiles" / "mixture_25d.toml"), "--rounds", "3",
            "--table-games", "100000", "--games", "4000", "--budget", "30000", "--jobs", "2",
            "--seed", "121", "--quiet", "--out", str(tmp_path / "mix.toml")]
    benchmark.pedantic(lambda: main(args), rounds=1, iterations=1)
