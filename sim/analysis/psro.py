"""A mixed equilibrium over the camps' strategies by Policy-Space Response Oracles (PSRO:
Lanctot et al. 2017, as OpenSpiel's psro_v2).

Each camp keeps a population of profiles (sets of its agents' parameters, talk included). A
round:

1. **The payoff table.** Runs in which game `i` draws each camp's profile (sim.play.mixture),
   so the games are split among the table's cells (one profile a camp) on common random
   numbers, and a cell's payoff to a camp is the camp's win share in the games that drew
   it, with its count (the table's intervals). The games are spent where they matter
   (`adaptive_table`): a first phase draws uniformly, later phases half from the mixture
   solved so far, so the cells the equilibrium plays are the well-measured ones. Each
   profile's payoff against the others' weights is logged with its interval.
2. **The meta-solver: projected replicator dynamics** (psro_v2's choice for n-player
   general-sum games): each camp's weights grow with how much each of its profiles beats
   its current average against the others' weights, projected back onto the simplex with a
   small floor so that no profile dies out by noise. `MetaSolver` names the two answers
   drawn from it: the time average of a small step (the default; a circling dynamic's
   average is what nears the equilibrium, and over a fixed time the weights move only as
   far as the table's differences push them, so profiles the table cannot tell apart keep
   a share), or the best iterate by the table's own NashConv over several step sizes,
   nearer the restricted equilibrium on the table but concentrated where its noise points:
   on fresh games its 25-player mixture was the more exploitable (results/mixture.md), or
   the iterate chosen by cross-validation between the table's two halves of games
   (`crossval_solve`: the dynamics go only as far as the table's differences hold on games
   they were not solved on).
   Chosen over fictitious play (slower to settle on a 4-player table) and alpha-rank (its
   ranking is not a Nash mixture).
3. **The oracle.** Each camp's best response to that mixture, by `exploit`'s search (its
   talk and votes included), confirmed on fresh paired games against the camp's mixing:
   a camp gaining more than the tolerance adds its answer to its population. Against a
   mixing camp the search also tries a change on top of every profile of its mixture
   (`search._best_response_to_mixture`); such an answer joins the population as the
   change on top of each of the camp's profiles of weight at least OVERLAY_WEIGHT (the
   heaviest always), so that the restricted game can play most of the deviation that
   was measured (with the heaviest profile alone it could not, and the same answers
   came back round after round); any other answer adds one profile.

It stops when no camp gains more than the tolerance (converged) or after the rounds
allowed; the mixture of the last round is the answer, with each camp's gain and their sum
(NashConv) against it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
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


class MetaSolver(StrEnum):
    """How a round's payoff table is solved (`solve_table`)."""

    #: the time average of the replicator dynamics at a small step (`replicator`): the
    #: weights move as far as the table's differences push them over a fixed time, as Hedge
    #: with a small learning rate, so a mixture spread over the profiles the table cannot
    #: tell apart; the default (its mixtures were the least exploitable on fresh games)
    AVERAGE = "average"
    #: the best iterate by the table's own NashConv (`meta_solve`): nearer the restricted
    #: game's equilibrium on the table, but it concentrates the weights on what the table's
    #: noise favours, and on fresh games its mixture was the more exploitable
    BEST = "best"
    #: the iterate of the replicator dynamics (step size and stopping time) whose weights,
    #: solved on one half of the table's games, leave the least NashConv on the other half
    #: (`crossval_solve`): as far towards the table's equilibrium as the table's evidence
    #: carries to games it was not solved on, and no further
    CROSSVAL = "crossval"

    @property
    def words(self) -> str:
        """What the mixture file's `found` says of it."""
        return {MetaSolver.AVERAGE: "time-averaged projected replicator dynamics",
                MetaSolver.BEST: "the best iterate of projected replicator dynamics",
                MetaSolver.CROSSVAL: "projected replicator dynamics stopped where its "
                                     "weights hold on the table's other half"}[self]


