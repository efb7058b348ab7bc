"""The page for hosts at the server level (Starlette's test client): every endpoint, with
good and bad input. A bad value gets a message beside its control, never a trace or a 500."""

from __future__ import annotations

import csv
import json
import re
import threading
import time
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2; httpx works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from sim.cli.main import main
from sim.web.app import MAX_BODY, create_app
from sim.web.live import Live, Registry

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client():
    """The English page: these tests check the page's behaviour through its English words
    (tests/test_web_russian.py checks the Russian page, the default, word by word)."""
    with TestClient(create_app(), cookies={"lang": "en"}) as c:
        yield c


@pytest.fixture
def ru_client():
    """The Russian page, the default (no language cookie)."""
    with TestClient(create_app()) as c:
        yield c


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def no_trace(r) -> None:
    assert r.status_code < 500, r.text[:500]
    assert "Traceback" not in r.text and 'File "' not in r.text


def standard_form(**over: str) -> dict[str, str]:
    form = {"civilian": "9", "commissar": "1", "sergeant": "1", "ninja": "1", "doctor": "1",
            "necromancer": "1", "maniac": "1", "yakuza_mafioso": "3", "kamikaze": "1",
            "yakuza_vsb": "1", "triad_mafioso": "3", "thug": "1", "triad_vsb": "1",
            "games": "200", "seed": "0", "require_vsb": "on", "maniac_vest": "on",
            "maniac_ambush": "on", "duel": "on", "abstention_limit": "2", "turn_limit": "100"}
    form.update(over)
    return form


def wait_live(client: TestClient, path: str, marker: str, timeout: float = 120) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = client.get(path)
        no_trace(r)
        if marker in r.text:
            return r.text
        time.sleep(0.2)
    raise AssertionError(f"{path} never showed {marker!r}")


# -- pages and assets ---------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/", "/compare", "/host"])
def test_pages_open_with_no_external_asset(ru_client, path):
    r = ru_client.get(path)
    assert r.status_code == 200
    assert "/static/htmx.min.js" in r.text
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", r.text)
    assert 'lang="ru"' in r.text  # Russian first


def test_static_assets_are_shipped(client):
    for name in ("htmx.min.js", "style.css", "page.js"):
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/static/../app.py").status_code == 404


def test_unknown_page_and_method(client):
    r = client.get("/nope")
    assert r.status_code == 404 and "No such page" in r.text
    r = client.delete("/table")
    assert r.status_code == 405
    no_trace(r)


