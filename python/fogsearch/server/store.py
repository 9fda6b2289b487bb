"""The server's SQLite file: users (a salted password hash, max_games, ranked, version), the
``--pair`` matches, the invitations, and every game with its players, colours, result, win
reason, clocks and reconchess GameHistory JSON, written as the game ends.

Restart-safe: users and finished games stay; ids go on from the largest stored, so a client that
remembers an id from before a restart never meets it again for another game; a game that was in
play when the server stopped is marked ``abandoned`` when the file is opened again (its moves
lived only in that server's memory), and its invitations are closed.

The file is marked as fogsearch's server file (SQLite's ``application_id``) with its schema
version (``user_version``); any other file is refused before anything is written to it.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import sqlite3
import threading
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from fogsearch.arguments import UsageError
from fogsearch.sqlite_files import connect, read_header, refuse_newer

WHAT = "server database"
APPLICATION_ID = int.from_bytes(b"FOGR", "big")
"""``PRAGMA application_id`` of a fogsearch RBC server file (the tournament's is ``FOGS``)."""
SCHEMA_VERSION = 1
PBKDF2_ROUNDS = 200_000
"""PBKDF2-SHA256 rounds for a stored password: about 0.1 s once per user and server start (the
handler keeps verified credentials in memory, so a game's polling does not pay it)."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS users (
    name TEXT PRIMARY KEY,
    salt BLOB NOT NULL,
    password_hash BLOB NOT NULL,
    created_at TEXT NOT NULL,
    max_games INTEGER NOT NULL DEFAULT 1,
    ranked INTEGER NOT NULL DEFAULT 0,
    version INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    user_a TEXT NOT NULL,
    user_b TEXT NOT NULL,
    games INTEGER NOT NULL,
    seconds REAL NOT NULL,
    increment REAL NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('running', 'finished')),
    created_at TEXT NOT NULL,
    finished_at TEXT
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    match_id INTEGER REFERENCES matches(id),
    white TEXT NOT NULL,
    black TEXT NOT NULL,
    seconds REAL NOT NULL,
    increment REAL NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('playing', 'finished', 'abandoned')),
    created_at TEXT NOT NULL,
    finished_at TEXT,
    winner TEXT CHECK (winner IS NULL OR winner IN ('white', 'black', 'draw')),
    win_reason TEXT,
    white_seconds_left REAL,
    black_seconds_left REAL,
    turns INTEGER,
    history_json TEXT
);
CREATE TABLE IF NOT EXISTS invitations (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    username TEXT NOT NULL,
    accepted INTEGER NOT NULL DEFAULT 0,
    finished INTEGER NOT NULL DEFAULT 0
);
"""


@dataclass(frozen=True)
class GameResult:
    """What is stored when a game ends. ``winner`` is ``white``, ``black`` or ``draw``."""

    winner: str
    win_reason: str | None
    white_seconds_left: float
    black_seconds_left: float
    turns: int
    history_json: str


@dataclass(frozen=True)
class StoredMatch:
    id: int
    user_a: str
    user_b: str
    games: int
    seconds: float
    increment: float
    finished_games: int


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _rowid(cursor: sqlite3.Cursor) -> int:
    if cursor.lastrowid is None:
        raise RuntimeError("SQLite gave no row id for an INSERT")
    return cursor.lastrowid


def password_hash(password: str, salt: bytes) -> bytes:
    return hashlib.pbkdf2_hmac("sha256", password.encode(), salt, PBKDF2_ROUNDS)


class ServerStore:
    """The server's SQLite file; one connection shared by the handler's threads under a lock.
    Raises :class:`~fogsearch.arguments.UsageError` (naming the path) for a file that cannot be
    a server file, before writing anything to it."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        self._lock = threading.Lock()
        self.conn = connect(self.path, WHAT, check_same_thread=False)
        try:
            self._open()
        except BaseException:
            self.conn.close()
            raise

    def _open(self) -> None:
        header = read_header(self.conn, self.path, WHAT, "server")
        app_id, version, tables = header.application_id, header.version, len(header.tables)
        if app_id == APPLICATION_ID:
            refuse_newer(self.path, WHAT, version, SCHEMA_VERSION)
        if app_id != APPLICATION_ID and (app_id or version or tables):
            raise UsageError(
                f"server database {self.path} is not a fogsearch server file (application_id "
                f"{app_id}, user_version {version}, {tables} tables); it was left unchanged"
            )
        self.conn.execute("PRAGMA foreign_keys = ON")
        with self.conn:
            self.conn.execute("BEGIN")  # sqlite3 opens no transaction for DDL by itself
            for statement in filter(str.strip, SCHEMA.split(";")):
                self.conn.execute(statement)
            self.conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            self.conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            # A game in play when the server last stopped cannot go on: its board was in memory.
            self.conn.execute(
                "UPDATE games SET status = 'abandoned', finished_at = ? WHERE status = 'playing'",
                (now(),),
            )
            self.conn.execute(
                "UPDATE invitations SET finished = 1 WHERE game_id IN "
                "(SELECT id FROM games WHERE status = 'abandoned')"
            )

    def close(self) -> None:
        with self._lock:
            self.conn.close()

    # -- users ------------------------------------------------------------------------------

    def check_or_create_user(self, name: str, password: str) -> tuple[bool, bool]:
        """``(known, password_right)``; an unknown name is registered with this password (the
        server's "registered on first login"), which then sticks to it."""
        with self._lock:
            row = self.conn.execute(
                "SELECT salt, password_hash FROM users WHERE name = ?", (name,)
            ).fetchone()
        if row is not None:
            return True, hmac.compare_digest(password_hash(password, row[0]), row[1])
        created = self.create_user(name, password)
        return False, created or self.check_or_create_user(name, password)[1]

    def create_user(self, name: str, password: str) -> bool:
        """Registers ``name``; False when it is taken (two first logins at once: one wins)."""
        # A password salt must be unpredictable, so it is the one random thing here with no seed.
        salt = os.urandom(16)
        digest = password_hash(password, salt)
        with self._lock, self.conn:
            cursor = self.conn.execute(
                "INSERT OR IGNORE INTO users (name, salt, password_hash, created_at) "
                "VALUES (?, ?, ?, ?)",
                (name, salt, digest, now()),
            )
            return cursor.rowcount == 1

    def user_count(self) -> int:
        with self._lock:
            return self.conn.execute("SELECT count(*) FROM users").fetchone()[0]

    def user_field(self, name: str, field: str) -> int:
        if field not in ("max_games", "ranked", "version"):
            raise ValueError(f"no user field {field!r}")
        with self._lock:
            row = self.conn.execute(f"SELECT {field} FROM users WHERE name = ?", (name,)).fetchone()
        if row is None:
            raise KeyError(name)
        return int(row[0])

    def set_user_field(self, name: str, field: str, value: int) -> None:
        if field not in ("max_games", "ranked", "version"):
            raise ValueError(f"no user field {field!r}")
        with self._lock, self.conn:
            self.conn.execute(f"UPDATE users SET {field} = ? WHERE name = ?", (value, name))

    # -- games and invitations --------------------------------------------------------------

    def create_game(
        self, white: str, black: str, seconds: float, increment: float, match_id: int | None
    ) -> int:
        with self._lock, self.conn:
            cursor = self.conn.execute(
                "INSERT INTO games (match_id, white, black, seconds, increment, status, "
                "created_at) VALUES (?, ?, ?, ?, ?, 'playing', ?)",
                (match_id, white, black, seconds, increment, now()),
            )
            return _rowid(cursor)

    def finish_game(self, game_id: int, result: GameResult) -> None:
        with self._lock, self.conn:
            self.conn.execute(
                "UPDATE games SET status = 'finished', finished_at = ?, winner = ?, "
                "win_reason = ?, white_seconds_left = ?, black_seconds_left = ?, turns = ?, "
                "history_json = ? WHERE id = ?",
                (
                    now(),
                    result.winner,
                    result.win_reason,
                    result.white_seconds_left,
                    result.black_seconds_left,
                    result.turns,
                    result.history_json,
                    game_id,
                ),
            )

    def finished_game(self, game_id: int) -> dict | None:
        """A finished game's row as a dict (``None`` if it is not stored or not finished)."""
        with self._lock:
            cursor = self.conn.execute(
                "SELECT * FROM games WHERE id = ? AND status = 'finished'", (game_id,)
            )
            row = cursor.fetchone()
            names = [d[0] for d in cursor.description]
        return None if row is None else dict(zip(names, row, strict=True))

    def create_invitation(self, game_id: int, username: str) -> int:
        with self._lock, self.conn:
            cursor = self.conn.execute(
                "INSERT INTO invitations (game_id, username) VALUES (?, ?)", (game_id, username)
            )
            return _rowid(cursor)

    def mark_invitation(self, invitation_id: int, column: str) -> None:
        if column not in ("accepted", "finished"):
            raise ValueError(f"no invitation column {column!r}")
        with self._lock, self.conn:
            self.conn.execute(f"UPDATE invitations SET {column} = 1 WHERE id = ?", (invitation_id,))

    # -- matches ----------------------------------------------------------------------------

    def open_match(
        self, user_a: str, user_b: str, games: int, seconds: float, increment: float
    ) -> StoredMatch:
        """The running match with these terms (resumed after a restart), or a new one."""
        terms = (user_a, user_b, games, seconds, increment)
        with self._lock, self.conn:
            row = self.conn.execute(
                "SELECT id FROM matches WHERE user_a = ? AND user_b = ? AND games = ? "
                "AND seconds = ? AND increment = ? AND status = 'running' ORDER BY id LIMIT 1",
                terms,
            ).fetchone()
            if row is None:
                cursor = self.conn.execute(
                    "INSERT INTO matches (user_a, user_b, games, seconds, increment, status, "
                    "created_at) VALUES (?, ?, ?, ?, ?, 'running', ?)",
                    (*terms, now()),
                )
                match_id = _rowid(cursor)
            else:
                match_id = int(row[0])
        return StoredMatch(match_id, *terms, finished_games=self.match_games_finished(match_id))

    def match_games_finished(self, match_id: int) -> int:
        with self._lock:
            return self.conn.execute(
                "SELECT count(*) FROM games WHERE match_id = ? AND status = 'finished'",
                (match_id,),
            ).fetchone()[0]

    def finish_match(self, match_id: int) -> None:
        with self._lock, self.conn:
            self.conn.execute(
                "UPDATE matches SET status = 'finished', finished_at = ? WHERE id = ?",
                (now(), match_id),
            )
