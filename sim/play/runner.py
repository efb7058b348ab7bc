"""The Monte Carlo runner: many games in parallel with joblib, reproducible from one seed.

Game i of a run with seed S plays with `sim.play.streams.game_streams(S, i)`: one generator for
the host's chance, one for the deal, one for the reads and one per seat, all seeded from
`SeedSequence(S, spawn_key=(i,))`, whatever the batching, the number of jobs or the backend,
so a run's results are identical on 1 job, 2 jobs or a Dask cluster, any game can be
replayed, and two runs with the same seed are paired game by game (common random numbers).
Workers play batches of games and send back compact integer arrays, never Python objects
per game; without `--out` the parent only adds up counts, so memory stays bounded.
"""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np

from sim.game.errors import InputError, MafiaSimError
from sim.game.roles import Camp, Cause, Reason, Winner
from sim.play.mixture import Drivers
from sim.play.setup import Setup
from sim.play.stats import half_width, share_interval
from sim.play.streams import game_streams

N_CAUSES: Final = len(Cause)
N_CAMPS: Final = len(Camp)
WINNERS: Final = [w.key for w in Winner]
#: columns of the per-game integer array a worker returns
COLS: Final = ["game", "winner", "reason", "turns", "skipped",
               *[f"deaths_{c.key}" for c in Cause], *[f"survivors_{c.key}" for c in Camp]]


class GameFailed(MafiaSimError):
    pass


def play_batch(setup: Setup, seed: int, start: int, stop: int) -> np.ndarray:
    """Play games start..stop-1; one int32 row per game in the layout of COLS."""
    drivers = Drivers(setup)  # one driver, or one per profile pick of a mixture
    out = np.zeros((stop - start, len(COLS)), dtype=np.int32)
    for k, i in enumerate(range(start, stop)):
        driver = drivers.for_game(seed, i)
        before = driver.skipped
        try:
            game = driver.play(game_streams(seed, i, setup.comp.n))
        except Exception as e:
            raise GameFailed(
                f"game {i} of the run with seed {seed} failed: {type(e).__name__}: {e} "
                f"(replay it with: mafia-sim replay --seed {seed} --game {i} ...)"
            ) from None
        st = game.st
        oc = st.outcome
        assert oc is not None
        row = out[k]
        row[0], row[1], row[2], row[3] = i, oc.winner, oc.reason, oc.turn + 1
        row[4] = driver.skipped - before
        for s in range(st.n):
            c = st.cause[s]
            if c is not None:
                row[5 + c] += 1
            else:
                row[5 + N_CAUSES + st.camp[s]] += 1
    return out


@dataclass
class Tally:
    """Running totals of a run (what the summary needs, nothing per game)."""

    games: int = 0
    winners: np.ndarray = field(default_factory=lambda: np.zeros(len(Winner), np.int64))
    reasons: np.ndarray = field(default_factory=lambda: np.zeros(len(Reason), np.int64))
    turns_sum: int = 0
    turns_hist: np.ndarray = field(default_factory=lambda: np.zeros(128, np.int64))
    deaths: np.ndarray = field(default_factory=lambda: np.zeros(N_CAUSES, np.int64))
    skipped: int = 0
    #: wins by winner and by how the game ended
    joint: np.ndarray = field(
        default_factory=lambda: np.zeros((len(Winner), len(Reason)), np.int64))

    def add(self, rows: np.ndarray) -> None:
        self.games += len(rows)
        np.add.at(self.joint, (rows[:, 1], rows[:, 2]), 1)
        self.winners += np.bincount(rows[:, 1], minlength=len(Winner))[: len(Winner)]
        self.reasons += np.bincount(rows[:, 2], minlength=len(Reason))[: len(Reason)]
        self.turns_sum += int(rows[:, 3].sum())
        self.turns_hist += np.bincount(np.minimum(rows[:, 3], 127), minlength=128)
        self.deaths += rows[:, 5:5 + N_CAUSES].sum(axis=0)
        self.skipped += int(rows[:, 4].sum())

    def max_half_width(self) -> float:
        return max(half_width(int(w), self.games) for w in self.winners)


