"""What one player may know: public facts (newspaper R15, votes R5.6, statements) and his
own private knowledge (R2.5, R2.7, R7.4). Agents receive a `PlayerView`, never the state.

Views are plain data, built once per game and updated in place by the engine (`refresh`,
`PublicRecord.publish`) after each step, so asking for one costs nothing. Neither a view
nor the public record keeps a reference to the state, the game or another player's view.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import numpy as np

from sim.engine.legal import (
    ambush_fault,
    army_fault,
    army_targets_fault,
    ballot_fault,
    beat_fault,
    blast_fault,
    check_fault,
    clan_order_fault,
    heal_fault,
    kill_fault,
    night_turn_fault,
    present_fault,
    protect_fault,
    strike_fault,
)
from sim.engine.weakable import Anchor
from sim.game.pickling import picklable
from sim.game.roles import CLAN_ROLES, Cause, Clan, Role
from sim.game.talk import Statement

if TYPE_CHECKING:
    from sim.engine.report import CheckResult, TurnReport
    from sim.engine.state import GameState
    from sim.game.requests import Action, ClanOrder
    from sim.game.rules import RuleSet, Seat


@dataclass(frozen=True, slots=True)
class PublicDeath:
    """A death as the newspaper prints it (R15.1-R15.4, D15.1)."""

    turn: int
    seat: int
    causes: tuple[Cause, ...]
    revealed: Seat | None  # his role and clan if the paper reveals them, else None

    # Written out (sim.game.pickling says why): the same parameters as the generated one.
    def __init__(self, turn: int, seat: int, causes: tuple[Cause, ...],
                 revealed: Seat | None) -> None:
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "causes", causes)
        object.__setattr__(self, "revealed", revealed)


# Compiled, so it has no weak-reference slot: agents.town's registry keys weakly on its
# `anchor` instead (sim.engine.weakable).
class PublicRecord:
    """Everything public: who is alive, the newspapers, every accepted vote, statements."""

    __slots__ = ("names", "n", "alive", "turn", "deaths", "revealed", "beaten", "votes", "said_at",
                 "statements", "hanged", "today", "absent", "role_counts", "alive_mask",
                 "today_tally", "today_voters", "beaten_today", "beaten_ever", "cache",
                 "anchor")

    def __init__(self, names: tuple[str, ...]):
        self.names = names
        self.n = len(names)
        #: what weak references to this record point to (sim.engine.weakable)
        self.anchor = Anchor()
        self.alive: list[bool] = [True] * self.n
        self.alive_mask = np.ones(self.n, dtype=bool)  # the same, as an array
        #: votes against each player so far today (only those with votes)
        self.today_tally: dict[int, int] = {}
        #: who has voted so far today (R5.1: once a turn)
        self.today_voters: set[int] = set()
        self.turn = 0
        self.deaths: list[PublicDeath] = []
        #: each seat's role and clan, once the paper has revealed them (R15.2, D15.1)
        self.revealed: list[Seat | None] = [None] * self.n
        self.beaten: list[tuple[int, int]] = []  # (turn, seat)
        #: who was beaten last night (R10.4: the newspaper prints it; R5.5)
        self.beaten_today: frozenset[int] = frozenset()
        #: who was beaten this game (R10.2, R10.4)
        self.beaten_ever: list[bool] = [False] * self.n
        self.votes: list[tuple[int, int, int]] = []  # (turn, voter, target), accepted, in order
        self.statements: list[Statement] = []
        #: for each public statement, how many of its day's votes were cast before it (0: said
        #: before the vote; P5.5): whether a claim was made under the rope is public
        self.said_at: list[int] = []
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
            seat = st.comp.seats[d.seat] if shown else None  # R15.2, D15.1
            self.deaths.append(PublicDeath(t, d.seat, d.causes, seat))
            self.alive[d.seat] = False
            self.alive_mask[d.seat] = False
            if seat is not None:
                self.revealed[d.seat] = seat
            if cause is Cause.HANGED:
                self.hanged.append((t, d.seat))
        for v in rep.beaten:
            self.beaten.append((t, v))
            self.beaten_ever[v] = True
        self.beaten_today = frozenset(rep.beaten)
        self.turn = st.turn
        self.today = []
        self.today_tally = {}
        self.today_voters = set()
        self.absent = frozenset()

    def note_day(self, rep: TurnReport) -> None:
        """The day's removals (steps 1-3) are seen at once; roles wait for the newspaper."""
        for d in rep.deaths:
            self.alive[d.seat] = False
            self.alive_mask[d.seat] = False

    def living(self) -> list[int]:
        alive = self.alive
        return [i for i in range(self.n) if alive[i]]


_NO_DON: Final = (-1,)
_NOBODY: Final[frozenset[int]] = frozenset()


