#!/usr/bin/env python3
"""Play the outside deviations of examples/deviations.py (written through the public agent
API, as a strong forum player would) against the default agents, paired, and print each
deviating camp's own gain with its 95% interval (issue 24's second target):

    scripts/outside_deviations.py --players 25 --games 4000 --seed 11 --jobs 2 [--params FILE]

Each line is `mafia-sim compare --b-agent ...` with the same seed in both arms.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: (what it is, the deviating camp, its --b-agent assignments)
DEVIATIONS: list[tuple[str, str, dict[str, str]]] = [
    ("Yakuza member lies under the rope", "yakuza",
     {"mafioso": "YakuzaRopeLiarMafioso", "kamikaze": "YakuzaRopeLiarKamikaze"}),
    ("Triad member lies under the rope", "triad",
     {"mafioso": "TriadRopeLiarMafioso", "thug": "RopeLiarThug"}),
    ("maniac lies under the rope", "maniac", {"maniac": "RopeLiarManiac"}),
    ("Yakuza votes its doomed clanmate", "yakuza",
     {"mafioso": "YakuzaDoomedVoterMafioso", "kamikaze": "YakuzaDoomedVoterKamikaze"}),
    ("Triad votes its doomed clanmate", "triad",
     {"mafioso": "TriadDoomedVoterMafioso", "thug": "DoomedVoterThug"}),
    ("Yakuza members lie pre-emptively", "yakuza",
     {"mafioso": "YakuzaPreemptiveLiarMafioso", "kamikaze": "YakuzaPreemptiveLiarKamikaze"}),
    ("Triad members lie pre-emptively", "triad",
     {"mafioso": "TriadPreemptiveLiarMafioso", "thug": "PreemptiveLiarThug"}),
    # both clans at once: not one camp's deviation (the target counts the rows above), kept
    # as the row earlier results (results/mixture.md) measured
    ("both clans lie pre-emptively (joint)", "yakuza", {"mafioso": "PreemptiveLiarMafioso"}),
    ("civilian decoy claim under the rope", "town", {"civilian": "DecoyCivilian"}),
    ("Yakuza Don fakes the commissar on day 1", "yakuza",
     {"mafioso": "YakuzaFakeCopMafioso"}),
    ("Triad Don fakes the commissar on day 1", "triad", {"mafioso": "TriadFakeCopMafioso"}),
    ("maniac fakes the commissar on day 1", "maniac", {"maniac": "FakeCopManiac"}),
    ("Yakuza fake commissar clears its doomed mate", "yakuza",
     {"mafioso": "YakuzaRescueCopMafioso", "kamikaze": "YakuzaRescueCopKamikaze"}),
    ("Triad fake commissar clears its doomed mate", "triad",
     {"mafioso": "TriadRescueCopMafioso", "thug": "RescueCopThug"}),
    ("real heroes never counterclaim", "town",
     {"doctor": "SilentDoctor", "ninja": "SilentNinja", "necromancer": "SilentNecromancer"}),
]


def main() -> int:
    sys.path.insert(0, str(ROOT / "examples"))
    from sim.analysis.compare import compare
    from sim.play.setup import build_setup

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=25)
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--params", help="a parameter file (default: the agents' default)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    a = build_setup(players=args.players, params_file=args.params)
    out = []
    for what, camp, agents in DEVIATIONS:
        over = {role: f"deviations:{cls}" for role, cls in agents.items()}
        b = build_setup(players=args.players, params_file=args.params, agent_overrides=over)
        res = compare(a, b, games=args.games, seed=args.seed, jobs=args.jobs)
        c = res["camps"][camp]
        out.append({"deviation": what, "camp": camp, "agents": over, "gain": c["diff"],
                    "low": c["low"], "high": c["high"]})
        if not args.json:
            print(f"{what:<40} {camp:<7} {c['diff'] * 100:+6.2f} "
                  f"[{c['low'] * 100:+.2f}, {c['high'] * 100:+.2f}]", flush=True)
    if args.json:
        print(json.dumps({"players": args.players, "games": args.games, "seed": args.seed,
                          "params": args.params, "deviations": out}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
