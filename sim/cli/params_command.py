"""`mafia-sim params`: every agent parameter a user may set, by camp, with its default,
range and meaning (from the declarations in agents/, so it is never out of date)."""

from __future__ import annotations

import argparse

from agents.registry import resolve_agent_set
from sim.engine.info import InfoModel
from sim.game.params import CAMPS


def params_table(set_name: str = "heuristic", markdown: bool = False,
                 camps: tuple[str, ...] = CAMPS) -> str:
    aset = resolve_agent_set(set_name)
    rows: list[tuple[str, str, str, str]] = []
    for camp in camps:
        for d in aset.space(camp):
            p = d.param
            note = p.doc + (f" (only with the rule option {p.needs_rule})"
                            if p.needs_rule else "")
            rows.append((d.name, str(p.default), p.range_text(), note))
    for name, p in InfoModel.PARAMS.items():
        rows.append((name, str(p.default), p.range_text(), p.doc + " (the table's skill, "
                     "not a camp's play: exploit leaves it alone)"))
    if markdown:
        out = ["| parameter | default | range | what it does |", "|---|---|---|---|"]
        out += [f"| `{n}` | {d} | {r} | {w} |" for n, d, r, w in rows]
        return "\n".join(out)
    width = max(len(r[0]) for r in rows)
    return "\n".join(f"{n:<{width}}  {d:>8}  {r:<32} {w}" for n, d, r, w in rows)


def cmd_params(args: argparse.Namespace) -> int:
    camps = tuple(args.camp) if args.camp else CAMPS
    print(params_table(args.agents, args.markdown, camps))
    return 0


def add_command(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("params", help="list the agents' parameters: name, default, range, "
                                      "what each does")
    p.add_argument("--agents", default="heuristic",
                   help="agent set (default: %(default)s)")
    p.add_argument("--camp", action="append", choices=CAMPS,
                   help="only this camp's parameters (repeatable; default: all)")
    p.add_argument("--markdown", action="store_true", help="print a Markdown table")
    p.set_defaults(func=cmd_params)
