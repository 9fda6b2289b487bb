"""Reconnaissance Blind Chess: reconchess-exact rules and exact board-set tracking.

:class:`BoardSet` holds every board consistent with what one player has observed. Its update
methods have the names, argument order and types of ``reconchess.Player``'s callbacks, so a bot
forwards them unchanged::

    class MyBot(reconchess.Player):
        def handle_game_start(self, color, board, opponent_name):
            self.boards = BoardSet(color)

        def handle_opponent_move_result(self, captured_my_piece, capture_square):
            self.boards.handle_opponent_move_result(captured_my_piece, capture_square)
        ...

Tracking is exact: no cap and no sampling. A failed update raises a :class:`FogsearchError`
subclass and leaves the set as it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import chess
import numpy as np

from fogsearch import _core
from fogsearch._core import (
    BoardSetTooLargeError,
    FogsearchError,
    IllegalRequestError,
    InconsistentObservationError,
    InvalidFenError,
    MalformedObservationError,
)

__all__ = [
    "BoardSet",
    "BoardSetTooLargeError",
    "FogsearchError",
    "IllegalRequestError",
    "InconsistentObservationError",
    "InvalidFenError",
    "MalformedObservationError",
    "capture_square",
    "move_actions",
    "normalize_fen",
    "perft",
    "revise_move",
]

SENSE_SQUARES: tuple[int, ...] = tuple(r * 8 + f for r in range(1, 7) for f in range(1, 7))
"""The 36 non-edge sense squares (b2 … g7)."""


def _fen_of(board: chess.Board | str) -> str:
    if isinstance(board, chess.Board):
        return board.fen(en_passant="fen")
    if isinstance(board, str):
        return board
    raise TypeError(f"expected a chess.Board or a FEN string, got {type(board).__name__}")


def _uci(move: chess.Move | None, what: str) -> str | None:
    if move is None:
        return None
    if not isinstance(move, chess.Move):
        raise TypeError(f"{what} must be a chess.Move or None, got {type(move).__name__}")
    return move.uci() if move else None


def _square(square: int | None, what: str) -> int | None:
    if square is None:
        return None
    if isinstance(square, bool) or not isinstance(square, int | np.integer):
        raise TypeError(f"{what} must be a square number (0..63) or None, got {square!r}")
    if not 0 <= int(square) < 64:
        raise MalformedObservationError(f"{what} {square} is not a square (0..63)")
    return int(square)


def _flag(value: bool, what: str) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"{what} must be a bool, got {value!r}")
    return bool(value)


def _sense_entries(sense_result: Iterable) -> list[tuple[int, tuple[int, bool] | None]]:
    if isinstance(sense_result, str | bytes) or not isinstance(sense_result, Iterable):
        raise TypeError("sense_result must be a list of (square, chess.Piece | None) pairs")
    entries = []
    for item in sense_result:
        if not isinstance(item, tuple | list) or len(item) != 2:
            raise MalformedObservationError(
                f"sense result entry {item!r} is not a (square, piece) pair"
            )
        square, piece = item
        square = _square(square, "sense result square")
        if piece is not None and not isinstance(piece, chess.Piece):
            raise MalformedObservationError(
                f"sense result piece {piece!r} at {chess.square_name(square)} is not a chess.Piece or None"
            )
        entries.append((square, None if piece is None else (piece.piece_type, piece.color)))
    return entries


class BoardSet:
    """The boards of the player of ``color`` (``chess.WHITE`` / ``chess.BLACK``).

    Built from the start position when ``fens`` is ``None``, else from the FENs (deduplicated by
    position: placement, side to move, castling rights, e.p. square). ``threads`` bounds the
    worker threads used on large sets (default: all cores). Tracking is exact and uncapped; with
    ``max_boards``, an update that would leave more boards raises :class:`BoardSetTooLargeError`
    (the set unchanged) rather than exhausting memory. Set it wherever the opponent's moves may go
    unseen for long (a player that senses at random): an uncapped set grows by every such move,
    and an allocation that fails aborts the whole process (Rust's allocation failure is not an
    exception), or the kernel kills it first.
    """

    __slots__ = ("_inner",)

    def __init__(
        self,
        color: chess.Color,
        fens: Sequence[str] | None = None,
        threads: int | None = None,
        max_boards: int | None = None,
    ):
        if not isinstance(color, bool):
            raise TypeError(f"color must be chess.WHITE or chess.BLACK, got {color!r}")
        if fens is not None:
            if isinstance(fens, str):
                raise TypeError("fens must be a sequence of FEN strings, not one string")
            fens = [_fen_of(f) for f in fens]
        if max_boards is not None and max_boards < 1:
            raise ValueError(f"max_boards must be positive, got {max_boards}")
        self._inner = _core.BoardSet(color, fens, threads, max_boards)

    @classmethod
    def _wrap(cls, inner) -> BoardSet:
        obj = cls.__new__(cls)
        obj._inner = inner
        return obj

    @property
    def color(self) -> chess.Color:
        return self._inner.white

    def __len__(self) -> int:
        return len(self._inner)

    def __contains__(self, board: chess.Board | str) -> bool:
        return self._inner.contains_fen(_fen_of(board))

    def __repr__(self) -> str:
        return f"BoardSet({chess.COLOR_NAMES[self.color]}, {len(self)} boards)"

    def copy(self) -> BoardSet:
        return BoardSet._wrap(self._inner.copy())

    def fens(self) -> list[str]:
        """The boards as FENs (e.p. square only where an e.p. capture is possible)."""
        return self._inner.fens()

    def zobrist_keys(self) -> np.ndarray:
        """One 64-bit position key per board, as a ``uint64`` array."""
        return self._inner.zobrist_keys()

    def to_boards(self) -> list[chess.Board]:
        return [chess.Board(fen) for fen in self.fens()]

    def sense_stats(self) -> dict[int, float]:
        """For each of the 36 non-edge sense squares, the expected number of boards left after
        sensing there (the quantity a set-shrinking bot minimises)."""
        return dict(self._inner.sense_stats())

    def sense_check_stats(self) -> dict[int, tuple[float, float]]:
        """For each of the 36 non-edge sense squares, ``(expected boards left, check doubt)``. The
        check doubt is ``sum(min(c, n - c)) / N`` over the sense's results, where ``c`` of the
        ``n`` boards showing a result have our king in check: the chance that, after the sense,
        the majority of the boards left is wrong about whether we are in check. 0 where every
        result settles whether the opponent can capture our king next."""
        return {sq: (size, doubt) for sq, size, doubt in self._inner.sense_check_stats()}

    def boards_in_check(self) -> int:
        """How many boards have our king in check: the opponent captures it next unless we act."""
        return self._inner.boards_in_check()

    # -- reconchess.Player callbacks ----------------------------------------------------------
    def handle_opponent_move_result(
        self, captured_my_piece: bool, capture_square: int | None
    ) -> None:
        """Expands every board by every move the opponent may have made (a pass included) and
        keeps those whose capture observation matches."""
        self._inner.handle_opponent_move_result(
            _flag(captured_my_piece, "captured_my_piece"), _square(capture_square, "capture_square")
        )

    def handle_sense_result(self, sense_result: list[tuple[int, chess.Piece | None]]) -> None:
        """Keeps the boards that show exactly the sensed pieces."""
        self._inner.handle_sense_result(_sense_entries(sense_result))

    def handle_move_result(
        self,
        requested_move: chess.Move | None,
        taken_move: chess.Move | None,
        captured_opponent_piece: bool,
        capture_square: int | None,
    ) -> None:
        """Keeps the boards on which the request resolves to exactly ``taken_move`` with this
        capture, and makes the move on them."""
        self._inner.handle_move_result(
            _uci(requested_move, "requested_move"),
            _uci(taken_move, "taken_move"),
            _flag(captured_opponent_piece, "captured_opponent_piece"),
            _square(capture_square, "capture_square"),
        )


def perft(board: chess.Board | str, depth: int) -> int:
    """RBC pseudo-legal perft (bulk-counted): pseudo-legal moves plus RBC castles; a board
    without both kings has no children."""
    if depth < 0:
        raise ValueError(f"depth must be non-negative, got {depth}")
    return _core.perft(_fen_of(board), depth)


def normalize_fen(board: chess.Board | str) -> str:
    return _core.normalize_fen(_fen_of(board))


def move_actions(board: chess.Board | str) -> list[chess.Move]:
    """reconchess ``move_actions``: the requests a player may make on ``board``."""
    return [chess.Move.from_uci(u) for u in _core.move_actions(_fen_of(board))]


def revise_move(board: chess.Board | str, move: chess.Move) -> chess.Move | None:
    """reconchess ``revise_move``: the move ``move`` actually makes on ``board`` (``None``: a pass)."""
    taken = _core.revise_move(_fen_of(board), _uci(move, "move"))
    return None if taken is None else chess.Move.from_uci(taken)


def capture_square(
    board: chess.Board | str, requested: chess.Move | None
) -> tuple[chess.Move | None, int | None]:
    """Resolves a request as the referee does: ``(taken_move, capture_square)``."""
    taken, square = _core.resolve_request(_fen_of(board), _uci(requested, "requested"))
    return (None if taken is None else chess.Move.from_uci(taken)), square


# The information-set search lives in its own module; it is offered here too, next to the sets it
# searches, as `fogsearch.rbc.search(board_set, depth, config=SearchConfig(...))`.
from fogsearch.search import (  # noqa: E402
    SearchConfig,
    SearchResult,
    board_values,
    mean_reply_values,
    search,
    sense_values,
)

__all__ += [
    "SearchConfig",
    "SearchResult",
    "board_values",
    "mean_reply_values",
    "search",
    "sense_values",
]
