"""Mixtures as profiles (issue 24, point 2): each camp's profile drawn per game from the
mixture, seeded; reproducible from the seed and independent of jobs; a mixture of one profile
plays exactly that profile's games; a game of a mixture is the game of the profile it drew."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim.cli.main import main
from sim.game.errors import InputError
from sim.play.mixture import CAMPS, Component, Mixture, read_mixture
from sim.play.runner import run
from sim.play.setup import build_setup, load_mixture_file

PLAYERS = 14
A = {"town.crowd": 0.0, "town.noise": 0.3}
B = {"town.crowd": 1.0}
MIX = Mixture({"town": (Component(0.5, A), Component(0.5, B)),
               "yakuza": (Component(0.7, {"yakuza.noise": 0.3}),
                          Component(0.3, {"yakuza.noise": 0.0}))}, found="a test")


def write(tmp_path: Path, mixture: Mixture, params: str = "") -> Path:
    p = tmp_path / "mix.toml"
    p.write_text((f"[params]\n{params}\n" if params else "") + mixture.as_toml(),
                 encoding="utf-8")
    return p


def rows(setup, games: int = 60, seed: int = 5, jobs: int = 1) -> np.ndarray:
    res = run(setup, games=games, seed=seed, jobs=jobs, keep_rows=True)
    assert res.rows is not None
    return res.rows


def test_the_file_round_trips(tmp_path):
    got = load_mixture_file(write(tmp_path, MIX))
    assert got == MIX


def test_a_mixture_of_one_profile_plays_exactly_that_profiles_games(tmp_path):
    one = Mixture({"town": (Component(1.0, A),)})
    mixed = build_setup(players=PLAYERS, params_file=write(tmp_path, one))
    plain = build_setup(players=PLAYERS, params={k: str(v) for k, v in A.items()},
                        single_profile=True)
    assert not one.drawing
    np.testing.assert_array_equal(rows(mixed), rows(plain))


def test_each_game_of_a_mixture_is_the_game_of_the_profile_it_drew(tmp_path):
    setup = build_setup(players=PLAYERS, params_file=write(tmp_path, MIX))
    got = rows(setup, games=40)
    picks = [MIX.draw(5, i) for i in range(40)]
    assert len({p[0] for p in picks}) == 2 and len({p[1] for p in picks}) == 2
    for pick in set(picks):
        fixed = build_setup(players=PLAYERS, single_profile=True, params={
            k: str(v) for k, v in MIX.params_of(pick).items()})
        want = rows(fixed, games=40)
        for i, p in enumerate(picks):
            if p == pick:
                np.testing.assert_array_equal(got[i], want[i])


def test_draws_are_reproducible_and_independent_of_jobs(tmp_path):
    setup = build_setup(players=PLAYERS, params_file=write(tmp_path, MIX))
    one = rows(setup, games=80, jobs=1)
    np.testing.assert_array_equal(one, rows(setup, games=80, jobs=2))
    np.testing.assert_array_equal(one, rows(setup, games=80, jobs=1))
    assert [MIX.draw(5, i) for i in range(50)] == [MIX.draw(5, i) for i in range(50)]
    assert [MIX.draw(5, i) for i in range(50)] != [MIX.draw(6, i) for i in range(50)]


def test_draws_follow_the_weights():
    picks = np.array([MIX.draw(1, i) for i in range(6000)])
    assert abs((picks[:, 0] == 0).mean() - 0.5) < 0.03
    assert abs((picks[:, 1] == 0).mean() - 0.7) < 0.03
    assert set(picks[:, 2]) == {0} and set(picks[:, 3]) == {0}  # no profiles: nothing drawn
    assert len(CAMPS) == picks.shape[1]


def test_the_users_parameter_wins_over_the_mixture(tmp_path):
    """A mixture is a profile: --param still decides (as over the shipped profile)."""
    p = write(tmp_path, MIX)
    forced = build_setup(players=PLAYERS, params_file=p, params={"town.crowd": "0.5",
                                                                 "town.noise": "0.0"})
    plain = build_setup(players=PLAYERS, params_file=p)
    assert forced.mixture == plain.mixture
    a, b = rows(forced, games=60), rows(plain, games=60)
    assert not np.array_equal(a, b)
    # with town fixed by the user, the games differ only by the Yakuza's draw
    both = build_setup(players=PLAYERS, single_profile=True, params={"town.crowd": "0.5", "town.noise": "0.0",
                                                "yakuza.noise": "0.3"})
    want = rows(both, games=60)
    for i in range(60):
        if MIX.draw(5, i)[1] == 0:
            np.testing.assert_array_equal(a[i], want[i])


@pytest.mark.parametrize("text,words", [
    ('[[mixture.town]]\nweight = 0.5\nparams = {}\n', "sum to 1"),
    ('[[mixture.wizards]]\nweight = 1.0\nparams = {}\n', "unknown camp"),
    ('[[mixture.town]]\nweight = 1.0\nparams = { "yakuza.noise" = 0.1 }\n',
     "not one of town's parameters"),
    ('[[mixture.town]]\nweight = 1.0\nparams = { "town.crowd" = 7 }\n', "town.crowd"),
    ('[[mixture.town]]\nweight = "half"\nparams = {}\n', "weight must be a number"),
    ('[mixture]\ntown = 3\n', "must be one or more tables"),
])
def test_a_bad_mixture_is_one_line_with_exit_2(tmp_path, capsys, text, words):
    p = tmp_path / "bad.toml"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=words):
        build_setup(players=PLAYERS, params_file=p)
    assert main(["run", "--players", str(PLAYERS), "--games", "10", "--params", str(p)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in err[0]


def test_read_mixture_refuses_non_tables():
    with pytest.raises(InputError):
        read_mixture([1, 2], "x")


def test_run_with_a_mixture_on_the_command_line(tmp_path, capsys):
    p = write(tmp_path, MIX)
    assert main(["run", "--players", str(PLAYERS), "--games", "40", "--seed", "5",
                 "--params", str(p), "--json", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert '"mixture"' in out and '"town.crowd"' in out


def test_a_setup_file_names_a_mixture_by_its_params_file(tmp_path):
    p = write(tmp_path, MIX)
    setup_file = tmp_path / "setup.toml"
    setup_file.write_text(f'players = {PLAYERS}\n[agents]\nparams_file = "{p.name}"\n',
                          encoding="utf-8")
    from sim.play.setup import load_toml

    setup = build_setup(load_toml(setup_file), where=str(setup_file))
    assert setup.mixture == MIX


def test_the_draws_numbers_are_uniform_and_fixed_by_seed_game_and_camp():
    """SplitMix64 of (seed, game, camp): the same numbers on every machine and numpy."""
    from sim.play.mixture import uniform

    u = np.array([uniform(3, i, k) for i in range(20000) for k in range(4)])
    assert 0.0 <= u.min() and u.max() < 1.0 and abs(u.mean() - 0.5) < 0.01
    counts = np.histogram(u, 10, (0, 1))[0]
    assert counts.min() > 0.9 * len(u) / 10
    assert uniform(3, 7, 1) == uniform(3, 7, 1) != uniform(3, 7, 2) != uniform(4, 7, 1)


def test_one_game_kept_alive_whatever_the_picks(tmp_path):
    """Each pick has its driver; only the last game's session is kept (sixteen kept games
    cost a run 18% in the garbage collector)."""
    from sim.play.mixture import Drivers

    setup = build_setup(players=PLAYERS, params_file=write(tmp_path, MIX))
    drivers = Drivers(setup)
    from sim.play.streams import game_streams

    for i in range(12):
        drivers.for_game(5, i).play(game_streams(5, i, PLAYERS))
    alive = [d for d in drivers._by_pick.values() if d.session is not None]
    assert len(drivers._by_pick) > 1 and len(alive) == 1


def test_the_shipped_mixture_is_drawn_unless_a_file_brings_one_or_single_profile(
        tmp_path, monkeypatch):
    """Issue 24: the heuristic set draws the mixture shipped in its profile file
    (agents/profiles/heuristic.toml's [mixture]); a parameter file's own mixture replaces
    it, `--single-profile` plays the single shipped profile, another agent set draws
    nothing; the user's --param still wins over the mixture's values."""
    import sim.play.setup

    monkeypatch.setattr(sim.play.setup, "_SHIPPED", {PLAYERS: MIX})
    assert build_setup(players=PLAYERS).mixture == MIX
    assert build_setup(players=PLAYERS, single_profile=True).mixture is None
    assert build_setup(players=PLAYERS, agents="uniform").mixture is None
    own = Mixture({"town": (Component(1.0, B),)})
    assert build_setup(players=PLAYERS, params_file=write(tmp_path, own)).mixture == own
    user = build_setup(players=PLAYERS, params={"town.crowd": "0.5"})
    assert user.mixture == MIX and user.agents.params["town.crowd"] == 0.5
    assert main(["run", "--players", str(PLAYERS), "--games", "10", "--single-profile",
                 "--quiet"]) == 0


def test_the_shipped_profile_file_holds_a_valid_mixture_or_none():
    """Whatever agents/profiles/heuristic.toml ships is a mixture the set can play."""
    from agents.registry import PROFILE, resolve_agent_set

    mix = load_mixture_file(PROFILE)
    if mix is not None:
        mix.check(resolve_agent_set("heuristic"))
        assert set(mix.camps) <= set(CAMPS)


# -- a mixture file is a profile: its [params] stand under its profiles ---------------------
def resolved(setup, pick) -> dict:
    """Every seatable agent's parameter values in a game that drew `pick`."""
    from sim.game.params import resolve_for
    from sim.play.mixture import agents_for

    aset = agents_for(setup.agents, setup.mixture, pick)
    return {(role, clan): resolve_for(cls, role, clan, aset.params, aset.defaults)
            for role, clan, cls in aset.agents_of()}


CLAN_MIX = Mixture({"yakuza": (Component(0.5, {"yakuza.mafia_follow": 0.0}),
                               Component(0.5, {"yakuza.noise": 1.0})),
                    "triad": (Component(1.0, {"triad.mafia_follow": 1.0,
                                              "triad.rope_claim": 0.4}),)})


def test_a_mixture_files_params_stand_under_its_profiles_as_the_shipped_files_do(tmp_path):
    """Issue 24: a `[params]` beside a `[mixture]` is the profile's, as in
    agents/profiles/heuristic.toml, so a less specific name there (`clan.mafia_follow`)
    does not flatten a profile's own value (`yakuza.mafia_follow`); a name the user gives
    still wins over both. (Read as the user's, the file's `clan.mafia_follow` won over
    every profile: mixture_25k to 25q were played so, results/mixture.md.)"""
    from sim.game.roles import Clan, Role

    p = write(tmp_path, CLAN_MIX, '"clan.mafia_follow" = 0.5\n"clan.rope_claim" = 0.2\n'
                                  '"town.crowd" = 0.3')
    setup = build_setup(players=PLAYERS, params_file=p)
    assert setup.agents.params == {} and setup.profile["clan.mafia_follow"] == 0.5
    yak, tri, civ = ((Role.MAFIOSO, Clan.YAKUZA), (Role.MAFIOSO, Clan.TRIAD),
                     (Role.CIVILIAN, Clan.NONE))
    first, second = resolved(setup, (0, 0, 0, 0)), resolved(setup, (0, 1, 0, 0))
    assert first[yak]["mafia_follow"] == 0.0 and second[yak]["mafia_follow"] == 0.5
    assert first[tri]["mafia_follow"] == 1.0 and first[tri]["rope_claim"] == 0.4
    assert first[civ]["crowd"] == 0.3  # no profile sets it: the file's [params] play
    user = build_setup(players=PLAYERS, params_file=p, params={"clan.mafia_follow": "0.9"})
    assert resolved(user, (0, 0, 0, 0))[yak]["mafia_follow"] == 0.9


def test_the_shipped_profile_file_given_as_params_plays_the_defaults_games():
    """The shipped file itself, given with --params, is the default: the same games."""
    from agents.registry import PROFILE

    if load_mixture_file(PROFILE) is None:
        pytest.skip("no shipped mixture")
    a = rows(build_setup(players=PLAYERS), games=40)
    b = rows(build_setup(players=PLAYERS, params_file=PROFILE), games=40)
    np.testing.assert_array_equal(a, b)


def test_a_mixture_files_skills_stay_the_tables(tmp_path):
    """The table's skills in a mixture file's [params] are the user's (they describe the
    table, not a camp's play; the reads take them from there)."""
    p = write(tmp_path, CLAN_MIX, '"town_skill" = 0.4\n"clan.rope_claim" = 0.2')
    setup = build_setup(players=PLAYERS, params_file=p)
    assert setup.agents.params == {"town_skill": 0.4}
    assert setup.profile == {"clan.rope_claim": 0.2}


@pytest.mark.parametrize("given", [
    {"clan.mafia_follow": "0.3"},  # less specific than the profiles' yakuza.mafia_follow
    {"yakuza.mafia_follow": "0.3", "noise": "0.7"},  # the profiles' own name; a bare one
    {"town.crowd": "0.1"},  # no profile competes: written as given
])
def test_a_written_mixture_file_plays_the_users_parameters_as_the_run_did(tmp_path, given):
    """What equilibrate writes (the file's [params], the user's names pinned where a
    profile's would beat them, the mixture) plays every agent's values as the run did."""
    from sim.cli.search_commands import user_params
    from sim.play.setup import pinned

    src = write(tmp_path, CLAN_MIX, '"clan.rope_claim" = 0.2\n"yakuza.noise" = 0.05')
    run_setup = build_setup(players=PLAYERS, params_file=src, params=given)
    params = {**run_setup.profile,
              **pinned(run_setup.agents, CLAN_MIX, user_params(run_setup))}
    out = tmp_path / "out.toml"
    out.write_text("[params]\n" + "\n".join(f'"{k}" = {v!r}' for k, v in params.items())
                   + "\n" + CLAN_MIX.as_toml(), encoding="utf-8")
    again = build_setup(players=PLAYERS, params_file=out)
    for pick in ((0, 0, 0, 0), (0, 1, 0, 0)):
        assert resolved(again, pick) == resolved(run_setup, pick)
    if "town.crowd" in given:
        assert set(params) == {"clan.rope_claim", "yakuza.noise", "town.crowd"}


def test_an_agent_of_ones_own_plays_the_shipped_mixtures_parameters_it_declares(
        monkeypatch):
    """The shipped mixture sets `doctor.guard_opened`; a doctor of the user's own that does
    not declare it still plays under the shipped mixture (its other profiles' parameters,
    the same draws), while a mixture file of the user's naming it is an error."""
    import sim.play.setup

    shipped = Mixture({"town": (Component(0.5, {"doctor.guard_opened": 1.0, **A}),
                                Component(0.5, B))})
    monkeypatch.setattr(sim.play.setup, "_SHIPPED", {PLAYERS: shipped})
    own = build_setup(players=PLAYERS, agent_overrides={"doctor": "uniform"})
    assert own.mixture is not None
    assert own.mixture.camps["town"][0].params == A
    assert [c.weight for c in own.mixture.camps["town"]] == [0.5, 0.5]
    assert build_setup(players=PLAYERS).mixture == shipped
    rows(own, games=10)


def test_a_table_size_with_its_own_mixture_plays_it_and_the_others_play_the_general_one(
        tmp_path):
    """Issue 24: `[mixture_at.N]` is the mixture of the N-player table alone (the
    strategies that hold differ by size); every other size plays `[mixture]`, and at a size
    a file gives no mixture for, it is a plain parameter file."""
    own = Mixture({"town": (Component(1.0, A),)}, found="for 15")
    p = tmp_path / "sized.toml"
    p.write_text(MIX.as_toml() + "\n" + own.as_toml(15), encoding="utf-8")
    assert load_mixture_file(p) == MIX and load_mixture_file(p, 14) == MIX
    assert load_mixture_file(p, 15) == own
    assert build_setup(players=15, params_file=p).mixture == own
    assert build_setup(players=14, params_file=p).mixture == MIX
    # the 15-player table plays exactly the sized mixture's games
    alone = tmp_path / "alone.toml"
    alone.write_text(own.as_toml(), encoding="utf-8")
    np.testing.assert_array_equal(rows(build_setup(players=15, params_file=p)),
                                  rows(build_setup(players=15, params_file=alone)))
    only = tmp_path / "only.toml"
    only.write_text(own.as_toml(15), encoding="utf-8")
    # at a size it gives no mixture for, the file is a plain parameter file: the shipped
    # mixture is drawn, as under any file without a [mixture]
    from sim.play.setup import shipped_mixture
    assert build_setup(players=14, params_file=only).mixture == shipped_mixture(14)


@pytest.mark.parametrize("text, words", [
    ('mixture_at = 3\n', "mixture_at must be a table of table sizes"),
    ('[mixture_at.twenty]\nfound = "x"\n', "mixture_at.twenty: a table size"),
    ('[mixture_at.20]\n[[mixture_at.20.town]]\nweight = 2.0\nparams = {}\n',
     "[mixture_at.20]"),
])
def test_a_bad_sized_mixture_is_named_whatever_the_table(tmp_path, capsys, text, words):
    p = tmp_path / "bad.toml"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as e:
        build_setup(players=14, params_file=p)
    assert words in str(e.value)
    assert main(["run", "--players", "14", "--games", "5", "--params", str(p),
                 "--quiet"]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1


def test_the_shipped_mixture_is_read_for_the_tables_size(monkeypatch, tmp_path):
    """The shipped profile may give a size its own mixture: a table of that size plays it
    by default, and the exploit/page checks compare against that size's shipped one."""
    import sim.play.setup as setup_mod

    own = Mixture({"town": (Component(1.0, A),)}, found="for 15")
    prof = tmp_path / "heuristic.toml"
    prof.write_text(MIX.as_toml() + "\n" + own.as_toml(15), encoding="utf-8")
    monkeypatch.setattr(setup_mod, "PROFILE", prof)
    monkeypatch.setattr(setup_mod, "_SHIPPED", {})
    assert setup_mod.shipped_mixture(15) == own and setup_mod.shipped_mixture(14) == MIX
    assert build_setup(players=15).mixture == own
    assert build_setup(players=14).mixture == MIX
