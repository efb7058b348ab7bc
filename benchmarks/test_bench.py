"""pytest-benchmark suite (not part of the test suite; timings are never asserted).

Run: .venv/bin/python -m pytest benchmarks --benchmark-only
"""

from __future__ import annotations

import pytest

from agents.registry import resolve_agent_set
from sim.game.rules import Composition, RuleSet
from sim.play.driver import Driver
from sim.play.runner import play_batch
from sim.play.setup import build_setup
from sim.play.streams import game_streams


@pytest.mark.parametrize("agents", ["heuristic", "uniform", "random"])
@pytest.mark.parametrize("players", [20, 25, 30, 60, 100])
def test_one_game(benchmark, agents: str, players: int) -> None:  # type: ignore[no-untyped-def]
    driver = Driver(Composition.standard(players), RuleSet(), resolve_agent_set(agents))
    seeds = iter(range(10**9))
    benchmark(lambda: driver.play(game_streams(0, next(seeds), players)))


def test_batch_of_200_standard_games(benchmark) -> None:  # type: ignore[no-untyped-def]
    setup = build_setup(None, players=25)
    benchmark.pedantic(lambda: play_batch(setup, 1, 0, 200), rounds=3, iterations=1)
