"""An agent sees only its view (issue 10, point 6).

A spy agent, plugged in for a role while the heuristic agents play the rest (so that the
shared public record and its cache are filled as in a real run), tries the obvious ways
into the host's knowledge at every decision it is asked for, and finds nothing:

- it walks everything reachable from its view, and from the generator it is given, with
  `gc.get_referents` (and an array's `.base`, which gc does not report). The walk visits
  instances only: it does not enter modules, classes, functions, methods or code objects,
  since through a function's `__globals__` any module, and so any live object, can be
  reached; what the view's own class and module hold is checked separately
  (`test_the_view_class_and_module_hold_no_game`);
- it reads every slot of its view (a view has no `__dict__`: nothing else is stored).

Nothing it reaches is the game state, the game, the engine's reports or inputs, the
information model, the driver, an agent, or another player's view.

The legal lists, now worked out from the view's own data, are checked against sim.engine.legal
(worked out from the state) at every decision of random agents on several tables.

What this does not cover: an agent runs in the host's process, so the interpreter itself
reaches everything (`gc.get_objects()`, `gc.get_referrers(view)`, the caller's frame
through `sys._getframe(1)`); only running agents in another process would shut those.
The view holds no route; the process is not a sandbox.
"""

from __future__ import annotations

import gc
import sys
import types
import weakref
from typing import Any, ClassVar

import numpy as np
import pytest

from agents.base import Agent, AgentSet
from agents.registry import resolve_agent_set
from sim.engine.game import Game
from sim.engine.info import InfoModel
from sim.engine.legal import army_fault, legal_actions, legal_orders, vote_fault
from sim.engine.report import TurnReport
from sim.engine.state import GameState
from sim.engine.view import PlayerView, PublicRecord
from sim.game.requests import NightRequests, TurnInput
from sim.game.roles import Cause, Clan, Role
from sim.game.rules import Composition, RuleSet
from sim.play.driver import Driver

HERE = "tests.test_view_isolation"

#: What no view may lead to.
FORBIDDEN = (GameState, Game, TurnReport, TurnInput, NightRequests, InfoModel, Driver, Agent)

#: Not entered by the walk (see the module docstring).
NOT_ENTERED = (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType,
               types.MethodType, types.CodeType, types.FrameType,
               types.MethodWrapperType, types.WrapperDescriptorType)


def reachable(*roots: object) -> list[object]:
    """Every object reachable from `roots` through instances (gc referents, array bases)."""
    seen: dict[int, object] = {}
    stack = list(roots)
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen[id(obj)] = obj
        if isinstance(obj, NOT_ENTERED):
            continue
        stack.extend(gc.get_referents(obj))
        if isinstance(obj, np.ndarray) and obj.base is not None:
            stack.append(obj.base)
    return list(seen.values())


def leaks(view: PlayerView, *more: object) -> list[str]:
    """What the view (and `more`) lead to that it must not."""
    found = []
    for obj in reachable(view, *more):
        if isinstance(obj, FORBIDDEN):
            found.append(type(obj).__name__)
        elif isinstance(obj, PlayerView) and obj is not view:
            found.append(f"the view of seat {obj.seat}")
    return found


#: every attribute a view has: its __slots__ (pure build), or what mypyc lists for the
#: compiled class, which keeps no __slots__ (compiled build)
VIEW_FIELDS: tuple[str, ...] = tuple(
    name for name in (getattr(PlayerView, "__slots__", None)
                      or getattr(PlayerView, "__mypyc_attrs__", ()))
    if name != "__dict__")


class Spy(Agent):
    """Plays nothing; at each decision it looks for a way into hidden information."""

    findings: ClassVar[list[str]] = []
    looked: ClassVar[int] = 0

    def _look(self, view: PlayerView, rng: Any = None) -> None:
        cls = type(self)
        cls.looked += 1
        assert not hasattr(view, "__dict__"), "a view with a __dict__"
        for name in VIEW_FIELDS:
            value = getattr(view, name)
            if isinstance(value, (*FORBIDDEN, PlayerView)):
                cls.findings.append(f"slot {name}: {type(value).__name__}")
        cls.findings += leaks(view, *(() if rng is None else (rng,)))

    def start(self, view: PlayerView) -> None:
        self._look(view)

    def statements(self, view: PlayerView, rng: Any) -> list[Any]:
        self._look(view, rng)
        return []

    def vote(self, view: PlayerView, rng: Any) -> int:
        self._look(view, rng)
        return -1

    def clan_order(self, view: PlayerView, rng: Any) -> None:
        self._look(view, rng)

    def night(self, view: PlayerView, rng: Any) -> None:
        self._look(view, rng)


