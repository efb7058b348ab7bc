"""A mixture of strategies: each camp plays one of several profiles, drawn per game.

Best response cycles between single profiles (results/talk.md); a mixed equilibrium is what
resolves such a cycle, so a balance figure may be "under this mixture": each camp's
profiles with their weights. A profile here is a set of agent parameters of one camp
(`town.crowd`, `thug.beat`, `yakuza.rope_claim`), at the level of the agent set's default
profile: what the user sets with `--param` still wins over it.

Game `i` of a run with seed `S` draws each camp's profile from numbers of its own: four
uniform numbers, one a camp in the order of CAMPS, whatever the mixture, hashed from
(S, i, MIX_KEY, camp) by SplitMix64 (`uniform`). So the draws depend on the seed and the
game's index only (never on jobs, batches or backend); every stream of the game (the deal,
the reads, the seats) is the one it has without a mixture; and two mixtures of the same
seed draw on common random numbers. A camp with one profile draws nothing: a mixture of
one profile a camp plays exactly that profile's games.

The file (TOML), as `mafia-sim equilibrate` writes it and `--params FILE` reads it:

    [mixture]
    found = "PSRO, 3 rounds on the standard 25-player table ..."   # how it was found
    [[mixture.town]]
    weight = 0.6
    params = { "town.crowd" = 0.7 }
    [[mixture.town]]
    weight = 0.4
    params = { "town.crowd" = 0.3, "town.noise" = 0.15 }
    [[mixture.yakuza]]
    weight = 1.0
    params = {}

A camp not named plays the set's profile. `[mixture_at.20]`, laid out as `[mixture]`, is the
mixture of a 20-player table alone (`mixture_in_file`). `[params]` beside `[mixture]`
applies to every game at the level of the set's own profile, as in the shipped profile
file: the mixture's profiles win over it (a `clan.mafia_follow` there leaves a profile's
`yakuza.mafia_follow` alone), and the user's names win over both
(sim.play.setup.split_profile_params).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from sim.game.errors import InputError
from sim.game.params import Value

#: the camps a mixture draws for, in the order of their uniform numbers
CAMPS: tuple[str, ...] = ("town", "yakuza", "triad", "maniac")
#: the key that sets the draws' numbers apart from any other hash of (seed, game)
MIX_KEY = 0x6D6978  # "mix"
_MASK = (1 << 64) - 1


def _mix64(x: int) -> int:
    """SplitMix64's finaliser: a 64-bit word whose every bit depends on every bit of x."""
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9 & _MASK
    x = (x ^ (x >> 27)) * 0x94D049BB133111EB & _MASK
    return x ^ (x >> 31)


def uniform(seed: int, game: int, k: int) -> float:
    """The uniform number in [0, 1) of camp `k` in game `game` of seed `seed`: SplitMix64
    over (seed, game, MIX_KEY, k), each folded in turn (a few microseconds, where a numpy
    SeedSequence and generator a game cost 60; and the same on every numpy version)."""
    x = _mix64((seed & _MASK) ^ 0x9E3779B97F4A7C15)
    x = _mix64(x ^ (game & _MASK))
    x = _mix64(x ^ MIX_KEY)
    x = _mix64(x ^ k)
    return (x >> 11) * (1.0 / (1 << 53))


def bad_weights(comps: Sequence[Component]) -> float | None:
    """The sum of a camp's weights when they are not non-negative and summing to 1 (what is
    wrong with them), else None."""
    total = sum(c.weight for c in comps)
    if any(not (c.weight >= 0 and math.isfinite(c.weight)) for c in comps) \
            or not math.isclose(total, 1.0, abs_tol=1e-6):
        return total
    return None


@dataclass(frozen=True)
class Component:
    """One profile of a camp and its weight."""

    weight: float
    params: Mapping[str, Value] = field(default_factory=dict)


