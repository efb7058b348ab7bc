"""The agent interface, agent sets, and loading a user's agent by import path.

The engine's driver (`sim.play`) calls an agent for every decision its player takes:

- `start(view)`: once, when the game starts, before any decision (optional: set up what
  the agent keeps for the game);
- `statements(view, rng)`: public (and allowed private) statements before the vote;
- `vote(view, rng)`: a target seat, or -1 to abstain; `view.public.today` holds the votes
  already cast today, in order;
- `clan_order(view, rng)`: the Don's (or a member's, R14.4) order for the night;
- `night(view, rng)`: the player's own night request (blast, beat, kill or ambush, strike,
  heal, protects or Army, check), or None for no action.

Each call gets the player's `sim.view.PlayerView` (the same object all game) and a numpy
Generator. Return values are requests from `sim.requests`. A method an agent class does
not override is not called at all (the base class's does nothing and draws nothing). One
agent object is made per player per game, as `cls(seat, params)`. Agents must be
picklable (joblib sends them to workers) and deterministic given the generator.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from sim.errors import InputError
from sim.roles import Role

if TYPE_CHECKING:
    from numpy.random import Generator

    from sim.requests import Action, ClanOrder
    from sim.view import PlayerView, Statement


class Agent:
    """Base class: a player who does nothing. Override what your role does.

    `PARAMS` declares the tunable parameters with their defaults; `self.p` holds the values
    for this game (defaults overridden by `--param name=value`).
    """

    PARAMS: ClassVar[dict[str, float]] = {}
    #: whether the agent reads `view.reads` (the information model draws them only if some
    #: agent does; a user's agent that reads them keeps the default)
    USES_READS: ClassVar[bool] = True

    def __init__(self, seat: int, params: Mapping[str, float] | None = None):
        self.seat = seat
        self.p: dict[str, float] = {**self.PARAMS, **{
            k: v for k, v in (params or {}).items() if k in self.PARAMS
        }}

    def start(self, view: PlayerView) -> None:
        """Called once per game before the first decision."""

    def statements(self, view: PlayerView, rng: Generator) -> list[Statement]:
        return []

    def vote(self, view: PlayerView, rng: Generator) -> int:
        return -1

    def clan_order(self, view: PlayerView, rng: Generator) -> ClanOrder | None:
        return None

    def night(self, view: PlayerView, rng: Generator) -> Action | None:
        return None


#: Every role an agent may be set for (the VSB is told he is a civilian, R2.3, but a user
#: may still give him his own agent: the driver knows his true role).
ROLE_KEYS = [r.key for r in Role]


@dataclass(frozen=True)
class AgentSet:
    """Which agent class plays each role, and the parameters they get."""

    name: str
    classes: Mapping[Role, type[Agent]]
    params: Mapping[str, float] = field(default_factory=dict)

    def make(self, role: Role, seat: int) -> Agent:
        return self.classes[role](seat, self.params)

    def uses_reads(self) -> bool:
        return any(cls.USES_READS for cls in self.classes.values())

    def known_params(self) -> set[str]:
        out: set[str] = set()
        for cls in self.classes.values():
            out |= set(cls.PARAMS)
        return out

    def describe(self) -> dict[str, str]:
        return {r.key: f"{c.__module__}:{c.__qualname__}" for r, c in self.classes.items()}


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
    from agents import heuristic, random_agents, uniform

    return {
        "heuristic": heuristic.AGENTS,
        "uniform": uniform.AGENTS,
        "random": random_agents.AGENTS,
    }


AGENT_SETS = ("heuristic", "uniform", "random")


def resolve_agent_set(
    name: str = "heuristic",
    overrides: Mapping[str, str] | None = None,
    params: Mapping[str, float] | None = None,
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
    from sim.info import InfoModel

    aset = AgentSet(name, classes, dict(params or {}))
    known = aset.known_params() | set(InfoModel.PARAMS)
    for k, v in (params or {}).items():
        if k not in known:
            raise InputError(f"unknown agent parameter {k!r} (parameters: "
                             f"{', '.join(sorted(known))})")
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            raise InputError(f"agent parameter {k} takes a number, got {v!r}")
        if k in InfoModel.PARAMS and v < 0:
            raise InputError(f"{k} is a signal-to-noise figure, >= 0 (a negative one would "
                             f"read exactly as well as its opposite), got {v}")
    return aset
