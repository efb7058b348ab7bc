"""`mafia-sim bench`: games per second by table size and agent set, parallel efficiency,
peak memory. Timings are noisy: this is a measurement, never a test."""

from __future__ import annotations

import math
import resource
import time
from typing import Any

import joblib

from sim.runner import run
from sim.setup import build_setup


def _rate(players: int, agents: str, games: int, jobs: int) -> dict[str, Any]:
    setup = build_setup(None, players=players, agents=agents)
    t0 = time.perf_counter()
    res = run(setup, games=games, seed=12345, jobs=jobs)
    secs = time.perf_counter() - t0
    return {"players": players, "agents": agents, "jobs": jobs, "games": games,
            "seconds": secs, "games_per_second": games / secs,
            "ms_per_game": 1000 * secs / games, "turns_mean": res.tally.turns_sum / games}


def run_bench(quick: bool = False, games: int | None = None, jobs: int = 1) -> dict[str, Any]:
    """The figures of `mafia-sim bench`; the parallel row and its efficiency only when more
    than one job is asked for (on one job there is nothing to compare)."""
    base = games or (1000 if quick else 5000)
    n_jobs = joblib.cpu_count() if jobs == -1 else jobs
    rows = []
    rows.append(_rate(25, "heuristic", base, 1))
    par = _rate(25, "heuristic", base * n_jobs, n_jobs) if n_jobs > 1 else None
    if par is not None:
        rows.append(par)
    for n in (20, 30, 60, 100):
        rows.append(_rate(n, "heuristic", max(200, base * 25 // (n * 2)), 1))
    for agents in ("uniform", "random"):
        rows.append(_rate(25, agents, base, 1))
    single = rows[0]["games_per_second"]
    efficiency = par["games_per_second"] / (single * n_jobs) if par is not None else None
    by_n = {r["players"]: r["ms_per_game"] for r in rows
            if r["agents"] == "heuristic" and r["jobs"] == 1}
    exponent = math.log(by_n[100] / by_n[25]) / math.log(100 / 25)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"rows": rows, "parallel_efficiency": efficiency, "jobs": n_jobs,
            "growth_exponent_25_to_100": exponent, "peak_memory_mb": peak}


def profile_games(players: int = 25, agents: str = "heuristic", games: int = 1000,
                  top: int = 25) -> dict[str, Any]:
    """Where the time goes: cProfile over `games` games of the standard table on one core,
    the `top` functions by own time (with their cumulative time). The profiler's own
    overhead inflates small Python calls, so read shares, not absolute figures."""
    import cProfile
    import pstats

    setup = build_setup(None, players=players, agents=agents)
    run(setup, games=min(games, 50), seed=1, jobs=1)  # imports and caches warm
    prof = cProfile.Profile()
    t0 = time.perf_counter()
    prof.enable()
    run(setup, games=games, seed=12345, jobs=1)
    prof.disable()
    secs = time.perf_counter() - t0
    stats = pstats.Stats(prof)
    total = sum(v[2] for v in stats.stats.values())  # type: ignore[attr-defined]
    rows = []
    for (path, line, name), (_, calls, own, cum, _) in stats.stats.items():  # type: ignore[attr-defined]
        rows.append({"function": f"{_short(path)}:{line}({name})", "calls": calls,
                     "own_seconds": own, "cumulative_seconds": cum,
                     "own_share": own / total if total else 0.0})
    rows.sort(key=lambda r: -r["own_seconds"])
    return {"players": players, "agents": agents, "games": games,
            "seconds_profiled": secs, "top": rows[:top]}


def _short(path: str) -> str:
    for root in ("/sim/", "/agents/"):
        if root in path:
            return root.strip("/") + "/" + path.split(root, 1)[1]
    return path.rsplit("/", 1)[-1]


def format_profile(res: dict[str, Any]) -> str:
    lines = [f"profile of {res['games']} games, {res['players']} players, agents "
             f"{res['agents']}, one core ({res['seconds_profiled']:.1f} s under cProfile)",
             f"{'own %':>6} {'own s':>7} {'cum s':>7} {'calls':>9}  function"]
    for r in res["top"]:
        lines.append(f"{r['own_share']:>6.1%} {r['own_seconds']:>7.3f} "
                     f"{r['cumulative_seconds']:>7.3f} {r['calls']:>9,}  {r['function']}")
    return "\n".join(lines)


def format_bench(res: dict[str, Any]) -> str:
    lines = [f"{'players':>7} {'agents':<10} {'jobs':>4} {'games':>7} {'games/s':>9} "
             f"{'ms/game':>8} {'turns':>6}"]
    for r in res["rows"]:
        lines.append(f"{r['players']:>7} {r['agents']:<10} {r['jobs']:>4} {r['games']:>7} "
                     f"{r['games_per_second']:>9,.0f} {r['ms_per_game']:>8.3f} "
                     f"{r['turns_mean']:>6.2f}")
    if res.get("parallel_efficiency") is not None:
        lines.append(f"parallel efficiency on {res['jobs']} jobs: "
                     f"{res['parallel_efficiency']:.0%}")
    lines.append(f"per-game cost grows as players^{res['growth_exponent_25_to_100']:.2f} "
                 "from 25 to 100 players")
    lines.append(f"peak memory (this process): {res['peak_memory_mb']:.0f} MB")
    return "\n".join(lines)
