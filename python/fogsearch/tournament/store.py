"""Tournament results in SQLite: players with their settings, tournaments with the versions that
played (Stockfish pinned), and every game with its reason, duration, clocks and GameHistory JSON."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

from fogsearch.tournament.players import PlayerSpec
from fogsearch.tournament.runner import GameRecord, LostGame

SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    settings_json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tournaments (
    id INTEGER PRIMARY KEY,
    started_at TEXT NOT NULL,
    format TEXT NOT NULL,
    config_json TEXT NOT NULL,
    versions_json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    task_index INTEGER NOT NULL,
    white_id INTEGER NOT NULL REFERENCES players(id),
    black_id INTEGER NOT NULL REFERENCES players(id),
    seed INTEGER NOT NULL,
    winner TEXT NOT NULL CHECK (winner IN ('white', 'black', 'draw')),
    reason TEXT NOT NULL,
    crashed TEXT CHECK (crashed IS NULL OR crashed IN ('white', 'black')),
    error TEXT,
    duration_s REAL NOT NULL,
    white_seconds_left REAL NOT NULL,
    black_seconds_left REAL NOT NULL,
    turns INTEGER NOT NULL,
    finished_at TEXT NOT NULL,
    history_json TEXT NOT NULL,
    white_fallbacks INTEGER NOT NULL DEFAULT 0,
    black_fallbacks INTEGER NOT NULL DEFAULT 0,
    UNIQUE (tournament_id, task_index)
);
CREATE TABLE IF NOT EXISTS lost_games (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    task_index INTEGER NOT NULL,
    white_id INTEGER NOT NULL REFERENCES players(id),
    black_id INTEGER NOT NULL REFERENCES players(id),
    seed INTEGER NOT NULL,
    why TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    UNIQUE (tournament_id, task_index)
);
"""
# Columns added after the first release: (name, definition) appended to older databases on open,
# so results stored before them stay readable and can be appended to.
ADDED_GAME_COLUMNS = (
    ("white_fallbacks", "INTEGER NOT NULL DEFAULT 0"),
    ("black_fallbacks", "INTEGER NOT NULL DEFAULT 0"),
)


