"""Common random numbers that survive a deviation (sim/play/streams.py): each seat's agent, the
deal, the host's chance and the reads draw from their own streams, and the host draws the
same shape every day, so a deviation confined to one seat's agent leaves everyone else's
draws where they were until it changes what they see."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.base import Agent, AgentSet
from agents.registry import resolve_agent_set
from sim.game.roles import Role
from sim.game.rules import Composition, RuleSet
from sim.play.driver import Driver
from sim.play.streams import game_streams, seed_words

HEURISTIC = resolve_agent_set("heuristic")
MANIAC: type[Agent] = HEURISTIC.classes[Role.MANIAC]
#: chance everywhere: attrition, p_no_vote and the host's vote rejections (D16.1, D5.2)
CHANCY = RuleSet(p_absent=0.05, p_rule_break=0.01, p_passive=0.01, p_no_vote=0.1,
                 vote_rejection=0.1)


class SteadyManiac(Agent):
    """The heuristic maniac, deciding with a generator of its own (the same decisions
    whatever its seat stream holds). It wraps the heuristic maniac rather than subclassing
    it: in the compiled build only the base Agent is open to interpreted subclasses."""

    PARAMS = MANIAC.PARAMS

    def __init__(self, seat: int, params: Any = None) -> None:
        super().__init__(seat, params)
        self.inner = MANIAC(seat, params)

    def start(self, view: Any) -> None:
        self._mine = np.random.default_rng(self.seat)

    def vote(self, view: Any, rng: np.random.Generator) -> int:
        return int(self.inner.vote(view, self._mine))

    def night(self, view: Any, rng: np.random.Generator) -> Any:
        return self.inner.night(view, self._mine)


class BurningManiac(SteadyManiac):
    """Plays exactly as SteadyManiac but draws (and throws away) from its seat stream."""

    burned = 0

    def vote(self, view: Any, rng: np.random.Generator) -> int:
        rng.standard_normal(100)
        BurningManiac.burned += 1
        return super().vote(view, rng)

    def night(self, view: Any, rng: np.random.Generator) -> Any:
        rng.random(37)
        BurningManiac.burned += 1
        return super().night(view, rng)


class IdleManiac(Agent):
    """The heuristic maniac (wrapped, as SteadyManiac), except that he kills nobody on
    turn 0."""

    PARAMS = MANIAC.PARAMS

    def __init__(self, seat: int, params: Any = None) -> None:
        super().__init__(seat, params)
        self.inner = MANIAC(seat, params)

    def vote(self, view: Any, rng: np.random.Generator) -> int:
        return int(self.inner.vote(view, rng))

    def night(self, view: Any, rng: np.random.Generator) -> Any:
        if view.public.turn == 0:
            return None
        return self.inner.night(view, rng)


def _with_maniac(cls: type[Agent]) -> AgentSet:
    return AgentSet("heuristic", {**HEURISTIC.classes, Role.MANIAC: cls}, {})


def test_draws_confined_to_one_seat_change_no_other_draw() -> None:
    """A seat that draws more from its own stream, deciding the same, changes nothing in
    the game: nobody else's draws moved (with one generator a game, everything would)."""
    comp = Composition.standard(25)
    BurningManiac.burned = 0
    differ = 0
    for i in range(12):
        a = Driver(comp, CHANCY, _with_maniac(SteadyManiac)).play(game_streams(5, i), True)
        b = Driver(comp, CHANCY, _with_maniac(BurningManiac)).play(game_streams(5, i), True)
        assert a.log == b.log, f"game {i}"
        assert a.outcome == b.outcome
        differ += a.log != Driver(comp, CHANCY, _with_maniac(SteadyManiac)).play(
            game_streams(6, i), True).log
    assert BurningManiac.burned > 20  # the deviant did draw
    assert differ == 12  # and the logs compared are not all alike anyway


def _tracer(seen: dict[str, list[Any]]) -> Any:
    """A watch for the driver (Driver.watch) recording, for each day, the state of the
    host stream and every player's reads at the day's first vote (before it, the host and
    the reads draw the same shape every day: attrition, the vote order, p_no_vote; so these
    move only if the day starts elsewhere), and every vote cast."""
    days: set[int] = set()

    def watch(game: Any, agent: Agent, what: str, reply: Any) -> None:
        if what != "vote":
            return
        turn = game.st.turn
        if turn not in days:
            days.add(turn)
            seen["host"].append((turn, game.rng.bit_generator.state["state"]))
            seen["reads"].append(np.array([v.reads for v in game.views]))
        seen["voters"].append((turn, agent.seat))

    return watch


