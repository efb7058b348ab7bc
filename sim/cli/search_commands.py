"""Command-line front ends of sim.analysis.search (exploit, equilibrate) and of
sim.analysis.claims (claims)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from sim.analysis.psro import MetaSolver, Psro, psro
from sim.analysis.search import DEFAULT_BUDGET, DEFAULT_GAMES, BestResponse, planned_games
from sim.cli.commands import (
    add_jobs_arg,
    add_setup_args,
    games_int,
    players_int,
    positive_int,
    seed_int,
    setup_from_args,
)
from sim.game.errors import InputError
from sim.game.params import CAMPS
from sim.play.mixture import Mixture, toml_str, toml_value
from sim.play.setup import Setup, pinned


def _log(msg: str) -> None:
    sys.stderr.write(msg + "\n")


def _bar(args: argparse.Namespace, total: int) -> Any:
    if args.quiet or not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit="game", file=sys.stderr, smoothing=0.1, delay=1.0)


def _camps(args: argparse.Namespace) -> list[str]:
    return list(dict.fromkeys(args.camp)) if args.camp else list(CAMPS)


def _dev_text(dev: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
                     for k, v in dev.items()) or "(none)"


def format_gains(brs: dict[str, BestResponse]) -> list[str]:
    lines = [f"{'camp':<8} {'gain':>8}   paired 95% interval   {'share':>15}  tried  "
             "best deviation"]
    for camp, br in brs.items():
        lines.append(f"{camp:<8} {br.gain:>+8.2%}   [{br.low:+.2%}, {br.high:+.2%}]"
                     f"   {br.base_share:>6.1%} -> {br.share:>5.1%}  {br.tried:>5}  "
                     f"{_dev_text(br.deviation)}"
                     + (" (over its mixture)" if br.overlay else ""))
    return lines


def _check(args: argparse.Namespace, setup: Setup) -> None:
    from sim.analysis.search import seated_camps

    missing = [c for c in _camps(args) if c not in seated_camps(setup, [c])]
    if missing and args.camp:
        raise InputError(f"--camp {', '.join(missing)}: no agent of that camp sits at this "
                         "table with a parameter to move")


def cmd_exploit(args: argparse.Namespace) -> int:
    from sim.analysis.search import Evaluator, exploitability, nash_conv, seated_camps

    setup = setup_from_args(args)
    _check(args, setup)
    camps = seated_camps(setup, _camps(args))
    bar = _bar(args, planned_games(setup, camps, args.games, args.budget))
    ev = Evaluator(setup, seed=args.seed, jobs=args.jobs,
                   progress=bar.update if bar is not None else None)
    t0 = time.perf_counter()
    try:
        brs = exploitability(setup, camps=camps, seed=args.seed, games=args.games,
                             budget=args.budget, evaluator=ev)
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - t0
    nc = nash_conv(brs)
    if args.json:
        print(json.dumps({"games": args.games, "seed": args.seed, "budget": args.budget,
                          "played": ev.played, "seconds": seconds,
                          "setup": setup.describe(), **nc,
                          "camps": {c: br.as_dict() for c, br in brs.items()}}, indent=2))
        return 0
    d = setup.describe()
    print(f"best unilateral deviation per camp: {d['composition']} ({d['players']} players, "
          f"agents: {d['agents']}{', params ' + str(d['params']) if d['params'] else ''})")
    print(f"gain = the camp's own win share under its best deviation minus under the "
          f"profile, on {args.games:,} fresh paired games (seed {args.seed})")
    print("\n".join(format_gains(brs)))
    from sim.play.setup import shipped_mixture

    print(f"NashConv (the camps' gains summed, a loss counting 0): {nc['nash_conv']:+.2%} "
          f"[{nc['low']:+.2%}, {nc['high']:+.2%}]"
          + ("" if setup.mixture is None else " against the shipped mixture"
             if setup.mixture == shipped_mixture(setup.comp.n) else
             " against the mixture of the parameter file"))
    if any(br.gain <= 0 for br in brs.values()):
        print("a gain at or below 0: no deviation tried beats the profile (the best one "
              "found is shown as measured)")
    print(f"{ev.played:,} games played in {seconds:,.0f} s")
    return 0


def write_profile(path: Path, setup: Setup, params: dict[str, Any], header: list[str],
                  mixture: Mixture | None = None) -> None:
    """A parameter file: the header as comments, then `[params]` with flat quoted names,
    and the `[mixture]` when one is given; written whole or not at all."""
    lines = [f"# {h}" if h else "#" for h in header]
    lines += ["", "[params]"]
    lines += [f"{toml_str(k)} = {toml_value(v)}" for k, v in sorted(params.items())]
    if mixture is not None:
        lines += ["", mixture.as_toml().rstrip("\n")]
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    tmp.replace(path)


def user_params(setup: Setup) -> dict[str, Any]:
    """The parameters the user gave, without the table's skills."""
    from sim.engine.info import InfoModel

    return {k: v for k, v in setup.agents.params.items() if k not in InfoModel.PARAMS}