class ResultStore:
    """A SQLite results database; safe to reopen and append to."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        self.conn = sqlite3.connect(self.path)
        self.conn.execute("PRAGMA foreign_keys = ON")
        self.conn.executescript(SCHEMA)
        self._add_missing_columns()

    def _add_missing_columns(self) -> None:
        present = {row[1] for row in self.conn.execute("PRAGMA table_info(games)")}
        with self.conn:
            for name, definition in ADDED_GAME_COLUMNS:
                if name not in present:
                    self.conn.execute(f"ALTER TABLE games ADD COLUMN {name} {definition}")

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def player_id(self, spec: PlayerSpec) -> int:
        """The id of ``spec``'s name, registering it; a name reused with other settings is an error,
        because results under one name must come from one configuration."""
        row = self.conn.execute(
            "SELECT id, kind, settings_json FROM players WHERE name = ?", (spec.name,)
        ).fetchone()
        if row is not None:
            if (row[1], row[2]) != (spec.kind, spec.settings_json()):
                raise ValueError(
                    f"player name {spec.name!r} is already stored with kind {row[1]!r} and settings "
                    f"{row[2]}; label this configuration differently (kind:settings@label)"
                )
            return row[0]
        with self.conn:
            cur = self.conn.execute(
                "INSERT INTO players (name, kind, settings_json) VALUES (?, ?, ?)",
                (spec.name, spec.kind, spec.settings_json()),
            )
        return cur.lastrowid

    def start_tournament(self, fmt: str, config: dict, versions: dict) -> int:
        with self.conn:
            cur = self.conn.execute(
                "INSERT INTO tournaments (started_at, format, config_json, versions_json) "
                "VALUES (?, ?, ?, ?)",
                (
                    _now(),
                    fmt,
                    json.dumps(config, sort_keys=True),
                    json.dumps(versions, sort_keys=True),
                ),
            )
        return cur.lastrowid

    def add_game(
        self, tournament_id: int, record: GameRecord, white_id: int, black_id: int
    ) -> None:
        with self.conn:
            self.conn.execute(
                "INSERT INTO games (tournament_id, task_index, white_id, black_id, seed, winner, "
                "reason, crashed, error, duration_s, white_seconds_left, black_seconds_left, turns, "
                "finished_at, history_json, white_fallbacks, black_fallbacks) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    tournament_id,
                    record.task_index,
                    white_id,
                    black_id,
                    record.seed,
                    record.winner,
                    record.reason,
                    record.crashed,
                    record.error,
                    record.duration_s,
                    record.white_seconds_left,
                    record.black_seconds_left,
                    record.turns,
                    _now(),
                    record.history_json,
                    record.white_fallbacks,
                    record.black_fallbacks,
                ),
            )

    def add_lost_game(
        self, tournament_id: int, lost: LostGame, white_id: int, black_id: int
    ) -> None:
        with self.conn:
            self.conn.execute(
                "INSERT INTO lost_games (tournament_id, task_index, white_id, black_id, seed, why, "
                "finished_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (tournament_id, lost.task_index, white_id, black_id, lost.seed, lost.why, _now()),
            )

    def lost_games(self, tournament_id: int) -> list[dict]:
        """Games of the tournament whose process died before reporting a result."""
        rows = self.conn.execute(
            "SELECT l.task_index, w.name, b.name, l.seed, l.why FROM lost_games l "
            "JOIN players w ON w.id = l.white_id JOIN players b ON b.id = l.black_id "
            "WHERE l.tournament_id = ? ORDER BY l.task_index",
            (tournament_id,),
        )
        keys = ["task_index", "white", "black", "seed", "why"]
        return [dict(zip(keys, row, strict=True)) for row in rows]

    def games(self, tournament_id: int | None = None) -> list[dict]:
        """Games as dicts with player names, oldest first (all tournaments if no id is given)."""
        query = (
            "SELECT g.id, g.tournament_id, w.name, b.name, g.winner, g.reason, g.crashed, "
            "g.duration_s, g.white_seconds_left, g.black_seconds_left, g.turns, "
            "g.white_fallbacks, g.black_fallbacks "
            "FROM games g JOIN players w ON w.id = g.white_id JOIN players b ON b.id = g.black_id"
        )
        params: tuple = ()
        if tournament_id is not None:
            query += " WHERE g.tournament_id = ?"
            params = (tournament_id,)
        keys = [
            "id",
            "tournament_id",
            "white",
            "black",
            "winner",
            "reason",
            "crashed",
            "duration_s",
            "white_seconds_left",
            "black_seconds_left",
            "turns",
            "white_fallbacks",
            "black_fallbacks",
        ]
        return [
            dict(zip(keys, row, strict=True))
            for row in self.conn.execute(query + " ORDER BY g.id", params)
        ]

    def history_json(self, game_id: int) -> str:
        row = self.conn.execute(
            "SELECT history_json FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise KeyError(f"no game with id {game_id}")
        return row[0]

    def tournament(self, tournament_id: int) -> dict:
        row = self.conn.execute(
            "SELECT started_at, format, config_json, versions_json FROM tournaments WHERE id = ?",
            (tournament_id,),
        ).fetchone()
        if row is None:
            raise KeyError(f"no tournament with id {tournament_id}")
        return {
            "id": tournament_id,
            "started_at": row[0],
            "format": row[1],
            "config": json.loads(row[2]),
            "versions": json.loads(row[3]),
        }

    def latest_tournament_id(self) -> int | None:
        row = self.conn.execute("SELECT MAX(id) FROM tournaments").fetchone()
        return row[0]


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
