"""Command-line front ends of sim.analysis's sweep, compare, recommend, odds, calibrate and
bench."""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from pathlib import Path
from typing import Any

from sim.analysis.recommend import CHECK_BUDGET, CHECK_GAMES, MAX_GAIN
from sim.cli.commands import (
    JOBS_DEFAULT,
    add_jobs_arg,
    add_setup_args,
    games_int,
    jobs_int,
    nonneg_int,
    number,
    players_int,
    positive_int,
    probability,
    seed_int,
    setup_from_args,
    share,
)
from sim.game.errors import InputError
from sim.game.roles import WINNER_KEYS
from sim.play.setup import build_setup, load_mixture_file, load_toml, parse_assignments


def _log(msg: str) -> None:
    sys.stderr.write(msg + "\n")


def cmd_sweep(args: argparse.Namespace) -> int:
    from sim.analysis.sweep import run_sweep

    spec = load_toml(args.sweep)
    if args.params:  # the base's parameter file (the base's and the cells' params win)
        base = dict(spec.get("base", {}))
        agents = base.get("agents", {})
        agents = {"set": agents} if isinstance(agents, str) else dict(agents)
        agents["params_file"] = str(Path(args.params).resolve())
        spec = {**spec, "base": {**base, "agents": agents}}
    out = Path(args.out) if args.out else Path("runs") / sweep_name(spec, args.sweep)
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out} is a file: name a directory for the sweep")
    df = run_sweep(spec, out, resume=args.resume, jobs=args.jobs, quiet=args.quiet,
                   where=args.sweep, log=None if args.quiet else _log,
                   games=args.games, precision=args.precision)
    cells = df["cell_id"].nunique()
    print(f"{cells} cells written to {out}/results.csv and {out}/results.parquet")
    return 0


def sweep_name(spec: dict[str, Any], path: str) -> str:
    """The sweep's name: its `name = "..."` when that is a plain file name, else the file
    name without .toml."""
    name = spec.get("name")
    if isinstance(name, str) and re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", name):
        return name
    return Path(path).stem


def _b_setup(args: argparse.Namespace, a: Any) -> Any:
    """Arm B: the B.toml with the --b-* flags winning over it (arm A's own flags are A's),
    or else arm A's setup changed by the --b-* flags. Either way B plays the same profile
    choice as A (`--single-profile`) and the same handling of illegal requests."""
    single = getattr(args, "single_profile", False)
    if args.b:
        return build_setup(load_toml(args.b), where=args.b, players=args.b_players,
                           roles=args.b_roles,
                           rules=parse_assignments(args.b_rule, "--b-rule"),
                           agents=args.b_agents,
                           agent_overrides=parse_assignments(args.b_agent, "--b-agent"),
                           params=parse_assignments(args.b_param, "--b-param"),
                           on_illegal=args.on_illegal, single_profile=single)
    if not (args.b_rule or args.b_param or args.b_roles or args.b_players or args.b_agents
            or args.b_agent):
        raise InputError("compare needs a second arm: a B.toml or --b-rule/--b-param/"
                         "--b-roles/--b-players/--b-agents/--b-agent")
    data: dict[str, Any] = {}
    if args.setup:
        data = load_toml(args.setup)
    rules = {**parse_assignments(args.rule, "--rule"), **parse_assignments(args.b_rule,
                                                                           "--b-rule")}
    params = {**parse_assignments(args.param, "--param"),
              **parse_assignments(args.b_param, "--b-param")}
    agent_over = {**parse_assignments(args.agent, "--agent"),
                  **parse_assignments(args.b_agent, "--b-agent")}
    return build_setup(
        data, players=args.b_players or args.players,
        roles=args.b_roles or (None if args.b_players else args.roles), rules=rules,
        agents=args.b_agents or args.agents, agent_overrides=agent_over, params=params,
        on_illegal=args.on_illegal, where=args.setup or "setup", params_file=args.params,
        single_profile=single)