#: the weight below which a profile leaves the mixture written out
MIN_WEIGHT = 1e-3
#: an answer over a camp's whole mixture joins the population on top of each profile of
#: at least this weight (a handful of profiles: the table's rows stay few enough to weigh)
OVERLAY_WEIGHT = 0.1
#: game indices of the payoff table's phase p start at TABLE_BASE + p * PHASE_STRIDE: apart
#: from the search's own ranges (multiples of 10,000,000 below it, and 1,000,000,000), and
#: within the int32 of a run's rows
TABLE_BASE = 1_500_000_000
PHASE_STRIDE = 100_000_000


@dataclass
class PayoffTable:
    """Each camp's wins in each cell (one profile per camp, CAMPS order) and the games that
    cell had; tables of the same populations add up (`+`). `folds` are the same table's
    two halves (its games of even and of odd index), disjoint games that `crossval_solve`
    solves on one and scores on the other."""

    wins: dict[str, np.ndarray]
    games: np.ndarray
    folds: tuple[PayoffTable, PayoffTable] | None = None

    @property
    def shares(self) -> dict[str, np.ndarray]:
        """Each camp's win share in each cell; a cell no game drew (tiny runs only) takes
        the camp's share over all games."""
        out = {}
        for c, w in self.wins.items():
            overall = w.sum() / max(1.0, self.games.sum())
            out[c] = np.where(self.games > 0, w / np.maximum(self.games, 1), overall)
        return out

    def __add__(self, other: PayoffTable) -> PayoffTable:
        folds = None
        if self.folds is not None and other.folds is not None:
            folds = (self.folds[0] + other.folds[0], self.folds[1] + other.folds[1])
        return PayoffTable({c: w + other.wins[c] for c, w in self.wins.items()},
                           self.games + other.games, folds)

    def values(self, sigma: Sequence[np.ndarray]) -> dict[str, list[tuple[float, float]]]:
        """Each camp's payoff of each of its profiles against the others' weights `sigma`,
        with the half-width of its 95% interval (the cells' binomial errors, weighted):
        what the meta-solver weighs the profiles by, and how sure the table is of it."""
        shares = self.shares
        out: dict[str, list[tuple[float, float]]] = {}
        for i, c in enumerate(CAMPS):
            # the others' weights over the cells, camp i's own axis kept whole
            axes = [sigma[j] if j != i else np.ones(len(sigma[j])) for j in range(4)]
            w: np.ndarray = np.einsum("a,b,c,d->abcd", *axes)
            p = shares[c]
            var = w ** 2 * p * (1 - p) / np.maximum(self.games, 1)
            rest = tuple(j for j in range(4) if j != i)
            value = (w * p).sum(axis=rest)
            half = 1.96 * np.sqrt(var.sum(axis=rest))
            out[c] = [(float(v), float(h)) for v, h in zip(value, half, strict=True)]
        return out


@dataclass
class Psro:
    """The outcome: the mixture found, the rounds that led there."""

    status: str  # "converged" or "rounds"
    #: the chosen round's mixture: the converged one, else the one of the smallest NashConv
    mixture: Mixture
    populations: dict[str, list[Profile]]
    rounds: list[dict[str, Any]] = field(default_factory=list)
    played: int = 0
    chosen: int = 0  # the round (1-based) whose mixture is `mixture`

    def as_dict(self) -> dict[str, Any]:
        return {"status": self.status, "mixture": self.mixture.describe(),
                "chosen": self.chosen, "populations": self.populations,
                "rounds": self.rounds, "played": self.played}

    def with_population(self) -> Mixture:
        """The mixture with every profile of the populations: those it does not play (the
        last round's answers, not weighed yet, and those the solver dropped) at weight 0,
        never drawn, so that a run continued from the file (`--params`) starts from the
        whole population instead of finding them again."""
        camps = {}
        for c, comps in self.mixture.camps.items():
            kept = [Component(x.weight, dict(x.params)) for x in comps]
            seen = [dict(x.params) for x in comps]
            kept += [Component(0.0, dict(p)) for p in self.populations.get(c, [])
                     if dict(p) not in seen]
            camps[c] = tuple(kept)
        return Mixture(camps, self.mixture.found)


