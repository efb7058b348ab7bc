"""`mafia-sim params`: every parameter a user may set, with its default, range and meaning:
the agents' by camp, the table's skill, and the rule options. All three are read from the
one kind of declaration, `sim.game.params.Param` (the agents' `PARAMS`, the information
model's, and each `RuleSet` field's), so the list is never out of date."""

from __future__ import annotations

import argparse

from agents.registry import resolve_agent_set
from sim.engine.info import InfoModel
from sim.game.params import CAMPS
from sim.game.rules import RuleSet


def params_table(set_name: str = "heuristic", markdown: bool = False,
                 camps: tuple[str, ...] = CAMPS, rules: bool = True) -> str:
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
    if rules:
        for name, p in RuleSet.options().items():
            default = str(p.default).lower() if p.choices else str(p.default)
            rows.append((name, default, p.range_text(),
                         f"{p.doc} (a rule option: --rule {name}=..., [rules] in a setup)"))
    if markdown:
        out = ["| parameter | default | range | what it does |", "|---|---|---|---|"]
        out += [f"| `{n}` | {d} | {r} | {w} |" for n, d, r, w in rows]
        return "\n".join(out)
    width = max(len(r[0]) for r in rows)
    return "\n".join(f"{n:<{width}}  {d:>8}  {r:<32} {w}" for n, d, r, w in rows)


def cmd_params(args: argparse.Namespace) -> int:
    camps = tuple(args.camp) if args.camp else CAMPS
    print(params_table(args.agents, args.markdown, camps, rules=not args.camp))
    return 0


def add_command(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("params", help="list the agents' parameters, the table's skill and the "
                                      "rule options: name, default, range, what each does")
    p.add_argument("--agents", default="heuristic",
                   help="agent set (default: %(default)s)")
    p.add_argument("--camp", action="append", choices=CAMPS,
                   help="only this camp's parameters, with the skills and without the rule "
                        "options (repeatable; default: all)")
    p.add_argument("--markdown", action="store_true", help="print a Markdown table")
    p.set_defaults(func=cmd_params)
