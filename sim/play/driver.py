"""The driver: plays games with agents. `Driver` holds what is fixed for a run (the
composition, the rules, the agent set); each game is a `Session`, which seats the agents,
asks each for its decisions and hands each request to the engine, which checks it
(sim.engine.legal) and files it or says which rule it breaks; what an illegal request then
means (raise, or skip and count it) is the driver's `on_illegal`.

Each agent's `start(view)` is called once when the game starts. Order of a day (turn >= 1):
the day's reads (sim.engine.info), attrition draws (D16.1), public statements in seat order, then
votes one at a time in a uniformly random order, each voter seeing the votes already cast;
then the night's requests (clan orders first, so that a thug named shooter knows it,
P10.2), then `Game.play_turn`. Only the methods an agent class overrides are asked.

Chance comes from a game's `GameStreams` (sim.play.streams): each agent draws from its own seat's
generator, the deal, the host's chance and the reads from theirs, and the host draws the same
shape every day (attrition and p_no_vote for every seat, a permutation of every seat for the
vote order), so a deviation by one seat does not shift anyone else's later draws.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

import numpy as np
from numpy.random import Generator

from agents.base import Agent, AgentSet, class_path
from sim.engine.game import Game
from sim.engine.info import InfoModel
from sim.engine.state import GameState
from sim.game.errors import MafiaSimError
from sim.game.messages import msg
from sim.game.requests import ClanOrder, TurnInput
from sim.game.roles import Clan, Role
from sim.game.rules import Composition, RuleSet
from sim.game.talk import Statement
from sim.play.streams import GameStreams, as_streams

#: Roles that have a night action of their own.
ACTING: Final = frozenset({Role.KAMIKAZE, Role.THUG, Role.MANIAC, Role.NINJA, Role.DOCTOR,
                           Role.NECROMANCER, Role.COMMISSAR, Role.SERGEANT})


#: the decisions the driver asks an agent for (agents.base.Agent)
DECISIONS: Final = ("start", "statements", "vote", "night", "defend", "respond",
                    "clan_order")


class _Asking(NamedTuple):
    """How the driver asks the agents of one class, worked out once per class."""

    #: the decision methods the class has its own of (the base class's do nothing and draw
    #: nothing, so the rest is never asked)
    own: frozenset[str]
    #: whether any decision method is plain Python (a user's agent, or every agent in the
    #: pure build). The driver asks those by name, as Python does: a direct call from
    #: compiled code would check the reply against the method's annotation first (mypyc),
    #: and turn a numpy integer vote or a tuple of statements, which the driver accepts,
    #: into a TypeError. Compiled agents' replies are typed already.
    python: bool


_ASKING: Final[dict[type[Agent], _Asking]] = {}


def _asking(cls: type[Agent]) -> _Asking:
    got = _ASKING.get(cls)
    if got is None:
        got = _ASKING[cls] = _Asking(
            frozenset(m for m in DECISIONS if getattr(cls, m) is not getattr(Agent, m)),
            any(inspect.isfunction(getattr(cls, m)) for m in DECISIONS))
    return got


class AgentError(MafiaSimError):
    """An agent raised or asked for something illegal (with on_illegal='raise')."""


@dataclass
class Driver:
    """Plays games of one composition, rule set and agent set: what is fixed for a run (and
    what an illegal request means, and who watches). Each game it plays is a `Session`."""

    comp: Composition
    rules: RuleSet
    agents: AgentSet
    on_illegal: str = "raise"  # or "skip": treat as no action and count it
    #: called as watch(game, agent, what, reply) with every decision an agent is asked for
    #: (`what`: start, statements, vote, defend, clan_order, night), once he has answered and
    #: before the answer is checked: a seam for tests and tracing (None: nobody watches)
    watch: Callable[[Game, Agent, str, object], None] | None = None

    def __post_init__(self) -> None:
        if self.on_illegal not in ("raise", "skip"):
            raise MafiaSimError(f"on_illegal must be raise or skip, not {self.on_illegal!r}")
        self.comp.validate(self.rules)
        #: illegal requests skipped (on_illegal="skip") over every game this driver played:
        #: the runner reads the difference a game makes
        self.skipped = 0
        #: the undealt table's state and information model, which each game's deal
        #: permutes (worked out on the first game)
        self._undealt: tuple[GameState, InfoModel] | None = None
        #: the game being played, or the last one played
        self.session: Session | None = None

    @property
    def seated(self) -> list[Agent]:
        """The agents of the game being played, or of the last one, by seat."""
        return [] if self.session is None else self.session.agents

    def play(self, rng: GameStreams | Generator, record: bool = False,
             dons: Mapping[Clan, int] | None = None, shuffle: bool = True) -> Game:
        """Play one game with the streams `rng` (`sim.play.streams.game_streams(seed, i)` for
        game i of a run; a plain Generator seeds fresh streams). The seats are dealt in a
        random order (`shuffle`, from the deal stream), as the host deals roles: no agent's
        tie-break may line up with the table's order."""
        streams = as_streams(rng)
        comp = self.comp
        if not shuffle:
            return self.finish(Game(comp, self.rules, streams.host, dons, record=record,
                                    validate=False), streams)
        if self._undealt is None:
            st = GameState(comp, self.rules)
            self._undealt = (st, self._info(st))
        undealt, info = self._undealt
        deal = streams.deal.permutation(comp.n)
        order: list[int] = deal.tolist()
        comp = Composition(tuple(comp.seats[i] for i in order), comp.names)
        game = Game(comp, self.rules, streams.host, dons, record=record, validate=False,
                    undealt=undealt, order=order)
        return Session(self, game, streams, InfoModel(game.st, undealt=info, order=deal)).play()

    def _info(self, st: GameState) -> InfoModel:
        return InfoModel(st, dict(self.agents.params), self.agents.uses_reads())

    def finish(self, game: Game, rng: GameStreams | Generator) -> Game:
        """Play an existing game to its end with the agents (fresh agents and reads); the
        game's own chance (Game.rng) becomes the streams' host stream."""
        return Session(self, game, as_streams(rng), self._info(game.st)).play()


