"""Best responses and exploitability: how far each camp could raise its own win share by
playing differently while the others play as before (OpenSpiel's `nash_conv`, estimated by
simulation), and iterated best response towards an approximate equilibrium.

A camp's deviations are its agents' parameters (`AgentSet.space`): every single-parameter
move over each dimension's search values, then a few combinations of the best single moves
(the best value of each helpful dimension, added in turn), then coordinate ascent from the
winner (every move of another parameter added on top of it, the best kept, twice: a chain
whose later parts gain only on top of the earlier ones is reached this way), and the answers
found before (`sim/data/answers.toml`) as they stand. A combination whose parts each lose
alone, as Town's answer to the default of issue 24 (a hero's silence with a defence from the
first votes), is reached by none of these searches, only by the answers file.
The other camps keep their parameters, as optuna's partial-fixed sampler keeps some
parameters fixed.

Games are spent adaptively and on common random numbers:

- selection is successive halving: at each stage every surviving candidate and the
  baseline play the same fresh range of game indices (stage k plays indices from
  k * STAGE_STRIDE), and the best third by mean paired gain (accumulated over the stages
  it played) goes on, until one is left;
- the winner then plays a *confirming* run on fresh indices (from CONFIRM_BASE) that no
  selection stage used, paired with the baseline on the same games. The reported gain and
  its paired 95% interval come from that run only, so they carry no winner's curse.

The baseline (the setup's own profile) is never a candidate: the best *deviation* is
confirmed and reported as measured, even when its gain is negative. A gain at or below zero
(or an interval reaching below zero) says that no deviation tried beats the profile; the
interval's upper end bounds how much the best one found could help.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from sim.game.params import CAMPS, Dim, Value, lookup_order, params_of
from sim.game.roles import Winner
from sim.play.setup import Setup

#: game indices of selection stage k start at k * STAGE_STRIDE
STAGE_STRIDE = 10_000_000
#: game indices of the confirming runs start here (never used in selection)
CONFIRM_BASE = 1_000_000_000
#: game indices of the final stage between a mixing camp's candidates (apart from both,
#: and from PSRO's payoff tables at 1,500,000,000 and up)
FINAL_BASE = 1_200_000_000
#: default confirming games and selection budget (games per camp), sized so that all four
#: camps on the standard 25-player table take about 10 minutes with 2 jobs (unloaded)
DEFAULT_GAMES = 20_000
DEFAULT_BUDGET = 120_000
#: fewest games a candidate plays in one stage
MIN_STAGE_GAMES = 50
#: successive halving keeps 1/ETA of the candidates after each stage
ETA = 3
#: at most this many of the best single moves are combined
MAX_COMBINED = 5
#: steps of coordinate ascent from the selection's winner (each adds one parameter)
ASCENT_STEPS = 2
#: the share of a camp's selection budget the ascent spends (the rest: the selection)
ASCENT_SHARE = 0.2
#: answers found before (issue 24: a search at one table size or seed found what another
#: missed), replayed by every search in its final stage
ANSWERS_FILE = "answers.toml"

Deviation = dict[str, Value]
Progress = Callable[[int], None]


def profile_key(params: Mapping[str, Value]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((k, repr(v)) for k, v in params.items()))


@dataclass(frozen=True)
class BestResponse:
    """A camp's best deviation found and its confirmed gain in the camp's own win share."""

    camp: str
    gain: float
    low: float
    high: float
    deviation: Deviation
    tried: int
    share: float = math.nan  # the camp's share under the deviation (confirming run)
    base_share: float = math.nan  # and under the profile searched from
    games: int = 0  # confirming games
    selection_games: int = 0  # games the candidates played in selection
    #: against a mixture (sim.play.mixture): the camp's whole profile that answers it (its
    #: heaviest profile with the deviation on top); the gain is against the camp's mixing
    profile: Deviation = field(default_factory=dict)
    #: against a mixture: the deviation is applied on top of every profile of the camp's
    #: mixture (which keeps its weights), not on its heaviest profile alone
    overlay: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {"gain": self.gain, "low": self.low, "high": self.high,
                "deviation": dict(self.deviation), "tried": self.tried, "share": self.share,
                "base_share": self.base_share, "games": self.games,
                "selection_games": self.selection_games, "profile": dict(self.profile),
                "overlay": self.overlay}


def nash_conv(brs: Mapping[str, BestResponse]) -> dict[str, float]:
    """NashConv: the sum over the camps of what each gains by its best response (a camp
    whose best deviation found loses counts 0: keeping its strategy is one of its
    choices), with the sum of the camps' interval ends as a conservative interval."""
    return {"nash_conv": sum(max(0.0, br.gain) for br in brs.values()),
            "low": sum(max(0.0, br.low) for br in brs.values()),
            "high": sum(max(0.0, br.high) for br in brs.values())}


