"""The `heuristic` agent set: the default players of every run.

Every agent reads the table through its view: the daily noisy reads of `sim.info` (the
table's skill) plus the hard information of the game, which it folds in incrementally:

- Town players (`TownAgent`) hold a log-odds that each player is an enemy of Town (a clan
  member or the maniac): the prior from the announced table (P2.1), plus the reads, plus
  - claimed checks ("X is triad", "X is clean"), each weighted by the trust in the claimer:
    `claim_trust * (1 - P(claimer is an enemy))`;
  - counter-claims: two players claiming the same unique role each get `counterclaim`;
  - exposure: when the newspaper reveals a role that contradicts a claimed check, the
    claimer gets `exposed` (and a confirmed claimer loses `exposed / 2`);
  - votes before a flip: when a hanged player's role is revealed, who voted for an enemy
    loses `flip_weight` suspicion, who voted for a Town player gains it.
  They vote for the highest suspicion plus `crowd` log-odds per vote already cast for that
  player today, with a little noise (`noise`).
- The commissar checks the most suspicious unchecked player and opens up by
  `commissar_reveal` (0 never, 1 on finding an enemy, 2 on finding an enemy when no living
  sergeant would carry his checks on); once open he announces every check. The sergeant
  votes by the checks he sees and, with the badge (R7.5), plays the commissar.
- The doctor guards an opened commissar, otherwise the most trusted living player, never
  the same twice in a row (R8.3, unless `doctor_repeat_heal`) and never himself (R8.4).
  Where a rule set allows self-healing he heals himself when voted against that day, else
  with chance `self_heal`.
- The ninja strikes the most suspicious player when P(enemy) is above `ninja_threshold`,
  which rises by `ninja_threshold_step` after each kill that may have been peaceful (R11.3)
  (one step higher from the start when `harakiri_at` is 1, one step lower when 0).
- The necromancer gives half his protects (rounded up) on turn 1 and the rest on turn 2
  (an opened commissar first, then the most trusted), and raises the Army (R12.5) against
  the two most suspicious players when both are above `army_threshold`.
- The VSB is told he is a civilian and plays one.
- Clan members (`ClanAgent`) know their clan and VSB. They rate danger: the reads of
  `sim.info` (who is a hero) plus `opened_danger` for an opened commissar and
  `claimer_danger` for anyone who announced checks. The Don posts the day's target in the
  clan channel and every member votes for it, or with `mafia_follow` joins the day's
  leading candidate when he is no clanmate. The night order: an opened commissar first,
  then a publicly named member of the other clan (`hunt_other`), then the most dangerous;
  the shooter a plain member other than the Don (R14.3), the thug or kamikaze only when no
  plain member is left. Once a game, with `fake_claim`, a Don facing an opened commissar
  has a member counter-claim commissar and name the real one as the other clan.
- The kamikaze blows up next to an opened commissar or a publicly named maniac.
- The thug beats the most dangerous player not yet beaten (R10.2), never his VSB, and
  never his own clan's target of the night (the stray bullet, R10.6).
- The maniac kills the most dangerous player and takes his ambush (R9.3) on the first night
  he has `ambush_votes` votes against him that day or is publicly named as the maniac.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from agents.base import Agent
from sim.requests import (
    Ambush,
    Beat,
    Blast,
    Check,
    ClanOrder,
    Heal,
    Kill,
    Protect,
    RaiseArmy,
    Strike,
)
from sim.roles import CLAN_ROLES, Cause, Clan, Role
from sim.view import Statement

if TYPE_CHECKING:
    from numpy.random import Generator

    from sim.engine import CheckResult
    from sim.requests import Action
    from sim.view import PlayerView, PublicRecord

EVIL_RESULTS = ("yakuza", "triad", "maniac")
KNOWN = 30.0  # log-odds of a certainty


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, x))))


def _is_evil_label(label: str) -> bool:
    """A revealed role label (`yakuza mafioso`, `maniac`, `triad vsb`): an enemy of Town?"""
    return label == "maniac" or (label.startswith(("yakuza", "triad")) and "vsb" not in label)


def _top_seat(values: np.ndarray, alive: list[bool], exclude: AbstractSet[int]) -> int:
    """The living seat outside `exclude` with the highest value; a tie goes to the lowest
    seat, and -1 when there is none. (A plain loop: faster than numpy on 20-30 seats.)"""
    best, who = -math.inf, -1
    for j, v in enumerate(values.tolist()):
        if alive[j] and j not in exclude and v > best:
            best, who = v, j
    return who


class PublicDigest:
    """What every Town mind concludes from the public record alone (claims, counter-claims,
    exposures, votes before a flip), kept up to date incrementally and shared by all Town
    agents with the same parameters (it is public: nothing private goes in)."""

    def __init__(self, n: int, p: dict[str, float]):
        self.p = p
        self.hard = np.zeros(n)
        self.claims: list[Statement] = []
        self.role_claims: dict[str, list[int]] = {}
        self.seen_statements = 0
        self.seen_deaths = 0
        self.seen_votes = 0

    def update(self, pub: PublicRecord) -> None:
        p, hard = self.p, self.hard
        for stmt in pub.statements[self.seen_statements:]:
            if stmt.kind == "claim":
                claimers = self.role_claims.setdefault(stmt.value, [])
                if stmt.speaker not in claimers:
                    claimers.append(stmt.speaker)
                    if len(claimers) == 2:
                        for who in claimers:
                            hard[who] += p["counterclaim"]
                    elif len(claimers) > 2:
                        hard[stmt.speaker] += p["counterclaim"]
            elif stmt.kind == "check":
                self.claims.append(stmt)
        self.seen_statements = len(pub.statements)
        new_votes = pub.votes[self.seen_votes:]  # the votes of the turns published since
        self.seen_votes = len(pub.votes)
        for d in pub.deaths[self.seen_deaths:]:
            if d.revealed is None:
                continue
            evil = _is_evil_label(d.revealed)
            for c in self.claims:
                if c.target == d.seat:
                    if (c.value in EVIL_RESULTS) != evil:
                        hard[c.speaker] += p["exposed"]
                    else:
                        hard[c.speaker] -= p["exposed"] / 2
            if Cause.HANGED in d.causes:
                flip = -p["flip_weight"] if evil else p["flip_weight"]
                for t, voter, target in new_votes:
                    if t == d.turn and target == d.seat:
                        hard[voter] += flip
        self.seen_deaths = len(pub.deaths)


class TownTable:
    """The Town minds of one table, computed together: one row per Town agent of the table
    with the same parameters, so a day's beliefs and vote bases are a few array operations
    for all of them instead of a few for each.

    Nothing private leaks between rows: row r is computed from the public digest, the
    table's prior, and row r's own knowledge, reads and checks only. The tables are kept in
    `_TOWN_TABLES`, out of every view's reach (not in the public record: they hold private
    facts).
    """

    def __init__(self, pub: PublicRecord, p: dict[str, float]):
        n = pub.n
        self.p = p
        self.n = n
        self.digest = PublicDigest(n, p)
        counts = pub.role_counts
        enemies = sum(counts.get(r, 0) for r in (*CLAN_ROLES, Role.MANIAC))
        share = min(max(enemies / max(1, n - 1), 1e-3), 1 - 1e-3)
        self.prior = math.log(share / (1 - share))  # P2.1: the announced table
        # Each row's own facts: his seat, his reads (updated in place each day) and the checks
        # he sees (R7.4, only commissar and sergeant). No views are kept, so a finished game
        # is freed at once (no reference cycle for the garbage collector).
        self.seats: list[int] = []
        self.reads: list[np.ndarray] = []
        self.checks: list[tuple[int, list[CheckResult]]] = []  # (row, his checks)
        self._own_rows: list[np.ndarray] = []  # what each knows beyond the public record
        self.own = np.zeros((0, n))
        self._rows_seats = (np.zeros(0, dtype=int), np.zeros(0, dtype=int))
        self._key: tuple[int, ...] = ()
        self._logit = np.zeros((0, n))
        #: the turn whose vote base is in vote_rows and vote_best (-1: none yet)
        self.vote_turn = -1
        self.vote_rows: list[list[float]] = []
        self.vote_best: list[tuple[int, float]] = []

    def join(self, view: PlayerView) -> int:
        """Add a Town mind (once per player and game); returns his row."""
        own = np.zeros(self.n)
        own[view.seat] = -KNOWN
        for ally, label in view.allies.items():
            own[ally] = -KNOWN if label in ("commissar", "sergeant") else KNOWN
        row = len(self.seats)
        self.seats.append(view.seat)
        self.reads.append(view.reads)  # type: ignore[arg-type]
        if view.role in (Role.COMMISSAR, Role.SERGEANT):
            self.checks.append((row, view.checks))
        self._own_rows.append(own)
        self.vote_turn = -1  # a new row: the day's vote base is drawn again
        return row

    def logits(self, pub: PublicRecord) -> np.ndarray:
        """Each row's log-odds that each player is an enemy of Town: prior, reads, the public
        digest, his own knowledge and checks, and trusted claims.

        Computed once for each new state of what they know (reads change once a day)."""
        rows = len(self.seats)
        key = (pub.turn, len(pub.statements), len(pub.deaths), rows,
               sum(len(checks) for _, checks in self.checks))
        if key == self._key:
            return self._logit
        self._key = key
        if len(self.own) != rows:
            self.own = np.array(self._own_rows)
            self._rows_seats = (np.arange(rows), np.array(self.seats))  # (row, his seat)
        digest = self.digest
        digest.update(pub)
        logit = self.own + (self.prior + digest.hard)
        logit += np.array(self.reads, dtype=float)
        for r, checks in self.checks:
            for chk in checks:  # his own or the commissar's checks (R7.4): certain
                if chk.result is not None:
                    logit[r, chk.target] = KNOWN if chk.result in EVIL_RESULTS else -KNOWN
        if digest.claims:
            weight = self.p["claim_trust"]
            alive, now = pub.alive, pub.turn
            seats = self._rows_seats[1]
            for c in digest.claims:
                if not alive[c.speaker] and c.turn < now - 3:
                    continue
                # trust in the claimer, row by row: 1 - P(claimer is an enemy)
                trust = 1.0 / (1.0 + np.exp(np.minimum(logit[:, c.speaker], 60.0)))
                sign = 1.0 if c.value in EVIL_RESULTS else -1.0
                col = logit[:, c.target]
                moved = (np.abs(col) < KNOWN) & (seats != c.speaker)
                col[moved] += sign * weight * trust[moved]
        self._logit = logit
        return logit

    def draw_votes(self, pub: PublicRecord, rng: Generator) -> None:
        """The day's vote base of every row, as lists: suspicion plus the day's noise, the
        impossible at -inf; and each row's best (seat, value) before the crowd's weight."""
        self.vote_turn = pub.turn
        logit = self.logits(pub)
        base = logit.copy()
        if self.p["noise"] > 0:
            base += self.p["noise"] * rng.standard_normal(base.shape)
        base[:, ~pub.alive_mask] = -np.inf
        base[self._rows_seats] = -np.inf  # P5.1: not himself
        base[logit < -KNOWN / 2] = -np.inf  # known Town: never
        best = base.argmax(axis=1)
        self.vote_rows = base.tolist()
        self.vote_best = list(zip(best.tolist(), base[self._rows_seats[0], best].tolist(),
                                  strict=True))


#: the Town tables of each game in play, by its public record and the Town parameters
_TOWN_TABLES: weakref.WeakKeyDictionary[PublicRecord, dict[tuple[float, ...], TownTable]] = (
    weakref.WeakKeyDictionary())


class TownAgent(Agent):
    """A Town player's mind: suspicion of every player, updated from the public record."""

    PARAMS: ClassVar[dict[str, float]] = {
        "crowd": 0.35,
        "noise": 0.3,
        "claim_trust": 3.0,
        "counterclaim": 1.5,
        "exposed": 6.0,
        "flip_weight": 0.4,
    }

    def __init__(self, seat: int, params: dict[str, float] | None = None):
        super().__init__(seat, params)
        self.table: TownTable | None = None
        self.row = -1

    @property
    def role_claims(self) -> dict[str, list[int]]:
        return self.table.digest.role_claims if self.table is not None else {}

    # -- belief ------------------------------------------------------------------------------
    def start(self, view: PlayerView) -> None:
        """Join the table's Town minds (those with the same parameters share one)."""
        pub = view.public
        tables = _TOWN_TABLES.setdefault(pub, {})
        key = tuple(self.p[k] for k in TownAgent.PARAMS)
        table = tables.get(key)
        if table is None:
            table = tables[key] = TownTable(pub, self.p)
        self.table = table
        self.row = table.join(view)

    def _table(self, view: PlayerView) -> TownTable:
        """His table (joined on first use when no driver called `start`)."""
        if self.table is None:
            self.start(view)
        assert self.table is not None
        return self.table

    def _update(self, view: PlayerView) -> np.ndarray:
        """His log-odds that each player is an enemy of Town (his row of the table)."""
        return self._table(view).logits(view.public)[self.row]

    def _most(self, logit: np.ndarray, view: PlayerView, exclude: set[int],
              highest: bool = True) -> int:
        """The most (or, `highest=False`, least) suspicious other living player outside
        `exclude`."""
        return _top_seat(logit if highest else -logit, view.public.alive,
                         exclude | {self.seat})

    def _opened_commissar(self, view: PlayerView, logit: np.ndarray) -> int:
        """The living claimed commissar most trusted, or -1."""
        claimers = [c for c in self.role_claims.get("commissar", ()) if view.public.alive[c]]
        if not claimers:
            return -1
        return min(claimers, key=lambda c: (logit[c], c))

    # -- decisions ---------------------------------------------------------------------------
    def vote(self, view: PlayerView, rng: Generator) -> int:
        pub = view.public
        table = self._table(view)
        if table.vote_turn != pub.turn:
            table.draw_votes(pub, rng)  # the first Town vote of the day draws for all
        # Only players with votes today gain the crowd's weight: compare them with the best.
        base, (who, best) = table.vote_rows[self.row], table.vote_best[self.row]
        crowd = self.p["crowd"]
        for t, k in pub.today_tally.items():
            v = base[t] + crowd * k
            if v > best:
                who, best = t, v
        return who if best > -math.inf else -1


