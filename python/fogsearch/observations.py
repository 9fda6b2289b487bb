"""What an RBC player learns during a game, as typed values: the three reconchess callbacks that
change what it knows. A log of them rebuilds the player's board set at any point (the bot's
recovery from an observation no board fits, ``fogsearch track``, the benchmarks' recorded sets).
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from fogsearch.rbc import BoardSet


@dataclass(frozen=True)
class OpponentMoveResult:
    """``handle_opponent_move_result``: whether and where the opponent's move captured."""

    captured_my_piece: bool
    capture_square: chess.Square | None

    def apply(self, board_set: BoardSet) -> None:
        board_set.handle_opponent_move_result(self.captured_my_piece, self.capture_square)


@dataclass(frozen=True)
class SenseResult:
    """``handle_sense_result``: the nine (or fewer) squares seen, each with its piece or None."""

    result: tuple[tuple[chess.Square, chess.Piece | None], ...]

    def apply(self, board_set: BoardSet) -> None:
        board_set.handle_sense_result(list(self.result))


@dataclass(frozen=True)
class MoveResult:
    """``handle_move_result``: our request, the move the referee took, and its capture."""

    requested: chess.Move | None
    taken: chess.Move | None
    captured_opponent_piece: bool
    capture_square: chess.Square | None

    def apply(self, board_set: BoardSet) -> None:
        board_set.handle_move_result(
            self.requested, self.taken, self.captured_opponent_piece, self.capture_square
        )


Observation = OpponentMoveResult | SenseResult | MoveResult


def sense_result(result) -> SenseResult:
    """A reconchess sense result (a list of pairs) as a :class:`SenseResult`."""
    return SenseResult(tuple((square, piece) for square, piece in result))
