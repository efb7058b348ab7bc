"""The page for hosts in a real headless browser: Debian's Chromium driven by Selenium.

Skipped with the reason when no Chromium is installed, unless MAFIA_SIM_REQUIRE_BROWSER=1
(CI sets it), when a missing browser fails them."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from web_browser import chromium, find_browser, live_server

from sim.cli.main import main

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    paths = find_browser()
    if isinstance(paths, str):
        if os.environ.get("MAFIA_SIM_REQUIRE_BROWSER") == "1":
            pytest.fail(f"MAFIA_SIM_REQUIRE_BROWSER=1 but {paths}")
        pytest.skip(paths)
    downloads = tmp_path_factory.mktemp("downloads")
    with live_server() as url, chromium(paths, str(downloads)) as driver:
        driver.base_url = url
        driver.downloads = downloads
        yield driver


@pytest.fixture
def page(browser):
    browser.get(browser.base_url + "/lang/ru?next=/")
    browser.delete_cookie("sid")  # a fresh page session for each test
    return browser


def wait(driver, until, timeout: float = 60):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(until)


def by_id(driver, ident: str):
    from selenium.webdriver.common.by import By

    return wait(driver, lambda d: d.find_element(By.ID, ident))


def swapped(driver, old) -> None:
    """Wait for htmx to replace the part of the page that held `old`."""
    from selenium.webdriver.support import expected_conditions as ec

    wait(driver, ec.staleness_of(old))


def choose(driver, ident: str, value: str) -> None:
    """Pick an option of a select; the page redraws the form (htmx)."""
    from selenium.webdriver.support.select import Select

    el = by_id(driver, ident)
    Select(el).select_by_value(value)
    swapped(driver, el)


def click(driver, ident: str) -> None:
    el = by_id(driver, ident)
    el.click()
    swapped(driver, el)


def type_into(driver, ident: str, text: str) -> None:
    """Type over a field's value and leave it (its change redraws the form)."""
    from selenium.webdriver.common.keys import Keys

    el = by_id(driver, ident)
    el.send_keys(Keys.CONTROL, "a")
    el.send_keys(text, Keys.TAB)
    swapped(driver, el)


def cli_papers(path: Path, capsys) -> list[str]:
    assert main(["resolve", str(path), "--newspaper", "ru"]) == 0
    return capsys.readouterr().out.rstrip("\n").split("\n\n")


def share_texts(driver) -> list[str]:
    """The shares' cells, read in one step in the page: the table is swapped for a new one
    each round of games, so cells found first and read one by one afterwards can be gone
    by then (a stale element)."""
    return [t.strip() for t in driver.execute_script(
        "return Array.from(document.querySelectorAll('#shares td.share'), "
        "td => td.textContent)")]


def test_choose_a_table_and_see_numbers(page, capsys):
    from selenium.webdriver.common.by import By

    started = time.monotonic()
    page.get(page.base_url + "/")
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#shares td.share"))
    first = time.monotonic() - started
    with capsys.disabled():
        print(f"\nstandard 25-player table: first numbers {first:.2f} s after opening the page")
    # the Russian page writes 62,5 % (CLDR: decimal comma, a space before the sign)
    texts = share_texts(page)
    shares = [float(t.rstrip("%").strip().replace(",", ".")) for t in texts]
    assert all("," in t for t in texts)
    assert len(shares) == 5 and abs(sum(shares) - 100) < 1
    assert "Рекомендация для 25 игроков" in by_id(page, "recommendation").text
    # no doctor: 24 players, fresh numbers
    type_into(page, "doctor", "0")
    assert by_id(page, "total").text == "24"
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#shares td.share"))
    # a sergeant without a commissar: the D2.1 message beside the control that caused it
    type_into(page, "commissar", "0")
    assert "D2.1" in by_id(page, "sergeant-msg").text
    type_into(page, "games", "-5")
    assert "вне допустимого" in by_id(page, "games-msg").text


def test_switch_the_language(page):
    page.get(page.base_url + "/host")
    assert page.find_element("css selector", "h1").text == "Провести игру"
    by_id(page, "lang-en").click()
    wait(page, lambda d: d.find_element("css selector", "h1").text == "Host a game")
    assert "/host" in page.current_url
    by_id(page, "lang-ru").click()
    wait(page, lambda d: d.find_element("css selector", "h1").text == "Провести игру")