class CommissarAgent(TownAgent):
    """Commissar and sergeant: checks, the reveal policy, votes by the checks."""

    PARAMS: ClassVar[dict[str, float]] = {**TownAgent.PARAMS, "commissar_reveal": 1.0}

    def __init__(self, seat: int, params: dict[str, float] | None = None):
        super().__init__(seat, params)
        self.opened = False
        self.announced: set[int] = set()

    def statements(self, view: PlayerView, rng: Generator) -> list[Statement]:
        if not view.has_badge:
            return []
        policy = int(self.p["commissar_reveal"])
        found = [c for c in view.checks if c.result in EVIL_RESULTS]
        if not self.opened and found:
            if policy == 1:
                self.opened = True
            elif policy == 2:
                partners = [s for s, r in view.allies.items() if r == "sergeant"]
                if not any(view.public.alive[s] for s in partners):
                    self.opened = True
        if not self.opened:
            return []
        out = []
        t = view.turn
        if not self.announced:
            out.append(Statement(t, self.seat, "claim", value="commissar"))
        for c in view.checks:
            if c.target not in self.announced and c.result is not None:
                self.announced.add(c.target)
                out.append(Statement(t, self.seat, "check", c.target, c.result))
        return out

    def night(self, view: PlayerView, rng: Generator) -> Action | None:
        if not view.has_badge or view.turn == 0:
            return None
        logit = self._update(view)
        checked = {c.target for c in view.checks}
        target = self._most(logit, view, checked | set(view.allies))
        return Check(target) if target >= 0 else None


