"""Recommended compositions for 20-30 players (results/recommended.csv):
`recommend` by successive halving for each table size, its closest confirmed tables checked
in order against each camp's best response (`exploit`'s search, seed CHECK_SEED, as
`recommend --check` does: a table where a camp's best response surely gains more than 2
points, `recommend --max-gain`, is balanced only because that camp blunders and is passed
over), then the chosen table confirmed with a precision run (every camp's 95% half-width
under 1 point). The columns record the check that decided (the largest gain a camp finds,
with its interval, and NashConv), `recommended` whether the table held it (false: none of
the confirmed tables did, and this is the closest), and `passed_over` the closer tables
that did not hold.

Run: .venv/bin/python scripts/recommend_all.py [--jobs 2]
     .venv/bin/python scripts/recommend_all.py --players 28   # replay some sizes' rows only
     .venv/bin/python scripts/recommend_all.py --check-only   # the committed tables' check
                                                              # (and whether each holds it)
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pandas as pd

from sim.analysis.recommend import (
    CHECK_BUDGET,
    CHECK_GAMES,
    exploit_check,
    exploitable,
    parse_target,
    recommend,
)
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


#: the check's seed (its budgets are `recommend --check`'s defaults): recommend's own check
#: of the tables it confirms plays it, and so does `--check-only`, so the two agree
CHECK_SEED = 13


def check_columns(composition: str, n: int, jobs: int) -> dict:
    """The recommended table's exploit check, as columns of results/recommended.csv."""
    setup = build_setup(None, players=n, roles=composition)
    return check_row(exploit_check(setup, seed=CHECK_SEED, games=CHECK_GAMES,
                                   budget=CHECK_BUDGET, jobs=jobs))


def check_row(ex: dict) -> dict:
    """An exploit check (`recommend`'s, `exploit_check`'s) as the CSV's columns."""
    top = ex["largest"]
    return {"largest_gain_camp": top["camp"], "largest_gain": top["gain"],
            "largest_gain_low": top["low"], "largest_gain_high": top["high"],
            "nash_conv": ex["nash_conv"], "nash_conv_low": ex["low"],
            "nash_conv_high": ex["high"],
            "check_tried": min(g["tried"] for g in ex["gains"].values())}


def sizes(text: str) -> list[int]:
    """Table sizes from 20 to 30: a comma list of sizes or ranges, e.g. 28 or 20-23,28."""
    out: set[int] = set()
    try:
        for part in text.split(","):
            lo, _, hi = part.partition("-")
            out.update(range(int(lo), int(hi or lo) + 1))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a list of sizes such as 20-23,28") from None
    if not out or not out <= set(range(20, 31)):
        raise argparse.ArgumentTypeError(f"{text!r}: the recommendations cover 20 to 30 "
                                         "players")
    return sorted(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=-1)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--players", type=sizes, default=list(range(20, 31)),
                    metavar="N[,N...]", help="the table sizes to replay, e.g. 28 or 20-23,28: "
                    "their rows are replaced, the others kept (default 20-30: all)")
    ap.add_argument("--check-only", action="store_true",
                    help="only check the committed recommendations with exploit (their "
                         "columns added or replaced), without searching again")
    args = ap.parse_args()
    out = ROOT / "results" / "recommended.csv"
    if args.check_only:
        df = pd.read_csv(out)
        checks = []
        for r in df.itertuples():
            checks.append(check_columns(r.composition, int(r.players), args.jobs))
            print(json.dumps({"players": int(r.players), **checks[-1]}))
        for key in checks[0]:
            df[key] = [c[key] for c in checks]
        # the check decides, as in recommend (`exploitable`): a table where a camp surely
        # gains more than MAX_GAIN is balanced only while that camp blunders (its closer
        # tables, passed over before, are not searched again)
        df["recommended"] = [not exploitable(c["largest_gain_low"]) for c in checks]
        df.to_csv(out, index=False)
        print("wrote", out)
        return
    target = parse_target(None)
    rows = []
    for n in args.players:
        base = build_setup(None, players=n)
        table = recommend(base, n, target, games=args.games, rounds=3, keep=6, seed=11,
                          jobs=args.jobs, check_seed=CHECK_SEED)
        # the first row is the closest confirmed table that held recommend's own check, or,
        # when none did, the closest (its `recommended` is false)
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
        row["recommended"] = bool(table[0].get("recommended"))
        row["passed_over"] = ";".join(r["composition"] for r in table
                                      if r.get("exploitable"))
        # the check that decided, recorded as measured (the same as `--check-only` gives)
        row.update(check_row(table[0]["exploit"]) if "exploit" in table[0]
                   else check_columns(best, n, args.jobs))
        rows.append(row)
        print(json.dumps({k: row[k] for k in ("players", "composition", "town", "distance")}))
    new = pd.DataFrame(rows)
    if out.exists() and set(args.players) != set(range(20, 31)):
        # the sizes not replayed keep their rows (a row from before these columns held
        # recommend's check unrecorded: left empty)
        old = pd.read_csv(out, keep_default_na=False)
        new = pd.concat([old[~old.players.isin(args.players)], new]).sort_values("players")
    new.to_csv(out, index=False)
    # what the agents played by default, so that results/README.md can say when the
    # recommendations predate today's agents (as a study's manifest does)
    from agents.registry import defaults_digest

    (out.parent / "recommended.json").write_text(json.dumps(
        {"agents_defaults": {"heuristic": defaults_digest("heuristic")}}, indent=2) + "\n",
        encoding="utf-8")
    print("wrote", out)


if __name__ == "__main__":
    main()
