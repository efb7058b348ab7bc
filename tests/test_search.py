"""exploit and equilibrate (sim/analysis/search.py), and parameter files."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sim.analysis.search import (
    BestResponse,
    Evaluator,
    best_response,
    combinations,
    equilibrate,
    single_moves,
)
from sim.cli.main import main
from sim.game.errors import InputError
from sim.game.params import Value
from sim.game.roles import Winner
from sim.play.setup import build_setup, load_params_file


class FakeEvaluator(Evaluator):
    """Town wins game i when u_i < p(profile): common random numbers by game index, and a
    known best response (crowd 0, noise 0: the two helpful moves, combined)."""

    def winners(self, dev: Mapping[str, Value], start: int, n: int) -> np.ndarray:
        p = 0.5
        p += 0.10 * (float(dev.get("town.crowd", 0.35)) == 0.0)
        p += 0.05 * (float(dev.get("town.noise", 0.3)) == 0.0)
        p -= 0.05 * (float(dev.get("town.exposed", 6.0)) != 6.0)
        self.played += n
        u = np.random.default_rng(start).random(n)
        return np.where(u < p, int(Winner.TOWN), int(Winner.YAKUZA))


def test_search_finds_the_planted_best_response_with_a_fake_evaluator() -> None:
    setup = build_setup(None, players=12, single_profile=True)
    ev = FakeEvaluator(setup, seed=0)
    br = best_response(setup, "town", games=4000, budget=20_000, evaluator=ev)
    assert br.deviation == {"town.crowd": 0.0, "town.noise": 0.0}
    assert br.gain == pytest.approx(0.15, abs=0.03)
    assert 0 < br.low < br.gain < br.high
    assert br.tried > len(single_moves(setup, setup.agents.space("town"))) - 1


def test_combinations_take_the_best_value_of_each_helpful_dimension() -> None:
    singles: list[tuple[dict[str, Value], float]] = [
        ({"a.x": 1.0}, 0.02), ({"a.x": 2.0}, 0.05), ({"a.y": 0.0}, 0.03),
        ({"a.z": 1.0}, -0.01)]
    assert combinations(singles) == [{"a.x": 2.0, "a.y": 0.0}]


def test_exploit_finds_a_planted_town_blunder() -> None:
    # Town deaf to the commissar's announced checks: trusting them again must pay.
    setup = build_setup(None, players=12, single_profile=True,
                        params={"town.claim_trust": "0", "town.defend_at": "0.1"})
    br = best_response(setup, "town", seed=1, games=1500, budget=3000)
    assert br.gain > 0.02 and br.low > 0, br
    assert float(br.deviation.get("town.claim_trust", 0.0)) > 0.0, br


def test_exploit_json_schema(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["exploit", "--players", "12", "--games", "100", "--budget", "300",
               "--camp", "maniac", "--camp", "yakuza", "--single-profile", "--json",
               "--quiet"])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 100 and out["seed"] == 0
    assert set(out["camps"]) == {"maniac", "yakuza"}
    for c in out["camps"].values():
        assert {"gain", "low", "high", "deviation", "tried"} <= set(c)
        assert -1 <= c["low"] <= c["gain"] <= c["high"] <= 1
        assert c["tried"] > 0 and c["deviation"]
        for name in c["deviation"]:
            assert name.split(".")[0] in ("maniac", "yakuza")


def _fake_respond(profile_gain: dict[str, float]) -> Any:
    def respond(setup: Any, *, camps: Any, **kw: Any) -> dict[str, BestResponse]:
        crowd = float(setup.agents.params.get("town.crowd", 0.7))  # 0.7: the profile's
        g = profile_gain[f"{crowd:g}"]
        nxt = 0.0 if crowd != 0.0 else 0.7
        return {"town": BestResponse("town", g, g - 0.01, g + 0.01, {"town.crowd": nxt}, 3)}
    return respond


def test_equilibrate_stops_when_no_camp_gains() -> None:
    setup = build_setup(None, players=12)
    eq = equilibrate(setup, camps=["town"], respond=_fake_respond({"0.7": 0.05, "0": 0.0}))
    assert eq.status == "converged" and eq.profile == {"town.crowd": 0.0} and eq.round == 2


def test_equilibrate_reports_a_cycle_and_picks_the_smallest_largest_gain() -> None:
    setup = build_setup(None, players=12)
    eq = equilibrate(setup, camps=["town"], respond=_fake_respond({"0.7": 0.05, "0": 0.03}))
    assert eq.status == "cycle" and eq.cycle == [1, 2]
    assert eq.profile == {"town.crowd": 0.0} and eq.max_gain() == pytest.approx(0.03)
    assert len(eq.rounds) == 2


def test_equilibrate_writes_a_file_run_accepts(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "profile.toml"
    rc = main(["equilibrate", "--players", "12", "--games", "60", "--budget", "150",
               "--rounds", "2", "--camp", "maniac", "--tolerance", "0.5", "--out", str(out),
               "--quiet", "--json"])
    assert rc == 0
    res = json.loads(capsys.readouterr().out)
    assert res["status"] == "converged" and res["rounds"][0]["gains"]["maniac"]["tried"] > 0
    text = out.read_text()
    assert text.startswith("# mafia-sim equilibrate") and "seed 0" in text
    assert "[params]" in tomllib.loads(text) or tomllib.loads(text) == {"params": {}}
    assert main(["run", "--players", "12", "--games", "20", "--params", str(out),
                 "--json", "--quiet"]) == 0


def test_params_file_values_and_overrides(tmp_path: Path) -> None:
    pf = tmp_path / "p.toml"
    pf.write_text('[params]\n"town.crowd" = 0.15\n"thug.beat" = 0.5\n')
    s = build_setup(None, players=12, params_file=pf, params={"thug.beat": "0"})
    assert s.agents.params["town.crowd"] == 0.15 and s.agents.params["thug.beat"] == 0.0
    (tmp_path / "setup.toml").write_text('players = 12\n[agents]\nparams_file = "p.toml"\n'
                                         '[agents.params]\n"town.crowd" = 0.7\n')
    s = build_setup(tomllib.loads((tmp_path / "setup.toml").read_text()),
                    where=str(tmp_path / "setup.toml"))
    assert s.agents.params["town.crowd"] == 0.7 and s.agents.params["thug.beat"] == 0.5
    assert load_params_file(pf) == {"town.crowd": 0.15, "thug.beat": 0.5}


@pytest.mark.parametrize("body, match", [
    ('[params]\n"town.crowd" = 9\n', r"p\.toml: agent parameter town\.crowd must be in"),
    ('[params]\n"town.crowdy" = 1\n', r"p\.toml: unknown agent parameter 'town\.crowdy'"),
    ('[params]\nx = \n', r"p\.toml: malformed TOML: .*line 2"),
    ('[agents]\nx = 1\n', r"p\.toml: unknown key\(s\) agents"),
])
def test_params_file_errors_name_the_file(tmp_path: Path, body: str, match: str) -> None:
    pf = tmp_path / "p.toml"
    pf.write_text(body)
    with pytest.raises(InputError, match=match) as e:
        build_setup(None, players=12, params_file=pf)
    assert "\n" not in str(e.value)


def test_missing_params_file_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--players", "12", "--games", "5", "--params", "/nonexistent.toml"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "/nonexistent.toml" in err


def test_a_deviation_starts_from_the_profile_not_the_declared_default() -> None:
    """The shipped profile sets clan.rope_claim and town.crowd: exploit's moves start from
    those values (a move to the profile's own value would be no move at all), and the
    declared default is one of the moves; a user's value wins over both."""
    from sim.analysis.search import camp_space, current_value

    setup = build_setup(players=25)
    dims = {d.name: d for c in ("yakuza", "town") for d in camp_space(setup, c)}
    assert current_value(setup, dims["yakuza.rope_claim"]) == 0.2  # "clan.rope_claim"
    assert current_value(setup, dims["town.crowd"]) == 0.7
    moves = [m for m in single_moves(setup, [dims["town.crowd"]])]
    assert {"town.crowd": 0.7} not in moves and {"town.crowd": 0.35} in moves
    mine = build_setup(players=25, params={"town.crowd": "0"})
    assert current_value(mine, dims["town.crowd"]) == 0.0


class ChainEvaluator(Evaluator):
    """Town's answer is a chain of three changes: crowd 0 gains alone; a hero's silence
    (counter 0) gains only with it; a harder reading of disputed claims (counterclaim 3)
    only with both. Games on common random numbers by index, as FakeEvaluator."""

    def winners(self, dev: Mapping[str, Value], start: int, n: int) -> np.ndarray:
        crowd = float(dev.get("town.crowd", 0.7)) == 0.0
        silent = crowd and float(dev.get("town.counter", 1.0)) == 0.0
        hard = silent and float(dev.get("town.counterclaim", 1.5)) == 3.0
        p = 0.4 + 0.08 * crowd + 0.06 * silent + 0.08 * hard
        self.played += n
        u = np.random.default_rng(start).random(n)
        return np.where(u < p, int(Winner.TOWN), int(Winner.YAKUZA))


def test_coordinate_ascent_reaches_a_combination_whose_parts_gain_nothing_alone() -> None:
    """Issue 24: Town's four-change answer was missed at 25 and 30 players because the
    search combined only single moves that gained alone. The ascent from the selection's
    winner adds one parameter at a time on top of it, so a chain is reached."""
    import sim.analysis.search as search

    setup = build_setup(None, players=12, single_profile=True)
    # the answers found before are not what finds it here
    no_answers = pytest.MonkeyPatch()
    no_answers.setattr(search, "answers_text", lambda: "")
    try:
        br = best_response(setup, "town", games=4000, budget=40_000,
                           evaluator=ChainEvaluator(setup, seed=0))
    finally:
        no_answers.undo()
    assert br.deviation["town.crowd"] == 0.0
    assert br.deviation["town.counter"] == 0.0
    assert br.deviation["town.counterclaim"] == 3.0
    assert br.gain == pytest.approx(0.22, abs=0.03)


def test_without_the_ascent_the_chain_is_missed() -> None:
    """The test above can fail: with no ascent steps the search stops at crowd 0."""
    import sim.analysis.search as search

    setup = build_setup(None, players=12, single_profile=True)
    mp = pytest.MonkeyPatch()
    mp.setattr(search, "answers_text", lambda: "")
    mp.setattr(search, "ASCENT_STEPS", 0)
    try:
        br = best_response(setup, "town", games=4000, budget=40_000,
                           evaluator=ChainEvaluator(setup, seed=0))
    finally:
        mp.undo()
    assert br.deviation.get("town.counterclaim") != 3.0
    assert br.gain < 0.15


def test_an_answer_found_before_is_replayed_and_confirmed(monkeypatch) -> None:
    """sim/data/answers.toml: an answer another search found is a candidate of every
    search's final stage, so a search that finds nothing of it still reports it, with the
    gain its confirming games measure."""
    import sim.analysis.search as search

    monkeypatch.setattr(search, "answers_text", lambda: (
        '[[answer]]\ncamp = "town"\nparams = { "town.crowd" = 0.0, "town.counter" = 0.0, '
        '"town.counterclaim" = 3.0, "not.seated" = 1.0 }\nfound = "a test"\n'
        '[[answer]]\ncamp = "yakuza"\nparams = { "yakuza.noise" = 0.0 }\nfound = "a test"\n'))
    monkeypatch.setattr(search, "ASCENT_STEPS", 0)
    monkeypatch.setattr(search, "_select",
                        lambda ev, camp, pool, budget, **kw: search._Found({}, 1, 0))
    setup = build_setup(None, players=12, single_profile=True)
    assert search.known_answers(setup, "town") == [
        {"town.crowd": 0.0, "town.counter": 0.0, "town.counterclaim": 3.0}]
    br = best_response(setup, "town", games=4000, budget=1000,
                       evaluator=ChainEvaluator(setup, seed=0))
    assert br.deviation == {"town.crowd": 0.0, "town.counter": 0.0,
                            "town.counterclaim": 3.0}
    assert br.gain == pytest.approx(0.22, abs=0.03) and br.tried == 2


def test_the_committed_answers_name_their_camps_parameters() -> None:
    """Every answer of sim/data/answers.toml is a deviation of its camp at the standard
    tables (a misspelt parameter would be dropped silently) and says where it was found."""
    import tomllib

    from sim.analysis.search import answers_text, camp_space

    entries = tomllib.loads(answers_text())["answer"]
    assert entries
    setups = [build_setup(None, players=n) for n in (20, 25, 30)]
    for e in entries:
        assert e["found"]
        for s in setups:
            names = {d.name for d in camp_space(s, e["camp"])}
            assert set(e["params"]) <= names, (e["camp"], set(e["params"]) - names)


def test_decompose_answer_plays_each_part_on_the_confirming_games() -> None:
    """scripts/decompose_answer.py: each change alone, each leave-one-out (three or more
    changes) and the whole answer; the whole answer's row is what compare finds on exploit's
    confirming range; a misspelt parameter is one line and exit 2."""
    import subprocess
    import sys

    from sim.analysis.compare import paired_compare
    from sim.analysis.search import CONFIRM_BASE
    from sim.play.runner import run

    script = Path(__file__).resolve().parent.parent / "scripts" / "decompose_answer.py"
    args = [sys.executable, str(script), "--players", "14", "--games", "120", "--seed", "3",
            "--camp", "town", "--param", "town.counter=0", "--param", "town.defend_at=0.1",
            "--param", "ninja.threshold=0.6"]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()[1:]
    assert len(lines) == 3 + 3 + 1 and lines[-1].split()[0] == "all"
    rows = []
    for params in ({}, {"town.counter": "0", "town.defend_at": "0.1",
                        "ninja.threshold": "0.6"}):
        res = run(build_setup(None, players=14, params=params), games=120, seed=3,
                  start=CONFIRM_BASE, keep_rows=True)
        assert res.rows is not None
        rows.append(res.rows[:, 1])
    gain = paired_compare(rows[0], rows[1])["town"]["diff"]
    assert float(lines[-1].split()[1]) == pytest.approx(gain * 100, abs=0.006)
    bad = subprocess.run([*args[:-6], "--param", "town.countr=0"], capture_output=True,
                         text=True)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
    assert "countr" in bad.stderr