@dataclass(frozen=True)
class Mixture:
    """Each camp's profiles with their weights (weights of a camp sum to 1)."""

    camps: Mapping[str, tuple[Component, ...]]
    found: str = ""

    def __post_init__(self) -> None:
        for camp, comps in self.camps.items():
            if camp not in CAMPS:
                raise InputError("mixture: unknown camp {camp!r} (camps: {camps})",
                                 camp=camp, camps=", ".join(CAMPS))
            if not comps:
                raise InputError("mixture: camp {camp} has no profile", camp=camp)
            total = bad_weights(comps)
            if total is not None:
                raise InputError("mixture: the weights of {camp} must be non-negative and "
                                 "sum to 1 (they sum to {total:.6g})", camp=camp, total=total)

    @property
    def drawing(self) -> bool:
        """Whether any camp has more than one profile (else nothing is drawn)."""
        return any(len(c) > 1 for c in self.camps.values())

    def sizes(self) -> tuple[int, ...]:
        return tuple(len(self.camps.get(c, (Component(1.0),))) for c in CAMPS)

    @cached_property
    def _cumulative(self) -> tuple[tuple[float, ...], ...]:
        out = []
        for camp in CAMPS:
            comps = self.camps.get(camp, ())
            total, acc = sum(c.weight for c in comps), []
            run = 0.0
            for c in comps:
                run += c.weight
                acc.append(run / total if total else 1.0)
            out.append(tuple(acc))
        return tuple(out)

    def draw(self, seed: int, game: int) -> tuple[int, ...]:
        """The profile index of each camp (in CAMPS order) in game `game` of seed `seed`."""
        if not self.drawing:
            return (0,) * len(CAMPS)
        out = []
        for k, cum in enumerate(self._cumulative):
            if len(cum) <= 1:
                out.append(0)
                continue
            u = uniform(seed, game, k)
            out.append(next((j for j, c in enumerate(cum) if u < c), len(cum) - 1))
        return tuple(out)

    def params_of(self, pick: Sequence[int]) -> dict[str, Value]:
        """The parameters of the profiles picked (one index a camp, in CAMPS order)."""
        out: dict[str, Value] = {}
        for camp, k in zip(CAMPS, pick, strict=True):
            comps = self.camps.get(camp)
            if comps is not None:
                out.update(comps[k].params)
        return out

    def check(self, agents: Any) -> None:
        """Each camp's profiles set only that camp's parameters, as the agent set names them
        (`AgentSet.space`: `town.crowd`, `thug.beat`), with values in their ranges."""
        for camp, comps in self.camps.items():
            names = {d.name for d in agents.space(camp)}
            for c in comps:
                for name in c.params:
                    if name not in names:
                        raise InputError(
                            "mixture: {camp}'s profile sets {name}, which is not one of "
                            "{camp}'s parameters ({names})", camp=camp, name=name,
                            names=", ".join(sorted(names)))
                agents.with_params(c.params)  # the values: an InputError names a bad one

    def known_to(self, agents: Any) -> Mixture:
        """The mixture without the parameters no agent of `agents` declares: the shipped
        mixture under a role the user gave an agent of his own (his doctor need not have
        the shipped doctor's `guard_opened`). The weights, and so the draws, are the same."""
        camps = {}
        for camp, comps in self.camps.items():
            names = {d.name for d in agents.space(camp)}
            camps[camp] = tuple(Component(c.weight, {k: v for k, v in c.params.items()
                                                     if k in names}) for c in comps)
        return Mixture(camps, self.found)

    def fixed(self, camp: str, params: Mapping[str, Value]) -> Mixture:
        """The same mixture with `camp` playing one profile, `params`."""
        return Mixture({**self.camps, camp: (Component(1.0, dict(params)),)}, self.found)

    def top(self, camp: str) -> Mapping[str, Value]:
        """The camp's profile of the largest weight (its own, when it has one)."""
        comps = self.camps.get(camp)
        if not comps:
            return {}
        return max(comps, key=lambda c: c.weight).params

    def as_toml(self, players: int | None = None) -> str:
        """The file's `[mixture]`, or with `players` its `[mixture_at.N]` (that table size's
        own mixture, `mixture_in_file`)."""
        key = "mixture" if players is None else f"mixture_at.{players}"
        lines = [f"[{key}]"]
        if self.found:
            lines.append(f"found = {toml_str(self.found)}")
        for camp in CAMPS:
            for c in self.camps.get(camp, ()):
                lines += ["", f"[[{key}.{camp}]]", f"weight = {c.weight!r}",
                          "params = { " + ", ".join(
                              f"{toml_str(k)} = {toml_value(v)}"
                              for k, v in sorted(c.params.items())) + " }"
                          if c.params else "params = {}"]
        return "\n".join(lines) + "\n"

    def describe(self) -> dict[str, Any]:
        return {camp: [{"weight": c.weight, "params": dict(c.params)}
                       for c in self.camps[camp]] for camp in CAMPS if camp in self.camps}


