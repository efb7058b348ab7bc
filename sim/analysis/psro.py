"""A mixed equilibrium over the camps' strategies by Policy-Space Response Oracles (PSRO:
Lanctot et al. 2017, as OpenSpiel's psro_v2).

Each camp keeps a population of profiles (sets of its agents' parameters, talk included). A
round:

1. **The payoff table.** One run of the uniform mixture of the populations: game `i` draws
   each camp's profile (sim.play.mixture), so the games are split among the table's cells
   (one profile a camp) on common random numbers, and a cell's payoff to a camp is the
   camp's win share in the games that drew it, with its count (the table's intervals).
2. **The meta-solver: projected replicator dynamics** (psro_v2's choice for n-player
   general-sum games): each camp's weights grow with how much each of its profiles beats
   its current average against the others' weights, projected back onto the simplex with a
   small floor so that no profile dies out by noise. Chosen over fictitious play (slower to
   settle on a 4-player table) and alpha-rank (its ranking is not a Nash mixture).
3. **The oracle.** Each camp's best response to that mixture, by `exploit`'s search (its
   talk and votes included), confirmed on fresh paired games against the camp's mixing:
   a camp gaining more than the tolerance adds its answer to its population.

It stops when no camp gains more than the tolerance (converged) or after the rounds
allowed; the mixture of the last round is the answer, with each camp's gain and their sum
(NashConv) against it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from sim.analysis.search import (
    DEFAULT_BUDGET,
    DEFAULT_GAMES,
    BestResponse,
    Evaluator,
    exploitability,
    nash_conv,
    seated_camps,
)
from sim.game.params import Value
from sim.game.roles import Winner
from sim.play.mixture import CAMPS, Component, Mixture
from sim.play.setup import Setup

Profile = dict[str, Value]
#: the weight below which a profile leaves the mixture written out
MIN_WEIGHT = 1e-3


@dataclass
class PayoffTable:
    """Each camp's win share in each cell (one profile per camp, CAMPS order), and the
    games that cell had."""

    shares: dict[str, np.ndarray]
    games: np.ndarray


@dataclass
class Psro:
    """The outcome: the mixture found, the rounds that led there."""

    status: str  # "converged" or "rounds"
    mixture: Mixture
    populations: dict[str, list[Profile]]
    rounds: list[dict[str, Any]] = field(default_factory=list)
    played: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {"status": self.status, "mixture": self.mixture.describe(),
                "populations": self.populations, "rounds": self.rounds,
                "played": self.played}


def payoff_table(setup: Setup, pops: Mapping[str, Sequence[Profile]], *, games: int,
                 seed: int, jobs: int = 1) -> PayoffTable:
    """The payoff table of the populations from one run of their uniform mixture."""
    from sim.play.runner import run

    uniform = uniform_mixture(pops)
    res = run(replace(setup, mixture=uniform), games=games, seed=seed, jobs=jobs,
              keep_rows=True)
    if res.interrupted:
        raise KeyboardInterrupt
    assert res.rows is not None
    sizes = uniform.sizes()
    counts = np.zeros(sizes)
    wins = {c: np.zeros(sizes) for c in CAMPS}
    camp_of = {int(Winner[c.upper()]): c for c in CAMPS}  # a draw or stalemate: no camp
    for game, winner in zip(res.rows[:, 0], res.rows[:, 1], strict=True):
        cell = uniform.draw(seed, int(game))
        counts[cell] += 1
        if int(winner) in camp_of:
            wins[camp_of[int(winner)]][cell] += 1
    shares = {}
    for c in CAMPS:
        # a cell no game drew: the camp's share over all games (seen with tiny runs only)
        overall = wins[c].sum() / max(1.0, counts.sum())
        shares[c] = np.where(counts > 0, wins[c] / np.maximum(counts, 1), overall)
    return PayoffTable(shares, counts)


def uniform_mixture(pops: Mapping[str, Sequence[Profile]]) -> Mixture:
    return Mixture({c: tuple(Component(1.0 / len(p), dict(x)) for x in p)
                    for c, p in pops.items()})


def replicator(table: PayoffTable, *, steps: int = 20_000, dt: float = 0.01,
               floor: float = 1e-4) -> list[np.ndarray]:
    """Projected replicator dynamics on the payoff table: each camp's weights, CAMPS
    order. Starts from uniform weights; `floor` keeps every profile alive (psro_v2's
    gamma), so the dynamics can still turn back to one."""
    sizes = table.games.shape
    sigma = [np.full(k, 1.0 / k) for k in sizes]
    letters = "abcd"
    for _ in range(steps):
        new = []
        for i, c in enumerate(CAMPS):
            if sizes[i] == 1:
                new.append(sigma[i])
                continue
            others = [letters[j] for j in range(4) if j != i]
            spec = "abcd," + ",".join(others) + "->" + letters[i]
            u = np.einsum(spec, table.shares[c], *[sigma[j] for j in range(4) if j != i])
            s = sigma[i] + dt * sigma[i] * (u - sigma[i] @ u)
            new.append(_project(s, floor))
        sigma = new
    return sigma


def _project(s: np.ndarray, floor: float) -> np.ndarray:
    """Onto the simplex with every weight at least `floor`."""
    s = np.maximum(s, floor)
    return s / s.sum()


def psro(setup: Setup, *, camps: Sequence[str] = CAMPS, rounds: int = 3,
         tolerance: float = 0.01, seed: int = 0, table_games: int = 8000,
         games: int = DEFAULT_GAMES, budget: int = DEFAULT_BUDGET, jobs: int = 1,
         progress: Callable[[int], None] | None = None,
         log: Callable[[str], None] | None = None) -> Psro:
    """PSRO from the setup's own profile (each camp's population starts with it), or, when
    the setup has a mixture (`--params` of an earlier run's file), from that mixture's
    profiles: a run can be continued. Round r plays on seed `seed + r - 1`."""
    seated = seated_camps(setup, camps)
    start = setup.mixture.camps if setup.mixture is not None else {}
    pops: dict[str, list[Profile]] = {
        c: [dict(comp.params) for comp in start[c]] if c in start else [{}] for c in seated}
    history: list[dict[str, Any]] = []
    played, status = 0, "rounds"
    mixture = uniform_mixture(pops)
    for r in range(1, rounds + 1):
        s = seed + r - 1
        table = payoff_table(setup, pops, games=table_games, seed=s, jobs=jobs)
        played += table_games
        if progress is not None:
            progress(table_games)
        sigma = replicator(table)
        mixture = Mixture({c: tuple(Component(float(w), dict(p))
                                    for w, p in zip(_tidy(sigma[CAMPS.index(c)]), pops[c],
                                                    strict=True) if w > 0)
                           for c in seated},
                          found=f"PSRO round {r} of {rounds} (seed {s}, {table_games:,} "
                                f"table games, projected replicator dynamics)")
        here = replace(setup, mixture=mixture)
        ev = Evaluator(here, seed=s, jobs=jobs, progress=progress)
        brs = exploitability(here, camps=seated, seed=s, games=games, budget=budget,
                             evaluator=ev)
        played += ev.played
        nc = nash_conv(brs)
        worst = max((br.gain for br in brs.values()), default=0.0)
        history.append({"round": r, "seed": s, "mixture": mixture.describe(),
                        "table_games": table_games,
                        "gains": {c: br.as_dict() for c, br in brs.items()}, **nc})
        if log:
            log(f"round {r}: NashConv {nc['nash_conv']:+.2%}; " + ", ".join(
                f"{c} {br.gain:+.2%} [{br.low:+.2%}, {br.high:+.2%}]"
                for c, br in brs.items()) + "; weights " + "; ".join(
                f"{c} " + "/".join(f"{comp.weight:.2f}" for comp in mixture.camps[c])
                for c in seated))
        if worst <= tolerance:
            status = "converged"
            break
        if r == rounds:
            break
        for c, br in brs.items():
            new = _answer(mixture, c, br)
            if br.gain > tolerance and new not in pops[c]:
                pops[c].append(new)
    return Psro(status, mixture, pops, history, played)


def _answer(mixture: Mixture, camp: str, br: BestResponse) -> Profile:
    """The camp's whole profile that answers the mixture (a new member of its population)."""
    if br.profile:
        return dict(br.profile)
    return {**mixture.top(camp), **br.deviation}


def _tidy(w: np.ndarray) -> list[float]:
    """Weights with the floor's crumbs (below MIN_WEIGHT) dropped, summing to 1."""
    w = np.where(w < MIN_WEIGHT, 0.0, w)
    return [float(x) for x in w / w.sum()]