def payoff_table(setup: Setup, pops: Mapping[str, Sequence[Profile]], *, games: int,
                 seed: int, jobs: int = 1, sampling: Mixture | None = None,
                 start: int = 0) -> PayoffTable:
    """The payoff table of the populations from one run of `games` games (from index
    `start`) whose profiles are drawn from `sampling` (by default the populations' uniform
    mixture): each game counts in the cell it drew, so the cells share common random
    numbers, and any sampling gives each cell an unbiased share (the draw is independent
    of the game's own streams)."""
    from sim.play.runner import run

    mix = sampling or uniform_mixture(pops)
    play = with_fixed(setup, mix, pops)
    res = run(replace(setup, mixture=play), games=games, seed=seed, jobs=jobs,
              keep_rows=True, start=start)
    if res.interrupted:
        raise KeyboardInterrupt
    assert res.rows is not None
    sizes = mix.sizes()
    # each game counts in one of two halves by its index's parity (the folds)
    counts = np.zeros((2, *sizes))
    wins = {c: np.zeros((2, *sizes)) for c in CAMPS}
    camp_of = {int(Winner[c.upper()]): c for c in CAMPS}  # a draw or stalemate: no camp
    for game, winner in zip(res.rows[:, 0], res.rows[:, 1], strict=True):
        # a camp outside the populations plays its own mixture: its draw is averaged over
        cell = (int(game) % 2, *(i if c in pops else 0
                                 for c, i in zip(CAMPS, play.draw(seed, int(game)),
                                                 strict=True)))
        counts[cell] += 1
        if int(winner) in camp_of:
            wins[camp_of[int(winner)]][cell] += 1
    even, odd = (PayoffTable({c: w[f] for c, w in wins.items()}, counts[f]) for f in (0, 1))
    return PayoffTable({c: w.sum(axis=0) for c, w in wins.items()}, counts.sum(axis=0),
                       (even, odd))


