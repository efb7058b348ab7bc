"""Parameters a user may set, declared once as a `Param` (default, range or choices, what it
does): the agents' parameters, addressed by camp or role and checked on entry, and, with the
same declaration, the table's skill (`sim.engine.info.InfoModel.PARAMS`) and the rule options
(each `sim.game.rules.RuleSet` field).

An agent class declares what a user may tune in `PARAMS`, a mapping of name to `Param`
(a plain number is accepted too, for a user's own agent: a parameter with no range).

A user addresses a parameter by the camp or role whose agents should take it:

- `town.crowd`: every Town agent (civilians, VSBs, heroes, necromancer);
- `yakuza.mafia_follow`, `triad.noise`: one clan's agents; `clan.noise`: both clans;
- `maniac.noise`: the maniac;
- `thug.beat`, `ninja.threshold`, `commissar.reveal`: one role's agents (a role in both
  clans, the mafioso, takes `yakuza.mafioso.x` for one clan only);
- a bare `noise`: every agent that has it.

The most specific name wins: `camp.role.name`, then `role.name`, then `camp.name`, then
`clan.name` (clan members), then the bare name, then the agent's default.

The information model's skills (`town_skill`, `mafia_skill`, `maniac_skill`) describe the
table, not a camp's play: they keep their bare names and are not searched by `exploit`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sim.game.errors import InputError
from sim.game.roles import CLAN_ROLES, Clan, Role

#: A parameter's value: a number, or one of a choice's names.
Value = float | str

CAMPS = ("town", "yakuza", "triad", "maniac")
#: scopes a parameter name may start with (besides role keys)
CAMP_SCOPES = (*CAMPS, "clan")


@dataclass(frozen=True)
class Param:
    """One tunable parameter: default, documented range (or choices), what it does.

    `per_role` marks a parameter of one role's policy (the thug's `beat`): `exploit` then
    moves it as `thug.beat`; the others belong to the whole camp (`town.crowd`).
    `grid` lists the values a search tries (the range's ends and default when empty).
    """

    default: Value
    low: float = -math.inf
    high: float = math.inf
    doc: str = ""
    choices: tuple[str, ...] = ()
    per_role: bool = False
    grid: tuple[Value, ...] = ()
    integer: bool = False
    #: a rule-set option it needs to matter (`doctor_self_heal`): without it, a search
    #: leaves the parameter alone
    needs_rule: str = ""

    def parse(self, value: Any, name: str) -> Value:
        """The value checked against the range, or an InputError naming name, range, value."""
        if self.choices:
            text = str(value).strip()
            if text not in self.choices:
                raise InputError(f"agent parameter {name} is one of {', '.join(self.choices)}"
                                 f", got {value!r}")
            return text
        if isinstance(value, bool):
            raise InputError(f"agent parameter {name} takes a number in {self.range_text()}, "
                             f"got {value!r}")
        if isinstance(value, str):
            text = value.strip()
            if not text.isascii():
                raise InputError(f"agent parameter {name}: {value!r} is not a number")
            try:
                x = float(text)
            except ValueError:
                raise InputError(f"agent parameter {name}: {value!r} is not a number "
                                 f"(range {self.range_text()})") from None
        elif isinstance(value, (int, float)):
            try:
                x = float(value)
            except OverflowError:
                raise InputError(f"agent parameter {name}: {value!r} is out of range "
                                 f"{self.range_text()}") from None
        else:
            raise InputError(f"agent parameter {name} takes a number, got {value!r}")
        if math.isnan(x) or not (self.low <= x <= self.high) or math.isinf(x):
            raise InputError(f"agent parameter {name} must be in {self.range_text()}, "
                             f"got {value!r}")
        if self.integer and x != int(x):
            raise InputError(f"agent parameter {name} takes a whole number in "
                             f"{self.range_text()}, got {value!r}")
        return x

    def range_text(self) -> str:
        if self.choices:
            return "{" + ", ".join(self.choices) + "}"
        lo = "-inf" if self.low == -math.inf else f"{self.low:g}"
        hi = "inf" if self.high == math.inf else f"{self.high:g}"
        return f"[{lo}, {hi}]"

    def search_values(self) -> tuple[Value, ...]:
        """The values a best-response search tries (the default among them)."""
        if self.grid:
            vals = list(self.grid)
        elif self.choices:
            vals = list(self.choices)
        else:
            vals = [v for v in (self.low, self.high) if math.isfinite(v)]
        if self.default not in vals:
            vals.append(self.default)
        return tuple(vals)


def as_param(value: Param | float) -> Param:
    """A declaration as a Param (a plain number from a user's agent: no range)."""
    return value if isinstance(value, Param) else Param(float(value))


_PARAMS_OF: dict[type, dict[str, Param]] = {}


def params_of(cls: type) -> dict[str, Param]:
    """An agent class's parameters, as Params: worked out once per class (every agent of
    every game asks), so the mapping is shared: read it, never change it."""
    out = _PARAMS_OF.get(cls)
    if out is None:
        out = _PARAMS_OF[cls] = {k: as_param(v) for k, v in getattr(cls, "PARAMS", {}).items()}
    return out


def camp_of(role: Role, clan: Clan) -> str:
    """The camp key of an agent playing `role` in `clan` (the VSB plays for Town)."""
    if role in CLAN_ROLES:
        return clan.key
    if role is Role.MANIAC:
        return "maniac"
    return "town"


def lookup_order(role: Role, clan: Clan, name: str) -> list[str]:
    """The names a parameter is looked up by for one agent, most specific first."""
    camp = camp_of(role, clan)
    out = [f"{camp}.{role.key}.{name}", f"{role.key}.{name}", f"{camp}.{name}"]
    if role in CLAN_ROLES:
        out.append(f"clan.{name}")
    out.append(name)
    return out


def resolve_for(cls: type, role: Role, clan: Clan, given: Mapping[str, Value],
                defaults: Mapping[str, Value] | None = None) -> dict[str, Value]:
    """The values one agent (class, role, clan) plays with: the most specific name the user
    gave for each of its parameters; else the most specific name of the set's default
    profile (`defaults`); else the parameter's declared default. Any name the user gives,
    even a bare one, wins over the profile."""
    out: dict[str, Value] = {}
    for name, prm in params_of(cls).items():
        value: Value = prm.default
        found = False
        for key in lookup_order(role, clan, name):
            if key in given:
                value, found = given[key], True
                break
        if not found and defaults:
            for key in lookup_order(role, clan, name):
                if key in defaults:
                    value = defaults[key]
                    break
        out[name] = value
    return out


def scope_matches(scope: tuple[str, ...], role: Role, clan: Clan) -> bool:
    """Whether a name's scope (`()`, `("town",)`, `("thug",)`, `("yakuza", "mafioso")`)
    addresses an agent playing `role` in `clan`."""
    camp = camp_of(role, clan)
    keys = {camp, role.key} | ({"clan"} if role in CLAN_ROLES else set())
    if len(scope) == 2:
        return scope[0] == camp and scope[1] == role.key
    return all(s in keys for s in scope)


@dataclass(frozen=True)
class Dim:
    """One direction a camp may deviate in: a parameter name as a user writes it, and the
    values a search tries."""

    name: str
    param: Param
    values: tuple[Value, ...] = field(default=())