class PlayerView:
    """One player's window on the game: plain data, with nothing that leads to the state.

    - `role` is the role as the host told it: a VSB is told he is a civilian (R2.3).
    - `allies`: seats he knows and what he knows of them (R2.5, D2.3): a clan member knows
      his clan (with roles) and its VSB; commissar and sergeant know each other.
    - `checks`: check results he has seen (the commissar's, and the sergeant's R7.4).
    - `public`: the shared public record.
    - his own facts (`don`, `has_badge`, `last_heal`, `protects_left`, `vest`,
      `ambush_used`, `blast_used`) are copied in by `refresh` (the engine calls it after
      each step that can change them, sim.engine.game.Game._refresh); `turn`, `alive`,
      `beaten_today` and `beaten_ever` are read from the public record.
    - `army` and `protected` are the host's answers to the necromancer (P12.7), set by
      `refresh` when the night's requests are taken.

    The view keeps no reference to the game state, the game, the information model or any
    other player's view (tests/test_view_isolation.py): the legal lists below are worked
    out from the view's own data.
    """

    __slots__ = ("public", "seat", "role", "clan", "allies", "checks", "order", "inbox",
                 "reads", "rules", "_don", "has_badge", "last_heal", "protects_left", "vest",
                 "ambush_used", "blast_used", "army", "protected", "_vsb", "_members")

    def __init__(self, st: GameState, public: PublicRecord, seat: int,
                 dons: dict[Clan, list[int]] | None = None):
        # `st` is read here and not kept. `dons`: each clan's Don in a one-element list,
        # shared by the views of the clan's members (what they all know, R2.6).
        self.public = public
        self.seat = seat
        self.rules: RuleSet = st.rules  # public: every player knows the rules
        true_role = st.role[seat]
        self.role = Role.CIVILIAN if true_role is Role.VSB else true_role
        self.clan = clan = st.clan[seat] if true_role in CLAN_ROLES else Clan.NONE
        allies: dict[int, str] = {}
        #: his clan's members (himself included) and its VSB (-1: none), as he knows (R2.5)
        self._members: tuple[int, ...] = ()
        self._vsb = -1
        #: his clan's Don: shared by the clan's views (`dons`), (-1,) outside the clans
        self._don: list[int] | tuple[int] = _NO_DON
        if clan:
            self._members = members = st.members[clan]
            for m in members:
                if m != seat:
                    allies[m] = st.role[m].key
            self._vsb = vsb = st.vsb_of[clan]
            if vsb >= 0:
                allies[vsb] = "vsb"
            self._don = dons[clan] if dons is not None else [st.don[clan]]
        elif true_role in (Role.COMMISSAR, Role.SERGEANT):
            for r in (Role.COMMISSAR, Role.SERGEANT):
                for s in st.seats_by_role[r]:
                    if s != seat:
                        allies[s] = r.key
        self.allies = allies
        self.checks: list[CheckResult] = []
        #: tonight's order of his clan, as his Don sent it (clan members only; R2.7,
        #: P10.2: a thug named shooter knows he does not beat); None before it is sent
        self.order: ClanOrder | None = None
        #: private messages he may receive (R2.7): within his clan, commissar with sergeant,
        #: and those two with the players they checked
        self.inbox: list[Statement] = []
        #: his accumulated reads of the table (sim.engine.info), one log-likelihood ratio a seat
        self.reads: object = None
        #: whether he checks tonight: the commissar, or the sergeant after R7.5
        self.has_badge = False
        self.last_heal = -1  # the doctor's last carried-out heal (R8.3)
        self.protects_left = 0  # the necromancer's (R12.1)
        self.vest = False  # the maniac's (R9.4)
        self.ambush_used = False  # the maniac's (R9.3)
        self.blast_used = False  # the kamikaze's (R13.1)
        #: the host's answer to an Army request tonight (P12.7); False but at night
        self.army = False
        #: who holds a protect, as the host's refusals tell the necromancer (P12.1, P12.7)
        self.protected: frozenset[int] = _NOBODY

    @property
    def don(self) -> int:
        """His clan's Don (clan members only; -1 otherwise or when the clan has none)."""
        return self._don[0]

    # Facts everybody sees, read from the public record.
    @property
    def turn(self) -> int:
        return self.public.turn

    @property
    def alive(self) -> bool:
        return self.public.alive[self.seat]

    @property
    def beaten_today(self) -> bool:
        """Beaten last night: he may not post or vote today (R5.5), public anyway."""
        return self.seat in self.public.beaten_today

    @property
    def beaten_ever(self) -> list[bool]:
        """Who was beaten this game (public: the newspaper prints it, R10.4)."""
        return list(self.public.beaten_ever)

    # -- what the host would accept from him now: the rules of sim.engine.legal, asked with
    # -- the facts he has (no action is always legal). Worked out when asked. ----------------
    def legal_votes(self) -> list[int]:
        """The players he may vote against now (ballot_fault: R3.1, R5, P5.1, P5.2)."""
        pub, seat = self.public, self.seat
        turn, alive, names = pub.turn, pub.alive, pub.names
        absent, beaten, voted = pub.absent, pub.beaten_today, pub.today_voters
        return [t for t in range(pub.n)
                if ballot_fault(turn, seat, t, alive, absent, beaten, voted, names) is None]

    def legal_actions(self) -> list[Action]:
        """His legal night actions, in the order of sim.engine.legal.candidate_actions. For the
        necromancer the Army is listed as the host's answer to his request would (P12.7)."""
        from sim.game.requests import (
            Ambush,
            Beat,
            Blast,
            Check,
            Heal,
            Kill,
            Protect,
            RaiseArmy,
            Strike,
        )

        pub, seat, role = self.public, self.seat, self.role
        alive, names, everyone = pub.alive, pub.names, range(pub.n)
        if (present_fault(seat, alive, pub.absent, names)
                or night_turn_fault(pub.turn, role)):
            return []
        if role is Role.KAMIKAZE:
            used, vsb = self.blast_used, self._vsb
            return [Blast(t) for t in everyone
                    if blast_fault(seat, t, used, vsb, alive, names) is None]
        if role is Role.THUG:
            order = self.order
            shoots = order is not None and order.shooter == seat  # R10.3, P10.2
            ever, vsb = pub.beaten_ever, self._vsb
            return [Beat(t) for t in everyone
                    if beat_fault(seat, t, shoots, ever, vsb, alive, names) is None]
        if role is Role.MANIAC:
            out: list[Action] = [Kill(t) for t in everyone
                                 if kill_fault(seat, t, alive, names) is None]
            if ambush_fault(self.rules, self.ambush_used) is None:
                out.append(Ambush())
            return out
        if role is Role.NINJA:
            return [Strike(t) for t in everyone if strike_fault(seat, t, alive, names) is None]
        if role is Role.DOCTOR:
            last, rules = self.last_heal, self.rules
            return [Heal(t) for t in everyone
                    if heal_fault(seat, t, last, rules, alive, names) is None]
        if role is Role.NECROMANCER:
            turn, left, held = pub.turn, self.protects_left, self.protected
            pairs = [(a, b) for a in everyone for b in range(a + 1, pub.n)]
            out = [Protect((a,)) for a in everyone
                   if protect_fault(seat, (a,), turn, left, held, alive, names) is None]
            out += [Protect(p) for p in pairs
                    if protect_fault(seat, p, turn, left, held, alive, names) is None]
            if self.army:  # the host's answer to whether the Army may rise (P12.7)
                out += [RaiseArmy(p) for p in pairs
                        if army_targets_fault(seat, p, alive, names) is None]
            return out
        if role in (Role.COMMISSAR, Role.SERGEANT):
            badge = self.has_badge
            return [Check(t) for t in everyone
                    if check_fault(seat, t, badge, alive, names) is None]
        return []

    def legal_orders(self) -> list[ClanOrder]:
        """The orders he may send (R14): the Don's, or his own as the shooter when he is not
        the Don (R14.4), in the order of sim.engine.legal.legal_orders."""
        from sim.game.requests import ClanOrder

        pub, seat, clan = self.public, self.seat, self.clan
        if clan is Clan.NONE:
            return []
        members, don = self._members, self.don
        dons = [don] if don >= 0 else []
        # The Don's orders name a shooter (by -1: the Don); any other member's order makes
        # himself the shooter (R14.4).
        by, shooters = (-1, members) if don == seat else (seat, (seat,))
        out = []
        for shooter in shooters:
            for t in range(pub.n):
                order = ClanOrder(clan, t, shooter, by)
                if clan_order_fault(order, pub.turn, members, self._vsb, dons, pub.alive,
                                    pub.absent, pub.names) is None:
                    out.append(order)
        return out

    def can_raise_army(self) -> bool:
        """Whether the host would accept the Army now (R12.5, R12.6, D12.3, D12.4): his
        answer, given when the night's requests are taken (P12.7)."""
        return self.role is Role.NECROMANCER and self.army and self.public.alive[self.seat]