class DoctorAgent(TownAgent):
    PARAMS: ClassVar[dict[str, float]] = {**TownAgent.PARAMS, "self_heal": 0.35}

    def night(self, view: PlayerView, rng: Generator) -> Action | None:
        if view.turn == 0:
            return None
        logit = self._update(view)
        exclude = {self.seat}
        if not view.rules.doctor_repeat_heal:
            exclude.add(view.last_heal)  # R8.3
        if view.rules.doctor_self_heal and view.last_heal != self.seat:
            # Where the rule set allows it (R8.4 flipped): himself when voted against today,
            # else now and then (`self_heal`).
            threatened = any(t == self.seat for _, t in view.public.today)
            if threatened or rng.random() < self.p["self_heal"]:
                return Heal(self.seat)
        opened = self._opened_commissar(view, logit)
        if opened >= 0 and opened not in exclude:
            return Heal(opened)
        target = self._most(logit, view, exclude, highest=False)
        return Heal(target) if target >= 0 else None


class NinjaAgent(TownAgent):
    PARAMS: ClassVar[dict[str, float]] = {
        **TownAgent.PARAMS, "ninja_threshold": 0.8, "ninja_threshold_step": 0.12,
    }

    def __init__(self, seat: int, params: dict[str, float] | None = None):
        super().__init__(seat, params)
        self.risky_kills = 0
        self.last_strike = (-1, -1)

    def night(self, view: PlayerView, rng: Generator) -> Action | None:
        if view.turn == 0:
            return None
        turn, victim = self.last_strike
        if victim >= 0:
            for d in view.public.deaths:
                if d.turn == turn and d.seat == victim and Cause.NINJA in d.causes:
                    if d.revealed is None or not _is_evil_label(d.revealed):
                        self.risky_kills += 1  # R11.3: it may have been a peaceful one
            self.last_strike = (-1, -1)
        logit = self._update(view)
        target = self._most(logit, view, set())
        if target < 0:
            return None
        # R11.3: each kill that may have been peaceful brings harakiri closer; with
        # harakiri_at 1 the very first is fatal, with 0 there is no harakiri at all.
        limit = view.rules.harakiri_at
        step = self.p["ninja_threshold_step"]
        if limit == 0:
            threshold = self.p["ninja_threshold"] - step
        else:
            threshold = self.p["ninja_threshold"] + step * (self.risky_kills + (limit == 1))
        if _sigmoid(float(logit[target])) <= min(threshold, 0.999):
            return None
        self.last_strike = (view.turn, target)
        return Strike(target)