def adaptive_table(setup: Setup, pops: Mapping[str, Sequence[Profile]], *, games: int,
                   seed: int, jobs: int = 1, phases: int = 3,
                   progress: Callable[[int], None] | None = None,
                   solver: MetaSolver = MetaSolver.AVERAGE, also: Sequence[Setup] = ()
                   ) -> tuple[PayoffTable, list[np.ndarray]]:
    """The payoff table, spent where it matters: a first phase of the uniform mixture, then
    phases drawn from half the mixture solved so far and half uniform (`explore`), so that
    the cells the equilibrium plays get the games (their errors are what the solution's
    payoffs carry) while every profile keeps enough to be weighed. Each phase plays fresh
    game indices. Returns the table and the weights solved on all of it.

    With `also` (the same table at other sizes), each phase plays `games / phases`
    games at every size on the same sampling and the tables add up: a cell's share is the
    camps' win share pooled over the sizes, equal games each, so the weights solved are
    those of the game whose payoff is the average over the sizes."""
    per = max(1, games // phases)
    sizes = uniform_mixture(pops).sizes()
    table: PayoffTable | None = None
    sigma: list[np.ndarray] = [np.full(k, 1.0 / k) for k in sizes]
    for p in range(phases):
        sampling = None if table is None else explore(pops, sigma)
        for each in (setup, *also):
            part = payoff_table(each, pops, games=per, seed=seed, jobs=jobs,
                                sampling=sampling,
                                start=TABLE_BASE + p * PHASE_STRIDE)
            if progress is not None:
                progress(per)
            table = part if table is None else table + part
        assert table is not None
        sigma = solve_table(table, solver)
    assert table is not None
    return table, sigma


def explore(pops: Mapping[str, Sequence[Profile]], sigma: Sequence[np.ndarray],
            share: float = 0.5) -> Mixture:
    """The sampling mixture of a later phase: each camp's solved weights mixed with the
    uniform weights (`share` of uniform)."""
    camps = {}
    for i, c in enumerate(CAMPS):
        if c not in pops:
            continue
        k = len(pops[c])
        w = (1 - share) * np.asarray(sigma[i]) + share / k
        w = w / w.sum()
        camps[c] = tuple(Component(float(x), dict(prof))
                         for x, prof in zip(w, pops[c], strict=True))
    return Mixture(camps)


def with_fixed(setup: Setup, mixture: Mixture, searched: Iterable[str]) -> Mixture:
    """`mixture` (of the camps searched) with every other camp's profiles as the setup mixes
    them (the shipped mixture, or a --params file's): a camp left out of the search plays
    what it plays by default, not the single profile."""
    keep = set(searched)
    fixed = ({c: comps for c, comps in setup.mixture.camps.items() if c not in keep}
             if setup.mixture is not None else {})
    return Mixture({**fixed, **mixture.camps}, mixture.found) if fixed else mixture


def uniform_mixture(pops: Mapping[str, Sequence[Profile]]) -> Mixture:
    return Mixture({c: tuple(Component(1.0 / len(p), dict(x)) for x in p)
                    for c, p in pops.items()})


def solve_table(table: PayoffTable, solver: MetaSolver = MetaSolver.AVERAGE
                ) -> list[np.ndarray]:
    """The round's weights by the chosen meta-solver (the one place PSRO decides it)."""
    if solver is MetaSolver.BEST:
        return meta_solve(table)
    if solver is MetaSolver.CROSSVAL:
        return crossval_solve(table)
    return replicator(table)


#: the step sizes `meta_solve` runs the dynamics at: win shares differ between profiles by a
#: point or a few (0.01 to 0.05), so the dynamics' time scale, 1 / (dt * that), spans from
#: a whole run's steps (dt 0.01: the weights barely leave uniform) to a few dozen (dt 10)
META_STEPS = (0.01, 0.3, 3.0, 10.0)


def replicator(table: PayoffTable, *, steps: int = 20_000, dt: float = 0.01,
               floor: float = 1e-4) -> list[np.ndarray]:
    """Projected replicator dynamics on the payoff table: each camp's weights, CAMPS
    order. Starts from uniform weights; `floor` keeps every profile alive (psro_v2's
    gamma), so the dynamics can still turn back to one. The answer is the weights averaged
    over the second half of the steps: where the dynamics settle it is where they settle,
    and where they circle (as best response did, issue 23) the time average is what
    approaches the equilibrium, not the point the circling happens to be at."""
    *_, average = _trajectory(table, steps=steps, dt=dt, floor=floor, every=steps)
    return average


def meta_solve(table: PayoffTable, *, steps: int = 20_000, every: int = 250,
               dts: Sequence[float] = META_STEPS, floor: float = 1e-4) -> list[np.ndarray]:
    """`MetaSolver.BEST`: the best iterate of the replicator dynamics, by the table's own
    NashConv (`restricted_regrets`).

    The time average alone (`replicator`) is no equilibrium when the step is too small for
    the table's payoffs (differences of a point or two between profiles moved the weights
    of 2026-12's 25-player runs by a factor of about 16 over a whole run, leaving a camp
    0.7 points to gain by its best profile on the table) nor when the dynamics circle
    without averaging out. So the dynamics run at several step sizes (`dts`), and every
    `every` steps both the point reached and the time average so far are candidates; the
    candidate of the smallest summed regret on the table is the answer. The final time
    average of the smallest step is among the candidates, so the answer is never further
    from the restricted equilibrium than `replicator`'s."""
    best: tuple[float, list[np.ndarray]] | None = None
    for dt in dts:
        for sigma in _trajectory(table, steps=steps, dt=dt, floor=floor, every=every):
            total = restricted_nash_conv(table, sigma)
            if best is None or total < best[0]:
                best = (total, sigma)
    assert best is not None
    return best[1]


def crossval_solve(table: PayoffTable, *, steps: int = 20_000, every: int = 250,
                   dts: Sequence[float] = META_STEPS, floor: float = 1e-4
                   ) -> list[np.ndarray]:
    """`MetaSolver.CROSSVAL`: the replicator dynamics' iterate chosen by cross-validation.

    The best iterate on the whole table (`meta_solve`) fits its noise: with a point or two
    between profiles and cells measured to a point or two, the table's own equilibrium
    puts the weight where the noise points (mixture_25e, mixture_25h in results/mixture.md
    lost on fresh seeds what they won on their tables). So the candidates of `meta_solve`
    (each step size's points and time averages along the way, and the uniform start) are
    indexed by where they stand on the dynamics' path; the path is run on each half of
    the table's games (`PayoffTable.folds`), each half's candidate scored by the NashConv
    it leaves on the other half (`restricted_regrets`), and the index of the smallest
    summed score is taken on the path over the whole table. How far the dynamics go is
    then what the table's evidence supports on games it was not solved on: when the
    profiles' differences are noise, the answer stays near uniform weights; when they are
    real, it goes as far as `meta_solve`."""
    if table.folds is None:
        raise ValueError("the crossval meta-solver needs the table's two halves (folds): "
                         "a table from payoff_table has them")
    a, b = table.folds
    uniform = [np.full(k, 1.0 / k) for k in table.games.shape]
    best: tuple[float, float | None, int] = (
        restricted_nash_conv(b, uniform) + restricted_nash_conv(a, uniform), None, -1)
    for dt in dts:
        on_a = _trajectory(a, steps=steps, dt=dt, floor=floor, every=every)
        on_b = _trajectory(b, steps=steps, dt=dt, floor=floor, every=every)
        for k, (sa, sb) in enumerate(zip(on_a, on_b, strict=True)):
            score = restricted_nash_conv(b, sa) + restricted_nash_conv(a, sb)
            if score < best[0]:
                best = (score, dt, k)
    _, dt_chosen, index = best
    if dt_chosen is None:
        return uniform
    for k, sigma in enumerate(_trajectory(table, steps=steps, dt=dt_chosen, floor=floor,
                                          every=every)):
        if k == index:
            return sigma
    raise AssertionError("the whole table's path is as long as each half's")


def restricted_regrets(table: PayoffTable, sigma: Sequence[np.ndarray]) -> dict[str, float]:
    """Each camp's gain on the table by its best profile of the population against the
    others' weights `sigma`, over what its own weights earn (0 at a restricted equilibrium;
    their sum is the restricted game's NashConv, on the table's estimates)."""
    values = table.values(sigma)
    out = {}
    for i, c in enumerate(CAMPS):
        v = np.array([x for x, _ in values[c]])
        out[c] = float(v.max() - np.asarray(sigma[i]) @ v)
    return out


def restricted_nash_conv(table: PayoffTable, sigma: Sequence[np.ndarray]) -> float:
    """The restricted game's NashConv of the weights `sigma` on the table: the camps'
    `restricted_regrets` summed (what `meta_solve` and `crossval_solve` minimise)."""
    return sum(restricted_regrets(table, sigma).values())


def _trajectory(table: PayoffTable, *, steps: int, dt: float, floor: float,
                every: int) -> Iterator[list[np.ndarray]]:
    """The replicator dynamics from uniform weights: every `every` steps the point reached,
    then the average of the steps since the second half began (from the first step until
    then); the last item is the second half's average."""
    sizes = table.games.shape
    shares = table.shares
    sigma = [np.full(k, 1.0 / k) for k in sizes]
    total = [np.zeros(k) for k in sizes]
    letters = "abcd"
    for step in range(steps):
        new = []
        for i, c in enumerate(CAMPS):
            if sizes[i] == 1:
                new.append(sigma[i])
                continue
            others = [letters[j] for j in range(4) if j != i]
            spec = "abcd," + ",".join(others) + "->" + letters[i]
            u = np.einsum(spec, shares[c], *[sigma[j] for j in range(4) if j != i])
            s = sigma[i] + dt * sigma[i] * (u - sigma[i] @ u)
            new.append(_project(s, floor))
        sigma = new
        if step == steps // 2:  # the second half's average starts here
            total = [np.zeros(k) for k in sizes]
        total = [t + x for t, x in zip(total, sigma, strict=True)]
        if (step + 1) % every == 0 and step + 1 < steps:
            yield sigma
            yield [t / t.sum() for t in total]
    yield [t / t.sum() for t in total]


def _project(s: np.ndarray, floor: float) -> np.ndarray:
    """Onto the simplex with every weight at least `floor`."""
    s = np.maximum(s, floor)
    return s / s.sum()


def _heavy(comps: Sequence[Component], least: float) -> list[Component]:
    """A camp's profiles of weight at least `least`, its heaviest always (the first of equal
    weights)."""
    heaviest = max(comps, key=lambda c: c.weight)
    return [c for c in comps if c.weight >= least or c is heaviest]


def psro(setup: Setup, *, camps: Sequence[str] = CAMPS, rounds: int = 3,
         tolerance: float = 0.01, seed: int = 0, table_games: int = 8000,
         games: int = DEFAULT_GAMES, budget: int = DEFAULT_BUDGET, jobs: int = 1,
         progress: Callable[[int], None] | None = None,
         log: Callable[[str], None] | None = None,
         checkpoint: Callable[[Psro], None] | None = None,
         solver: MetaSolver = MetaSolver.AVERAGE, start_weight: float = 0.0,
         also: Sequence[Setup] = ()) -> Psro:
    """PSRO from the setup's own profile (each camp's population starts with it), or, when
    the setup has a mixture (`--params` of an earlier run's file), from that mixture's
    profiles of weight at least `start_weight` (each camp's heaviest always): a run can be
    continued, and a smaller population spreads the payoff table's games over fewer cells
    (one run at 25 players, mixture_25p: its table's half-widths fell from ±2-6 points to
    ±0.4-1.1, and NashConv on fresh games from mixture_25l's 8.9 to 5.1;
    results/mixture.md). Round r plays on seed `seed + r - 1`. `checkpoint`
    gets the outcome so far after every round (its answers added to the populations), so
    that a run stopped later keeps the rounds it finished.

    The answer is the converged round's mixture, else the mixture of the smallest NashConv
    among the rounds (as `equilibrate` chooses the profile of the smallest largest gain:
    PSRO's NashConv does not fall round by round, each round's restricted game moving most
    of a camp's weight to its newest answer). A minimum over noisy measurements is
    optimistic: confirm it on fresh games (`exploit --params FILE`).

    `also`: the same table at other sizes, for one mixture that holds across them.
    Each round's payoff table adds equal games at every size (`adaptive_table`), each
    camp's best response is searched at every size, and every answer that gains more than
    the tolerance at some size joins the population; a round's gains are each camp's
    largest over the sizes and its NashConv the largest of the sizes' (`_worst_size`),
    which is what convergence and the chosen round go by: the target is met at each size,
    not on average."""
    seated = seated_camps(setup, camps)
    start = setup.mixture.camps if setup.mixture is not None else {}
    pops: dict[str, list[Profile]] = {
        c: [dict(comp.params) for comp in _heavy(start[c], start_weight)]
        if c in start else [{}] for c in seated}
    history: list[dict[str, Any]] = []
    played, status = 0, "rounds"
    mixture = uniform_mixture(pops)
    chosen: tuple[float, int, Mixture] | None = None  # (NashConv, round, mixture)
    for r in range(1, rounds + 1):
        s = seed + r - 1
        table, sigma = adaptive_table(setup, pops, games=table_games, seed=s, jobs=jobs,
                                      progress=progress, solver=solver, also=also)
        played += int(table.games.sum())
        where = (f"{table_games:,} table games in 3 phases" if not also else
                 f"{table_games:,} table games at each of "
                 f"{', '.join(str(n) for n in sorted(x.comp.n for x in (setup, *also)))} players "
                 f"in 3 phases")
        mixture = with_fixed(setup, Mixture(
            {c: tuple(Component(float(w), dict(p))
                      for w, p in zip(_tidy(sigma[CAMPS.index(c)]), pops[c], strict=True)
                      if w > 0) for c in seated},
            found=f"PSRO round {r} of {rounds} (seed {s}, {where}, {solver.words})"), seated)
        values = table.values(sigma)
        on_table = restricted_regrets(table, sigma)
        by_size: dict[int, dict[str, BestResponse]] = {}
        for each in (setup, *also):
            here = replace(each, mixture=mixture)
            ev = Evaluator(here, seed=s, jobs=jobs, progress=progress)
            by_size[each.comp.n] = exploitability(here, camps=seated, seed=s, games=games,
                                                   budget=budget, evaluator=ev)
            played += ev.played
        ncs = {n: nash_conv(b) for n, b in by_size.items()}
        brs, at, nc = _worst_size(by_size, ncs)
        worst = max((br.gain for br in brs.values()), default=0.0)
        history.append({"round": r, "seed": s, "mixture": mixture.describe(),
                        "table_games": int(table.games.sum()),
                        "table": {c: [{"profile": dict(p), "weight": float(w),
                                       "value": v, "half_width": h}
                                      for p, w, (v, h) in zip(pops[c], sigma[CAMPS.index(c)],
                                                              values[c], strict=True)]
                                  for c in seated},
                        "restricted_regrets": {c: on_table[c] for c in seated},
                        "gains": {c: br.as_dict() for c, br in brs.items()}, **nc,
                        **({"gains_at_players": at, "by_players": {n: {"gains": {c: br.as_dict()
                                                         for c, br in b.items()},
                                               **ncs[n]}
                                           for n, b in by_size.items()}} if also else {})})
        if log:
            log(f"round {r}: payoff table ({int(table.games.sum()):,} games), each "
                f"profile against the others' weights: " + "; ".join(
                    f"{c} " + " ".join(f"{w:.2f}:{v:.1%}±{h:.1%}" for w, (v, h) in
                                       zip(sigma[CAMPS.index(c)], values[c], strict=True))
                    for c in seated) + "; the table's own NashConv (each camp's best "
                f"profile over its weights) {sum(on_table[c] for c in seated):.2%}")
            for n, b in by_size.items():
                log(f"round {r}: " + (f"{n} players: " if also else "")
                    + f"NashConv {ncs[n]['nash_conv']:+.2%}; " + ", ".join(
                        f"{c} {br.gain:+.2%} [{br.low:+.2%}, {br.high:+.2%}]"
                        for c, br in b.items()))
            log(f"round {r}: weights " + "; ".join(
                f"{c} " + "/".join(f"{comp.weight:.2f}" for comp in mixture.camps[c])
                for c in seated))
        converged = worst <= tolerance
        if converged or chosen is None or nc["nash_conv"] <= chosen[0]:
            chosen = (nc["nash_conv"], r, mixture)
        if converged:
            status = "converged"
        else:  # the answers join the populations (after the last round too: a continued
            # run starts with them)
            for b in by_size.values():
                for c, br in b.items():
                    if br.gain > tolerance:
                        pops[c] += [p for p in _answers(mixture, c, br)
                                    if p not in pops[c]]
        if checkpoint:
            checkpoint(Psro(status, chosen[2], {c: [dict(p) for p in ps]
                                                for c, ps in pops.items()},
                            list(history), played, chosen[1]))
        if converged:
            break
    if chosen is None:  # no round asked for
        return Psro(status, mixture, pops, history, played, 0)
    return Psro(status, chosen[2], pops, history, played, chosen[1])


def _worst_size(by_size: Mapping[int, Mapping[str, BestResponse]],
                ncs: Mapping[int, dict[str, float]]
                ) -> tuple[dict[str, BestResponse], dict[str, int], dict[str, float]]:
    """A round's figures over table sizes (`ncs`: each size's NashConv): each camp's
    largest gain at any size and the size it was found at, and the NashConv of the size
    where it is largest (with that size's interval); with one size, that size's own."""
    nc = max(ncs.values(), key=lambda x: x["nash_conv"])
    brs: dict[str, BestResponse] = {}
    at: dict[str, int] = {}
    for n, b in by_size.items():
        for c, br in b.items():
            if c not in brs or br.gain > brs[c].gain:
                brs[c], at[c] = br, n
    return brs, at, nc


def _answers(mixture: Mixture, camp: str, br: BestResponse) -> list[Profile]:
    """The camp's whole profiles that answer the mixture (new members of its population):
    the answer found on its heaviest profile, or an answer over its whole mixture
    (`br.overlay`) on top of each of its profiles of weight OVERLAY_WEIGHT or more (the
    heaviest first, always), without repeats."""
    if br.profile and not br.overlay:
        return [dict(br.profile)]
    top = dict(mixture.top(camp))
    out = [{**top, **br.deviation}]
    for comp in mixture.camps.get(camp, ()):
        new = {**comp.params, **br.deviation}
        if comp.weight >= OVERLAY_WEIGHT and new not in out:
            out.append(new)
    return out


def _tidy(w: np.ndarray) -> list[float]:
    """Weights with the floor's crumbs (below MIN_WEIGHT) dropped, summing to 1."""
    w = np.where(w < MIN_WEIGHT, 0.0, w)
    return [float(x) for x in w / w.sum()]