class Evaluator:
    """Winners of a setup's deviations on given game ranges, cached and extended on demand
    (a range's first n games are the same whatever n, so a longer request only plays the
    missing games). `played` counts every game played."""

    def __init__(self, setup: Setup, *, seed: int, jobs: int = 1,
                 progress: Progress | None = None):
        self.setup, self.seed, self.jobs, self.progress = setup, seed, jobs, progress
        self.played = 0
        self._rows: dict[tuple[Any, ...], dict[int, np.ndarray]] = {}
        self._setups: dict[tuple[Any, ...], Setup] = {}

    def setup_for(self, dev: Mapping[str, Value]) -> Setup:
        key = profile_key(dev)
        s = self._setups.get(key)
        if s is None:
            s = self._setups[key] = (replace(self.setup,
                                             agents=self.setup.agents.with_params(dev))
                                     if dev else self.setup)
        return s

    def winners(self, dev: Mapping[str, Value], start: int, n: int) -> np.ndarray:
        from sim.play.runner import run

        by_start = self._rows.setdefault(profile_key(dev), {})
        have = by_start.get(start, np.zeros(0, np.int32))
        if len(have) < n:
            res = run(self.setup_for(dev), games=n - len(have), seed=self.seed,
                      jobs=self.jobs, keep_rows=True, start=start + len(have))
            if res.interrupted:
                raise KeyboardInterrupt
            assert res.rows is not None
            have = by_start[start] = np.concatenate([have, res.rows[:, 1]])
            self.played += res.tally.games
            if self.progress is not None:
                self.progress(res.tally.games)
        return have[:n]


def seated(setup: Setup) -> set[Any]:
    return {(s.role, s.clan) for s in setup.comp.seats}


def camp_space(setup: Setup, camp: str) -> list[Dim]:
    """The directions `camp` may deviate in at this table."""
    return setup.agents.space(camp, seated(setup))


def current_value(setup: Setup, dim: Dim) -> Value:
    """The value `dim` has in the setup's profile (for a seated agent of its camp or role)."""
    pname = dim.name.rsplit(".", 1)[-1]
    scope = dim.name.rsplit(".", 1)[0]
    for role, clan, cls in setup.agents.agents_of():
        if (role, clan) not in seated(setup) or pname not in params_of(cls):
            continue
        order = lookup_order(role, clan, pname)
        if f"{scope}.{pname}" not in order:
            continue
        for key in order:  # the user's value, else the profile's (as resolve_for)
            if key in setup.agents.params:
                return setup.agents.params[key]
        if setup.mixture is not None:  # a camp's one profile in a mixture
            for comps in setup.mixture.camps.values():
                if len(comps) == 1 and dim.name in comps[0].params:
                    return comps[0].params[dim.name]
        return setup.agents.profile_value(role, clan, pname, params_of(cls)[pname])
    return dim.param.default


def _same(a: Value, b: Value) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return math.isclose(float(a), float(b), rel_tol=0, abs_tol=1e-12)


