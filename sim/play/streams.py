"""The random streams of one game: common random numbers that survive a deviation.

Game `i` of a run with seed `S` draws from separate PCG64 generators, one a purpose:

- stream 0, the host's chance: attrition (D16.1), the vote order, p_no_vote, the host's vote
  rejections (D5.2) and the duel's coin (D17.2) (the driver's and the engine's, Game.rng);
- stream 1, the deal (the seat permutation of the roles);
- stream 2, the information model's daily reads (sim.engine.info);
- stream 3 + s, the agent in seat `s` of the dealt table (all its `statements`, `vote`,
  `clan_order` and `night` calls).

Stream k is seeded, as `PCG64(seed_sequence)` seeds itself, with 4 words of the game's
`SeedSequence(S, spawn_key=(i,))`: words 4k..4k+3 of its `generate_state(..., uint64)`.
(One SeedSequence a game instead of one a stream, as `SeedSequence(S, spawn_key=(i, k))`
would be: a SeedSequence costs about as much as 8 of these generators, and a 25-player game
makes 28 of them, which cost 10% of the run's time the other way.) The words are worked out
here, by numpy's algorithm (`seed_words`): numpy's `generate_state` steps through its words
in Python, 4% of a compiled game; tests/test_streams.py checks them against numpy's.

The host and the reads draw the same shape every day whoever is alive (a permutation of all
seats, one number per seat, one n x n matrix of reads), so when one seat's agent plays
differently in a paired comparison, the deal, the reads, the vote order and every other
seat's draws stay the same until the deviation changes what the others see. Generators are
made on first use. Nothing here depends on batching, jobs or backend: game `i` always gets
the same streams.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
from mypy_extensions import i64
from numpy.random import PCG64, Generator
from numpy.random.bit_generator import ISeedSequence

#: stream numbers; seat s is stream SEAT0 + s
HOST, DEAL, READS, SEAT0 = 0, 1, 2, 3

# numpy's SeedSequence (numpy/random/bit_generator.pyx): a pool of four 32-bit words mixed
# from the entropy, then hashed out into as many words as asked
_MASK32: Final = 0xFFFFFFFF
_POOL: Final = 4
_INIT_A: Final = 0x43B0D7E5
_MULT_A: Final = 0x931E8875
_INIT_B: Final = 0x8B51F9DD
_MULT_B: Final = 0x58F38DED
_MIX_L: Final = 0xCA01F9DD
_MIX_R: Final = 0x4973F715


def _words32(x: int) -> list[int]:
    """A non-negative integer as 32-bit words, lowest first (0 is one word)."""
    if x < 0:
        raise ValueError(f"a seed must be a non-negative integer, not {x}")
    out = [x & _MASK32]
    x >>= 32
    while x:
        out.append(x & _MASK32)
        x >>= 32
    return out


def _mul32(a: i64, b: i64) -> i64:
    """a * b mod 2**32, for 32-bit a and b, in two halves: no product reaches 2**63, so
    compiled this is machine arithmetic on 64-bit words (`i64`; pure Python, a plain int)."""
    return (a * (b & 0xFFFF) + (((a * (b >> 16)) & 0xFFFF) << 16)) & _MASK32


def _hashmix(value: i64, h: i64) -> tuple[i64, i64]:
    """numpy's hashmix: the hashed value and the next hash constant."""
    value ^= h
    h = _mul32(h, _MULT_A)
    value = _mul32(value, h)
    return value ^ (value >> 16), h


def _mix(x: i64, y: i64) -> i64:
    r = (_mul32(_MIX_L, x) - _mul32(_MIX_R, y)) & _MASK32
    return r ^ (r >> 16)


def _pool(seed: int, game: int) -> list[i64]:
    """The entropy pool of `SeedSequence(seed, spawn_key=(game,))`: the seed's words, padded
    with zeros to the pool's size (as numpy does when there is a spawn key), then the key's."""
    run = _words32(seed)
    entropy = run + [0] * (_POOL - len(run)) + _words32(game)
    pool: list[i64] = [0] * _POOL
    h: i64 = _INIT_A
    for i in range(_POOL):
        pool[i], h = _hashmix(entropy[i], h)
    for src in range(_POOL):  # every word into every other
        for dst in range(_POOL):
            if src != dst:
                v, h = _hashmix(pool[src], h)
                pool[dst] = _mix(pool[dst], v)
    for src in range(_POOL, len(entropy)):  # the entropy beyond the pool's size
        for dst in range(_POOL):
            v, h = _hashmix(entropy[src], h)
            pool[dst] = _mix(pool[dst], v)
    return pool


#: generate_state's hash constants, INIT_B * MULT_B**i mod 2**32, and the pool word each
#: state word starts from (i mod 4), as far as asked so far
_TABLES: Final[list[tuple[np.ndarray, np.ndarray]]] = []


def _tables(m: int) -> tuple[np.ndarray, np.ndarray]:
    """For m state words: the first m + 1 hash constants, and each word's pool word."""
    if not _TABLES or len(_TABLES[0][0]) <= m:
        h: i64 = _INIT_B
        hs: list[i64] = []
        for _ in range(max(m + 1, 256)):
            hs.append(h)
            h = _mul32(h, _MULT_B)
        _TABLES[:] = [(np.array(hs, dtype=np.uint32), np.arange(len(hs)) % _POOL)]
    consts, cycle = _TABLES[0]
    return consts[:m + 1], cycle[:m]


def seed_words(seed: int, game: int, n_words: int) -> np.ndarray:
    """`SeedSequence(seed, spawn_key=(game,)).generate_state(n_words, np.uint64)`, the same
    words: word i of the 32-bit state is pool[i % 4] hashed with the i-th and next hash
    constants, and each 64-bit word two 32-bit ones, low first."""
    m = 2 * n_words
    hc, cycle = _tables(m)
    state = np.array(_pool(seed, game), dtype=np.uint32)[cycle]
    state ^= hc[:m]
    state *= hc[1:]  # uint32 arithmetic wraps, as numpy's C does
    state ^= state >> 16
    return state.astype("<u4").view("<u8").astype(np.uint64)


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
        return seed_words(self.seed, self.game, 4 * streams)

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
