"""A live server of the page and a headless Chromium for the browser tests and
scripts/screenshots.py: Debian's Chromium and ChromeDriver, never a browser downloaded at
run time. `find_browser()` says why there is none."""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--window-size=1280,1000"]


def find_browser() -> tuple[str, str] | str:
    """(chromium, chromedriver) paths, or the reason the browser tests cannot run."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[dev]')"
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not chromium or not driver:
        return ("no Chromium and ChromeDriver found (Debian: apt-get install chromium "
                "chromium-driver)")
    return chromium, driver


@contextmanager
def live_server(jobs: int = 1, data: Path | None = None) -> Iterator[str]:
    """The page on a free loopback port, served by uvicorn in a thread; its base URL.
    `data`: the folder of its games' database (None: games in memory only)."""
    import uvicorn

    from sim.web.app import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(create_app(jobs=jobs, allowed_hosts={"127.0.0.1", "localhost"},
                                       data=data),
                            host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the page's server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


@contextmanager
def chromium(paths: tuple[str, str], downloads: str | None = None) -> Iterator[Any]:
    """A headless Chromium driven by Selenium, with a fresh profile."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="mafia-sim-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = paths[0]
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    if downloads:
        options.add_experimental_option("prefs", {
            "download.default_directory": downloads, "download.prompt_for_download": False})
    os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager downloads nothing
    driver = webdriver.Chrome(options=options, service=Service(paths[1]))
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
