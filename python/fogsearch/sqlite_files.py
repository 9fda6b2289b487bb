"""Opening fogsearch's SQLite files (the tournament results, the server's games): the checks that
come before anything is written, so that a mistyped path or another application's file ends
with a clear :class:`~fogsearch.arguments.UsageError` naming the file, and is left unchanged."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from fogsearch.arguments import UsageError


@dataclass(frozen=True)
class Header:
    """What a file says of itself: its application id, schema version and table names."""

    application_id: int
    version: int
    tables: frozenset[str]


def connect(path: str, what: str, **options) -> sqlite3.Connection:
    """A connection to ``path`` (``what``: "results database", ...): its folder must exist and
    the path must not be a folder."""
    folder = Path(path).parent
    if not folder.is_dir():
        raise UsageError(f"{what} {path}: its folder {folder} does not exist")
    if Path(path).is_dir():
        raise UsageError(f"{what} {path} is a folder; name a file")
    try:
        return sqlite3.connect(path, **options)
    except sqlite3.Error as exc:
        raise UsageError(f"{what} {path} cannot be opened: {exc}") from None


def read_header(conn: sqlite3.Connection, path: str, what: str, kind: str) -> Header:
    """The file's :class:`Header`; a file that is not SQLite is refused (``kind``: "results",
    "server", the fogsearch file to name instead)."""
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = frozenset(
            row[0]
            for row in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        )
    except sqlite3.DatabaseError as exc:
        raise UsageError(
            f"{what} {path} is not an SQLite database ({exc}); "
            f"name a new file or a fogsearch {kind} file"
        ) from None
    return Header(app_id, version, tables)


def refuse_newer(path: str, what: str, version: int, supported: int) -> None:
    """A file written by a newer fogsearch is not read: its columns may mean other things."""
    if version > supported:
        raise UsageError(
            f"{what} {path} was written by a newer fogsearch (schema "
            f"{version}; this one reads up to {supported}): upgrade fogsearch"
        )
