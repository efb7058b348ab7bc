"""What every camp's policy uses: certainty in log-odds, reading revealed roles, picking the
top seat, the public danger reading shared by clan members and the maniac."""

from __future__ import annotations

import math
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any, Final

import numpy as np
from mypy_extensions import mypyc_attr

from agents.base import Agent
from sim.game.params import Value
from sim.game.roles import Camp, Role
from sim.game.talk import CLAIM, Statement

if TYPE_CHECKING:
    from numpy.random import Generator

    from sim.engine.view import PlayerView, PublicRecord
    from sim.game.rules import Seat

#: check results that name an enemy of Town
EVIL_RESULTS: Final = ("yakuza", "triad", "maniac")
#: roles a player may claim to escape the rope or to be trusted (the "positive heroes" and
#: the necromancer, R1.3)
HERO_CLAIMS: Final = ("commissar", "sergeant", "doctor", "ninja", "necromancer")
KNOWN: Final = 30.0  # log-odds of a certainty
#: the hero roles a liar under the rope claims, in the order he picks them: those a check
#: does not contradict at once and the commissar's partner cannot disown
LIES: Final = ("doctor", "necromancer", "ninja")


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, x))))


def is_enemy(seat: Seat) -> bool:
    """A revealed role (a clan member, the maniac, a VSB, ...): an enemy of Town? (A VSB
    plays for Town, R1.)"""
    return seat.camp is not Camp.TOWN


def top_seat(values: list[float], alive: list[bool], exclude: AbstractSet[int]) -> int:
    """The living seat outside `exclude` with the highest value; a tie goes to the lowest
    seat, and -1 when there is none. (A plain loop: faster than numpy on 20-30 seats.)"""
    best, who = -math.inf, -1
    for j, v in enumerate(values):
        if alive[j] and j not in exclude and v > best:
            best, who = v, j
    return who


def choice(rng: Generator, seq: list[int]) -> int:
    """A uniformly random element of a non-empty list (cheaper than Generator.integers)."""
    return seq[int(rng.random() * len(seq))]


def normals(rng: Generator, buf: np.ndarray | None, n: int) -> tuple[np.ndarray, list[float]]:
    """`n` standard normals from `rng`, as a list, drawn into `buf` (a new buffer when it is
    None or of another length), and the buffer for the caller to keep: the same draws as
    `rng.standard_normal(n)`, without a new array each time."""
    if buf is None or len(buf) != n:
        buf = np.empty(n)
    rng.standard_normal(out=buf)
    return buf, buf.tolist()


def leader_of(votes: list[tuple[int, int]]) -> tuple[int, int]:
    """The leader of a day's (voter, target) votes in order, and his count (R5.2: most
    votes, the first to reach the count on a tie); (-1, 0) with no votes."""
    counts: dict[int, int] = {}
    best, who = 0, -1
    for _, t in votes:
        k = counts[t] = counts.get(t, 0) + 1
        if k > best:
            best, who = k, t
    return who, best


def day_leader(pub: PublicRecord) -> int:
    """Who would hang if the vote ended now (R5.2), or -1 with no votes."""
    return leader_of(pub.today)[0]


def duel_loser(pub: PublicRecord, a: int, b: int) -> int:
    """Who of `a` and `b` would lose the duel of R17.4 by the public vote record: more votes
    against him over the game, or on a tie the one voted against first (D17.2); -1 when a
    coin would decide."""
    against = {a: 0, b: 0}
    first: dict[int, int] = {}
    for k, (_, _, target) in enumerate(pub.votes):
        if target in against:
            against[target] += 1
            first.setdefault(target, k)
    if against[a] != against[b]:
        return a if against[a] > against[b] else b
    if a in first or b in first:
        return a if first.get(a, 1 << 30) < first.get(b, 1 << 30) else b
    return -1


def duel_target(view: PlayerView, me: int, exclude: AbstractSet[int]) -> int:
    """With three alive, him among them: the one of the other two he must kill tonight so
    that the duel left after the night (R17.4) is one he wins; -1 when it makes no
    difference, is not the endgame, or the rule set has no duel (`duel` off)."""
    if not view.rules.duel:
        return -1
    pub = view.public
    living = [j for j in range(pub.n) if pub.alive[j]]
    if len(living) != 3 or me not in living:
        return -1
    a, b = (j for j in living if j != me)
    beats_me_a = duel_loser(pub, me, a) == me
    beats_me_b = duel_loser(pub, me, b) == me
    if beats_me_a == beats_me_b:
        return -1
    target = a if beats_me_a else b
    return target if target not in exclude else -1


def doomed(pub: PublicRecord) -> int:
    """The player who clearly leads the day's vote (R5.2 leader, at least four votes and
    twice the runner-up's): he hangs whatever the rest do; -1 if nobody does."""
    leader, top = leader_of(pub.today)
    if leader < 0:
        return -1
    tally = pub.today_tally
    runner_up = 0
    for t, k in tally.items():
        if t != leader and k > runner_up:
            runner_up = k
    return leader if top >= 4 and top >= 2 * runner_up else -1