def test_language_switch_keeps_to_local_paths(client):
    r = client.get("/lang/en?next=/host", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/host"
    assert client.get("/host").text.count("Host a game") >= 1
    r = client.get("/lang/ru?next=//evil.example/x", follow_redirects=False)
    assert r.headers["location"] == "/"
    r = client.get("/lang/xx?next=/", follow_redirects=False)
    assert r.status_code == 303
    assert "Провести игру" in client.get("/").text


# -- pick a table -------------------------------------------------------------------------------
def test_table_shows_numbers_and_the_recommendation(client):
    r = client.post("/table", data=standard_form())
    no_trace(r)
    with (Path(__file__).resolve().parent.parent / "results" / "recommended.csv").open() as f:
        rec = next(row for row in csv.DictReader(f) if row["players"] == "25")
    assert 'id="recommendation"' in r.text and rec["composition"] in r.text  # results/
    html = wait_live(client, "/table/live", 'id="finished"')
    assert 'id="shares"' in html and "<svg" in html
    shares = [float(x) for x in re.findall(r'class="share">([0-9.]+)%', html)]
    assert len(shares) == 5 and abs(sum(shares) - 100) < 1


def test_table_shows_nash_conv_beside_the_shares(client, tmp_path, monkeypatch):
    """Issue 24: on a standard table with the default rules and agents, the finished run
    shows each camp's best gain by playing differently and NashConv, from
    sim/data/nash_conv.csv (scripts/nash_conv.py); another table says it is not measured."""
    import sim.web.app

    cols = ["players", "profile"] + [f"{c}_{k}" for c in ("town", "yakuza", "triad", "maniac")
                                     for k in ("gain", "low", "high", "tried", "deviation")]
    cols += ["nash_conv", "nash_conv_low", "nash_conv_high", "games", "date"]
    row = {"players": "25", "profile": "default", "nash_conv": "0.031",
           "nash_conv_low": "0.01", "nash_conv_high": "0.06", "games": "3000",
           "date": "2026-12-03"}
    for k, c in enumerate(("town", "yakuza", "triad", "maniac")):
        row |= {f"{c}_gain": f"0.0{k}2", f"{c}_low": "-0.01", f"{c}_high": "0.02",
                f"{c}_tried": "31", f"{c}_deviation": ""}
    path = tmp_path / "nash_conv.csv"
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols)
        w.writeheader()
        w.writerow(row)
        w.writerow(row | {"profile": "shipped", "nash_conv": "0.5"})  # another profile
    monkeypatch.setattr(sim.web.app, "NASH_CONV", path)
    client.post("/table", data=standard_form())
    html = wait_live(client, "/table/live", 'id="finished"')
    block = html[html.index('id="nash-conv"'):]
    assert "NashConv" in block and ">3.1<" in block and ">+2.2<" in block  # the maniac's
    assert block.count("data-camp=") == 4
    client.post("/table", data=standard_form(civilian="8"))  # 24 players, not standard
    html = wait_live(client, "/table/live", 'id="finished"')
    assert "measured for the standard tables" in html and ">3.1<" not in html


def test_recommendation_says_how_far_a_camp_gains_against_it(client, tmp_path, monkeypatch):
    """Issue 24 (point 3): a recommended table is shown with its exploit check, the largest
    gain a camp finds against it and NashConv, in the page's language; a row without the
    check's columns (an older file) shows the table alone."""
    import sim.web.app

    with (Path(__file__).resolve().parent.parent / "results" / "recommended.csv").open() as f:
        rows = list(csv.DictReader(f))
    extra = {"largest_gain_camp": "yakuza", "largest_gain": "0.034",
             "largest_gain_low": "0.012", "largest_gain_high": "0.056", "nash_conv": "0.071",
             "nash_conv_low": "0.02", "nash_conv_high": "0.12", "check_tried": "32"}
    path = tmp_path / "recommended.csv"
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]) + [k for k in extra if k not in rows[0]])
        w.writeheader()
        for row in rows:
            w.writerow(row | extra if row["players"] == "25" else
                       row | {k: "" for k in extra})
    monkeypatch.setattr(sim.web.app, "RECOMMENDED", path)
    html = client.post("/table", data=standard_form()).text
    assert 'id="rec-check"' in html and "largest gain a camp finds" in html
    assert "+3.4 points (Yakuza, 95% interval [+1.2, +5.6]), NashConv 7.1" in html
    client.get("/lang/ru?next=/")
    html = client.post("/table", data=standard_form()).text
    assert "выигрывает Якудза: +3,4 п. п." in html and "[+1,2; +5,6]" in html
    html = client.post("/table", data=standard_form(civilian="8")).text  # 24: unchecked row
    assert 'id="recommendation"' in html and 'id="rec-check"' not in html