def spied(roles: list[str]) -> AgentSet:
    # the spy is loaded by its import path, as a user's agent would be
    return resolve_agent_set("heuristic", {r: f"{HERE}:Spy" for r in roles})


@pytest.mark.parametrize(("comp", "rules"), [
    pytest.param(Composition.standard(25), RuleSet(), id="standard25"),
    pytest.param(Composition.standard(16), RuleSet(reveal_night_roles=True), id="revealed"),
])
def test_a_spy_finds_no_way_to_the_host(comp: Composition, rules: RuleSet) -> None:
    roles = ["civilian", "vsb", "mafioso", "thug", "necromancer", "commissar", "maniac"]
    driver = Driver(comp, rules, spied(roles))
    spy = sys.modules[HERE].Spy  # the class as loaded by the agent set
    spy.findings, spy.looked = [], 0
    for seed in range(3):
        driver.play(np.random.default_rng(seed))
    assert spy.looked > 50
    assert not spy.findings, sorted(set(spy.findings))


def test_the_walk_would_find_the_old_way_in() -> None:
    """The walk is not blind: a state, another view or the model's matrix held by a view
    (as the view's `_st` and a row of the reads matrix once were) is found."""
    game = Game(Composition.standard(12), RuleSet(), np.random.default_rng(0))
    view = game.view(0)
    assert leaks(view) == []
    stash: list[object] = view.inbox  # type: ignore[assignment]  # any object a view holds
    stash[:] = [game.st]
    assert leaks(view) == ["GameState"]
    stash[:] = [[game.view(1)]]
    assert leaks(view) == ["the view of seat 1"]
    info = InfoModel(game.st)
    stash[:] = [info.reads[0]]  # a row: its base is everybody's reads
    assert leaks(view) == [] and any(o is info.reads for o in reachable(view))
    stash[:] = [info]
    assert leaks(view) == ["InfoModel"]


def _weak_routes(view: PlayerView) -> list[object]:
    """What the weak references to the view's objects lead to through their callbacks
    (`weakref.getweakrefs(x)[0].__callback__`: its closure cells and default arguments)."""
    out: list[object] = []
    for obj in reachable(view):
        try:
            refs = weakref.getweakrefs(obj)
        except TypeError:
            continue
        for ref in refs:
            cb = getattr(ref, "__callback__", None)
            if cb is None:
                continue
            for x in (*(c.cell_contents for c in cb.__closure__ or ()), *(cb.__defaults__ or ())):
                out.append(x() if isinstance(x, weakref.ref) else x)
    return out


def test_weak_references_lead_nowhere() -> None:
    """The weak references to what a view holds (the agents' registries) lead to nothing
    private either."""
    comp = Composition.standard(25)
    driver = Driver(comp, RuleSet(), resolve_agent_set("heuristic"))
    game = driver.play(np.random.default_rng(0))
    for s in range(comp.n):
        view = game.view(s)
        found = [type(o).__name__ for o in reachable(*_weak_routes(view))
                 if isinstance(o, (*FORBIDDEN, PlayerView)) or type(o).__name__ == "TownTable"]
        assert not found, (s, sorted(set(found)))


def test_the_view_class_and_module_hold_no_game() -> None:
    """The walk does not enter classes and modules; they hold no game of their own."""
    game = Game(Composition.standard(12), RuleSet(), np.random.default_rng(0))
    view = game.view(3)
    places = [vars(sys.modules[type(view).__module__]), vars(type(view)),
              vars(type(view.public))]
    for place in places:
        for value in place.values():
            if isinstance(value, (dict, list, tuple, set)):
                values = list(value.values() if isinstance(value, dict) else value)
            else:
                values = [value]
            for v in values:
                assert not isinstance(v, (*FORBIDDEN, PlayerView, PublicRecord)), v
    assert "_st" not in VIEW_FIELDS
    assert {"public", "seat", "reads", "order", "checks"} <= set(VIEW_FIELDS)


