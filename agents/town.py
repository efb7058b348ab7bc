"""Town's policy: civilians (and the VSB, who is told he is one), commissar and sergeant,
doctor, ninja, necromancer.

Every Town mind holds a log-odds that each player is an enemy of Town (a clan member or the
maniac): the prior from the announced table (P2.1), his daily reads (sim.engine.info), what the
public record proves (`PublicDigest`: revealed roles, claims, counter-claims, exposed
liars, votes before a flip), his own knowledge (allies, checks he saw, R7.4), and announced
checks weighted by his trust in the one who announced them.

- Vote: the highest suspicion plus `crowd` per vote already cast for that player today,
  with the day's doubt (`noise`, his own draw once a day). Never a known Town player.
- A hero who leads the day's vote answers with his role (`defend_at`): the commissar or
  sergeant with his checks, the doctor, ninja or necromancer with a claim. A civilian who
  leads it may claim a hero role as a decoy (`decoy`), and a hero answers another's claim of
  his role with his own (`counter`, P5.6). Town's talk holds together in two ways: decoys
  with heroes who keep silent, or no decoys with heroes who answer. With decoys, a hero who
  answers a claim made under the rope may be answering his own decoy, and shows himself to
  the killers (results/mixture.md, 2026-12-07: with the early defence, decoys and silent
  heroes gain Town 6 to 8 points over the default, decoys and answering heroes lose 5.5
  at 25 and 30 players).
- Commissar: checks the most suspicious unchecked player; opens up by `reveal`. The
  sergeant with the badge (R7.5) claims sergeant and announces the checks.
- Doctor: guards a trusted opened commissar with chance `guard_opened` (two killers aim at
  him, and a double attack beats a heal, R8.2), otherwise the most trusted claimed hero,
  otherwise the most trusted player.
- Ninja: strikes the most suspicious player above `threshold`, raised after each kill that
  may have been peaceful (R11.3).
- Necromancer: protects the trusted opened commissar and the most trusted players on
  turns 1-2 (D12.1); raises the Army when both targets are above `army_threshold`.
"""

from __future__ import annotations

import math
import weakref
from typing import TYPE_CHECKING, ClassVar, Final

import numpy as np
from mypy_extensions import mypyc_attr

from agents.base import Agent
from agents.common import (
    EVIL_RESULTS,
    HERO_CLAIMS,
    KNOWN,
    day_leader,
    is_enemy,
    leader_of,
    normals,
    rope_lie,
    sigmoid,
    top_seat,
)
from sim.engine.weakable import Anchor
from sim.game.params import Param
from sim.game.requests import Check, Heal, Protect, RaiseArmy, Strike
from sim.game.roles import CLAN_ROLES, Cause, Role
from sim.game.talk import CHECK, CLAIM, Statement

if TYPE_CHECKING:
    from collections.abc import Mapping

    from numpy.random import Generator

    from sim.engine.report import CheckResult
    from sim.engine.view import PlayerView, PublicRecord
    from sim.game.params import Value
    from sim.game.requests import Action