class NecromancerAgent(TownAgent):
    PARAMS: ClassVar[dict[str, float]] = {**TownAgent.PARAMS, "army_threshold": 0.6}

    def night(self, view: PlayerView, rng: Generator) -> Action | None:
        if view.turn == 0:
            return None
        logit = self._update(view)
        if view.turn in (1, 2) and view.protects_left > 0:
            # D12.1: half of them (rounded up) on turn 1, the rest on turn 2.
            k = (view.protects_left + 1) // 2 if view.turn == 1 else view.protects_left
            holders = view.private.setdefault("protected", set())
            assert isinstance(holders, set)
            chosen: list[int] = []
            opened = self._opened_commissar(view, logit)
            if opened >= 0 and opened not in holders:
                chosen.append(opened)
            while len(chosen) < k:
                target = self._most(logit, view, holders | set(chosen), highest=False)
                if target < 0:
                    break
                chosen.append(target)
            if chosen:
                holders.update(chosen)
                return Protect(tuple(sorted(chosen)))
            return None
        if view.can_raise_army():
            a = self._most(logit, view, set())
            b = self._most(logit, view, {a})
            if a >= 0 and b >= 0 and min(_sigmoid(float(logit[a])),
                                         _sigmoid(float(logit[b]))) > self.p["army_threshold"]:
                return RaiseArmy((min(a, b), max(a, b)))
        return None


