"""Conversions between python-chess objects and the plain values the native module takes: FEN
strings, UCI strings (``None`` for a pass), square numbers and flags. python-chess (GPL) stays at
this Python edge; the core never sees it."""

from __future__ import annotations

from collections.abc import Iterable

import chess
import numpy as np

from fogsearch._core import MalformedObservationError


def fen_of(board: chess.Board | str) -> str:
    if isinstance(board, chess.Board):
        return board.fen(en_passant="fen")
    if isinstance(board, str):
        return board
    raise TypeError(f"expected a chess.Board or a FEN string, got {type(board).__name__}")


def uci_of(move: chess.Move | None, what: str) -> str | None:
    """A request as UCI; ``None`` (and the null move) for a pass."""
    if move is None:
        return None
    if not isinstance(move, chess.Move):
        raise TypeError(f"{what} must be a chess.Move or None, got {type(move).__name__}")
    return move.uci() if move else None


def ucis_of(requests: Iterable[chess.Move | None] | None, what: str) -> list[str | None] | None:
    return None if requests is None else [uci_of(request, what) for request in requests]


def square_of(square: int | None, what: str) -> int | None:
    if square is None:
        return None
    if isinstance(square, bool) or not isinstance(square, int | np.integer):
        raise TypeError(f"{what} must be a square number (0..63) or None, got {square!r}")
    if not 0 <= int(square) < 64:
        raise MalformedObservationError(f"{what} {square} is not a square (0..63)")
    return int(square)


def flag_of(value: bool, what: str) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"{what} must be a bool, got {value!r}")
    return bool(value)


def move_of(uci: str | None) -> chess.Move | None:
    """The request a UCI string names; ``None`` and ``"0000"`` are a pass."""
    return None if uci is None or uci == "0000" else chess.Move.from_uci(uci)
