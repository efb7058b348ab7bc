"""The day's talk entered by a host (issue 25, point 3): claims and announced checks, public
or on the channels R2.7 allows, in order; in the turn's record and the game file; read by
`resolve`; weighed by the odds."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest

from sim.analysis.odds import odds
from sim.play.resolve import resolve
from sim.play.setup import build_setup

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def game(turns: int = 3) -> dict:
    g = json.loads((EXAMPLES / "kamikaze_meets_thug.json").read_text(encoding="utf-8"))
    g["turns"] = g["turns"][:turns]
    return g


#: Sergei, the sergeant (the badge is his since Anna, the commissar, died on turn 1, R7.5),
#: says who he is and that his check found Yuri in the Yakuza (which is true)
TALK = [{"by": "Sergei", "kind": "claim", "value": "sergeant"},
        {"by": "Sergei", "kind": "check", "target": "Yuri", "value": "yakuza"}]


def test_R2_7_resolve_gives_the_days_talk_in_order_as_data_and_in_words():
    g = game()
    g["turns"].append({"statements": TALK})
    turn = resolve(g)["turns"][-1]
    assert turn["statements"] == TALK
    ru, en = turn["talk"]["ru"], turn["talk"]["en"]
    assert len(ru) == len(en) == 2
    assert "заявляет: я сержант" in ru[0] and "Yuri — Якудза" in ru[1]
    assert "announces a check: Yuri is Yakuza" in en[1]
    assert resolve(game())["turns"][-1]["statements"] == []


def test_R2_7_a_private_statement_keeps_its_channel_in_the_record():
    g = game()
    g["turns"].append({"statements": [
        {"by": "Yuri", "kind": "accuse", "target": "Olga", "channel": "clan"}]})
    turn = resolve(g)["turns"][-1]
    assert turn["statements"][0]["channel"] == "clan"
    assert "в чате клана Якудзы" in turn["talk"]["ru"][0]


def test_the_odds_weigh_the_days_talk():
    """The same position, with and without the sergeant's announced check, on the same random
    numbers: the Yakuza, exposed, win clearly less often (before, the odds played the game
    file's turns without its talk, and both gave the same figures)."""
    setup = build_setup(None)
    quiet, talk = game(), game()
    quiet["turns"].append({})
    talk["turns"].append({"statements": TALK})
    a = odds(quiet, setup, games=1000, seed=3, jobs=1)["camps"]["yakuza"]["share"]
    b = odds(talk, setup, games=1000, seed=3, jobs=1)["camps"]["yakuza"]["share"]
    assert b < a - 0.04, (a, b)


# -- on the page ---------------------------------------------------------------------------------
pytest.importorskip("starlette")
pytest.importorskip("httpx")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from sim.web.app import create_app  # noqa: E402


@pytest.fixture
def client():
    with TestClient(create_app()) as c:
        yield c


def load(client, g: dict):
    return client.post("/host/load", files={"file": ("g.json", json.dumps(g).encode(),
                                                      "application/json")},
                       headers={"hx-request": "true"})


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_a_claim_entered_on_the_page_is_in_the_record_and_the_game_file(client):
    r = load(client, game())
    assert 'id="says"' in r.text
    # the row grows its controls as the host picks: a claim asks for the role
    r = client.post("/host/turn", data={"says": "0", "say_by_0": "1", "say_kind_0": "claim"})
    assert 'id="say_value_0"' in r.text and 'id="say_target_0"' not in r.text
    r = client.post("/host/turn", data={"says": "0", "say_by_0": "1", "say_kind_0": "check"})
    assert 'id="say_value_0"' in r.text and 'id="say_target_0"' in r.text
    draft = {"says": "2", "say_by_0": "1", "say_kind_0": "claim", "say_value_0": "sergeant",
             "say_by_1": "1", "say_kind_1": "check", "say_target_1": "6",
             "say_value_1": "yakuza", "votes": "1", "voter_0": "1", "target_0": "14",
             "action": "resolve"}
    r = client.post("/host/turn", data=draft)
    assert not re.findall(r'class="(?:msg|error)"', r.text)
    record = re.search(r'id="talk-2">(.*?)</div>', r.text, re.S)
    assert record is not None
    assert "заявляет: я сержант" in record.group(1) and "Yuri — Якудза" in record.group(1)
    saved = client.get("/host/save").json()
    assert saved["turns"][-1]["statements"] == TALK
    assert resolve(saved)["turns"][-1]["statements"] == TALK  # resolve reads it back


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_R16_6_a_dead_players_statement_is_refused_beside_its_row(client):
    load(client, game())
    r = client.post("/host/turn", data={"says": "1", "say_by_0": "0", "say_kind_0": "claim",
                                        "say_value_0": "commissar", "action": "resolve"})
    shown = re.findall(r'id="say-0-msg">([^<]*)<', r.text)
    assert shown and "R16.6" in shown[0]
    assert 'id="turn-3"' not in r.text  # not resolved


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_R2_7_a_private_channel_the_speaker_lacks_is_refused(client):
    load(client, game())
    # Olga, a civilian, cannot speak in a clan's chat
    r = client.post("/host/turn", data={"says": "1", "say_by_0": "14", "say_kind_0": "accuse",
                                        "say_target_0": "6", "say_channel_0": "clan",
                                        "action": "resolve"})
    shown = re.findall(r'id="say-0-msg">([^<]*)<', r.text)
    assert shown and "R2.7" in shown[0]