def danger_of(view: PlayerView, p: dict[str, float]) -> np.ndarray:
    """How dangerous each player looks to a clan member or the maniac: his reads (who is a
    hero), plus `opened_danger` for a claimed commissar and `claimer_danger` for anyone who
    announced checks."""
    return view.reads + _claimer_danger(view.public, p)


def _claimer_danger(pub: PublicRecord, p: dict[str, float]) -> np.ndarray:
    """The public part of `danger_of`, computed once for each new state of the public
    record and shared by everyone with the same parameters."""
    key = ("claimer-danger", p["opened_danger"], p["claimer_danger"])
    state = (pub.turn, len(pub.statements))
    cached = pub.cache.get(key)
    if isinstance(cached, tuple) and cached[0] == state:
        return cached[1]
    danger = np.zeros(pub.n)
    for stmt in pub.statements:
        if stmt.kind == "claim" and stmt.value == "commissar":
            danger[stmt.speaker] += p["opened_danger"]
        elif stmt.kind == "check":
            danger[stmt.speaker] += p["claimer_danger"]
    pub.cache[key] = (state, danger)
    return danger


def _choice(rng: Generator, seq: list[int]) -> int:
    """A uniformly random element of a non-empty list (cheaper than Generator.integers)."""
    return seq[int(rng.random() * len(seq))]


