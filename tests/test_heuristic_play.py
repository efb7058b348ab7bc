"""The default agents use what they hear: an opened commissar's claim turns the vote, and a
failing game names its index and seed."""

from __future__ import annotations

import gc
import itertools
from collections import Counter
from typing import ClassVar

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from agents.base import Agent
from agents.heuristic import CommissarAgent, TownAgent
from agents.registry import resolve_agent_set
from sim.engine.game import Game
from sim.engine.info import InfoModel
from sim.game.requests import NightRequests, TurnInput
from sim.game.roles import Camp, Role, Shown
from sim.game.rules import Composition, RuleSet
from sim.game.talk import CLAIM, Statement
from sim.play.driver import Driver
from sim.play.runner import GameFailed, play_batch
from sim.play.setup import build_setup


def day_votes(claim: bool, seed: int) -> tuple[Counter[int], int]:
    """Day 2 of a standard table with no reads at all (skill 0): the commissar, having
    checked a Yakuza member on the night of turn 1 (his first check, R3.1, R6.2), opens up
    (or stays silent); then Town votes. (On day 1 no check exists yet, and Town believes
    none announced then: `town.too_soon`.)"""
    comp = Composition.standard(25)
    game = Game(comp, RuleSet(), np.random.default_rng(seed))
    st = game.st
    for _ in range(2):  # turns 0 and 1 pass with no vote and no night act
        game.play_day(TurnInput())
        game.play_night(NightRequests())
    assert st.turn == 2
    info = InfoModel(st, {"town_skill": 0.0, "mafia_skill": 0.0, "maniac_skill": 0.0})
    for s, view in enumerate(game.views):
        view.reads = info.reads[s]
    commissar = st.seats_by_role[Role.COMMISSAR][0]
    mafioso = next(s for s in st.members[1] if st.alive[s])
    if claim:
        game.say(Statement(st.turn, commissar, "claim", value="commissar"))
        game.say(Statement(st.turn, commissar, "check", mafioso, "yakuza"))
    rng = np.random.default_rng(seed)
    votes: Counter[int] = Counter()
    pub = game.public
    for s in rng.permutation(st.n).tolist():
        if not st.alive[s] or st.camp[s] is not Camp.TOWN or s == commissar:
            continue
        agent = TownAgent(s)
        t = agent.vote(game.views[s], rng)
        if t >= 0:
            votes[t] += 1
            pub.today.append((s, t))
            pub.today_tally[t] = pub.today_tally.get(t, 0) + 1
    return votes, mafioso


def test_opened_commissars_claim_turns_the_vote() -> None:
    """With no reads, Town's votes scatter; once the commissar opens up and names a Yakuza
    member, most of Town votes for him (the claim's trust rule)."""
    for seed in range(5):
        silent, target = day_votes(False, seed)
        loud, target2 = day_votes(True, seed)
        assert target == target2
        assert loud[target] > sum(loud.values()) / 2
        assert silent[target] < loud[target]


def test_commissar_opens_up_on_finding_an_enemy() -> None:
    comp = Composition.standard(25)
    game = Game(comp, RuleSet(), np.random.default_rng(1))
    st = game.st
    c = st.seats_by_role[Role.COMMISSAR][0]
    agent = CommissarAgent(c)
    view = game.view(c)
    assert agent.statements(view, np.random.default_rng(0)) == []
    from sim.engine.report import CheckResult

    mafioso = st.members[2][0]
    view.checks.append(CheckResult(c, mafioso, Shown.TRIAD, -1, (c,), 1))
    said = agent.statements(view, np.random.default_rng(0))
    assert any(s.kind == "claim" and s.value == "commissar" for s in said)
    assert any(s.kind == "check" and s.target == mafioso and s.value == "triad" for s in said)


class FailsToVote(Agent):
    def vote(self, view, rng):  # type: ignore[no-untyped-def]
        raise RuntimeError("boom")


