"""Reading what to simulate: compositions (`--players`, `--roles`, TOML), rule overrides,
agent choices. Every mistake is an InputError that names it (and the line, for TOML)."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents.base import AgentSet, resolve_agent_set
from sim.errors import InputError
from sim.roles import Clan, Role
from sim.rules import Composition, RuleSet, Seat

_ITEM = re.compile(r"^\s*([a-z_]+)\s*(?:\*\s*(\d+))?\s*$")


def parse_roles(text: str, players: int | None = None) -> Composition:
    """The inline form: `civilian*9,commissar,...,yakuza=mafioso*3+kamikaze+vsb,triad=...`."""
    seats: list[Seat] = []
    if not text.strip():
        raise InputError("--roles: empty composition")
    for item in text.split(","):
        item = item.strip()
        if not item:
            raise InputError(f"--roles: empty item in {text!r}")
        clan = Clan.NONE
        body = item
        if "=" in item:
            head, _, body = item.partition("=")
            try:
                clan = Clan.parse(head)
            except ValueError as e:
                raise InputError(f"--roles: {e} in {item!r}") from None
        parts = body.split("+") if clan is not Clan.NONE else [body]
        for part in parts:
            m = _ITEM.match(part)
            if not m:
                raise InputError(f"--roles: cannot read {part!r} (write ROLE or ROLE*COUNT)")
            try:
                role = Role.parse(m.group(1))
            except ValueError as e:
                raise InputError(f"--roles: {e}") from None
            count = int(m.group(2)) if m.group(2) else 1
            if clan is Clan.NONE and role in (Role.MAFIOSO, Role.VSB):
                raise InputError(f"--roles: {role.key} must be listed under yakuza= or triad=")
            c = clan
            if role is Role.KAMIKAZE and c is Clan.NONE:
                c = Clan.YAKUZA
            if role is Role.THUG and c is Clan.NONE:
                c = Clan.TRIAD
            seats += [Seat(role, c)] * count
    comp = Composition(tuple(seats))
    if players is not None and comp.n != players:
        raise InputError(f"--roles has {comp.n} players but --players says {players}")
    return comp


def parse_assignments(items: Sequence[str], what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        if "=" not in item:
            raise InputError(f"{what} {item!r}: expected name=value")
        k, _, v = item.partition("=")
        if not k.strip():
            raise InputError(f"{what} {item!r}: empty name")
        out[k.strip()] = v.strip()
    return out


def flatten_params(table: Mapping[str, Any], where: str, prefix: str = "") -> dict[str, Any]:
    """`[agents.params]` as flat names: TOML reads `town.crowd = 0` as a nested table."""
    out: dict[str, Any] = {}
    for k, v in table.items():
        name = f"{prefix}{k}"
        if isinstance(v, Mapping):
            out.update(flatten_params(v, where, name + "."))
        elif isinstance(v, (list, tuple)):
            raise InputError(f"{where}: agent parameter {name} takes one value, got {v!r}")
        else:
            out[name] = v
    return out


def parse_number(text: str, what: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise InputError(f"{what}: {text!r} is not a number") from None


def load_toml(path: str | Path) -> dict[str, Any]:
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as e:
        raise InputError(f"cannot read {p}: {e.strerror}") from None
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise InputError(f"{p}: malformed TOML: {e}") from None
    except UnicodeDecodeError:
        raise InputError(f"{p}: not UTF-8 text") from None


@dataclass
class Setup:
    """Everything a run needs besides the game count: composition, rules, agents."""

    comp: Composition
    rules: RuleSet
    agents: AgentSet
    on_illegal: str = "raise"
    run: dict[str, Any] = field(default_factory=dict)

    def describe(self) -> dict[str, Any]:
        return {
            "composition": self.comp.describe(),
            "players": self.comp.n,
            "rules": {k: v for k, v in self.rules.as_dict().items()
                      if v != getattr(RuleSet(), k)},
            "agents": self.agents.name,
            "agent_overrides": {k: v for k, v in self.agents.describe().items()},
            "params": dict(self.agents.params),
        }


SETUP_KEYS = {"players", "roles", "rules", "agents", "run", "on_illegal"}


def build_setup(
    file: Mapping[str, Any] | None = None,
    *,
    players: int | None = None,
    roles: str | None = None,
    rules: Mapping[str, str] | None = None,
    agents: str | None = None,
    agent_overrides: Mapping[str, str] | None = None,
    params: Mapping[str, str] | None = None,
    on_illegal: str | None = None,
    where: str = "setup",
) -> Setup:
    """Combine a TOML setup (may be None) with command-line flags (which win)."""
    f = dict(file or {})
    unknown = set(f) - SETUP_KEYS
    if unknown:
        raise InputError(f"{where}: unknown key(s) {', '.join(sorted(unknown))} "
                         f"(keys: {', '.join(sorted(SETUP_KEYS))})")
    n = players if players is not None else f.get("players")
    if n is not None and (isinstance(n, bool) or not isinstance(n, int)):
        raise InputError(f"{where}: players must be a whole number, got {n!r}")
    role_text = roles if roles is not None else f.get("roles")
    if role_text is not None:
        if not isinstance(role_text, str):
            raise InputError(f"{where}: roles must be a string like 'civilian*9,...'")
        comp = parse_roles(role_text, n)
    else:
        comp = Composition.standard(n if n is not None else 25)
    rule_values: dict[str, object] = {}
    file_rules = f.get("rules", {})
    if not isinstance(file_rules, Mapping):
        raise InputError(f"{where}: [rules] must be a table")
    rule_values.update(file_rules)
    rule_values.update(rules or {})
    ruleset = RuleSet().replace(rule_values)
    comp.validate(ruleset)
    fa = f.get("agents", {})
    if isinstance(fa, str):
        fa = {"set": fa}
    if not isinstance(fa, Mapping):
        raise InputError(f"{where}: [agents] must be a table")
    unknown = set(fa) - {"set", "roles", "params"}
    if unknown:
        raise InputError(f"{where}: unknown key(s) in [agents]: {', '.join(sorted(unknown))}")
    set_name = agents or fa.get("set", "heuristic")
    over = {**dict(fa.get("roles", {})), **dict(agent_overrides or {})}
    file_params = fa.get("params", {})
    if not isinstance(file_params, Mapping):
        raise InputError(f"{where}: [agents] params must be a table of NAME = value")
    par: dict[str, Any] = flatten_params(file_params, where)
    par.update(params or {})  # checked, with the file's, against each parameter's range
    aset = resolve_agent_set(str(set_name), over, par)
    policy = on_illegal or f.get("on_illegal", "raise")
    if policy not in ("raise", "skip"):
        raise InputError(f"on_illegal must be raise or skip, not {policy!r}")
    run = f.get("run", {})
    if not isinstance(run, Mapping):
        raise InputError(f"{where}: [run] must be a table")
    return Setup(comp, ruleset, aset, policy, dict(run))
