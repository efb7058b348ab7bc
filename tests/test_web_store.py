"""Hosted games kept across restarts (issue 25, point 2): sim.web.store and the page."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from sim.game.errors import InputError
from sim.play.resolve import resolve
from sim.web.app import create_app
from sim.web.store import FORMAT, GameStore, StaleGame, StoreError

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
GAME = json.loads((EXAMPLES / "kamikaze_meets_thug.json").read_text(encoding="utf-8"))
SID = "a" * 24


def test_a_game_is_stored_and_each_save_is_a_new_revision(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    got = store.create(SID, GAME, "Осень")
    assert got.revision == 0 and got.name == "Осень"
    shorter = {**GAME, "turns": GAME["turns"][:1]}
    assert store.save(got.id, 0, shorter, {}, SID) == 1
    again = GameStore(tmp_path).load(got.id)  # a new store on the folder: a restart
    assert again.game == shorter and again.revision == 1
    assert store.latest_of(SID) == again
    assert store.latest_of("b" * 24) is None


def test_a_save_from_an_old_revision_is_refused(tmp_path: Path) -> None:
    """Two pages on one game: the second one's turn, made before the first one's, would mix
    the two; it is refused and the stored game stands."""
    store = GameStore(tmp_path)
    got = store.create(SID, GAME)
    store.save(got.id, 0, GAME, {}, SID)
    with pytest.raises(StaleGame):
        store.save(got.id, 0, {**GAME, "turns": []}, {}, "c" * 24)
    assert store.load(got.id).game == GAME


def test_rename_delete_and_the_list(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    a, b = store.create(SID, GAME, "A"), store.create(SID, GAME, "B")
    store.rename(a.id, "  Весенняя   игра ")
    with pytest.raises(StoreError, match="must not be empty"):
        store.rename(a.id, "   ")
    names = {g.id: g.name for g in store.games()}
    assert names == {a.id: "Весенняя игра", b.id: "B"}
    store.delete(b.id)
    assert [g.id for g in store.games()] == [a.id]
    with pytest.raises(StoreError, match="no such stored game"):
        store.load(b.id)
    assert store.games()[0].players == len(GAME["players"])


def test_a_game_from_a_newer_format_says_why_it_does_not_load(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    got = store.create(SID, GAME, "Новая")
    with sqlite3.connect(tmp_path / "games.sqlite3") as db:
        db.execute("UPDATE games SET format = ? WHERE id = ?", (FORMAT + 1, got.id))
    with pytest.raises(StoreError, match=f"newer mafia-sim stored it \\(format {FORMAT + 1}"):
        store.load(got.id)
    assert store.games()[0].readable == "game_newer"
    assert store.games()[0].format == FORMAT + 1  # the list says which format, not "?"
    assert store.latest_of(SID) is None  # the page starts empty rather than failing


def test_not_a_database_is_one_clear_error(tmp_path: Path) -> None:
    (tmp_path / "games.sqlite3").write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(InputError, match="not a mafia-sim games"):
        GameStore(tmp_path)


def _client(data: Path, sid: str = SID) -> TestClient:
    c = TestClient(create_app(data=data))
    c.cookies.set("sid", sid)
    return c


def _load(client: TestClient) -> str:
    r = client.post("/host/load", files={"file": ("game.json",
                                                  json.dumps(GAME).encode(), "application/json")},
                    headers={"hx-request": "true"})
    assert r.status_code == 200, r.text[:300]
    return r.text


def test_a_restart_brings_the_same_browser_back_to_its_game(tmp_path: Path) -> None:
    with _client(tmp_path) as c:
        page = _load(c)
        assert 'id="paper-ru-1"' in page
        rev = re.search(r'name="revision" value="(\d+)"', page).group(1)
        r = c.post("/host/turn", data={"revision": rev, "votes": "0", "act_5": "2",
                                       "action": "resolve"})
        assert 'id="paper-ru-2"' in r.text
        shown = re.search(r'id="paper-ru-2"[^>]*>(.*?)</textarea>', r.text, re.S).group(1)
    with _client(tmp_path) as c:  # a new server on the same data folder
        page = c.get("/host").text
        assert 'id="paper-ru-2"' in page and 'id="turn-form"' in page
        assert re.search(r'id="paper-ru-2"[^>]*>(.*?)</textarea>', page, re.S).group(1) == shown
        assert 'id="stored-games"' in page
    with _client(tmp_path, "d" * 24) as other:  # another browser: no game of its own
        page = other.get("/host").text
        assert 'id="paper-ru-2"' not in page and 'id="players-form"' in page
        first = GAME["players"][0]["name"]
        assert f'value="{first}"' not in page.split('id="stored-games"')[0]


def test_a_stale_tab_cannot_mix_its_turn_into_the_game(tmp_path: Path) -> None:
    with _client(tmp_path) as c:
        page = _load(c)
        rev = re.search(r'name="revision" value="(\d+)"', page).group(1)
        c.post("/host/turn", data={"revision": rev, "votes": "0", "act_5": "2",
                                   "action": "resolve"})
        # the second tab still shows the old revision and resolves its own turn 2
        r = c.post("/host/turn", data={"revision": rev, "votes": "0", "act_5": "3",
                                       "action": "resolve"})
        assert "устарела" in r.text
        stored = GameStore(tmp_path).games()[0]
        assert stored.turns == len(GAME["turns"]) + 1


def test_resume_rename_download_and_delete_on_the_page(tmp_path: Path) -> None:
    with _client(tmp_path) as c:
        _load(c)
        c.post("/host/turn", data={"action": "new"})
        gid = GameStore(tmp_path).games()[0].id
        r = c.post(f"/host/games/{gid}/rename", data={"name": "Пятничная"},
                   headers={"hx-request": "true"})
        assert "Пятничная" in r.text
        r = c.post(f"/host/games/{gid}/resume", headers={"hx-request": "true"})
        assert 'id="paper-ru-1"' in r.text
        got = c.get(f"/host/games/{gid}.json")
        assert got.status_code == 200 and json.loads(got.content) == GAME
        assert resolve(json.loads(got.content))["turns"]
        r = c.post(f"/host/games/{gid}/delete", headers={"hx-request": "true"})
        assert 'id="players-form"' in r.text and GameStore(tmp_path).games() == []
        r = c.post("/host/games/0123456789abcdef/resume", headers={"hx-request": "true"})
        assert "Такой сохранённой игры нет" in r.text
        r = c.post("/host/games/..%2F..%2Fetc/resume", headers={"hx-request": "true"})
        assert r.status_code < 500


def test_kill_9_in_the_middle_of_saves_loses_at_most_the_save_in_progress(
        tmp_path: Path) -> None:
    """One transaction per turn: a server killed while saving leaves the last committed
    game, whole (its note carries the revision it was saved as)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    store = GameStore(tmp_path)
    got = store.create(SID, GAME)
    script = (
        "import sys, json\n"
        "from pathlib import Path\n"
        "from sim.web.store import GameStore\n"
        "store = GameStore(Path(sys.argv[1]))\n"
        "game = json.loads(sys.argv[3])\n"
        "rev = 0\n"
        "while True:\n"
        "    game['note'] = 'x' * 20000 + str(rev + 1)\n"
        "    rev = store.save(sys.argv[2], rev, game, {}, 'k' * 24)\n"
        "    print(rev, flush=True)\n")
    proc = subprocess.Popen([sys.executable, "-c", script, str(tmp_path), got.id,
                             json.dumps(GAME)], stdout=subprocess.PIPE, text=True,
                            cwd=Path(__file__).resolve().parents[1])
    assert proc.stdout is not None
    while int(proc.stdout.readline() or 0) < 20:  # well into its saves
        pass
    time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    after = GameStore(tmp_path).load(got.id)
    assert after.revision >= 20
    assert after.game["note"] == "x" * 20000 + str(after.revision)
    assert after.game["players"] == GAME["players"]
