"""Agent parameters: named by camp or role, checked against their documented ranges, and
every one of them changes play on the standard table (issue 10, point 1)."""

from __future__ import annotations

import hashlib
import math
from dataclasses import replace

import pytest

from agents.registry import resolve_agent_set
from sim.game.errors import InputError
from sim.game.params import Param
from sim.game.roles import Clan, Role
from sim.game.rules import Composition, RuleSet
from sim.play.driver import Driver
from sim.play.setup import build_setup
from sim.play.streams import game_streams

CAMPS = ("town", "yakuza", "triad", "maniac")


def test_names_by_camp_and_role_reach_only_their_agents() -> None:
    aset = resolve_agent_set("heuristic", params={
        "town.crowd": 0.0, "yakuza.mafia_follow": 0.2, "thug.beat": 0.0,
        "maniac.noise": 0.5, "noise": 1.0, "triad.mafioso.noise": 2.0})
    assert aset.make(Role.CIVILIAN, 0).p["crowd"] == 0.0
    assert aset.make(Role.VSB, 0, Clan.NONE).p["crowd"] == 0.0
    assert aset.make(Role.DOCTOR, 0).p["crowd"] == 0.0
    assert aset.make(Role.MAFIOSO, 0, Clan.YAKUZA).p["mafia_follow"] == 0.2
    # the default profile's value (agents/profiles/heuristic.toml)
    assert aset.make(Role.MAFIOSO, 0, Clan.TRIAD).p["mafia_follow"] == 0.5
    assert aset.make(Role.THUG, 0, Clan.TRIAD).p["beat"] == 0.0
    assert aset.make(Role.MANIAC, 0).p["noise"] == 0.5  # maniac.noise beats the bare name
    assert aset.make(Role.CIVILIAN, 0).p["noise"] == 1.0  # the bare name: every agent
    assert aset.make(Role.MAFIOSO, 0, Clan.TRIAD).p["noise"] == 2.0
    assert aset.make(Role.THUG, 0, Clan.TRIAD).p["noise"] == 1.0
    assert aset.make(Role.MAFIOSO, 0, Clan.YAKUZA).p["noise"] == 1.0


def test_clan_names_both_clans_and_a_clan_name_wins_over_it() -> None:
    aset = resolve_agent_set("heuristic", params={"clan.fake_claim": 1.0,
                                                  "triad.fake_claim": 0.0})
    assert aset.make(Role.KAMIKAZE, 0, Clan.YAKUZA).p["fake_claim"] == 1.0
    assert aset.make(Role.MAFIOSO, 0, Clan.TRIAD).p["fake_claim"] == 0.0


@pytest.mark.parametrize(("name", "value", "says"), [
    ("town_skill", "nan", "town_skill must be in [0, 5]"),
    ("town.crowd", "nan", "town.crowd must be in [0, 2]"),
    ("noise", "-5", "noise must be in"),
    ("town.claim_trust", "inf", "must be in"),
    ("town.crowd", "٣", "is not a number"),
    ("thug.crowd", "0", "no agent of thug has 'crowd'"),
    ("town.beat", "0", "no agent of town has 'beat'"),
    ("ninja.threshold", "0.1", "ninja.threshold must be in [0.3, 1]"),
    ("commissar.reveal", "sometimes", "is one of on_enemy, no_sergeant, never"),
    ("yakuza.vsb_endgame", "1.5", "takes a whole number"),
    ("village.crowd", "0", "write NAME, CAMP.NAME"),
    ("town.skill.crowd", "0", "write NAME, CAMP.NAME"),
    ("town.town_skill", "0", "takes no camp or role"),
    ("crowdd", "0", "unknown agent parameter 'crowdd'"),
])
def test_bad_parameters_are_named_with_their_range(name: str, value: str, says: str) -> None:
    with pytest.raises(InputError, match=None) as e:
        build_setup(params={name: value})
    assert says in str(e.value), str(e.value)
    assert "\n" not in str(e.value)


def test_setup_file_params_may_be_nested_or_quoted() -> None:
    s = build_setup({"agents": {"params": {"town": {"crowd": 0.0}, "thug.beat": 0.5}}})
    assert s.agents.params == {"town.crowd": 0.0, "thug.beat": 0.5}
    with pytest.raises(InputError, match="takes one value"):
        build_setup({"agents": {"params": {"town.crowd": [1, 2]}}})
    with pytest.raises(InputError, match="must be a table"):
        build_setup({"agents": {"params": [1, 2]}})