def test_a_changed_night_keeps_the_reads_and_the_host_draws() -> None:
    """The maniac kills nobody on turn 0 in arm B: day 1 then has another living player,
    yet the reads, the vote order and the host's draws of every later day stay the same."""
    comp = Composition.standard(25)
    games_differ = days_compared = 0
    for i in range(10):
        arms = []
        for cls in (MANIAC, IdleManiac):
            seen: dict[str, list[Any]] = {"reads": [], "host": [], "voters": []}
            driver = Driver(comp, CHANCY, _with_maniac(cls), watch=_tracer(seen))
            game = driver.play(game_streams(9, i), True)
            arms.append((game, seen))
        (ga, a), (gb, b) = arms
        games_differ += ga.log != gb.log
        days = min(len(a["host"]), len(b["host"]))
        days_compared += days
        assert a["host"][:days] == b["host"][:days], f"game {i}: the host's draws moved"
        for d in range(days):
            assert np.array_equal(a["reads"][d], b["reads"][d]), f"game {i} day {d + 1}"
        # day 1's vote order: whoever votes in both arms votes in the same order
        va = [s for t, s in a["voters"] if t == 1]
        vb = [s for t, s in b["voters"] if t == 1]
        both = set(va) & set(vb)
        assert [s for s in va if s in both] == [s for s in vb if s in both]
        assert len(both) >= 15
    assert games_differ == 10  # the deviation did change every game
    assert days_compared >= 30


def test_streams_are_separate_and_reproducible() -> None:
    s, t = game_streams(3, 7, 25), game_streams(3, 7, 4)  # the size is only a hint
    draws = [s.host.random(), s.deal.random(), s.reads.random(),
             *(s.seat(k).random() for k in range(30))]
    assert draws == [t.host.random(), t.deal.random(), t.reads.random(),
                     *(t.seat(k).random() for k in range(30))]
    assert len(set(draws)) == len(draws)
    u = game_streams(3, 8)
    assert u.seat(0).random() != game_streams(3, 7).seat(0).random()
    assert game_streams(4, 7).host.random() != game_streams(3, 7).host.random()


@settings(max_examples=300, deadline=None)
@given(seed=st.one_of(st.integers(0, 2**32), st.integers(0, 2**200)),
       game=st.one_of(st.integers(0, 2**20), st.integers(0, 2**70)),
       n_words=st.integers(1, 140))
def test_seed_words_are_numpys_seed_sequence_words(seed: int, game: int, n_words: int) -> None:
    """The words each stream is seeded with are, word for word, numpy's
    `SeedSequence(seed, spawn_key=(game,)).generate_state(n_words, np.uint64)` (the module
    docstring's promise), for seeds and game numbers of one word or many."""
    want = np.random.SeedSequence(seed, spawn_key=(game,)).generate_state(n_words, np.uint64)
    got = seed_words(seed, game, n_words)
    assert got.dtype == np.uint64 and got.tolist() == want.tolist()


def test_a_games_generators_are_those_numpy_seeds_from_its_words() -> None:
    """Stream k of game i is `PCG64` seeded with words 4k..4k+3 of the game's SeedSequence:
    the same draws as numpy's own seeding from those words gives."""
    words = np.random.SeedSequence(11, spawn_key=(3,)).generate_state(4 * 29, np.uint64)
    streams = game_streams(11, 3)

    class Given(np.random.bit_generator.ISeedSequence):
        def __init__(self, w: np.ndarray) -> None:
            self.w = w

        def generate_state(self, n_words: int, dtype: Any = np.uint32) -> np.ndarray:
            return self.w

    for k, g in ((1, streams.deal), (2, streams.reads), (3 + 7, streams.seat(7))):
        own = np.random.Generator(np.random.PCG64(Given(words[4 * k:4 * k + 4])))
        assert g.random(5).tolist() == own.random(5).tolist()


def test_a_negative_seed_is_refused_as_numpy_refuses_it() -> None:
    with pytest.raises(ValueError, match="non-negative"):
        seed_words(-1, 0, 4)
