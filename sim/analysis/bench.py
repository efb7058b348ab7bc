"""`mafia-sim bench`: games per second by table size and agent set, parallel efficiency,
peak memory, for the compiled and the pure-Python build side by side. Timings are noisy:
this is a measurement, never a test.

Each measurement runs in a fresh child process of the build it measures (MAFIA_SIM_PURE,
sim._native), the builds alternating measurement by measurement, so both meet the same
machine and load; the standard table, on one job and on all of them, is measured `rounds`
times each way, alternating, and the best of each kept (each row says how many rounds).

Given a mixture (`--mixture FILE`, a profile file with a `[mixture]`, as `equilibrate`
writes), the standard table on one job is also played under it, alternating with the
single profile the same number of rounds (issue 24: a run with the mixture should be no
slower a game than one with a single profile). The two play different games (each profile
plays its own way, some longer), so the comparison is per game and per turn.
"""

from __future__ import annotations

import json
import math
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import joblib

from sim import _native
from sim.play.runner import run
from sim.play.setup import build_setup

BUILDS = ("compiled", "pure")


def _rate(players: int, agents: str, games: int, jobs: int,
          mixture: str | None = None) -> dict[str, Any]:
    """One measurement; `mixture`, a profile file whose mixture the run draws from (None:
    the set's single profile, whatever agents/profiles/heuristic.toml ships)."""
    setup = build_setup(None, players=players, agents=agents, params_file=mixture,
                        single_profile=mixture is None)
    t0 = time.perf_counter()
    res = run(setup, games=games, seed=12345, jobs=jobs)
    secs = time.perf_counter() - t0
    turns = res.tally.turns_sum
    return {"players": players, "agents": agents, "jobs": jobs, "games": games,
            "seconds": secs, "games_per_second": games / secs,
            "ms_per_game": 1000 * secs / games, "turns_mean": turns / games,
            "ms_per_turn": 1000 * secs / turns,
            "profile": f"mixture {Path(mixture).name}" if mixture else "single",
            "build": _native.BUILD,
            "peak_memory_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def _rate_in(build: str, players: int, agents: str, games: int, jobs: int,
             mixture: str | None = None) -> dict[str, Any]:
    """One measurement in a child process running `build` (`current`: this process's)."""
    if build == "current":
        return _rate(players, agents, games, jobs, mixture)
    env = dict(os.environ)
    env.pop(_native.PURE_ENV, None)
    if build == "pure":
        env[_native.PURE_ENV] = "1"
    spec = json.dumps([players, agents, games, jobs, mixture])
    out = subprocess.run([sys.executable, "-m", "sim.analysis.bench", spec], env=env,
                         capture_output=True, text=True, check=True)
    row: dict[str, Any] = json.loads(out.stdout)
    if row["build"] != build:
        raise RuntimeError(f"asked for the {build} build, ran the {row['build']} one")
    return row


def available_builds() -> tuple[str, ...]:
    """Both builds where an up-to-date compiled build is installed, else the pure one."""
    saved = os.environ.pop(_native.PURE_ENV, None)
    try:
        files, _ = _native.check()
    finally:
        if saved is not None:
            os.environ[_native.PURE_ENV] = saved
    return BUILDS if files else ("pure",)