def test_recommendation_that_held_no_check_says_so(client, tmp_path, monkeypatch):
    """Issue 24 (point 3): when no table near the standard one held recommend's check
    (`recommended` false in results/recommended.csv), the page says that the table shown is
    the closest and balanced only while a camp blunders, in the page's language; a row that
    held, or an older file without the column, says nothing of it."""
    import sim.web.app

    with (Path(__file__).resolve().parent.parent / "results" / "recommended.csv").open() as f:
        rows = list(csv.DictReader(f))
    path = tmp_path / "recommended.csv"
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=[k for k in rows[0] if k != "recommended"]
                           + ["recommended"])
        w.writeheader()
        for row in rows:
            w.writerow(row | {"recommended": "False" if row["players"] == "25" else "True"})
    monkeypatch.setattr(sim.web.app, "RECOMMENDED", path)
    html = client.post("/table", data=standard_form()).text
    assert 'id="rec-unheld"' in html and "balanced only while that camp blunders" in html
    html = client.post("/table", data=standard_form(civilian="8")).text  # 24 players: held
    assert 'id="recommendation"' in html and 'id="rec-unheld"' not in html
    client.get("/lang/ru?next=/")
    html = client.post("/table", data=standard_form()).text
    assert "пока этот лагерь ошибается" in html
    older = tmp_path / "older.csv"  # written before recommend recorded its check
    with older.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=[k for k in rows[0] if k != "recommended"],
                           extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    monkeypatch.setattr(sim.web.app, "RECOMMENDED", older)
    html = client.post("/table", data=standard_form()).text
    assert 'id="recommendation"' in html and 'id="rec-unheld"' not in html


def test_table_matches_the_command_line(client, capsys):
    client.post("/table", data=standard_form(games="400", seed="7"))
    html = wait_live(client, "/table/live", 'id="finished"')
    assert main(["run", "--players", "25", "--games", "400", "--seed", "7", "--json",
                 "--quiet"]) == 0
    cli = json.loads(capsys.readouterr().out)
    town = re.search(r'data-camp="town">.*?class="share">([0-9.]+)%', html, re.S)
    assert town and float(town.group(1)) == round(cli["camps"]["town"]["share"] * 100, 1)


MIXTURE = ('[mixture]\nfound = "a test"\n'
           '[[mixture.town]]\nweight = 0.5\nparams = { "town.crowd" = 0.0 }\n'
           '[[mixture.town]]\nweight = 0.5\nparams = { "town.noise" = 1.0 }\n'
           '[[mixture.yakuza]]\nweight = 1.0\nparams = { "yakuza.mafia_follow" = 0.0 }\n')


def test_a_table_plays_under_a_profile_given_on_the_page(client, tmp_path, capsys):
    """Issue 24 (point 2): the page takes an agents' profile or mixture file (its text, as
    the page's script reads the chosen file into the form) and plays exactly the games of
    `mafia-sim run --params FILE`; the NashConv block, measured for the defaults only, says
    so instead of showing the defaults' figures."""
    path = tmp_path / "mix.toml"
    path.write_text(MIXTURE, encoding="utf-8")
    r = client.post("/table", data=standard_form(games="400", seed="7", profile=MIXTURE,
                                                 profile_name="mix.toml"))
    no_trace(r)
    assert 'id="profile-loaded">mix.toml<' in r.text and 'id="profile-msg"' not in r.text
    html = wait_live(client, "/table/live", 'id="finished"')
    assert main(["run", "--players", "25", "--games", "400", "--seed", "7", "--json",
                 "--quiet", "--params", str(path)]) == 0
    cli = json.loads(capsys.readouterr().out)
    for camp in ("town", "yakuza", "triad", "maniac"):
        got = re.search(rf'data-camp="{camp}">.*?class="share">([0-9.]+)%', html, re.S)
        assert got and float(got.group(1)) == round(cli["camps"][camp]["share"] * 100, 1)
    assert 'id="nash-conv-sum"' not in html and "measured for the standard tables" in html
    # the same table without the profile plays other games
    client.post("/table", data=standard_form(games="400", seed="7"))
    plain = wait_live(client, "/table/live", 'id="finished"')
    assert re.findall(r'class="share">([0-9.]+)%', plain) != re.findall(
        r'class="share">([0-9.]+)%', html)