def profile_params(setup: Setup) -> dict[str, Any]:
    """The setup's own agent parameters, without the table's skills: what a profile file
    written by equilibrate or claims carries (the file is self-contained): a mixture file's
    [params] it was given, and the user's parameters over them."""
    return {**setup.profile, **user_params(setup)}


def _gains_text(gains: dict[str, dict[str, Any]]) -> str:
    return "; ".join(f"{c} {g['gain']:+.2%} [{g['low']:+.2%}, {g['high']:+.2%}] by "
                     f"{_dev_text(g['deviation'])}" for c, g in gains.items())


def cmd_equilibrate(args: argparse.Namespace) -> int:
    from sim.analysis.search import equilibrate, seated_camps
    from sim.engine.info import InfoModel

    if not 0 <= args.tolerance < 1:
        raise InputError(f"--tolerance must be a share in [0, 1), got {args.tolerance}")
    if not 0 <= args.start_weight <= 1:
        raise InputError(f"--start-weight must be a weight in [0, 1], got {args.start_weight}")
    setup = setup_from_args(args)
    _check(args, setup)
    camps = seated_camps(setup, _camps(args))
    if args.start_weight > 0 and (not args.mixture or setup.mixture is None):
        raise InputError("--start-weight picks the profiles PSRO starts from: it needs "
                         "--mixture and a --params file with a [mixture]")
    if args.also_players and not args.mixture:
        raise InputError("--also-players solves one mixture over several table sizes: it "
                         "needs --mixture")
    if args.mixture:
        return _equilibrate_mixture(args, setup, camps)
    bar = _bar(args, args.rounds * planned_games(setup, camps, args.games, args.budget))
    t0 = time.perf_counter()
    try:
        eq = equilibrate(setup, camps=camps, tolerance=args.tolerance, rounds=args.rounds,
                         seed=args.seed, games=args.games, budget=args.budget,
                         jobs=args.jobs, progress=bar.update if bar is not None else None,
                         log=None if args.quiet else (bar.write if bar is not None else _log))
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - t0
    # The file is self-contained: the setup's own agent parameters (not the table's skills)
    # with the profile found on top.
    params = profile_params(setup)
    params.update(eq.profile)
    skills = {k: v for k, v in setup.agents.params.items() if k in InfoModel.PARAMS}
    d = setup.describe()
    chosen = eq.rounds[eq.round - 1]
    verdict = {
        "converged": f"converged: no camp gains more than {args.tolerance:.2%}",
        "cycle": f"best response CYCLES (rounds {', '.join(map(str, eq.cycle))} come back to "
                 f"the same profile); chosen: the profile with the smallest largest gain",
        "rounds": f"did not settle in {args.rounds} rounds; chosen: the profile with the "
                  "smallest largest gain",
    }[eq.status]
    header = [
        "mafia-sim equilibrate: agent parameters at an approximate equilibrium",
        f"table: {d['composition']} ({d['players']} players), rules {d['rules'] or 'standard'}"
        f", agents {d['agents']}" + (f", skills {skills}" if skills else ""),
        f"seed {args.seed} (round r plays seed {args.seed} + r - 1), confirming games "
        f"{args.games}, selection budget {args.budget} per camp, tolerance "
        f"{args.tolerance:g}, {eq.played} games in {seconds:.0f} s",
        verdict,
        f"final gains (round {eq.round}, largest {eq.max_gain():+.2%}): "
        + _gains_text(chosen["gains"]),
        "",
        "every round (profile searched from, each camp's best response):",
    ]
    for h in eq.rounds:
        header.append(f"round {h['round']}: profile {_dev_text(h['profile'])}")
        header.append(f"  gains: {_gains_text(h['gains'])}"
                      + (f"; adopted: {', '.join(h['adopted'])}" if h["adopted"] else ""))
    out = Path(args.out)
    write_profile(out, setup, params, header)
    if args.json:
        print(json.dumps({"out": str(out), "seed": args.seed, "games": args.games,
                          "budget": args.budget, "tolerance": args.tolerance,
                          "seconds": seconds, "setup": d, "params": params,
                          **eq.as_dict()}, indent=2))
        return 0
    print(verdict)
    print(f"chosen profile (round {eq.round}): {_dev_text(eq.profile)}")
    print(f"its best responses (largest gain {eq.max_gain():+.2%}):")
    print("\n".join(f"  {c:<8} {g['gain']:>+7.2%}   [{g['low']:+.2%}, {g['high']:+.2%}]   "
                    f"{_dev_text(g['deviation'])}" for c, g in chosen["gains"].items()))
    print(f"written to {out} ({eq.played:,} games in {seconds:,.0f} s)")
    return 0


