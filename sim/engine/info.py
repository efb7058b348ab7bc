"""The information model: how well players read the table (the "skill" of a table).

Each day (turn >= 1) every player receives a noisy read of every player: for observer i and
player j, x = mu_i * y_ij + e with e ~ N(0, 1), where y_ij = 1 if j has the property i is
looking for, else 0. What is added to the player's reads is the log-likelihood ratio of that
read, mu_i * x - mu_i**2 / 2, so `view.reads[j]` is the exact evidence (in log-odds) that j
has the property, given all reads so far. mu is a signal-to-noise figure: 0 means reads carry
no information, 1 is a fair player, 2 a sharp one. It is >= 0: a reader with -mu would
read exactly as well as one with mu, since the log-likelihood ratio knows the sign.

- Town players look for the enemies of Town: clan members and the maniac (`town_skill`).
- Clan members look for the dangerous: the heroes and the necromancer (`mafia_skill`).
- The maniac looks for the same (`maniac_skill`).

The draws come from the game's own reads stream (sim.play.streams), one
n x n matrix a day for the whole table, dead or alive, so the reads of a day are the same in
both arms of a paired comparison whatever the players did before.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, Final

import numpy as np
from numpy.random import Generator

from sim.engine.state import GameState
from sim.game.params import Param
from sim.game.roles import CLAN_ROLES, Camp, Role

DANGEROUS: Final = frozenset({Role.COMMISSAR, Role.SERGEANT, Role.NINJA, Role.DOCTOR,
                              Role.NECROMANCER})


class InfoModel:
    """Daily noisy reads for every player, written into each view's `reads`."""

    #: The table's skill (signal-to-noise figures, >= 0: a negative one would read exactly
    #: as well as its opposite, since the log-likelihood ratio knows the sign).
    PARAMS: ClassVar[dict[str, Param]] = {
        "town_skill": Param(0.15, 0.0, 5.0, "how well Town players read who is an enemy"),
        "mafia_skill": Param(0.6, 0.0, 5.0, "how well clan members read who is a hero"),
        "maniac_skill": Param(0.6, 0.0, 5.0, "how well the maniac reads who is a hero"),
    }

    def __init__(self, st: GameState, params: Mapping[str, object] | None = None,
                 used: bool = True, undealt: InfoModel | None = None,
                 order: np.ndarray | None = None):
        """The model of `st`'s table. With `undealt` (the model of the same composition
        before the deal) and the deal's `order` (dealt seat i holds undealt seat order[i],
        sim.play.driver.Driver.play), its figures are that model's, permuted: the per-table
        set-up is worked out once per driver, not once per game."""
        n = st.n
        self.reads = np.zeros((n, n))
        self._noise = np.empty((n, n))  # each day's draws, in place (no array a day)
        self.mu: np.ndarray  # each observer's skill, as a column
        self.mean: np.ndarray  # the mean of a day's log-likelihood ratios
        self.active: bool  # whether anyone reads: no draws nobody reads
        if undealt is not None and order is not None:
            self.mu = undealt.mu[order]
            self.mean = undealt.mean[np.ix_(order, order)]
            self.active = undealt.active
            return
        given = params or {}
        p = {k: float(given.get(k, prm.default)) for k, prm in self.PARAMS.items()}  # type: ignore[arg-type]
        mu = np.zeros(n)
        truth = np.zeros((n, n))
        evil = np.array([r in CLAN_ROLES or r is Role.MANIAC for r in st.role], dtype=float)
        danger = np.array([r in DANGEROUS for r in st.role], dtype=float)
        for i in range(n):
            camp = st.camp[i]
            if camp is Camp.TOWN:
                mu[i], truth[i] = p["town_skill"], evil
            elif camp is Camp.MANIAC:
                mu[i], truth[i] = p["maniac_skill"], danger
            else:
                mu[i], truth[i] = p["mafia_skill"], danger
        np.fill_diagonal(truth, 0.0)
        self.mu = mu[:, None]
        # the mean of the daily log-likelihood ratio: mu * (mu * y) - mu**2 / 2
        self.mean = self.mu * (self.mu * truth) - self.mu**2 / 2
        self.active = used and bool(np.any(mu != 0.0))

    def day(self, rng: Generator) -> None:
        """Add one day's reads (called by the driver at the start of each day, with the
        game's reads stream)."""
        if self.active:
            noise = self._noise
            rng.standard_normal(out=noise)  # the same draws as standard_normal((n, n))
            noise *= self.mu
            noise += self.mean
            self.reads += noise
