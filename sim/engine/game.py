"""The rules engine: one game, played turn by turn in the order of R4.

The engine decides nothing on a player's behalf: every vote and night request comes in a
`TurnInput` (from agents or a script), and all chance comes from the generator passed in.
`Game.play_turn` runs the steps of R4 as visible pieces:

    step 1  _leave_absent       players who posted nothing leave (R16.1)
    step 2  _hang               the most-voted is hanged (R5.2)
    step 3  _remove_breakers    rule breakers are removed (R16.3)
    step 4  _step4              the kamikaze blows up, the thug beats (R13, R10)
    step 5  _step5_attempts     clans, maniac, ninja (and testament, Army) shoot at once;
                                the necromancer hands out protects (R4 step 5)
    step 6  _resolve_night      heals, resurrection, protects, checks in the order of D4.1
    step 7  _step7              abstainers go missing, passive players leave (R16.2, R16.3)
    step 8  _end_of_turn        the duel, the sergeant's badge, the next turn (R17.4, R7.5)

Wins are checked after every step that removes a player (D4.2).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import numpy as np
from numpy.random import Generator

from sim.engine.legal import Fault, action_fault, army_fault, night_fault, order_fault, vote_fault
from sim.engine.outcome import camp_result, duel_result
from sim.engine.report import CheckResult, Death, TurnReport
from sim.engine.state import GameState
from sim.engine.view import PlayerView, PublicRecord, refresh
from sim.game.errors import InputError, MafiaSimError
from sim.game.messages import Msg, as_msg, msg
from sim.game.pickling import picklable
from sim.game.requests import (
    Action,
    Ambush,
    Beat,
    Blast,
    Check,
    ClanOrder,
    Heal,
    Kill,
    NightRequests,
    Protect,
    RaiseArmy,
    Strike,
    TurnInput,
    Vote,
)
from sim.game.roles import CLAN_ROLES, PEACEFUL, Cause, Clan, Outcome, Reason, Role, Shown, Winner
from sim.game.rules import Composition, RuleSet
from sim.game.talk import BADGE, CLAN, PUBLIC, Statement

#: Step-5 attempts that a heal can stop (R8.1, R8.2): the mafia's and the maniac's.
HEALABLE: Final = (Cause.YAKUZA, Cause.TRIAD, Cause.MANIAC)
#: Vote(v, t) without the named tuple's interpreted __new__ (a Python frame a vote, half the
#: cost of making one): the same object, made by tuple's own constructor
_new_vote: Final = tuple.__new__
#: Attempts made by the dead (the testament) or the raised dead (the Army): nobody living
#: stands behind them to be killed by the kamikaze or the ambush.
BY_THE_DEAD: Final = (Cause.TESTAMENT, Cause.ARMY)
CLAN_CAUSE: Final = {Clan.YAKUZA: Cause.YAKUZA, Clan.TRIAD: Cause.TRIAD}
#: Roles whose views carry facts of their own besides the Don (sim.engine.view.refresh).
_TOLD_ROLES: Final = (Role.KAMIKAZE, Role.COMMISSAR, Role.SERGEANT, Role.DOCTOR,
                      Role.MANIAC, Role.NECROMANCER)


class GameOver(Exception):
    """Raised inside a turn when a step ends the game (D4.2); caught by play_turn."""


class Game:
    """One game: a composition, a rule set, a generator, and the turns played so far."""

    def __init__(
        self,
        comp: Composition,
        rules: RuleSet | None = None,
        rng: Generator | None = None,
        dons: Mapping[Clan, int] | None = None,
        record: bool = True,
        validate: bool = True,
        undealt: GameState | None = None,
        order: list[int] | None = None,
    ):
        """`undealt` and `order`: `comp` is the composition of `undealt` dealt in `order`
        (seat i is its seat order[i]); the state's set-up starts from it (GameState)."""
        rules = rules or RuleSet()
        if validate:
            comp.validate(rules)
        self.rules = rules
        self.st = GameState(comp, rules, undealt, order)
        self.rng = rng if rng is not None else np.random.default_rng(0)
        #: keep the full event log and per-turn reports (False: only counters a result needs)
        self.record = record
        self.log: list[tuple[object, ...]] = []
        self.reports: list[TurnReport] = []
        self.public = PublicRecord(self.st.names)
        self.public.role_counts = {r: len(s) for r, s in self.st.seats_by_role.items() if s}
        #: each clan's Don as its members' views show it (sim.engine.view.PlayerView.don), kept
        #: with st.don
        self._dons = {Clan.YAKUZA: [-1], Clan.TRIAD: [-1]}
        self.views = [PlayerView(self.st, self.public, seat, self._dons)
                      for seat in range(self.st.n)]
        #: the views with facts of their own role to keep up to date (sim.engine.view.refresh),
        #: besides the Don (`_told`; `_necro` at night)
        by_role = self.st.seats_by_role
        self._told = [self.views[s] for r in _TOLD_ROLES for s in by_role[r]]
        self._necro = [self.views[s] for s in by_role[Role.NECROMANCER]]
        self._appoint_dons(dons or {})
        for clan, box in self._dons.items():
            box[0] = self.st.don[clan]
        self._refresh()
        self._turn: tuple[TurnReport, TurnInput] | None = None
        self._dons_at_start: list[int] = list(self.st.don)
        self._army_at_start: dict[int, bool] = {}

    # -- set-up ---------------------------------------------------------------------------
    def _appoint_dons(self, dons: Mapping[Clan, int]) -> None:
        """R2.6: each clan's Don; default the first member who is neither kamikaze nor thug."""
        st = self.st
        for clan, don in dons.items():
            if not st.members[clan]:
                raise InputError("dons: {player} cannot be the {clan} Don: there is no {clan} "
                                 "in this game", player=st.names[don], clan=Msg(clan.key))
        for clan in (Clan.YAKUZA, Clan.TRIAD):
            members = st.members[clan]
            if not members:
                continue
            if clan in dons:
                don = dons[clan]
                if don not in members:
                    raise InputError("the {clan} Don {player} is not a {clan} member",
                                     clan=Msg(clan.key), player=st.names[don])
                if st.role[don] is not Role.MAFIOSO:
                    raise InputError("the {clan} Don {player} is a {role}: the kamikaze and the "
                                     "thug cannot be Don (R2.6)", clan=Msg(clan.key),
                                     player=st.names[don], role=Msg(st.role[don].key))
                st.don[clan] = don
            else:
                st.don[clan] = self._next_don(clan)
            if self.record:
                self.log.append(("don", 0, clan.key, st.don[clan]))

    def _next_don(self, clan: Clan) -> int:
        """D2.2, P14.2: the first living member who is neither the kamikaze nor the thug."""
        st = self.st
        for m in st.members[clan]:
            if st.alive[m] and st.role[m] is Role.MAFIOSO:
                return m
        return -1

    def _refresh(self, night: bool = False) -> None:
        """Copy into the views what their own roles' facts are now (sim.engine.view.refresh).
        `night`: after the day's removals, which change no such fact (the Don's box is kept
        by _kill), when the night's requests are taken and the necromancer gets the host's
        answers (P12.7)."""
        if not night:
            refresh(self._told, self.st)
        elif self._necro:
            refresh(self._necro, self.st, True)

    # -- queries --------------------------------------------------------------------------
    @property
    def turn(self) -> int:
        return self.st.turn

    @property
    def outcome(self) -> Outcome | None:
        return self.st.outcome

    @property
    def over(self) -> bool:
        return self.st.outcome is not None

    def view(self, seat: int) -> PlayerView:
        """What player `seat` may know (R2.5, R2.7, R7.4, R15, votes); never the state."""
        return self.views[seat]

    # -- talk ---------------------------------------------------------------------------------
    def say(self, stmt: Statement) -> None:
        """A statement of the day: public, or on a private channel R2.7 allows."""
        st = self.st
        s = stmt.speaker
        if not st.alive[s]:
            raise self._illegal(s, stmt.kind, "R16.6", Msg("the dead pass on no information"))
        if s in st.beaten_today:
            raise self._illegal(s, stmt.kind, "R10.4", Msg("the beaten cannot post today"))
        if stmt.turn != st.turn:  # what a listener makes of it depends on its day (P5.8)
            raise self._illegal(s, stmt.kind, "P5.8", Msg("a post is dated the day it is made"))
        if stmt.channel is PUBLIC:
            self.public.statements.append(stmt)
            self.public.said_at.append(len(self.public.today))
            listeners: list[int] = []
        elif stmt.channel is CLAN:
            if st.role[s] not in CLAN_ROLES:
                raise self._illegal(s, stmt.kind, "R2.7", Msg("only clan members talk in private"))
            listeners = [m for m in st.members[st.clan[s]] if st.alive[m]]
        elif stmt.channel is BADGE:
            if st.role[s] not in (Role.COMMISSAR, Role.SERGEANT):
                raise self._illegal(s, stmt.kind, "R2.7",
                                    Msg("only the commissar and sergeant share this channel"))
            listeners = [x for x in st.seats_by_role[Role.COMMISSAR] + st.seats_by_role[
                Role.SERGEANT] if st.alive[x]]
        else:  # CHECKED (a Statement's channel is always one of the four)
            checked = {c.target for c in self.views[s].checks}
            if st.role[s] not in (Role.COMMISSAR, Role.SERGEANT) or stmt.to not in checked:
                raise self._illegal(s, stmt.kind, "R2.7", Msg(
                    "the commissar and sergeant talk in private only with players they checked"))
            listeners = [s, stmt.to]
        for x in listeners:
            if x != s:
                self.views[x].inbox.append(stmt)
        if self.record:
            self.log.append(("say", st.turn, s, stmt.channel.value, stmt.kind.value,
                             stmt.target, stmt.value, stmt.to))

    # -- validation -------------------------------------------------------------------------
    def _illegal(self, seat: int, request: Msg | str, rule: str, why: Msg | str
                 ) -> MafiaSimError:
        from sim.game.errors import IllegalRequest

        st = self.st
        if 0 <= seat < st.n:
            player, role = st.names[seat], st.comp.seats[seat].word()
        else:
            player, role = "?", Msg("?")
        return IllegalRequest(st.turn, player, role, as_msg(request), rule, as_msg(why))

    # -- requests one at a time, as players make them (the driver's agents) -------------------
    # Each is checked here, by sim.engine.legal's fault functions, and recorded only if the
    # rules accept it; the fault is returned for the caller to deal with (the driver raises
    # or skips, as its on_illegal says). A game file (`resolve`) comes whole instead, through
    # validate and admit_night, which ask the same functions.
    def open_day(self, inp: TurnInput) -> None:
        """The day's talk and vote begin: who posted nothing today (R16.1; the attrition of
        D16.1) is known to all, and the views' legal lists leave them out."""
        self.public.absent = inp.absent

    def cast_vote(self, inp: TurnInput, voter: int, target: int) -> Fault | None:
        """One vote of the day as it is cast (R5.1, R5.6): counted in the turn's input and in
        today's public votes, which later voters see. The rule it breaks, else None."""
        st, pub = self.st, self.public
        alive, voted = st.alive, pub.today_voters
        # The common case answered at once: a living voter who is present, not beaten and
        # has not voted, against another living player; vote_fault names any fault.
        if not (target != voter and 0 <= target < st.n and 0 <= voter and alive[target]
                and alive[voter] and voter not in voted and voter not in inp.absent
                and voter not in st.beaten_today and st.turn > 0):
            fault = vote_fault(st, voter, target, inp.absent, voted)
            if fault is not None:
                return fault
        voted.add(voter)
        pub.today.append((voter, target))
        tally = pub.today_tally
        tally[target] = tally.get(target, 0) + 1
        inp.votes.append(_new_vote(Vote, (voter, target)))
        return None

    def send_order(self, night: NightRequests, order: ClanOrder,
                   absent: frozenset[int]) -> Fault | None:
        """A clan's order for tonight as it is sent (R14): filed, and told to the clan's
        members (R2.7; a thug named shooter knows he does not beat, P10.2). The rule it
        breaks, else None."""
        st = self.st
        fault = order_fault(st, order, absent)
        if fault is not None:
            return fault
        night.orders[order.clan] = order
        for m in st.members[order.clan]:
            self.views[m].order = order
        return None

    def send_action(self, night: NightRequests, seat: int, action: Action,
                    absent: frozenset[int], shooters: set[int]) -> Fault | None:
        """A player's own night request (blast, beat, kill, ambush, strike, heal, protects,
        Army, check) as he sends it: filed. The rule it breaks, else None."""
        fault = action_fault(self.st, seat, action, absent, shooters)
        if fault is None:
            night.actions[seat] = action
        return fault

    def validate_day(self, inp: TurnInput) -> None:
        """Raise IllegalRequest for the first vote or host list of the turn the rules forbid
        (checked against the state at the start of the turn, P3.1)."""
        st = self.st
        names = st.names
        if st.outcome is not None:
            raise InputError("turn {turn} given after the game ended on turn {end} (P3.3)",
                             turn=st.turn, end=st.outcome.turn)
        if st.turn == 0:
            if inp.votes:
                v = inp.votes[0]
                raise self._illegal(v.voter, v.text(names), "R3.1", Msg("turn 0 has no vote"))
            for group, what in ((inp.absent, Msg("absent")), (inp.removed, Msg("removed")),
                                (inp.passive, Msg("passive"))):
                for s in group:
                    raise self._illegal(s, what, "R16.5",
                                        Msg("turn 0 activity is not regulated"))
        for group, what in ((inp.absent, Msg("absent")), (inp.removed, Msg("removed")),
                            (inp.passive, Msg("passive"))):
            for s in group:
                if not st.alive[s]:
                    raise self._illegal(s, what, "P3.2", msg("{player} is dead", player=names[s]))
        voted: set[int] = set()
        for v in inp.votes:
            fault = vote_fault(st, v.voter, v.target, inp.absent, voted)
            if fault:
                raise self._illegal(v.voter, v.text(names), *fault)
            voted.add(v.voter)

    def validate(self, inp: TurnInput) -> None:
        """Check a whole turn's requests against the state at the start of the turn, without
        playing it. A turn that passes is accepted by play_turn: what the day's removals make
        void is dropped there (P3.1)."""
        self.validate_day(inp)
        bad = night_fault(self.st, inp.night, inp.absent)
        if bad:
            seat, text, (rule, why) = bad
            raise self._illegal(seat, text, rule, why)

    def admit_night(self, night: NightRequests, absent: frozenset[int]) -> NightRequests:
        """The night's requests as the host carries them out, after steps 1-3 (P3.1):
        requests of or against players who left at steps 1-3 this turn are void; an order
        sent by a Don who left still stands (P14.3). Raises IllegalRequest otherwise."""
        st = self.st
        left = {s for s in range(st.n) if st.death_turn[s] == st.turn and not st.alive[s]}
        out = NightRequests(after_day=night.after_day)
        dons: list[list[int]] = [[], [], []]
        for clan in (Clan.YAKUZA, Clan.TRIAD):
            pair = (self._dons_at_start[clan], st.don[clan])
            if night.after_day:
                pair = pair[::-1]
            dons[clan] = [d for d in pair if d >= 0]
        for clan, order in night.orders.items():
            if (order.shooter in left and order.shooter not in absent) or order.target in left:
                continue  # void: the shooter or the target left before the night
            by = order.by
            if by < 0:
                by = dons[clan][0] if dons[clan] else order.shooter
            out.orders[clan] = ClanOrder(order.clan, order.target, order.shooter, by)
        for seat, action in night.actions.items():
            if seat in left and seat not in absent:
                continue  # void: he was hanged or removed before the night
            if (isinstance(action, RaiseArmy) and self._army_at_start.get(seat)
                    and army_fault(st, seat) is not None):
                continue  # the day's removals took away a condition of the Army (P12.5)
            if isinstance(action, (Protect, RaiseArmy)):
                kept = tuple(t for t in action.targets if t not in left)
                if len(kept) != len(action.targets):
                    if not kept or isinstance(action, RaiseArmy):
                        continue
                    action = Protect(kept)
            elif getattr(action, "target", -1) in left:
                continue
            out.actions[seat] = action
        bad = night_fault(st, out, absent, senders_left=left, dons=dons)
        if bad:
            seat, text, (rule, why) = bad
            raise self._illegal(seat, text, rule, why)
        return out

    # -- the turn ---------------------------------------------------------------------------
    def play_turn(self, inp: TurnInput) -> TurnReport:
        """Play one turn in the order of R4 and return its report."""
        rep = self.play_day(inp)
        if rep.outcome is None:
            self.play_night(inp.night)
        return rep

    def play_day(self, inp: TurnInput, checked: bool = False) -> TurnReport:
        """Steps 1-3 of a turn (the day's removals). The night follows with play_night.

        `checked`: every vote was cast one by one with cast_vote, which checked it, so the
        turn is not checked twice."""
        st = self.st
        if inp.absent & st.beaten_today:
            # D10.4: the beaten may not post today, so they are excused from R16.1.
            inp.absent = inp.absent - st.beaten_today
        if checked:
            if st.outcome is not None:
                raise InputError("turn {turn} given after the game ended (P3.3)", turn=st.turn)
        else:
            self.validate_day(inp)
        rep = TurnReport(st.turn)
        self._turn = (rep, inp)
        self._dons_at_start = list(st.don)
        self._army_at_start = {s: army_fault(st, s) is None
                               for s in st.seats_by_role[Role.NECROMANCER] if st.alive[s]}
        self._testament: list[int] = []
        self._voted: set[int] = set()
        try:
            if st.turn > 0:
                self._leave_absent(inp, rep)  # step 1
                self._testament, self._voted = self._hang(inp, rep)  # step 2
                self._remove_breakers(inp, rep)  # step 3
        except GameOver:
            rep.outcome = st.outcome
            self._close_turn(rep)
            return rep
        self.public.note_day(rep)
        for clan in (Clan.YAKUZA, Clan.TRIAD):  # last night's orders are spent
            for m in st.members[clan]:
                self.views[m].order = None
        self._refresh(night=True)  # the night's requests are taken now (P3.1, P12.7)
        return rep

    def play_night(self, night: NightRequests, checked: bool = False) -> TurnReport:
        """Steps 4-8 of the turn begun by play_day (`checked`: as for play_day, every request
        was sent after the day's removals with send_order and send_action, which checked it,
        so admission has nothing to drop or refuse)."""
        st = self.st
        if self._turn is None:
            raise MafiaSimError("play_night before play_day")
        rep, inp = self._turn
        if not checked:
            night = self.admit_night(night, inp.absent)
        if self.record:
            self._log_requests(night)
        try:
            self._night(night, rep, self._testament)  # steps 4-6
            if st.turn > 0:
                self._step7(inp, rep, self._voted)  # step 7
            self._end_of_turn(rep)  # step 8
        except GameOver:
            rep.outcome = st.outcome
        self._close_turn(rep)
        return rep

    def _close_turn(self, rep: TurnReport) -> None:
        st = self.st
        self._turn = None
        st.beaten_today = frozenset(rep.beaten)
        st.beaten_tonight = {}
        if st.outcome is None:
            if st.turn + 1 >= self.rules.turn_limit:
                rep.outcome = self._finish(Winner.STALEMATE, Reason.TURN_LIMIT)  # D17.4
            else:
                st.turn += 1
        self.public.publish(st, rep)
        self._refresh()
        for c in rep.checks:
            for s in c.seen_by:
                self.views[s].checks.append(c)
        if self.record:
            self.reports.append(rep)

    def _log_requests(self, night: NightRequests) -> None:
        t = self.st.turn
        for order in night.orders.values():
            self.log.append(("request", t, order.by, order))
        for seat, action in night.actions.items():
            self.log.append(("request", t, seat, action))

    # -- removing players -----------------------------------------------------------------
    def _kill(self, seat: int, causes: tuple[Cause, ...], step: int, rep: TurnReport) -> None:
        st = self.st
        st.alive[seat] = False
        st.n_alive -= 1
        st.alive_count[st.camp[seat]] -= 1
        st.cause[seat] = causes[0]
        st.death_turn[seat] = st.turn
        rep.deaths.append(Death(seat, causes, step))
        if self.record:
            self.log.append(("death", st.turn, seat, causes[0].key, step))
        role = st.role[seat]
        if role in CLAN_ROLES and st.don[st.clan[seat]] == seat:
            clan = st.clan[seat]
            st.don[clan] = self._dons[clan][0] = self._next_don(clan)  # D2.2, and his views
        elif role is Role.NECROMANCER:
            for i in range(st.n):  # D12.2: protects die with the necromancer
                if st.protect_by[i] == seat:
                    st.protect_by[i] = -1

    def _check_win(self, rep: TurnReport) -> None:
        """D4.2: after a step that removed someone, see whether a camp has won (R17)."""
        result = camp_result(self.st)
        if result is not None:
            self._finish(*result)
            raise GameOver

    def _finish(self, winner: Winner, reason: Reason) -> Outcome:
        """End the game; returns the outcome (read it from here, not from st.outcome, which
        a caller that checked it before may still take for None)."""
        st = self.st
        st.outcome = outcome = Outcome(winner, reason, st.turn)
        if self.record:
            self.log.append(("outcome", st.turn, winner.key, reason.key))
        return outcome

    # -- steps 1-3 --------------------------------------------------------------------------
    def _leave_absent(self, inp: TurnInput, rep: TurnReport) -> None:
        """Step 1 (R16.1): players who posted nothing this turn leave; roles revealed."""
        absent = set(inp.absent)
        for s in sorted(absent):
            self._kill(s, (Cause.MISSING,), 1, rep)
        if absent:
            self._check_win(rep)

    def _hang(self, inp: TurnInput, rep: TurnReport) -> tuple[list[int], set[int]]:
        """Step 2 (R5.2): the most-voted is hanged; a tie goes to who first reached the top.

        Returns the voters for a hanged ninja in the order cast (his testament, R11.4) and
        the set of players whose vote was accepted (R16.2).
        """
        st = self.st
        reject = self.rules.vote_rejection
        # D5.2: one draw per seat a day, whoever votes, so the votes cast do not shift the
        # game's later draws (common random numbers, sim.play.streams)
        rejected = (self.rng.random(st.n) < reject).tolist() if reject > 0.0 else None
        tally = [0] * st.n
        best, hanged = 0, -1
        voted: set[int] = set()
        accepted: list[Vote] = []
        for v in inp.votes:
            if rejected is not None and rejected[v.voter]:  # D5.2: the host rejects the vote
                if self.record:
                    self.log.append(("vote", st.turn, v.voter, v.target, False))
                continue
            accepted.append(v)
            voted.add(v.voter)
            t = v.target
            st.votes_against[t] += 1  # R5.6: every accepted vote is kept for the duel
            if st.first_vote_at[t] < 0:
                st.first_vote_at[t] = st.vote_seq
            st.vote_seq += 1
            rep.votes.append((v.voter, t))
            if self.record:
                self.log.append(("vote", st.turn, v.voter, t, True))
            if not st.alive[t]:
                continue  # P5.3: he left at step 1
            tally[t] += 1
            if tally[t] > best:  # strictly more: ties stay with who got there first
                best, hanged = tally[t], t
        if hanged < 0:
            return [], voted  # D5.1
        rep.hanged = hanged
        testament = []
        if st.role[hanged] is Role.NINJA:
            testament = [v.voter for v in accepted if v.target == hanged]
        self._kill(hanged, (Cause.HANGED,), 2, rep)
        self._check_win(rep)
        return testament, voted

    def _remove_breakers(self, inp: TurnInput, rep: TurnReport) -> None:
        """Step 3 (R16.3): rule breakers leave, unless already hanged."""
        st = self.st
        removed = [s for s in sorted(inp.removed) if st.alive[s]]
        for s in removed:
            self._kill(s, (Cause.REMOVED,), 3, rep)
        if removed:
            self._check_win(rep)

    # -- the night --------------------------------------------------------------------------
    def _night(self, night: NightRequests, rep: TurnReport, testament: list[int]) -> None:
        st = self.st
        acts = night.actions
        # R9.3: a maniac who asked for the ambush sits in it from step 4 on.
        ambush = {s for s, a in acts.items() if isinstance(a, Ambush) and st.alive[s]}
        for s in ambush:
            st.ambush_used[s] = True
        beaten = self._step4(acts, ambush, rep)
        ambush = {s for s in ambush if st.alive[s]}
        attempts, army = self._step5_attempts(night, beaten, rep)
        self._resolve_night(acts, attempts, beaten, ambush, army, testament, rep)

    def _step4(
        self, acts: Mapping[int, Action], ambush: set[int], rep: TurnReport
    ) -> dict[int, int]:
        """Step 4: the kamikaze blows up (R13), the thug beats (R10). Returns victim -> thug."""
        st = self.st
        alive, role = st.alive, st.role
        dead: dict[int, set[Cause]] = {}
        blasts = [(s, a.target) for s, a in acts.items()
                  if isinstance(a, Blast) and alive[s] and alive[a.target]]
        beats = [(s, a.target) for s, a in acts.items()
                 if isinstance(a, Beat) and alive[s] and alive[a.target]]
        beating = dict(beats)
        for k, t in blasts:
            st.blast_used[k] = True
            dead.setdefault(t, set()).add(Cause.KAMIKAZE)  # R13.2: nothing saves him
            dead.setdefault(k, set()).add(Cause.KAMIKAZE)  # R13.1: he dies
            if t in beating:  # R13.4: the blast next to the thug takes his victim too
                dead.setdefault(beating[t], set()).add(Cause.KAMIKAZE)
        beaten: dict[int, int] = {}
        for g, v in beats:
            if role[v] is Role.KAMIKAZE:  # R13.3, R13.5: beating the kamikaze: both die
                dead.setdefault(g, set()).add(Cause.KAMIKAZE)
                dead.setdefault(v, set()).add(Cause.KAMIKAZE)
            elif v in ambush:  # R10.5, D9.2: the beater dies, the beating does not happen
                dead.setdefault(g, set()).add(Cause.AMBUSH)
            elif g in dead or v in dead:  # R13.4, P10.3: no beating
                continue
            else:
                beaten[v] = g
        for v, g in beaten.items():
            st.beaten_ever[v] = True  # R10.2
            rep.beaten.append(v)
            if self.record:
                self.log.append(("beaten", st.turn, v, g))
        st.beaten_tonight = beaten
        for s in sorted(dead):
            self._kill(s, tuple(sorted(dead[s])), 4, rep)
        if dead:
            self._check_win(rep)
        return beaten

    def _step5_attempts(
        self, night: NightRequests, beaten: dict[int, int], rep: TurnReport
    ) -> tuple[dict[int, list[tuple[int, Cause]]], int]:
        """Step 5 (simultaneous): who shoots at whom; protects are handed out (R12.1).

        Only players alive after step 4 and not beaten act (R4.1, R10.4). Returns the
        attempts (target -> [(attacker, kind)]) and the necromancer raising the Army (or -1).
        """
        st = self.st
        alive = st.alive
        attempts: dict[int, list[tuple[int, Cause]]] = {}
        for clan, order in night.orders.items():
            s = order.shooter
            # D10.2: a beaten shooter cannot shoot; the clan's shot is lost.
            if alive[s] and s not in beaten and alive[order.target]:
                attempts.setdefault(order.target, []).append((s, CLAN_CAUSE[clan]))
        army = -1
        for s, a in night.actions.items():
            if not alive[s] or s in beaten:
                continue
            if isinstance(a, Kill):
                if alive[a.target]:
                    attempts.setdefault(a.target, []).append((s, Cause.MANIAC))
            elif isinstance(a, Strike):
                if alive[a.target]:
                    attempts.setdefault(a.target, []).append((s, Cause.NINJA))
            elif isinstance(a, Protect):
                for t in a.targets:
                    if alive[t]:
                        st.protect_by[t] = s
                        st.protects_left[s] -= 1
                if self.record:
                    self.log.append(("protect", st.turn, s, a.targets))
            elif isinstance(a, RaiseArmy):
                if army_fault(st, s) is None:  # R12.5, R12.6 at step 5 (P12.3)
                    st.army_used = True
                    army = s
                    rep.army_raised = True
                    for t in a.targets:
                        if alive[t]:
                            attempts.setdefault(t, []).append((s, Cause.ARMY))
                    if self.record:
                        self.log.append(("army", st.turn, s, a.targets))
        return attempts, army

    def _fates(
        self,
        acts: Mapping[int, Action],
        attempts: dict[int, list[tuple[int, Cause]]],
        beaten: dict[int, int],
        ambush: set[int],
    ) -> tuple[dict[int, set[Cause]], list[int], list[int], dict[int, int], set[int]]:
        """D4.1 (a)-(d): who dies of the night's attempts. Pure: changes no state.

        Returns (deaths seat -> causes, protects fired, vests spent, heals carried out
        doctor -> target, necromancers who resurrect).
        """
        st = self.st
        alive, role = st.alive, st.role
        dies: dict[int, set[Cause]] = {}
        stoppable: dict[int, list[Cause]] = {}
        for x, lst in attempts.items():
            if role[x] is Role.KAMIKAZE:  # R13.3, P13.3: he and his attackers die, unsaved
                dies.setdefault(x, set()).add(Cause.KAMIKAZE)
                for a, kind in lst:
                    if kind not in BY_THE_DEAD:
                        dies.setdefault(a, set()).add(Cause.KAMIKAZE)
            elif x in ambush:  # R9.4, D9.2, P9.1: attempts fail, attackers die
                for a, kind in lst:
                    if kind in BY_THE_DEAD:
                        continue
                    dies.setdefault(a, set()).add(Cause.AMBUSH)
                    if role[a] is Role.KAMIKAZE:  # D13.2: he takes the maniac with him
                        dies.setdefault(x, set()).add(Cause.KAMIKAZE)
            else:
                stoppable[x] = [kind for _, kind in lst]
        # R10.6, D10.1: a beaten player shot at: the thug catches a stray bullet.
        stray = {g for v, g in beaten.items() if v in stoppable}
        shot_beaten = {v for v in beaten if v in stoppable}
        # D4.1 (a): the doctor heals if not beaten and not attacked at steps 4-5.
        heals: dict[int, int] = {}
        healed: set[int] = set()
        self_heal = self.rules.doctor_self_heal
        for d, req in acts.items():
            # P8.2: with doctor_self_heal, an attack on him does not stop his own heal.
            attacked = d in attempts and not (self_heal and isinstance(req, Heal)
                                              and req.target == d)
            if (isinstance(req, Heal) and alive[d] and d not in beaten and not attacked
                    and alive[req.target]):
                heals[d] = req.target
                healed.add(req.target)
        # D4.1 (b): heals apply, then the vest (P9.3); what is left would kill.
        pending: dict[int, list[Cause]] = {}
        vests: list[int] = []
        for x in sorted(set(stoppable) | stray):
            kinds = list(stoppable.get(x, ()))
            if x in stray:
                kinds.append(Cause.STRAY_BULLET)
            if x in dies:
                dies[x].update(kinds)
                continue
            plain = x not in shot_beaten and x not in stray  # P10.4: no heal, no vest
            if plain and x in healed and len(kinds) == 1 and kinds[0] in HEALABLE:
                continue  # R8.1, R8.5: the heal works first
            rest = kinds
            if plain and st.vest[x]:
                for i, k in enumerate(kinds):
                    if k is Cause.YAKUZA or k is Cause.TRIAD:  # R9.2, D9.1: one bullet
                        rest = kinds[:i] + kinds[i + 1:]
                        vests.append(x)
                        break
                if not rest:
                    continue
            pending[x] = kinds
        # D4.1 (c): the necromancer resurrects if not beaten and alive after (b).
        rising = {
            s for s in st.seats_by_role[Role.NECROMANCER]
            if alive[s] and s not in beaten and s not in dies and s not in pending
        }
        # D4.1 (d): protects apply (R12.3, D12.2): saved from any number of attempts.
        fired: list[int] = []
        for x in sorted(pending):
            if st.protect_by[x] in rising:
                fired.append(x)
            else:
                dies.setdefault(x, set()).update(pending[x])
        return dies, fired, vests, heals, rising

    def _resolve_night(
        self,
        acts: Mapping[int, Action],
        attempts: dict[int, list[tuple[int, Cause]]],
        beaten: dict[int, int],
        ambush: set[int],
        army: int,
        testament: list[int],
        rep: TurnReport,
    ) -> None:
        """Steps 5-6 settled in the order of D4.1, then the checks (e), then the deaths."""
        st = self.st
        alive, role = st.alive, st.role
        dies, fired, vests, heals, _ = self._fates(acts, attempts, beaten, ambush)
        if testament:
            # R11.4, D11.3: the earliest voter alive at step 5 who does not die anyway (at
            # steps 5-6, the check that meets the ambush included, R7.7).
            anyway = set(dies) | {
                c for c, a in acts.items()
                if isinstance(a, Check) and alive[c] and c not in beaten and a.target in ambush
            }
            victim = next((v for v in testament if alive[v] and v not in anyway), -1)
            if victim >= 0:
                attempts.setdefault(victim, []).append((-1, Cause.TESTAMENT))
                dies, fired, vests, heals, _ = self._fates(acts, attempts, beaten, ambush)
        # Apply what the fates decided.
        for d in st.seats_by_role[Role.DOCTOR]:
            st.last_heal[d] = heals.get(d, -1)  # R8.3, D8.1: only heals carried out count
        for x in fired:
            st.protect_by[x] = -1
            rep.protects_fired.append(x)
            if self.record:
                self.log.append(("protect_fired", st.turn, x))
        for x in vests:
            st.vest[x] = False
            rep.vest_spent = True
        # R11.3, D11.1, P11.1: a second peaceful kill that happened: harakiri.
        for x, lst in attempts.items():
            if x not in dies or Cause.NINJA not in dies[x] or role[x] not in PEACEFUL:
                continue
            for n, kind in lst:
                if kind is Cause.NINJA:
                    st.peaceful_kills[n] += 1
                    limit = self.rules.harakiri_at
                    if limit and st.peaceful_kills[n] >= limit and n not in dies:
                        dies[n] = {Cause.HARAKIRI}
        # D4.1 (e): the commissar checks if not beaten and alive after (d).
        late: dict[int, set[Cause]] = {}
        for c, a in acts.items():
            if not isinstance(a, Check) or not alive[c] or c in beaten or c in dies:
                continue
            t = a.target
            if not alive[t] or t in dies:
                continue  # P3.1: the target died tonight before the check
            if t in ambush:  # R7.7, P7.3: the check meets the ambush
                late[c] = {Cause.AMBUSH}
                rep.checks.append(CheckResult(c, t, None, -1, (c,), st.turn))
                continue
            seen = [c] + [  # P7.2: seeing a result is not an action, the beaten see it too
                s for s in st.seats_by_role[Role.SERGEANT]
                if s != c and alive[s] and s not in dies
            ]
            seen += [s for s in st.seats_by_role[Role.COMMISSAR]
                     if s != c and alive[s] and s not in dies]
            rep.checks.append(
                CheckResult(c, t, check_result(st, t), beaten.get(t, -1), tuple(seen), st.turn)
            )
            if self.record:
                self.log.append(("check", st.turn, c, t, check_result(st, t)))
        if army >= 0 and army not in dies:
            late[army] = {Cause.ARMY}  # P12.2: he dies once the night is settled
        for s in sorted(dies):
            self._kill(s, tuple(sorted(dies[s])), 5, rep)
        for s in sorted(late):
            if alive[s]:
                self._kill(s, tuple(sorted(late[s])), 6, rep)
        if dies or late:
            self._check_win(rep)

    # -- step 7 and the end of the turn -----------------------------------------------------
    def _step7(self, inp: TurnInput, rep: TurnReport, voted: set[int]) -> None:
        """Step 7: abstainers go missing (R16.2, D16.2, P16.1); passive players leave."""
        st = self.st
        limit = self.rules.abstention_limit
        gone = []
        for s in range(st.n):
            if not st.alive[s] or s in voted or s in st.beaten_today:  # D10.4: excused
                continue
            st.abstentions[s] += 1
            if limit and st.abstentions[s] >= limit:
                gone.append(s)
        for s in gone:
            self._kill(s, (Cause.MISSING,), 7, rep)
        passive = [s for s in sorted(inp.passive) if st.alive[s]]
        for s in passive:
            self._kill(s, (Cause.REMOVED,), 7, rep)
        if gone or passive:
            self._check_win(rep)

    def _end_of_turn(self, rep: TurnReport) -> None:
        """Step 8: the duel once the night is over (R17.4, P17.1), the sergeant's badge (R7.5)."""
        st = self.st
        result = duel_result(st, self.rng)
        if result is not None:
            self._finish(*result)
            raise GameOver
        # R7.5: with no living commissar, the sergeant takes the badge from the next turn.
        holders = [i for i in st.seats_by_role[Role.COMMISSAR] + st.seats_by_role[Role.SERGEANT]
                   if st.badge[i]]  # only these two roles ever hold it
        if holders and not any(st.alive[i] for i in holders):
            for s in st.seats_by_role[Role.SERGEANT]:
                if st.alive[s]:
                    st.badge[s] = True
                    if self.record:
                        self.log.append(("badge", st.turn, s))
                    break


def check_result(st: GameState, target: int) -> Shown:
    """What a check shows (R7.2, R7.3, D7.1): the clan of a member, his clan's son for a VSB."""
    return Shown.of(st.role[target], st.clan[target])


# compiled, these rebuild from their field values (sim.game.pickling)
picklable(Death, CheckResult, TurnReport)
