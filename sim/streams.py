"""The random streams of one game: common random numbers that survive a deviation.

Game `i` of a run with seed `S` draws from separate generators, each
`numpy.random.default_rng(SeedSequence(S, spawn_key=key))`:

- seat `s`'s agent (every `statements`, `vote`, `clan_order`, `night` call of the player in
  seat `s` of the dealt table): key `(i, 1 + s)`;
- the deal (the seat permutation of the roles): key `(i, 0, 0)`;
- the host's chance: key `(i, 0, 1)`: attrition (D16.1), the vote order, p_no_vote, the
  host's vote rejections (D5.2) and the duel's coin (D17.2);
- the information model's daily reads (sim.info): key `(i, 0, 2)`.

The host and the reads draw the same shape every day whoever is alive (a permutation of all
seats, one number per seat, one n x n matrix of reads), so when one seat's agent plays
differently in a paired comparison, the deal, the reads, the vote order and every other
seat's draws stay the same until the deviation changes what the others see. Seat streams
are made on first use, so a seat that never draws costs nothing. Nothing here depends on
batching, jobs or backend: game `i` always gets the same streams.
"""

from __future__ import annotations

import numpy as np
from numpy.random import Generator, SeedSequence

#: the spawn_key tail of each host stream, under (game, 0, ...)
DEAL, HOST, READS = 0, 1, 2


class GameStreams:
    """The generators of game `game` of a run with `seed` (see the module docstring)."""

    __slots__ = ("seed", "game", "host", "_deal", "_reads", "_seats")

    def __init__(self, seed: int, game: int) -> None:
        self.seed = seed
        self.game = game
        #: the host's chance (shared by the driver and the engine, Game.rng)
        self.host = self._make((0, HOST))
        self._deal: Generator | None = None
        self._reads: Generator | None = None
        self._seats: dict[int, Generator] = {}

    def _make(self, key: tuple[int, ...]) -> Generator:
        return np.random.default_rng(SeedSequence(self.seed, spawn_key=(self.game, *key)))

    @property
    def deal(self) -> Generator:
        if self._deal is None:
            self._deal = self._make((0, DEAL))
        return self._deal

    @property
    def reads(self) -> Generator:
        if self._reads is None:
            self._reads = self._make((0, READS))
        return self._reads

    def seat(self, s: int) -> Generator:
        """The generator of the agent in seat `s`."""
        g = self._seats.get(s)
        if g is None:
            g = self._seats[s] = self._make((1 + s,))
        return g

    @classmethod
    def from_rng(cls, rng: Generator) -> GameStreams:
        """Streams seeded from one generator (for a single game played by hand or in a
        test: `Driver.play(default_rng(7))` is reproducible, but is not game 7 of a run)."""
        return cls(int(rng.integers(2**63)), 0)

    def __repr__(self) -> str:
        return f"GameStreams(seed={self.seed}, game={self.game})"


def game_streams(seed: int, game: int) -> GameStreams:
    """The streams of game `game` of a run with `seed`: the one entry point for runs,
    replays, paired comparisons, sweeps, odds and benchmarks."""
    return GameStreams(seed, game)


def as_streams(rng: GameStreams | Generator) -> GameStreams:
    return rng if isinstance(rng, GameStreams) else GameStreams.from_rng(rng)
