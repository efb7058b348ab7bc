#!/usr/bin/env python3
"""Measure each camp's best gain and NashConv on the standard tables (issue 24, point 3) and
keep them in sim/data/nash_conv.csv, the file the host's page and results/README.md read
beside the win shares.

    scripts/nash_conv.py --players 20,25,30 --games 3000 --budget 30000 --seed 41 --jobs 2

plays `mafia-sim exploit` on each standard table against the default agents (or `--params
FILE`, labelled with its name) and replaces the rows of the same table size and profile.

    scripts/nash_conv.py --from-json results/exploit/exploit_25.json [--label default]

records a run already made (`mafia-sim exploit --json` output, its table size and budgets
read from the file) instead of playing one again.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "sim" / "data" / "nash_conv.csv"
CAMPS = ("town", "yakuza", "triad", "maniac")
COLUMNS = (["players", "profile"]
           + [f"{c}_{k}" for c in CAMPS for k in ("gain", "low", "high", "tried", "deviation")]
           + ["nash_conv", "nash_conv_low", "nash_conv_high", "games", "budget", "seed",
              "played", "seconds", "date", "command"])


def main() -> int:
    from sim.analysis.search import Evaluator, exploitability, nash_conv
    from sim.play.setup import build_setup

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="20,25,30")
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--budget", type=int, default=30_000)
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--params", help="a parameter file (profile or mixture); default: the "
                                     "agents' default")
    ap.add_argument("--single-profile", action="store_true",
                    help="the shipped single profile, not the shipped mixture (label "
                         "shipped_single)")
    ap.add_argument("--label", help="the profile's label in the file (default: 'default', "
                                    "or the --params file's name)")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--from-json", type=Path, action="append", default=[],
                    help="record this `mafia-sim exploit --json` output instead of playing "
                         "(repeatable; label 'default' unless --label)")
    args = ap.parse_args()
    if args.from_json:
        return record(args.from_json, args.label or "default", args.out)
    label = args.label or (Path(args.params).stem if args.params else
                           "shipped_single" if args.single_profile else "default")
    rows = []
    if args.out.is_file():
        with args.out.open(encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    for n in (int(x) for x in args.players.split(",")):
        setup = build_setup(players=n, params_file=args.params,
                            single_profile=args.single_profile)
        ev = Evaluator(setup, seed=args.seed, jobs=args.jobs)
        t0 = time.perf_counter()
        brs = exploitability(setup, seed=args.seed, games=args.games, budget=args.budget,
                             evaluator=ev)
        nc = nash_conv(brs)
        row: dict[str, object] = {"players": n, "profile": label}
        for c in CAMPS:
            br = brs.get(c)
            if br is None:
                continue
            row |= {f"{c}_gain": f"{br.gain:.5f}", f"{c}_low": f"{br.low:.5f}",
                    f"{c}_high": f"{br.high:.5f}", f"{c}_tried": br.tried,
                    f"{c}_deviation": ("over its mixture: " if br.overlay else "")
                    + "; ".join(f"{k}={v}" for k, v in br.deviation.items())}
        row |= {"nash_conv": f"{nc['nash_conv']:.5f}", "nash_conv_low": f"{nc['low']:.5f}",
                "nash_conv_high": f"{nc['high']:.5f}", "games": args.games,
                "budget": args.budget, "seed": args.seed, "played": ev.played,
                "seconds": round(time.perf_counter() - t0),
                "date": datetime.date.today().isoformat(),
                "command": (f"mafia-sim exploit --players {n} --games {args.games} --budget "
                            f"{args.budget} --seed {args.seed} --jobs {args.jobs}"
                            + (f" --params {args.params}" if args.params else "")
                            + (" --single-profile" if args.single_profile else ""))}
        rows = replace_row(rows, row, args.out)  # after every table
        print(f"{n} players ({label}): NashConv {nc['nash_conv']:+.2%} "
              f"[{nc['low']:+.2%}, {nc['high']:+.2%}]; " + ", ".join(
                  f"{c} {br.gain:+.2%} [{br.low:+.2%}, {br.high:+.2%}] ({br.tried} tried)"
                  for c, br in brs.items()), flush=True)
    return 0


def replace_row(rows: list[dict[str, str]], row: dict[str, object],
                out: Path) -> list[dict[str, str]]:
    """The rows with `row` in place of the one of its table size and profile, written."""
    rows = [r for r in rows if not (str(r["players"]) == str(row["players"])
                                    and r["profile"] == row["profile"])]
    rows.append({k: str(v) for k, v in row.items()})
    rows.sort(key=lambda r: (r["profile"], int(r["players"])))
    with out.open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        w.writerows(rows)
    return rows


def same_as_default(measured: dict[str, object], default: dict[str, object]) -> bool:
    """Whether a run's setup is today's default: the same setup, or the same one given as a
    `--params` file whose mixture is the shipped one and whose `[params]` are the shipped
    file's (the file a PSRO run writes, before it is shipped: the very same games)."""
    from agents.registry import default_profile

    if measured == default:
        return True
    rest = {k: v for k, v in measured.items() if k != "profile_params"}
    return (rest == default and "profile_params" not in default
            and measured.get("profile_params") == default_profile())


def record(files: list[Path], label: str, out: Path) -> int:
    """Rows from `mafia-sim exploit --json` outputs: the run's camps as they were measured
    (the same columns a run of this script writes), dated by the file."""
    rows: list[dict[str, str]] = []
    if out.is_file():
        with out.open(encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    for path in files:
        try:
            d = json.loads(path.read_text(encoding="utf-8"))
            n, camps = int(d["setup"]["players"]), d["camps"]
            games, budget, seed = d["games"], d["budget"], d["seed"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            print(f"error: {path}: not a `mafia-sim exploit --json` output ({e})",
                  file=sys.stderr)
            return 2
        if label == "default":
            # a run against another profile is not the default's row
            from sim.play.setup import build_setup
            now = json.loads(json.dumps(build_setup(players=n).describe()))
            if not same_as_default(d["setup"], now):
                print(f"error: {path}: its setup is not today's default at {n} players "
                      "(give --label)", file=sys.stderr)
                return 2
        row: dict[str, object] = {"players": n, "profile": label}
        for c in CAMPS:
            br = camps.get(c)
            if br is None:
                continue
            row |= {f"{c}_gain": f"{br['gain']:.5f}", f"{c}_low": f"{br['low']:.5f}",
                    f"{c}_high": f"{br['high']:.5f}", f"{c}_tried": br["tried"],
                    f"{c}_deviation": ("over its mixture: " if br.get("overlay") else "")
                    + "; ".join(f"{k}={v}" for k, v in br["deviation"].items())}
        row |= {"nash_conv": f"{d['nash_conv']:.5f}", "nash_conv_low": f"{d['low']:.5f}",
                "nash_conv_high": f"{d['high']:.5f}", "games": games, "budget": budget,
                "seed": seed, "played": d.get("played", ""),
                "seconds": round(d.get("seconds", 0)),
                "date": datetime.date.fromtimestamp(path.stat().st_mtime).isoformat(),
                "command": (f"mafia-sim exploit --players {n} --games {games} --budget "
                            f"{budget} --seed {seed} --jobs 2 --json"
                            f" (recorded from {path.name})")}
        rows = replace_row(rows, row, out)
        print(f"{n} players ({label}): NashConv {d['nash_conv']:+.2%} from {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