def cmd_compare(args: argparse.Namespace) -> int:
    from sim.analysis.compare import compare

    a = setup_from_args(args)
    b = _b_setup(args, a)
    cfg = {k: a.run.get(k) for k in ("games", "seed", "jobs")}
    games = args.games if args.games is not None else cfg["games"] or 20_000
    seed = args.seed if args.seed is not None else cfg["seed"] or 0
    jobs = args.jobs if args.jobs is not None else cfg["jobs"] or JOBS_DEFAULT
    res = compare(a, b, games=games, seed=seed, jobs=jobs)
    code = 130 if res["interrupted"] else 0
    if args.json:
        print(json.dumps(res, indent=2))
        return code
    if res["interrupted"]:
        print(f"INTERRUPTED: the paired result of the {res['games']:,} games both arms "
              f"finished (of {games:,} asked)")
        if not res["games"]:
            return code
    print(f"{res['games']:,} paired games (common random numbers, seed {seed})")
    if res["identical"]:
        print("A and B are the same setup: they play the same games, so every difference is "
              "exactly 0 (no interval to estimate)")
    print(f"A: {res['a']['composition']} rules {res['a']['rules']} params {res['a']['params']}")
    print(f"B: {res['b']['composition']} rules {res['b']['rules']} params {res['b']['params']}")
    print(f"{'camp':<10} {'A':>8} {'B':>8} {'B-A':>8}   paired 95% interval   McNemar p"
          "   (half-width unpaired vs paired)")
    for camp in WINNER_KEYS:
        c = res["camps"][camp]
        print(f"{camp:<10} {c['a']:>8.2%} {c['b']:>8.2%} {c['diff']:>+8.2%}   "
              f"[{c['low']:+.2%}, {c['high']:+.2%}]   {c['p_value']:.3g}"
              f"   (±{c['half_width_unpaired']:.2%} vs ±{c['half_width_paired']:.2%})")
    return code


def cmd_recommend(args: argparse.Namespace) -> int:
    from sim.analysis.recommend import parse_target, recommend

    target = parse_target(args.target)
    if args.players is None:
        raise InputError("recommend needs --players N")
    base = setup_from_args(args)
    table = recommend(base, args.players, target, games=args.games, rounds=args.rounds,
                      keep=args.keep, seed=args.seed, jobs=args.jobs, confirm=args.confirm,
                      confirm_games=args.confirm_games, check=args.check,
                      check_games=args.check_games, check_budget=args.check_budget,
                      max_gain=args.max_gain, log=None if args.quiet else _log)
    if args.json:
        print(json.dumps({"players": args.players, "target": target, "ranking": table},
                         indent=2))
        return 0
    print(f"target: {', '.join(f'{k} {v:.0%}' for k, v in target.items())}")
    confirmed = [r for r in table if r.get("confirmed")]
    if confirmed:
        print(f"the {len(confirmed)} best of the selection, replayed on {confirmed[0]['games']:,}"
              " fresh games each and ranked on those (the selection's own figures flatter "
              "its winner):")
    for i, row in enumerate(table[: args.top], 1):
        shares = "  ".join(
            f"{k} {row[k]['share']:.1%} [{row[k]['low']:.1%}, {row[k]['high']:.1%}]"
            for k in ("town", "yakuza", "triad", "maniac"))
        if row.get("confirmed"):
            noise = ("closest" if row["closest"] else "within noise of the closest"
                     if row["within_noise_of_best"] else "farther than the closest")
            note = (f"({row['games']:,} fresh games; selection {row['selection']['distance']:.3f}"
                    f" on {row['selection']['games']:,}; {noise})")
        else:
            if i == len(confirmed) + 1:
                print("not confirmed (figures from the selection games, optimistic, not "
                      "comparable with the replayed ones above):")
            note = f"({row['games']:,} selection games)"
        print(f"{i:>2}. distance {row['distance']:.3f}  {note}  {row['composition']}\n"
              f"    {shares}")
        if "exploit" in row:
            ex = row["exploit"]
            big = ex["largest"]
            print(f"    largest gain by a best response (exploit): {big['camp']} "
                  f"{big['gain']:+.2%} [{big['low']:+.2%}, {big['high']:+.2%}]; NashConv "
                  f"{ex['nash_conv']:.2%} [{ex['low']:.2%}, {ex['high']:.2%}]")
            if row["exploitable"]:
                print(f"    not recommended: the {big['camp']} surely gains over "
                      f"{100 * args.max_gain:g} points by playing differently, so the table "
                      "is balanced only while it blunders")
        if row.get("recommended"):
            print("    recommended" + (" (closest of those that hold against each camp's "
                                       "best response)" if "exploit" in row else ""))
    if confirmed and not any(r.get("recommended") for r in confirmed):
        print(f"no table recommended: in every confirmed table a camp surely gains over "
              f"{100 * args.max_gain:g} points by playing differently (--confirm more, or "
              "--max-gain)")
    return 0


