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

from fogsearch._core import (
    BoardSetTooLargeError,
    FogsearchError,
    IllegalRequestError,
    InconsistentObservationError,
    InvalidFenError,
    MalformedObservationError,
)
from fogsearch._core import rbc as _native
from fogsearch._python_chess import fen_of, flag_of, move_of, square_of, uci_of

# The information-set search lives in its own module; it is offered here too, next to the sets it
# searches, as `fogsearch.rbc.search(board_set, depth, config=SearchConfig(...))`.
from fogsearch.search import (
    SearchConfig,
    Searcher,
    SearchResult,
    board_values,
    mean_reply_values,
    search,
    sense_values,
)

__all__ = [
    "BoardSet",
    "BoardSetTooLargeError",
    "FogsearchError",
    "IllegalRequestError",
    "InconsistentObservationError",
    "InvalidFenError",
    "MalformedObservationError",
    "SQUARE_STATES",
    "SearchConfig",
    "SearchResult",
    "Searcher",
    "board_values",
    "capture_square",
    "mean_reply_values",
    "move_actions",
    "normalize_fen",
    "opponent_model_settings",
    "perft",
    "revise_move",
    "search",
    "sense_values",
]

SQUARE_STATES: tuple[str, ...] = (
    "empty",
    "P",
    "N",
    "B",
    "R",
    "Q",
    "K",
    "p",
    "n",
    "b",
    "r",
    "q",
    "k",
)
"""The columns of :meth:`BoardSet.square_distribution`: empty, then the pieces by FEN letter."""

SENSE_SQUARES: tuple[int, ...] = tuple(r * 8 + f for r in range(1, 7) for f in range(1, 7))
"""The 36 non-edge sense squares (b2 … g7)."""


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
        square = square_of(square, "sense result square")
        if piece is not None and not isinstance(piece, chess.Piece):
            raise MalformedObservationError(
                f"sense result piece {piece!r} at {chess.square_name(square)} is not a chess.Piece or None"
            )
        entries.append((square, None if piece is None else (piece.piece_type, piece.color)))
    return entries


def _positive_or_none(value: object, what: str) -> int | None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise ValueError(f"{what} must be a positive integer or None, got {value!r}")
    return value


def opponent_model_settings(temperature_cp: float, uniform_share: float) -> tuple[float, float]:
    """The opponent model's two settings (:meth:`BoardSet.set_opponent_model`) as floats: Python
    checks that each is a number, the core that it is in its bounds (a ValueError naming the
    setting either way)."""
    named = {"temperature_cp": temperature_cp, "uniform_share": uniform_share}
    for name, value in named.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"{name} must be a number, got {value!r}")
    checked = (float(temperature_cp), float(uniform_share))
    _native.check_opponent_model(checked)
    return checked


