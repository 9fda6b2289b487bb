"""Tournament results in SQLite: players with their settings, tournaments with the versions that
played (Stockfish pinned) and how they ended, and every game with its reason, duration, clocks and
GameHistory JSON.

The file is marked as fogsearch's (SQLite's ``application_id``) with the schema's version
(``user_version``). A file that is not fogsearch's (not SQLite, or another application's tables)
is refused before anything is written to it; results written before the schema was versioned
are upgraded in place; a file from a newer fogsearch is refused.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

from fogsearch.arguments import UsageError
from fogsearch.sqlite_files import connect, read_header, refuse_newer
from fogsearch.tournament.players import PlayerSpec
from fogsearch.tournament.runner import GameRecord, LostGame
from fogsearch.tournament.store_schema import ADDED_COLUMNS, FIRST_COLUMNS, SCHEMA

WHAT = "results database"
APPLICATION_ID = int.from_bytes(b"FOGS", "big")
"""SQLite's ``PRAGMA application_id`` of a fogsearch results file."""
SCHEMA_VERSION = 5
"""``PRAGMA user_version``: 2 added how each tournament ended (status, ended_at, stop_reason,
games_planned), 3 the clock each side used in each game, 4 the clock and increment each side
started with (a player may have its own), 5 the fogsearch bot's per-turn log of each side. Unversioned files (0) are fogsearch's
first schemas, with or without the fallback columns and the lost_games table."""

TOURNAMENT_ENDS = ("finished", "stopped", "failed")


