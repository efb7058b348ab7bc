"""Agent sets by name, a user's agent by import path, and the checking of agent parameters.

A set (`heuristic`, `uniform`, `random`) maps each role to its agent class; `--agent
ROLE=NAME_OR_PATH` replaces one role's class with another set's or a user's
(`mypkg.mymod:MyAgent`). The heuristic set's default profile ships in
`agents/profiles/heuristic.toml`.

Kept apart from `agents.base` (the interface every agent module imports) so that the
registry may import the agent sets without an import loop.
"""

from __future__ import annotations

import importlib
import importlib.resources
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agents import heuristic, random_agents, uniform
from agents.base import Agent, AgentSet, check_params
from sim.game.errors import InputError
from sim.game.params import CAMPS, Value
from sim.game.roles import Role


def load_agent(spec: str) -> type[Agent]:
    """An agent class by import path `package.module:ClassName` (or a registered name)."""
    if ":" not in spec:
        raise InputError(f"agent {spec!r}: give an import path like mypkg.mymod:MyAgent "
                         "or one of the agent sets (heuristic, uniform, random)")
    mod_name, _, attr = spec.partition(":")
    if not mod_name or not attr:
        raise InputError(f"agent {spec!r}: give an import path like mypkg.mymod:MyAgent")
    try:
        mod = importlib.import_module(mod_name)
    except Exception as e:  # ImportError, or the module failing as it loads
        raise InputError(f"agent {spec!r}: cannot import module {mod_name!r} "
                         f"({type(e).__name__}: {e})") from None
    obj: Any = mod
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise InputError(f"agent {spec!r}: module {mod_name!r} has no {attr!r}")
        obj = getattr(obj, part)
    if not isinstance(obj, type) or not issubclass(obj, Agent):
        raise InputError(f"agent {spec!r} is not a subclass of agents.base.Agent")
    return obj


def _registry() -> dict[str, dict[Role, type[Agent]]]:
    return {
        "heuristic": heuristic.AGENTS,
        "uniform": uniform.AGENTS,
        "random": random_agents.AGENTS,
    }


AGENT_SETS = ("heuristic", "uniform", "random")


def resolve_agent_set(
    name: str = "heuristic",
    overrides: Mapping[str, str] | None = None,
    params: Mapping[str, Any] | None = None,
) -> AgentSet:
    """Build an AgentSet: a named set, per-role overrides (`ROLE=NAME_OR_IMPORT_PATH`),
    and parameters. Unknown sets, roles, agents or parameters are InputErrors."""
    reg = _registry()
    if name not in reg:
        raise InputError(f"unknown agent set {name!r} (sets: {', '.join(reg)})")
    classes = dict(reg[name])
    for role_key, spec in (overrides or {}).items():
        try:
            role = Role.parse(role_key)
        except ValueError as e:
            raise InputError(f"--agent {role_key}={spec}: {e}") from None
        if spec in reg:
            classes[role] = reg[spec][role]
        else:
            classes[role] = load_agent(spec)
    defaults = default_profile() if name == "heuristic" else {}
    aset = AgentSet(name, classes)
    return AgentSet(name, classes, check_params(aset, params or {}), defaults)


#: The heuristic set's default profile: parameters found by `mafia-sim equilibrate` on the
#: standard table (issue 10), shipped with the package.
#: (found through the package `agents`, whose folder holds the sources in both builds)
PROFILE = Path(str(importlib.resources.files("agents"))) / "profiles" / "heuristic.toml"
_PROFILE_CACHE: dict[str, Value] | None = None


def default_profile() -> dict[str, Value]:
    """The heuristic set's default parameters (agents/profiles/heuristic.toml), checked."""
    global _PROFILE_CACHE
    if _PROFILE_CACHE is None:
        import tomllib

        table = tomllib.loads(PROFILE.read_text(encoding="utf-8")).get("params", {})
        _PROFILE_CACHE = check_params(AgentSet("heuristic", heuristic.AGENTS), table)
    return dict(_PROFILE_CACHE)


def defaults_digest(set_name: str = "heuristic") -> str:
    """A digest of what a set's agents play when the user sets nothing: every parameter's
    declared default and the shipped profile file's `[params]`, `[mixture]` and
    `[mixture_at.N]` (not its comments). A sweep records it and refuses to resume under
    other defaults (their finished cells would be mixed with cells of another play, issue
    24's mixture as the default)."""
    import hashlib
    import json
    import tomllib

    aset = resolve_agent_set(set_name)
    declared = {d.name: d.param.default for camp in CAMPS for d in aset.space(camp)}
    shipped: dict[str, Any] = {}
    if set_name == "heuristic":
        data = tomllib.loads(PROFILE.read_text(encoding="utf-8"))
        shipped = {k: data[k] for k in ("params", "mixture", "mixture_at") if k in data}
    text = json.dumps({"declared": declared, "shipped": shipped}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]