@pytest.mark.parametrize("text,words", [
    ("[mixture\n", "malformed TOML"),
    ('[params]\n"town.crowd" = [1, 2]\n', "takes one value"),
    ('[mixture]\n[[mixture.town]]\nweight = 0.3\nparams = {}\n', "sum to 1"),
    ("[agents]\nset = 'x'\n", "unknown key(s) agents"),
    ("x" * 70_000, "at most 64"),
])
def test_a_bad_profile_is_said_beside_its_field_and_plays_nothing(client, ru_client, text,
                                                                  words):
    r = client.post("/table", data=standard_form(profile=text, profile_name="p.toml"))
    no_trace(r)
    assert 'id="profile-msg"' in r.text and words in r.text and 'id="fix-first"' in r.text
    r = ru_client.post("/table", data=standard_form(profile=text, profile_name="p.toml"))
    msg_ru = r.text[r.text.index('id="profile-msg"'):].split("</span>")[0]
    assert re.search("[а-я]", msg_ru), msg_ru  # in the page's language


def test_compare_arms_take_a_profile_each(client):
    """Compare a mixture with the defaults on common random numbers: arm B's profile."""
    data = {f"a_{k}": v for k, v in standard_form(games="400").items()}
    data |= {f"b_{k}": v for k, v in standard_form(games="400").items()}
    data |= {"b_profile": MIXTURE, "b_profile_name": "mix.toml", "a_games": "400"}
    r = client.post("/compare", data=data)
    no_trace(r)
    assert 'id="b_profile-loaded">mix.toml<' in r.text and 'id="a_profile-loaded"' not in r.text


@pytest.mark.parametrize("field,value,words", [
    ("civilian", "abc", "not a whole number"),
    ("civilian", "-3", "out of range"),
    ("civilian", "99999999999999999999", "not a whole number"),
    ("civilian", "61", "out of range"),
    ("doctor", "1e3", "not a whole number"),
    ("games", "50", "out of range"),
    ("games", "10000000", "out of range"),
    ("seed", "-1", "out of range"),
    ("turn_limit", "0", "turn_limit"),
    ("vote_rejection", "2", "probability"),
    ("vote_rejection", "nan", "vote_rejection"),
    ("abstention_limit", "../../etc/passwd", "whole number"),
])
def test_table_bad_values_get_a_message_beside_the_control(client, field, value, words):
    r = client.post("/table", data=standard_form(**{field: value}))
    no_trace(r)
    assert r.status_code == 200
    msg = re.search(rf'id="{field}-msg">([^<]*)<', r.text)
    assert msg and words in msg.group(1), r.text[:300]


def test_table_too_many_players_in_all(client):
    r = client.post("/table", data=standard_form(civilian="55"))
    assert "at most 60" in re.search(r'id="total-msg">([^<]*)<', r.text).group(1)


@pytest.mark.parametrize("over,control,rule", [
    ({"commissar": "0"}, "sergeant", "D2.1"),
    ({"yakuza_vsb": "0"}, "yakuza_vsb", "R2.3"),
    ({"triad_vsb": "2"}, "triad_vsb", "R2.3"),
    ({"doctor": "2"}, "doctor", "D2.1"),
    ({"triad_mafioso": "0"}, "triad_mafioso", "R2.6"),
])
def test_composition_check_is_shown_beside_its_control(client, over, control, rule):
    r = client.post("/table", data=standard_form(**over))
    msg = re.search(rf'id="{control}-msg">([^<]*)<', r.text)
    assert msg and rule in msg.group(1)


def test_no_enemy_of_town(client):
    zero = {k: "0" for k in ("yakuza_mafioso", "kamikaze", "yakuza_vsb", "triad_mafioso",
                             "thug", "triad_vsb", "maniac")}
    r = client.post("/table", data=standard_form(**zero))
    assert "no enemy of Town" in r.text