def batch_size_for(players: int, todo: int, n_jobs: int) -> int:
    """Games per batch: about half a second of play (a game costs about 0.06 ms per player),
    so the first results arrive within a second and an interrupted run loses at most one
    batch per worker; never more than an even share of what is left."""
    return max(1, min(8000 // max(1, players), -(-todo // n_jobs)))


@dataclass
class RunResult:
    setup: Setup
    seed: int
    tally: Tally
    seconds: float
    run_id: str
    interrupted: bool = False
    rows: np.ndarray | None = None

    def summary(self) -> dict[str, Any]:
        t = self.tally
        n = t.games
        camps = {}
        for w in Winner:
            wins = int(t.winners[w])
            lo, hi = share_interval(wins, n)
            camps[w.key] = {"wins": wins, "share": wins / n if n else 0.0, "low": lo, "high": hi}
        duels = int(sum(t.reasons[r] for r in Reason if r.is_duel))
        median = int(np.searchsorted(np.cumsum(t.turns_hist), (n + 1) / 2)) if n else 0
        return {
            "games": n,
            "seed": self.seed,
            "run_id": self.run_id,
            "camps": camps,
            "reasons": {r.key: int(t.reasons[r]) for r in Reason},
            "wins_by_reason": {w.key: {r.key: int(t.joint[w, r]) for r in Reason
                                       if t.joint[w, r]} for w in Winner},
            "duel_share": duels / n if n else 0.0,
            "turns": {"mean": t.turns_sum / n if n else 0.0, "median": median},
            "deaths_per_game": {c.key: float(t.deaths[c]) / n if n else 0.0 for c in Cause},
            "illegal_skipped": t.skipped,
            "seconds": self.seconds,
            "games_per_second": n / self.seconds if self.seconds > 0 else 0.0,
            "interrupted": self.interrupted,
            "setup": self.setup.describe(),
        }

    def frame(self) -> Any:
        """Every game as a row (pandas DataFrame); needs keep_rows."""
        import pandas as pd

        if self.rows is None:
            raise InputError("this run kept no per-game rows")
        df = pd.DataFrame(self.rows, columns=COLS)
        df.insert(0, "run_id", self.run_id)
        df.insert(2, "seed", self.seed)
        df["winner"] = pd.Categorical.from_codes(
            df["winner"].to_numpy(), categories=pd.Index([w.key for w in Winner]))
        df["reason"] = pd.Categorical.from_codes(
            df["reason"].to_numpy(), categories=pd.Index([r.key for r in Reason]))
        return df


def _batches(start: int, stop: int, size: int) -> Iterator[tuple[int, int]]:
    for a in range(start, stop, size):
        yield a, min(stop, a + size)


# Generator functions, not generator expressions: compiled, mypyc would make an expression a
# list, playing every batch before the first result is counted (and Ctrl-C would lose them).
def _play_batches(setup: Setup, seed: int,
                  batches: Iterator[tuple[int, int]]) -> Iterator[np.ndarray]:
    for a, b in batches:
        yield play_batch(setup, seed, a, b)


def _tasks(setup: Setup, seed: int, batches: Iterator[tuple[int, int]]) -> Iterator[Any]:
    import joblib

    for a, b in batches:
        yield joblib.delayed(play_batch)(setup, seed, a, b)


@contextlib.contextmanager
def _backend(backend: str, scheduler: str | None) -> Iterator[None]:
    import joblib

    if backend == "dask":
        try:
            from dask.distributed import Client
        except ImportError:
            raise InputError("the dask backend needs: pip install 'mafia-sim[dask]'") from None
        if not scheduler:
            raise InputError("--backend dask needs --scheduler ADDRESS (tcp://host:8786)")
        try:
            client = Client(scheduler, timeout=10)
        except OSError as e:
            raise InputError(f"cannot reach the Dask scheduler {scheduler}: {e}") from None
        try:
            with joblib.parallel_config(backend="dask"):
                yield
        finally:
            client.close()
    elif backend in ("loky", "threading", "multiprocessing"):
        with joblib.parallel_config(backend=backend):
            yield
    else:
        raise InputError(f"unknown backend {backend!r} (loky, threading, multiprocessing, dask)")


def run(
    setup: Setup,
    *,
    games: int | None = None,
    precision: float | None = None,
    max_games: int = 10_000_000,
    seed: int = 0,
    jobs: int = 1,
    backend: str = "loky",
    scheduler: str | None = None,
    batch_size: int | None = None,
    keep_rows: bool = False,
    progress: bool = False,
    start: int = 0,
) -> RunResult:
    """Play a run: `games` games, or rounds until every camp's 95% half-width < precision."""
    import joblib

    if games is None and precision is None:
        games = 10_000
    if games is not None and games < 1:
        raise InputError(f"--games must be at least 1, got {games}")
    if precision is not None and not 0 < precision < 0.5:
        raise InputError(f"--precision must be between 0 and 0.5, got {precision}")
    if jobs == 0 or jobs < -1:
        raise InputError(f"--jobs must be a positive number or -1, got {jobs}")
    if seed < 0:
        raise InputError(f"--seed must be >= 0, got {seed}")
    n_jobs = joblib.cpu_count() if jobs == -1 else jobs
    tally = Tally()
    chunks: list[np.ndarray] = []
    t0 = time.perf_counter()
    interrupted = False
    bar = _progress(progress, games if precision is None else None)
    next_index = start
    try:
        with _backend(backend, scheduler):
            parallel = joblib.Parallel(n_jobs=n_jobs, return_as="generator")
            target: int = games if games is not None and precision is None else min(
                max_games, 2000)
            while True:
                todo = target - (next_index - start)
                if todo <= 0:
                    break
                size = batch_size or batch_size_for(setup.comp.n, todo, n_jobs)
                batches = _batches(next_index, next_index + todo, size)
                if n_jobs == 1 and backend != "dask":
                    results: Any = _play_batches(setup, seed, batches)
                else:
                    results = parallel(_tasks(setup, seed, batches))
                for rows in results:
                    tally.add(rows)
                    if keep_rows:
                        chunks.append(rows)
                    if bar is not None:
                        bar.update(len(rows))
                next_index += todo
                if precision is None:
                    break
                if tally.max_half_width() < precision or tally.games >= max_games:
                    break
                # Next round: enough games to reach the precision if shares hold (p(1-p)).
                worst = max(w * (tally.games - w) for w in tally.winners) / tally.games**2
                need = int((1.959964**2) * worst / precision**2 * 1.1) + 1
                target = min(max_games, max(need, 2 * tally.games))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if bar is not None:
            bar.close()
    rows = np.concatenate(chunks) if keep_rows and chunks else (
        np.zeros((0, len(COLS)), np.int32) if keep_rows else None)
    if rows is not None and len(rows):
        rows = rows[np.argsort(rows[:, 0], kind="stable")]
    return RunResult(setup, seed, tally, time.perf_counter() - t0, uuid.uuid4().hex[:12],
                     interrupted, rows)


def _progress(enabled: bool, total: int | None) -> Any:
    if not enabled:
        return None
    import sys

    if not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit="game", delay=1.0, file=sys.stderr, smoothing=0.1)


def replay(setup: Setup, seed: int, index: int) -> Any:
    """Replay game `index` of the run with `seed`, with the full log and reports."""
    driver = Drivers(setup).for_game(seed, index)
    return driver.play(game_streams(seed, index, setup.comp.n), record=True)
