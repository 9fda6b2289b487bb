"""Replaying a recorded reconchess game through board sets: each player's observations in
order, and per turn the set sizes and whether the true board stayed in the set."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import chess
from reconchess import GameHistory

from fogsearch.observations import MoveResult, Observation, OpponentMoveResult, sense_result
from fogsearch.rbc import BoardSet, BoardSetTooLargeError

TRACK_MAX_BOARDS = 1_000_000
"""Replays stop tracking a side whose set would grow past this: a player that senses at random
(AttackerBot, RandomBot) never shrinks its set, which then grows by every opponent move until
memory runs out (replaying a 31-turn game of the fogsearch bot against AttackerBot passed
24 GiB)."""


@dataclass
class Seen:
    """One observation of a player in a recorded game, with the true board (FEN) at that moment."""

    color: chess.Color
    turn_number: int
    observation: Observation
    truth_fen: str

    def apply(self, board_set: BoardSet) -> None:
        self.observation.apply(board_set)


def observations(history: GameHistory, color: chess.Color) -> Iterator[Seen]:
    """The callbacks the player of ``color`` received in ``history``, in order. After the
    opponent-move and sense callbacks ``truth_fen`` is the board the player faced; after its
    move it is the board its move produced."""
    previous = None
    for turn in history.turns():
        if turn.color != color:
            previous = turn
            continue
        capture = (
            history.capture_square(previous)
            if previous is not None and history.has_move(previous)
            else None
        )
        before = history.truth_fen_before_move(turn)
        yield Seen(
            color, turn.turn_number, OpponentMoveResult(capture is not None, capture), before
        )
        if history.has_sense(turn):
            yield Seen(color, turn.turn_number, sense_result(history.sense_result(turn)), before)
        if history.has_move(turn):
            requested, taken, capture_here = history.move_result(turn)
            after = history.truth_fen_after_move(turn)
            move = MoveResult(requested, taken, capture_here is not None, capture_here)
            yield Seen(color, turn.turn_number, move, after)


@dataclass
class TurnSizes:
    color: chess.Color
    turn_number: int
    after_opponent_move: int = 0
    after_sense: int = 0
    after_move: int = 0
    truth_in_set: bool = True
    stopped: str | None = None
    """Why tracking of this side stopped at this turn (its set grew past the limit), if it did."""


def replay(
    history: GameHistory, color: chess.Color, max_boards: int = TRACK_MAX_BOARDS
) -> list[TurnSizes]:
    """Replays the player of ``color`` through a board set; per turn, the set sizes after each
    observation and whether the true board was always in the set. If the set would grow past
    ``max_boards`` the last row says so in ``stopped`` and the replay of this side ends there."""
    board_set = BoardSet(color, max_boards=max_boards)
    rows: dict[int, TurnSizes] = {}
    for obs in observations(history, color):
        row = rows.setdefault(obs.turn_number, TurnSizes(color, obs.turn_number))
        try:
            obs.apply(board_set)
        except BoardSetTooLargeError as exc:
            row.stopped = str(exc)
            break
        field = {
            OpponentMoveResult: "after_opponent_move",
            MoveResult: "after_move",
        }.get(type(obs.observation), "after_sense")
        setattr(row, field, len(board_set))
        row.truth_in_set &= obs.truth_fen in board_set
    return list(rows.values())


def interleave(history: GameHistory, max_boards: int = TRACK_MAX_BOARDS) -> list[TurnSizes]:
    """Both players' rows, in the order the turns were played."""
    white = replay(history, chess.WHITE, max_boards)
    black = replay(history, chess.BLACK, max_boards)
    rows = [*white, *black]
    return sorted(rows, key=lambda r: (r.turn_number, r.color == chess.BLACK))