class DangerReader(Agent):
    """A player who hunts the dangerous (clan members, the maniac): `danger_of`, computed
    once for each new state of the public record, and picking the most dangerous."""

    def __init__(self, seat: int, params: dict[str, float] | None = None):
        super().__init__(seat, params)
        self._danger_key: tuple[int, int] = (-1, -1)
        self._danger_cache: np.ndarray = np.zeros(0)

    def _danger(self, view: PlayerView) -> np.ndarray:
        pub = view.public
        key = (pub.turn, len(pub.statements))
        if key != self._danger_key:
            self._danger_key, self._danger_cache = key, danger_of(view, self.p)
        return self._danger_cache

    def _pick(self, view: PlayerView, danger: np.ndarray, exclude: AbstractSet[int]) -> int:
        """The living player with the highest danger outside `exclude` (-1 if none)."""
        return _top_seat(danger, view.public.alive, exclude)


class ClanAgent(DangerReader):
    """A clan member (mafioso, kamikaze, thug): votes with the clan, the Don's orders."""

    PARAMS: ClassVar[dict[str, float]] = {
        "mafia_follow": 0.4,
        "opened_danger": 10.0,
        "claimer_danger": 4.0,
        "hunt_other": 0.7,
        "fake_claim": 0.3,
        "noise": 0.3,
    }

    def __init__(self, seat: int, params: dict[str, float] | None = None):
        super().__init__(seat, params)
        self.faked = False
        self._friend_set: frozenset[int] | None = None

    def _friends(self, view: PlayerView) -> frozenset[int]:
        """His clan and its VSB, himself included (fixed for the game, R2.5)."""
        if self._friend_set is None:
            self._friend_set = frozenset(view.allies) | {self.seat}
        return self._friend_set

    def _other_clan_named(self, view: PlayerView) -> list[int]:
        mine = view.clan.key
        friends = self._friends(view)
        out = []
        for stmt in view.public.statements:
            if (stmt.kind == "check" and stmt.value in ("yakuza", "triad")
                    and stmt.value != mine and view.public.alive[stmt.target]
                    and stmt.target not in friends):
                out.append(stmt.target)
        return out

    def _opened(self, view: PlayerView) -> int:
        friends = self._friends(view)
        for stmt in view.public.statements:
            if (stmt.kind == "claim" and stmt.value == "commissar"
                    and view.public.alive[stmt.speaker] and stmt.speaker not in friends):
                return stmt.speaker
        return -1

    def statements(self, view: PlayerView, rng: Generator) -> list[Statement]:
        if view.don != self.seat:
            return []
        danger = self._danger(view) + self.p["noise"] * rng.standard_normal(len(view.reads))  # type: ignore[arg-type]
        opened = self._opened(view)
        target = opened if opened >= 0 else self._pick(view, danger, self._friends(view))
        out = []
        if target >= 0:
            out.append(Statement(view.turn, self.seat, "order", target, channel="clan"))
        if (opened >= 0 and not self.faked and self.p["fake_claim"] > 0
                and rng.random() < self.p["fake_claim"]):
            self.faked = True
            other = "triad" if view.clan is Clan.YAKUZA else "yakuza"
            out.append(Statement(view.turn, self.seat, "claim", value="commissar"))
            out.append(Statement(view.turn, self.seat, "check", opened, other))
        return out

    def vote(self, view: PlayerView, rng: Generator) -> int:
        pub = view.public
        friends = self._friends(view)
        counts = pub.today_tally
        if counts and rng.random() < self.p["mafia_follow"]:
            leader = max(counts, key=lambda t: (counts[t], -t))
            if leader not in friends and pub.alive[leader]:
                return leader
        for stmt in reversed(view.inbox):
            if stmt.kind == "order" and stmt.turn == view.turn:
                if pub.alive[stmt.target] and stmt.target not in friends:
                    return stmt.target
                break
        return self._pick(view, self._danger(view), friends)

    def clan_order(self, view: PlayerView, rng: Generator) -> ClanOrder | None:
        pub = view.public
        friends = self._friends(view)
        target = self._opened(view)
        if target < 0:
            named = self._other_clan_named(view)
            if named and rng.random() < self.p["hunt_other"]:
                target = named[0]
        if target < 0:
            danger = self._danger(view) + self.p["noise"] * rng.standard_normal(len(view.reads))  # type: ignore[arg-type]
            target = self._pick(view, danger, friends)
        if target < 0:
            return None
        members = [s for s, r in view.allies.items() if r != "vsb" and pub.alive[s]]
        members.append(self.seat)
        don = view.don
        if don < 0:
            return ClanOrder(view.clan, target, self.seat, self.seat)  # R14.4
        plain = sorted(m for m in members if m != don and view.allies.get(m) == "mafioso")
        special = sorted(m for m in members if m != don and m not in plain)
        pool = plain or special or [don]
        shooter = _choice(rng, pool)
        return ClanOrder(view.clan, target, shooter)


