"""Reading what to simulate: compositions (`--players`, `--roles`, TOML), rule overrides,
agent choices. Every mistake is an InputError that names it (and the line, for TOML)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents.base import AgentSet
from agents.registry import PROFILE, resolve_agent_set
from sim.game.errors import InputError
from sim.game.roles import Camp, Clan, Role
from sim.game.rules import Composition, RuleSet, Seat, flag_rule_hint
from sim.play.mixture import (
    Mixture,
    flatten_params,
    mixture_in_file,
    params_in_file,
    parse_toml,
)

_ITEM = re.compile(r"^\s*([a-z_]+)\s*(?:\*\s*([0-9]+))?\s*$")
#: the largest table a run accepts (memory and time grow with it; 100 plays ~10 ms a game)
MAX_PLAYERS = 1000


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
            if len(seats) + count > MAX_PLAYERS:
                raise InputError(f"--roles: more than {MAX_PLAYERS} players (the maximum)")
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


def load_toml(path: str | Path) -> dict[str, Any]:
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as e:
        raise InputError(f"cannot read {p}: {e.strerror}") from None
    return parse_toml(raw, str(p))


def load_params_file(path: str | Path) -> dict[str, Any]:
    """A parameter file: TOML with one `[params]` table of agent parameters by the names a
    user writes (`"town.crowd" = 0.15`, or nested: `town.crowd = 0.15`), as flat names.
    A malformed file is an InputError naming the file and the line (TOML's own message)."""
    return params_in_file(load_toml(path), str(path))


def params_file_path(given: str, where: str, base_dir: str | Path | None = None) -> Path:
    """Where a setup's `[agents] params_file` is: as given when absolute, else relative to
    `base_dir`, by default the folder of the setup file `where` if it is one (else the
    current folder)."""
    path = Path(given)
    if path.is_absolute():
        return path
    if base_dir is None:
        base_dir = Path(where).parent if Path(where).is_file() else Path.cwd()
    return Path(base_dir) / path


def load_mixture_file(path: str | Path, players: int | None = None) -> Mixture | None:
    """The mixture of a parameter file (sim.play.mixture) at a table of `players` (its
    `[mixture_at.N]`, else its `[mixture]`), or None."""
    return mixture_in_file(load_toml(path), str(path), players)


def check_params_from(aset: AgentSet, params: Mapping[str, Any], source: str) -> None:
    """Check one source's parameters alone, so that an error names the file it came from."""
    from agents.base import check_params

    try:
        check_params(aset, params)
    except InputError as e:
        raise InputError(f"{source}: {e}") from None


@dataclass
class Setup:
    """Everything a run needs besides the game count: composition, rules, agents."""

    comp: Composition
    rules: RuleSet
    agents: AgentSet
    on_illegal: str = "raise"
    run: dict[str, Any] = field(default_factory=dict)
    #: each camp's profiles and weights, drawn per game (sim.play.mixture); None: the agent
    #: set's own profile in every game
    mixture: Mixture | None = None
    #: the [params] of the parameter file that brought the mixture, played at the level of
    #: the set's own profile (they are in `agents.defaults` too): what a profile file
    #: written from this setup carries again (split_profile_params)
    profile: dict[str, Any] = field(default_factory=dict)

    def describe(self) -> dict[str, Any]:
        return {
            **({"mixture": self.mixture.describe()} if self.mixture is not None else {}),
            **({"profile_params": dict(self.profile)} if self.profile else {}),
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
    params_file: str | Path | None = None,
    base_dir: str | Path | None = None,
    single_profile: bool = False,
    profile: tuple[str, Mapping[str, Any]] | None = None,
) -> Setup:
    """Combine a TOML setup (may be None) with command-line flags (which win).

    Agent parameters, later ones winning: the setup's `[agents] params_file` (a path
    relative to `base_dir`, by default the folder of the setup file `where` if it is one),
    the setup's `[agents.params]`, the `params_file` given (`--params FILE`), then `params`
    (`--param NAME=VALUE`). `profile` is a parameter file's table already read, with the
    name its errors give it (the page's uploaded profile), taken as `params_file` is.

    The heuristic set's shipped mixture (a `[mixture]` in agents/profiles/heuristic.toml,
    issue 24) is drawn per game unless a parameter file brings its own or `single_profile`
    (`--single-profile`) asks for the set's single profile. A parameter file that brings a
    mixture is a whole profile: its [params] (but the table's skills) join the shipped
    [params] under its mixture's profiles, as in the shipped file, and every name the user
    gives elsewhere wins over both (`split_profile_params`)."""
    f = dict(file or {})
    unknown = set(f) - SETUP_KEYS
    if unknown:
        raise InputError(f"{where}: unknown key(s) {', '.join(sorted(unknown))} "
                         f"(keys: {', '.join(sorted(SETUP_KEYS))})")
    n = players if players is not None else f.get("players")
    what = "--players" if players is not None else f"{where}: players"
    if n is not None and (isinstance(n, bool) or not isinstance(n, int)):
        raise InputError(f"{what} must be a whole number, got {n!r}")
    role_text = roles if roles is not None else f.get("roles")
    if n is not None:
        low = 3 if role_text is not None else 12
        if not low <= n <= MAX_PLAYERS:
            table = "a game" if role_text is not None else "the standard table"
            raise InputError(f"{what} = {n}: {table} needs at least {low} players and "
                             f"takes at most {MAX_PLAYERS}")
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
    comp.validate(ruleset, flag_rule_hint if file is None else
                  lambda k, v: f"--rule {k}={v}, or {k} = {v} under [rules] in {where}")
    check_playable(comp)
    fa = f.get("agents", {})
    if isinstance(fa, str):
        fa = {"set": fa}
    if not isinstance(fa, Mapping):
        raise InputError(f"{where}: [agents] must be a table")
    unknown = set(fa) - {"set", "roles", "params", "params_file"}
    if unknown:
        raise InputError(f"{where}: unknown key(s) in [agents]: {', '.join(sorted(unknown))}")
    set_name = agents or fa.get("set", "heuristic")
    if not isinstance(set_name, str):
        raise InputError(f"{where}: [agents] set must be a string such as \"heuristic\", "
                         f"got {set_name!r}")
    file_over = fa.get("roles", {})
    if not isinstance(file_over, Mapping) or not all(
            isinstance(v, str) for v in file_over.values()):
        raise InputError(f"{where}: [agents.roles] must be a table of ROLE = \"agent\" "
                         f"strings, got {file_over!r}")
    over = {**dict(file_over), **dict(agent_overrides or {})}
    file_params = fa.get("params", {})
    if not isinstance(file_params, Mapping):
        raise InputError(f"{where}: [agents] params must be a table of NAME = value")
    sources: list[tuple[str, dict[str, Any]]] = []
    mixture: Mixture | None = None  # the last parameter file's [mixture], if any
    # the [params] beside that [mixture], at the level of the set's own profile
    # (split_profile_params says why)
    profile_level: tuple[str, dict[str, Any]] | None = None

    def add_file(name: str, table: Mapping[str, Any]) -> None:
        nonlocal mixture, profile_level
        values = params_in_file(table, name)
        mix = mixture_in_file(table, name, comp.n)
        if mix is None:
            sources.append((name, values))
            return
        mixture = mix
        strategy, table_level = split_profile_params(values)
        sources.append((name, table_level))
        profile_level = (name, strategy)

    setup_pfile = fa.get("params_file")
    if setup_pfile is not None:
        if not isinstance(setup_pfile, str) or not setup_pfile:
            raise InputError(f"{where}: [agents] params_file must be a path (a string)")
        pf = params_file_path(setup_pfile, where, base_dir)
        add_file(str(pf), load_toml(pf))
    sources.append((where, flatten_params(file_params, where)))
    if params_file is not None:
        add_file(str(params_file), load_toml(params_file))
    if profile is not None:
        add_file(profile[0], profile[1])
    par: dict[str, Any] = {}
    for _, values in sources:
        par.update(values)
    par.update(params or {})  # checked, with the files', against each parameter's range
    checked = [*sources, *([profile_level] if profile_level is not None else [])]
    if any(values for _, values in checked):
        plain = resolve_agent_set(str(set_name), over)
        for source, values in checked:
            check_params_from(plain, values, source)
    aset = resolve_agent_set(str(set_name), over, par)
    if profile_level is not None and profile_level[1]:
        aset = with_profile(aset, profile_level[1])
    policy = on_illegal or f.get("on_illegal", "raise")
    if policy not in ("raise", "skip"):
        raise InputError(f"on_illegal must be raise or skip, not {policy!r}")
    run = f.get("run", {})
    if not isinstance(run, Mapping):
        raise InputError(f"{where}: [run] must be a table")
    check_run(run, where)
    if mixture is None and not single_profile and str(set_name) == "heuristic":
        mixture = shipped_mixture(comp.n)
        if mixture is not None and over:
            # an agent of the user's own plays the shipped profiles' parameters it declares
            mixture = mixture.known_to(aset)
    if mixture is not None:
        mixture.check(aset)
    return Setup(comp, ruleset, aset, policy, dict(run), mixture,
                 dict(profile_level[1]) if profile_level is not None else {})


def pinned(aset: AgentSet, mixture: Mixture, values: Mapping[str, Any]) -> dict[str, Any]:
    """The user's parameters `values` as a mixture file's [params] must write them to play
    as they did. A user's name wins over every profile; in a file's [params] it stands at
    the profile's level, under the mixture's profiles, where the most specific name wins.
    So for each agent a name reaches where a mixture profile's name (the same or a more
    specific one) or a more specific name of the set's own profile would beat it there, it
    is written by that agent's most specific name as well (`yakuza.mafioso.mafia_follow`,
    which no profile uses); it stays as given for the rest."""
    from sim.game.params import lookup_order, params_of

    mixed = {k for comps in mixture.camps.values() for c in comps for k in c.params}
    out: dict[str, Any] = {}
    for name, value in values.items():
        out[name] = value
        base = name.rsplit(".", 1)[-1]
        for role, clan, cls in aset.agents_of():
            if base not in params_of(cls):
                continue
            order = lookup_order(role, clan, base)
            if name not in order or order.index(name) == 0:
                continue
            mine = order.index(name)
            if any(k in mixed for k in order[:mine + 1]) \
                    or any(k in aset.defaults for k in order[:mine]):
                out[order[0]] = value
    return out


def split_profile_params(values: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A mixture file's [params] as (the agents' strategy, the table's skills). A file with
    a [mixture] is a profile, as the shipped agents/profiles/heuristic.toml is: its [params]
    stand where the shipped [params] stand, so its mixture's profiles win over them, as they
    do in the shipped file. (Read as the user's, they won over every profile of the file: a
    `clan.mafia_follow` there flattened each profile's `yakuza.mafia_follow`.) The skills
    (`town_skill`, ...) describe the table, not a camp's play, and stay the user's, as in
    any other parameter file."""
    from sim.engine.info import InfoModel

    skills = {k: v for k, v in values.items() if k in InfoModel.PARAMS}
    return {k: v for k, v in values.items() if k not in skills}, skills


def with_profile(aset: AgentSet, values: Mapping[str, Any]) -> AgentSet:
    """The set with `values` written into its own profile: over its shipped [params], under
    the mixture's profiles and anything the user names."""
    from agents.base import check_params

    extra = check_params(AgentSet(aset.name, aset.classes), values)
    return AgentSet(aset.name, aset.classes, aset.params, {**aset.defaults, **extra})


_SHIPPED: dict[int | None, Mixture | None] = {}


def shipped_mixture(players: int | None = None) -> Mixture | None:
    """The heuristic set's shipped mixture at a table of `players`: its profile file's
    `[mixture_at.N]` for that size, else its `[mixture]`, if any."""
    if players not in _SHIPPED:
        _SHIPPED[players] = load_mixture_file(PROFILE, players)
    return _SHIPPED[players]


def check_playable(comp: Composition) -> None:
    """P2.2: a table needs an enemy of Town (refused the same way by every front end)."""
    if all(s.camp is Camp.TOWN for s in comp.seats):
        raise InputError("the table has no enemy of Town (no clan member, no maniac) "
                         "[P2.2]")


RUN_KEYS = {"games", "precision", "seed", "jobs", "max_games"}
#: the largest seed (results are written as 64-bit signed integers)
MAX_SEED = 2**63 - 1
#: the most games one run, comparison or search may ask for (a billion games take weeks on
#: one machine; more is a typo, and with --quiet it would print nothing for ever)
MAX_GAMES = 10**9


def check_run(run: Mapping[str, Any], where: str) -> None:
    """Every key of a [run] table, with its type and range."""
    unknown = set(run) - RUN_KEYS
    if unknown:
        raise InputError(f"{where}: unknown key(s) in [run]: {', '.join(sorted(unknown))} "
                         f"(keys: {', '.join(sorted(RUN_KEYS))})")
    for key, low, high in (("games", 1, MAX_GAMES), ("max_games", 1, MAX_GAMES),
                           ("seed", 0, MAX_SEED), ("jobs", -1, None)):
        v = run.get(key)
        if v is None:
            continue
        if isinstance(v, bool) or not isinstance(v, int):
            raise InputError(f"{where}: [run] {key} must be a whole number, got {v!r}")
        if v < low or (high is not None and v > high) or (key == "jobs" and v == 0):
            bound = f"from {low} to {high}" if high is not None else f"at least {low}"
            if key == "jobs":
                bound = "a positive number, or -1 for every core"
            raise InputError(f"{where}: [run] {key} must be {bound}, got {v}")
    prec = run.get("precision")
    if prec is not None:
        if isinstance(prec, bool) or not isinstance(prec, (int, float)):
            raise InputError(f"{where}: [run] precision must be a number, got {prec!r}")
        if not 0 < prec < 0.5:
            raise InputError(f"{where}: [run] precision must be between 0 and 0.5, got {prec}")