def test_a_failing_game_names_its_index_and_seed() -> None:
    setup = build_setup(None, players=14)
    setup.agents = resolve_agent_set("heuristic",
                                     {"civilian": "tests.test_heuristic_play:FailsToVote"})
    with pytest.raises(GameFailed) as err:
        play_batch(setup, 9, 5, 12)
    import re

    m = re.search(r"game (\d+) of the run with seed 9 .*--seed 9 --game (\d+)", str(err.value))
    assert m and m.group(1) == m.group(2) and 5 <= int(m.group(1)) < 12


def test_default_agents_use_the_rule_options() -> None:
    """The maniac takes his ambush in some games (R9.3) and never when the option is off;
    the doctor repeats heals far more where the rule set allows it (R8.3)."""
    from sim.play.driver import Driver

    def play(rules: RuleSet, games: int = 150) -> list[Game]:
        d = Driver(Composition.standard(25), rules, resolve_agent_set("heuristic"))
        return [d.play(np.random.default_rng(i), record=True) for i in range(games)]

    def ambushes(games: list[Game]) -> int:
        return sum(any(g.st.ambush_used) for g in games)

    assert ambushes(play(RuleSet())) > 0
    assert ambushes(play(RuleSet(maniac_ambush=False))) == 0

    def repeats(games: list[Game]) -> int:
        n = 0
        for g in games:
            heals = [(e[1], e[3].target) for e in g.log
                     if e[0] == "request" and type(e[3]).__name__ == "Heal"]
            n += sum(1 for a, b in itertools.pairwise(heals)
                     if b[0] == a[0] + 1 and b[1] == a[1])
        return n

    # By default a repeat is legal only after a heal that was not carried out (D8.1).
    assert repeats(play(RuleSet(doctor_repeat_heal=True), 60)) > 3 * repeats(play(RuleSet(), 60))


@pytest.mark.parametrize("agents", ["heuristic", "uniform", "random"])
def test_a_finished_game_is_freed_without_the_garbage_collector(agents: str) -> None:
    """No reference cycles in a game: once played, it is freed at once. (A cycle from the
    public record to the views once made every game wait for the collector: 6% slower.)"""
    s = build_setup(None, players=25, agents=agents)
    driver = Driver(s.comp, s.rules, s.agents)
    driver.play(np.random.default_rng(0))
    gc.collect()
    gc.disable()
    try:
        for seed in range(5):
            driver.play(np.random.default_rng(seed))
        unreachable = gc.collect()
    finally:
        gc.enable()
    assert unreachable == 0


def test_town_minds_are_out_of_the_public_records_reach() -> None:
    """The Town table holds each Town player's reads and the commissar's checks (private,
    R2.5, R7.4): nothing in the public record refers to it."""
    from agents.town import TownTable, _tables_of

    s = build_setup(None, players=25, agents="heuristic")
    game = Driver(s.comp, s.rules, s.agents).play(np.random.default_rng(3))
    tables = _tables_of(game.public)
    assert tables and all(isinstance(t, TownTable) for t in tables.values())
    assert not any(isinstance(v, TownTable) for v in game.public.cache.values())
    assert not any(isinstance(r, TownTable) for r in gc.get_referents(game.public))


@given(st.lists(st.integers(0, 9), max_size=40))
def test_R5_2_the_day_leader_the_clans_and_maniac_follow_is_the_first_to_reach_the_top(
        targets: list[int]) -> None:
    """R5.2: among players tied on most votes, the one who reached that count first is
    hanged; `day_leader` (what the clans' and the maniac's vote follows) names him, not
    the lowest seat; -1 with no votes."""
    from agents.common import day_leader
    from sim.engine.view import PublicRecord

    pub = PublicRecord(tuple(f"P{k}" for k in range(10)))
    pub.today = [(k % 10, t) for k, t in enumerate(targets)]
    if not targets:
        assert day_leader(pub) == -1
        return
    top = max(targets.count(t) for t in set(targets))
    reached = {t: next(k for k in range(len(targets)) if targets[:k + 1].count(t) == top)
               for t in set(targets) if targets.count(t) == top}
    assert day_leader(pub) == min(reached, key=reached.__getitem__)


