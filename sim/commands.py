"""The simulation commands of `mafia-sim`: run, replay, sweep, compare, recommend, odds,
calibrate, bench. Each turns its flags into a `sim.setup.Setup` and calls the library."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from sim.errors import InputError
from sim.setup import Setup, build_setup, load_toml, parse_assignments

CAMP_ORDER = ["town", "yakuza", "triad", "maniac", "draw", "stalemate"]


def _whole(text: str, minimum: int, allow_minus_one: bool = False) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if v < minimum and not (allow_minus_one and v == -1):
        if allow_minus_one:
            raise argparse.ArgumentTypeError("use a positive number of jobs, or -1 for all "
                                             "cores")
        raise argparse.ArgumentTypeError(f"{text} must be at least {minimum}")
    return v


def positive_int(text: str) -> int:
    return _whole(text, 1)


def nonneg_int(text: str) -> int:
    return _whole(text, 0)


def jobs_int(text: str) -> int:
    return _whole(text, 1, allow_minus_one=True)


def probability(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < v < 0.5:
        raise argparse.ArgumentTypeError(f"{text} must be between 0 and 0.5")
    return v


def add_setup_args(p: argparse.ArgumentParser, positional: bool = True) -> None:
    if positional:
        p.add_argument("setup", nargs="?", help="a TOML setup file (composition, rules, agents)")
    p.add_argument("--players", type=positive_int, help="the standard table for N players")
    p.add_argument("--roles", help="inline composition: civilian*9,commissar,...,"
                                   "yakuza=mafioso*3+kamikaze+vsb,triad=mafioso*3+thug+vsb")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="override a rule option (repeatable)")
    p.add_argument("--agents", help="agent set for every role: heuristic (default), "
                                    "uniform, random")
    p.add_argument("--agent", action="append", default=[], metavar="ROLE=NAME_OR_PATH",
                   help="agent for one role: a set name or mypkg.mod:MyAgent (repeatable)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="agent or information-model parameter (repeatable)")
    p.add_argument("--params", metavar="FILE",
                   help="a parameter file (TOML [params] table, as `equilibrate` writes); "
                        "--param flags override its values (default: none)")
    p.add_argument("--on-illegal", choices=("raise", "skip"),
                   help="an agent's illegal request fails the game (raise, default) or is "
                        "treated as no action and counted (skip)")


def setup_from_args(args: argparse.Namespace, file_key: str = "setup") -> Setup:
    path = getattr(args, file_key, None)
    data = load_toml(path) if path else None
    return build_setup(
        data,
        players=args.players,
        roles=args.roles,
        rules=parse_assignments(args.rule, "--rule"),
        agents=args.agents,
        agent_overrides=parse_assignments(args.agent, "--agent"),
        params=parse_assignments(args.param, "--param"),
        on_illegal=args.on_illegal,
        where=str(path) if path else "setup",
        params_file=getattr(args, "params", None),
    )


def add_run_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", type=positive_int, help="number of games (default 10000)")
    p.add_argument("--precision", type=probability,
                   help="play rounds until every camp's 95%% half-width is below this")
    p.add_argument("--max-games", type=positive_int, default=10_000_000,
                   help="cap for --precision (default 10,000,000)")
    p.add_argument("--seed", type=nonneg_int, help="run seed (default 0)")
    p.add_argument("--jobs", type=jobs_int, default=1, help="worker processes (-1: all cores)")
    p.add_argument("--backend", default="loky",
                   choices=("loky", "threading", "multiprocessing", "dask"))
    p.add_argument("--scheduler", help="Dask scheduler address, with --backend dask")
    p.add_argument("--batch-size", type=positive_int, help="games per worker task")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def run_kwargs(args: argparse.Namespace, setup: Setup) -> dict[str, Any]:
    cfg = setup.run
    unknown = set(cfg) - {"games", "precision", "seed", "jobs", "max_games"}
    if unknown:
        raise InputError(f"unknown key(s) in [run]: {', '.join(sorted(unknown))}")
    games = args.games if args.games is not None else cfg.get("games")
    precision = args.precision if args.precision is not None else cfg.get("precision")
    if games is not None and precision is not None and args.games is None:
        games = None if args.precision is not None else games
    seed = args.seed if args.seed is not None else cfg.get("seed", 0)
    for name, v in (("games", games), ("seed", seed)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
            raise InputError(f"[run] {name} must be a whole number, got {v!r}")
    return dict(games=games, precision=precision, seed=seed, jobs=args.jobs,
                backend=args.backend, scheduler=args.scheduler, batch_size=args.batch_size,
                max_games=args.max_games, progress=not args.quiet)


def format_summary(s: dict[str, Any]) -> str:
    lines = [f"{s['games']:,} games, seed {s['seed']}, {s['setup']['composition']}"
             f" ({s['setup']['players']} players, agents: {s['setup']['agents']})"]
    if s["setup"]["rules"]:
        lines.append("rules: " + ", ".join(f"{k}={v}" for k, v in s["setup"]["rules"].items()))
    lines.append(f"{'camp':<10} {'wins':>10} {'share':>8}   95% interval")
    for camp in CAMP_ORDER:
        c = s["camps"][camp]
        lines.append(f"{camp:<10} {c['wins']:>10,} {c['share']:>8.2%}   "
                     f"[{c['low']:.2%}, {c['high']:.2%}]")
    t = s["turns"]
    lines.append(f"game length: mean {t['mean']:.2f} turns, median {t['median']}; "
                 f"ended in a duel: {s['duel_share']:.2%}")
    deaths = sorted(((v, k) for k, v in s["deaths_per_game"].items() if v > 0), reverse=True)
    lines.append("deaths per game: " + ", ".join(f"{k} {v:.2f}" for v, k in deaths))
    if s["illegal_skipped"]:
        lines.append(f"illegal agent requests skipped: {s['illegal_skipped']:,}")
    lines.append(f"{s['games_per_second']:,.0f} games/s")
    if s["interrupted"]:
        lines.append("INTERRUPTED: the figures cover the games that finished")
    return "\n".join(lines)


def cmd_run(args: argparse.Namespace) -> int:
    from sim.runner import run

    setup = setup_from_args(args)
    result = run(setup, keep_rows=bool(args.out), **run_kwargs(args, setup))
    summary = result.summary()
    if args.out:
        write_rows(result, Path(args.out), summary)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(format_summary(summary))
    return 130 if result.interrupted else 0


def write_rows(result: Any, out: Path, summary: dict[str, Any]) -> None:
    import os

    df = result.frame()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    if out.suffix == ".csv":
        df.to_csv(tmp, index=False)
    else:
        df.to_parquet(tmp, index=False)
    os.replace(tmp, out)
    side = out.with_suffix(".summary.json")
    side.write_text(json.dumps(summary, indent=2))


def cmd_replay(args: argparse.Namespace) -> int:
    from sim.newspaper import render, role_label
    from sim.runner import replay

    setup = setup_from_args(args)
    game = replay(setup, args.seed, args.game)
    if args.json or args.log:
        from sim.gamelog import game_json, game_log

        if args.json:
            print(json.dumps(game_json(game), indent=1, ensure_ascii=False))
        else:
            print(game_log(game, args.lang))
        return 0
    st = game.st
    roles = ", ".join(f"{st.names[s]}={role_label(st, s, args.lang)}" for s in range(st.n))
    print(("Роли: " if args.lang == "ru" else "Roles: ") + roles)
    for rep in game.reports:
        print()
        print(render(st, rep, args.lang))
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Register the simulation commands."""
    r = sub.add_parser("run", help="play many games and print win rates with 95% intervals")
    add_setup_args(r)
    add_run_args(r)
    r.add_argument("--json", action="store_true", help="print the summary as JSON")
    r.add_argument("--out", help="write every game as a row (Parquet; .csv for CSV) and "
                                 "the summary beside it")
    r.set_defaults(func=cmd_run)

    p = sub.add_parser("replay", help="replay one game of a run and print its newspapers")
    add_setup_args(p)
    p.add_argument("--seed", type=nonneg_int, default=0, help="the run's seed")
    p.add_argument("--game", type=nonneg_int, required=True, help="the game's index")
    p.add_argument("--lang", choices=("ru", "en"), default="en")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--log", action="store_true",
                     help="print every turn in full: statements, votes, night requests, "
                          "the host's resolution")
    how.add_argument("--json", action="store_true",
                     help="print the game in the resolve schema (docs/resolve.md)")
    p.set_defaults(func=cmd_replay)

    from sim import analysis_commands

    analysis_commands.add_commands(sub)
