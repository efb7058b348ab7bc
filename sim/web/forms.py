"""The table form: role counts and rule options as plain form values, read into a
`sim.play.setup.Setup` with `build_setup` (as the command line does), every problem a one-line
message beside the control that caused it."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from sim.game.errors import InputError
from sim.game.messages import Msg, msg
from sim.game.rules import Composition, RuleSet
from sim.play.mixture import parse_toml
from sim.play.setup import Setup, build_setup, check_playable

#: the largest table the page plays (the command line takes up to sim.play.setup.MAX_PLAYERS)
MAX_PLAYERS = 60
#: the most games one request plays (a table, each arm of a comparison, odds)
MAX_GAMES = 20_000
MIN_GAMES = 200
DEFAULT_GAMES = 10_000
#: the largest agents' profile the page takes (a PSRO mixture file is about 3 KB)
MAX_PROFILE_CHARS = 64_000
MAX_SEED = 2**31 - 1

#: the role-count controls, in the page's order: (control, keyword of Composition.from_counts)
COUNTS = [
    ("civilian", "civilian"), ("commissar", "commissar"), ("sergeant", "sergeant"),
    ("ninja", "ninja"), ("doctor", "doctor"), ("necromancer", "necromancer"),
    ("maniac", "maniac"), ("yakuza_mafioso", "yakuza"), ("kamikaze", "kamikaze"),
    ("yakuza_vsb", "yakuza_vsb"), ("triad_mafioso", "triad"), ("thug", "thug"),
    ("triad_vsb", "triad_vsb"),
]
#: what a D2.1 fault is about (Composition.faults) -> the control it is shown beside
FAULT_CONTROL = {"yakuza.vsb": "yakuza_vsb", "triad.vsb": "triad_vsb",
                 "yakuza.mafioso": "yakuza_mafioso", "triad.mafioso": "triad_mafioso",
                 "players": "total", "names": "total"}
RULES = [f.name for f in fields(RuleSet)]
_INT = re.compile(r"[+-]?[0-9]{1,9}")


def rule_kind(name: str) -> str:
    """'bool', 'int' or 'float': how the page shows a rule option."""
    return type(getattr(RuleSet(), name)).__name__


def web_rule_hint(name: str, value: str) -> Msg:
    return msg("set the rule option “{rule}” to {value} below", rule=Msg(name),
               value=Msg(value))


def whole(text: object, low: int, high: int) -> int:
    """A whole number typed in a form, or an InputError that says what is wrong."""
    t = str(text if text is not None else "").strip()
    if not _INT.fullmatch(t):
        if not t:
            raise InputError("enter a whole number")
        raise InputError("{text!r} is not a whole number", text=t[:20])
    v = int(t)
    if not low <= v <= high:
        raise InputError("{v} is out of range: from {low} to {high}", v=v, low=low, high=high)
    return v


@dataclass
class TableForm:
    """The values of one table form, as typed, and the messages for its controls."""

    counts: dict[str, str] = field(default_factory=dict)
    rules: dict[str, str] = field(default_factory=dict)
    games: str = str(DEFAULT_GAMES)
    seed: str = "0"
    #: the agents' profile (issue 24): a parameter file's text, `[params]` and a `[mixture]`
    #: as `mafia-sim equilibrate --mixture` writes, and the file's name; empty: the defaults
    profile: str = ""
    profile_name: str = ""
    #: control -> its message (sim.game.messages), worded in the reader's language
    errors: dict[str, Msg] = field(default_factory=dict)

    @classmethod
    def standard(cls, n: int = 25) -> TableForm:
        f = cls()
        f.set_composition(Composition.standard(n))
        f.rules = {name: _text(v) for name, v in RuleSet().as_dict().items()}
        return f

    def set_composition(self, comp: Composition) -> None:
        from sim.game.roles import Clan, Role

        by_control = {
            "civilian": comp.count(Role.CIVILIAN), "commissar": comp.count(Role.COMMISSAR),
            "sergeant": comp.count(Role.SERGEANT), "ninja": comp.count(Role.NINJA),
            "doctor": comp.count(Role.DOCTOR), "necromancer": comp.count(Role.NECROMANCER),
            "maniac": comp.count(Role.MANIAC),
            "yakuza_mafioso": comp.count(Role.MAFIOSO, Clan.YAKUZA),
            "kamikaze": comp.count(Role.KAMIKAZE),
            "yakuza_vsb": comp.count(Role.VSB, Clan.YAKUZA),
            "triad_mafioso": comp.count(Role.MAFIOSO, Clan.TRIAD),
            "thug": comp.count(Role.THUG), "triad_vsb": comp.count(Role.VSB, Clan.TRIAD),
        }
        self.counts = {k: str(v) for k, v in by_control.items()}

    @classmethod
    def from_form(cls, form: Mapping[str, Any], prefix: str = "") -> TableForm:
        """The values posted under `prefix` (a comparison's `a_` and `b_`)."""
        def get(name: str, default: str = "") -> str:
            v = form.get(prefix + name, default)
            return v[:40] if isinstance(v, str) else default

        f = cls()
        f.counts = {c: get(c, "0") for c, _ in COUNTS}
        for name in RULES:
            if rule_kind(name) == "bool":
                f.rules[name] = "true" if get(name) in ("on", "true") else "false"
            else:
                f.rules[name] = get(name, _text(getattr(RuleSet(), name)))
        f.games = get("games", str(DEFAULT_GAMES))
        f.seed = get("seed", "0")
        text = form.get(prefix + "profile", "")
        f.profile = text.strip() if isinstance(text, str) else ""
        f.profile_name = get("profile_name")
        return f

    def has_rule_errors(self) -> bool:
        return any(k.startswith("rule_") for k in self.errors)

    def total(self) -> int | None:
        try:
            return sum(int(v) for v in self.counts.values())
        except ValueError:
            return None

    def read(self) -> tuple[Setup | None, int, int]:
        """(the setup or None when a control is wrong, games, seed); the messages go to
        `errors`, keyed by control."""
        self.errors = {}
        kw: dict[str, int] = {}
        for control, keyword in COUNTS:
            try:
                kw[keyword] = whole(self.counts.get(control, "0"), 0, MAX_PLAYERS)
            except InputError as e:
                self.errors[control] = e.msg
        rules = RuleSet()
        for name in RULES:
            try:
                rules = rules.replace({name: self.rules.get(name, "")})
            except InputError as e:
                self.errors["rule_" + name] = e.msg
        games = seed = 0
        try:
            games = whole(self.games, MIN_GAMES, MAX_GAMES)
        except InputError as e:
            self.errors["games"] = e.msg
        try:
            seed = whole(self.seed, 0, MAX_SEED)
        except InputError as e:
            self.errors["seed"] = e.msg
        profile = self.read_profile()
        if self.errors:
            return None, games, seed
        n = sum(kw.values())
        if n > MAX_PLAYERS:
            self.errors["total"] = msg("{n} players: the page plays tables of at most {most}",
                                       n=n, most=MAX_PLAYERS)
            return None, games, seed
        comp = Composition.from_counts(**kw)
        for about, message in comp.faults(rules, web_rule_hint):
            control = FAULT_CONTROL.get(about, about)
            self.errors.setdefault(control, message)
        if not self.errors:
            try:
                check_playable(comp)
            except InputError as e:
                self.errors["total"] = e.msg
        if self.errors:
            return None, games, seed
        # the command line's own path: --players N for the standard table (the same seat
        # order, so the same games as `mafia-sim run --players N`), else --roles; --rule
        standard = n >= 12 and Composition.standard(n).describe() == comp.describe()
        table: dict[str, Any] = {"players": n if standard else None,
                                 "roles": None if standard else comp.describe(),
                                 "rules": dict(self.rules)}
        try:
            setup = build_setup(None, **table)
        except InputError as e:
            self.errors["total"] = e.msg
            return None, games, seed
        if profile is not None:
            # the table first, alone, so that what is wrong is said beside its own control
            try:  # the command line's --params FILE
                setup = build_setup(None, **table, profile=profile)
            except InputError as e:
                self.errors["profile"] = e.msg
                return None, games, seed
        return setup, games, seed

    def read_profile(self) -> tuple[str, dict[str, Any]] | None:
        """The profile's table with the name its errors give it, or None (the defaults);
        what is wrong with it goes to `errors` under `profile`."""
        if not self.profile:
            return None
        if len(self.profile) > MAX_PROFILE_CHARS:
            self.errors["profile"] = msg("the profile is {n} characters long; the page takes "
                                         "one of at most {most}", n=len(self.profile),
                                         most=MAX_PROFILE_CHARS)
            return None
        name = self.profile_name or "profile"
        try:
            return name, parse_toml(self.profile.encode("utf-8"), name)
        except InputError as e:
            self.errors["profile"] = e.msg
            return None


def _text(v: object) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)