class _Listener(TownAgent):
    """A civilian who notes each time he is asked to answer the day's talk."""

    calls: ClassVar[list[tuple[int, int, int, int]]] = []  # game, turn, votes, statements
    game: ClassVar[int] = 0

    def respond(self, view, rng):  # type: ignore[no-untyped-def]
        pub = view.public
        _Listener.calls.append((_Listener.game, pub.turn, len(pub.today), len(pub.statements)))
        return []


def test_P5_6_players_answer_the_talk_after_the_statements_and_after_the_leader_speaks(
) -> None:
    """P5.6: the driver asks the players who answer talk (`respond`) once after the day's
    statements and again each time the day's leader speaks while the vote runs; the public
    record keeps, for each public statement, how many of the day's votes came before it
    (`said_at`)."""
    setup = build_setup(None, players=25, params={"town.decoy": 1.0, "clan.rope_claim": 1.0})
    classes = dict(setup.agents.classes)
    classes[Role.CIVILIAN] = _Listener
    agents = type(setup.agents)(setup.agents.name, classes, setup.agents.params,
                                setup.agents.defaults)
    driver = Driver(setup.comp, setup.rules, agents)
    _Listener.calls.clear()
    during_vote = 0
    for i in range(20):
        _Listener.game = i
        game = driver.play(np.random.default_rng(i))
        pub = game.public
        assert len(pub.said_at) == len(pub.statements)
        calls = [c for c in _Listener.calls if c[0] == i]
        days = {t for _, t, _, _ in calls}
        for t in days:  # asked once the statements are in, before any vote
            assert any(c[1] == t and c[2] == 0 for c in calls), (i, t)
        first: dict[tuple[int, int], int] = {}  # (turn, votes before): the leader's word
        for k, (stmt, at) in enumerate(zip(pub.statements, pub.said_at, strict=True)):
            if at > 0:  # said while the vote ran: the leader's answer, then the others'
                first.setdefault((stmt.turn, at), k)
        for (turn, at), k in first.items():
            during_vote += 1
            assert pub.statements[k].kind is CLAIM
            if turn in days:  # a listener was there to be asked that day
                assert any(c[1] == turn and c[2] == at and c[3] > k for c in calls), (i, k)
    assert during_vote > 0  # the leaders under the rope did speak


def _maniac_day(seed: int) -> tuple[Game, int, int]:
    """Turn 1 of a standard table: the commissar opens up; returns the game, the maniac's
    seat and the commissar's."""
    game = Game(Composition.standard(25), RuleSet(), np.random.default_rng(seed))
    st_ = game.st
    game.play_day(TurnInput())
    game.play_night(NightRequests())
    info = InfoModel(st_, {"town_skill": 0.0, "mafia_skill": 0.0, "maniac_skill": 0.0})
    for s, view in enumerate(game.views):
        view.reads = info.reads[s]
    commissar = st_.seats_by_role[Role.COMMISSAR][0]
    game.say(Statement(1, commissar, "claim", value="commissar"))
    maniac = st_.seats_by_role[Role.MANIAC][0]
    return game, maniac, commissar


def test_maniac_fake_claim_counter_claims_an_opened_commissar_once() -> None:
    """`maniac.fake_claim` 1: facing an opened commissar the maniac claims commissar and
    announces a check of him as a Yakuza mafioso (R2.7: anyone may say it), once a game;
    at 0 (the shipped profile) he says nothing and draws nothing."""
    from agents.maniac import ManiacAgent

    game, maniac, commissar = _maniac_day(3)
    rng = np.random.default_rng(0)
    liar = ManiacAgent(maniac, {"fake_claim": 1.0})
    said = liar.statements(game.views[maniac], rng)
    assert [(s.kind, s.target, s.value) for s in said] == [
        ("claim", -1, "commissar"), ("check", commissar, "yakuza")]
    for s in said:
        game.say(s)  # the engine takes it (R2.7)
    assert liar.statements(game.views[maniac], rng) == []  # once a game
    quiet_rng = np.random.default_rng(0)
    assert ManiacAgent(maniac).statements(game.views[maniac], quiet_rng) == []
    assert quiet_rng.random() == np.random.default_rng(0).random()  # nothing drawn


