"""The Russian page, word by word (issue 25, point 1): every message a host's wrong input or
an illegal request produces is Russian, with no Latin word apart from player names and rule
ids; the page's code names (check results, game-over reasons, rule options, compositions) are
worded as a host says them; numbers and percents are written the Russian way."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from sim.web.app import create_app

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

RULE_ID = re.compile(r"\b[RDP]\d+(\.\d+)?\b")
LATIN = re.compile(r"[A-Za-z]{2,}")
#: the shown messages: beside a control (class msg) or above a form (class error)
SHOWN = re.compile(r'<(?:span|p) class="(?:msg|error)"[^>]*>(.*?)</(?:span|p)>', re.S)
NAMES_RU = ["Анна", "Сергей", "Нина", "Док", "Некро", "Мания", "Юрий", "Ян", "Кэндзи",
            "Ёси", "Вэй", "Ву", "Ли", "Тао", "Ольга", "Борис", "Макс", "Павел", "Вера", "Глеб"]


@pytest.fixture
def ru():
    with TestClient(create_app()) as c:  # no cookie: the Russian page, the default
        yield c


def latin_left(text: str, names: list[str] = ()) -> list[str]:
    """The Latin words of a message, apart from rule ids, player names and what the host
    typed, quoted back to him («abc», 'nan')."""
    text = RULE_ID.sub(" ", text)
    text = re.sub(r"«[^»]*»|&#39;[^&]*&#39;|'[^']*'", " ", text)
    for n in sorted(names, key=len, reverse=True):
        text = text.replace(n, " ")
    return LATIN.findall(re.sub(r"<[^>]+>", " ", text))


def messages(html: str) -> list[str]:
    return [re.sub(r"\s+", " ", m).strip() for m in SHOWN.findall(html)]


def russian_game() -> dict:
    """The kamikaze example with Russian names (so that a Latin word is a defect)."""
    text = (EXAMPLES / "kamikaze_meets_thug.json").read_text(encoding="utf-8")
    game = json.loads(text)
    latin = [p["name"] for p in game["players"]]
    mapping = dict(zip(latin, NAMES_RU, strict=True))
    text = json.dumps(game, ensure_ascii=False)
    for a in sorted(latin, key=len, reverse=True):
        text = re.sub(rf'"{a}"', f'"{mapping[a]}"', text)
    return json.loads(text)


def load(client: TestClient, game: dict):
    return client.post("/host/load", files={"file": ("игра.json", json.dumps(
        game, ensure_ascii=False).encode(), "application/json")}, headers={"hx-request": "true"})


def assert_russian(html: str, names: list[str] = ()) -> list[str]:
    shown = messages(html)
    assert shown, "no message shown"
    for m in shown:
        assert latin_left(m, names) == [], m
        assert re.search("[а-яА-ЯёЁ]", m), m
    return shown


# -- the table form ----------------------------------------------------------------------------
@pytest.mark.parametrize("control,value", [
    ("civilian", "abc"), ("civilian", "-3"), ("civilian", "99999999999999999999"),
    ("games", "50"), ("seed", "-1"), ("turn_limit", "0"), ("vote_rejection", "2"),
    ("vote_rejection", "nan"), ("abstention_limit", "../../etc/passwd"), ("civilian", ""),
])
def test_table_form_errors_are_russian(ru, control, value):
    from tests.test_web import standard_form

    r = ru.post("/table", data=standard_form(**{control: value}))
    assert_russian(r.text)


@pytest.mark.parametrize("over", [{"commissar": "0"}, {"yakuza_vsb": "0"},
                                  {"doctor": "2"}, {"triad_mafioso": "0"}, {"civilian": "60"}])
def test_composition_faults_are_russian(ru, over):
    """D2.1's faults, with the rule option a host would switch named as on the page."""
    from tests.test_web import standard_form

    r = ru.post("/table", data=standard_form(**over))
    shown = assert_russian(r.text)
    if over == {"yakuza_vsb": "0"}:
        assert any("ВСБ в каждом клане" in m for m in shown)  # the option, by its label