def test_host_two_turns_newspaper_matches_resolve(page, capsys):
    page.get(page.base_url + "/host")
    from selenium.webdriver.common.keys import Keys

    by_id(page, "host-players").send_keys(Keys.CONTROL, "a", "12")
    click(page, "fill-standard")
    names = ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жора", "Зоя", "Иван", "Катя",
             "Лев", "Маша"]
    for i, name in enumerate(names):
        by_id(page, f"name_{i}").send_keys(name)
    from selenium.webdriver.support.select import Select

    Select(by_id(page, "gender_0")).select_by_value("f")
    click(page, "start-game")
    # turn 0: the maniac (seat 5, Егор) kills Борис (seat 1)
    choose(page, "act_5_sel", "1")
    click(page, "resolve")
    assert by_id(page, "paper-ru-0").get_attribute("value")
    # turn 1: Анна (0) and Вера (2) vote Катя (9, the Triad's Don), who is hanged; the
    # Yakuza's Don orders Зоя (7) to shoot Анна, whom the doctor Глеб (3) heals
    choose(page, "voter_0", "0")
    choose(page, "target_0", "9")
    choose(page, "voter_1", "2")
    choose(page, "target_1", "9")
    choose(page, "order_yakuza_target", "0")
    choose(page, "order_yakuza_shooter", "7")
    choose(page, "act_3_sel", "0")  # the doctor heals Анна
    click(page, "resolve")
    paper1 = by_id(page, "paper-ru-1").get_attribute("value")
    assert paper1
    # save, and the saved file's newspapers are the page's, word for word
    before = set(page.downloads.iterdir())
    by_id(page, "save").click()
    saved = wait(page, lambda d: [p for p in page.downloads.iterdir()
                                  if p not in before and p.suffix == ".json"
                                  and p.stat().st_size > 0] or False)[0]
    game = json.loads(saved.read_text(encoding="utf-8"))
    assert len(game["turns"]) == 2 and game["players"][0]["gender"] == "f"
    papers = cli_papers(saved, capsys)
    assert by_id(page, "paper-ru-0").get_attribute("value") == papers[0]
    assert paper1 == papers[1]


def test_load_and_save_a_game_file(page, capsys, tmp_path):
    page.get(page.base_url + "/host")
    example = EXAMPLES / "ninja_testament.json"
    by_id(page, "load-file").send_keys(str(example))
    by_id(page, "load").click()
    wait(page, lambda d: d.find_elements("id", "roster"))
    papers = cli_papers(example, capsys)
    for t, paper in enumerate(papers):
        assert by_id(page, f"paper-ru-{t}").get_attribute("value") == paper
    before = set(page.downloads.iterdir())
    by_id(page, "save").click()
    saved = wait(page, lambda d: [p for p in page.downloads.iterdir()
                                  if p not in before and p.suffix == ".json"
                                  and p.stat().st_size > 0] or False)[0]
    assert json.loads(saved.read_text(encoding="utf-8")) == json.loads(example.read_text())
    # a broken file: a message, and the game shown stays
    bad = tmp_path / "bad.json"
    bad.write_text("{broken")
    by_id(page, "load-file").send_keys(str(bad))
    by_id(page, "load").click()
    assert "файл JSON испорчен" in by_id(page, "host-message").text


def test_a_hosted_game_survives_a_server_restart(page, tmp_path):
    """Issue 25: after a restart the page showed an empty player form. Now the game is
    stored after each turn, and the same browser comes back to it."""
    from web_browser import live_server

    data = tmp_path / "data"
    example = EXAMPLES / "ninja_testament.json"
    with live_server(data=data) as url:
        page.get(url + "/host")
        by_id(page, "load-file").send_keys(str(example))
        by_id(page, "load").click()
        wait(page, lambda d: d.find_elements("id", "roster"))
        shown = by_id(page, "paper-ru-1").get_attribute("value")
    with live_server(data=data) as url:  # a new server on the same folder
        page.get(url + "/host")
        wait(page, lambda d: d.find_elements("id", "roster"))
        assert by_id(page, "paper-ru-1").get_attribute("value") == shown
        assert by_id(page, "stored-games").text


def _latin_left(text: str, names: list[str]) -> list[str]:
    import re

    text = re.sub(r"\b[RDP]\d+(\.\d+)?\b", " ", text)  # rule ids
    for n in sorted(names, key=len, reverse=True):
        text = text.replace(n, " ")
    return re.findall(r"[A-Za-z]{2,}", text)


def _shown(driver) -> list[str]:
    return [e.text for e in driver.find_elements("css selector", ".msg, .error") if e.text]


NAMES = ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жора", "Зоя", "Иван", "Катя",
         "Лев", "Маша"]