def test_maniac_follow_zero_votes_his_own_read_not_the_leader() -> None:
    """`maniac.follow` 1 (shipped): he votes the day's leader; 0: his most dangerous read
    (here the opened commissar), whoever leads."""
    from agents.maniac import ManiacAgent

    game, maniac, commissar = _maniac_day(5)
    pub = game.public
    leader = next(s for s in range(game.st.n)
                  if game.st.alive[s] and s not in (maniac, commissar))
    pub.today.append((commissar, leader))
    pub.today_tally[leader] = 1
    rng = np.random.default_rng(1)
    assert ManiacAgent(maniac).vote(game.views[maniac], rng) == leader
    own = ManiacAgent(maniac, {"follow": 0.0}).vote(game.views[maniac], rng)
    assert own == commissar  # opened_danger 10 puts him first


def test_clan_early_claim_is_a_pre_emptive_lie_once_a_game() -> None:
    """`clan.early_claim` 1 (the outside deviation PreemptiveLiar*, now in exploit's
    space): on his first day a clan member claims a hero role nobody has claimed, before
    any vote is on him, once a game, and then does not lie under the rope; at 0 (the
    shipped profile) he says nothing and draws nothing."""
    from agents.clans import ClanAgent

    game, _, _ = _maniac_day(7)
    member = next(s for s in game.st.members[1] if game.st.alive[s]
                  and s in game.st.seats_by_role[Role.MAFIOSO] and game.views[s].don != s)
    rng = np.random.default_rng(0)
    liar = ClanAgent(member, {"early_claim": 1.0})
    said = liar.statements(game.views[member], rng)
    assert [(s.kind, s.value) for s in said] == [("claim", "doctor")]
    game.say(said[0])
    assert liar.statements(game.views[member], rng) == [] and liar.lied
    quiet_rng = np.random.default_rng(0)
    assert ClanAgent(member).statements(game.views[member], quiet_rng) == []
    assert quiet_rng.random() == np.random.default_rng(0).random()


def test_clan_fake_cop_is_the_dons_false_commissar_on_the_first_day() -> None:
    """`clan.fake_cop` 1 (the outside deviation YakuzaFakeCopMafioso, now in exploit's
    space, R2.7/R2.8: a lie about roles is play): on a day nobody has claimed the
    commissar, the Don claims him and names a living outsider a member of the rival clan,
    once a game; not when the commissar has been claimed. (At 0, the default, he draws
    nothing: scripts/fingerprint.py gave the same games before and after it.)"""
    from agents.clans import ClanAgent

    game = Game(Composition.standard(25), RuleSet(), np.random.default_rng(4))
    game.play_day(TurnInput())
    game.play_night(NightRequests())
    st_ = game.st
    info = InfoModel(st_, {"town_skill": 0.0, "mafia_skill": 0.0, "maniac_skill": 0.0})
    for s, v in enumerate(game.views):
        v.reads = info.reads[s]
    don = next(s for s in range(st_.n) if game.views[s].don == s and st_.alive[s]
               and st_.role[s] is Role.MAFIOSO)
    view = game.views[don]
    liar = ClanAgent(don, {"fake_cop": 1.0})
    said = [s for s in liar.statements(view, np.random.default_rng(0)) if s.kind != "order"]
    assert len(said) == 2 and (said[0].kind, said[0].value) == ("claim", "commissar")
    check = said[1]
    rival = "triad" if view.clan.key == "yakuza" else "yakuza"
    assert check.kind == "check" and check.value == rival
    assert st_.alive[check.target] and check.target != don and check.target not in view.allies
    for s in said:
        game.say(s)
    again = liar.statements(view, np.random.default_rng(0))
    assert all(s.kind == "order" for s in again)
    # the commissar already claimed (here by the liar himself): a fresh Don says nothing more
    late = ClanAgent(don, {"fake_cop": 1.0}).statements(view, np.random.default_rng(0))
    assert all(s.kind == "order" for s in late)


