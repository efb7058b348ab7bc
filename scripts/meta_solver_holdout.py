"""How well each meta-solver's weights hold on games they were not solved on (issue 24).

On a population of profiles (a mixture file's, weight-0 profiles included), two payoff
tables are played on independent seeds. Each meta-solver (`MetaSolver`) solves one table;
its weights are scored by the restricted NashConv they leave on the other table (each
camp's best profile of the population over what its weights earn, summed), and the other
way round. A meta-solver that fits its table's noise has a small NashConv on its own table
and a large one on the other. The held-out figure carries the second table's own noise
(its best profile is picked on it), the same for every solver, so compare solvers by it
and do not read it as an absolute.

Run: .venv/bin/python scripts/meta_solver_holdout.py --params results/profiles/mixture_25h.toml \\
         --players 25 --games 100000 --seeds 301,302 --jobs 2 [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from sim.analysis.psro import (
    MetaSolver,
    payoff_table,
    restricted_nash_conv,
    restricted_regrets,
    solve_table,
)
from sim.game.errors import InputError
from sim.play.mixture import CAMPS
from sim.play.setup import build_setup, load_mixture_file


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--params", required=True,
                    help="a mixture file whose profiles (all, weight 0 included) are the "
                         "population")
    ap.add_argument("--players", type=int, default=25)
    ap.add_argument("--games", type=int, default=100_000, help="games of each table")
    ap.add_argument("--seeds", default="301,302", help="the two tables' seeds")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="one JSON object a line")
    args = ap.parse_args(argv)
    try:
        setup = build_setup(None, players=args.players, params_file=args.params)
        # the file's own [mixture]: a file without one would otherwise play the shipped
        # mixture (build_setup's default), not the population asked for
        mixture = load_mixture_file(args.params)
        seeds = [int(x) for x in args.seeds.split(",")]
    except (InputError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if mixture is None:
        print(f"error: {args.params} has no [mixture]: the population is a mixture's "
              "profiles", file=sys.stderr)
        return 2
    if len(seeds) != 2:
        print(f"error: --seeds {args.seeds}: two seeds, one a table, are needed",
              file=sys.stderr)
        return 2
    pops = {c: [dict(x.params) for x in comps] for c, comps in mixture.camps.items()}
    tables = [payoff_table(setup, pops, games=args.games, seed=s, jobs=args.jobs)
              for s in seeds]
    rows = []
    for fit, other in ((0, 1), (1, 0)):
        for solver in MetaSolver:
            started = time.monotonic()
            sigma = solve_table(tables[fit], solver)
            held = restricted_regrets(tables[other], sigma)
            rows.append({"solved_on_seed": seeds[fit], "scored_on_seed": seeds[other],
                         "solver": solver.value,
                         "own_table_nash_conv": restricted_nash_conv(tables[fit], sigma),
                         "held_out_nash_conv": sum(held.values()),
                         "held_out": held,
                         "largest_weight": {c: float(w.max())
                                            for c, w in zip(CAMPS, sigma, strict=True)},
                         "seconds": round(time.monotonic() - started, 1)})
    if args.json:
        for r in rows:
            print(json.dumps(r))
        return 0
    sizes = "x".join(str(len(pops.get(c, [{}]))) for c in CAMPS)
    print(f"population {sizes} ({args.params}), {args.players} players, "
          f"{args.games:,} games a table, seeds {seeds[0]} and {seeds[1]}")
    print("| solved on | solver | NashConv on its table | NashConv on the other | "
          "largest weight (town/yakuza/triad/maniac) |")
    print("|---|---|---|---|---|")
    for r in rows:
        print(f"| seed {r['solved_on_seed']} | {r['solver']} | "
              f"{100 * r['own_table_nash_conv']:.2f} | {100 * r['held_out_nash_conv']:.2f} | "
              + "/".join(f"{r['largest_weight'][c]:.2f}" for c in CAMPS) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