def test_a_vsb_is_told_civilian_and_nothing_shows_his_clan() -> None:
    """R2.3: the VSB's view is a civilian's, field by field: nothing in it names his clan."""
    comp = Composition.standard(25)
    for seed in range(3):
        game = Game(comp, RuleSet(), np.random.default_rng(seed))
        st = game.st
        vsbs = st.seats_by_role[Role.VSB]
        civ = game.view(st.seats_by_role[Role.CIVILIAN][0])
        assert vsbs
        for v in vsbs:
            view = game.view(v)
            assert view.role is Role.CIVILIAN and view.clan is Clan.NONE
            assert view.allies == {} and view.don == -1 and view.order is None
            assert view.legal_orders() == [] and view.legal_actions() == []
            for name in VIEW_FIELDS:
                if name in ("seat", "reads"):
                    continue
                assert getattr(view, name) == getattr(civ, name), name
            # nothing he reaches, the public record aside, is his clan or names it
            mine = [o for name in VIEW_FIELDS if name != "public"
                    for o in reachable(getattr(view, name))]
            assert not [o for o in mine if isinstance(o, Clan) and o is not Clan.NONE]
            assert not [o for o in mine if isinstance(o, str)
                        and ("yakuza" in o.lower() or "triad" in o.lower())]
            # neither is the clan among the seats he knows anything of
            assert all(m not in view.allies for m in st.members[st.clan[v]])


# -- the legal lists, from the view, against sim.engine.legal, from the state --------------------------
TABLES = [
    pytest.param(Composition.standard(12), RuleSet(), id="standard12"),
    pytest.param(Composition.standard(25), RuleSet(), id="standard25"),
    pytest.param(Composition.from_counts(civilian=3, commissar=1, necromancer=2, doctor=1,
                                         yakuza=2, yakuza_vsb=1, triad=1, thug=1,
                                         triad_vsb=1),
                 RuleSet(army_min_living=2, allow_duplicate_roles=True), id="two-necromancers"),
    pytest.param(Composition.standard(16),
                 RuleSet(doctor_self_heal=True, doctor_repeat_heal=True,
                         reveal_night_roles=True, maniac_ambush=False, necromancer_protects=1,
                         army_min_living=2, p_absent=0.1), id="variant-rules"),
]


def _host_lists(game: Game, seat: int, what: str) -> object:
    """What the host's state says (the old view's computation)."""
    st, pub = game.st, game.public
    if what == "vote":
        voted = {v for v, _ in pub.today}
        return [t for t in range(st.n) if vote_fault(st, seat, t, pub.absent, voted) is None]
    if what == "night":
        order = game.views[seat].order
        return legal_actions(st, seat, pub.absent, (-1 if order is None else order.shooter,))
    clan = st.clan[seat]
    orders = legal_orders(st, clan, pub.absent)
    if st.don[clan] == seat:
        return [o for o in orders if o.by < 0]
    return [o for o in orders if o.by == seat]


@pytest.mark.parametrize(("comp", "rules"), TABLES)
def test_legal_lists_from_the_view_are_the_hosts(comp: Composition, rules: RuleSet) -> None:
    asked: dict[str, int] = {"vote": 0, "night": 0, "clan_order": 0, "army": 0}

    def watch(game: Game, agent: Agent, what: str, reply: Any) -> None:
        # the driver's seam: called once the agent has answered, before his answer is
        # checked or played, so the view and the state are those he was asked in
        seat = agent.seat
        view = game.views[seat]
        if what in ("vote", "night", "clan_order"):
            mine = {"vote": view.legal_votes, "night": view.legal_actions,
                    "clan_order": view.legal_orders}[what]()
            assert mine == _host_lists(game, seat, what), (what, game.st.label(seat))
            asked[what] += 1
        if what == "night" and game.st.role[seat] is Role.NECROMANCER:
            st = game.st
            assert view.can_raise_army() == (army_fault(st, seat) is None)
            asked["army"] += view.can_raise_army()

    driver = Driver(comp, rules, resolve_agent_set("random"), watch=watch)
    for seed in range(40):
        driver.play(np.random.default_rng(seed))
    assert asked["vote"] and asked["night"] and asked["clan_order"], asked


def test_the_army_answer_is_given_at_night_only() -> None:
    """P12.7: the host answers the necromancer when he takes the night's requests."""
    comp = Composition.standard(25)
    game = Game(comp, RuleSet(), np.random.default_rng(1))
    st = game.st
    necro = st.seats_by_role[Role.NECROMANCER][0]
    view = game.view(necro)
    game.play_turn(TurnInput())  # turn 0
    for h in st.heroes:  # every hero dead at the hands of the mafia: the Army may rise
        game._kill(h, (Cause.YAKUZA,), 5, TurnReport(st.turn))
    assert army_fault(st, necro) is None
    assert not view.can_raise_army()  # the day: he has not asked
    game.play_day(TurnInput())
    assert view.can_raise_army()  # the night's requests are taken: the host answers
    assert view.army
    game.play_night(NightRequests())
    assert not view.can_raise_army()  # a new day