def test_param_parse_refuses_huge_and_odd_values() -> None:
    p = Param(0.5, 0.0, 1.0)
    with pytest.raises(InputError):
        p.parse(10**400, "x")
    with pytest.raises(InputError):
        p.parse(True, "x")
    with pytest.raises(InputError):
        p.parse(math.inf, "x")
    assert p.parse("0.25", "x") == 0.25


def test_each_camp_space_names_its_own_parameters() -> None:
    aset = resolve_agent_set("heuristic")
    comp = Composition.standard(25)
    seated = {(s.role, s.clan) for s in comp.seats}
    names = {camp: [d.name for d in aset.space(camp, seated)] for camp in CAMPS}
    assert "town.crowd" in names["town"] and "ninja.threshold" in names["town"]
    assert "commissar.reveal" in names["town"] and "doctor.guard_opened" in names["town"]
    assert "thug.beat" in names["triad"] and "thug.beat" not in names["yakuza"]
    assert "yakuza.mafia_follow" in names["yakuza"]
    assert "maniac.ambush_votes" in names["maniac"]
    for camp, dims in names.items():
        assert not any(n.split(".")[-1].endswith("_skill") for n in dims), camp
    for camp in CAMPS:
        for d in aset.space(camp, seated):
            assert d.param.default in d.values and len(d.values) >= 2, d.name
            for v in d.values:  # every grid value is a legal value
                aset.with_params({d.name: v})


def _fingerprint(setup_params: dict[str, object], games: int = 60,
                 rules: RuleSet | None = None) -> str:
    """A hash of what was played: every game's log (every vote and night request, what the
    host resolved), deaths (seat, turn, cause) and outcome. The games are paired on common
    random numbers (sim.play.streams), so only what a parameter changes shows, not a reshuffle
    of everyone's later draws: a request that changes no death still counts as play."""
    aset = resolve_agent_set("heuristic", params=setup_params)
    driver = Driver(Composition.standard(25), rules or RuleSet(), aset)
    h = hashlib.sha256()
    for i in range(games):
        g = driver.play(game_streams(7, i, 25), record=True)  # game i of a run with seed 7
        st = g.st
        h.update(repr((g.log, st.cause, st.outcome, len(g.public.statements),
                       len(g.public.votes))).encode())
    return h.hexdigest()


#: a parameter that only acts through another one is tested where that one lets it act
CONTEXT: dict[str, dict[str, object]] = {
    "ninja.threshold_step": {"ninja.threshold": 0.5},  # it raises the bar after a strike
    # heroes claim early enough for a kamikaze to find one alive
    "kamikaze.blast_claimed": {"town.defend_at": 0.1},
    "maniac.claimer_danger": {"town.defend_at": 0.1},
    "yakuza.claimer_danger": {"town.defend_at": 0.1},
    # the threshold of a lie acts where the camp lies under the rope
    "yakuza.rope_at": {"yakuza.rope_claim": 1.0},
    "triad.rope_at": {"triad.rope_claim": 1.0},
    "maniac.rope_at": {"maniac.rope_claim": 1.0},
    # Town's answers to lies act where someone lies
    "town.counter": {"yakuza.rope_claim": 1.0, "triad.rope_claim": 1.0},
    "town.rope_liar": {"yakuza.rope_claim": 1.0, "triad.rope_claim": 1.0},
    "town.too_soon": {"yakuza.fake_cop": 1.0, "triad.fake_cop": 1.0},
}


def _dims() -> list[tuple[str, tuple[object, ...]]]:
    aset = resolve_agent_set("heuristic")
    comp = Composition.standard(25)
    seated = {(s.role, s.clan) for s in comp.seats}
    out = []
    for camp in CAMPS:
        for d in aset.space(camp, seated, RuleSet()):
            out.append((d.name, tuple(v for v in d.values if v != d.param.default)))
    return out


@pytest.mark.parametrize(("name", "others"), _dims())
def test_every_parameter_changes_play_on_the_standard_table(
        name: str, others: tuple[object, ...]) -> None:
    """A parameter that changes nothing is removed (issue 10): moving each one to another
    value of its search grid changes what is played on the standard 25-player table."""
    context = CONTEXT.get(name, {})
    for games in (60, 400):  # rare situations (the Army, a second ninja kill) need more
        base = _fingerprint(context, games)
        if any(_fingerprint({**context, name: v}, games) != base for v in reversed(others)):
            return
    raise AssertionError(f"{name} changes nothing in 400 games")