def test_standard_table_button(client):
    r = client.post("/table", data=standard_form(action="standard", players="30"))
    assert 'id="total">30<' in r.text
    r = client.post("/table", data=standard_form(action="standard", players="7"))
    assert "out of range" in re.search(r'id="players-msg">([^<]*)<', r.text).group(1)
    r = client.post("/table", data=standard_form(action="standard", players="x" * 5000))
    no_trace(r)


def test_use_the_recommended_table_and_hostile_roles(client):
    roles = "civilian*8,commissar,sergeant,ninja,necromancer,maniac,yakuza=mafioso*4+kamikaze+vsb,triad=mafioso*4+thug+vsb"
    r = client.post("/table", data=standard_form(action="use", roles=roles))
    assert 'id="doctor" name="doctor" value="0"' in r.text
    for hostile in ("os:system", "mypkg.mod:Agent", "civilian*99999999", "<script>x</script>"):
        r = client.post("/table", data=standard_form(action="use", roles=hostile))
        no_trace(r)
        assert "<script>x" not in r.text


def test_a_new_request_replaces_the_live_run(client):
    client.post("/table", data=standard_form(games="20000"))
    app_live = client.app.state.live
    first = next(iter(app_live.runs.values()))
    client.post("/table", data=standard_form(games="200"))
    assert first.cancelled.is_set()
    wait_live(client, "/table/live", 'id="finished"')
    assert client.post("/live/cancel").status_code == 204


# -- compare ------------------------------------------------------------------------------------
def arms(a: dict[str, str], b: dict[str, str]) -> dict[str, str]:
    return {**{f"a_{k}": v for k, v in a.items()}, **{f"b_{k}": v for k, v in b.items()}}


def test_compare_in_plain_words(ru_client):
    b = standard_form()
    del b["maniac_vest"]
    r = ru_client.post("/compare", data={**arms(standard_form(games="400"), b),
                                      "action": "compare"})
    no_trace(r)
    html = wait_live(ru_client, "/compare/live", 'id="finished"')
    words = text(re.search(r'<ul id="diff-words".*?</ul>', html, re.S).group(0))
    assert "Город: в B побед на" in words and "п. п." in words


def test_compare_same_tables_is_no_difference_and_copy(client):
    r = client.post("/compare", data={**arms(standard_form(), standard_form(doctor="0")),
                                      "action": "copy"})
    assert 'id="b_doctor" name="b_doctor" value="1"' in r.text
    client.get("/lang/en")
    client.post("/compare", data={**arms(standard_form(), standard_form()),
                                  "action": "compare"})
    html = wait_live(client, "/compare/live", 'id="finished"')
    assert "Town: no difference [+0.0, +0.0]" in text(html)


def test_compare_bad_arm(client):
    r = client.post("/compare", data={**arms(standard_form(), standard_form(thug="x")),
                                      "action": "compare"})
    no_trace(r)
    assert re.search(r'id="b_thug-msg">[^<]*not a whole number', r.text)


# -- host a game --------------------------------------------------------------------------------
def load(client: TestClient, data: bytes, name: str = "game.json"):
    return client.post("/host/load", files={"file": (name, data, "application/json")},
                       headers={"hx-request": "true"})


def test_host_players_and_start(client):
    r = client.post("/host/players", data={"count": "0", "action": "standard",
                                           "players": "12"})
    assert 'id="role_11"' in r.text
    form = {"count": "12", "action": "start"}
    r = client.post("/host/players", data=form)  # names left empty
    assert re.search(r'id="row-0-msg">[^<]*name', r.text)
    roles = ["commissar", "sergeant", "ninja", "doctor", "necromancer", "maniac", "mafioso",
             "kamikaze", "vsb", "mafioso", "thug", "vsb"]
    clans = ["", "", "", "", "", "", "yakuza", "yakuza", "yakuza", "triad", "triad", "triad"]
    for i in range(12):
        form.update({f"name_{i}": f"P{i}", f"role_{i}": roles[i], f"clan_{i}": clans[i],
                     f"gender_{i}": "f" if i % 2 else "m"})
    form["role_3"] = "os.system"  # hostile
    r = client.post("/host/players", data=form)
    assert "unknown role" in r.text and 'id="turn-form"' not in r.text
    form["role_3"] = "doctor"
    form["gender_2"] = "x"
    r = client.post("/host/players", data=form)
    assert "gender" in re.search(r'id="row-2-msg">([^<]*)<', r.text).group(1)
    form["gender_2"] = ""
    form["abstention_limit"] = "-5"
    r = client.post("/host/players", data=form)
    assert 'id="players-error"' in r.text
    form["abstention_limit"] = "0"
    r = client.post("/host/players", data=form)
    assert 'id="turn-form"' in r.text and "Turn 0" in r.text
    r = client.post("/host/players", data={**form, "action": "add"})
    no_trace(r)


