"""Card match results in the RBC tournament's SQLite database: the same ``players`` and
``tournaments`` tables (a match is a tournament of format ``cards:<game>``), plus one row per game
in ``card_games`` with the deal, who sat where, the returns and every play."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from fogsearch.tournament.store import ResultStore
from fogsearch.ttcg.match.runner import CardRecord

CARD_SCHEMA = """
CREATE TABLE IF NOT EXISTS card_games (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    task_index INTEGER NOT NULL,
    deal_index INTEGER NOT NULL,
    rotation INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    seat_player_ids_json TEXT NOT NULL,
    returns_json TEXT,
    points_json TEXT,
    error TEXT,
    duration_s REAL NOT NULL,
    deal_json TEXT NOT NULL,
    public_actions_json TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    UNIQUE (tournament_id, task_index)
);
"""


class CardResultStore(ResultStore):
    """The tournament store with the card games' table."""

    def __init__(self, path):
        super().__init__(path)
        self.conn.executescript(CARD_SCHEMA)

    def add_card_game(self, tournament_id: int, record: CardRecord, player_ids: list[int]) -> None:
        with self.conn:
            self.conn.execute(
                "INSERT INTO card_games (tournament_id, task_index, deal_index, rotation, seed, "
                "seat_player_ids_json, returns_json, points_json, error, duration_s, deal_json, "
                "public_actions_json, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    tournament_id,
                    record.task_index,
                    record.deal_index,
                    record.rotation,
                    record.seed,
                    json.dumps([player_ids[p] for p in record.seats]),
                    None if record.returns is None else json.dumps(record.returns),
                    None if record.points is None else json.dumps(record.points),
                    record.error,
                    record.duration_s,
                    json.dumps(record.deal),
                    json.dumps(record.public_actions),
                    datetime.now(timezone.utc).isoformat(timespec="seconds"),
                ),
            )

    def card_games(self, tournament_id: int) -> list[dict]:
        rows = self.conn.execute(
            "SELECT task_index, deal_index, rotation, seat_player_ids_json, returns_json, "
            "points_json, error, duration_s FROM card_games WHERE tournament_id = ? "
            "ORDER BY task_index",
            (tournament_id,),
        )
        out = []
        for task, deal, rotation, seats, returns, points, error, duration in rows:
            out.append(
                {
                    "task_index": task,
                    "deal_index": deal,
                    "rotation": rotation,
                    "seat_player_ids": json.loads(seats),
                    "returns": None if returns is None else json.loads(returns),
                    "points": None if points is None else json.loads(points),
                    "error": error,
                    "duration_s": duration,
                }
            )
        return out
