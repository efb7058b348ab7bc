"""Headline findings and how far they hold: each finding computed under every condition the
robustness studies cover (table size, Town's and the clans' skill, the agent profile the
default replaced), with its paired 95% interval and a verdict.

Used by scripts/summarize_results.py (results/README.md) and notebooks/07_robustness.py.
Every number is read from the study results; a study that is missing is skipped with a
note, never an error."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from sim.analysis.studies import Study, load_study, paired_rows
from sim.game.roles import Winner
from sim.play.stats import paired_diff_interval, share_interval

ROBUST = "robust"
NOT_ROBUST = "not robust"
HOLDS_IN_SIGN = "holds in sign, not everywhere significant"


@dataclass(frozen=True)
class Estimate:
    """One number with its 95% interval (shares or differences, as fractions)."""

    value: float
    low: float
    high: float


def verdict(estimates: Sequence[Estimate], ref: float = 0.0) -> str:
    """How far a finding holds across conditions, the first being the default.

    The finding's side is the side of `ref` on which the default's estimate lies (a
    difference's sign; for a share, above or below 50%). "robust": every condition's interval
    lies wholly on that side. "not robust": some condition's interval lies wholly on the other
    side. Otherwise "holds in sign, not everywhere significant"."""
    if not estimates:
        return "not measured"
    side = 1 if estimates[0].value >= ref else -1
    if any((e.high < ref) if side > 0 else (e.low > ref) for e in estimates):
        return NOT_ROBUST
    if all((e.low > ref) if side > 0 else (e.high < ref) for e in estimates):
        return ROBUST
    return HOLDS_IN_SIGN


@dataclass
class Condition:
    """A condition under which the findings are measured: a subset of one study's cells at
    25 players (or 20/30 for the table-size conditions)."""

    name: str
    study: Study
    df: Any  # the study's rows for this condition

    def cell(self, label: str) -> str | None:
        d = self.df[self.df.label == label]
        return None if d.empty else str(d.cell_id.iloc[0])


@dataclass
class Conditions:
    """The conditions found, in display order (the default first), and notes on the missing."""

    items: list[Condition] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


#: (study, column, value, condition name): the conditions, in display order
CONDITION_SPECS: list[tuple[str, str | None, float | None, str]] = [
    ("04_role_values", "players", 25, "default (25 players)"),
    ("06b_skill_roles", "param.town_skill", 0.0, "town_skill 0 (default 0.15)"),
    ("06b_skill_roles", "param.town_skill", 0.3, "town_skill 0.3"),
    ("06b_skill_roles", "param.town_skill", 0.6, "town_skill 0.6"),
    ("06c_mafia_skill_roles", "param.mafia_skill", 0.3, "mafia_skill 0.3 (default 0.6)"),
    ("06c_mafia_skill_roles", "param.mafia_skill", 1.2, "mafia_skill 1.2"),
    ("07_profile_replaced_roles", None, None, "previous agent profile"),
    ("04_role_values", "players", 20, "20 players"),
    ("04_role_values", "players", 30, "30 players"),
]


def load_conditions(loader: Callable[[str], Study] | None = None) -> Conditions:
    """Every condition whose study results exist. `loader(name)` loads a study and raises
    FileNotFoundError when it is missing (default: sim.analysis.studies.load_study, which in
    quick mode rebuilds it)."""
    load = loader or load_study
    studies: dict[str, Study | None] = {}
    out = Conditions()
    for name, col, value, label in CONDITION_SPECS:
        if name not in studies:
            try:
                studies[name] = load(name)
            except FileNotFoundError:
                studies[name] = None
                out.notes.append(f"study `{name}` has no results yet: its conditions are "
                                 "skipped")
        s = studies[name]
        if s is None:
            continue
        df = s.df
        if col is not None:
            if col not in df.columns:
                out.notes.append(f"study `{name}` has no column `{col}`: {label} skipped")
                continue
            df = df[np.isclose(df[col].astype(float), float(value or 0.0))]
            if df.empty:
                out.notes.append(f"study `{name}` has no cells with {col} = {value}: "
                                 f"{label} skipped")
                continue
        out.items.append(Condition(label, s, df))
    return out


@dataclass
class Headline:
    """A finding measured under every condition: rows of (condition, estimate)."""

    title: str
    unit: str  # "share" (compared with ref) or "points" (a difference)
    ref: float
    rows: list[tuple[str, Estimate]]

    @property
    def verdict(self) -> str:
        return verdict([e for _, e in self.rows], self.ref)


def town_share(c: Condition) -> Estimate | None:
    """Town's win share on the condition's standard (baseline) table."""
    d = c.df[(c.df.label == "baseline") & (c.df.camp == "town")]
    if d.empty:
        return None
    r = d.iloc[0]
    low, high = share_interval(int(r.wins), int(r.games))
    return Estimate(float(r.share), low, high)


def yakuza_minus_triad(c: Condition) -> Estimate | None:
    """The Yakuza's win share minus the Triad's on the baseline table: the same games, so a
    paired difference (the discordant games are the two clans' wins)."""
    cid = c.cell("baseline")
    if cid is None:
        return None
    w = c.study.winners(cid)
    yak = int(np.count_nonzero(w == Winner.YAKUZA))
    tri = int(np.count_nonzero(w == Winner.TRIAD))
    return Estimate(*paired_diff_interval(yak, tri, len(w)))


def role_value(c: Condition, label: str, camp: str) -> Estimate | None:
    """What a role is worth to `camp`: its win share with the role minus without it (the role
    replaced by a civilian or plain mafioso), paired."""
    base, cid = c.cell("baseline"), c.cell(label)
    if base is None or cid is None:
        return None
    r = next(x for x in paired_rows(c.study, base, [cid]) if x["camp"] == camp)
    return Estimate(-r["diff"], -r["high"], -r["low"])


#: (cell label in studies 04/06b/06c/07, the camp it is worth something to, how to say it)
ROLE_HEADLINES = [
    ("commissar+sergeant", "town", "the commissar and sergeant to Town"),
    ("ninja", "town", "the ninja to Town"),
    ("doctor", "town", "the doctor to Town"),
    ("necromancer", "town", "the necromancer to Town"),
    ("yakuza vsb", "town", "the Yakuza's VSB to Town"),
    ("triad vsb", "town", "the Triad's VSB to Town"),
    ("kamikaze", "yakuza", "the kamikaze to the Yakuza"),
    ("thug", "triad", "the thug to the Triad"),
]


def headlines(conds: Conditions) -> list[Headline]:
    """The headline findings, each measured under every available condition."""

    def rows(f: Callable[[Condition], Estimate | None]) -> list[tuple[str, Estimate]]:
        out = []
        for c in conds.items:
            e = f(c)
            if e is not None:
                out.append((c.name, e))
        return out

    hs = [Headline("Town's share of the standard table, against 50%", "share", 0.5,
                   rows(town_share)),
          Headline("The Yakuza's share minus the Triad's", "points", 0.0,
                   rows(yakuza_minus_triad))]
    for label, camp, words in ROLE_HEADLINES:
        hs.append(Headline(f"The value of {words}", "points", 0.0,
                           rows(partial(_role, label=label, camp=camp))))
    return hs


def _role(c: Condition, label: str, camp: str) -> Estimate | None:
    return role_value(c, label, camp)


def fmt(e: Estimate, unit: str) -> str:
    if unit == "share":
        return f"{100 * e.value:.1f}% [{100 * e.low:.1f}, {100 * e.high:.1f}]"
    return f"{100 * e.value:+.1f} [{100 * e.low:+.1f}, {100 * e.high:+.1f}]"
