"""``fogsearch._core.rbc``: reconchess rules on FENs and the native board set. Moves cross as UCI
strings (``None`` for a pass), pieces as ``(piece_type, is_white)`` pairs. The user-facing API is
:mod:`fogsearch.rbc`."""

from typing import final

import numpy as np
import numpy.typing as npt
from typing_extensions import Self

from fogsearch._core import (
    BoardSetTooLargeError as BoardSetTooLargeError,
)
from fogsearch._core import (
    IllegalRequestError as IllegalRequestError,
)
from fogsearch._core import (
    InconsistentObservationError as InconsistentObservationError,
)
from fogsearch._core import (
    InvalidFenError as InvalidFenError,
)
from fogsearch._core import (
    MalformedObservationError as MalformedObservationError,
)

__all__ = [
    "InvalidFenError",
    "IllegalRequestError",
    "InconsistentObservationError",
    "MalformedObservationError",
    "BoardSetTooLargeError",
    "BoardSet",
    "MAX_PERFT_DEPTH",
    "perft",
    "normalize_fen",
    "zobrist",
    "move_actions",
    "pseudo_legal_moves",
    "revise_move",
    "resolve_request",
    "push_move",
    "check_opponent_model",
]

MAX_PERFT_DEPTH: int

def perft(fen: str, depth: int) -> int:
    """Bulk-counted RBC pseudo-legal perft; the GIL is released and Ctrl-C stops it."""

def normalize_fen(fen: str) -> str:
    """The FEN as fogsearch stores it (e.p. square only where an e.p. capture is possible)."""

def zobrist(fen: str) -> int: ...
def move_actions(fen: str) -> list[str]:
    """reconchess ``move_actions`` as UCI strings."""

def pseudo_legal_moves(fen: str) -> list[str]:
    """RBC pseudo-legal moves (python-chess's without its castles, plus RBC castles)."""

def revise_move(fen: str, uci: str) -> str | None:
    """reconchess ``revise_move``: the UCI move taken, or ``None`` for a pass."""

def resolve_request(fen: str, uci: str | None) -> tuple[str | None, int | None]:
    """``(taken, capture_square)`` as the referee resolves a request; raises
    ``IllegalRequestError`` for a request outside the move actions."""

def push_move(fen: str, uci: str | None) -> str:
    """The FEN after making a pseudo-legal move (``None``: a null move)."""

def check_opponent_model(settings: tuple[float, float]) -> None:
    """Raise ValueError naming the setting of ``(temperature_cp, uniform_share)`` outside the
    core's bounds."""

@final
class BoardSet:
    """The native board set behind ``fogsearch.rbc.BoardSet``. Every update runs without the GIL,
    in the shared pool of ``threads`` workers when the set is large, stops on Ctrl-C, and leaves
    the set unchanged when it raises. A call while another thread changes the set raises
    ``ConcurrentUseError``."""

    def __new__(
        cls,
        white: bool,
        fens: list[str] | None = None,
        threads: int | None = None,
        max_boards: int | None = None,
    ) -> Self: ...
    @property
    def white(self) -> bool: ...
    @property
    def max_boards(self) -> int | None: ...
    @property
    def threads(self) -> int: ...
    def __len__(self) -> int: ...
    def contains_fen(self, fen: str) -> bool: ...
    def fens(self) -> list[str]: ...
    def fen_at(self, index: int) -> str:
        """The FEN of the board at ``index`` (``IndexError`` outside the set)."""
    def max_halfmove_clock(self) -> int:
        """The most half-moves any board has gone without a capture or a pawn move."""
    def zobrist_keys(self) -> npt.NDArray[np.uint64]: ...
    def handle_opponent_move_result(
        self, captured_my_piece: bool, capture_square: int | None
    ) -> None: ...
    def handle_sense_result(self, result: list[tuple[int, tuple[int, bool] | None]]) -> None: ...
    def handle_move_result(
        self,
        requested: str | None,
        taken: str | None,
        captured_opponent_piece: bool,
        capture_square: int | None,
    ) -> None: ...
    def sense_stats(self) -> list[tuple[int, float]]:
        """``(square, expected boards left)`` for the 36 non-edge sense squares."""
    def boards_in_check(self) -> int:
        """How many boards have our king in check."""
    def set_opponent_model(self, model: tuple[float, float] | None) -> None:
        """Keep weights under ``(temperature_cp, uniform_share)`` from now on, or drop them."""
    def opponent_model(self) -> tuple[float, float] | None: ...
    def weights(self) -> npt.NDArray[np.float64]:
        """Each board's probability, in the set's order."""
    def square_distribution(
        self, weights: npt.NDArray[np.float64] | None = None
    ) -> npt.NDArray[np.float64]:
        """Per square, the share of boards in each of 13 states: a (64, 13) array."""
    def subset(self, indices: list[int]) -> BoardSet:
        """The boards at ``indices`` (in that order, repeats kept once) as a new set."""
    def copy(self) -> BoardSet: ...
    def to_bytes(self) -> bytes:
        """The set's versioned byte encoding (82 bytes a board), as pickling uses it."""
    @staticmethod
    def from_bytes(data: bytes) -> BoardSet:
        """The set ``to_bytes`` encoded; ``FogsearchError`` for bytes that are not one."""
    def __reduce__(self) -> tuple[object, tuple[bytes]]: ...
