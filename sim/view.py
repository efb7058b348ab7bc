"""What one player may know: public facts (newspaper R15, votes R5.6, statements) and his
own private knowledge (R2.5, R2.7, R7.4). Agents receive a `PlayerView`, never the state.

Views are built once per game and updated in place by the engine after each turn, so
asking for one costs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from sim.roles import CLAN_ROLES, Cause, Clan, Role

if TYPE_CHECKING:
    from sim.engine import CheckResult, TurnReport
    from sim.requests import Action, ClanOrder
    from sim.rules import RuleSet
    from sim.state import GameState


@dataclass(frozen=True, slots=True)
class PublicDeath:
    """A death as the newspaper prints it (R15.1-R15.4, D15.1)."""

    turn: int
    seat: int
    causes: tuple[Cause, ...]
    revealed: str | None  # the role label if the paper reveals it, else None


@dataclass(frozen=True, slots=True)
class Statement:
    """A day statement: a claim of a role (true or false), a check announcement ("X is
    triad", "X is clean"), an accusation or a defence. The engine decides nothing from it."""

    turn: int
    speaker: int
    kind: str  # "claim", "check", "accuse", "defend", "order"
    target: int = -1
    value: str = ""  # the claimed role, or the announced check result
    #: "public", or a private channel allowed by R2.7: "clan" (within the speaker's clan),
    #: "badge" (commissar with sergeant), "checked" (commissar or sergeant to `to`,
    #: a player they checked)
    channel: str = "public"
    to: int = -1


class PublicRecord:
    """Everything public: who is alive, the newspapers, every accepted vote, statements."""

    __slots__ = ("names", "n", "alive", "turn", "deaths", "revealed", "beaten", "votes",
                 "statements", "hanged", "today", "absent", "role_counts", "alive_mask",
                 "today_tally", "cache", "__weakref__")

    def __init__(self, names: tuple[str, ...]):
        self.names = names
        self.n = len(names)
        self.alive: list[bool] = [True] * self.n
        self.alive_mask = np.ones(self.n, dtype=bool)  # the same, as an array
        #: votes against each player so far today (only those with votes)
        self.today_tally: dict[int, int] = {}
        self.turn = 0
        self.deaths: list[PublicDeath] = []
        self.revealed: list[str | None] = [None] * self.n
        self.beaten: list[tuple[int, int]] = []  # (turn, seat)
        self.votes: list[tuple[int, int, int]] = []  # (turn, voter, target), accepted, in order
        self.statements: list[Statement] = []
        self.hanged: list[tuple[int, int]] = []  # (turn, seat)
        #: votes cast so far today, in order (R5.6: each voter sees the earlier ones)
        self.today: list[tuple[int, int]] = []
        #: who posted nothing this turn (public once the day is over; R16.1)
        self.absent: frozenset[int] = frozenset()
        #: how many players have each role: the host announces the table (P2.1)
        self.role_counts: dict[Role, int] = {}
        #: for agents: what they derive from the public record alone, shared between them
        self.cache: dict[object, object] = {}

    def publish(self, st: GameState, rep: TurnReport) -> None:
        """Add one turn's newspaper to the record (R15)."""
        t = rep.turn
        for voter, target in rep.votes:
            self.votes.append((t, voter, target))
        reveal_night = st.rules.reveal_night_roles
        day = [d for d in rep.deaths if d.step <= 3]  # P15.3: no order that tells the step
        for d in day + sorted((d for d in rep.deaths if d.step > 3), key=lambda d: d.seat):
            cause = d.causes[0]
            shown = cause in (Cause.HANGED, Cause.MISSING, Cause.REMOVED) or reveal_night
            label = st.comp.seats[d.seat].label() if shown else None  # R15.2, D15.1
            self.deaths.append(PublicDeath(t, d.seat, d.causes, label))
            self.alive[d.seat] = False
            self.alive_mask[d.seat] = False
            if label is not None:
                self.revealed[d.seat] = label
            if cause is Cause.HANGED:
                self.hanged.append((t, d.seat))
        for v in rep.beaten:
            self.beaten.append((t, v))
        self.turn = st.turn
        self.today = []
        self.today_tally = {}
        self.absent = frozenset()

    def note_day(self, rep: TurnReport) -> None:
        """The day's removals (steps 1-3) are seen at once; roles wait for the newspaper."""
        for d in rep.deaths:
            self.alive[d.seat] = False
            self.alive_mask[d.seat] = False

    def living(self) -> list[int]:
        alive = self.alive
        return [i for i in range(self.n) if alive[i]]


class PlayerView:
    """One player's window on the game.

    - `role` is the role as the host told it: a VSB is told he is a civilian (R2.3).
    - `allies`: seats he knows and what he knows of them (R2.5, D2.3): a clan member knows
      his clan (with roles) and its VSB; commissar and sergeant know each other.
    - `checks`: check results he has seen (the commissar's, and the sergeant's R7.4).
    - `public`: the shared public record.
    """

    __slots__ = ("_st", "public", "seat", "role", "clan", "allies", "checks", "private",
                 "inbox", "reads")

    def __init__(self, st: GameState, public: PublicRecord, seat: int):
        self._st = st
        self.public = public
        self.seat = seat
        true_role = st.role[seat]
        self.role = Role.CIVILIAN if true_role is Role.VSB else true_role
        self.clan = st.clan[seat] if true_role in CLAN_ROLES else Clan.NONE
        allies: dict[int, str] = {}
        if true_role in CLAN_ROLES:
            for m in st.members[self.clan]:
                if m != seat:
                    allies[m] = st.role[m].key
            vsb = st.vsb_of[self.clan]
            if vsb >= 0:
                allies[vsb] = "vsb"
        elif true_role in (Role.COMMISSAR, Role.SERGEANT):
            for r in (Role.COMMISSAR, Role.SERGEANT):
                for s in st.seats_by_role[r]:
                    if s != seat:
                        allies[s] = r.key
        self.allies = allies
        self.checks: list[CheckResult] = []
        self.private: dict[str, object] = {}
        #: private messages he may receive (R2.7): within his clan, commissar with sergeant,
        #: and those two with the players they checked
        self.inbox: list[Statement] = []
        #: his accumulated reads of the table (sim.info), one log-likelihood ratio a seat
        self.reads: object = None

    # Facts of his own role the host tells him (what he has left, whom he may not pick).
    @property
    def turn(self) -> int:
        return self._st.turn

    @property
    def rules(self) -> RuleSet:
        """The rule set: public, every player knows the rules."""
        return self._st.rules

    @property
    def alive(self) -> bool:
        return self._st.alive[self.seat]

    @property
    def don(self) -> int:
        """His clan's Don (clan members only; -1 otherwise or when the clan has none)."""
        return self._st.don[self.clan] if self.clan is not Clan.NONE else -1

    @property
    def has_badge(self) -> bool:
        """Whether he checks tonight: the commissar, or the sergeant after R7.5."""
        return self._st.badge[self.seat]

    @property
    def last_heal(self) -> int:
        return self._st.last_heal[self.seat] if self.role is Role.DOCTOR else -1

    @property
    def protects_left(self) -> int:
        return self._st.protects_left[self.seat] if self.role is Role.NECROMANCER else 0

    @property
    def vest(self) -> bool:
        return self._st.vest[self.seat] if self.role is Role.MANIAC else False

    @property
    def ambush_used(self) -> bool:
        return self._st.ambush_used[self.seat] if self.role is Role.MANIAC else False

    @property
    def blast_used(self) -> bool:
        return self._st.blast_used[self.seat] if self.role is Role.KAMIKAZE else False

    @property
    def beaten_today(self) -> bool:
        """Beaten last night: he may not post or vote today (R5.5), public anyway."""
        return self.seat in self._st.beaten_today

    @property
    def beaten_ever(self) -> list[bool]:
        """Who was beaten this game (public: the newspaper prints it, R10.4)."""
        return list(self._st.beaten_ever)

    # -- what the host would accept from him now (sim.legal; no action is always legal) ----
    def legal_votes(self) -> list[int]:
        from sim.legal import vote_fault

        st, pub = self._st, self.public
        voted = {v for v, _ in pub.today}
        return [t for t in range(st.n)
                if vote_fault(st, self.seat, t, pub.absent, voted) is None]

    def legal_actions(self) -> list[Action]:
        """His legal night actions. For the necromancer it tells whether the Army can be
        raised, as the host's answer to his request would."""
        from sim.legal import legal_actions

        order = self.private.get("order")
        shooters = (getattr(order, "shooter", -1),)  # his clan's order tonight (R10.3)
        return legal_actions(self._st, self.seat, self.public.absent, shooters)

    def legal_orders(self) -> list[ClanOrder]:
        from sim.legal import legal_orders

        if self.clan is Clan.NONE:
            return []
        orders = legal_orders(self._st, self.clan, self.public.absent)
        if self.don == self.seat:
            return [o for o in orders if o.by < 0]
        return [o for o in orders if o.by == self.seat]  # his own, R14.4

    def can_raise_army(self) -> bool:
        """Whether the host would accept the Army now (R12.5, R12.6, D12.3, D12.4)."""
        from sim.legal import army_fault

        st = self._st
        return (self.role is Role.NECROMANCER and st.turn > 0 and st.alive[self.seat]
                and army_fault(st, self.seat) is None)
