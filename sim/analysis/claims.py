"""How often each camp claims a hero role, and the trust Town should give such a claim under
the profile being played (issue 23, point 2; README "How Town weighs a claim").

A claim is evidence in the Bayesian sense: what it tells Town about its author is the ratio
of how often an enemy of Town (a clan member or the maniac) makes it to how often a Town
player does, in the same situation. Town's parameters `town.rope_trust` (a hero claim made
under the rope, P5.6) and `town.hero_claim` (one made off the rope) are the log of the
inverse of that ratio: the log-odds a claim moves its author toward Town.

Measured over played games (the final public record and the true seats, both known to the
analyst, never to an agent):

- under the rope: the opportunities are the (player, day) pairs in which the player led the
  day's vote with at least two votes at some moment (R5.2: the first to reach the count
  leads on a tie), the claims those in which his first hero claim of the game came under
  the rope (`agents.town.claim_context`, the very test Town applies);
- off the rope: the opportunities are the days each player began alive, the claims his first
  hero claim made off the rope.

Counts carry a half of a claim and of a non-claim on each side (Jeffreys' prior), so a kind
of claim no camp makes gives a finite ratio. The interval of each log ratio is the delta
method's (a sum of the two binomial log variances).

The profile's own trust changes little of these rates (who lies under the rope, and when, is
the clans' and maniac's parameters; who comes under the rope is the votes'), so one
measurement, written into the profile with `--out`, settles them; `mafia-sim claims` run on
that profile says how far they moved.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from agents.common import HERO_CLAIMS, leader_of
from agents.town import claim_context
from sim.game.roles import Camp
from sim.game.talk import CLAIM
from sim.play.mixture import Drivers
from sim.play.setup import Setup
from sim.play.streams import game_streams

#: the two situations a claim is weighed in, and Town's parameter for each
CONTEXTS: Final = (("rope", "town.rope_trust"), ("off_rope", "town.hero_claim"))
#: counts per game batch: [context][town, enemy][opportunities, claims]
SHAPE: Final = (len(CONTEXTS), 2, 2)
ROPE, OFF = 0, 1
TOWN, ENEMY = 0, 1


def count_batch(setup: Setup, seed: int, start: int, stop: int) -> np.ndarray:
    """The claim counts of games start..stop-1 of the run with `seed` (the same games as
    `mafia-sim run --seed`)."""
    drivers = Drivers(setup)
    out = np.zeros(SHAPE, np.int64)
    for i in range(start, stop):
        game = drivers.for_game(seed, i).play(game_streams(seed, i, setup.comp.n))
        add_game(out, game.public, [int(c) for c in game.st.camp])
    return out


def add_game(out: np.ndarray, pub: Any, camp: list[int]) -> None:
    """Add one finished game's opportunities and claims to `out` (see the module)."""
    first_death = [-1] * pub.n
    for d in pub.deaths:
        if first_death[d.seat] < 0:
            first_death[d.seat] = d.turn
    side = [TOWN if c == Camp.TOWN else ENEMY for c in camp]
    turns = pub.turn + 1
    by_day: dict[int, list[tuple[int, int]]] = {}
    for t, voter, target in pub.votes:
        by_day.setdefault(t, []).append((voter, target))
    for t in range(turns):
        for s in range(pub.n):
            if first_death[s] < 0 or first_death[s] >= t:
                out[OFF, side[s], 0] += 1
        roped: set[int] = set()
        day = by_day.get(t, [])
        for k in range(2, len(day) + 1):
            who, count = leader_of(day[:k])
            if count >= 2:
                roped.add(who)
        for s in roped:
            out[ROPE, side[s], 0] += 1
    claimed: set[int] = set()
    for index, stmt in enumerate(pub.statements):
        if stmt.kind is not CLAIM or stmt.speaker in claimed:
            continue
        claimed.add(stmt.speaker)  # Town weighs a player's first claim (PublicDigest)
        if stmt.value not in HERO_CLAIMS:
            continue
        context = ROPE if claim_context(pub, index) else OFF
        out[context, side[stmt.speaker], 1] += 1


@dataclass(frozen=True)
class ClaimRates:
    """What `measure` found: counts, rates and Town's trust for each context."""

    games: int
    counts: np.ndarray  # SHAPE

    def rate(self, context: int, side: int) -> float:
        opp, claims = self.counts[context, side]
        return float((claims + 0.5) / (opp + 1.0))

    def trust(self, context: int) -> tuple[float, float, float]:
        """The log-odds a claim in `context` moves its author toward Town, with a 95%
        interval: log(P(claim | Town) / P(claim | enemy))."""
        parts = []
        for side in (TOWN, ENEMY):
            opp, claims = (float(x) for x in self.counts[context, side])
            c, m = claims + 0.5, opp - claims + 0.5
            parts.append((math.log(c / (c + m)), 1.0 / c - 1.0 / (c + m)))
        est = parts[TOWN][0] - parts[ENEMY][0]
        half = 1.96 * math.sqrt(parts[TOWN][1] + parts[ENEMY][1])
        return est, est - half, est + half

    def params(self) -> dict[str, float]:
        """Town's trust parameters, rounded to what the measurement resolves."""
        return {name: round(self.trust(k)[0], 2) for k, (_, name) in enumerate(CONTEXTS)}

    def as_dict(self) -> dict[str, Any]:
        rows = {}
        for k, (context, name) in enumerate(CONTEXTS):
            est, lo, hi = self.trust(k)
            rows[context] = {
                "parameter": name,
                "town_opportunities": int(self.counts[k, TOWN, 0]),
                "town_claims": int(self.counts[k, TOWN, 1]),
                "enemy_opportunities": int(self.counts[k, ENEMY, 0]),
                "enemy_claims": int(self.counts[k, ENEMY, 1]),
                "town_rate": self.rate(k, TOWN), "enemy_rate": self.rate(k, ENEMY),
                "trust": est, "trust_low": lo, "trust_high": hi,
            }
        return {"games": self.games, "contexts": rows}


def measure(setup: Setup, *, games: int, seed: int = 0, jobs: int = 1,
            batch: int = 200) -> ClaimRates:
    """Play `games` games of `setup` (the run's games for `seed`) and count the claims."""
    import joblib

    bounds = [(a, min(games, a + batch)) for a in range(0, games, batch)]
    if jobs == 1:
        parts = [count_batch(setup, seed, a, b) for a, b in bounds]
    else:
        parts = joblib.Parallel(n_jobs=jobs)(
            joblib.delayed(count_batch)(setup, seed, a, b) for a, b in bounds)
    total = np.zeros(SHAPE, np.int64)
    for p in parts:
        total += p
    return ClaimRates(games, total)