def refresh(views: Iterable[PlayerView], st: GameState, night: bool = False) -> None:
    """Copy into each view the facts of his own role the host tells him; the engine calls
    it after each step that can change them (`night`: the night's requests are being
    taken, after the day's removals, P3.1, so the necromancer gets the host's answers,
    P12.7). Nothing of `st` is kept."""
    kamikaze, doctor, maniac, necro = Role.KAMIKAZE, Role.DOCTOR, Role.MANIAC, Role.NECROMANCER
    for view in views:
        seat, role = view.seat, view.role
        if view.clan:
            box = view._don
            assert isinstance(box, list)  # a clan's views share it
            box[0] = st.don[view.clan]
            if role is kamikaze:
                view.blast_used = st.blast_used[seat]
        elif role is doctor:
            view.last_heal = st.last_heal[seat]
        elif role is maniac:
            view.vest = st.vest[seat]
            view.ambush_used = st.ambush_used[seat]
        elif role is necro:
            view.protects_left = st.protects_left[seat]
            ok = night and st.turn > 0 and st.alive[seat]
            view.army = ok and army_fault(st, seat) is None
            view.protected = (frozenset(t for t in range(st.n) if st.protect_by[t] >= 0)
                              if ok and st.turn <= 2 and view.protects_left > 0  # D12.1
                              else _NOBODY)
        elif role is Role.COMMISSAR or role is Role.SERGEANT:
            view.has_badge = st.badge[seat]


# compiled, these rebuild from their field values (sim.game.pickling)
picklable(PublicDeath)
