"""The random streams of one game: common random numbers that survive a deviation.

Game `i` of a run with seed `S` draws from separate PCG64 generators, one a purpose:

- stream 0, the host's chance: attrition (D16.1), the vote order, p_no_vote, the host's vote
  rejections (D5.2) and the duel's coin (D17.2) (the driver's and the engine's, Game.rng);
- stream 1, the deal (the seat permutation of the roles);
- stream 2, the information model's daily reads (sim.info);
- stream 3 + s, the agent in seat `s` of the dealt table (all its `statements`, `vote`,
  `clan_order` and `night` calls).

Stream k is seeded, as `PCG64(seed_sequence)` seeds itself, with 4 words of the game's
`SeedSequence(S, spawn_key=(i,))`: words 4k..4k+3 of its `generate_state(..., uint64)`.
(One SeedSequence a game instead of one a stream, as `SeedSequence(S, spawn_key=(i, k))`
would be: a SeedSequence costs about as much as 8 of these generators, and a 25-player game
makes 28 of them, which cost 10% of the run's time the other way.)

The host and the reads draw the same shape every day whoever is alive (a permutation of all
seats, one number per seat, one n x n matrix of reads), so when one seat's agent plays
differently in a paired comparison, the deal, the reads, the vote order and every other
seat's draws stay the same until the deviation changes what the others see. Generators are
made on first use. Nothing here depends on batching, jobs or backend: game `i` always gets
the same streams.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.random import PCG64, Generator, SeedSequence
from numpy.random.bit_generator import ISeedSequence

#: stream numbers; seat s is stream SEAT0 + s
HOST, DEAL, READS, SEAT0 = 0, 1, 2, 3


class _Words(ISeedSequence):
    """Four seed words handed to PCG64 as if by a SeedSequence."""

    __slots__ = ("words",)

    def __init__(self, words: np.ndarray) -> None:
        self.words = words

    def generate_state(self, n_words: int, dtype: Any = np.uint32) -> Any:
        assert n_words == 4 and dtype is np.uint64  # what PCG64 asks for
        return self.words


class GameStreams:
    """The generators of game `game` of a run with `seed` (see the module docstring)."""

    __slots__ = ("seed", "game", "host", "_words", "_deal", "_reads", "_seats")

    def __init__(self, seed: int, game: int, n: int = 29) -> None:
        self.seed = seed
        self.game = game
        self._words = self._state(SEAT0 + n)
        #: the host's chance (shared by the driver and the engine, Game.rng)
        self.host = self._make(HOST)
        self._deal: Generator | None = None
        self._reads: Generator | None = None
        self._seats: list[Generator | None] = [None] * n

    def _state(self, streams: int) -> np.ndarray:
        # word j of generate_state does not depend on how many words are asked for
        return SeedSequence(self.seed, spawn_key=(self.game,)).generate_state(
            4 * streams, np.uint64)

    def _make(self, k: int) -> Generator:
        if 4 * k + 4 > len(self._words):
            self._words = self._state(k + 1)
        seeds: Any = _Words(self._words[4 * k:4 * k + 4])  # PCG64 takes any ISeedSequence
        return Generator(PCG64(seeds))

    @property
    def deal(self) -> Generator:
        if self._deal is None:
            self._deal = self._make(DEAL)
        return self._deal

    @property
    def reads(self) -> Generator:
        if self._reads is None:
            self._reads = self._make(READS)
        return self._reads

    def seat(self, s: int) -> Generator:
        """The generator of the agent in seat `s`."""
        try:
            g = self._seats[s]
        except IndexError:
            self._seats += [None] * (s + 1 - len(self._seats))
            g = None
        if g is None:
            g = self._seats[s] = self._make(SEAT0 + s)
        return g

    @classmethod
    def from_rng(cls, rng: Generator) -> GameStreams:
        """Streams seeded from one generator (for a single game played by hand or in a
        test: `Driver.play(default_rng(7))` is reproducible, but is not game 7 of a run)."""
        return cls(int(rng.integers(2**63)), 0)

    def __repr__(self) -> str:
        return f"GameStreams(seed={self.seed}, game={self.game})"


def game_streams(seed: int, game: int, n: int = 29) -> GameStreams:
    """The streams of game `game` of a run with `seed`, for a table of about `n` players
    (only a hint of how many seed words to make at once): the one entry point for runs,
    replays, paired comparisons, sweeps, odds and benchmarks."""
    return GameStreams(seed, game, n)


def as_streams(rng: GameStreams | Generator) -> GameStreams:
    return rng if isinstance(rng, GameStreams) else GameStreams.from_rng(rng)