def cmd_odds(args: argparse.Namespace) -> int:
    from sim.analysis.odds import odds
    from sim.play.resolve import load_game_file

    game = load_game_file(args.game)
    setup = build_setup(None, agents=args.agents,
                        agent_overrides=parse_assignments(args.agent, "--agent"),
                        params=parse_assignments(args.param, "--param"),
                        params_file=args.params)
    over = game_over(game)
    if over is not None:
        if args.json:
            print(json.dumps({"over": True, **over}, indent=2))
        else:
            w = over["winner"]
            how = f"it ended in a {w}" if w in ("draw", "stalemate") else f"{w} won"
            print(f"the game is over: {how} on turn {over['turn']} ({over['reason']}); "
                  "there is nothing left to play")
        return 0
    res = odds(game, setup, games=args.games, seed=args.seed, jobs=args.jobs)
    if args.json:
        print(json.dumps(res, indent=2))
        return 0
    print(f"from the position after {len(game.get('turns', []))} scripted turns, "
          f"{args.games:,} continuations:")
    for camp in WINNER_KEYS:
        c = res["camps"][camp]
        print(f"{camp:<10} {c['share']:>8.2%}   [{c['low']:.2%}, {c['high']:.2%}]")
    return 0


def game_over(game: dict[str, Any]) -> dict[str, Any] | None:
    """Who won, when the scripted game already ended (None while it goes on)."""
    from sim.play.resolve import resolve

    outcome = resolve(game).get("outcome")
    return outcome if isinstance(outcome, dict) and outcome.get("winner") else None


def cmd_calibrate(args: argparse.Namespace) -> int:
    from sim.analysis.calibrate import calibrate

    base = setup_from_args(args)
    lo, hi = _range(args.range)
    res = calibrate(base, param=args.param_name, target=args.target, lo=lo, hi=hi,
                    points=args.points, games=args.games, seed=args.seed, jobs=args.jobs,
                    camp=args.camp)
    if args.json:
        print(json.dumps(res, indent=2))
        return 0
    for g in res["grid"]:
        print(f"{res['param']} = {g['value']:.3f}: {res['camp']} {g['share']:.2%}")
    if res.get("value") is None:
        print(res.get("note", "no value found"))
    else:
        print(f"{res['camp']} wins {res['target']:.0%} at {res['param']} = {res['value']:.3f} "
              f"(95% interval {res['low']:.3f} to {res['high']:.3f})")
        fit = res["fit"]
        print(f"(logistic fit on the {len(fit['points'])} grid points nearest the target, "
              f"Pearson X2 {fit['pearson_x2']:.1f} on {fit['df']} df, interval widened by "
              f"{fit['dispersion'] ** 0.5:.2f}; straight interpolation between grid points: "
              f"{res['interpolated']:.3f})")
        if "note" in res:
            print(res["note"])
    return 0


def _range(text: str) -> tuple[float, float]:
    try:
        lo, hi = (number(x) for x in text.split(","))
    except (ValueError, argparse.ArgumentTypeError):
        raise InputError(f"--range {text!r}: expected LOW,HIGH, two numbers") from None
    return lo, hi


def cmd_bench(args: argparse.Namespace) -> int:
    from sim.analysis.bench import format_bench, format_profile, profile_games, run_bench

    if args.profile:
        prof = profile_games(players=args.players, agents=args.agents,
                             games=args.games or (300 if args.quick else 1000))
        print(json.dumps(prof, indent=2) if args.json else format_profile(prof))
        return 0
    from sim.analysis.bench import available_builds

    builds = available_builds() if args.build == "both" else (args.build,)
    if args.mixture is not None:
        # read it here, so a bad file is a one-line error before any game is played
        # (the file's own [mixture]: without one the setup would draw the shipped mixture)
        build_setup(None, players=25, params_file=args.mixture, where="--mixture")
        if load_mixture_file(args.mixture) is None:
            raise InputError(f"--mixture {args.mixture}: the file has no [mixture] table "
                             f"(a profile file as `mafia-sim equilibrate --mixture` writes)")
    res = run_bench(quick=args.quick, games=args.games, jobs=args.jobs, builds=builds,
                    rounds=args.rounds or (1 if args.quick else 2), mixture=args.mixture)
    print(json.dumps(res, indent=2) if args.json else format_bench(res))
    return 0