def read_mixture(table: object, where: str) -> Mixture:
    """A `[mixture]` table of a parameter file."""
    if not isinstance(table, Mapping):
        raise InputError("{where}: [mixture] must be a table", where=where)
    found = table.get("found", "")
    if not isinstance(found, str):
        raise InputError("{where}: [mixture] found must be a string", where=where)
    camps: dict[str, tuple[Component, ...]] = {}
    for camp, items in table.items():
        if camp == "found":
            continue
        if camp not in CAMPS:
            raise InputError("{where}: [mixture] has an unknown camp {camp!r} (camps: "
                             "{camps})", where=where, camp=camp, camps=", ".join(CAMPS))
        if not isinstance(items, list) or not items:
            raise InputError("{where}: [[mixture.{camp}]] must be one or more tables of "
                             "weight and params", where=where, camp=camp)
        comps = []
        for i, item in enumerate(items):
            if not isinstance(item, Mapping) or set(item) - {"weight", "params"}:
                raise InputError("{where}: mixture.{camp}[{i}] holds weight and params only",
                                 where=where, camp=camp, i=i)
            w = item.get("weight")
            if isinstance(w, bool) or not isinstance(w, (int, float)):
                raise InputError("{where}: mixture.{camp}[{i}] weight must be a number",
                                 where=where, camp=camp, i=i)
            params = item.get("params", {})
            if not isinstance(params, Mapping):
                raise InputError("{where}: mixture.{camp}[{i}] params must be a table",
                                 where=where, camp=camp, i=i)
            comps.append(Component(float(w), dict(params)))
        total = bad_weights(comps)
        if total is not None:  # as Mixture checks them, with the file named
            raise InputError("{where}: the weights of {camp} must be non-negative and sum "
                             "to 1 (they sum to {total:.6g})", where=where, camp=camp,
                             total=total)
        camps[camp] = tuple(comps)
    return Mixture(camps, found)


def toml_str(s: str) -> str:
    """A TOML basic string."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def toml_value(v: Value) -> str:
    """A parameter's value as TOML writes it (the one writer of profile and mixture files)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return toml_str(v)
    return repr(v)


def agents_for(agents: Any, mixture: Mixture | None, pick: Sequence[int]) -> Any:
    """The agent set of a game that drew `pick`: the profiles picked at the level of the
    set's own profile (`AgentSet.defaults`), so the user's parameters still win."""
    if mixture is None:
        return agents
    from agents.base import AgentSet

    return AgentSet(agents.name, agents.classes, agents.params,
                    {**agents.defaults, **mixture.params_of(pick)})


#: a worker's drivers of a mixture's picks, kept from batch to batch, by (the setup's
#: digest, the pick): a mixture of many profiles (a PSRO payoff table has hundreds of cells)
#: draws a new pick for nearly every game of a batch, and building its driver (the agent
#: set's parameters resolved for every role, the table checked) cost a tenth of the run.
#: A driver carries nothing from one game to the next (the games of a run are the same
#: whatever its batches and jobs), so a kept one plays the same games.
_KEPT: dict[tuple[bytes, tuple[int, ...]], Any] = {}
_KEPT_MOST = 4096


def _setup_digest(setup: Any) -> bytes | None:
    """The setup's digest, or None when it cannot be pickled (an agent class made at run
    time, not found by its module's name: its drivers are then not kept between runs)."""
    import hashlib
    import pickle

    try:
        data = pickle.dumps(setup, protocol=5)
    except (pickle.PicklingError, AttributeError, TypeError):
        return None
    return hashlib.blake2b(data, digest_size=16).digest()