def test_replace_drops_resolved_parameters() -> None:
    aset = resolve_agent_set("heuristic")
    assert aset.make(Role.CIVILIAN, 0).p["crowd"] == 0.7  # the default profile's
    other = replace(aset, params={"town.crowd": 0.0})
    assert other.make(Role.CIVILIAN, 0).p["crowd"] == 0.0


def test_a_parameter_of_a_rule_option_changes_play_under_it() -> None:
    """`doctor.self_heal` matters only where self-healing is allowed (R8.4 flipped); the
    search space leaves it out on the standard rules."""
    aset = resolve_agent_set("heuristic")
    seated = {(s.role, s.clan) for s in Composition.standard(25).seats}
    assert "doctor.self_heal" not in [d.name for d in aset.space("town", seated, RuleSet())]
    on = RuleSet().replace({"doctor_self_heal": True})
    assert "doctor.self_heal" in [d.name for d in aset.space("town", seated, on)]
    assert (_fingerprint({"doctor.self_heal": 1.0}, rules=on)
            != _fingerprint({"doctor.self_heal": 0.0}, rules=on))


def test_params_command_lists_every_parameter_with_its_range(
        capsys: pytest.CaptureFixture[str]) -> None:
    from sim.cli.main import main

    assert main(["params"]) == 0
    out = capsys.readouterr().out
    for name in ("town.crowd", "thug.beat", "yakuza.mafia_follow", "maniac.noise",
                 "commissar.reveal", "town_skill", "turn_limit", "duel", "p_absent"):
        assert name in out
    turn_limit = next(line for line in out.splitlines() if line.startswith("turn_limit "))
    assert "[1, 10000]" in turn_limit and "--rule turn_limit=" in turn_limit
    assert main(["params", "--camp", "triad", "--markdown"]) == 0
    md = capsys.readouterr().out
    assert md.startswith("| parameter |") and "town.crowd" not in md and "thug.beat" in md
    assert "turn_limit" not in md  # a camp's list leaves the rule options out


def test_every_rule_option_is_declared_once_and_checked_by_its_declaration() -> None:
    """Issue 22: a rule option's default, range and meaning are one declaration (a Param in
    its RuleSet field), which RuleSet.check enforces: a value past either end is refused
    with the option's name, a value at either end is taken."""
    import dataclasses
    import math

    from sim.game.errors import InputError
    from sim.game.rules import RuleSet

    options = RuleSet.options()
    assert list(options) == RuleSet.names()
    base = RuleSet()
    for name, prm in options.items():
        assert prm.doc and prm.default == getattr(base, name), name
        if prm.choices:  # a switch
            assert isinstance(prm.default, bool) and prm.choices == ("true", "false")
            continue
        for end in (prm.low, prm.high):
            if math.isfinite(end):
                assert getattr(dataclasses.replace(base, **{name: type(prm.default)(end)}),
                               name) == end
                base.replace({name: type(prm.default)(end)})
        step = 1 if prm.integer else 0.5
        for outside in (prm.low - step, prm.high + step):
            if math.isfinite(outside):
                with pytest.raises(InputError, match=f"rule {name} "):
                    base.replace({name: type(prm.default)(outside)})


def test_the_default_profile_is_the_heuristic_sets_defaults_and_any_user_name_wins() -> None:
    from agents.registry import default_profile

    profile = default_profile()
    assert profile, "agents/profiles/heuristic.toml holds the default profile"
    aset = resolve_agent_set("heuristic")
    assert aset.make(Role.MAFIOSO, 0, Clan.YAKUZA).p["noise"] == profile["yakuza.noise"]
    # a bare name given by the user wins over the profile's camp name
    mine = resolve_agent_set("heuristic", params={"noise": 0.9})
    assert mine.make(Role.MAFIOSO, 0, Clan.YAKUZA).p["noise"] == 0.9
    # the searched space starts from the profile's values
    seated = {(s.role, s.clan) for s in Composition.standard(25).seats}
    dims = {d.name: d for d in aset.space("town", seated, RuleSet())}
    assert dims["town.crowd"].param.default == profile["town.crowd"]
    assert profile["town.crowd"] in dims["town.crowd"].values
    # the other agent sets have no profile
    assert resolve_agent_set("uniform").defaults == {}