def test_host_two_turns_newspaper_matches_resolve(ru_client, tmp_path, capsys):
    r = load(ru_client, (EXAMPLES / "kamikaze_meets_thug.json").read_bytes())
    assert 'id="turn-2"' not in r.text and "Ход 2" in r.text
    # turn 2: Sergei (1) and Nina (2) vote Olga (14); Yakuza: Yan (7) shoots Boris (15)
    draft = {"votes": "0", "voter_0": "1", "target_0": "14"}
    r = ru_client.post("/host/turn", data=draft)
    assert 'name="voter_1"' in r.text
    draft.update({"votes": "1", "voter_1": "2", "target_1": "14",
                  "order_yakuza_target": "15", "order_yakuza_shooter": "7", "act_3": "3"})
    r = ru_client.post("/host/turn", data={**draft, "action": "resolve"})
    msg = re.search(r'id="act_3-msg">([^<]*)<', r.text).group(1)
    assert "[R8.4]" in msg  # the doctor healing himself: the engine's message and rule
    draft["act_3"] = "2"  # the doctor heals Nina
    r = ru_client.post("/host/turn", data={**draft, "action": "resolve"})
    assert 'id="paper-ru-2"' in r.text
    # turn 3: the maniac kills Nina
    r = ru_client.post("/host/turn", data={"votes": "0", "act_5": "2", "action": "resolve"})
    assert 'id="paper-ru-3"' in r.text
    # who died, worded as the newspaper words causes (R15.3), in the page's language
    deaths = re.search(r'<div class="deaths">(.*?)</div>', r.text.split('id="turn-3"')[-1],
                       re.S).group(1)
    assert "жертва маньяка" in deaths and "maniac" not in deaths
    saved = ru_client.get("/host/save")
    assert saved.headers["content-disposition"].startswith("attachment")
    path = tmp_path / "game.json"
    path.write_bytes(saved.content)
    assert main(["resolve", str(path), "--newspaper", "ru"]) == 0
    papers = capsys.readouterr().out.rstrip("\n").split("\n\n")
    page = ru_client.get("/host").text
    import html as html_lib

    for t in (2, 3):
        shown = re.search(rf'id="paper-ru-{t}"[^>]*>(.*?)</textarea>', page, re.S).group(1)
        assert html_lib.unescape(shown) == papers[t]
    # reloading the saved file shows the same game
    r = load(ru_client, saved.content)
    assert 'id="paper-ru-3"' in r.text
    r = ru_client.post("/host/turn", data={"action": "undo"})
    assert 'id="paper-ru-3"' not in r.text