def cmd_claims(args: argparse.Namespace) -> int:
    from sim.analysis.claims import CONTEXTS, measure

    setup = setup_from_args(args)
    t0 = time.perf_counter()
    res = measure(setup, games=args.games, seed=args.seed, jobs=args.jobs)
    seconds = time.perf_counter() - t0
    d = setup.describe()
    if args.out:
        params = profile_params(setup)
        params.update(res.params())
        header = [
            "mafia-sim claims: Town's trust in a hero claim, measured under this profile",
            f"table: {d['composition']} ({d['players']} players), rules "
            f"{d['rules'] or 'standard'}, agents {d['agents']}",
            f"{args.games} games, seed {args.seed}: "
            + "; ".join(f"{name} = {res.trust(k)[0]:+.2f} [{res.trust(k)[1]:+.2f}, "
                        f"{res.trust(k)[2]:+.2f}]" for k, (_, name) in enumerate(CONTEXTS)),
        ]
        write_profile(Path(args.out), setup, params, header)
    if args.json:
        print(json.dumps({"seed": args.seed, "seconds": seconds, "setup": d,
                          "out": args.out, "params": res.params(), **res.as_dict()},
                         indent=2))
        return 0
    print(f"hero claims by camp: {d['composition']} ({d['players']} players, agents "
          f"{d['agents']}{', params ' + str(d['params']) if d['params'] else ''}), "
          f"{args.games:,} games, seed {args.seed}")
    print(f"{'context':<9} {'Town claims/chances':>22} {'enemy claims/chances':>22}   "
          "trust (log-odds toward Town)   parameter")
    for k, (context, name) in enumerate(CONTEXTS):
        c = res.counts[k]
        est, lo, hi = res.trust(k)
        print(f"{context:<9} {f'{c[0, 1]:,}/{c[0, 0]:,}':>22} {f'{c[1, 1]:,}/{c[1, 0]:,}':>22}"
              f"   {est:+6.2f} [{lo:+.2f}, {hi:+.2f}]        {name}")
    print("chances: under the rope, the days a player led the vote with 2+ votes; off the "
          "rope, the days he began alive")
    if args.out:
        print(f"written to {args.out} (the profile's parameters with the trust measured)")
    print(f"{res.games:,} games in {seconds:,.0f} s")
    return 0