def rope_lie(view: PlayerView, me: int, share: float, chance: float,
             rng: Generator, drawn: set[int]) -> list[Statement]:
    """A claim of a hero role nobody has claimed and the paper has not shown (`LIES`, in
    order), when he leads the day's vote with at least `share` of the living against him,
    with chance `chance`; else nothing. The chance is drawn once a day, the first time he
    could lie (`drawn` keeps the turns drawn on): he is asked after every statement and each
    time the leader speaks (P5.6), and a draw at every ask would make the chance a day's
    near-certainty."""
    pub = view.public
    if day_leader(pub) != me or pub.today_tally.get(me, 0) < share * sum(pub.alive):
        return []
    role = unclaimed_hero(pub)
    if not role or view.turn in drawn:
        return []
    drawn.add(view.turn)
    if rng.random() >= chance:
        return []
    return [Statement(view.turn, me, CLAIM, value=role)]


def opened_hero(pub: PublicRecord, exclude: AbstractSet[int]) -> int:
    """The first living player (not in `exclude`) who claimed commissar or sergeant in
    public, or -1."""
    for stmt in pub.statements:
        if (stmt.kind is CLAIM and stmt.value in ("commissar", "sergeant")
                and pub.alive[stmt.speaker] and stmt.speaker not in exclude):
            return stmt.speaker
    return -1


def commissar_shown(pub: PublicRecord) -> bool:
    """Whether the newspaper has shown the commissar dead (a commissar claim then fools
    nobody)."""
    commissar = Role.COMMISSAR
    return any(d.revealed is not None and d.revealed.role is commissar for d in pub.deaths)


def unclaimed_hero(pub: PublicRecord) -> str:
    """The first of `LIES` in the announced table (P2.1) that nobody has claimed and the
    paper has not shown, or ""."""
    claimed = {s.value for s in pub.statements if s.kind is CLAIM}
    shown = {d.revealed.role.key for d in pub.deaths if d.revealed is not None}
    table = {r.key for r, k in pub.role_counts.items() if k > 0}
    for role in LIES:
        if role in table and role not in claimed and role not in shown:
            return role
    return ""


def public_danger(pub: PublicRecord, opened: float, claimer: float) -> list[float]:
    """What the public record says of who is dangerous to the Town's enemies: `opened` for
    a living player who claims commissar or sergeant and announces checks, `claimer` for one
    who claims another hero role. Computed once for each new state of the record and shared
    (it is public)."""
    key = ("public-danger", opened, claimer)
    state = (pub.turn, len(pub.statements))
    cached = pub.cache.get(key)
    if isinstance(cached, tuple) and cached[0] == state:
        return cached[1]
    danger = [0.0] * pub.n
    marked: set[int] = set()
    for stmt in pub.statements:
        if stmt.kind is not CLAIM or stmt.speaker in marked:
            continue
        if stmt.value in ("commissar", "sergeant"):
            danger[stmt.speaker] += opened
            marked.add(stmt.speaker)
        elif stmt.value in HERO_CLAIMS:
            danger[stmt.speaker] += claimer
            marked.add(stmt.speaker)
    pub.cache[key] = (state, danger)
    return danger


@mypyc_attr(allow_interpreted_subclasses=True)
class DangerReader(Agent):
    """A player who hunts the dangerous (clan members, the maniac): his reads of who is a
    hero (sim.engine.info) plus what the public record shows (`public_danger`)."""

    def __init__(self, seat: int, params: Mapping[str, Value] | None = None):
        super().__init__(seat, params)
        self._danger_key: tuple[int, int] = (-1, -1)
        self._danger_cache: list[float] = []
        self._draws: np.ndarray | None = None  # tonight's doubt, drawn into his own buffer

    def danger(self, view: PlayerView) -> list[float]:
        """How dangerous each player looks to him, seat by seat (a plain list: what the
        loops that pick a target read)."""
        pub = view.public
        key = (pub.turn, len(pub.statements))
        if key != self._danger_key:
            self._danger_key = key
            shown = public_danger(pub, self.p["opened_danger"], self.p["claimer_danger"])
            # seat by seat, the same floats as the array sum reads + shown
            held: Any = view.reads  # his own array (sim.play.driver)
            reads: list[float] = held.tolist()
            self._danger_cache = [reads[j] + shown[j] for j in range(len(shown))]
        return self._danger_cache

    def pick(self, view: PlayerView, danger: list[float], exclude: AbstractSet[int]) -> int:
        """The living player with the highest danger outside `exclude` (-1 if none)."""
        return top_seat(danger, view.public.alive, exclude)

    def noisy_danger(self, view: PlayerView, rng: Generator) -> list[float]:
        """His danger reading with tonight's doubt (`noise`): the same floats as the array
        sum `danger + noise * z`, added seat by seat."""
        d = self.danger(view)
        sd: float = self.p["noise"]
        self._draws, z = normals(rng, self._draws, len(d))
        return [d[i] + sd * z[i] for i in range(len(d))]
