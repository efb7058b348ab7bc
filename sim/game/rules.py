"""The static description of a game: the rule set (every [option] of RULES.md), the composition."""

from __future__ import annotations

import dataclasses
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from sim.game.errors import CompositionError, InputError
from sim.game.messages import Msg, msg
from sim.game.params import Param
from sim.game.roles import CLAN_ROLES, UNIQUE_ROLES, Camp, Clan, Role, camp_of


def _option(default: bool | int | float, doc: str, low: float = -math.inf,
            high: float = math.inf) -> Any:
    """A rule option's one declaration: its default, its range (a choice of true or false
    for a switch) and what it does, as a `sim.game.params.Param` in the field's metadata.
    `RuleSet.check`, `RuleSet.options` (`mafia-sim params`, the page) read it."""
    is_switch = isinstance(default, bool)
    return field(default=default, metadata={"param": Param(
        default, low, high, doc, choices=("true", "false") if is_switch else (),
        integer=isinstance(default, int) and not is_switch)})


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Every rule option, with the default of RULES.md. Flip one to measure its effect."""

    require_vsb: bool = _option(True, "D2.1: a clan must have its VSB (R2.3)")
    allow_duplicate_roles: bool = _option(
        False, "D2.1: unique roles (commissar, ..., maniac) may appear more than once")
    vote_rejection: float = _option(
        0.0, "D5.2: chance that a cast vote is not accepted by the host (R5.3)", 0.0, 1.0)
    reveal_night_roles: bool = _option(
        False, "D15.1: the newspaper reveals the roles of players killed at night")
    p_absent: float = _option(
        0.0, "D16.1: per player and turn (from 1), chance of posting nothing (R16.1)",
        0.0, 1.0)
    p_no_vote: float = _option(
        0.0, "D16.1: per player and turn, chance of not voting (R16.2); used by the "
        "runner's day", 0.0, 1.0)
    p_rule_break: float = _option(
        0.0, "D16.1: per player and turn, chance of breaking a rule and being removed "
        "(R16.3)", 0.0, 1.0)
    p_passive: float = _option(
        0.0, "D16.1: per player and turn, chance of removal for passive play (R16.3)",
        0.0, 1.0)
    abstention_limit: int = _option(
        2, "D16.2: turns without a vote after which a player goes missing (R16.2); 0 = off",
        0)
    turn_limit: int = _option(
        100, "D17.4: a game reaching this turn stops as a stalemate", 1, 10_000)
    maniac_vest: bool = _option(
        True, "R9.2 as a designer's option: the maniac has his bullet-proof vest")
    maniac_ambush: bool = _option(
        True, "R9.3 as a designer's option: the maniac has his once-a-game ambush")
    doctor_self_heal: bool = _option(
        False, "R8.4 as a designer's option: the doctor may heal himself")
    doctor_repeat_heal: bool = _option(
        False, "R8.3 as a designer's option: the doctor may heal the same player two turns "
        "running")
    harakiri_at: int = _option(
        2, "R11.3: the ninja's peaceful kill that makes him commit harakiri (0 = never)", 0)
    necromancer_protects: int = _option(
        2, "R12.1: protects the necromancer hands out on turns 1-2", 0)
    army_min_living: int = _option(
        4, "R12.6: living players besides the necromancer needed to raise the Army", 0)
    duel: bool = _option(
        True, "R17.4: the endgame duel; off, two opposing players simply play on")

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    def replace(self, overrides: Mapping[str, object]) -> RuleSet:
        """A copy with fields replaced by name; unknown names and bad values are InputErrors."""
        known = {f.name: f for f in fields(self)}
        values: dict[str, object] = {}
        for name, raw in overrides.items():
            if name not in known:
                raise InputError("unknown rule {name!r} (rules: {items})", name=name,
                                 items=", ".join(sorted(known)))
            values[name] = _coerce_rule(name, type(getattr(self, name)), raw)
        new = dataclasses.replace(self, **values)  # type: ignore[arg-type]
        new.check()
        return new

    @classmethod
    def options(cls) -> dict[str, Param]:
        """Every rule option's declaration (default, range, what it does), by name."""
        return {f.name: f.metadata["param"] for f in fields(cls)}

    def check(self) -> None:
        """Every option within its declared range (a switch is always)."""
        for name, prm in self.options().items():
            value = getattr(self, name)
            if prm.choices or prm.low <= value <= prm.high:
                continue
            if (prm.low, prm.high) == (0.0, 1.0):
                raise InputError("rule {name} must be a probability in [0, 1], got {value}",
                                 name=Msg(name), value=value)
            if prm.high == math.inf:
                raise InputError("rule {name} must be >= {low:g}, got {value}",
                                 name=Msg(name), low=prm.low, value=value)
            raise InputError("rule {name} must be from {low:g} to {high:g}, got {value}",
                             name=Msg(name), low=prm.low, high=prm.high, value=value)

    def as_dict(self) -> dict[str, object]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