def test_host_votes_offer_only_legal_choices(client):
    load(client, (EXAMPLES / "kamikaze_meets_thug.json").read_bytes())
    r = client.post("/host/turn", data={"votes": "0", "voter_0": "1"})
    targets = re.search(r'<select name="target_0".*?</select>', r.text, re.S).group(0)
    assert ">Sergei<" not in targets and ">Anna<" not in targets  # himself, the dead (P5.1)
    r = client.post("/host/turn", data={"votes": "1", "voter_0": "1", "target_0": "2"})
    voters = re.search(r'<select name="voter_1".*?</select>', r.text, re.S).group(0)
    assert ">Sergei<" not in voters and ">Nina<" in voters  # R5.1: one vote a day
    r = client.post("/host/turn", data={"votes": "1", "voter_0": "1", "target_0": "2",
                                        "voter_1": "1", "target_1": "3"})
    assert "[R5.1]" in re.search(r'id="vote-1-msg">([^<]*)<', r.text).group(1)
    r = client.post("/host/turn", data={"votes": "1", "voter_0": "1", "target_0": "2",
                                        "absent_1": "on"})
    assert "[P3.2]" in r.text  # the absent voter: the engine's message
    r = client.post("/host/turn", data={"votes": "9999", "voter_0": "-1", "target_0": "abc",
                                        "act_5": "../../x", "order_triad_target": "1e9"})
    no_trace(r)


def test_host_bad_files(client):
    bad = [b"{not json", b"\xff\xfe\x00", b"[]", b'{"players": "x"}',
           json.dumps({"players": [{"name": "A", "role": "civilian"}],
                       "turns": [{}] * 101}).encode(),
           b'{"players": [{"name": "A", "role": "wizard"}]}',
           b"[" * 100_000, b"1" * 5000]
    for data in bad:
        r = load(client, data, name="../../etc/passwd")
        no_trace(r)
        assert 'id="host-message"' in r.text
    game = json.loads((EXAMPLES / "kamikaze_meets_thug.json").read_text())
    game["turns"][1]["night"]["thug"]["target"] = "Li"  # the thug beats himself
    r = load(client, json.dumps(game).encode())
    assert "[P10.1]" in r.text
    r = load(client, b" " * (600 * 1024))
    assert "larger than" in r.text
    r = client.post("/host/load", data={"file": "not a file"})
    no_trace(r)


def test_save_without_a_game(client):
    r = client.get("/host/save")
    assert r.status_code == 400 and "no game" in r.text


def test_host_odds(client):
    r = client.post("/host/odds", data={"odds_games": "200"})
    assert "Enter the players" in r.text
    load(client, (EXAMPLES / "kamikaze_meets_thug.json").read_bytes())
    for bad in ("-1", "abc", "10" * 30, "100000"):
        r = client.post("/host/odds", data={"odds_games": bad})
        assert 'id="odds-error"' in r.text
    r = client.post("/host/odds", data={"odds_games": "200"})
    no_trace(r)
    html = wait_live(client, "/host/odds/live", 'id="odds-finished"')
    assert 'id="odds-table"' in html


def test_game_over_has_no_editor_nor_odds(client):
    r = load(client, (EXAMPLES / "duel.json").read_bytes())
    no_trace(r)
    if 'id="game-over"' in r.text:
        assert 'id="turn-form"' not in r.text
        r = client.post("/host/odds", data={"odds_games": "200"})
        assert "over" in r.text