class ResultStore:
    """A SQLite results database; safe to reopen and append to. Raises
    :class:`~fogsearch.arguments.UsageError` (naming the path) for a file that cannot be
    fogsearch's results, before writing anything to it."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        self.conn = connect(self.path, WHAT)
        try:
            self._open()
        except BaseException:
            self.conn.close()
            raise

    def _open(self) -> None:
        header = read_header(self.conn, self.path, WHAT, "results")
        app_id, version, tables = header.application_id, header.version, header.tables
        if app_id == APPLICATION_ID:
            refuse_newer(self.path, WHAT, version, SCHEMA_VERSION)
        elif app_id != 0 or version != 0:
            raise UsageError(
                f"results database {self.path} belongs to another application "
                f"(application_id {app_id}, user_version {version}); it was left unchanged"
            )
        elif tables:
            self._check_first_schema(tables)
        self.conn.execute("PRAGMA foreign_keys = ON")
        if app_id == APPLICATION_ID and version == SCHEMA_VERSION:
            return
        # New, or an older fogsearch file: create what is missing and stamp the version, at once.
        with self.conn:
            self.conn.execute("BEGIN")  # sqlite3 opens no transaction for DDL by itself
            for statement in filter(str.strip, SCHEMA.split(";")):
                self.conn.execute(statement)
            for table, columns in ADDED_COLUMNS.items():
                present = {row[1] for row in self.conn.execute(f"PRAGMA table_info({table})")}
                for name, definition in columns:
                    if name not in present:
                        self.conn.execute(f"ALTER TABLE {table} ADD COLUMN {name} {definition}")
            self.conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            self.conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _check_first_schema(self, tables: set[str]) -> None:
        """Raises unless the unversioned file's tables are fogsearch's first schema's."""
        foreign = sorted(tables - {*FIRST_COLUMNS, "lost_games"})
        missing = sorted(set(FIRST_COLUMNS) - tables)
        why = None
        if foreign or missing:
            why = f"it holds the tables {', '.join(sorted(tables))}"
        else:
            for table, needed in FIRST_COLUMNS.items():
                present = {row[1] for row in self.conn.execute(f"PRAGMA table_info({table})")}
                if not needed <= present:
                    why = f"its {table} table has the columns {', '.join(sorted(present))}"
                    break
        if why is not None:
            raise UsageError(
                f"results database {self.path} is not fogsearch's ({why}); it was left "
                "unchanged: name a new file or a fogsearch results file"
            )

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def player_id(self, spec: PlayerSpec) -> int:
        """The id of ``spec``'s name, registering it; a name reused with other settings is a
        :class:`~fogsearch.arguments.UsageError`, because results under one name must come from
        one configuration."""
        return self.register_players([spec])[spec.name]

    def register_players(self, specs: list[PlayerSpec]) -> dict[str, int]:
        """Ids by name, registering new names; checks every name before registering any."""
        known = {}
        for spec in specs:
            row = self.conn.execute(
                "SELECT id, kind, settings_json FROM players WHERE name = ?", (spec.name,)
            ).fetchone()
            if row is not None and (row[1], row[2]) != (spec.kind, spec.settings_json()):
                raise UsageError(
                    f"player name {spec.name!r} is already stored in {self.path} with kind "
                    f"{row[1]!r} and settings {row[2]}; label this configuration differently "
                    "(kind:settings@label)"
                )
            known[spec.name] = None if row is None else row[0]
        with self.conn:
            for spec in specs:
                if known[spec.name] is None:
                    cur = self.conn.execute(
                        "INSERT INTO players (name, kind, settings_json) VALUES (?, ?, ?)",
                        (spec.name, spec.kind, spec.settings_json()),
                    )
                    known[spec.name] = cur.lastrowid
        return known

    def start_tournament(
        self, fmt: str, config: dict, versions: dict, games_planned: int | None = None
    ) -> int:
        """A new tournament, ``running`` until :meth:`end_tournament`."""
        with self.conn:
            cur = self.conn.execute(
                "INSERT INTO tournaments (started_at, format, config_json, versions_json, "
                "games_planned, status) VALUES (?, ?, ?, ?, ?, 'running')",
                (
                    _now(),
                    fmt,
                    json.dumps(config, sort_keys=True),
                    json.dumps(versions, sort_keys=True),
                    games_planned,
                ),
            )
        return cur.lastrowid

    def end_tournament(self, tournament_id: int, status: str, reason: str | None = None) -> None:
        """Records how the tournament ended: ``finished``, ``stopped`` (by a signal: ``reason``
        names it) or ``failed`` (``reason`` says why)."""
        if status not in TOURNAMENT_ENDS:
            raise ValueError(f"a tournament ends {', '.join(TOURNAMENT_ENDS)}, not {status!r}")
        with self.conn:
            self.conn.execute(
                "UPDATE tournaments SET status = ?, ended_at = ?, stop_reason = ? WHERE id = ?",
                (status, _now(), reason, tournament_id),
            )

    def add_game(
        self, tournament_id: int, record: GameRecord, white_id: int, black_id: int
    ) -> None:
        with self.conn:
            self.conn.execute(
                "INSERT INTO games (tournament_id, task_index, white_id, black_id, seed, winner, "
                "reason, crashed, error, duration_s, white_seconds_left, black_seconds_left, turns, "
                "finished_at, history_json, white_fallbacks, black_fallbacks, white_clock_used_s, "
                "black_clock_used_s, white_clock_s, black_clock_s, white_increment_s, "
                "black_increment_s, white_turn_log_json, black_turn_log_json) VALUES "
                "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                    record.white_clock_used_s,
                    record.black_clock_used_s,
                    record.white_clock_s,
                    record.black_clock_s,
                    record.white_increment_s,
                    record.black_increment_s,
                    _log_json(record.white_turn_log),
                    _log_json(record.black_turn_log),
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
            "g.white_fallbacks, g.black_fallbacks, g.white_clock_used_s, g.black_clock_used_s, "
            "g.white_clock_s, g.black_clock_s, g.white_increment_s, g.black_increment_s, "
            "g.task_index, g.seed "
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
            "white_clock_used_s",
            "black_clock_used_s",
            "white_clock_s",
            "black_clock_s",
            "white_increment_s",
            "black_increment_s",
            "task_index",
            "seed",
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

    def turn_logs(self, game_id: int) -> dict[bool, list[dict]]:
        """The per-turn logs stored with game ``game_id``, by colour (``chess.WHITE`` is True);
        the sides without one are left out."""
        row = self.conn.execute(
            "SELECT white_turn_log_json, black_turn_log_json FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise KeyError(f"no game with id {game_id}")
        return {
            color: json.loads(text) for color, text in zip((True, False), row, strict=True) if text
        }

    def tournament(self, tournament_id: int) -> dict:
        row = self.conn.execute(
            "SELECT started_at, format, config_json, versions_json, games_planned, status, "
            "ended_at, stop_reason FROM tournaments WHERE id = ?",
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
            "games_planned": row[4],
            "status": row[5],
            "ended_at": row[6],
            "stop_reason": row[7],
        }

    def latest_tournament_id(self) -> int | None:
        row = self.conn.execute("SELECT MAX(id) FROM tournaments").fetchone()
        return row[0]


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _log_json(log: list[dict] | None) -> str | None:
    # The bot's rows may hold numpy scalars (values, weights): numbers as numbers.
    return None if not log else json.dumps(log, default=_plain)


def _plain(value):
    item = getattr(value, "item", None)
    return item() if callable(item) else str(value)