class KamikazeAgent(ClanAgent):
    def night(self, view: PlayerView, rng: Generator) -> Action | None:
        if view.turn == 0 or view.blast_used:
            return None
        order = view.private.get("order")
        if isinstance(order, ClanOrder) and order.shooter == self.seat:
            return None
        target = self._opened(view)
        if target < 0:
            friends = self._friends(view)
            for stmt in view.public.statements:
                if (stmt.kind == "check" and stmt.value == "maniac"
                        and view.public.alive[stmt.target] and stmt.target not in friends):
                    target = stmt.target
                    break
        return Blast(target) if target >= 0 else None


class ThugAgent(ClanAgent):
    PARAMS: ClassVar[dict[str, float]] = {**ClanAgent.PARAMS, "thug_beat": 1.0}

    def night(self, view: PlayerView, rng: Generator) -> Action | None:
        if view.turn == 0:
            return None
        order = view.private.get("order")
        if isinstance(order, ClanOrder) and order.shooter == self.seat:
            return None  # R10.3: he shoots tonight
        if rng.random() >= self.p["thug_beat"]:
            return None
        beaten = view.beaten_ever
        exclude = set(self._friends(view)) - {s for s, r in view.allies.items() if r != "vsb"}
        exclude |= {self.seat} | {j for j in range(len(beaten)) if beaten[j]}
        if isinstance(order, ClanOrder):
            exclude.add(order.target)  # R10.6: his own clan's shot would hit him too
        target = self._pick(view, self._danger(view), exclude)
        return Beat(target) if target >= 0 else None


class ManiacAgent(DangerReader):
    PARAMS: ClassVar[dict[str, float]] = {"ambush_votes": 3.0, "noise": 0.3,
                                          "opened_danger": 10.0, "claimer_danger": 4.0}

    def vote(self, view: PlayerView, rng: Generator) -> int:
        pub = view.public
        counts = pub.today_tally
        if counts:
            leader = max(counts, key=lambda t: (counts[t], -t))
            if leader != self.seat and pub.alive[leader]:
                return leader
        return self._pick(view, self._danger(view), {self.seat})

    def night(self, view: PlayerView, rng: Generator) -> Action | None:
        pub = view.public
        if not view.ambush_used and view.rules.maniac_ambush:
            threatened = sum(1 for _, t in pub.today if t == self.seat)
            named = any(s.kind == "check" and s.target == self.seat and s.value == "maniac"
                        for s in pub.statements)
            if threatened >= self.p["ambush_votes"] or named:
                return Ambush()
        danger = self._danger(view) + self.p["noise"] * rng.standard_normal(pub.n)
        who = self._pick(view, danger, {self.seat})
        return Kill(who) if who >= 0 else None


AGENTS: dict[Role, type[Agent]] = {
    Role.CIVILIAN: TownAgent,
    Role.VSB: TownAgent,
    Role.COMMISSAR: CommissarAgent,
    Role.SERGEANT: CommissarAgent,
    Role.DOCTOR: DoctorAgent,
    Role.NINJA: NinjaAgent,
    Role.NECROMANCER: NecromancerAgent,
    Role.MAFIOSO: ClanAgent,
    Role.KAMIKAZE: KamikazeAgent,
    Role.THUG: ThugAgent,
    Role.MANIAC: ManiacAgent,
}
