"""The agent interface, agent sets, and loading a user's agent by import path.

The engine's driver (`sim.play.driver`) calls an agent for every decision its player takes:

- `start(view)`: once, when the game starts, before any decision (optional: set up what
  the agent keeps for the game);
- `statements(view, rng)`: public (and allowed private) statements before the vote;
- `vote(view, rng)`: a target seat, or -1 to abstain; `view.public.today` holds the votes
  already cast today, in order;
- `defend(view, rng)`: statements he posts while he leads the day's vote (asked after
  each vote against him until he says something; the votes already cast stand, R5.1, but
  later voters read them, P5.5);
- `respond(view, rng)`: statements he posts in answer to the day's talk (a counterclaim, a
  vouch, a check of the one who just spoke): asked once after the day's statements and
  again after each time the day's leader speaks while the vote runs (P5.6);
- `clan_order(view, rng)`: the Don's (or a member's, R14.4) order for the night;
- `night(view, rng)`: the player's own night request (blast, beat, kill or ambush, strike,
  heal, protects or Army, check), or None for no action.

Each call gets the player's `sim.engine.view.PlayerView` (the same object all game) and a numpy
Generator. Return values are requests from `sim.game.requests`. A method an agent class does
not override is not called at all (the base class's does nothing and draws nothing). One
agent object is made per player per game, as `cls(seat, params)`. Agents must be
picklable (joblib sends them to workers) and deterministic given the generator.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from sim.engine.info import InfoModel
from sim.game.errors import InputError
from sim.game.params import (
    CAMP_SCOPES,
    CAMPS,
    Dim,
    Param,
    Value,
    camp_of,
    lookup_order,
    params_of,
    resolve_for,
    scope_matches,
)
from sim.game.roles import Clan, Role

if TYPE_CHECKING:
    from numpy.random import Generator

    from sim.engine.view import PlayerView
    from sim.game.requests import Action, ClanOrder
    from sim.game.talk import Statement


# Compiled (mypyc), the class stays open to a user's agents (interpreted subclasses); a
# no-op in the pure build.
@mypyc_attr(allow_interpreted_subclasses=True)
class Agent:
    """Base class: a player who does nothing. Override what your role does.

    `PARAMS` declares the tunable parameters (`sim.game.params.Param`: default, range, what
    it does; a plain number is taken as a default with no range). `self.p` holds this
    agent's values for the game: the defaults, overridden by what the user set for its camp
    or role (`--param town.crowd=0`, resolved by `AgentSet.make`).
    """

    PARAMS: ClassVar[Mapping[str, Param | float]] = {}
    #: whether the agent reads `view.reads` (the information model draws them only if some
    #: agent does; a user's agent that reads them keeps the default)
    USES_READS: ClassVar[bool] = True

    def __init__(self, seat: int, params: Mapping[str, Value] | None = None):
        self.seat = seat
        given = params or {}
        declared = params_of(type(self))
        # A number or a choice's name, by parameter (values were checked on entry). What
        # AgentSet.make passes names every parameter already (resolve_for): a plain copy.
        self.p: dict[str, Any] = (dict(given) if given.keys() == declared.keys() else
                                  {k: given.get(k, prm.default) for k, prm in declared.items()})

    def __reduce__(self) -> tuple[object, ...]:
        """Agents are picklable in both builds: rebuilt as `cls(seat, params)`, then given
        back every attribute. (A compiled agent has no `__dict__`: its attributes are those
        listed in its class's `__mypyc_attrs__`; an interpreted one's are in `__dict__`.)"""
        cls = type(self)
        state: dict[str, object] = {}
        for name in getattr(cls, "__mypyc_attrs__", ()):
            if name != "__dict__" and hasattr(self, name):
                state[name] = getattr(self, name)
        state.update(getattr(self, "__dict__", {}))
        return (cls, (self.seat, self.p), state)

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            setattr(self, name, value)

    def start(self, view: PlayerView) -> None:
        """Called once per game before the first decision."""

    def statements(self, view: PlayerView, rng: Generator) -> list[Statement]:
        return []

    def vote(self, view: PlayerView, rng: Generator) -> int:
        return -1

    def defend(self, view: PlayerView, rng: Generator) -> list[Statement]:
        return []

    def respond(self, view: PlayerView, rng: Generator) -> list[Statement]:
        return []

    def clan_order(self, view: PlayerView, rng: Generator) -> ClanOrder | None:
        return None

    def night(self, view: PlayerView, rng: Generator) -> Action | None:
        return None


def class_path(cls: type) -> str:
    """`module:QualifiedName`, the import path `--agent` takes for a class (typed as a plain
    `type`: mypyc reads `__module__` of a type, not of a `type[Agent]`)."""
    return f"{cls.__module__}:{cls.__qualname__}"


#: Every role an agent may be set for (the VSB is told he is a civilian, R2.3, but a user
#: may still give him his own agent: the driver knows his true role).
ROLE_KEYS: Final = [r.key for r in Role]


def _clans_of(role: Role) -> tuple[Clan, ...]:
    """The clans an agent of `role` may play in (Clan.NONE outside the clans)."""
    if role is Role.MAFIOSO:
        return (Clan.YAKUZA, Clan.TRIAD)
    if role is Role.KAMIKAZE:
        return (Clan.YAKUZA,)
    if role is Role.THUG:
        return (Clan.TRIAD,)
    return (Clan.NONE,)


# A regular Python class even in the compiled build: a compiled frozen dataclass does not
# unpickle, and the set travels to every worker (--jobs, Dask).
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class AgentSet:
    """Which agent class plays each role, and the parameters they get (by the names a user
    writes: `town.crowd`, `thug.beat`, `noise`; see sim.game.params)."""

    name: str
    classes: Mapping[Role, type[Agent]]
    params: Mapping[str, Value] = field(default_factory=dict)
    #: the set's default profile (the heuristic set's: agents/profiles/heuristic.toml); what
    #: the user gives in `params` wins over it
    defaults: Mapping[str, Value] = field(default_factory=dict)
    #: resolved parameter values by (role, clan): worked out once per set
    _resolved: dict[tuple[Role, Clan], dict[str, Value]] = field(
        default_factory=dict, init=False, compare=False, hash=False, repr=False)

    def make(self, role: Role, seat: int, clan: Clan = Clan.NONE) -> Agent:
        """The agent for a player of `role` (in `clan`, for clan roles) at `seat`."""
        key = (role, clan)
        values = self._resolved.get(key)
        if values is None:
            values = self._resolved[key] = resolve_for(self.classes[role], role, clan,
                                                       self.params, self.defaults)
        return self.classes[role](seat, values)

    def uses_reads(self) -> bool:
        return any(cls.USES_READS for cls in self.classes.values())

    def known_params(self) -> set[str]:
        """Every bare parameter name an agent of the set has."""
        out: set[str] = set()
        for cls in self.classes.values():
            out |= set(params_of(cls))
        return out

    def agents_of(self) -> list[tuple[Role, Clan, type[Agent]]]:
        """Every (role, clan, class) this set can seat."""
        return [(role, clan, cls) for role, cls in self.classes.items()
                for clan in _clans_of(role)]

    def describe(self) -> dict[str, str]:
        return {r.key: class_path(c) for r, c in self.classes.items()}

    def with_params(self, more: Mapping[str, Any]) -> AgentSet:
        """The same set with parameters added or replaced (checked as a user's input)."""
        return AgentSet(self.name, self.classes,
                        check_params(self, {**self.params, **more}), self.defaults)

    def profile_value(self, role: Role, clan: Clan, name: str, prm: Param) -> Value:
        """What parameter `name` of the agent of (role, clan) plays by default in this set:
        the profile's most specific name for it (as `resolve_for` looks it up), else the
        declared default."""
        for key in lookup_order(role, clan, name):
            if key in self.defaults:
                return self.defaults[key]
        return prm.default

    def space(self, camp: str, roles: Iterable[tuple[Role, Clan]] | None = None,
              rules: object | None = None) -> list[Dim]:
        """The directions in which `camp` may deviate on its own: every parameter of its
        agents, named by camp (`town.crowd`) or, for one role's parameter, by role
        (`thug.beat`). `roles` limits it to the (role, clan) pairs seated at a table, and
        `rules` (a RuleSet) leaves out what only matters under an option that is off."""
        seated = set(roles) if roles is not None else None
        dims: dict[str, Dim] = {}
        for role, clan, cls in self.agents_of():
            if camp_of(role, clan) != camp or (seated is not None
                                               and (role, clan) not in seated):
                continue
            for name, prm in params_of(cls).items():
                if prm.needs_rule and rules is not None and not getattr(rules,
                                                                        prm.needs_rule):
                    continue
                key = f"{role.key}.{name}" if prm.per_role else f"{camp}.{name}"
                if key not in dims:
                    here = self.profile_value(role, clan, name, prm)
                    values = prm.search_values()
                    dims[key] = Dim(key, replace(prm, default=here),
                                    values if here in values else (*values, here))
        return [dims[k] for k in sorted(dims)]


def _scope_error(name: str) -> InputError:
    return InputError(
        f"agent parameter {name!r}: write NAME, CAMP.NAME, ROLE.NAME or CLAN.ROLE.NAME "
        f"(camps: {', '.join(CAMP_SCOPES)}; roles: {', '.join(ROLE_KEYS)})")


def check_params(aset: AgentSet, given: Mapping[str, Any]) -> dict[str, Value]:
    """Every given parameter checked: its scope exists, some agent in that scope has it,
    and its value is in the documented range. Returns the parsed values."""
    out: dict[str, Value] = {}
    for name, raw in given.items():
        if not isinstance(name, str) or not name:
            raise InputError(f"agent parameter name {name!r} is not a name")
        parts = name.split(".")
        pname, scope = parts[-1], tuple(parts[:-1])
        if pname in InfoModel.PARAMS:
            if scope:
                raise InputError(f"agent parameter {name!r}: {pname} describes the table's "
                                 f"skill and takes no camp or role (write {pname}=...)")
            out[name] = InfoModel.PARAMS[pname].parse(raw, name)
            continue
        if len(scope) > 2 or any(not s for s in scope):
            raise _scope_error(name)
        if len(scope) == 2 and (scope[0] not in CAMPS or scope[1] not in ROLE_KEYS):
            raise _scope_error(name)
        if len(scope) == 1 and scope[0] not in CAMP_SCOPES and scope[0] not in ROLE_KEYS:
            raise _scope_error(name)
        matched: list[Param] = []
        have: set[str] = set()
        for role, clan, cls in aset.agents_of():
            if not scope_matches(scope, role, clan):
                continue
            own = params_of(cls)
            have |= set(own)
            if pname in own:
                matched.append(own[pname])
        if not matched:
            who = ".".join(scope) or "any agent"
            known = ", ".join(sorted(have | (set() if scope else set(InfoModel.PARAMS))))
            raise InputError(f"unknown agent parameter {name!r}: no agent of {who} has "
                             f"{pname!r} (parameters: {known or 'none'})")
        value = matched[0].parse(raw, name)
        for prm in matched[1:]:
            prm.parse(raw, name)
        out[name] = value
    return out
