"""The hosted games, kept in an embedded SQLite database (issue 25: a forum game runs for
days, and a page that loses one on a restart is not a page a host trusts).

- One row per game: its id, a name the host chose, the browser that hosts it (the page's
  `sid` cookie), the game file (the `resolve` schema, JSON) and the turn being entered (the
  draft), the format it was written in, and a revision that grows with every save.
- Every save is one transaction (`with db:`): a `kill -9` in the middle of one loses at most
  that save, never the game before it (SQLite's atomic commit, write-ahead log).
- A save names the revision it was made from; one made from an older revision (a second tab
  or a second host that had not seen the last turn) is refused, so two pages never mix
  their turns into one game.
- A game written by another version of the format loads when this version knows the format,
  and otherwise says which format it is and which this version reads.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from sim.game.errors import InputError
from sim.web.i18n import page_msg

#: the format of a stored game (its JSON and the columns beside it); a newer one is refused
FORMAT: Final = 1
#: the longest name a host may give a game (the same as a player's name on the page)
MAX_GAME_NAME: Final = 60
#: the most games one database keeps listed (the oldest beyond it are still kept, not shown)
MAX_LISTED: Final = 200

SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    owner TEXT NOT NULL,
    format INTEGER NOT NULL,
    revision INTEGER NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    game TEXT NOT NULL,
    draft TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_owner ON games (owner, updated);
"""


class StoreError(InputError):
    """A refusal of the store: `key` and `values` name it for the page's words."""

    def __init__(self, key: str, **values: object) -> None:
        # the page's words (sim.web.i18n): the same message in English here and in the
        # reader's language on the page
        super().__init__(page_msg(key, **values))
        self.key = key
        self.values = values


class StaleGame(StoreError):
    """A save made from a revision older than the stored one."""


@dataclass(frozen=True)
class StoredGame:
    id: str
    name: str
    owner: str
    revision: int
    created: float
    updated: float
    game: dict[str, Any]
    draft: dict[str, str]


@dataclass(frozen=True)
class GameSummary:
    """A row of the host's list of games."""

    id: str
    name: str
    owner: str
    revision: int
    updated: float
    players: int
    turns: int
    readable: str  # "" when the game loads, else why not (a StoreError's key)
    format: int = FORMAT  # the format it was stored in (a newer one says which)