def _share(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None


def _search_args(p: argparse.ArgumentParser) -> None:
    add_setup_args(p)
    p.add_argument("--games", type=games_int, default=DEFAULT_GAMES,
                   help="confirming games of each camp's best deviation, paired with the "
                        f"profile on fresh seeds (default {DEFAULT_GAMES:,})")
    p.add_argument("--budget", type=games_int, default=DEFAULT_BUDGET,
                   help="selection games per camp, spent by successive halving over its "
                        f"deviations (default {DEFAULT_BUDGET:,})")
    p.add_argument("--seed", type=seed_int, default=0, help="run seed (default 0)")
    add_jobs_arg(p)
    p.add_argument("--camp", action="append", choices=CAMPS, default=[],
                   help="search this camp only (repeatable; default: all four)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar or log")


def _equilibrate_mixture(args: argparse.Namespace, setup: Setup, camps: list[str]) -> int:
    """equilibrate --mixture: PSRO; the file holds the setup's parameters and the mixture,
    written after every round, so that a run stopped (Ctrl-C, a crash) keeps the rounds it
    finished and `--params FILE` continues it."""
    also = _other_sizes(args, setup)
    per_round = sum(args.table_games + planned_games(x, camps, args.games, args.budget)
                    for x in (setup, *also))
    bar = _bar(args, args.rounds * per_round)
    t0 = time.perf_counter()
    out = Path(args.out)
    done: list[int] = []

    def checkpoint(res: Psro) -> None:
        _write_mixture(args, setup, res, out, time.perf_counter() - t0, final=False)
        done.append(len(res.rounds))

    try:
        res = psro(setup, camps=camps, rounds=args.rounds, tolerance=args.tolerance,
                   seed=args.seed, table_games=args.table_games, games=args.games,
                   budget=args.budget, jobs=args.jobs,
                   progress=bar.update if bar is not None else None,
                   log=None if args.quiet else (bar.write if bar is not None else _log),
                   checkpoint=checkpoint, solver=MetaSolver(args.meta_solver),
                   start_weight=args.start_weight, also=also)
    except KeyboardInterrupt:
        if done:
            sys.stderr.write(f"mafia-sim: {out} holds round {done[-1]}'s mixture, the last "
                             f"finished; --params {out} continues from it\n")
        raise
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - t0
    _write_mixture(args, setup, res, out, seconds, final=True)
    last = res.rounds[res.chosen - 1]
    if args.json:
        print(json.dumps({"out": str(out), "seed": args.seed, "seconds": seconds,
                          "setup": setup.describe(), **res.as_dict()}, indent=2))
        return 0
    print(_mixture_verdict(args, res, final=True))
    for camp, comps in res.mixture.camps.items():
        print(f"  {camp:<8} " + "; ".join(f"{c.weight:.2f}: {_dev_text(dict(c.params))}"
                                          for c in comps))
    print(f"NashConv {last['nash_conv']:+.2%} [{last['low']:+.2%}, {last['high']:+.2%}]"
          + (" (the largest over the sizes)" if "by_players" in last else ""))
    for n, b in last.get("by_players", {}).items():
        print(f"  at {n} players: NashConv {b['nash_conv']:+.2%} [{b['low']:+.2%}, "
              f"{b['high']:+.2%}]")
    print(f"written to {out} ({res.played:,} games in {seconds:,.0f} s)")
    return 0


def _other_sizes(args: argparse.Namespace, setup: Setup) -> list[Setup]:
    """The setups of --also-players: the same arguments at each other standard table size;
    a size given twice, or the --players size itself, is an error."""
    sizes = list(args.also_players)
    if not sizes:
        return []
    if args.roles or getattr(args, "setup", None):
        raise InputError("--also-players plays the standard table at each size: it cannot "
                         "go with --roles or a setup file")
    if setup.comp.n in sizes or len(set(sizes)) < len(sizes):
        raise InputError(f"--also-players: each size once, and not the --players size "
                         f"({setup.comp.n}); got {', '.join(map(str, sizes))}")
    return [setup_from_args(argparse.Namespace(**{**vars(args), "players": n}))
            for n in sizes]


def _sizes_text(sizes: list[int]) -> str:
    """Table sizes in words: 20 and 25; 20, 25 and 30."""
    *head, last = sorted(sizes)
    return f"{', '.join(map(str, head))} and {last}" if head else str(last)


def _mixture_verdict(args: argparse.Namespace, res: Psro, final: bool) -> str:
    if res.status == "converged":
        return f"converged: no camp gains more than {args.tolerance:.2%} against the mixture"
    done = len(res.rounds)
    head = (f"not settled in {args.rounds} rounds" if final else
            f"round {done} of {args.rounds} finished (a later round may have been stopped)")
    nc = ", ".join(f"{h['nash_conv']:.2%}" for h in res.rounds)
    return (f"{head}: chosen, round {res.chosen}'s mixture, the smallest NashConv of the "
            f"rounds ({nc}); a minimum of noisy figures is optimistic, so confirm it with "
            f"exploit --params on fresh seeds")


def _write_mixture(args: argparse.Namespace, setup: Setup, res: Psro, out: Path,
                   seconds: float, final: bool) -> None:
    """The mixture file: a header of how it was found and the last payoff table, the
    setup's own parameters, the mixture and the populations' other profiles at weight 0."""
    d = setup.describe()
    last = res.rounds[res.chosen - 1]
    header = [
        "mafia-sim equilibrate --mixture: a mixed equilibrium by PSRO (sim.analysis.psro)",
        f"table: {d['composition']} ({d['players']} players), rules {d['rules'] or 'standard'}"
        f", agents {d['agents']}",
        *([f"one mixture over {_sizes_text([d['players'], *args.also_players])} "
           f"players: NashConv and gains are the largest over the sizes"]
          if getattr(args, "also_players", None) else []),
        f"seed {args.seed} (round r plays seed {args.seed} + r - 1), payoff table "
        f"{args.table_games} games a round, confirming games {args.games}, selection "
        f"budget {args.budget} per camp, tolerance {args.tolerance:g}, meta-solver "
        f"{args.meta_solver}, {res.played} games "
        f"in {seconds:.0f} s",
        *([f"populations started from the --params file's profiles of weight at least "
           f"{args.start_weight:g} (each camp's heaviest always)"] if args.start_weight else []),
        _mixture_verdict(args, res, final),
        f"NashConv {last['nash_conv']:+.2%} [{last['low']:+.2%}, {last['high']:+.2%}]; "
        "gains: " + _gains_text(last["gains"]),
        *(f"  at {n} players: NashConv {b['nash_conv']:+.2%} [{b['low']:+.2%}, "
          f"{b['high']:+.2%}]; gains: {_gains_text(b['gains'])}"
          for n, b in last.get("by_players", {}).items()),
        f"round {res.chosen}'s payoff table ({last['table_games']:,} games): each profile's "
        "weight and its win share against the others' weights, with its 95% half-width:",
        *(f"  {camp}: " + "; ".join(f"{e['weight']:.3f} {e['value']:.1%} ±{e['half_width']:.1%}"
                                    f" ({_dev_text(e['profile'])})" for e in entries)
          for camp, entries in last.get("table", {}).items()),
        "profiles at weight 0 are never drawn: the answers of the last round, not weighed yet, "
        "and those the solver dropped, kept for a run continued with --params",
    ]
    # the file's [params] stand under its mixture's profiles (build_setup): the --params
    # file's [params] go there as they came; the user's names won over every profile in
    # this run, so they are pinned where a profile's name would beat them (`pinned`)
    mixture = res.with_population()
    write_profile(out, setup, {**setup.profile,
                               **pinned(setup.agents, mixture, user_params(setup))},
                  header, mixture)


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Register exploit and equilibrate."""
    e = sub.add_parser("exploit", help="how far each camp could raise its own win share by "
                                       "playing differently (best unilateral deviation)")
    _search_args(e)
    e.set_defaults(func=cmd_exploit)

    q = sub.add_parser("equilibrate", help="iterated best response over the camps' "
                                           "parameters; writes a parameter file")
    _search_args(q)
    q.add_argument("--out", required=True, metavar="PROFILE.toml",
                   help="the parameter file to write (required)")
    q.add_argument("--tolerance", type=_share, default=0.01,
                   help="stop when no camp gains more than this share (default 0.01)")
    q.add_argument("--rounds", type=positive_int, default=5,
                   help="most rounds of best response (default 5)")
    q.add_argument("--mixture", action="store_true",
                   help="find a mixed equilibrium by PSRO (sim.analysis.psro) and write it "
                        "as a mixture ([mixture], which --params FILE reads everywhere)")
    q.add_argument("--table-games", type=games_int, default=8000,
                   help="with --mixture: games of each round's payoff table (default 8,000)")
    q.add_argument("--start-weight", type=_share, default=0.0, metavar="W",
                   help="with --mixture and a --params file holding a [mixture]: start each "
                        "camp's population from the file's profiles of weight at least W "
                        "(its heaviest always), so that each round's payoff table spends its "
                        "games on fewer cells (default 0: every profile of the file)")
    q.add_argument("--meta-solver", choices=[m.value for m in MetaSolver],
                   default=MetaSolver.AVERAGE.value,
                   help="with --mixture: how each round's payoff table is solved: the time "
                        "average of the replicator dynamics (average), their best iterate "
                        "by the table's own NashConv (best), or the iterate whose weights, "
                        "solved on half the table's games, leave the least NashConv on the "
                        "other half (crossval) (default average)")
    q.add_argument("--also-players", type=players_int, action="append", default=[],
                   metavar="N",
                   help="with --mixture: solve one mixture that holds at this table size "
                        "too (repeatable): each round's payoff table adds --table-games "
                        "games at every size, and each camp's best response is searched at "
                        "every size; gains and NashConv are the largest over the sizes "
                        "(default: the --players table alone)")
    q.set_defaults(func=cmd_equilibrate)

    c = sub.add_parser("claims", help="how often each camp claims a hero role, under the rope "
                                      "and off it, and the trust Town should give each claim "
                                      "(a log-likelihood ratio); --out writes it as a profile")
    add_setup_args(c)
    c.add_argument("--games", type=games_int, default=4000,
                   help="games to count claims in (default 4,000)")
    c.add_argument("--seed", type=seed_int, default=0, help="run seed (default 0)")
    add_jobs_arg(c)
    c.add_argument("--out", metavar="PROFILE.toml",
                   help="write the profile's parameters with town.rope_trust and "
                        "town.hero_claim set to the trust measured")
    c.add_argument("--json", action="store_true", help="print the result as JSON")
    c.set_defaults(func=cmd_claims)
