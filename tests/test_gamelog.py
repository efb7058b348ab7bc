"""`mafia-sim replay --log / --json` (sim/engine/gamelog.py): a played game written out in full, and
in the resolve schema. Resolving the written game gives the same game: the same winner,
reason and last turn, and the same deaths (player, cause, step) turn by turn."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sim.engine.gamelog import game_json, game_log
from sim.game.errors import InputError
from sim.play.resolve import resolve
from sim.play.runner import replay
from sim.play.setup import build_setup

ROOT = Path(__file__).resolve().parent.parent

#: rule options a played game can contain: the host's attrition (D16.1), rejected votes
#: (D5.2, the host's chance), roles revealed at night
ATTRITION = {"p_absent": "0.05", "p_no_vote": "0.1", "p_rule_break": "0.02",
             "p_passive": "0.02"}
CHANCE = {"vote_rejection": "0.2", "reveal_night_roles": "true", "abstention_limit": "1"}


def _deaths(turns: list[dict[str, Any]]) -> list[list[tuple[str, str, int]]]:
    return [[(d["player"], d["cause"], d["step"]) for d in t["deaths"]] for t in turns]


def _round_trip(players: int | None, rules: dict[str, str], games: int, seed: int,
                roles: str | None = None) -> set[str]:
    setup = build_setup(None, players=players, roles=roles, rules=rules)
    reasons = set()
    for i in range(games):
        game = replay(setup, seed, i)
        data = json.loads(json.dumps(game_json(game)))  # through text, as a file would
        got = resolve(data)
        assert game.outcome is not None
        assert got["outcome"] == game.outcome.as_dict(), (players, rules, i)
        want = [[(game.st.names[d.seat], d.cause.key, d.step) for d in rep.deaths]
                for rep in game.reports]
        assert _deaths(got["turns"]) == want, (players, rules, i)
        assert len(got["turns"]) == len(game.reports) == game.outcome.turn + 1
        reasons.add(game.outcome.reason.key)
    return reasons


@pytest.mark.parametrize("players", [12, 25, 30])
def test_round_trip_default_agents(players: int) -> None:
    _round_trip(players, {}, 60, seed=3)


@pytest.mark.parametrize("players", [12, 25, 30])
def test_round_trip_with_attrition_and_host_chance(players: int) -> None:
    _round_trip(players, {**ATTRITION, **CHANCE}, 40, seed=5)


def test_round_trip_duel_coin() -> None:
    # the maniac kills one of two civilians on turn 0: a duel nobody voted in, the coin
    reasons = _round_trip(None, {"require_vsb": "false"}, 20, seed=1,
                          roles="civilian*2,maniac")
    assert "duel_coin" in reasons


def test_round_trip_duplicate_roles() -> None:
    # two doctors and two ninjas: the night's requests of one role are a list
    _round_trip(None, {"allow_duplicate_roles": "true"}, 30, seed=2,
                roles="civilian*6,commissar,sergeant,ninja*2,doctor*2,necromancer,maniac,"
                      "yakuza=mafioso*2+kamikaze+vsb,triad=mafioso*2+thug+vsb")


def test_json_writes_the_hosts_chance() -> None:
    setup = build_setup(None, players=12, rules={"vote_rejection": "0.3"})
    data = game_json(replay(setup, 0, 0))
    assert data["chance"] == "script"
    assert data["rules"] == {"vote_rejection": 0.3}
    assert set(data["dons"]) == {"yakuza", "triad"}
    votes = [v for t in data["turns"] for v in t.get("votes", [])]
    assert any(len(v) == 3 and v[2] == "rejected" for v in votes)
    assert data["turns"][0].keys() <= {"night"}  # turn 0: the maniac alone (R3.1)


def _coin_game(**turn: Any) -> dict[str, Any]:
    return {"players": [{"name": "A", "role": "civilian"}, {"name": "B", "role": "civilian"},
                        {"name": "M", "role": "maniac"}],
            "rules": {"require_vsb": False}, "chance": "script",
            "turns": [{"night": {"maniac": {"target": "A"}}, **turn}]}


def test_scripted_coin() -> None:
    assert resolve(_coin_game(coin="B"))["outcome"]["winner"] == "town"
    assert resolve(_coin_game(coin="M"))["outcome"]["winner"] == "maniac"
    with pytest.raises(InputError, match="coin"):
        resolve(_coin_game())
    with pytest.raises(InputError, match="not in the duel"):
        resolve(_coin_game(coin="A"))
    game = _coin_game(coin="B")
    del game["chance"]
    with pytest.raises(InputError, match="script"):
        resolve(game)


def test_scripted_rejections_need_the_rule() -> None:
    game = _coin_game()
    game["turns"] = [{}, {"votes": [["A", "M", "rejected"]]}]
    with pytest.raises(InputError, match="vote_rejection"):
        resolve(game)
    game["rules"]["vote_rejection"] = 0.5
    out = resolve(game)
    assert out["turns"][1]["hanged"] is None  # the only vote was rejected
    game["turns"][1]["votes"] = [["A", "M"]]
    assert resolve(game)["turns"][1]["hanged"] == "M"  # a scripted vote is never rejected


def test_log_in_full() -> None:
    setup = build_setup(None, players=25, rules={"vote_rejection": "0.2"})
    game = replay(setup, 0, 1)
    en = game_log(game, "en")
    ru = game_log(game, "ru")
    names = game.st.names
    # every vote, in the order cast
    first_day = en.split("=== Turn 1 ===")[1].split("=== Turn 2 ===")[0]
    votes = [ev for ev in game.log if ev[0] == "vote" and ev[1] == 1]
    lines = [ln.strip() for ln in first_day.splitlines() if ln.strip()[:1].isdigit()]
    assert len(lines) == len(votes) > 0
    for ln, ev in zip(lines, votes, strict=True):
        assert ln.split(". ", 1)[1].startswith(f"{names[ev[2]]} (")
        assert f"-> {names[ev[3]]} (" in ln
    assert "rejected by the host" in en and "голос не принят ведущим" in ru
    assert "private, Yakuza clan channel" in en and "в чате клана Якудзы" in ru
    assert "no action" in en and "нет заявки" in ru
    assert "The host's resolution" in en and "Решение ведущего" in ru
    for word in ("комиссар", "мирный житель", "маньяк", "Газета, ход 1."):
        assert word in ru
    o = game.outcome
    assert o is not None and f"(turn {o.turn}," in en.splitlines()[-1]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sim", *args], cwd=ROOT, text=True,
                          capture_output=True, timeout=120, check=False)


def test_cli_replay_json_resolves(tmp_path: Path) -> None:
    common = ["replay", "--players", "12", "--seed", "4", "--game", "2"]
    out = _cli(*common, "--json")
    assert out.returncode == 0, out.stderr
    path = tmp_path / "game.json"
    path.write_text(out.stdout, encoding="utf-8")
    res = _cli("resolve", str(path))
    assert res.returncode == 0, res.stderr
    log = _cli(*common, "--log", "--lang", "ru")
    assert log.returncode == 0 and "=== Ход 1 ===" in log.stdout
    plain = _cli(*common)  # without --log/--json: the roles and the newspapers, as before
    assert plain.stdout.startswith("Roles: ") and "=== " not in plain.stdout
    winner = json.loads(res.stdout)["outcome"]["winner"]
    assert winner is not None


def test_round_trip_private_statement_to_a_checked_player() -> None:
    from sim.engine.game import Game
    from sim.game.requests import Check, NightRequests, TurnInput
    from sim.game.roles import Role
    from sim.game.rules import Composition, RuleSet
    from sim.game.talk import Statement

    game = Game(Composition.standard(12), RuleSet(abstention_limit=0), record=True)
    com = game.st.seats_by_role[Role.COMMISSAR][0]
    doc = game.st.seats_by_role[Role.DOCTOR][0]
    game.play_turn(TurnInput())
    game.play_turn(TurnInput(night=NightRequests(actions={com: Check(doc)})))
    game.say(Statement(2, com, "claim", value="commissar", channel="checked", to=doc))
    game.play_turn(TurnInput())
    data = game_json(game)
    said = data["turns"][2]["statements"]
    names = game.st.names
    assert said == [{"by": names[com], "kind": "claim", "value": "commissar",
                     "channel": "checked", "to": names[doc]}]
    assert len(resolve(data)["turns"]) == 3
    assert f"[private, to {names[doc]}]" in game_log(game, "en")
    assert f"[лично для {names[doc]}]" in game_log(game, "ru")


def test_P5_5_a_public_statement_is_printed_where_it_was_said_among_the_votes() -> None:
    """The log listed every statement before the votes, so a claim made under the rope
    read as one made before the vote. Now it stands after the vote that preceded it."""
    import re

    setup = build_setup(None, players=25)
    found = 0
    for i in range(40):
        game = replay(setup, 11, i)
        lines = game_log(game, "en").splitlines()
        for k, line in enumerate(lines):
            if line.lstrip().startswith("— here:"):
                found += 1
                previous = lines[k - 1]
                if not previous.lstrip().startswith("— here:"):
                    assert re.match(r"^\s+\d+\. ", previous), previous
        mid = sum(1 for stmt, at in zip(game.public.statements, game.public.said_at,
                                        strict=True) if at > 0)
        assert sum(1 for line in lines if line.lstrip().startswith("— here:")) == mid
    assert found > 0
