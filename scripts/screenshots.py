"""Screenshots of the page for hosts into docs/ (web_table.png, web_compare.png,
web_host.png), and the time from opening the page to the first numbers for the standard
25-player table (median of a few fresh page sessions).

    .venv/bin/python scripts/screenshots.py [--runs 5]

Needs the extra web, Selenium and Debian's Chromium (apt-get install chromium
chromium-driver); uses tests/web_browser.py, as the browser tests do."""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from web_browser import chromium, find_browser, live_server  # noqa: E402


def first_numbers(driver, url: str) -> float:
    """Seconds from asking for the page to the first win shares on it (fresh session)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(url + "/static/style.css")  # off the table page, so no run is going
    driver.delete_all_cookies()
    started = time.monotonic()
    driver.get(url + "/")
    WebDriverWait(driver, 60, poll_frequency=0.02).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#shares td.share"))
    return time.monotonic() - started


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="page openings timed (default 5)")
    args = ap.parse_args()
    paths = find_browser()
    if isinstance(paths, str):
        print(f"screenshots: {paths}", file=sys.stderr)
        return 2
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.select import Select
    from selenium.webdriver.support.ui import WebDriverWait

    def wait_for(driver, css: str, timeout: float = 120) -> None:
        WebDriverWait(driver, timeout).until(lambda d: d.find_elements(By.CSS_SELECTOR, css))

    with live_server() as url, chromium(paths) as d:
        times = [first_numbers(d, url) for _ in range(args.runs)]
        print(f"first numbers for the standard 25-player table: median "
              f"{statistics.median(times):.2f} s (runs: "
              f"{', '.join(f'{t:.2f}' for t in times)})")
        # the table, once its 10,000 games are played
        wait_for(d, "#finished")
        d.set_window_size(1280, 1150)
        d.save_screenshot(str(ROOT / "docs" / "web_table.png"))
        # compare: the standard table with and without the maniac's vest
        d.get(url + "/compare")
        vest = d.find_element(By.ID, "b_maniac_vest")
        d.execute_script("arguments[0].closest('details').open = true", vest)
        vest.click()
        games = d.find_element(By.ID, "a_games")
        games.clear()
        games.send_keys("6000")
        d.find_element(By.ID, "compare").click()
        wait_for(d, "#compare-results #finished")
        d.execute_script("arguments[0].closest('details').open = false",
                         d.find_element(By.ID, "b_maniac_vest"))
        d.execute_script("document.getElementById('compare-results').scrollIntoView()")
        d.save_screenshot(str(ROOT / "docs" / "web_compare.png"))
        # host: the kamikaze example loaded, the next turn's votes being entered
        d.get(url + "/host")
        d.find_element(By.ID, "load-file").send_keys(
            str(ROOT / "examples" / "kamikaze_meets_thug.json"))
        d.find_element(By.ID, "load").click()
        wait_for(d, "#roster")
        # the day's talk first: Sergei, the sergeant, says who he is and announces his check
        for ident, value in (("say_by_0", "1"), ("say_kind_0", "claim"),
                             ("say_value_0", "sergeant"), ("say_by_1", "1"),
                             ("say_kind_1", "check"), ("say_target_1", "6"),
                             ("say_value_1", "yakuza"), ("voter_0", "1"), ("target_0", "14"),
                             ("voter_1", "2"), ("target_1", "14")):
            el = d.find_element(By.ID, ident)
            Select(el).select_by_value(value)
            WebDriverWait(d, 30).until(lambda d, el=el: not _attached(el))
        d.execute_script("document.getElementById('turn-1').scrollIntoView()")
        d.save_screenshot(str(ROOT / "docs" / "web_host.png"))
    print("written: docs/web_table.png, docs/web_compare.png, docs/web_host.png")
    return 0


def _attached(el) -> bool:
    from selenium.common.exceptions import StaleElementReferenceException

    try:
        el.is_enabled()
        return True
    except StaleElementReferenceException:
        return False


if __name__ == "__main__":
    raise SystemExit(main())