class Session:
    """One game being played by a Driver: the game, its streams, its agents by seat and
    which decisions each is asked. Made for each game (`Driver.play`, `Driver.finish`);
    everything that lives one game lives here, and the Driver keeps only what is fixed for
    the run."""

    def __init__(self, driver: Driver, game: Game, streams: GameStreams,
                 info: InfoModel) -> None:
        self.driver = driver
        self.game = game
        self.streams = streams
        self.info = info
        game.rng = streams.host
        st = game.st
        # Each view holds its own copy of his reads (not a row of the model's matrix, whose
        # `.base` would lead to everybody's), copied in after each day's draws. The model
        # adds them in place, so its rows are taken once, as flat memoryviews (the fastest
        # copy of 20-30 floats); the views never see these.
        n, table = st.n, info.reads
        flat = table.data.cast("B").cast("d")
        #: each seat's own reads and the model's row they are copied from, after each day
        self.reads: list[tuple[memoryview[int], memoryview[float]]] = []
        for s, view in enumerate(game.views):
            view.reads = own = np.empty(n)
            mine, row = own.data, flat[s * n:(s + 1) * n]
            mine[:] = row
            self.reads.append((mine, row))
        #: the game's agents, by seat
        self.agents: list[Agent] = [driver.agents.make(st.role[s], s, st.clan[s])
                                    for s in range(st.n)]
        driver.session = self
        # Only what an agent class overrides is asked (the base class does nothing).
        asking = [_asking(type(a)) for a in self.agents]
        asked = [how.own for how in asking]
        #: whose decision methods are plain Python (asked by name: _Asking.python)
        self.python: list[bool] = [how.python for how in asking]
        #: who is asked for statements, in seat order
        self.talkers: list[int] = [s for s in range(st.n) if "statements" in asked[s]]
        #: whose vote is asked, and who is asked to defend himself while he leads (P5.5)
        self.votes_asked: list[bool] = ["vote" in own for own in asked]
        self.defends: list[bool] = ["defend" in own for own in asked]
        #: who is asked to answer the day's talk (P5.6), in seat order
        self.responders: list[int] = [s for s in range(st.n) if "respond" in asked[s]]
        #: who is asked to `start`, in seat order
        self.starters: list[int] = [s for s in range(st.n) if "start" in asked[s]]
        #: who is asked for a night action of his own, in seat order
        self.acting: list[int] = [s for s in range(st.n)
                                  if st.role[s] in ACTING and "night" in asked[s]]

    def play(self) -> Game:
        """Play the game to its end: each agent's `start`, then day and night until an
        outcome (D4.2)."""
        game, streams, info, agents = self.game, self.streams, self.info, self.agents
        st = game.st
        table, reads = info.reads, self.reads
        for s in self.starters:
            self._ask(agents[s], "start")
        rules = self.driver.rules
        while not game.over:
            inp = TurnInput()
            if st.turn > 0:
                info.day(streams.reads)
                if info.active:
                    assert info.reads is table
                    for mine, row in reads:
                        mine[:] = row
                self._attrition(inp, streams.host)
                self._talk(inp)
                self._votes(inp, rules.p_no_vote)
            # Every request was checked by the engine as it came in (cast_vote, send_order,
            # send_action), so the turn is not checked again (checked=True).
            if game.play_day(inp, checked=True).outcome is not None:
                continue  # the day ended the game (D4.2)
            self._night(inp)  # asked once the hanging is known (P3.1)
            game.play_night(inp.night, checked=True)
        return game

    # -- the day ----------------------------------------------------------------------------
    def _attrition(self, inp: TurnInput, rng: Generator) -> None:
        """D16.1: who posts nothing, breaks a rule or is removed for passive play (one draw
        per seat, living or not, so who is alive does not shift later draws)."""
        game = self.game
        r, st = self.driver.rules, game.st
        n = st.n
        if r.p_absent <= 0 and r.p_rule_break <= 0 and r.p_passive <= 0:
            game.open_day(inp)
            return  # no attrition under these rules (the default): no draws either
        living = [s for s in range(n) if st.alive[s] and s not in st.beaten_today]
        if r.p_absent > 0:
            u = rng.random(n)
            inp.absent = frozenset(s for s in living if u[s] < r.p_absent)
        if r.p_rule_break > 0:
            u = rng.random(n)
            inp.removed = frozenset(s for s in living if u[s] < r.p_rule_break)
        if r.p_passive > 0:
            u = rng.random(n)
            inp.passive = frozenset(s for s in living if u[s] < r.p_passive)
        game.open_day(inp)

    def _talk(self, inp: TurnInput) -> None:
        st, agents = self.game.st, self.agents
        for s in self.talkers:
            if not st.alive[s] or s in inp.absent or s in st.beaten_today:
                continue
            self._say(agents[s], "statements")
        self._respond(inp, -1)

    def _respond(self, inp: TurnInput, speaker: int) -> None:
        """P5.6: after the day's statements (`speaker` -1) or after the leader spoke while
        the vote runs, each player who answers talk may post, in seat order."""
        st, agents = self.game.st, self.agents
        for s in self.responders:
            if (s == speaker or not st.alive[s] or s in inp.absent
                    or s in st.beaten_today):
                continue
            self._say(agents[s], "respond")

    def _say(self, agent: Agent, what: str) -> bool:
        """Ask an agent what he says (`statements` before the vote, `defend` while he leads
        it, P5.5, `respond` in answer, P5.6) and post it. Whether he said anything."""
        game, s = self.game, agent.seat
        said = self._ask(agent, what) or ()
        if not isinstance(said, (list, tuple)):
            said = [said]
        for stmt in said:
            if not isinstance(stmt, Statement):
                self._illegal(agent, f"statement {stmt!r}",
                              ("R2.7", "a statement is a sim.game.talk.Statement"))
                continue
            if stmt.speaker != s:
                self._illegal(agent, f"statement as seat {stmt.speaker}",
                              ("R2.8", "a player speaks only for himself"))
                continue
            try:
                game.say(stmt)
            except MafiaSimError as e:
                self._illegal(agent, "statement", e)
        return bool(said)

    def _votes(self, inp: TurnInput, p_no_vote: float) -> None:
        game, agents, streams = self.game, self.agents, self.streams
        st = game.st
        tally = game.public.today_tally
        absent, beaten = inp.absent, st.beaten_today
        alive, n, asked = st.alive, st.n, self.votes_asked
        # The vote order: a permutation of every seat, of which the voters vote (the host
        # draws the same shape whoever is alive). D16.1 p_no_vote: who does not vote today
        # (R16.2), one draw per seat.
        host = streams.host
        order: list[int] = host.permutation(n).tolist()
        forgets: list[bool] | None = ((host.random(n) < p_no_vote).tolist() if p_no_vote > 0
                                      else None)
        leader, spoke = -1, set[int]()
        for v in order:
            if not alive[v] or v in absent or v in beaten:
                continue
            if (forgets is not None and forgets[v]) or not asked[v]:
                continue
            reply = self._ask(agents[v], "vote")
            if reply is None:
                continue
            if type(reply) is not int:  # a plain int is the common reply: checked at once
                if not isinstance(reply, (int, np.integer)) or isinstance(reply, bool):
                    self._illegal(agents[v], f"vote {reply!r}",
                                  ("R5.1", "a vote is a seat number, or -1 to abstain"))
                    continue
                reply = int(reply)
            target: int = reply
            if target < 0:
                continue
            fault = game.cast_vote(inp, v, target)  # checked and counted by the engine
            if fault is not None:
                self._illegal(agents[v], f"vote against seat {target}", fault)
                continue
            if target != leader and tally[target] > tally.get(leader, 0):
                leader = target  # R5.2: the first to reach the highest count leads
            if (leader == target and self.defends[leader] and leader not in spoke
                    and leader not in absent and leader not in beaten):  # R5.5, R16.1
                # The leader may answer as the votes against him grow (P5.5).
                if self._say(agents[leader], "defend"):
                    spoke.add(leader)
                    self._respond(inp, leader)

    # -- the night --------------------------------------------------------------------------
    def _night(self, inp: TurnInput) -> None:
        game, agents = self.game, self.agents
        st = game.st
        night = inp.night
        night.after_day = True
        absent = inp.absent
        if st.turn > 0:
            for clan in (Clan.YAKUZA, Clan.TRIAD):
                living = [m for m in st.members[clan] if st.alive[m]]
                if not living:
                    continue
                don = st.don[clan]
                sender = don if don >= 0 else living[0]
                order = self._ask(agents[sender], "clan_order")
                if order is None:
                    continue
                if not isinstance(order, ClanOrder):
                    self._illegal(agents[sender], repr(order), ("R14.1", "not an order"))
                    continue
                if order.clan is not clan:
                    self._illegal(agents[sender], order.text(st.names),
                                  ("R14.1", f"an order for another clan than the {clan.key}"))
                    continue
                if order.by < 0:
                    order = ClanOrder(order.clan, order.target, order.shooter, sender)
                fault = game.send_order(night, order, absent)  # the clan learns it (R2.7)
                if fault is not None:
                    self._illegal(agents[sender], order.text(st.names), fault)
        shooters = {o.shooter for o in night.orders.values()}
        for s in self.acting:
            if not st.alive[s] or s in absent:
                continue
            if st.turn == 0 and st.role[s] is not Role.MANIAC:
                continue  # R3.1: only the maniac acts on turn 0
            action = self._ask(agents[s], "night")
            if action is None:
                continue
            try:
                fault = game.send_action(night, s, action, absent, shooters)
            except (TypeError, AttributeError):
                fault = ("R1", msg("not a request: {action!r}", action=action))
            if fault is not None:
                text = action.text(st.names) if hasattr(action, "text") else repr(action)
                self._illegal(agents[s], text, fault)

    # -- misbehaving agents -----------------------------------------------------------------
    def _ask(self, agent: Agent, what: str) -> Any:
        """Ask `agent` for `what`, with its own seat's generator."""
        game, driver = self.game, self.driver
        view = game.views[agent.seat]
        reply: Any
        try:
            if what == "start":
                if self.python[agent.seat]:  # see _Asking.python
                    getattr(agent, what)(view)
                else:
                    agent.start(view)
                reply = None
            else:
                rng = self.streams.seat(agent.seat)
                if self.python[agent.seat]:
                    reply = getattr(agent, what)(view, rng)
                # a compiled agent is called by name: compiled code then calls its method
                # directly, not through an attribute lookup
                elif what == "vote":
                    reply = agent.vote(view, rng)
                elif what == "statements":
                    reply = agent.statements(view, rng)
                elif what == "night":
                    reply = agent.night(view, rng)
                elif what == "clan_order":
                    reply = agent.clan_order(view, rng)
                elif what == "defend":
                    reply = agent.defend(view, rng)
                elif what == "respond":
                    reply = agent.respond(view, rng)
                else:
                    reply = getattr(agent, what)(view, rng)
        except AgentError:
            raise
        except Exception as e:  # a user's agent failing is reported, not a crash
            self._illegal(agent, what, ("agent", f"raised {type(e).__name__}: {e}"))
            return None
        if driver.watch is not None:
            driver.watch(game, agent, what, reply)
        return reply

    def _illegal(self, agent: Agent, request: object,
                 fault: tuple[str, object] | Exception) -> None:
        driver = self.driver
        if driver.on_illegal == "skip":
            driver.skipped += 1
            return
        st = self.game.st
        why = str(fault) if isinstance(fault, Exception) else f"{fault[1]} [{fault[0]}]"
        raise AgentError(
            f"agent {class_path(type(agent))} playing {st.label(agent.seat)} "
            f"on turn {st.turn}: {request}: {why}"
        )