#: Parameters of every Town agent (`town.NAME`).
TOWN_PARAMS: Final[dict[str, Param]] = {
    "crowd": Param(0.35, 0.0, 2.0, "log-odds added per vote already cast for a player "
                   "today (how much Town follows the day's leader)", grid=(0.0, 0.15, 0.7)),
    "noise": Param(0.3, 0.0, 2.0, "the day's doubt: standard deviation of the noise added "
                   "to his suspicions before voting", grid=(0.0, 0.15, 0.6)),
    "claim_trust": Param(3.0, 0.0, 10.0, "log-odds an announced check moves, times the "
                         "trust in the announcer", grid=(1.0, 6.0)),
    "counterclaim": Param(1.5, 0.0, 10.0, "suspicion (log-odds) for each of two living "
                          "players claiming the same unique role", grid=(0.0, 3.0)),
    "exposed": Param(6.0, 0.0, 30.0, "suspicion for a claimer whose check or role claim the "
                     "newspaper proves false", grid=(2.0, 12.0)),
    "flip_weight": Param(0.4, 0.0, 3.0, "suspicion moved by a vote for a hanged player, once "
                         "his role is shown (less for an enemy, more for Town)",
                         grid=(0.0, 1.0)),
    "hero_claim": Param(4.0, -10.0, 10.0, "trust (log-odds toward Town) given to a player "
                        "who claims a hero role off the rope, while nobody counter-claims it; "
                        "`mafia-sim claims` measures it under a profile", grid=(1.0, 8.0)),
    "defend_at": Param(0.2, 0.0, 1.0, "a hero who leads the day's vote claims his role once "
                       "the votes against him reach this share of the living (1: never)",
                       grid=(0.1, 0.4, 1.0)),
    "rope_trust": Param(1.0, -10.0, 10.0, "trust (log-odds toward Town) given to a hero "
                        "claim made under the rope (its author led the day's vote): what "
                        "such a claim is worth when the other camps lie under the rope; "
                        "`mafia-sim claims` measures it under a profile",
                        grid=(-1.0, 0.0, 4.0)),
    "rope_liar": Param(3.0, 0.0, 10.0, "when a claim under the rope meets a counterclaim "
                       "made off the rope, suspicion moved from the counterclaimer to the "
                       "rope claimer (the cheaper claim is the likelier lie)",
                       grid=(0.0, 8.0)),
    "rope_calm": Param(0.85, 0.0, 1.0, "an undisputed claim under the rope stops Town "
                       "following the day's vote only when the chance the role's holder is "
                       "alive to dispute it is at least this (1: never)",
                       grid=(0.6, 1.0)),
    "claim_vote": Param(1.0, 0.0, 5.0, "suspicion for each vote cast for a hero claimer "
                        "after his claim, once the paper shows him Town", grid=(0.0, 3.0)),
    "late_credit": Param(0.25, 0.0, 1.0, "share of the flip credit (`flip_weight`) a vote "
                         "for a hanged enemy earns when cast after he already held half of "
                         "his final votes (a doomed man's clanmates vote him cheaply)",
                         grid=(0.0, 1.0)),
    "counter": Param(1.0, 0.0, 1.0, "the chance a hero answers a claim of his own role by "
                     "another with his own claim at once (P5.6)", grid=(0.0, 1.0)),
    "decoy": Param(0.0, 0.0, 1.0, "the chance a civilian or VSB who leads the day's vote "
                   "claims a hero role nobody has claimed, as a decoy", grid=(0.0, 1.0)),
    # On by default: it is knowledge of the rules, not a taste, and it changed none of the
    # default agents' games (none of them announces an impossible check; 10,000 games at
    # 20, 25 and 30 players and under the pre-equilibrium profile, row for row).
    "too_soon": Param(12.0, 0.0, 30.0, "suspicion for an announcer of more check results "
                      "than the nights since turn 0 allow (R3.1, R6.2: the commissar first "
                      "checks on night 1, so a result announced on day 1 is a lie, his "
                      "partner's role aside, R2.5); his check is then not believed, "
                      "and the holder of the role he claims does not answer him",
                      grid=(0.0, 6.0)),
}

def claim_context(pub: PublicRecord, index: int) -> bool:
    """Whether the public statement `index` came under the rope: its speaker led the day's
    vote (R5.2) with at least two votes when he said it (P5.6 `said_at`)."""
    stmt = pub.statements[index]
    k = pub.said_at[index] if index < len(pub.said_at) else 0
    if k < 2:
        return False
    day = [(v, t) for tt, v, t in pub.votes if tt == stmt.turn] or (
        pub.today if stmt.turn == pub.turn else [])
    who, count = leader_of(day[:k])
    return who == stmt.speaker and count >= 2


def holder_alive(pub: PublicRecord) -> float:
    """The chance a unique role nobody was shown holding is still alive: one minus the share
    of the players whose role the paper has not shown who died unrevealed (a night kill,
    D15.1)."""
    hidden_dead = sum(1 for d in pub.deaths if d.revealed is None)
    unknown = pub.n - sum(1 for d in pub.deaths if d.revealed is not None)
    return 1.0 - hidden_dead / max(1, unknown)