# -- hosting a game --------------------------------------------------------------------------------
def test_starting_with_blank_names_is_russian(ru):
    r = ru.post("/host/players", data={"count": "0", "action": "standard", "players": "12"})
    r = ru.post("/host/players", data={"count": "12", "action": "start"})
    shown = assert_russian(r.text)
    assert any("игрок 1" in m and "впишите имя" in m for m in shown)  # counted from one


def test_illegal_requests_are_refused_in_russian(ru):
    game = russian_game()
    names = [p["name"] for p in game["players"]]
    r = load(ru, game)
    assert 'id="turn-form"' in r.text
    # turn 2: Анна died on turn 1 (the kamikaze's blast); her vote is refused (P3.2)
    r = ru.post("/host/turn", data={"votes": "0", "voter_0": "0", "target_0": "1",
                                    "action": "resolve"})
    shown = assert_russian(r.text, names)
    assert any("P3.2" in m for m in shown)
    # a vote for oneself (P5.1), and the thug beating himself on a loaded file (P10.1)
    r = ru.post("/host/turn", data={"votes": "0", "voter_0": "1", "target_0": "1",
                                    "action": "resolve"})
    assert any("P5.1" in m for m in assert_russian(r.text, names))
    bad = russian_game()
    bad["turns"][1]["night"]["thug"]["target"] = bad["turns"][1]["night"]["thug"].get(
        "target")
    thug = next(p["name"] for p in bad["players"] if p["role"] == "thug")
    bad["turns"][1]["night"]["thug"]["target"] = thug
    r = load(ru, bad)
    assert any("P10.1" in m for m in assert_russian(r.text, names))


@pytest.mark.parametrize("data", [b"{not json", b"\xff\xfe\x00", b"[]", b" " * (600 * 1024),
                                  b'{"players": [{"name": "", "role": "civilian"}]}'])
def test_bad_game_files_are_russian(ru, data):
    r = ru.post("/host/load", files={"file": ("игра.json", data, "application/json")},
                headers={"hx-request": "true"})
    shown = messages(r.text)
    assert shown
    for m in shown:
        assert re.search("[а-яА-ЯёЁ]", m), m
        # a malformed file may quote the file's own field names ("players"), nothing else
        assert set(latin_left(m.replace("игра.json", ""))) <= {"JSON", "UTF"}, m


def test_the_page_own_refusals_and_error_pages_are_russian(ru):
    assert_russian(ru.get("/host/save").text)
    assert_russian(ru.post("/host/odds", data={"odds_games": "200"}).text)
    for r in (ru.get("/нет-такой"), ru.put("/host/turn"),
              ru.post("/host/load", content=b"x" * (3 * 1024 * 1024),
                      headers={"content-type": "application/octet-stream"})):
        assert r.status_code in (404, 405, 413)
        assert_russian(r.text)


def test_checks_and_the_end_of_a_game_are_worded(ru):
    game = json.loads((EXAMPLES / "duel.json").read_text(encoding="utf-8"))
    r = load(ru, game)
    over = re.search(r'id="game-over">(.*?)</p>', r.text, re.S)
    if over is not None:
        assert not re.search(r"[a-z]+_[a-z]+", over.group(1))  # no vsb_pair, nobody_alive
    checks = re.findall(r'<div class="checks">(.*?)</div>', r.text, re.S)
    for block in checks:
        assert not re.search(r"<b>(triad|yakuza|civilian|vsb:[a-z]+)</b>", block)


def test_rule_options_are_labelled_as_a_host_says_them(ru):
    html = ru.get("/").text
    panel = re.search(r'<details class="rules".*?</details>', html, re.S)
    assert panel is not None
    labels = re.findall(r"<label[^>]*>(.*?)</label>", panel.group(0), re.S)
    assert labels
    for label in labels:
        assert latin_left(re.sub(r"<input[^>]*>", "", label)) == [], label


def test_the_recommended_table_is_written_as_a_host_writes_it(ru):
    from tests.test_web import standard_form

    r = ru.post("/table", data=standard_form())
    words = re.search(r'id="rec-words">(.*?)</p>', r.text, re.S)
    assert words is not None, "no recommendation box"
    assert "мирных жителей" in words.group(1) and "Якудза:" in words.group(1)
    assert "*" not in words.group(1) and "=" not in words.group(1)
