"""The simulation commands of `mafia-sim`: run, replay, sweep, compare, recommend, odds,
calibrate, bench. Each turns its flags into a `sim.play.setup.Setup` and calls the library."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from sim.game.errors import InputError
from sim.game.roles import WINNER_KEYS
from sim.play.setup import (
    MAX_GAMES,
    MAX_PLAYERS,
    MAX_SEED,
    Setup,
    build_setup,
    load_toml,
    parse_assignments,
)

#: one default for --jobs in every command: one worker process, so a run never takes a
#: shared machine by surprise; -1 uses every core. Results never depend on it.
JOBS_DEFAULT = 1
_DIGITS = re.compile(r"[+-]?[0-9]+")
_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def _whole(text: str, minimum: int, allow_minus_one: bool = False,
           maximum: int | None = None) -> int:
    t = text.strip()
    if not _DIGITS.fullmatch(t):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
    v = int(t)
    if v < minimum and not (allow_minus_one and v == -1):
        if allow_minus_one:
            raise argparse.ArgumentTypeError("use a positive number of jobs, or -1 for all "
                                             "cores")
        raise argparse.ArgumentTypeError(f"{t} must be at least {minimum}")
    if maximum is not None and v > maximum:
        raise argparse.ArgumentTypeError(f"{t} is larger than the maximum {maximum}")
    return v


def positive_int(text: str) -> int:
    return _whole(text, 1)


def games_int(text: str) -> int:
    """A count of games: at least 1, at most MAX_GAMES."""
    v = _whole(text, 1)
    if v > MAX_GAMES:
        raise argparse.ArgumentTypeError(f"{text.strip()} games is more than one run plays "
                                         f"(at most {MAX_GAMES:,})")
    return v


def game_index(text: str) -> int:
    """The index of one game of a run: from 0 to MAX_GAMES - 1."""
    v = _whole(text, 0)
    if v >= MAX_GAMES:
        raise argparse.ArgumentTypeError(f"game {text.strip()} is past the last game a run "
                                         f"can hold (at most {MAX_GAMES - 1:,})")
    return v


def nonneg_int(text: str) -> int:
    return _whole(text, 0)


def seed_int(text: str) -> int:
    return _whole(text, 0, maximum=MAX_SEED)


def players_int(text: str) -> int:
    """Any whole number; build_setup says what the real bounds are (3 with --roles, 12 for
    the standard table, at most MAX_PLAYERS)."""
    return _whole(text, -(10**6))


def jobs_int(text: str) -> int:
    return _whole(text, 1, allow_minus_one=True)


def probability(text: str) -> float:
    if not _NUMBER.fullmatch(text.strip()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number")
    v = float(text)
    if not 0 < v < 0.5:
        raise argparse.ArgumentTypeError(f"{text} must be between 0 and 0.5")
    return v


def share(text: str) -> float:
    """A share of games, such as a gain: from 0 up to but not including 1."""
    if not _NUMBER.fullmatch(text.strip()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number")
    v = float(text)
    if not 0 <= v < 1:
        raise argparse.ArgumentTypeError(f"{text} must be a share from 0 up to 1 (0.02 is "
                                         "2 points)")
    return v


def number(text: str) -> float:
    if not _NUMBER.fullmatch(text.strip()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number")
    return float(text)


JOBS_HELP = f"worker processes (default {JOBS_DEFAULT}; -1: every core)"


def add_jobs_arg(p: argparse.ArgumentParser, default: int | None = JOBS_DEFAULT,
                 help: str = JOBS_HELP) -> None:
    p.add_argument("--jobs", type=jobs_int, default=default, help=help)


def add_setup_args(p: argparse.ArgumentParser, positional: bool = True) -> None:
    if positional:
        p.add_argument("setup", nargs="?", help="a TOML setup file (composition, rules, agents, "
                                                "[run]); flags given here win over it")
    p.add_argument("--players", type=players_int, metavar="N",
                   help=f"the standard table for N players (default 25; from 12 to "
                        f"{MAX_PLAYERS}; with --roles, the count to check it against)")
    p.add_argument("--roles", metavar="COMPOSITION",
                   help="inline composition, for example civilian*9,commissar,sergeant,ninja,"
                        "doctor,necromancer,maniac,yakuza=mafioso*3+kamikaze+vsb,"
                        "triad=mafioso*3+thug+vsb (default: the standard table)")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="override a rule option, for example require_vsb=false "
                        "(repeatable; default: the rules of docs/)")
    p.add_argument("--agents", metavar="SET",
                   help="agent set for every role: heuristic, uniform or random "
                        "(default heuristic)")
    p.add_argument("--agent", action="append", default=[], metavar="ROLE=NAME_OR_PATH",
                   help="agent for one role: a set name or mypkg.mod:MyAgent, imported from "
                        "the current directory (repeatable; default: the --agents set)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="agent parameter by camp or role, e.g. town.crowd=0, thug.beat=0.5, "
                        "or the table's skill, e.g. town_skill=0.3 (repeatable; default: each "
                        "parameter's documented default; list them with `mafia-sim params`)")
    p.add_argument("--params", metavar="FILE",
                   help="a parameter file (TOML [params] table, and a [mixture] of each "
                        "camp's profiles drawn per game, as `equilibrate` writes); --param "
                        "flags override its values (default: none)")
    p.add_argument("--single-profile", action="store_true",
                   help="play the heuristic set's single shipped profile, not its shipped "
                        "mixture (default: the mixture, when agents/profiles/heuristic.toml "
                        "has one)")
    p.add_argument("--on-illegal", choices=("raise", "skip"),
                   help="an agent's illegal request fails the game (raise) or is treated as "
                        "no action and counted (skip) (default raise)")


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
        single_profile=getattr(args, "single_profile", False),
    )


def add_run_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", type=games_int, metavar="N",
                   help="number of games (default: the setup file's [run] games, else 10000)")
    p.add_argument("--precision", type=probability, metavar="HALF_WIDTH",
                   help="instead of a game count: play rounds until every camp's 95%% "
                        "half-width is below this, for example 0.005 (default: off)")
    p.add_argument("--max-games", type=games_int, metavar="N",
                   help="cap for --precision (default: the file's [run] max_games, else "
                        "10,000,000)")
    p.add_argument("--seed", type=seed_int,
                   help="run seed, 0 to 2**63-1 (default: the file's [run] seed, else 0)")
    p.add_argument("--jobs", type=jobs_int,
                   help=f"worker processes (default: the file's [run] jobs, else "
                        f"{JOBS_DEFAULT}; -1: every core)")
    p.add_argument("--backend", default="loky",
                   choices=("loky", "threading", "multiprocessing", "dask"),
                   help="how workers run (default loky)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="Dask scheduler address, with --backend dask (default: none)")
    p.add_argument("--batch-size", type=positive_int, metavar="N",
                   help="games per worker task (default: about a second of play)")
    p.add_argument("--quiet", action="store_true", help="no progress bar (default: a bar "
                                                        "on a terminal)")


def run_kwargs(args: argparse.Namespace, setup: Setup) -> dict[str, Any]:
    """The run's settings: flags first, then the setup file's [run] table, then defaults."""
    cfg = setup.run
    if args.games is not None and args.precision is not None:
        raise InputError("give --games or --precision, not both")
    if args.games is not None:
        games, precision = args.games, None
    elif args.precision is not None:
        games, precision = None, args.precision
    else:
        games, precision = cfg.get("games"), cfg.get("precision")
        if games is not None and precision is not None:
            raise InputError("[run] has both games and precision: keep one")
    seed = args.seed if args.seed is not None else cfg.get("seed", 0)
    jobs = args.jobs if args.jobs is not None else cfg.get("jobs", JOBS_DEFAULT)
    max_games = args.max_games if args.max_games is not None else cfg.get("max_games",
                                                                          10_000_000)
    return dict(games=games, precision=precision, seed=seed, jobs=jobs,
                backend=args.backend, scheduler=args.scheduler, batch_size=args.batch_size,
                max_games=max_games, progress=not args.quiet)


def format_summary(s: dict[str, Any]) -> str:
    if s["games"] == 0:
        return ("INTERRUPTED before any game finished: no results"
                if s["interrupted"] else "no games played")
    lines = [f"{s['games']:,} games, seed {s['seed']}, {s['setup']['composition']}"
             f" ({s['setup']['players']} players, agents: {s['setup']['agents']})"]
    if s["setup"]["rules"]:
        lines.append("rules: " + ", ".join(f"{k}={v}" for k, v in s["setup"]["rules"].items()))
    lines.append(f"{'camp':<10} {'wins':>10} {'share':>8}   95% interval")
    for camp in WINNER_KEYS:
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
    from sim.play.runner import run

    out = check_out_path(args.out) if args.out else None
    setup = setup_from_args(args)
    result = run(setup, keep_rows=out is not None, **run_kwargs(args, setup))
    summary = result.summary()
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(format_summary(summary))
    if out is not None and result.tally.games:
        side = write_rows(result, out, summary)
        print(f"{result.tally.games:,} rows written to {out}, the summary to {side}",
              file=sys.stderr if args.json else sys.stdout)
    return 130 if result.interrupted else 0


OUT_FORMATS = {".parquet": "Parquet", ".csv": "CSV"}


def check_out_path(text: str) -> Path:
    """Where `--out` writes, refused before any game is played when it cannot be written."""
    out = Path(text)
    if out.suffix.lower() not in OUT_FORMATS:
        raise InputError(f"--out {text}: name a .parquet or .csv file (the format follows the "
                         "extension)")
    if out.is_dir():
        raise InputError(f"--out {text} is a directory: name a .parquet or .csv file")
    parent = out.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if parent.exists() and not parent.is_dir():
        raise InputError(f"--out {text}: {parent} is a file, not a directory")
    if not os.access(parent, os.W_OK):
        raise InputError(f"--out {text}: {parent} is not writable")
    return out


def write_rows(result: Any, out: Path, summary: dict[str, Any]) -> Path:
    """Write the rows (format from the extension) and `NAME.summary.json` beside them,
    atomically; returns the summary's path. A failure is an InputError, no temporary file
    is left behind."""
    df = result.frame()
    side = out.with_suffix(".summary.json")
    tmp = out.with_name(out.name + ".tmp")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        if out.suffix.lower() == ".csv":
            df.to_csv(tmp, index=False)
        else:
            df.to_parquet(tmp, index=False)
        os.replace(tmp, out)
        side.write_text(json.dumps(summary, indent=2))
    except OSError as e:
        raise InputError(f"cannot write {e.filename or out}: {e.strerror or e}") from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
    return side


def cmd_replay(args: argparse.Namespace) -> int:
    from sim.engine.newspaper import render, role_label
    from sim.play.runner import replay

    setup = setup_from_args(args)
    game = replay(setup, args.seed, args.game)
    if args.json or args.log:
        from sim.engine.gamelog import game_json, game_log

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
    r = sub.add_parser("run", help="play many games and print win rates with 95%% intervals")
    add_setup_args(r)
    add_run_args(r)
    r.add_argument("--json", action="store_true",
                   help="print the summary as JSON (default: a table)")
    r.add_argument("--out", metavar="FILE.parquet|FILE.csv",
                   help="also write every game as a row, in the format of the extension, and "
                        "the summary beside it as FILE.summary.json (default: not written)")
    r.set_defaults(func=cmd_run)

    p = sub.add_parser("replay", help="replay one game of a run and print its newspapers")
    add_setup_args(p)
    p.add_argument("--seed", type=seed_int, default=0, help="the run's seed (default 0)")
    p.add_argument("--game", type=game_index, required=True,
                   help="the game's index in the run, from 0 (required)")
    p.add_argument("--lang", choices=("ru", "en"), default="en",
                   help="language of the newspapers (default en)")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--log", action="store_true",
                     help="print every turn in full: statements, votes, night requests, "
                          "the host's resolution (default: the newspapers only)")
    how.add_argument("--json", action="store_true",
                     help="print the game in the resolve schema (docs/resolve.md)")
    p.set_defaults(func=cmd_replay)
