#!/usr/bin/env python3
"""Take a camp's multi-parameter answer apart: each change alone, each leave-one-out and the
whole answer, over the default agents (or `--params FILE`), on the same fresh paired games:

    scripts/decompose_answer.py --players 25 --games 6000 --seed 29 --jobs 2 --camp town \\
        --param town.counterclaim=3 --param town.counter=0 \\
        --param ninja.threshold=0.6 --param town.defend_at=0.1

Every row plays exploit's confirming range (`CONFIRM_BASE`) of `--seed`, so a row is what
`mafia-sim compare --b-param ...` with the same changes finds on those games. A change over a
mixture is applied on top of every profile of the camp's mixture, as `--param` does. It shows
which changes carry the gain, and whether the parts gain alone (what a search built from
single moves needs to reach the whole).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from sim.analysis.compare import paired_compare
    from sim.analysis.search import CONFIRM_BASE, Evaluator
    from sim.game.errors import InputError
    from sim.game.params import CAMPS
    from sim.play.setup import build_setup, parse_assignments

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=25)
    ap.add_argument("--games", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=29)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--camp", choices=CAMPS, required=True)
    ap.add_argument("--param", action="append", required=True, metavar="NAME=VALUE")
    ap.add_argument("--params", type=Path, default=None, metavar="FILE")
    a = ap.parse_args()
    try:
        given = parse_assignments(a.param, "--param")
        setup = build_setup(players=a.players, params_file=a.params)
        # the values as the agents read them (an unknown name or a value out of range
        # fails here, in one line)
        typed = build_setup(players=a.players, params_file=a.params, params=given)
    except (InputError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    answer = {k: typed.agents.params[k] for k in given}
    rows: list[tuple[str, dict]] = [(f"{k}={v} alone", {k: v}) for k, v in answer.items()]
    if len(answer) > 2:
        rows += [(f"all but {k}", {j: w for j, w in answer.items() if j != k})
                 for k in answer]
    rows.append(("all", dict(answer)))
    ev = Evaluator(setup, seed=a.seed, jobs=a.jobs)
    base = ev.winners({}, CONFIRM_BASE, a.games)
    print(f"{a.camp}'s gain over {a.players} players, {a.games:,} paired games (seed {a.seed}, "
          f"exploit's confirming range), in points:")
    for name, dev in rows:
        c = paired_compare(base, ev.winners(dev, CONFIRM_BASE, a.games))[a.camp]
        print(f"  {name:40s} {c['diff'] * 100:+6.2f} [{c['low'] * 100:+.2f}, "
              f"{c['high'] * 100:+.2f}]", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
