"""Fingerprints of seeded games, to show that two builds (compiled and pure) or two versions
of the code play the same games, bit for bit.

    python scripts/fingerprint.py [--games 300] [--logs 40] [--jobs 1] [--backend loky]
        [--players 12,25,30] [--seed 2026]

(`--backend dask` without `--scheduler` starts a local Dask cluster of `--jobs` worker
processes.)

prints one JSON object: for each table size, the SHA-256 of the per-game result rows of a
run (winner, reason, turns, deaths by cause, survivors by camp: sim.play.runner.COLS) and of
the full event log of its first `--logs` games (every statement, vote, night request and
resolution). Which build runs follows MAFIA_SIM_PURE (sim._native).
"""

from __future__ import annotations

import argparse
import hashlib
import json

from sim.game.roles import Shown
from sim.play.driver import Driver
from sim.play.runner import run
from sim.play.setup import build_setup
from sim.play.streams import game_streams


def _plain(event: object) -> object:
    """A log event with each check result written as its string (what the log held before
    results were `Shown` members), so a hash compares games across that change."""
    if isinstance(event, tuple):
        return tuple(_plain(x) for x in event)
    if isinstance(event, Shown):
        return str(event)
    return event


def fingerprint(players: int, games: int, logs: int, seed: int, jobs: int, backend: str,
                scheduler: str | None = None) -> dict[str, object]:
    setup = build_setup(None, players=players)
    res = run(setup, games=games, seed=seed, jobs=jobs, backend=backend,
              scheduler=scheduler, keep_rows=True)
    assert res.rows is not None
    rows = hashlib.sha256(res.rows.astype("<i4").tobytes()).hexdigest()
    driver = Driver(setup.comp, setup.rules, setup.agents, setup.on_illegal)
    h = hashlib.sha256()
    for i in range(logs):
        game = driver.play(game_streams(seed, i, players), record=True)
        h.update(repr([_plain(event) for event in game.log]).encode())
    return {"games": games, "rows": rows, "logs": h.hexdigest(),
            "town_wins": int(res.tally.winners[0])}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--logs", type=int, default=40)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--backend", default="loky")
    ap.add_argument("--scheduler", default=None)
    ap.add_argument("--players", default="12,25,30")
    ap.add_argument("--seed", type=int, default=2026)
    a = ap.parse_args()
    cluster = None
    if a.backend == "dask" and a.scheduler is None:
        from dask.distributed import LocalCluster

        cluster = LocalCluster(n_workers=a.jobs, threads_per_worker=1, processes=True,
                               host="127.0.0.1", dashboard_address=None)
        a.scheduler = cluster.scheduler_address
    try:
        out: dict[str, object] = {
            str(n): fingerprint(int(n), a.games, a.logs, a.seed, a.jobs, a.backend,
                                a.scheduler)
            for n in a.players.split(",")}
    finally:
        if cluster is not None:
            cluster.close()
    from sim import _native

    out["build"] = _native.BUILD
    print(json.dumps(out, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
