#!/usr/bin/env python3
"""Play the outside deviations of examples/deviations.py (written through the public agent
API, as a strong forum player would) against the default agents, paired, and print each
deviating camp's own gain with its 95% interval (issue 24's second target):

    scripts/outside_deviations.py --players 25 --games 4000 --seed 11 --jobs 2 [--params FILE]

`--only TEXT` plays the rows whose description holds TEXT (repeatable); with `--into FILE`
(a JSON this script wrote, for the same players, games, seed and parameters) those rows
replace or join the file's, in this list's order, and the file is written back after
each row.

Each line is `mafia-sim compare --b-agent ...` with the same seed in both arms (arm A the
default agents, or for the last rows the other clan already deviating); the JSON keeps every
camp's change too, for what a deviation hands the other camps.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent

YAKUZA_EARLY = {"mafioso": "YakuzaPreemptiveLiarMafioso",
                "kamikaze": "YakuzaPreemptiveLiarKamikaze"}
TRIAD_EARLY = {"mafioso": "TriadPreemptiveLiarMafioso", "thug": "PreemptiveLiarThug"}
BOTH_EARLY = {"mafioso": "PreemptiveLiarMafioso", "kamikaze": "YakuzaPreemptiveLiarKamikaze",
              "thug": "PreemptiveLiarThug"}


class Deviation(NamedTuple):
    what: str
    camp: str  # the deviating camp whose own gain the row reports
    agents: dict[str, str]  # arm B's --b-agent assignments (examples/deviations.py)
    #: arm A's assignments when the deviation is measured from another base than the
    #: default agents (the other clan already deviating): not against the default, so
    #: outside issue 24's target, which is against the default
    base: dict[str, str] | None = None
    #: more than one camp deviates at once: the row reports each one's gain, and it is
    #: outside the target, which is about a camp's own deviation
    joint: bool = False


DEVIATIONS: list[Deviation] = [
    Deviation("Yakuza member lies under the rope", "yakuza",
              {"mafioso": "YakuzaRopeLiarMafioso", "kamikaze": "YakuzaRopeLiarKamikaze"}),
    Deviation("Triad member lies under the rope", "triad",
              {"mafioso": "TriadRopeLiarMafioso", "thug": "RopeLiarThug"}),
    Deviation("maniac lies under the rope", "maniac", {"maniac": "RopeLiarManiac"}),
    Deviation("Yakuza votes its doomed clanmate", "yakuza",
              {"mafioso": "YakuzaDoomedVoterMafioso", "kamikaze": "YakuzaDoomedVoterKamikaze"}),
    Deviation("Triad votes its doomed clanmate", "triad",
              {"mafioso": "TriadDoomedVoterMafioso", "thug": "DoomedVoterThug"}),
    Deviation("Yakuza members lie pre-emptively", "yakuza", YAKUZA_EARLY),
    Deviation("Triad members lie pre-emptively", "triad", TRIAD_EARLY),
    # both clans at once (the two rows above together; before 2026-12-05 the mafiosi
    # alone, without the kamikaze and the thug); the last two rows split it into each
    # clan's own part
    Deviation("both clans lie pre-emptively (joint)", "yakuza", BOTH_EARLY, joint=True),
    Deviation("civilian decoy claim under the rope", "town", {"civilian": "DecoyCivilian"}),
    Deviation("Yakuza Don fakes the commissar on day 1", "yakuza",
              {"mafioso": "YakuzaFakeCopMafioso"}),
    Deviation("Triad Don fakes the commissar on day 1", "triad",
              {"mafioso": "TriadFakeCopMafioso"}),
    Deviation("maniac fakes the commissar on day 1", "maniac", {"maniac": "FakeCopManiac"}),
    Deviation("Yakuza fake commissar clears its doomed mate", "yakuza",
              {"mafioso": "YakuzaRescueCopMafioso", "kamikaze": "YakuzaRescueCopKamikaze"}),
    Deviation("Triad fake commissar clears its doomed mate", "triad",
              {"mafioso": "TriadRescueCopMafioso", "thug": "RescueCopThug"}),
    Deviation("real heroes never counterclaim", "town",
              {"doctor": "SilentDoctor", "ninja": "SilentNinja",
               "necromancer": "SilentNecromancer"}),
    Deviation("real heroes answer only claims made under the rope", "town",
              {"doctor": "RopeAnswerDoctor", "ninja": "RopeAnswerNinja",
               "necromancer": "RopeAnswerNecromancer"}),
    Deviation("real heroes answer only claims made off the rope", "town",
              {"doctor": "OffRopeAnswerDoctor", "ninja": "OffRopeAnswerNinja",
               "necromancer": "OffRopeAnswerNecromancer"}),
    Deviation("real heroes answer a rope claim only once its day is over", "town",
              {"doctor": "LateAnswerDoctor", "ninja": "LateAnswerNinja",
               "necromancer": "LateAnswerNecromancer"}),
    Deviation("Yakuza members lie pre-emptively, when the Triad's do", "yakuza", BOTH_EARLY,
              base=TRIAD_EARLY),
    Deviation("Triad members lie pre-emptively, when the Yakuza's do", "triad", BOTH_EARLY,
              base=YAKUZA_EARLY),
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
    ap.add_argument("--only", action="append", metavar="TEXT",
                    help="play only the rows whose description holds TEXT (repeatable)")
    ap.add_argument("--into", type=Path, metavar="FILE",
                    help="merge the rows played into this JSON (written by this script for "
                         "the same players, games, seed and parameters) and write it back")
    args = ap.parse_args()
    chosen = [d for d in DEVIATIONS
              if not args.only or any(t in d.what for t in args.only)]
    if not chosen:
        print(f"outside_deviations: no row's description holds {args.only}", file=sys.stderr)
        return 2
    before: dict[str, Any] | None = None
    if args.into is not None:
        try:
            before = json.loads(args.into.read_text())
        except (OSError, ValueError) as e:
            print(f"outside_deviations: cannot read {args.into}: {e}", file=sys.stderr)
            return 2
        if not isinstance(before, dict) or not isinstance(before.get("deviations"), list):
            print(f"outside_deviations: {args.into} is not a file this script wrote (no "
                  "\"deviations\" list)", file=sys.stderr)
            return 2
        run = {"players": args.players, "games": args.games, "seed": args.seed,
               "params": args.params}
        differs = [k for k, v in run.items() if before.get(k) != v]
        if differs:
            print(f"outside_deviations: {args.into} was played with other "
                  f"{', '.join(differs)} ({', '.join(str(before.get(k)) for k in differs)})",
                  file=sys.stderr)
            return 2
    def merged(out: list[dict[str, Any]]) -> dict[str, Any]:
        doc = {"players": args.players, "games": args.games, "seed": args.seed,
               "params": args.params, "deviations": out}
        if before is not None:
            rows = {r["deviation"]: r for r in before["deviations"]}
            rows.update({r["deviation"]: r for r in out})
            order = [d.what for d in DEVIATIONS]
            doc["deviations"] = sorted(rows.values(), key=lambda r: (
                order.index(r["deviation"]) if r["deviation"] in order else len(order)))
        return doc

    out: list[dict[str, Any]] = []
    for dev in chosen:
        def assigned(agents: dict[str, str] | None) -> dict[str, str]:
            return {role: f"deviations:{cls}" for role, cls in (agents or {}).items()}

        a = build_setup(players=args.players, params_file=args.params,
                        agent_overrides=assigned(dev.base) or None)
        b = build_setup(players=args.players, params_file=args.params,
                        agent_overrides=assigned(dev.agents))
        res = compare(a, b, games=args.games, seed=args.seed, jobs=args.jobs)
        c = res["camps"][dev.camp]
        out.append({"deviation": dev.what, "camp": dev.camp, "agents": assigned(dev.agents),
                    "base": assigned(dev.base) or None, "joint": dev.joint,
                    "gain": c["diff"], "low": c["low"], "high": c["high"],
                    # every camp's change: what the deviation hands the others
                    "camps": {k: {"gain": v["diff"], "low": v["low"], "high": v["high"]}
                              for k, v in res["camps"].items()
                              if k in ("town", "yakuza", "triad", "maniac")}})
        if args.into is not None:  # each row kept as it is played: a crash loses none
            tmp = args.into.with_name(f".{args.into.name}.tmp")
            tmp.write_text(json.dumps(merged(out), indent=2) + "\n")
            tmp.replace(args.into)
        if not args.json:
            print(f"{dev.what:<55} {dev.camp:<7} {c['diff'] * 100:+6.2f} "
                  f"[{c['low'] * 100:+.2f}, {c['high'] * 100:+.2f}]", flush=True)
    if args.json:
        print(json.dumps(merged(out), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
