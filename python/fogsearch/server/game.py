"""One game on the server: reconchess's own ``LocalGame`` (the referee and the clocks) behind a
lock, with what the HTTP API adds around it: who plays which colour, when the clocks start, the
order of a turn's calls, and the end of the game, stored as it happens.

The clocks start when both players have posted ``ready``, or ``start_grace`` seconds after the
game was made if one never does (then an absent player's clock runs, and the game ends on time
instead of waiting for ever). A turn is ``sense``, ``move``, ``end_turn``, in that order, each
once, by the player to move; anything else is refused with :class:`ActionRefused` (HTTP 400),
which a client's ``RemoteGame`` raises as a ``ValueError``. Every call first looks at the clock:
a mover whose time is up has lost, whoever asks.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import chess
from reconchess import LocalGame
from reconchess.history import GameHistoryEncoder

from fogsearch.server.store import GameResult

SENSE, MOVE, END_TURN = "sense", "move", "end_turn"


class ActionRefused(Exception):
    """A call this game cannot take now (HTTP 400): not your turn, out of order, a bad value."""


class NotAPlayer(Exception):
    """The caller does not play in this game (HTTP 403)."""


class Seats:
    """Who plays a game (``id``, ``white``, ``black`` are the game's fields), for the games in
    play and the finished ones read back from the database alike."""

    id: int
    white: str
    black: str

    def color_of(self, user: str) -> bool:
        if user == self.white:
            return chess.WHITE
        if user == self.black:
            return chess.BLACK
        raise NotAPlayer(f"{user} does not play in game {self.id}")

    def opponent_of(self, user: str) -> str:
        return self.black if self.color_of(user) == chess.WHITE else self.white


@dataclass
class ServerGame(Seats):
    """A game in play. Every method takes the game's lock; ``on_end`` (called once, under the
    lock) stores the result."""

    id: int
    white: str
    black: str
    seconds: float
    increment: float
    on_end: Callable[[ServerGame, GameResult], None]
    start_grace: float = 120.0
    match_id: int | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    created: float = field(default_factory=time.monotonic)
    ready: set[bool] = field(default_factory=set)
    started: bool = False
    finished: bool = False
    phase: str = SENSE
    result: GameResult | None = None

    def __post_init__(self) -> None:
        self.local = LocalGame(seconds_per_player=self.seconds, seconds_increment=self.increment)
        self.local.store_players(self.white, self.black)

    # -- the referee ------------------------------------------------------------------------

    def refresh(self) -> None:
        """Starts the clocks when due and ends the game when reconchess says it is over.
        Called under the lock by every request and by the server's ticker."""
        if self.finished:
            return
        if not self.started and (
            len(self.ready) == 2 or time.monotonic() - self.created >= self.start_grace
        ):
            self.local.start()
            self.started = True
        if self.local.is_over():
            self._end()

    def _end(self) -> None:
        self.local.end()
        self.finished = True
        history = self.local.get_game_history()
        winner = self.local.get_winner_color()
        reason = self.local.get_win_reason()
        self.result = GameResult(
            winner="draw" if winner is None else chess.COLOR_NAMES[winner],
            win_reason=None if reason is None else reason.name,
            white_seconds_left=self.local.seconds_left_by_color[chess.WHITE],
            black_seconds_left=self.local.seconds_left_by_color[chess.BLACK],
            turns=history.num_turns(),
            history_json=json.dumps(history, cls=GameHistoryEncoder),
        )
        self.on_end(self, self.result)

    def is_my_turn(self, user: str) -> bool:
        return self.started and not self.finished and self.local.turn == self.color_of(user)

    def _require_turn(self, user: str, phase: str) -> None:
        if not self.is_my_turn(user):
            why = "the game has not started" if not self.started else "it is not your turn"
            raise ActionRefused(f"game {self.id}: {phase} refused: {why}")
        if self.phase != phase:
            raise ActionRefused(
                f"game {self.id}: {phase} refused: this turn expects {self.phase} next "
                "(a turn is sense, move, end_turn)"
            )

    # -- the API's game calls (the caller holds the lock and has called refresh) -------------

    def mark_ready(self, user: str) -> None:
        self.ready.add(self.color_of(user))
        self.refresh()

    def seconds_left(self, user: str) -> float:
        color = self.color_of(user)
        if self.started and not self.finished and self.local.turn == color:
            return self.local.get_seconds_left()
        return self.local.seconds_left_by_color[color]

    def sense_actions(self, user: str) -> list[int]:
        if not self.is_my_turn(user):
            raise ActionRefused(f"game {self.id}: sense_actions refused: it is not your turn")
        return self.local.sense_actions()

    def move_actions(self, user: str) -> list[chess.Move]:
        if not self.is_my_turn(user):
            raise ActionRefused(f"game {self.id}: move_actions refused: it is not your turn")
        return self.local.move_actions()

    def opponent_move_results(self, user: str) -> int | None:
        if not self.is_my_turn(user):
            raise ActionRefused(
                f"game {self.id}: opponent_move_results refused: it is not your turn"
            )
        return self.local.opponent_move_results()

    def sense(self, user: str, square) -> list:
        if self.finished:
            return []  # as LocalGame answers a finished game: the mover learns it at is_over
        self._require_turn(user, SENSE)
        if square is not None and (type(square) is not int or square not in chess.SQUARES):
            raise ActionRefused(f"game {self.id}: sense: {square!r} is not a square (0..63)")
        result = self.local.sense(square)
        self.phase = MOVE
        self.refresh()
        return result

    def move(self, user: str, requested) -> tuple:
        if self.finished:
            return requested, None, None
        self._require_turn(user, MOVE)
        if requested is not None and not isinstance(requested, chess.Move):
            raise ActionRefused(f"game {self.id}: move: {requested!r} is not a move")
        try:
            result = self.local.move(requested)
        except ValueError as exc:
            raise ActionRefused(f"game {self.id}: move: {exc}") from None
        self.phase = END_TURN
        self.refresh()
        return result

    def end_turn(self, user: str) -> None:
        if self.finished:
            return
        self._require_turn(user, END_TURN)
        self.local.end_turn()
        self.phase = SENSE
        self.refresh()

    def resign(self, user: str) -> None:
        """``error_resign``: the caller resigns, whoever is to move (LocalGame's own
        ``resign`` resigns the side to move)."""
        color = self.color_of(user)
        if self.finished:
            return
        self.local._resignee = color
        self.refresh()

    def status(self, user: str) -> dict:
        return {"is_over": self.finished, "is_my_turn": self.is_my_turn(user)}