class Drivers:
    """The driver of each game of a setup: one per profile pick, made when first drawn (a
    mixture's kept in the worker from batch to batch)."""

    def __init__(self, setup: Any):
        self.setup = setup
        self._by_pick: dict[tuple[int, ...], Any] = {}
        self._last: Any = None
        mix = setup.mixture
        self._digest = _setup_digest(setup) if mix is not None and mix.drawing else None

    def for_game(self, seed: int, game: int) -> Any:
        from sim.play.driver import Driver

        s = self.setup
        pick = s.mixture.draw(seed, game) if s.mixture is not None else ()
        d = self._by_pick.get(pick)
        if d is None and self._digest is not None:
            d = _KEPT.get((self._digest, pick))
            if d is not None:
                self._by_pick[pick] = d
        if d is None:
            d = self._by_pick[pick] = Driver(s.comp, s.rules,
                                             agents_for(s.agents, s.mixture, pick),
                                             s.on_illegal)
            if self._digest is not None:
                if len(_KEPT) >= _KEPT_MOST:
                    _KEPT.clear()
                _KEPT[(self._digest, pick)] = d
        if self._last is not None and self._last is not d:
            # a driver keeps its last game (Driver.session) alive: sixteen drivers keeping
            # sixteen games cost the run 18% in the garbage collector's passes
            self._last.session = None
        self._last = d
        return d


# -- parameter files ------------------------------------------------------------------------
# (here beside the mixture they may hold, and in the page's message catalogs: the page takes
# a profile too, and says what is wrong with it in the reader's language)
PARAMS_FILE_KEYS = {"params", "mixture", "mixture_at"}


def parse_toml(raw: bytes, where: str) -> dict[str, Any]:
    """TOML bytes (a file's, or a profile pasted on the page) as a table; what is wrong with
    them an InputError naming `where` and TOML's own message (its line and column)."""
    import tomllib

    try:
        return tomllib.loads(raw.decode("utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise InputError("{where}: malformed TOML: {why}", where=where, why=str(e)) from None
    except UnicodeDecodeError:
        raise InputError("{where}: not UTF-8 text", where=where) from None
    except ValueError:  # an integer over Python's 4,300-digit limit
        raise InputError("{where}: the TOML holds an integer of more than 4,300 digits",
                         where=where) from None
    except RecursionError:
        raise InputError("{where}: the TOML is nested too deeply", where=where) from None


def flatten_params(table: Mapping[str, Any], where: str, prefix: str = "") -> dict[str, Any]:
    """`[agents.params]` as flat names: TOML reads `town.crowd = 0` as a nested table."""
    out: dict[str, Any] = {}
    for k, v in table.items():
        name = f"{prefix}{k}"
        if isinstance(v, Mapping):
            out.update(flatten_params(v, where, name + "."))
        elif isinstance(v, (list, tuple)):
            raise InputError("{where}: agent parameter {name} takes one value, got {value}",
                             where=where, name=name, value=repr(v))
        else:
            out[name] = v
    return out


def params_in_file(data: Mapping[str, Any], where: str) -> dict[str, Any]:
    """The `[params]` of a parameter file's table, as flat names."""
    unknown = set(data) - PARAMS_FILE_KEYS
    if unknown:
        raise InputError("{where}: unknown key(s) {keys} (a parameter file holds one [params] "
                         "table of NAME = value, and a [mixture])", where=where,
                         keys=", ".join(sorted(unknown)))
    table = data.get("params", {})
    if not isinstance(table, Mapping):
        raise InputError("{where}: params must be a table ([params] then NAME = value lines)",
                         where=where)
    return flatten_params(table, where)


def mixture_in_file(data: Mapping[str, Any], where: str,
                    players: int | None = None) -> Mixture | None:
    """The mixture a parameter file's table plays at a table of `players`: its
    `[mixture_at.N]` for that size when it has one, else its `[mixture]`, else None.

    `[mixture_at.20]` (a mixture table, as `[mixture]`) is the mixture of the 20-player
    table alone: the strategies that hold differ by table size (issue 24: no one mixture
    PSRO found held at 20, 25 and 30 players together, results/mixture.md), so a profile
    may give a size its own. Every size's mixture is read, and so checked, whatever the
    table. At a size a file gives no mixture for, it is a plain parameter file (its
    [params] under the shipped mixture)."""
    at = data.get("mixture_at", {})
    if not isinstance(at, Mapping):
        raise InputError("{where}: mixture_at must be a table of table sizes "
                         "([mixture_at.20] then the mixture's tables)", where=where)
    sized: dict[int, Mixture] = {}
    for key, table in at.items():
        if not (isinstance(key, str) and key.isdigit()):
            raise InputError("{where}: mixture_at.{key}: a table size (a whole number of "
                             "players) was expected", where=where, key=key)
        sized[int(key)] = read_mixture(table, f"{where} [mixture_at.{key}]")
    general = read_mixture(data["mixture"], where) if "mixture" in data else None
    if players is not None and players in sized:
        return sized[players]
    return general