# -- bounds and safety --------------------------------------------------------------------------
def test_oversized_body_is_refused(client):
    r = client.post("/table", content=b"a=" + b"x" * (MAX_BODY + 10),
                    headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 413


def test_malformed_form_body(client):
    r = client.post("/host/load", content=b"--xx\r\nbroken",
                    headers={"content-type": "multipart/form-data; boundary=xx"})
    no_trace(r)


def test_cross_site_post_and_foreign_host_are_refused():
    with TestClient(create_app(allowed_hosts={"127.0.0.1", "localhost"}),
                    base_url="http://127.0.0.1:8050") as c:
        assert c.get("/").status_code == 200
        r = c.post("/table", data=standard_form(), headers={"origin": "http://evil.example"})
        assert r.status_code == 403
        r = c.post("/table", data=standard_form(), headers={"origin": "http://127.0.0.1:8050"})
        assert r.status_code == 200
        r = c.get("/", headers={"host": "evil.example"})
        assert r.status_code == 400


def test_registry_one_run_per_page_and_a_bounded_number():
    stop = threading.Event()

    def play(start: int, n: int, jobs: int) -> int:
        stop.wait(0.05)
        return n

    reg = Registry(max_live=2)
    a = reg.start("a", Live("t", play, 10_000))
    a2 = reg.start("a", Live("t", play, 10_000))
    assert a.cancelled.is_set() and not a2.cancelled.is_set()
    reg.start("b", Live("t", play, 10_000))
    reg.start("c", Live("t", play, 10_000))
    assert a2.cancelled.is_set() and len(reg.runs) == 2
    reg.cancel_all()
    for live in (a, a2):
        live.thread.join(5)
        assert live.finished


def test_live_run_reports_an_error():
    def play(start: int, n: int, jobs: int) -> int:
        raise ValueError("boom")

    live = Live("t", play, 1000).start()
    live.thread.join(5)
    assert live.finished and "boom" in (live.error or "")


# -- the command ---------------------------------------------------------------------------------
def test_serve_help_and_bad_port(capsys):
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--port" in out and "default 8050" in out and "--open" in out
    assert "WARNING" in out and "network" in out
    with pytest.raises(SystemExit) as e:
        main(["serve", "--port", "99999"])
    assert e.value.code == 2


def test_the_host_is_warned_who_has_no_vote_before_the_day_is_resolved(ru_client):
    """Issue 25, point 4: resolving days with no votes sent every player missing (R16.2)
    without a word before. Now the turn form lists them, and who of them goes."""
    game = json.loads((EXAMPLES / "kamikaze_meets_thug.json").read_text(encoding="utf-8"))
    del game["rules"]["abstention_limit"]  # the standard rules: R16.2 after two turns
    game["turns"] = game["turns"][:1]  # turn 0 only: nobody has missed a vote yet
    r = load(ru_client, json.dumps(game).encode())

    def warned(html: str) -> tuple[str, list[str]]:
        box = re.search(r'id="attrition-warnings">(.*?)</div>', html, re.S)
        assert box is not None
        return text(box.group(1)), re.findall(r"<li>([^:<]+):", box.group(1))

    words, names = warned(r.text)
    assert "R16.2" in words and "пропуск №1" in words and "пропадёт" not in words
    assert len(names) == len(game["players"])
    r = ru_client.post("/host/turn", data={"votes": "0", "voter_0": "1", "target_0": "14",
                                        "absent_3": "on"})
    words, names = warned(r.text)
    assert "R16.1" in words and game["players"][3]["name"] in names
    assert game["players"][1]["name"] not in names  # he voted
    r = ru_client.post("/host/turn", data={"votes": "0", "action": "resolve"})  # nobody votes
    words, names = warned(r.text)
    assert "пропуск №2" in words and "пропадёт без вести" in words


def test_a_name_past_the_limit_is_refused_by_the_server_too(ru_client):
    """Issue 25, point 6: the 40-character limit lived in the browser only."""
    form = {"count": "12", "action": "start"}
    roles = ["commissar", "sergeant", "ninja", "doctor", "necromancer", "maniac", "mafioso",
             "kamikaze", "vsb", "mafioso", "thug", "vsb"]
    clans = ["", "", "", "", "", "", "yakuza", "yakuza", "yakuza", "triad", "triad", "triad"]
    for i in range(12):
        form.update({f"name_{i}": f"P{i}", f"role_{i}": roles[i], f"clan_{i}": clans[i]})
    form["name_4"] = "Я" * 5000
    r = ru_client.post("/host/players", data=form)
    assert 'id="turn-form"' not in r.text
    assert "длиннее 40 знаков" in re.search(r'id="row-4-msg">([^<]*)<', r.text).group(1)
    form["name_4"] = "Я" * 40
    r = ru_client.post("/host/players", data=form)
    assert 'id="turn-form"' in r.text
