"""The results database's tables: fogsearch's first schema's columns and those added since
(:mod:`fogsearch.tournament.store` creates and upgrades them)."""

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
    versions_json TEXT NOT NULL,
    games_planned INTEGER,
    status TEXT CHECK (status IS NULL OR status IN ('running', 'finished', 'stopped', 'failed')),
    ended_at TEXT,
    stop_reason TEXT
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
FIRST_COLUMNS = {
    "players": {"id", "name", "kind", "settings_json"},
    "tournaments": {"id", "started_at", "format", "config_json", "versions_json"},
    "games": {
        "id",
        "tournament_id",
        "task_index",
        "white_id",
        "black_id",
        "seed",
        "winner",
        "reason",
        "crashed",
        "error",
        "duration_s",
        "white_seconds_left",
        "black_seconds_left",
        "turns",
        "finished_at",
        "history_json",
    },
}
"""The tables and columns of fogsearch's first schema: an unversioned file holding them (and
no other tables but ``lost_games``) is fogsearch's, and is upgraded."""
ADDED_COLUMNS = {
    "games": (
        ("white_fallbacks", "INTEGER NOT NULL DEFAULT 0"),
        ("black_fallbacks", "INTEGER NOT NULL DEFAULT 0"),
        ("white_clock_used_s", "REAL"),
        ("black_clock_used_s", "REAL"),
        ("white_clock_s", "REAL"),
        ("black_clock_s", "REAL"),
        ("white_increment_s", "REAL"),
        ("black_increment_s", "REAL"),
        ("white_turn_log_json", "TEXT"),
        ("black_turn_log_json", "TEXT"),
    ),
    "tournaments": (
        ("games_planned", "INTEGER"),
        ("status", "TEXT"),
        ("ended_at", "TEXT"),
        ("stop_reason", "TEXT"),
    ),
}
"""Columns added since the first schema, appended to older files (earlier rows keep their
defaults: no fallbacks, and NULL for the clock used and how a tournament ended, which were not
recorded)."""
