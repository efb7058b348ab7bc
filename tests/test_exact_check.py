"""The engine's correctness check: `uniform` games against the exact dynamic program
(sim.exact) on compositions of civilians, plain clans and the maniac (R3.1, R17.4, D17.2)."""

from __future__ import annotations

import math

import pytest

from agents.base import resolve_agent_set
from sim.exact import exact_outcome
from sim.roles import Winner
from sim.rules import Composition, RuleSet
from sim.runner import run
from sim.setup import Setup

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
        share = result.tally.winners[w] / GAMES
        se = math.sqrt(max(p * (1 - p), 1e-12) / GAMES)
        assert abs(share - p) <= 4 * se + 1e-12, (w.key, share, p, se)
    assert result.tally.winners[Winner.STALEMATE] == 0