def _start_russian_game(page) -> None:
    """12 players with Russian names, the standard table, started."""
    from selenium.webdriver.common.keys import Keys

    page.get(page.base_url + "/host")
    by_id(page, "host-players").send_keys(Keys.CONTROL, "a", "12")
    click(page, "fill-standard")
    click(page, "start-game")  # the names still blank: refused, in Russian
    shown = _shown(page)
    assert shown and all(_latin_left(m, []) == [] for m in shown), shown
    for i, name in enumerate(NAMES):
        by_id(page, f"name_{i}").send_keys(name)
    click(page, "start-game")
    choose(page, "act_5_sel", "1")  # turn 0: the maniac, Егор, kills Борис
    click(page, "resolve")


def test_russian_page_wrong_inputs_and_illegal_requests_have_no_latin_word(page):
    """Issue 25's target: on the Russian page, a host's wrong inputs and illegal requests
    produce messages with no Latin words apart from player names and rule ids."""
    # the table: a count that is not a number, and a table that breaks D2.1
    page.get(page.base_url + "/")
    type_into(page, "civilian", "-3")
    type_into(page, "sergeant", "3")
    shown = _shown(page)
    assert len(shown) >= 2 and all(_latin_left(m, []) == [] for m in shown), shown
    _start_russian_game(page)
    # turn 1: a civilian (Вера, seat 2) speaks in a clan's chat (R2.7): refused
    choose(page, "say_by_0", "2")
    choose(page, "say_kind_0", "accuse")
    choose(page, "say_target_0", "9")
    choose(page, "say_channel_0", "clan")
    click(page, "resolve")
    shown = _shown(page)
    assert any("R2.7" in m for m in shown), shown
    assert all(_latin_left(m, NAMES) == [] for m in shown), shown


def test_a_claim_entered_on_the_page_is_in_the_record_and_the_file(page):
    _start_russian_game(page)
    # turn 1: Анна (0, the commissar) claims her role in public; Вера votes Катя
    choose(page, "say_by_0", "0")
    choose(page, "say_kind_0", "claim")
    choose(page, "say_value_0", "commissar")
    choose(page, "voter_0", "2")
    choose(page, "target_0", "9")
    # the host is warned who has no vote entered yet (R16.2)
    warned = by_id(page, "attrition-warnings").text
    assert "Анна" in warned and "R16.2" in warned and "Вера:" not in warned
    click(page, "resolve")
    record = by_id(page, "talk-1").text
    assert "Анна" in record and "заявляет: я комиссар" in record
    before = set(page.downloads.iterdir())
    by_id(page, "save").click()
    saved = wait(page, lambda d: [p for p in page.downloads.iterdir()
                                  if p not in before and p.suffix == ".json"
                                  and p.stat().st_size > 0] or False)[0]
    game = json.loads(saved.read_text(encoding="utf-8"))
    assert game["turns"][1]["statements"] == [
        {"by": "Анна", "kind": "claim", "value": "commissar"}]


def test_a_profile_file_chosen_on_the_page_is_played(page, tmp_path):
    """Issue 24 (point 2): choosing a mixture file (as `equilibrate --mixture` writes) reads
    it into the form (page.js) and replays the table under it; emptying the field goes back
    to the defaults. The games themselves are checked against `run --params` in
    tests/test_web.py."""
    from selenium.webdriver.common.by import By

    path = tmp_path / "mix.toml"
    path.write_text('[mixture]\nfound = "a test"\n[[mixture.town]]\nweight = 1.0\n'
                    'params = { "town.crowd" = 0.0 }\n', encoding="utf-8")
    page.get(page.base_url + "/")
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#shares td.share"))
    page.execute_script("document.querySelector('details.profile').open = true")
    chooser = by_id(page, "profile_file")
    chooser.send_keys(str(path))
    swapped(page, chooser)
    assert by_id(page, "profile-loaded").text == "mix.toml"
    assert "town.crowd" in by_id(page, "profile").get_attribute("value")
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#finished"), timeout=120)
    # the default agents' NashConv is not shown for a table under another profile
    assert by_id(page, "nash-conv").text and not page.find_elements(By.ID, "nash-conv-sum")
    area = by_id(page, "profile")
    # emptied and left, in one step (Selenium's clear() may or may not fire the change)
    page.execute_script("arguments[0].value = ''; "
                        "arguments[0].dispatchEvent(new Event('change', {bubbles: true}))", area)
    swapped(page, area)
    assert not page.find_elements(By.ID, "profile-loaded")
