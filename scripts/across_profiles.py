#!/usr/bin/env python3
"""Do the headline findings hold across the default mixture's profiles? (issue 24, point 4)

The default agents play a mixture: each game, each camp plays one of its profiles, drawn
by weight. A finding read off the mixture is an average over those profiles; this script
plays it again with one camp held to one of its profiles (weight above 0), the other camps
keeping their mixture, on the same seeds as the default (common random numbers):

- each camp's win share on the standard table, at each table size given;
- the value of a role to its camp under each of that camp's profiles (the commissar and
  sergeant to Town, the kamikaze to the Yakuza, the thug to the Triad): the camp's share
  with the role minus without it (the role replaced as study 04 does), paired.

    scripts/across_profiles.py --players 25,20,30 --games 10000 --seed 5 --jobs 2

writes results/across_profiles.csv (one row per table size, camp held, profile, cell and
camp measured) and results/across_profiles.md (the tables, in words).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
CAMPS = ("town", "yakuza", "triad", "maniac")

#: the role values measured under each profile of the role's own camp (the cell settings
#: of studies/04_role_values.toml)
ROLE_VALUES: dict[str, tuple[str, dict[str, int]]] = {
    "town": ("commissar+sergeant", {"role.commissar": 0, "role.sergeant": 0}),
    "yakuza": ("kamikaze", {"role.kamikaze": 0}),
    "triad": ("thug", {"role.thug": 0}),
}


def describe(params: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
                     for k, v in sorted(params.items())) or "the single profile ([params])"


def main() -> int:
    from sim.analysis.sweep import cell_setup
    from sim.game.roles import Winner
    from sim.play.runner import run
    from sim.play.setup import build_setup
    from sim.play.stats import paired_diff_interval, share_interval

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="25,20,30")
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--min-weight", type=float, default=0.02,
                    help="hold only profiles of at least this weight (default 0.02)")
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "across_profiles")
    args = ap.parse_args()
    sizes = [int(x) for x in args.players.split(",")]
    started = time.perf_counter()
    rows: list[dict[str, Any]] = []

    def play(setup: Any) -> np.ndarray:
        res = run(setup, games=args.games, seed=args.seed, jobs=args.jobs, keep_rows=True)
        assert res.rows is not None
        return np.asarray(res.rows[:, 1])

    def shares(w: np.ndarray) -> dict[str, tuple[float, float, float]]:
        out = {}
        for camp in CAMPS:
            wins = int(np.count_nonzero(w == Winner[camp.upper()]))
            lo, hi = share_interval(wins, len(w))
            out[camp] = (wins / len(w), lo, hi)
        return out

    def diff(a: np.ndarray, b: np.ndarray, camp: str) -> tuple[float, float, float]:
        k = Winner[camp.upper()]
        b_only = int(np.count_nonzero((b == k) & (a != k)))
        a_only = int(np.count_nonzero((a == k) & (b != k)))
        return paired_diff_interval(b_only, a_only, len(a))

    for n in sizes:
        base = build_setup(None, players=n)
        mixture = base.mixture
        if mixture is None:
            print("the default agents play no mixture: nothing to hold", file=sys.stderr)
            return 2
        spec = {"players": n}
        default_w = play(base)
        default_shares = shares(default_w)
        for camp in CAMPS:
            s, lo, hi = default_shares[camp]
            rows.append({"players": n, "held": "", "profile": -1, "weight": 1.0,
                         "params": "the mixture", "cell": "standard", "camp": camp,
                         "value": s, "low": lo, "high": hi, "vs_default": 0.0,
                         "vs_low": 0.0, "vs_high": 0.0})
        role_default: dict[str, tuple[float, float, float]] = {}
        for camp, (label, key) in ROLE_VALUES.items():
            without = play(cell_setup(spec, key, "across_profiles"))
            role_default[camp] = diff(without, default_w, camp)
            v, lo, hi = role_default[camp]
            rows.append({"players": n, "held": "", "profile": -1, "weight": 1.0,
                         "params": "the mixture", "cell": f"value of {label}", "camp": camp,
                         "value": v, "low": lo, "high": hi, "vs_default": 0.0,
                         "vs_low": 0.0, "vs_high": 0.0})
        for camp in CAMPS:
            for i, comp in enumerate(mixture.camps.get(camp, ())):
                if comp.weight <= 0 or comp.weight < args.min_weight:
                    continue
                held = mixture.fixed(camp, comp.params)
                w = play(dataclasses.replace(base, mixture=held))
                got = shares(w)
                for c in CAMPS:
                    s, lo, hi = got[c]
                    d, dlo, dhi = diff(default_w, w, c)
                    rows.append({"players": n, "held": camp, "profile": i,
                                 "weight": comp.weight, "params": describe(dict(comp.params)),
                                 "cell": "standard", "camp": c, "value": s, "low": lo,
                                 "high": hi, "vs_default": d, "vs_low": dlo, "vs_high": dhi})
                if camp in ROLE_VALUES:
                    label, key = ROLE_VALUES[camp]
                    setup_without = cell_setup(spec, key, "across_profiles")
                    wo = play(dataclasses.replace(setup_without, mixture=held))
                    v, lo, hi = diff(wo, w, camp)
                    rows.append({"players": n, "held": camp, "profile": i,
                                 "weight": comp.weight, "params": describe(dict(comp.params)),
                                 "cell": f"value of {label}", "camp": camp, "value": v,
                                 "low": lo, "high": hi,
                                 "vs_default": v - role_default[camp][0],
                                 "vs_low": float("nan"), "vs_high": float("nan")})
                print(f"{n} players, {camp} profile {i} ({comp.weight:.3f}): Town "
                      f"{100 * got['town'][0]:.1f}%  [{time.perf_counter() - started:.0f} s]",
                      flush=True)
    import pandas as pd

    df = pd.DataFrame(rows)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(args.out.with_suffix(".csv"), index=False)
    command = ("scripts/across_profiles.py --players " + args.players
               + f" --games {args.games} --seed {args.seed} --jobs {args.jobs}"
               + f" --min-weight {args.min_weight:g}")
    args.out.with_suffix(".md").write_text(report(df, command, time.perf_counter() - started),
                                           encoding="utf-8")
    print(f"wrote {args.out.with_suffix('.csv')} and .md ({time.perf_counter() - started:.0f} s)")
    return 0


def pct(v: float, lo: float, hi: float, signed: bool = False) -> str:
    f = "{:+.1f}" if signed else "{:.1f}"
    return (f.format(100 * v) + (" " if signed else "% ") + "["
            + f.format(100 * lo) + ", " + f.format(100 * hi) + "]")


def report(df: Any, command: str, seconds: float) -> str:
    out = ["# The findings across the default mixture's profiles", "",
           "Each game the default agents draw each camp's profile from the shipped mixture "
           "(agents/profiles/heuristic.toml). Here one camp is held to one of its profiles "
           "(each of weight at least `--min-weight`), the other camps keeping their "
           "mixture, on the same seeds as "
           "the default (paired: *vs default* is the change in points with its 95% paired "
           "interval). A finding that holds under every profile a camp plays does not "
           "depend on which of them the mixture happens to weigh more.", "",
           f"    {command}", "", f"({seconds:.0f} s on the developers' machine.)", ""]
    for n, d in df.groupby("players", sort=False):
        out += [f"## {n} players", "", "### Win shares of the standard table", "",
                "| camp held | weight | profile | Town | Yakuza | Triad | maniac | Town vs "
                "default |", "|---|---|---|---|---|---|---|---|"]
        std = d[d.cell == "standard"]
        for (held, _prof), g in std.groupby(["held", "profile"], sort=False):
            by = {r.camp: r for r in g.itertuples()}
            first = g.iloc[0]
            vs = ("" if not held else
                  pct(by["town"].vs_default, by["town"].vs_low, by["town"].vs_high, True))
            out.append(f"| {held or 'none (the default)'} | {first.weight:.3f} | "
                       f"{first.params} | " + " | ".join(
                           pct(by[c].value, by[c].low, by[c].high) for c in CAMPS)
                       + f" | {vs} |")
        town = std[std.camp == "town"]
        out += ["", f"Town's share runs from {100 * town.value.min():.1f}% to "
                f"{100 * town.value.max():.1f}% over the profiles held "
                f"({'above' if town.low.min() > 0.5 else 'not always above'} 50% under "
                "every one of them).", "", "### Role values under each profile of the role's "
                "camp", "", "| value | camp held to | weight | profile | value, points |",
                "|---|---|---|---|---|"]
        for r in d[d.cell != "standard"].itertuples():
            out.append(f"| {r.cell[len('value of '):]} | {r.held or 'the mixture'} | "
                       f"{r.weight:.3f} | {r.params} | {pct(r.value, r.low, r.high, True)} |")
        out.append("")
        for cell, g in d[d.cell != "standard"].groupby("cell", sort=False):
            sign = "positive" if (g.low > 0).all() else (
                "of one sign" if (g.value >= 0).all() or (g.value <= 0).all() else "mixed")
            out.append(f"- The {cell}: from {100 * g.value.min():+.1f} to "
                       f"{100 * g.value.max():+.1f} points; {sign} "
                       f"{'(significantly, under every profile)' if sign == 'positive' else ''}"
                       .rstrip() + ".")
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