def run_bench(quick: bool = False, games: int | None = None, jobs: int = 1,
              builds: tuple[str, ...] = ("current",), rounds: int = 1,
              mixture: str | Path | None = None) -> dict[str, Any]:
    """The figures of `mafia-sim bench` for each of `builds` (`compiled`, `pure`, or
    `current`: this process's build, measured in it); the parallel row and its
    efficiency only when more than one job is asked for (on one job there is nothing to
    compare); with `mixture`, the standard table under it beside the single profile, on
    the first build."""
    base = games or (1000 if quick else 5000)
    n_jobs = joblib.cpu_count() if jobs == -1 else jobs
    specs: list[tuple[int, str, int, int]] = [(25, "heuristic", base, 1)]
    if n_jobs > 1:
        # twice the games a job: starting the worker processes takes about half a second,
        # which on the compiled build was a tenth of a run of `base` games a job
        specs.append((25, "heuristic", 2 * base * n_jobs, n_jobs))
    for n in (20, 30, 60, 100):
        specs.append((n, "heuristic", max(200, base * 25 // (n * 2)), 1))
    for agents in ("uniform", "random"):
        specs.append((25, agents, base, 1))
    rows: list[dict[str, Any]] = []
    for spec in specs:
        # The standard table, on one job and on all of them, `rounds` times each: the best
        # of each is kept (a busy machine only ever slows a run down), and the parallel row
        # gets as many tries as the one-job row its efficiency is measured against.
        repeat = rounds if spec[:2] == (25, "heuristic") else 1
        best: dict[str, dict[str, Any]] = {}
        for _ in range(repeat):
            for build in builds:  # alternating, measurement by measurement
                row = _rate_in(build, *spec)
                row["rounds"] = repeat
                if build not in best or (row["games_per_second"]
                                         > best[build]["games_per_second"]):
                    best[build] = row
        rows.extend(best[build] for build in builds)
    out: dict[str, Any] = {"rows": rows, "jobs": n_jobs, "builds": {}}
    if mixture is not None:
        out["mixture"] = _mixture_rows(str(mixture), builds[0], base, rounds)
    for build in builds:
        mine = [r for r in rows if r["build"] == build or build == "current"]
        single = mine[0]["games_per_second"]
        par = next((r for r in mine if r["jobs"] > 1), None)
        by_n = {r["players"]: r["ms_per_game"] for r in mine
                if r["agents"] == "heuristic" and r["jobs"] == 1}
        out["builds"][mine[0]["build"]] = {
            "parallel_efficiency": (par["games_per_second"] / (single * n_jobs)
                                    if par is not None else None),
            "growth_exponent_25_to_100": math.log(by_n[100] / by_n[25]) / math.log(4),
            "peak_memory_mb": max(r["peak_memory_mb"] for r in mine),
        }
    first = next(iter(out["builds"].values()))
    # the figures of the first build at the top level, as before builds were compared
    out.update({k: first[k] for k in ("parallel_efficiency", "growth_exponent_25_to_100",
                                      "peak_memory_mb")})
    return out


def _mixture_rows(mixture: str, build: str, games: int, rounds: int) -> dict[str, Any]:
    """The standard table on one job, single profile and mixture alternating `rounds`
    times, the best of each kept; their ratios per game and per turn (above 1: the
    mixture is slower)."""
    best: dict[str, dict[str, Any]] = {}
    for _ in range(rounds):
        for key, file in (("single", None), ("mixture", mixture)):
            row = _rate_in(build, 25, "heuristic", games, 1, file)
            row["rounds"] = rounds
            if key not in best or row["games_per_second"] > best[key]["games_per_second"]:
                best[key] = row
    return {"file": mixture, "single": best["single"], "mixture": best["mixture"],
            "ms_per_game_ratio": best["mixture"]["ms_per_game"] / best["single"]["ms_per_game"],
            "ms_per_turn_ratio": best["mixture"]["ms_per_turn"] / best["single"]["ms_per_turn"]}


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
    builds = list(res["builds"])
    head = f"{'players':>7} {'agents':<10} {'jobs':>4} {'games':>7}"
    for b in builds:
        head += f" {b + ' games/s':>17} {'ms/game':>8}"
    if len(builds) == 2:
        head += f" {'ratio':>6}"
    lines = [head]
    rows = res["rows"]
    step = len(builds)
    for i in range(0, len(rows), step):
        group = rows[i:i + step]
        r = group[0]
        line = f"{r['players']:>7} {r['agents']:<10} {r['jobs']:>4} {r['games']:>7}"
        for g in group:
            line += f" {g['games_per_second']:>17,.0f} {g['ms_per_game']:>8.3f}"
        if len(group) == 2:
            line += f" {group[0]['games_per_second'] / group[1]['games_per_second']:>5.2f}x"
        lines.append(line)
    k = rows[0].get("rounds", 1) if rows else 1
    if k > 1:
        lines.append(f"25 players, heuristic agents: the best of {k} alternating rounds each")
    mix = res.get("mixture")
    if mix is not None:
        one, other = mix["single"], mix["mixture"]
        lines.append(f"25 players, one job, {one['build']} build: single profile "
                     f"{one['ms_per_game']:.3f} ms a game ({one['turns_mean']:.2f} turns), "
                     f"{other['profile']} {other['ms_per_game']:.3f} ms "
                     f"({other['turns_mean']:.2f} turns): the mixture takes "
                     f"{mix['ms_per_game_ratio']:.2f}x the time a game, "
                     f"{mix['ms_per_turn_ratio']:.2f}x a turn (best of {one['rounds']})")
    for b, fig in res["builds"].items():
        name = f"{b} build: " if len(builds) > 1 else ""
        if fig.get("parallel_efficiency") is not None:
            lines.append(f"{name}parallel efficiency on {res['jobs']} jobs: "
                         f"{fig['parallel_efficiency']:.0%}")
        lines.append(f"{name}per-game cost grows as players^"
                     f"{fig['growth_exponent_25_to_100']:.2f} from 25 to 100 players")
        lines.append(f"{name}peak memory (one process): {fig['peak_memory_mb']:.0f} MB")
    return "\n".join(lines)


if __name__ == "__main__":  # one measurement, for run_bench's child processes
    print(json.dumps(_rate(*json.loads(sys.argv[1]))))