# compiled, pickle rebuilds it without __init__ (agents pickle mid-game too)
@mypyc_attr(allow_interpreted_subclasses=True)
class PublicDigest:
    """What every Town mind concludes from the public record alone, kept up to date
    incrementally and shared by all Town agents with the same parameters (it is public:
    nothing private goes in).

    - revealed roles are certain (P15.5 of docs/rules.md: the newspaper does not lie);
    - a claimed check the newspaper contradicts exposes its announcer (`exposed`), one it
      confirms clears him a little;
    - a claimed role the newspaper contradicts exposes the claimer; when a claimer of a
      unique role is shown to hold it, every other claimer of it is exposed;
    - two living claimers of one unique role are each suspect (`counterclaim`); the
      sergeant who took the badge (R7.5) claims sergeant, and a claim of a dead hero's
      role is no counter-claim;
    - a hero claim nobody disputes earns `hero_claim` trust;
    - votes for a hanged player move suspicion once his role is shown (`flip_weight`).
    """

    def __init__(self, n: int, p: dict[str, float]):
        self.p = p
        # plain lists, not arrays: they change a cell at a time, which a list does in place
        # (the same floats as numpy's, which adds the same IEEE doubles)
        self.hard = [0.0] * n
        self.revealed = [0.0] * n  # +-KNOWN for a seat whose role the paper showed
        self.claims: list[Statement] = []  # announced checks
        self.role_claims: dict[str, list[int]] = {}
        self.claimed: dict[int, str] = {}  # each claimer's first claimed role
        self.countered: set[int] = set()
        #: claimers of a hero role nobody disputes and the paper has not disproved
        self.undisputed: set[int] = set()
        self.revealed_roles: dict[str, int] = {}  # a role the paper showed -> its holder
        self.roped: set[int] = set()  # hero claimers whose claim came under the rope
        self.trust: dict[int, float] = {}  # the trust each hero claim earned
        self.claim_at: dict[int, tuple[int, int]] = {}  # claimer -> (turn, votes before it)
        #: each announcer's checked seats so far (his partner's role aside), for `too_soon`
        self.announced: dict[int, set[int]] = {}
        #: announcers of a check the turn order proves false (`too_soon`)
        self.impossible: set[int] = set()
        self.seen_statements = 0
        self.seen_deaths = 0
        self.seen_votes = 0

    def too_soon(self, stmt: Statement) -> bool:
        """Whether a check result announced on day `stmt.turn` is more than the badge could
        have found: one check a night from night 1 (R3.1, R6.2: on turn 0 only the maniac
        acts), so at most turn - 1 seats by then. The commissar's word for his partner
        (R2.5: they know each other), "X is the sergeant", needs no check."""
        if stmt.value in ("sergeant", "commissar"):
            return False
        seen = self.announced.setdefault(stmt.speaker, set())
        seen.add(stmt.target)
        return len(seen) > stmt.turn - 1

    def update(self, pub: PublicRecord) -> None:
        p, hard = self.p, self.hard
        alive = pub.alive
        for index in range(self.seen_statements, len(pub.statements)):
            stmt = pub.statements[index]
            if stmt.kind is CLAIM:
                role, who = stmt.value, stmt.speaker
                if who in self.claimed:
                    continue
                self.claimed[who] = role
                claimers = self.role_claims.setdefault(role, [])
                rivals = [c for c in claimers if alive[c]]
                claimers.append(who)
                if role in HERO_CLAIMS:
                    holder = self.revealed_roles.get(role, -1)
                    if holder >= 0 and holder != who:
                        hard[who] += p["exposed"]  # the paper showed who held it: a lie
                        continue
                    roped = claim_context(pub, index)
                    self.claim_at[who] = (stmt.turn, pub.said_at[index]
                                          if index < len(pub.said_at) else 0)
                    calm = True
                    if roped:
                        # Cheap talk (P5.6): worth what such claims are worth under the
                        # profile (`rope_trust`, a measured likelihood ratio, README), and
                        # it stops the vote only when the role's holder very likely lives
                        # to dispute a lie.
                        self.roped.add(who)
                        trust = p["rope_trust"]
                        calm = holder_alive(pub) >= p["rope_calm"]
                    else:
                        trust = p["hero_claim"]
                    self.trust[who] = trust
                    hard[who] -= trust
                    if not rivals and calm:
                        self.undisputed.add(who)
                for rival in ([who, *rivals] if rivals else []):
                    self.undisputed.discard(rival)
                    if rival not in self.countered:
                        self.countered.add(rival)
                        hard[rival] += p["counterclaim"] + self.trust.get(rival, 0.0)
                if rivals and role in HERO_CLAIMS:
                    # The cheaper claim is the likelier lie: one made under the rope loses
                    # to one made off it (R5.2, P5.6).
                    for rival in rivals:
                        if (rival in self.roped) != (who in self.roped):
                            liar, honest = (rival, who) if rival in self.roped else (who, rival)
                            hard[liar] += p["rope_liar"]
                            hard[honest] -= p["rope_liar"]
            elif stmt.kind is CHECK:
                if p["too_soon"] > 0 and self.too_soon(stmt):
                    hard[stmt.speaker] += p["too_soon"]  # a lie the turn order proves
                    self.undisputed.discard(stmt.speaker)
                    self.impossible.add(stmt.speaker)
                    continue
                self.claims.append(stmt)
        self.seen_statements = len(pub.statements)
        new_votes = pub.votes[self.seen_votes:]  # the votes of the turns published since
        self.seen_votes = len(pub.votes)
        for d in pub.deaths[self.seen_deaths:]:
            if d.revealed is None:
                continue
            evil = is_enemy(d.revealed)
            self.revealed[d.seat] = KNOWN if evil else -KNOWN
            for c in self.claims:
                if c.target == d.seat:
                    if (c.value in EVIL_RESULTS) != evil:
                        hard[c.speaker] += p["exposed"]
                        self.undisputed.discard(c.speaker)
                    else:
                        hard[c.speaker] -= p["exposed"] / 2
            true_role = d.revealed.role.key
            said = self.claimed.get(d.seat)
            if said is not None and said != true_role:
                hard[d.seat] += p["exposed"]  # his claim was a lie
            if true_role in HERO_CLAIMS:
                self.revealed_roles[true_role] = d.seat
                for liar in self.role_claims.get(true_role, ()):
                    if liar != d.seat:
                        hard[liar] += p["exposed"]  # he claimed a role the dead man held
                        self.undisputed.discard(liar)

            if Cause.HANGED in d.causes:
                flip = -p["flip_weight"] if evil else p["flip_weight"]
                against = [(k, voter) for k, (voter, target) in enumerate(
                    (v, tg) for t, v, tg in new_votes if t == d.turn) if target == d.seat]
                half = (len(against) + 1) // 2
                claim = self.claim_at.get(d.seat)
                for rank, (k, voter) in enumerate(against):
                    if evil and rank >= half:
                        hard[voter] += flip * p["late_credit"]  # a doomed man's cheap votes
                    else:
                        hard[voter] += flip
                    if (not evil and claim is not None and claim[0] == d.turn
                            and k >= claim[1]):
                        hard[voter] += p["claim_vote"]  # voted a Town hero after his claim
        self.seen_deaths = len(pub.deaths)


