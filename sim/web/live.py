"""Live runs: games played in rounds in a worker thread, so the page shows rough numbers
within a second and sharper ones as rounds finish.

Round k plays games `start .. start + size - 1` of the run's seed with the same functions
the command line uses (`sim.play.runner.run`, `sim.analysis.odds.odds`), so the numbers
after every round are exactly those of a command-line run of that many games with that
seed. Rounds grow (200, 400, 800, ... at most 2,000 games) so a run can be stopped within a round.
A run stops when it is cancelled (a new request from the same page replaces it, the page
is left), when nobody asked for its numbers for `IDLE_SECONDS`, or when it is done. At most
`MAX_LIVE` runs play at once; a new one stops the oldest.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

from sim.game.errors import MafiaSimError
from sim.game.messages import Msg

FIRST_ROUND = 200
LARGEST_ROUND = 2000
#: a run nobody polled for this long (the page was closed) stops
IDLE_SECONDS = 10.0
#: runs playing at once, over every page
MAX_LIVE = 4

#: plays games start..start+size-1 and returns what to keep of them
PlayFn = Callable[[int, int, int], Any]


class Live:
    """One live run: `play(start, size, jobs)` per round, the parts kept in `parts`."""

    def __init__(self, kind: str, play: PlayFn, target: int, jobs: int = 1,
                 context: dict[str, Any] | None = None):
        self.kind = kind
        #: names the run in the page, so that leaving a page stops its own run only
        self.id = secrets.token_hex(8)
        self.play = play
        self.target = target
        self.jobs = jobs
        self.context = context or {}
        self.parts: list[Any] = []
        self.done_games = 0
        self.error: Msg | str | None = None
        self.finished = False
        self.cancelled = threading.Event()
        self.lock = threading.Lock()
        self.last_poll = time.monotonic()
        self.started = time.monotonic()
        self.thread = threading.Thread(target=self._work, daemon=True, name=f"live-{kind}")

    def start(self) -> Live:
        self.thread.start()
        return self

    def cancel(self) -> None:
        self.cancelled.set()

    def poll(self) -> tuple[list[Any], int]:
        """The parts so far and the games they cover (and a sign that the page is open)."""
        self.last_poll = time.monotonic()
        with self.lock:
            return list(self.parts), self.done_games

    @property
    def running(self) -> bool:
        return not self.finished

    def _work(self) -> None:
        size = FIRST_ROUND
        try:
            while self.done_games < self.target:
                if self.cancelled.is_set() or time.monotonic() - self.last_poll > IDLE_SECONDS:
                    self.cancelled.set()
                    break
                n = min(size, self.target - self.done_games)
                # the first round on one core in this thread: no worker start-up to wait for
                part = self.play(self.done_games, n, 1 if self.done_games == 0 else self.jobs)
                with self.lock:
                    self.parts.append(part)
                    self.done_games += n
                size = min(LARGEST_ROUND, size * 2)
        except MafiaSimError as e:
            self.error = e.msg
        except Exception as e:  # a bug must reach the page as a message, not kill it silently
            self.error = f"{type(e).__name__}: {e}"
        finally:
            self.finished = True


class Registry:
    """The live runs, one per page session: a new run for a session stops its old one."""

    def __init__(self, max_live: int = MAX_LIVE):
        self.max_live = max_live
        self.runs: dict[str, Live] = {}
        self.lock = threading.Lock()

    def start(self, session: str, live: Live) -> Live:
        with self.lock:
            old = self.runs.pop(session, None)
            if old is not None:
                old.cancel()
            for sid in [s for s, r in self.runs.items() if r.finished]:
                del self.runs[sid]
            while len(self.runs) >= self.max_live:
                oldest = min(self.runs, key=lambda s: self.runs[s].started)
                self.runs.pop(oldest).cancel()
            self.runs[session] = live
        return live.start()

    def get(self, session: str) -> Live | None:
        with self.lock:
            return self.runs.get(session)

    def cancel(self, session: str, run_id: str | None = None) -> None:
        """Stop the session's run (only if it is `run_id`, when given: a page being left
        must not stop the run its successor just started)."""
        with self.lock:
            live = self.runs.get(session)
            if live is None or (run_id is not None and live.id != run_id):
                return
            del self.runs[session]
        if live is not None:
            live.cancel()

    def cancel_all(self) -> None:
        with self.lock:
            runs, self.runs = list(self.runs.values()), {}
        for live in runs:
            live.cancel()

