"""pytest-benchmark suite (not part of the test suite; timings are never asserted).

Run: .venv/bin/python -m pytest benchmarks --benchmark-only
"""

from __future__ import annotations

import pytest

from agents.base import resolve_agent_set
from sim.play import Driver
from sim.rules import Composition, RuleSet
from sim.runner import play_batch
from sim.setup import build_setup
from sim.streams import game_streams


@pytest.mark.parametrize("agents", ["heuristic", "uniform", "random"])
@pytest.mark.parametrize("players", [20, 25, 30, 60, 100])
def test_one_game(benchmark, agents: str, players: int) -> None:  # type: ignore[no-untyped-def]
    driver = Driver(Composition.standard(players), RuleSet(), resolve_agent_set(agents))
    seeds = iter(range(10**9))
    benchmark(lambda: driver.play(game_streams(0, next(seeds), players)))


def test_batch_of_200_standard_games(benchmark) -> None:  # type: ignore[no-untyped-def]
    setup = build_setup(None, players=25)
    benchmark.pedantic(lambda: play_batch(setup, 1, 0, 200), rounds=3, iterations=1)