# compiled, pickle rebuilds it without __init__ (agents pickle mid-game too)
@mypyc_attr(allow_interpreted_subclasses=True)
class TownTable:
    """The Town minds of one table, computed together: one row per Town agent with the same
    parameters, so a day's beliefs are a few array operations for all of them.

    Nothing private leaks between rows: row r is computed from the public digest, the
    table's prior, and row r's own knowledge, reads and checks only. Each row draws its own
    noise from its own generator. The tables are kept in `_TOWN_TABLES`, out of every
    view's reach (they hold private facts).
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
        self.seats: list[int] = []
        self.reads: list[np.ndarray | None] = []
        self.checks: list[tuple[int, list[CheckResult]]] = []  # (row, his checks)
        self.roles: list[str] = []  # each row's own role: who else claims it lies
        self._own_rows: list[list[float]] = []  # what each knows beyond the public record
        self._key = (-1, -1, -1, -1, -1)  # the state `_rows` were computed for
        #: each row's log-odds, as plain lists (what the loops over seats read); None for
        #: the row of a dead player until he asks (he never does in a game)
        self._rows: list[list[float] | None] = []
        #: each row's reads as a list, and the turn they were copied on (reads change only
        #: at the start of a day, sim.play.driver; a day has several states of the record)
        self._reads_turn = -1
        self._reads_lists: list[list[float] | None] = []

    def join(self, view: PlayerView) -> int:
        """Add a Town mind (once per player and game); returns his row."""
        own = [0.0] * self.n
        own[view.seat] = -KNOWN
        for ally, label in view.allies.items():
            own[ally] = -KNOWN if label in ("commissar", "sergeant") else KNOWN
        row = len(self.seats)
        self.seats.append(view.seat)
        self.reads.append(view.reads)  # type: ignore[arg-type]  # an array, or None
        if view.role in (Role.COMMISSAR, Role.SERGEANT):
            self.checks.append((row, view.checks))
        self.roles.append(view.role.key)
        self._own_rows.append(own)
        return row

    def logit_row(self, pub: PublicRecord, row: int) -> list[float]:
        """Row `row`'s log-odds that each player is an enemy of Town. Computed once for each
        new state of what they know, for the rows of the living (the dead never ask)."""
        rows = len(self.seats)
        seen = 0
        for _, checks in self.checks:
            seen += len(checks)
        key = (pub.turn, len(pub.statements), len(pub.deaths), rows, seen)
        if key != self._key:
            self._key = key
            self.digest.update(pub)
            alive, seats = pub.alive, self.seats
            self._rows = self._compute(pub, [r for r in range(rows) if alive[seats[r]]])
        out = self._rows[row]
        if out is None:  # asked for a dead player's row: all rows, the same numbers
            self._rows = self._compute(pub, list(range(rows)))
            out = self._rows[row]
            assert out is not None
        return out

    def _read_list(self, row: int, turn: int) -> list[float]:
        """Row `row`'s reads of `turn`, as a list (zeros where no reads were dealt, as in a
        bare sim.engine.game.Game), converted once a day and only for the rows that ask."""
        if turn != self._reads_turn or len(self._reads_lists) != len(self.reads):
            self._reads_turn = turn
            self._reads_lists = [None] * len(self.reads)
        got = self._reads_lists[row]
        if got is None:
            held = self.reads[row]
            got = self._reads_lists[row] = (held.tolist() if held is not None
                                            else [0.0] * self.n)
        return got

    def _compute(self, pub: PublicRecord, which: list[int]) -> list[list[float] | None]:
        """The rows `which`, each from the public digest, the table's prior and that row's
        own knowledge, reads and checks only. (Each cell is the same float the array sums
        `own + (prior + hard) + reads` would give; each row's own order of operations.)"""
        n, digest = self.n, self.digest
        prior = self.prior
        base = [prior + h for h in digest.hard]
        turn = pub.turn
        rows: list[list[float]] = []  # the rows of `which`, in that order
        for r in which:
            own, reads = self._own_rows[r], self._read_list(r, turn)
            rows.append([(own[j] + base[j]) + reads[j] for j in range(n)])
        at = {r: i for i, r in enumerate(which)}
        for r, checks in self.checks:
            if r in at:
                row = rows[at[r]]
                for chk in checks:  # his own or the commissar's checks (R7.4): certain
                    if chk.result is not None:
                        row[chk.target] = KNOWN if chk.result in EVIL_RESULTS else -KNOWN
        seats = [self.seats[r] for r in which]
        for i, r in enumerate(which):  # a unique role he holds: its claimers lie
            role = self.roles[r]
            if role in HERO_CLAIMS:
                for liar in digest.role_claims.get(role, ()):
                    if liar != seats[i]:
                        rows[i][liar] = KNOWN
        revealed = digest.revealed
        shown = [j for j in range(n) if revealed[j] != 0]
        if shown:
            for row in rows:
                for j in shown:
                    row[j] = revealed[j]
        if digest.claims and rows:
            weight = self.p["claim_trust"]
            alive, now = pub.alive, pub.turn
            for c in digest.claims:
                if not alive[c.speaker] and c.turn < now - 3:
                    continue
                # trust in the announcer, row by row: 1 - P(announcer is an enemy), with
                # numpy's exp for all rows at once (math.exp may differ in the last bit)
                e: list[float] = np.exp([min(row[c.speaker], 60.0) for row in rows]).tolist()
                move = (1.0 if c.value in EVIL_RESULTS else -1.0) * weight
                t = c.target
                for i, row in enumerate(rows):
                    x = row[t]
                    if abs(x) < KNOWN and seats[i] != c.speaker:
                        row[t] = x + move * (1.0 / (1.0 + e[i]))
        out: list[list[float] | None] = [None] * len(self.seats)
        for i, r in enumerate(which):
            out[r] = rows[i]
        return out


#: The Town tables of each game in play: id of its public record's anchor -> (a plain weak
#: reference to the anchor, its tables by Town parameters). The anchor (sim.engine.weakable) lives
#: as long as the record. The reference has no callback, so nothing reachable from a view
#: leads back here (a WeakKeyDictionary's callback would: tests/test_view_isolation.py);
#: entries of finished games are dropped as new ones come.
_TOWN_TABLES: Final[dict[int, tuple[weakref.ref[Anchor],
                                   dict[tuple[float, ...], TownTable]]]] = {}


def _tables_of(pub: PublicRecord) -> dict[tuple[float, ...], TownTable]:
    anchor = pub.anchor
    entry = _TOWN_TABLES.get(id(anchor))
    if entry is not None and entry[0]() is anchor:
        return entry[1]
    for key in [k for k, (ref, _) in _TOWN_TABLES.items() if ref() is None]:
        del _TOWN_TABLES[key]
    tables: dict[tuple[float, ...], TownTable] = {}
    _TOWN_TABLES[id(anchor)] = (weakref.ref(anchor), tables)
    return tables


@mypyc_attr(allow_interpreted_subclasses=True)
class TownAgent(Agent):
    """A Town player's mind: suspicion of every player, his vote, his answer when he leads
    the vote (heroes only)."""

    PARAMS: ClassVar[dict[str, Param]] = dict(TOWN_PARAMS)

    def __init__(self, seat: int, params: Mapping[str, Value] | None = None):
        super().__init__(seat, params)
        self.table: TownTable | None = None
        self.row = -1
        self._noise_turn = -1
        self._noise: list[float] = []
        self._draws: np.ndarray | None = None
        self.claimed = False
        self.rope_days: set[int] = set()  # the days he drew his lie's chance (rope_lie)

    @property
    def role_claims(self) -> dict[str, list[int]]:
        return self.table.digest.role_claims if self.table is not None else {}

    # -- belief ------------------------------------------------------------------------------
    def start(self, view: PlayerView) -> None:
        """Join the table's Town minds (those with the same Town parameters share one)."""
        pub = view.public
        tables = _tables_of(pub)
        key = tuple(self.p[k] for k in TOWN_PARAMS)
        table = tables.get(key)
        if table is None:
            table = tables[key] = TownTable(pub, {k: self.p[k] for k in TOWN_PARAMS})
        self.table = table
        self.row = table.join(view)

    def _table(self, view: PlayerView) -> TownTable:
        if self.table is None:
            self.start(view)
        assert self.table is not None
        return self.table

    def _update(self, view: PlayerView) -> list[float]:
        """His log-odds that each player is an enemy of Town (his row of the table)."""
        return self._table(view).logit_row(view.public, self.row)

    def _most(self, logit: list[float], view: PlayerView, exclude: set[int],
              highest: bool = True) -> int:
        """The most (or, `highest=False`, least) suspicious other living player."""
        return top_seat(logit if highest else [-x for x in logit], view.public.alive,
                        exclude | {self.seat})

    def _trusted_claimer(self, view: PlayerView, logit: list[float], roles: tuple[str, ...],
                         exclude: set[int] | None = None) -> int:
        """The most trusted living claimer of one of `roles` whom he thinks more likely Town
        than not (an exposed liar is not guarded), or -1."""
        best, who = math.inf, -1
        for role in roles:
            for c in self.role_claims.get(role, ()):
                if (view.public.alive[c] and c != self.seat and logit[c] < 0
                        and (exclude is None or c not in exclude) and logit[c] < best):
                    best, who = logit[c], c
        return who

    def _opened_commissar(self, view: PlayerView, logit: list[float]) -> int:
        return self._trusted_claimer(view, logit, ("commissar", "sergeant"))

    # -- decisions ---------------------------------------------------------------------------
    def vote(self, view: PlayerView, rng: Generator) -> int:
        """The highest suspicion plus the pull of today's votes, each weighted by his trust
        in its voter (an enemy opening on a Town player should not lead the herd); never a
        known Town player, and no pull toward an undisputed hero claimer or toward a player
        the thug beat last night, who could not speak for himself (R10.4)."""
        pub = view.public
        table = self._table(view)
        lg = table.logit_row(pub, self.row)
        n = pub.n
        sd: float = self.p["noise"]  # typed: the loop below does float arithmetic
        if self._noise_turn != pub.turn:  # the day's doubt, drawn once a day
            self._noise_turn = pub.turn
            # scaled by `sd` below, seat by seat: the same floats as numpy's sd * array
            if sd > 0:  # drawn into his own buffer: the same draws, no new array a day
                self._draws, self._noise = normals(rng, self._draws, n)
            else:
                self._noise = [0.0] * n
        noise, alive, me = self._noise, pub.alive, self.seat
        pull = [0.0] * n  # the pull of today's votes toward each seat
        crowd: float = self.p["crowd"]
        if crowd > 0 and pub.today:
            calm = table.digest.undisputed
            silent = pub.beaten_today  # R10.4: beaten last night
            for voter, target in pub.today:
                if target not in calm and target not in silent:
                    x = lg[voter]  # his trust in the voter, exp capped at 60 (no overflow)
                    weight = crowd / (1.0 + math.exp(x if x < 60.0 else 60.0))
                    pull[target] = pull[target] + weight  # compiled, += on a cell is generic
        best, who = -math.inf, -1
        known_town = -KNOWN / 2  # below this he is sure the player is Town
        for j in range(n):
            x = lg[j]
            if not alive[j] or j == me or x < known_town:  # P5.1; known Town: never
                continue
            v = x + sd * noise[j]
            v += pull[j]
            if v > best:
                best, who = v, j
        return who

    def defend(self, view: PlayerView, rng: Generator) -> list[Statement]:
        """A civilian (or VSB) who leads the day's vote (at `defend_at` of the living) may
        claim a hero role nobody has claimed, as a decoy (`decoy`), once a game."""
        if self.p["decoy"] <= 0 or self.claimed:
            return []
        said = rope_lie(view, self.seat, self.p["defend_at"], self.p["decoy"], rng,
                        self.rope_days)
        if said:
            self.claimed = True
        return said


@mypyc_attr(allow_interpreted_subclasses=True)
class HeroAgent(TownAgent):
    """A Town player with a role worth claiming: he answers when he leads the vote, and
    answers another's claim of his role with his own (`counter`, P5.6)."""

    def role_claim(self, view: PlayerView) -> list[Statement]:
        """What he says to escape the rope."""
        return []

    def respond(self, view: PlayerView, rng: Generator) -> list[Statement]:
        """Another living player claimed his role: he claims it too, with chance
        `counter` (the claim makes him a target tonight; silence leaves the liar trusted)."""
        if self.claimed:
            return []
        pub = view.public
        role, me, alive = view.role.key, self.seat, pub.alive
        rivals = [s.speaker for s in pub.statements
                  if s.kind is CLAIM and s.value == role and s.speaker != me
                  and alive[s.speaker]]
        if not rivals:
            return []
        # He speaks only when the lie works: a claim under the rope that Town does not
        # believe hangs its author anyway, and so does one whose check the turn order
        # proves false (`too_soon`, R3.1, R6.2); his counterclaim would only show the
        # killers who he is (a liar's fishing for the real holder).
        digest = self._table(view).digest
        digest.update(pub)
        if not any((r in digest.undisputed or r not in digest.roped)
                   and r not in digest.impossible for r in rivals):
            return []
        if rng.random() >= self.p["counter"]:
            return []
        said = self.role_claim(view)
        if said:
            self.claimed = True
        return said

    def defend(self, view: PlayerView, rng: Generator) -> list[Statement]:
        """He leads the day's vote: a hero claims his role once the votes against him reach
        `defend_at` of the living (P5.5 of docs/rules.md: a player may post while the vote
        runs; votes already cast stand, R5.1)."""
        pub = view.public
        if self.claimed or day_leader(pub) != self.seat:
            return []
        against = pub.today_tally.get(self.seat, 0)
        if against < self.p["defend_at"] * sum(pub.alive) or self.p["defend_at"] >= 1.0:
            return []
        said = self.role_claim(view)
        if said:
            self.claimed = True
        return said


@mypyc_attr(allow_interpreted_subclasses=True)
class CommissarAgent(HeroAgent):
    """Commissar and sergeant: checks, the reveal policy, votes by the checks."""

    PARAMS: ClassVar[dict[str, Param]] = {
        **TOWN_PARAMS,
        "reveal": Param("on_enemy", choices=("on_enemy", "no_sergeant", "never"),
                        per_role=True, doc="when the commissar (or the sergeant with the "
                        "badge) opens up: never, on finding an enemy, or on finding one "
                        "when no living sergeant would carry the checks on"),
        "vouch": Param(1.0, 0.0, 1.0, "the chance the commissar (or sergeant) opens up to "
                       "vouch for his partner when the partner, having claimed his role, leads "
                       "the day's vote or is counter-claimed (R2.5: they know each other)",
                       per_role=True, grid=(0.0, 1.0)),
    }

    def __init__(self, seat: int, params: Mapping[str, Value] | None = None):
        super().__init__(seat, params)
        self.opened = False
        self.vouched = False
        self.announced: set[int] = set()

    def _public_checks(self) -> set[int]:
        """Players whose check result someone has already announced."""
        return {c.target for c in self.table.digest.claims} if self.table else set()

    def _announce(self, view: PlayerView) -> list[Statement]:
        """His claim and every check result not yet public on a living player."""
        out = []
        t = view.turn
        if not self.claimed:
            self.claimed = True
            out.append(Statement(t, self.seat, CLAIM, value=view.role.key))
        told = self._public_checks()
        for c in view.checks:
            if (c.target not in self.announced and c.result is not None
                    and c.target not in told and view.public.alive[c.target]):
                self.announced.add(c.target)
                out.append(Statement(t, self.seat, CHECK, c.target, c.result))
        return out

    def statements(self, view: PlayerView, rng: Generator) -> list[Statement]:
        if not view.has_badge:
            return []
        policy = self.p["reveal"]
        if not self.opened and any(c != self.seat for c in self.role_claims.get(view.role.key,
                                                                                ())):
            self.opened = True  # a false claim of his badge: he answers it with his checks
        # the public digest up to date; the rows wait until someone decides (his statements
        # may change the record they are computed from)
        self._table(view).digest.update(view.public)
        told = self._public_checks()
        # Only news opens him: an enemy found among the living, not yet announced.
        found = [c for c in view.checks if c.result in EVIL_RESULTS
                 and view.public.alive[c.target] and c.target not in told]
        if not self.opened and found:
            if policy == "on_enemy":
                self.opened = True
            elif policy == "no_sergeant":
                partners = [s for s, r in view.allies.items() if r == "sergeant"]
                if not any(view.public.alive[s] for s in partners):
                    self.opened = True
        return self._announce(view) if self.opened else []

    def role_claim(self, view: PlayerView) -> list[Statement]:
        self.opened = True
        self.claimed = False  # _announce makes the claim
        return self._announce(view)

    def respond(self, view: PlayerView, rng: Generator) -> list[Statement]:
        """His counterclaim (HeroAgent), or his word for his partner: when the partner has
        claimed his role and now leads the day's vote or is counter-claimed, he opens up
        and vouches for him (`vouch`), once a game."""
        said = super().respond(view, rng)
        if said or self.vouched or self.p["vouch"] <= 0:
            return said
        pub = view.public
        alive = pub.alive
        for partner, label in view.allies.items():
            if not alive[partner] or label not in ("commissar", "sergeant"):
                continue
            claims = [st.speaker for st in pub.statements
                      if st.kind is CLAIM and st.value == label and alive[st.speaker]]
            if partner not in claims:
                continue
            if day_leader(pub) != partner and len(claims) < 2:
                continue
            if rng.random() >= self.p["vouch"]:
                return []
            self.vouched = True
            self.opened = True
            return [*self._announce(view),
                    Statement(view.turn, self.seat, CHECK, partner, label)]
        return []

    def night(self, view: PlayerView, rng: Generator) -> Action | None:
        if not view.has_badge or view.turn == 0:
            return None
        logit = self._update(view)
        checked = {c.target for c in view.checks}
        target = self._most(logit, view, checked | set(view.allies))
        return Check(target) if target >= 0 else None


@mypyc_attr(allow_interpreted_subclasses=True)
class _ClaimingHero(HeroAgent):
    """A hero whose answer to the rope is a plain claim of his role."""

    def role_claim(self, view: PlayerView) -> list[Statement]:
        return [Statement(view.turn, self.seat, CLAIM, value=view.role.key)]


@mypyc_attr(allow_interpreted_subclasses=True)
class DoctorAgent(_ClaimingHero):
    PARAMS: ClassVar[dict[str, Param]] = {
        **TOWN_PARAMS,
        "self_heal": Param(0.35, 0.0, 1.0, "where a rule set allows self-healing: the chance "
                           "he heals himself on a night nobody voted against him",
                           per_role=True, grid=(0.0, 1.0), needs_rule="doctor_self_heal"),
        "guard_opened": Param(0.5, 0.0, 1.0, "the chance he guards a trusted opened commissar "
                              "(whom two killers may shoot at once, R8.2)", per_role=True,
                              grid=(0.0, 1.0)),
    }

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
            if rng.random() < self.p["guard_opened"]:
                return Heal(opened)
            exclude.add(opened)  # left to his fate: two killers at once beat a heal (R8.2)
        # Someone one killer may aim at, not the whole table: a trusted claimed hero, else a
        # player a trusted announcer declared clean.
        hero = self._trusted_claimer(view, logit, HERO_CLAIMS, exclude)
        if hero >= 0:
            return Heal(hero)
        clean = [c.target for c in self._table(view).digest.claims
                 if c.value not in EVIL_RESULTS and view.public.alive[c.target]
                 and c.target not in exclude and logit[c.speaker] < 0]
        if clean:
            return Heal(min(clean, key=lambda j: (logit[j], j)))
        target = self._most(logit, view, exclude, highest=False)
        return Heal(target) if target >= 0 else None


@mypyc_attr(allow_interpreted_subclasses=True)
class NinjaAgent(_ClaimingHero):
    PARAMS: ClassVar[dict[str, Param]] = {
        **TOWN_PARAMS,
        "threshold": Param(0.75, 0.3, 1.0, "he strikes when P(enemy) of his top suspect is "
                           "above this (1: never)", per_role=True, grid=(0.6, 0.9, 1.0)),
        "threshold_step": Param(0.12, 0.0, 0.5, "how much the threshold rises after each kill "
                                "that may have been peaceful (R11.3)", per_role=True,
                                grid=(0.0, 0.25)),
    }

    def __init__(self, seat: int, params: Mapping[str, Value] | None = None):
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
                    if d.revealed is None or not is_enemy(d.revealed):
                        self.risky_kills += 1  # R11.3: it may have been a peaceful one
            self.last_strike = (-1, -1)
        logit = self._update(view)
        target = self._most(logit, view, set())
        if target < 0:
            return None
        # R11.3: each kill that may have been peaceful brings harakiri closer; with
        # harakiri_at 1 the very first is fatal, with 0 there is no harakiri at all.
        limit = view.rules.harakiri_at
        step = self.p["threshold_step"]
        if limit == 0:
            threshold = self.p["threshold"] - step
        else:
            threshold = self.p["threshold"] + step * (self.risky_kills + (limit == 1))
        if threshold >= 1.0 or sigmoid(float(logit[target])) <= threshold:
            return None
        self.last_strike = (view.turn, target)
        return Strike(target)


@mypyc_attr(allow_interpreted_subclasses=True)
class NecromancerAgent(_ClaimingHero):
    PARAMS: ClassVar[dict[str, Param]] = {
        **TOWN_PARAMS,
        "army_threshold": Param(0.9, 0.0, 1.0, "he raises the Army (R12.5) when both targets' "
                                "P(enemy) is above this (1: never)", per_role=True,
                                grid=(0.6, 0.97, 1.0)),
    }

    def __init__(self, seat: int, params: Mapping[str, Value] | None = None):
        super().__init__(seat, params)
        self.protected: set[int] = set()

    def night(self, view: PlayerView, rng: Generator) -> Action | None:
        if view.turn == 0:
            return None
        logit = self._update(view)
        if view.turn in (1, 2) and view.protects_left > 0:
            # D12.1: half of them (rounded up) on turn 1, the rest on turn 2.
            k = (view.protects_left + 1) // 2 if view.turn == 1 else view.protects_left
            chosen: list[int] = []
            opened = self._opened_commissar(view, logit)
            if opened >= 0 and opened not in self.protected:
                chosen.append(opened)
            while len(chosen) < k:
                target = self._most(logit, view, self.protected | set(chosen), highest=False)
                if target < 0:
                    break
                chosen.append(target)
            if chosen:
                self.protected.update(chosen)
                return Protect(tuple(sorted(chosen)))
            return None
        if self.p["army_threshold"] < 1.0 and view.can_raise_army():
            a = self._most(logit, view, set())
            b = self._most(logit, view, {a})
            if a >= 0 and b >= 0 and min(sigmoid(float(logit[a])),
                                         sigmoid(float(logit[b]))) > self.p["army_threshold"]:
                return RaiseArmy((min(a, b), max(a, b)))
        return None