EXACT_CASES = [(4, 1, 1, True), (6, 2, 0, False), (10, 2, 2, True), (15, 4, 4, True),
               (20, 5, 4, True)]


def cmd_exact(args: argparse.Namespace) -> int:
    """The engine's correctness check: uniform games against the exact dynamic program.
    Exit status 1 when an outcome the rules make impossible (exact probability 0) or
    certain (1) is contradicted by any simulated game."""
    from agents.registry import resolve_agent_set
    from sim.analysis.exact import deviation_z, exact_outcome
    from sim.game.roles import Winner
    from sim.game.rules import Composition, RuleSet
    from sim.play.runner import run
    from sim.play.setup import Setup

    rows = []
    worst = 0.0
    failures = []
    for civ, yak, tri, man in EXACT_CASES:
        comp = Composition.from_counts(civilian=civ, yakuza=yak, triad=tri, maniac=int(man))
        setup = Setup(comp, RuleSet(require_vsb=False), resolve_agent_set("uniform"))
        res = run(setup, games=args.games, seed=args.seed, jobs=args.jobs)
        exact = exact_outcome(civ, yak, tri, man)
        row: dict[str, Any] = {"composition": comp.describe(), "players": comp.n}
        for w in (Winner.TOWN, Winner.YAKUZA, Winner.TRIAD, Winner.MANIAC, Winner.DRAW):
            p = exact[w.key]
            wins = int(res.tally.winners[w])
            z = deviation_z(wins, args.games, p)
            row[w.key] = {"exact": p, "simulated": wins / args.games,
                          "z": z if math.isfinite(z) else None}
            if math.isfinite(z):
                worst = max(worst, abs(z))
            else:
                row[w.key]["impossible"] = True
                failures.append(f"{comp.describe()}: {w.key} has exact probability {p:g} "
                                f"but won {wins} of {args.games:,} games")
        rows.append(row)
    if args.json:
        print(json.dumps({"games": args.games, "cases": rows, "max_abs_z": worst,
                          "impossible": failures}, indent=2))
        return 1 if failures else 0
    print(f"uniform game, {args.games:,} games per table: exact / simulated (z)")
    for row in rows:
        print(f"{row['players']:>3} players {row['composition']}")
        print("    " + "  ".join(
            f"{k} {row[k]['exact']:.4f}/{row[k]['simulated']:.4f} "
            + ("(IMPOSSIBLE)" if row[k]["z"] is None else f"({row[k]['z']:+.1f})")
            for k in ("town", "yakuza", "triad", "maniac", "draw")))
    print(f"largest |z| of the possible outcomes: {worst:.2f}")
    for f in failures:
        print(f"FAILED: {f}")
    return 1 if failures else 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    e = sub.add_parser("exact", help="check the engine: uniform games against exact "
                                     "probabilities")
    e.add_argument("--games", type=games_int, default=20_000, metavar="N",
                   help="games per table (default 20000)")
    e.add_argument("--seed", type=seed_int, default=2024, help="run seed (default 2024)")
    add_jobs_arg(e)
    e.add_argument("--json", action="store_true", help="print JSON (default: a table)")
    e.set_defaults(func=cmd_exact)

    s = sub.add_parser("sweep", help="run a grid of setups (SWEEP.toml) into a tidy table")
    s.add_argument("sweep", help="the sweep file (docs: [base], [grid], [[cells]], [run])")
    s.add_argument("--out", metavar="DIR",
                   help="output directory (default runs/<sweep name>: the file's name = "
                        "\"...\", else the file name without .toml)")
    s.add_argument("--resume", action="store_true",
                   help="continue a sweep in DIR, skipping the cells already finished "
                        "(default: refuse a DIR that holds one)")
    s.add_argument("--games", type=games_int, metavar="N",
                   help="games per cell, instead of the file's [run] (default: the file's "
                        "games or precision, else 10000)")
    s.add_argument("--precision", type=probability, metavar="HALF_WIDTH",
                   help="per cell: play until every camp's 95%% half-width is below this, "
                        "instead of the file's [run] (default: the file's)")
    s.add_argument("--params", metavar="FILE",
                   help="a parameter file for the base setup; the base's [agents.params] "
                        "and the cells' param.NAME override it (default: none)")
    s.add_argument("--jobs", type=jobs_int,
                   help=f"worker processes (default: the file's [run] jobs, else "
                        f"{JOBS_DEFAULT}; -1: every core)")
    s.add_argument("--quiet", action="store_true",
                   help="no progress lines (default: one line per cell on stderr)")
    s.set_defaults(func=cmd_sweep)

    c = sub.add_parser("compare", help="two arms on common random numbers: paired "
                                       "differences of win shares")
    add_setup_args(c)
    c.add_argument("b", nargs="?", help="the second arm's TOML setup, the --b-* flags winning "
                                        "over it (default: arm A changed by the --b-* "
                                        "flags)")
    c.add_argument("--b-rule", action="append", default=[], metavar="NAME=VALUE",
                   help="arm B: a rule option changed from arm A (repeatable; default: none)")
    c.add_argument("--b-param", action="append", default=[], metavar="NAME=VALUE",
                   help="arm B: an agent parameter changed from arm A (repeatable; "
                        "default: none)")
    c.add_argument("--b-agent", action="append", default=[], metavar="ROLE=NAME_OR_PATH",
                   help="arm B: the agent of one role (repeatable; default: arm A's)")
    c.add_argument("--b-roles", metavar="COMPOSITION",
                   help="arm B: an inline composition (default: arm A's)")
    c.add_argument("--b-players", type=players_int, metavar="N",
                   help="arm B: the standard table for N players (default: arm A's table)")
    c.add_argument("--b-agents", metavar="SET",
                   help="arm B: the agent set for every role (default: arm A's)")
    c.add_argument("--games", type=games_int, metavar="N",
                   help="paired games per arm (default: the setup file's [run] games, "
                        "else 20000)")
    c.add_argument("--seed", type=seed_int,
                   help="run seed, the same for both arms (default: the setup file's [run] "
                        "seed, else 0)")
    add_jobs_arg(c, default=None, help=f"worker processes (default: the file's [run] jobs, "
                                       f"else {JOBS_DEFAULT}; -1: every core)")
    c.add_argument("--json", action="store_true", help="print JSON (default: a table)")
    c.set_defaults(func=cmd_compare)

    r = sub.add_parser("recommend", help="compositions near the standard table closest to "
                                         "target win shares")
    add_setup_args(r, positional=False)
    r.add_argument("--target", metavar="CAMP=SHARE,...",
                   help="target win shares (default town=0.5,yakuza=0.2,triad=0.2,maniac=0.1)")
    r.add_argument("--games", type=games_int, default=400, metavar="N",
                   help="games per candidate in the first round (default 400)")
    r.add_argument("--rounds", type=positive_int, default=4, metavar="N",
                   help="rounds of successive halving; each doubles the games "
                        "(default 4)")
    r.add_argument("--keep", type=positive_int, default=8, metavar="N",
                   help="stop halving when this many candidates are left (default 8)")
    r.add_argument("--top", type=positive_int, default=5, metavar="N",
                   help="candidates to print (default 5)")
    r.add_argument("--confirm", type=nonneg_int, default=3,
                   help="replay this many of the best on fresh games and rank them on those "
                        "(default: %(default)s)")
    r.add_argument("--confirm-games", type=games_int,
                   help="fresh games per confirmed candidate (default: as many as the "
                        "selection gave it)")
    r.add_argument("--check", type=nonneg_int, default=1, metavar="N",
                   help="play this many of the confirmed best against each camp's best "
                        "response (exploit) and print the largest gain (default 1; 0: no "
                        "check)")
    r.add_argument("--check-games", type=games_int, default=CHECK_GAMES, metavar="N",
                   help=f"the check's confirming games a camp (default {CHECK_GAMES:,})")
    r.add_argument("--check-budget", type=games_int, default=CHECK_BUDGET, metavar="N",
                   help=f"the check's selection games a camp (default {CHECK_BUDGET:,})")
    r.add_argument("--max-gain", type=share, default=MAX_GAIN, metavar="SHARE",
                   help="a checked table is not recommended when a camp's best response "
                        "surely gains more than this share (its interval's lower end above "
                        f"it); the next confirmed table is checked (default {MAX_GAIN})")
    r.add_argument("--seed", type=seed_int, default=0, help="run seed (default 0)")
    add_jobs_arg(r)
    r.add_argument("--json", action="store_true", help="print JSON (default: a table)")
    r.add_argument("--quiet", action="store_true",
                   help="no progress lines (default: one line per round on stderr)")
    r.set_defaults(func=cmd_recommend)

    o = sub.add_parser("odds", help="each camp's chance from a position (resolve schema)")
    o.add_argument("game", help="GAME.json played so far (docs/resolve.md)")
    o.add_argument("--agents", metavar="SET",
                   help="agent set that plays on: heuristic, uniform or random "
                        "(default heuristic)")
    o.add_argument("--agent", action="append", default=[], metavar="ROLE=NAME_OR_PATH",
                   help="agent for one role (repeatable; default: the --agents set)")
    o.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="agent parameter (repeatable; default: documented defaults)")
    o.add_argument("--params", metavar="FILE",
                   help="a parameter file (TOML [params] table); --param flags override it "
                        "(default: none)")
    o.add_argument("--games", type=games_int, default=2000, metavar="N",
                   help="continuations played from the position (default 2000)")
    o.add_argument("--seed", type=seed_int, default=0, help="run seed (default 0)")
    add_jobs_arg(o)
    o.add_argument("--json", action="store_true", help="print JSON (default: a table)")
    o.set_defaults(func=cmd_odds)

    k = sub.add_parser("calibrate", help="the skill at which a camp wins a target share")
    add_setup_args(k)
    k.add_argument("--param-name", default="town_skill", metavar="NAME",
                   help="agent parameter to calibrate (default town_skill)")
    k.add_argument("--camp", default="town", choices=("town", "yakuza", "triad", "maniac"),
                   help="the camp whose win share is calibrated (default town)")
    k.add_argument("--target", type=number, default=0.5, metavar="SHARE",
                   help="the win share wanted, between 0 and 1 (default 0.5)")
    k.add_argument("--range", default="0,2", metavar="LOW,HIGH",
                   help="values of the parameter searched (default 0,2)")
    k.add_argument("--points", type=positive_int, default=9, metavar="N",
                   help="grid points in the range (default 9)")
    k.add_argument("--games", type=games_int, default=2000, metavar="N",
                   help="games per grid point (default 2000)")
    k.add_argument("--seed", type=seed_int, default=0, help="run seed (default 0)")
    add_jobs_arg(k)
    k.add_argument("--json", action="store_true", help="print JSON (default: a table)")
    k.set_defaults(func=cmd_calibrate)

    b = sub.add_parser("bench", help="games per second by table size and agent set")
    b.add_argument("--quick", action="store_true",
                   help="a short run: 1000 games per measurement (default 5000)")
    b.add_argument("--games", type=games_int, metavar="N",
                   help="games per measurement (default 5000, 1000 with --quick)")
    add_jobs_arg(b, help=f"jobs for the parallel figure; 1 leaves it out (default "
                         f"{JOBS_DEFAULT}; -1: every core)")
    b.add_argument("--rounds", type=positive_int, metavar="K",
                   help="measure the standard table (one job and all of them) K times each "
                        "way, alternating, and keep the best of each (default 2, 1 with "
                        "--quick)")
    b.add_argument("--json", action="store_true", help="print JSON (default: a table)")
    b.add_argument("--build", choices=("both", "compiled", "pure", "current"),
                   default="both",
                   help="which build to measure, each in processes of its own: both side "
                        "by side (the default, where a compiled build is installed), one "
                        "of them, or the current process's (what --version names)")
    b.add_argument("--mixture", metavar="FILE",
                   help="also time the standard table on one job under this mixture (a "
                        "profile file with a [mixture], as `equilibrate --mixture` writes) "
                        "beside the single profile, per game and per turn (default: none)")
    b.add_argument("--profile", action="store_true",
                   help="instead: where the time goes (cProfile, one core, top functions)")
    b.add_argument("--players", type=players_int, default=25, metavar="N",
                   help="table for --profile (default 25)")
    b.add_argument("--agents", choices=("heuristic", "uniform", "random"),
                   default="heuristic", help="agent set for --profile (default heuristic)")
    b.set_defaults(func=cmd_bench)