def single_moves(setup: Setup, dims: Sequence[Dim]) -> list[Deviation]:
    """Every move of one parameter to another of its search values."""
    out: list[Deviation] = []
    for d in dims:
        cur = current_value(setup, d)
        out += [{d.name: v} for v in d.values if not _same(v, cur)]
    return out


def combinations(singles: Sequence[tuple[Deviation, float]]) -> list[Deviation]:
    """Coordinate ascent over the best single moves: the best value of each dimension whose
    best move helped, taken in order of gain, added one at a time (2, 3, ... dimensions)."""
    best: dict[str, tuple[float, Value]] = {}
    for dev, gain in singles:
        ((name, value),) = dev.items()
        if gain > 0 and (name not in best or gain > best[name][0]):
            best[name] = (gain, value)
    ranked = sorted(best.items(), key=lambda kv: -kv[1][0])[:MAX_COMBINED]
    out: list[Deviation] = []
    for k in range(2, len(ranked) + 1):
        out.append({name: value for name, (_, value) in ranked[:k]})
    return out


def _stages_left(pool: int, combos_pending: bool) -> int:
    return max(1, math.ceil(math.log(max(pool, 1)) / math.log(ETA))) + int(combos_pending)


@dataclass(frozen=True)
class _Found:
    """A selection's winner: the deviation, how many candidates were tried, games spent."""

    deviation: Deviation
    tried: int
    spent: int