#: the largest whole-number rule value (turns, counts)
MAX_RULE_INT = 1_000_000
#: numbers on the command line and in files are ASCII digits only (not `٣`)
_ASCII_INT = re.compile(r"[+-]?[0-9]+")
_ASCII_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def _digits(v: int) -> int:
    """About how many digits v has (str() refuses integers over 4,300 digits)."""
    return int(abs(v).bit_length() * math.log10(2)) + 1


def _short(raw: object) -> str:
    text = repr(raw)
    return text if len(text) <= 40 else text[:37] + "..."


def _coerce_rule(name: str, kind: type, raw: object) -> object:
    """Parse a rule value given as JSON/TOML value or command-line text."""
    if kind is bool:
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, str) and raw.strip().lower() in ("true", "false", "1", "0", "yes", "no"):
            return raw.strip().lower() in ("true", "1", "yes")
        raise InputError("rule {name} takes true or false, got {short}",
                         name=Msg(name), short=_short(raw))
    if kind is int:
        if isinstance(raw, bool):
            raise InputError("rule {name} takes a whole number, got {raw!r}",
                             name=Msg(name), raw=raw)
        if isinstance(raw, str) and _ASCII_INT.fullmatch(raw.strip()):
            raw = int(raw.strip())
        if isinstance(raw, int):
            if abs(raw) > MAX_RULE_INT:
                raise InputError("rule {name} takes a whole number up to {MAX_RULE_INT:,}, got one "
                                 "of {digits} digits",
                                 name=Msg(name), MAX_RULE_INT=MAX_RULE_INT, digits=_digits(raw))
            return raw
        raise InputError("rule {name} takes a whole number, got {short}",
                         name=Msg(name), short=_short(raw))
    if kind is float:
        if isinstance(raw, bool):
            raise InputError("rule {name} takes a number, got {raw!r}", name=Msg(name), raw=raw)
        if isinstance(raw, str) and _ASCII_NUMBER.fullmatch(raw.strip()):
            raw = float(raw.strip())
        if isinstance(raw, int):
            whole = raw
            try:
                raw = float(whole)
            except OverflowError:
                raise InputError("rule {name} takes a number from 0 to 1, got one of {digits} "
                                 "digits", name=Msg(name), digits=_digits(whole)) from None
        if isinstance(raw, float):
            if not math.isfinite(raw):
                raise InputError("rule {name} takes a finite number, got {raw}",
                                 name=Msg(name), raw=raw)
            return raw
        raise InputError("rule {name} takes a number, got {short}",
                         name=Msg(name), short=_short(raw))
    raise InputError("rule {name}: unsupported type", name=Msg(name))  # pragma: no cover


RuleHint = Callable[[str, str], "str | Msg"]


def toml_rule_hint(name: str, value: str) -> str:
    return f"{name} = {value} under [rules]"


def flag_rule_hint(name: str, value: str) -> str:
    return f"--rule {name}={value}"


def json_rule_hint(name: str, value: str) -> str:
    return f'"rules": {{"{name}": {value}}}'


#: camp_of for every role and clan, looked up (a Seat's camp is asked for in every game)
_CAMPS = {(r, c): camp_of(r, c) for r in Role for c in Clan}


@dataclass(frozen=True, slots=True)
class Seat:
    """One player's role and clan (clan NONE outside both clans; a VSB has his father's clan)."""

    role: Role
    clan: Clan = Clan.NONE

    @property
    def camp(self) -> Camp:
        return _CAMPS[self.role, self.clan]

    def label(self) -> str:
        if self.role in CLAN_ROLES or self.role is Role.VSB:
            return f"{self.clan.key} {self.role.key}"
        return self.role.key

    def word(self) -> Msg:
        """The label as a message, worded per language (sim.game.i18n)."""
        if self.role in CLAN_ROLES or self.role is Role.VSB:
            return msg("{clan} {role}", clan=Msg(self.clan.key), role=Msg(self.role.key))
        return Msg(self.role.key)


