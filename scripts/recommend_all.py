"""Recommended compositions for 20-30 players (results/recommended.csv):
`recommend` by successive halving for each table size, then the winner confirmed with a
precision run (every camp's 95% half-width under 1 point).

Run: .venv/bin/python scripts/recommend_all.py [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pandas as pd

from sim.analysis.recommend import parse_target, recommend
from sim.play.runner import run
from sim.play.setup import build_setup

ROOT = Path(__file__).resolve().parent.parent


def standard_shares(n: int) -> dict | None:
    """The standard table's shares from study 1, when its results are there."""
    table = ROOT / "results" / "studies" / "01_player_count" / "results.csv"
    if not table.exists():
        return None
    df = pd.read_csv(table)
    d = df[df.players == n]
    if d.empty:
        return None
    return {"camps": {r.camp: {"share": r.share} for r in d.itertuples()}}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=-1)
    ap.add_argument("--games", type=int, default=300)
    args = ap.parse_args()
    target = parse_target(None)
    rows = []
    for n in range(20, 31):
        base = build_setup(None, players=n)
        table = recommend(base, n, target, games=args.games, rounds=3, keep=6, seed=11,
                          jobs=args.jobs)
        best = table[0]["composition"]
        setup = build_setup(None, players=n, roles=best)
        res = run(setup, precision=0.01, seed=12, jobs=args.jobs).summary()
        std = standard_shares(n) or run(base, precision=0.01, seed=12,
                                          jobs=args.jobs).summary()
        row = {"players": n, "composition": best, "standard": base.comp.describe(),
               "games": res["games"]}
        for w in ("town", "yakuza", "triad", "maniac", "draw"):
            c = res["camps"][w]
            row[w] = c["share"]
            row[f"{w}_low"] = c["low"]
            row[f"{w}_high"] = c["high"]
            row[f"standard_{w}"] = std["camps"][w]["share"]
        row["distance"] = sum((res["camps"][k]["share"] - v) ** 2 for k, v in target.items()) ** .5
        row["standard_distance"] = sum(
            (std["camps"][k]["share"] - v) ** 2 for k, v in target.items()) ** .5
        rows.append(row)
        print(json.dumps({k: row[k] for k in ("players", "composition", "town", "distance")}))
    out = ROOT / "results" / "recommended.csv"
    pd.DataFrame(rows).to_csv(out, index=False)
    print("wrote", out)


if __name__ == "__main__":
    main()