def default_folder() -> Path:
    """The user's data folder for mafia-sim (platformdirs: ~/.local/share/mafia-sim on Linux,
    the AppData folder on Windows, Application Support on macOS)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("mafia-sim", appauthor=False))


class GameStore:
    """The games of one data folder (`games.sqlite3` in it)."""

    def __init__(self, folder: Path) -> None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise InputError("cannot create the data folder {folder}: {strerror}",
                             folder=folder, strerror=e.strerror) from None
        self.path = folder / "games.sqlite3"
        try:
            with self._db() as db:
                db.execute("PRAGMA journal_mode=WAL")
                db.executescript(SCHEMA)
        except sqlite3.DatabaseError as e:
            raise InputError("{path} is not a mafia-sim games database: {e}",
                             path=self.path, e=e) from None

    @contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        # A connection per use: the server's threads never share one, and `with db` makes
        # each use one transaction (committed, or rolled back on an error).
        with closing(sqlite3.connect(self.path, timeout=10)) as db, db:
            db.execute("PRAGMA synchronous=FULL")
            yield db

    # -- writing ------------------------------------------------------------------------------
    def create(self, owner: str, game: dict[str, Any], name: str = "") -> StoredGame:
        gid = secrets.token_hex(8)
        now = time.time()
        name = clean_name(name) or default_name(game, now)
        with self._db() as db:
            db.execute("INSERT INTO games VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?)",
                       (gid, name, owner, FORMAT, now, now, _dump(game), "{}"))
        return StoredGame(gid, name, owner, 0, now, now, game, {})

    def save(self, gid: str, revision: int, game: dict[str, Any], draft: dict[str, str],
             owner: str) -> int:
        """Store a new state of game `gid` made from `revision`; returns the new revision.
        Refused (StaleGame) when the stored game moved on since `revision`."""
        now = time.time()
        with self._db() as db:
            row = db.execute("SELECT revision FROM games WHERE id = ?", (gid,)).fetchone()
            if row is None:
                raise StoreError("game_gone")
            if row[0] != revision:
                raise StaleGame("game_stale")
            db.execute("UPDATE games SET game = ?, draft = ?, revision = ?, updated = ?, "
                       "owner = ?, format = ? WHERE id = ?",
                       (_dump(game), _dump(draft), revision + 1, now, owner, FORMAT, gid))
        return revision + 1

    def save_draft(self, gid: str, draft: dict[str, str]) -> None:
        """The turn being entered (not a new revision: it changes no turn of the game)."""
        with self._db() as db:
            db.execute("UPDATE games SET draft = ? WHERE id = ?", (_dump(draft), gid))

    def rename(self, gid: str, name: str) -> None:
        name = clean_name(name)
        if not name:
            raise StoreError("game_name_empty")
        with self._db() as db:
            db.execute("UPDATE games SET name = ? WHERE id = ?", (name, gid))

    def delete(self, gid: str) -> None:
        with self._db() as db:
            db.execute("DELETE FROM games WHERE id = ?", (gid,))

    def take(self, gid: str, owner: str) -> None:
        """Make `owner` the browser that hosts the game (it comes back to it after a
        restart)."""
        with self._db() as db:
            db.execute("UPDATE games SET owner = ? WHERE id = ?", (owner, gid))

    # -- reading ------------------------------------------------------------------------------
    def load(self, gid: str) -> StoredGame:
        with self._db() as db:
            row = db.execute("SELECT id, name, owner, format, revision, created, updated, "
                             "game, draft FROM games WHERE id = ?", (gid,)).fetchone()
        if row is None:
            raise StoreError("game_missing")
        return _stored(row)

    def latest_of(self, owner: str) -> StoredGame | None:
        """The game this browser hosted last, if it loads."""
        with self._db() as db:
            row = db.execute("SELECT id, name, owner, format, revision, created, updated, "
                             "game, draft FROM games WHERE owner = ? ORDER BY updated DESC "
                             "LIMIT 1", (owner,)).fetchone()
        if row is None:
            return None
        try:
            return _stored(row)
        except StoreError:
            return None

    def games(self) -> list[GameSummary]:
        """Every stored game, the most recently played first."""
        with self._db() as db:
            rows = db.execute("SELECT id, name, owner, format, revision, updated, game FROM "
                              "games ORDER BY updated DESC LIMIT ?", (MAX_LISTED,)).fetchall()
        out = []
        for gid, name, owner, fmt, revision, updated, text in rows:
            players = turns = 0
            why = ""
            try:
                fault = _format_fault(name, fmt)
                if fault is not None:
                    raise fault
                game = json.loads(text)
                players, turns = len(game.get("players", [])), len(game.get("turns", []))
            except StoreError as e:
                why = e.key
            except (ValueError, AttributeError, TypeError):
                why = "game_damaged"
            out.append(GameSummary(gid, name, owner, revision, updated, players, turns, why,
                                   fmt))
        return out


def clean_name(name: str) -> str:
    return " ".join(str(name).split())[:MAX_GAME_NAME]


def default_name(game: dict[str, Any], now: float) -> str:
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(now))
    return f"{len(game.get('players', []))} · {when}"


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _format_fault(name: str, fmt: int) -> StoreError | None:
    if not 1 <= fmt <= FORMAT:
        return StoreError("game_newer", name=name, fmt=fmt, known=FORMAT)
    return None


def _stored(row: tuple[Any, ...]) -> StoredGame:
    gid, name, owner, fmt, revision, created, updated, text, draft_text = row
    fault = _format_fault(name, fmt)
    if fault is not None:
        raise fault
    try:
        game, draft = json.loads(text), json.loads(draft_text)
    except ValueError:
        raise StoreError("game_damaged", name=name) from None
    if not isinstance(game, dict) or not isinstance(draft, dict):
        raise StoreError("game_damaged", name=name)
    return StoredGame(gid, name, owner, revision, created, updated, game,
                      {str(k): str(v) for k, v in draft.items()})