class BoardSet:
    """The boards of the player of ``color`` (``chess.WHITE`` / ``chess.BLACK``).

    Built from the start position when ``fens`` is ``None``, else from the FENs (deduplicated by
    position: placement, side to move, castling rights, e.p. square). ``threads`` (1 to 256) is
    the number of worker threads used on large sets (default: all cores); the pools are shared
    and built once. Tracking is exact and uncapped; with ``max_boards``, an update that would
    leave more boards raises :class:`BoardSetTooLargeError` (the set unchanged) rather than
    exhausting memory, and a constructor given more boards raises it too. Set it wherever the
    opponent's moves may go unseen for long (a player that senses at random): an uncapped set
    grows by every such move until memory runs out.

    ``copy.copy``, ``copy.deepcopy`` and ``pickle`` give an independent, equal set. Ctrl-C stops
    a long update (``KeyboardInterrupt``, the set unchanged). Using one set from two threads
    while one of them changes it raises :class:`fogsearch.ConcurrentUseError`.
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
            fens = [fen_of(f) for f in fens]
        _positive_or_none(threads, "threads")
        _positive_or_none(max_boards, "max_boards")
        self._inner = _native.BoardSet(color, fens, threads, max_boards)

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
        return self._inner.contains_fen(fen_of(board))

    def __repr__(self) -> str:
        return f"BoardSet({chess.COLOR_NAMES[self.color]}, {len(self)} boards)"

    def copy(self) -> BoardSet:
        return BoardSet._wrap(self._inner.copy())

    __copy__ = copy

    def __deepcopy__(self, memo: dict) -> BoardSet:
        return self.copy()

    def __reduce__(self):
        return (BoardSet._wrap, (self._inner,))

    def __eq__(self, other: object) -> bool:
        """Equal sets hold the same boards (in any order) for the same player."""
        if not isinstance(other, BoardSet):
            return NotImplemented
        return (
            self.color == other.color
            and len(self) == len(other)
            and sorted(self._inner.zobrist_keys().tolist())
            == sorted(other._inner.zobrist_keys().tolist())
            and set(self.fens()) == set(other.fens())
        )

    __hash__ = None  # type: ignore[assignment]  # sets change as the game goes on

    def subset(self, indices: Sequence[int]) -> BoardSet:
        """The boards at ``indices`` (in that order, repeats kept once) as a new set: a sample of
        a large set for the search, without a copy through FENs."""
        return BoardSet._wrap(self._inner.subset([int(i) for i in indices]))

    @property
    def max_boards(self) -> int | None:
        return self._inner.max_boards

    def fens(self) -> list[str]:
        """The boards as FENs (e.p. square only where an e.p. capture is possible)."""
        return self._inner.fens()

    def fen(self, index: int) -> str:
        """The FEN of one board, by its place in the set's order."""
        return self._inner.fen_at(index)

    def max_halfmove_clock(self) -> int:
        """The most half-moves any board has gone without a capture or a pawn move."""
        return self._inner.max_halfmove_clock()

    def zobrist_keys(self) -> np.ndarray:
        """One 64-bit position key per board, as a ``uint64`` array."""
        return self._inner.zobrist_keys()

    def to_boards(self) -> list[chess.Board]:
        return [chess.Board(fen) for fen in self.fens()]

    def sense_stats(self) -> dict[int, float]:
        """For each of the 36 non-edge sense squares, the expected number of boards left after
        sensing there (the quantity a set-shrinking bot minimises)."""
        return dict(self._inner.sense_stats())

    def boards_in_check(self) -> int:
        """How many boards have our king in check: the opponent captures it next unless we act."""
        return self._inner.boards_in_check()

    def set_opponent_model(self, temperature_cp: float | None, uniform_share: float = 0.1) -> None:
        """From now on keep each board's probability given what was observed, every board equally
        likely now (``temperature_cp=None``: stop keeping them). Each expansion gives a child its
        parent's weight times the probability of the opponent's move, ``uniform_share / n`` plus
        ``1 - uniform_share`` times a softmax at ``temperature_cp`` (1..100000) over a static
        score of its n moves (the pass included): the material a move wins at once, less the
        moved piece where our pieces then win it, with large scores for taking our king and for
        leaving its own king en prise. Positions reached twice sum their weights;
        observations renormalise. Weights survive ``subset`` (renormalised), copies and
        pickling; set equality ignores them."""
        if temperature_cp is None:
            self._inner.set_opponent_model(None)
            return
        self._inner.set_opponent_model(opponent_model_settings(temperature_cp, uniform_share))

    @property
    def opponent_model(self) -> tuple[float, float] | None:
        """``(temperature_cp, uniform_share)`` of the opponent model, or ``None``."""
        return self._inner.opponent_model()

    def weights(self) -> np.ndarray:
        """Each board's probability (float64, summing to 1), in the set's order; equal without an
        opponent model."""
        return self._inner.weights()

    def square_distribution(
        self, weights: Sequence[float] | np.ndarray | None = None
    ) -> np.ndarray:
        """Per square (a1 = 0 … h8 = 63), the share of the set's boards in each of 13 states, a
        ``(64, 13)`` float64 array whose rows sum to 1; the columns are :data:`SQUARE_STATES`
        (empty, then White pawn … king, then Black pawn … king: column ``piece_type + 6 * (color
        == chess.BLACK)``). With ``weights`` (one per board in the set's order, finite, not
        negative, not all zero; e.g. :meth:`weights`) each board counts at its weight."""
        if weights is None:
            return self._inner.square_distribution(None)
        w = np.ascontiguousarray(weights, dtype=np.float64)
        if w.ndim != 1 or len(w) != len(self):
            raise ValueError(
                f"weights must be one number per board ({len(self)}), got shape {w.shape}"
            )
        if not np.all(np.isfinite(w)) or np.any(w < 0) or not w.sum() > 0:
            raise ValueError("weights must be finite, not negative and not all zero")
        return self._inner.square_distribution(w)

    # -- reconchess.Player callbacks ----------------------------------------------------------
    def handle_opponent_move_result(
        self, captured_my_piece: bool, capture_square: int | None
    ) -> None:
        """Expands every board by every move the opponent may have made (a pass included) and
        keeps those whose capture observation matches."""
        self._inner.handle_opponent_move_result(
            flag_of(captured_my_piece, "captured_my_piece"),
            square_of(capture_square, "capture_square"),
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
            uci_of(requested_move, "requested_move"),
            uci_of(taken_move, "taken_move"),
            flag_of(captured_opponent_piece, "captured_opponent_piece"),
            square_of(capture_square, "capture_square"),
        )


def perft(board: chess.Board | str, depth: int) -> int:
    """RBC pseudo-legal perft (bulk-counted): pseudo-legal moves plus RBC castles; a board
    without both kings has no children."""
    # Only the type here; the core refuses a depth above MAX_PERFT_DEPTH.
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise ValueError(f"depth must be a non-negative integer, got {depth!r}")
    return _native.perft(fen_of(board), depth)


MAX_PERFT_DEPTH: int = _native.MAX_PERFT_DEPTH
"""Perft 10 from a middle-game position counts about 10**15 nodes: weeks."""


def normalize_fen(board: chess.Board | str) -> str:
    return _native.normalize_fen(fen_of(board))


def move_actions(board: chess.Board | str) -> list[chess.Move]:
    """reconchess ``move_actions``: the requests a player may make on ``board``."""
    return [chess.Move.from_uci(u) for u in _native.move_actions(fen_of(board))]


def revise_move(board: chess.Board | str, move: chess.Move) -> chess.Move | None:
    """reconchess ``revise_move``: the move ``move`` actually makes on ``board`` (``None``: a pass)."""
    return move_of(_native.revise_move(fen_of(board), uci_of(move, "move")))


def capture_square(
    board: chess.Board | str, requested: chess.Move | None
) -> tuple[chess.Move | None, int | None]:
    """Resolves a request as the referee does: ``(taken_move, capture_square)``."""
    taken, square = _native.resolve_request(fen_of(board), uci_of(requested, "requested"))
    return move_of(taken), square