def test_R3_1_R6_2_town_too_soon_a_check_announced_before_any_night_is_a_lie() -> None:
    """`town.too_soon` (the answer to `clan.fake_cop`): the commissar first checks on the
    night of turn 1 (R3.1, R6.2: on turn 0 only the maniac acts; R7.1), so by day t a badge
    holder has at most t - 1 results. A result announced beyond that exposes its announcer
    and is not believed; the commissar's word for his partner (R2.5) is no check; at 0
    every check counts (the default is 12)."""
    from agents.town import PublicDigest

    game = Game(Composition.standard(25), RuleSet(), np.random.default_rng(4))
    game.play_day(TurnInput())
    game.play_night(NightRequests())
    st_ = game.st
    liar = st_.seats_by_role[Role.MAFIOSO][0]
    commissar = st_.seats_by_role[Role.COMMISSAR][0]
    sergeant = st_.seats_by_role[Role.SERGEANT][0]
    framed = next(s for s in range(st_.n) if st_.alive[s] and st_.role[s] is Role.CIVILIAN)
    for stmt in (Statement(1, liar, "claim", value="commissar"),
                 Statement(1, liar, "check", framed, "triad"),
                 Statement(1, commissar, "claim", value="commissar"),
                 Statement(1, commissar, "check", sergeant, "sergeant")):
        game.say(stmt)
    p = dict(TownAgent(framed).p)
    strict = PublicDigest(st_.n, {**p, "too_soon": 12.0})
    strict.update(game.public)
    assert [(c.speaker, c.target) for c in strict.claims] == [(commissar, sergeant)]
    trusting = PublicDigest(st_.n, {**p, "too_soon": 0.0})
    trusting.update(game.public)
    assert [(c.speaker, c.target) for c in trusting.claims] == [(liar, framed),
                                                                 (commissar, sergeant)]
    assert strict.hard[liar] == pytest.approx(trusting.hard[liar] + 12.0)
    assert strict.hard[commissar] == trusting.hard[commissar]
    # day 2: one result is possible (the night of turn 1), a second seat is not
    assert not strict.too_soon(Statement(2, commissar, "check", framed, "civilian"))
    assert strict.too_soon(Statement(2, commissar, "check", liar, "yakuza"))


def test_R3_1_R6_2_the_commissar_does_not_counter_a_claim_the_turn_order_exposes() -> None:
    """The day-1 fake commissar (`clan.fake_cop`) fishes for the real one: a counterclaim
    shows the killers who he is. A check announced on day 1 is a lie the rules prove
    (R3.1, R6.2: no check before the night of turn 1), Town does not believe it
    (`town.too_soon`), so the real commissar keeps quiet; a liar whose check could be
    true he answers as before (`counter`, P5.6). At too_soon 0 nobody counts the nights,
    and he answers both."""
    game = Game(Composition.standard(25), RuleSet(), np.random.default_rng(4))
    game.play_day(TurnInput())
    game.play_night(NightRequests())
    st_ = game.st
    liar = st_.seats_by_role[Role.MAFIOSO][0]
    commissar = st_.seats_by_role[Role.COMMISSAR][0]
    framed = next(s for s in range(st_.n) if st_.alive[s] and st_.role[s] is Role.CIVILIAN)
    game.say(Statement(st_.turn, liar, "claim", value="commissar"))
    game.say(Statement(st_.turn, liar, "check", framed, "triad"))
    view = game.views[commissar]
    quiet = CommissarAgent(commissar)
    assert quiet.p["too_soon"] > 0  # the default
    assert quiet.respond(view, np.random.default_rng(0)) == []
    naive = CommissarAgent(commissar, {"too_soon": 0.0})
    said = naive.respond(view, np.random.default_rng(0))
    assert [(s.kind.value, s.value) for s in said] == [("claim", "commissar")]
    # the same lie without a check: nothing proves it false, and he answers it
    game2 = Game(Composition.standard(25), RuleSet(), np.random.default_rng(4))
    game2.play_day(TurnInput())
    game2.play_night(NightRequests())
    game2.say(Statement(game2.st.turn, liar, "claim", value="commissar"))
    answered = CommissarAgent(commissar).respond(game2.views[commissar],
                                                 np.random.default_rng(0))
    assert [(s.kind.value, s.value) for s in answered] == [("claim", "commissar")]