def _select(ev: Evaluator, camp: str, pool: list[Deviation], budget: int, *,
            combine: bool = True) -> _Found:
    """Successive halving over `pool` against the evaluator's baseline, on the selection
    stages' ranges; with `combine`, the best single moves' combinations join after the
    first stage."""
    w = int(Winner[camp.upper()])
    stats: dict[tuple[Any, ...], list[float]] = {}  # key -> [sum of paired diffs, games]
    devs: dict[tuple[Any, ...], Deviation] = {profile_key(d): d for d in pool}
    spent, stage, combos_pending = 0, 0, combine

    def mean(dev: Deviation) -> float:
        s = stats.get(profile_key(dev))
        return s[0] / s[1] if s and s[1] else -math.inf

    while True:
        left = _stages_left(len(pool), combos_pending)
        n = max(MIN_STAGE_GAMES, (budget - spent) // (left * len(pool)))
        start = stage * STAGE_STRIDE
        base = ev.winners({}, start, n) == w
        for dev in pool:
            b = ev.winners(dev, start, n) == w
            s = stats.setdefault(profile_key(dev), [0.0, 0])
            s[0] += float(b.sum()) - float(base.sum())
            s[1] += n
            spent += n
        pool.sort(key=mean, reverse=True)
        if combos_pending:
            combos_pending = False
            singles = [(d, mean(d)) for d in pool if len(d) == 1]
            pool = pool[: max(1, math.ceil(len(pool) / ETA))]
            for combo in combinations(singles):
                key = profile_key(combo)
                if key not in devs:
                    devs[key] = combo
                    pool.append(combo)
        elif len(pool) <= 1:
            break
        else:
            pool = pool[: max(1, math.ceil(len(pool) / ETA))]
        stage += 1
        if len(pool) == 1 and profile_key(pool[0]) in stats and not combos_pending:
            break
    return _Found(pool[0], len(stats), spent)


def ascent(ev: Evaluator, camp: str, start: Deviation, moves: Sequence[Deviation],
           budget: int, steps: int | None = None) -> tuple[list[Deviation], _Found]:
    """Coordinate ascent from `start`: at each step every move of a parameter not yet set,
    added on top, by successive halving (no combinations); the step's winner is the next
    step's start. Gives each step's winner, and what the steps tried and spent."""
    steps = ASCENT_STEPS if steps is None else steps
    out: list[Deviation] = []
    cur, tried, spent = dict(start), 0, 0
    for k in range(steps):
        pool = [{**cur, **m} for m in moves if not m.keys() & cur.keys()]
        if not pool:
            break
        found = _select(ev, camp, pool, (budget - spent) // (steps - k), combine=False)
        cur = dict(found.deviation)
        out.append(cur)
        tried, spent = tried + found.tried, spent + found.spent
    return out, _Found(cur, tried, spent)


def answers_text() -> str:
    """The committed answers found before (sim/data/answers.toml), as text."""
    import importlib.resources

    return (importlib.resources.files("sim.data") / ANSWERS_FILE).read_text(encoding="utf-8")


def known_answers(setup: Setup, camp: str) -> list[Deviation]:
    """The camp's answers found before (sim/data/answers.toml), each as far as it is a
    deviation at this table: its parameters that are directions here, at a value the
    profile does not already play (over a mixture: that some profile does not play)."""
    import tomllib

    raw = answers_text()
    dims = {d.name: d for d in camp_space(setup, camp)}
    comps = setup.mixture.camps.get(camp, ()) if setup.mixture is not None else ()
    out: list[Deviation] = []
    for entry in tomllib.loads(raw).get("answer", []):
        if entry["camp"] != camp:
            continue
        dev: Deviation = {}
        for name, value in entry["params"].items():
            if name not in dims:
                continue
            base = current_value(setup, dims[name])
            played = [c.params.get(name, base) for c in comps] or [base]
            if not all(_same(value, p) for p in played):
                dev[name] = value
        if dev and dev not in out:
            out.append(dev)
    return out


def _final(candidates: Sequence[tuple[Evaluator, Deviation]], baseline: Evaluator,
           camp: str, games: int) -> tuple[int, int]:
    """The final stage on fresh game indices (FINAL_BASE): every candidate (an evaluator
    and its deviation) against the baseline's games, a third of `games` // 2 each, then the
    best third of them (at least ETA) the whole half. Gives the winner's index and the
    games the candidates played."""
    w = int(Winner[camp.upper()])
    n = max(MIN_STAGE_GAMES, games // 2)
    final, before, spent = list(range(len(candidates))), 0, 0
    for stage_games in ((max(MIN_STAGE_GAMES, n // ETA), n) if len(candidates) > ETA
                        else (n,)):
        base = baseline.winners({}, FINAL_BASE, stage_games) == w
        scores = {i: float((candidates[i][0].winners(candidates[i][1], FINAL_BASE,
                                                      stage_games) == w).sum() - base.sum())
                  for i in final}
        spent += (stage_games - before) * len(final)  # a range's first games are cached
        before = stage_games
        final.sort(key=lambda i: scores[i], reverse=True)
        final = final[: max(ETA, math.ceil(len(final) / ETA))]
    return final[0], spent


def best_response(setup: Setup, camp: str, *, seed: int = 0, games: int = DEFAULT_GAMES,
                  budget: int = DEFAULT_BUDGET, jobs: int = 1,
                  progress: Progress | None = None,
                  evaluator: Evaluator | None = None) -> BestResponse:
    """The best unilateral deviation of `camp` found with `budget` selection games (played
    by the candidates, the baseline not counted), confirmed on `games` fresh paired games.
    The selection's winner, each ascent step's and the answers found before
    (`known_answers`) meet in a final stage (`_final`) when there is more than one."""
    ev = evaluator or Evaluator(setup, seed=seed, jobs=jobs, progress=progress)
    if setup.mixture is not None and len(setup.mixture.camps.get(camp, ())) > 1:
        return _best_response_to_mixture(setup, camp, ev, seed=seed, games=games,
                                         budget=budget)
    pool = single_moves(setup, camp_space(setup, camp))
    if not pool:
        return BestResponse(camp, 0.0, 0.0, 0.0, {}, 0, games=0)
    climb = int(budget * ASCENT_SHARE)
    found = _select(ev, camp, list(pool), budget - climb)
    steps, climbed = ascent(ev, camp, found.deviation, pool, climb)
    tried, spent = found.tried + climbed.tried, found.spent + climbed.spent
    devs: list[Deviation] = [found.deviation]
    devs += [dev for dev in steps if dev not in devs]
    for dev in known_answers(setup, camp):
        if dev not in devs:
            devs.append(dev)
            tried += 1
    best = 0
    if len(devs) > 1:
        best, final_spent = _final([(ev, d) for d in devs], ev, camp, games)
        spent += final_spent
    a = ev.winners({}, CONFIRM_BASE, games)
    b = ev.winners(devs[best], CONFIRM_BASE, games)
    from sim.analysis.compare import paired_compare

    c = paired_compare(a, b)[camp]
    return BestResponse(camp, c["diff"], c["low"], c["high"], dict(devs[best]), tried,
                        share=c["b"], base_share=c["a"], games=games, selection_games=spent)


def overlay_moves(setup: Setup, camp: str) -> list[Deviation]:
    """Moves of one of `camp`'s parameters to one value in every profile of its mixture
    (a value every profile already plays is no move)."""
    assert setup.mixture is not None
    comps = setup.mixture.camps[camp]
    out: list[Deviation] = []
    for d in camp_space(setup, camp):
        base = current_value(setup, d)
        played = [c.params.get(d.name, base) for c in comps]
        out += [{d.name: v} for v in d.values if not all(_same(v, p) for p in played)]
    return out


def known_moves(setup: Setup, camp: str) -> list[Deviation]:
    """Moves over the whole mixture (as `overlay_moves`) to a value some profile of the
    camp's mixture already plays, its profiles of weight 0 included (an earlier PSRO
    round's answers, kept in the file), a search value or not: answers found before, which
    the search replays rather than rediscovers."""
    assert setup.mixture is not None
    comps = setup.mixture.camps[camp]
    out: list[Deviation] = []
    for d in camp_space(setup, camp):
        base = current_value(setup, d)
        played = [c.params.get(d.name, base) for c in comps]
        for v in dict.fromkeys(c.params[d.name] for c in comps if d.name in c.params):
            if not all(_same(v, p) for p in played):
                out.append({d.name: v})
    return out


def known_profiles(setup: Setup, camp: str) -> list[Deviation]:
    """Each profile of the camp's mixture but the heaviest (weight 0 included), as the
    deviation that turns the heaviest profile played alone into it: every parameter either
    sets, at the value the other plays (a parameter it leaves alone keeps the value it has
    without a mixture)."""
    assert setup.mixture is not None
    top = dict(setup.mixture.top(camp))
    plain = replace(setup, mixture=None)
    dims = {d.name: d for d in camp_space(setup, camp)}
    out: list[Deviation] = []
    for comp in setup.mixture.camps[camp]:
        if profile_key(comp.params) == profile_key(top):
            continue
        dev: Deviation = {}
        for name in sorted(set(top) | set(comp.params)):
            if name in comp.params:
                value = comp.params[name]
            elif name in dims:
                value = current_value(plain, dims[name])
            else:  # not a direction of this table (a role not seated): no difference
                continue
            if name not in top or not _same(value, top[name]):
                dev[name] = value
        if dev:
            out.append(dev)
    return out


def _best_response_to_mixture(setup: Setup, camp: str, mixed: Evaluator, *, seed: int,
                              games: int, budget: int) -> BestResponse:
    """A camp's best response when the setup mixes its profiles (sim.play.mixture). Two
    searches, 40% of the budget each:

    - *alone*: from the camp's heaviest profile, played alone against the others' mixture
      (the answer is that profile, with the best deviation found on top);
    - *overlay*: a deviation applied on top of every profile of the camp's mixture, which
      keeps its mixing (what a strong player's change of habit is: a pre-emptive lie told
      whichever way the camp otherwise plays). The search above cannot express it when
      the gain comes from the profiles the heaviest one is not;

    and, with the rest, coordinate ascent from the overlay search's winner (`ascent`).

    The heaviest profile alone, the searches' winners, each ascent step's, and the answers
    known before (each other profile of the camp's mixture played alone, `known_profiles`;
    each value some profile plays moved over the whole mixture, `known_moves`: a strong
    answer a few hundred games of the searches' first stage let go, as happened at 30
    players; and the answers found at other tables and seeds, `known_answers`, over the
    whole mixture) then
    play a final stage on fresh game indices (FINAL_BASE) against the camp's mixing: a
    third of its games each, then the best third of them (at least 3) its whole games.
    Its best is confirmed on the confirming range, so the reported gain carries no
    winner's curse either."""
    from sim.analysis.compare import paired_compare

    assert setup.mixture is not None
    top = dict(setup.mixture.top(camp))
    alone = replace(setup, mixture=setup.mixture.fixed(camp, top))
    # the mixture's evaluator's jobs: `exploitability` passes its evaluator, not its jobs
    ev = Evaluator(alone, seed=seed, jobs=mixed.jobs, progress=mixed.progress)
    climb = int(budget * ASCENT_SHARE)
    half = (budget - climb) // 2
    tried, spent = 0, 0
    candidates: list[tuple[Evaluator, Deviation]] = [(ev, {})]
    over = overlay_moves(setup, camp)
    for here, pool, part in ((ev, single_moves(alone, camp_space(alone, camp)), half),
                             (mixed, over, budget - climb - half)):
        if pool:
            found = _select(here, camp, list(pool), part)
            candidates.append((here, found.deviation))
            tried, spent = tried + found.tried, spent + found.spent
    steps: list[Deviation] = []
    if over:  # coordinate ascent from the overlay search's winner, over the mixture
        steps, climbed = ascent(mixed, camp, candidates[-1][1], over, climb)
        tried, spent = tried + climbed.tried, spent + climbed.spent
    seen = {(here is mixed, profile_key(dev)) for here, dev in candidates}
    for here, known, counted in ((mixed, steps, True), (ev, known_profiles(setup, camp), False),
                                 (mixed, known_moves(setup, camp), False),
                                 (mixed, known_answers(setup, camp), False)):
        for dev in known:
            if (here is mixed, profile_key(dev)) not in seen:
                seen.add((here is mixed, profile_key(dev)))
                candidates.append((here, dev))
                tried += 0 if counted else 1  # the ascent counted what it tried
    best, final_spent = _final(candidates, mixed, camp, games)
    spent += final_spent
    here, dev = candidates[best]
    overlay = here is mixed
    a = mixed.winners({}, CONFIRM_BASE, games)
    b = here.winners(dev, CONFIRM_BASE, games)
    mixed.played += ev.played
    c = paired_compare(a, b)[camp]
    return BestResponse(camp, c["diff"], c["low"], c["high"], dict(dev), tried,
                        share=c["b"], base_share=c["a"], games=games, selection_games=spent,
                        profile={} if overlay else {**top, **dev}, overlay=overlay)


def seated_camps(setup: Setup, camps: Iterable[str] = CAMPS) -> list[str]:
    """The camps (of `camps`) that have a seat and something to deviate in at this table."""
    return [c for c in camps if camp_space(setup, c)]


def planned_games(setup: Setup, camps: Sequence[str], games: int, budget: int) -> int:
    """About how many games `exploitability` plays (for a progress bar's total)."""
    k = len(seated_camps(setup, camps))
    return k * (budget + games) + games + k * budget // 10


def exploitability(setup: Setup, *, camps: Sequence[str] = CAMPS, seed: int = 0,
                   games: int = DEFAULT_GAMES, budget: int = DEFAULT_BUDGET, jobs: int = 1,
                   progress: Progress | None = None,
                   evaluator: Evaluator | None = None) -> dict[str, BestResponse]:
    """Each seated camp's best response to the setup's profile. The camps share the
    baseline's games (the same seed and game ranges), so the baseline plays once."""
    ev = evaluator or Evaluator(setup, seed=seed, jobs=jobs, progress=progress)
    return {c: best_response(setup, c, seed=seed, games=games, budget=budget, evaluator=ev)
            for c in seated_camps(setup, camps)}


@dataclass
class Equilibrium:
    """The outcome of iterated best response."""

    status: str  # "converged", "cycle" or "rounds" (not settled in the rounds allowed)
    profile: Deviation  # the profile chosen (on top of the setup's own parameters)
    round: int  # the round (1-based) whose profile was chosen
    rounds: list[dict[str, Any]] = field(default_factory=list)
    cycle: list[int] = field(default_factory=list)  # rounds of the cycle, when one was found
    played: int = 0

    def max_gain(self) -> float:
        return float(self.rounds[self.round - 1]["max_gain"])

    def as_dict(self) -> dict[str, Any]:
        return {"status": self.status, "profile": dict(self.profile), "round": self.round,
                "max_gain": self.max_gain(), "cycle": list(self.cycle),
                "rounds": self.rounds, "played": self.played}


def equilibrate(setup: Setup, *, camps: Sequence[str] = CAMPS, tolerance: float = 0.01,
                rounds: int = 5, seed: int = 0, games: int = DEFAULT_GAMES,
                budget: int = DEFAULT_BUDGET, jobs: int = 1, progress: Progress | None = None,
                log: Callable[[str], None] | None = None,
                respond: Callable[..., dict[str, BestResponse]] | None = None
                ) -> Equilibrium:
    """Iterated best response (simultaneous: every camp answers the same profile, so a
    round's largest gain is that profile's exploitability). Round r plays on seed
    `seed + r - 1`. A camp's deviation is adopted when its confirmed gain exceeds the
    tolerance or its interval's lower end is above 0. Stops when no camp gains more than the
    tolerance ("converged"), when a profile comes back ("cycle"), or after `rounds`
    ("rounds"); then the profile of the round with the smallest largest gain is chosen
    (the last one, when converged)."""
    respond = respond or exploitability
    dims = {d.name: d for c in CAMPS for d in camp_space(setup, c)}

    def normal(dev: Deviation) -> Deviation:
        """The profile without moves back to the setup's own values (so a return to a
        profile is seen as one)."""
        return {k: v for k, v in dev.items()
                if k not in dims or not _same(v, current_value(setup, dims[k]))}

    profile: Deviation = {}
    seen = {profile_key(profile): 1}
    history: list[dict[str, Any]] = []
    status, cycle, played = "rounds", [], 0
    for r in range(1, rounds + 1):
        cur = replace(setup, agents=setup.agents.with_params(profile)) if profile else setup
        ev = Evaluator(cur, seed=seed + r - 1, jobs=jobs, progress=progress)
        brs = respond(cur, camps=camps, seed=seed + r - 1, games=games, budget=budget,
                      jobs=jobs, evaluator=ev)
        played += ev.played
        worst = max((br.gain for br in brs.values()), default=0.0)
        adopted = [c for c, br in brs.items() if br.low > 0 or br.gain > tolerance]
        history.append({"round": r, "seed": seed + r - 1, "profile": dict(profile),
                        "gains": {c: br.as_dict() for c, br in brs.items()},
                        "max_gain": worst, "adopted": adopted})
        if log:
            log(f"round {r}: largest gain {worst:+.2%}; " + ", ".join(
                f"{c} {br.gain:+.2%} [{br.low:+.2%}, {br.high:+.2%}]"
                for c, br in brs.items()) + (f"; adopted: {', '.join(adopted)}"
                                             if adopted else ""))
        if worst <= tolerance:
            status = "converged"
            break
        new = dict(profile)
        for c in adopted:
            new.update(brs[c].deviation)
        new = normal(new)
        key = profile_key(new)
        if key in seen:
            status = "cycle"
            cycle = list(range(seen[key], r + 1))
            break
        seen[key] = r + 1
        profile = new
    if status == "converged":
        pick = len(history)
    else:
        pick = min(range(len(history)), key=lambda i: history[i]["max_gain"]) + 1
    return Equilibrium(status, dict(history[pick - 1]["profile"]), pick, history, cycle,
                       played)
