"""A finished game read back from the store (after a restart, or once it left memory): it answers
a player's last calls (status, result, history) as the finished ``ServerGame`` would have."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import chess

from fogsearch.server.game import ActionRefused, Seats
from fogsearch.server.store import GameResult


@dataclass
class StoredGame(Seats):
    id: int
    white: str
    black: str
    result: GameResult
    lock: threading.Lock = field(default_factory=threading.Lock)
    finished: bool = True

    @classmethod
    def from_row(cls, row: dict) -> StoredGame:
        result = GameResult(
            winner=row["winner"],
            win_reason=row["win_reason"],
            white_seconds_left=row["white_seconds_left"],
            black_seconds_left=row["black_seconds_left"],
            turns=row["turns"],
            history_json=row["history_json"],
        )
        return cls(id=row["id"], white=row["white"], black=row["black"], result=result)

    def refresh(self) -> None:
        pass

    def mark_ready(self, user: str) -> None:
        self.color_of(user)

    def is_my_turn(self, user: str) -> bool:
        self.color_of(user)
        return False

    def seconds_left(self, user: str) -> float:
        if self.color_of(user) == chess.WHITE:
            return self.result.white_seconds_left
        return self.result.black_seconds_left

    def _over(self, what: str):
        raise ActionRefused(f"game {self.id}: {what} refused: the game is over")

    def sense_actions(self, user: str):
        self._over("sense_actions")

    def move_actions(self, user: str):
        self._over("move_actions")

    def opponent_move_results(self, user: str):
        self._over("opponent_move_results")

    def sense(self, user: str, square) -> list:
        self.color_of(user)
        return []

    def move(self, user: str, requested) -> tuple:
        self.color_of(user)
        return requested, None, None

    def end_turn(self, user: str) -> None:
        self.color_of(user)

    def resign(self, user: str) -> None:
        self.color_of(user)

    def status(self, user: str) -> dict:
        self.color_of(user)
        return {"is_over": True, "is_my_turn": False}