@dataclass(frozen=True, slots=True)
class Composition:
    """Who is in the game: one Seat per player, in seating order."""

    seats: tuple[Seat, ...]
    names: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if not self.names:
            object.__setattr__(self, "names", tuple(f"P{i + 1}" for i in range(len(self.seats))))
        elif len(self.names) != len(self.seats):
            raise InputError("composition: the number of names differs from the number of seats")

    @property
    def n(self) -> int:
        return len(self.seats)

    def count(self, role: Role, clan: Clan | None = None) -> int:
        return sum(1 for s in self.seats if s.role is role and (clan is None or s.clan is clan))

    def clan_size(self, clan: Clan) -> int:
        return sum(1 for s in self.seats if s.clan is clan and s.role in CLAN_ROLES)

    # -- building -----------------------------------------------------------------------------
    @classmethod
    def from_seats(cls, seats: Iterable[Seat], names: Iterable[str] = ()) -> Composition:
        return cls(tuple(seats), tuple(names))

    @classmethod
    def from_counts(
        cls,
        *,
        civilian: int = 0,
        commissar: int = 0,
        sergeant: int = 0,
        ninja: int = 0,
        doctor: int = 0,
        necromancer: int = 0,
        maniac: int = 0,
        yakuza: int = 0,
        triad: int = 0,
        kamikaze: int = 0,
        thug: int = 0,
        yakuza_vsb: int = 0,
        triad_vsb: int = 0,
    ) -> Composition:
        """A composition from role counts; `yakuza`/`triad` count plain mafiosi only."""
        seats: list[Seat] = []
        for role, k in (
            (Role.COMMISSAR, commissar),
            (Role.SERGEANT, sergeant),
            (Role.NINJA, ninja),
            (Role.DOCTOR, doctor),
            (Role.NECROMANCER, necromancer),
            (Role.MANIAC, maniac),
        ):
            seats += [Seat(role)] * k
        seats += [Seat(Role.MAFIOSO, Clan.YAKUZA)] * yakuza
        seats += [Seat(Role.KAMIKAZE, Clan.YAKUZA)] * kamikaze
        seats += [Seat(Role.VSB, Clan.YAKUZA)] * yakuza_vsb
        seats += [Seat(Role.MAFIOSO, Clan.TRIAD)] * triad
        seats += [Seat(Role.THUG, Clan.TRIAD)] * thug
        seats += [Seat(Role.VSB, Clan.TRIAD)] * triad_vsb
        seats += [Seat(Role.CIVILIAN)] * civilian
        return cls(tuple(seats))

    @classmethod
    def standard(cls, n: int) -> Composition:
        """The community's usual table for n players (the default everywhere).

        Derived from R2: mafia are round(n/3) players (R2.2), split between the clans with the
        Yakuza taking the odd one; the kamikaze is in the Yakuza and the thug in the Triad (R1);
        each clan has its VSB (R2.3); one each of commissar, sergeant, ninja, doctor,
        necromancer and maniac; civilians for the rest. For 25: 4 Yakuza (kamikaze among
        them), 4 Triad (thug among them), 2 VSB, 5 heroes and necromancer, the maniac,
        9 civilians. Needs n >= 12 (each clan needs a Don besides its special, D2.1).
        """
        if n < 12:
            raise InputError("the standard table needs at least 12 players, got {n}", n=n)
        mafia = round(n / 3)
        yakuza = (mafia + 1) // 2
        triad = mafia - yakuza
        civilians = n - mafia - 2 - 6
        return cls.from_counts(
            civilian=civilians,
            commissar=1,
            sergeant=1,
            ninja=1,
            doctor=1,
            necromancer=1,
            maniac=1,
            yakuza=yakuza - 1,
            kamikaze=1,
            triad=triad - 1,
            thug=1,
            yakuza_vsb=1,
            triad_vsb=1,
        )

    # -- the D2.1 check -----------------------------------------------------------------------
    def problems(self, rules: RuleSet, how: RuleHint | None = None) -> list[Msg]:
        """Every fault of D2.1, one message each (empty when valid). `how(name, value)` says
        how to set a rule option in the interface the input came from (a flag, TOML, JSON)."""
        return [message for _, message in self.faults(rules, how)]

    def faults(self, rules: RuleSet, how: RuleHint | None = None) -> list[tuple[str, Msg]]:
        """`problems` with what each one is about, so a form can show it beside its control:
        a role key (`sergeant`, `doctor`), `CLAN.mafioso` or `CLAN.vsb` (a clan's members or
        its VSB), `seat:I` (one player), `players` or `names`."""
        hint = how or toml_rule_hint
        out: list[tuple[str, Msg]] = []
        if self.n < 3:
            out.append(("players", msg("a game needs at least 3 players, got {n} (D2.1)",
                                        n=self.n)))
        if len(set(self.names)) != len(self.names):
            dup = sorted(k for k, v in Counter(self.names).items() if v > 1)
            out.append(("names", msg("duplicate player names: {players}",
                                      players=", ".join(dup))))
        for i, s in enumerate(self.seats):
            seat = f"seat:{i}"
            if s.role is Role.KAMIKAZE and s.clan is not Clan.YAKUZA:
                out.append((seat, msg("{player}: the kamikaze is Yakuza only (R1, D2.1)",
                                      player=self.names[i])))
            if s.role is Role.THUG and s.clan is not Clan.TRIAD:
                out.append((seat, msg("{player}: the thug is Triad only (R1, D2.1)",
                                      player=self.names[i])))
            if s.role in (Role.MAFIOSO, Role.VSB) and s.clan is Clan.NONE:
                out.append((seat, msg("{player}: a {role} needs a clan (yakuza or triad)",
                                      player=self.names[i], role=Msg(s.role.key))))
            if s.role not in CLAN_ROLES and s.role is not Role.VSB and s.clan is not Clan.NONE:
                out.append((seat, msg("{player}: a {role} belongs to no clan",
                                      player=self.names[i], role=Msg(s.role.key))))
        if self.count(Role.SERGEANT) and not self.count(Role.COMMISSAR):
            out.append(("sergeant", Msg("a sergeant without a commissar (D2.1)")))
        for clan in (Clan.YAKUZA, Clan.TRIAD):
            members = [s for s in self.seats if s.clan is clan and s.role in CLAN_ROLES]
            vsb = self.count(Role.VSB, clan)
            if vsb and not members:
                out.append((f"{clan.key}.vsb", msg("a {clan} VSB without his clan (D2.1)",
                                                     clan=Msg(clan.key))))
            if members and vsb == 0 and rules.require_vsb:
                out.append((f"{clan.key}.vsb",
                            msg("the {clan} has no VSB (R2.3; to allow it: {how})",
                                clan=Msg(clan.key), how=hint("require_vsb", "false"))))
            if vsb > 1:
                out.append((f"{clan.key}.vsb",
                            msg("the {clan} has {n} VSBs; each clan has exactly one (R2.3)",
                                clan=Msg(clan.key), n=vsb)))
            if members and all(s.role is not Role.MAFIOSO for s in members):
                out.append((f"{clan.key}.mafioso",
                            msg("the {clan} has only a kamikaze or thug: no possible Don "
                                "(R2.6, D2.1)", clan=Msg(clan.key))))
        if not rules.allow_duplicate_roles:
            for role in sorted(UNIQUE_ROLES):
                k = self.count(role)
                if k > 1:
                    out.append((role.key,
                                msg("{n} players are {role}; a unique role appears once "
                                    "(D2.1; to allow it: {how})", n=k, role=Msg(role.key),
                                    how=hint("allow_duplicate_roles", "true"))))
        return out

    def validate(self, rules: RuleSet, how: RuleHint | None = None) -> None:
        problems = self.problems(rules, how)
        if problems:
            raise CompositionError(problems)

    def describe(self) -> str:
        """A short text such as `civilian*9,commissar,...,yakuza=mafioso*3+kamikaze+vsb`."""
        town: Counter[str] = Counter()
        clans: dict[Clan, Counter[str]] = {Clan.YAKUZA: Counter(), Clan.TRIAD: Counter()}
        for s in self.seats:
            if s.clan is Clan.NONE:
                town[s.role.key] += 1
            else:
                clans[s.clan][s.role.key] += 1
        rank = {r.key: int(r) for r in Role}
        parts = [k if v == 1 else f"{k}*{v}"
                 for k, v in sorted(town.items(), key=lambda kv: rank[kv[0]])]
        order = {"mafioso": 0, "kamikaze": 1, "thug": 1, "vsb": 2}
        for clan, c in clans.items():
            if c:
                items = [k if v == 1 else f"{k}*{v}"
                         for k, v in sorted(c.items(), key=lambda kv: order[kv[0]])]
                parts.append(f"{clan.key}=" + "+".join(items))
        return ",".join(parts)
