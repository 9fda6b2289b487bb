"""Independent python-chess references for the RBC tests: perft and a plain board-set tracker
built on ``reconchess.utilities``. Slow and simple on purpose."""

from __future__ import annotations

import chess
from reconchess.utilities import (
    add_pawn_queen_promotion,
    capture_square_of_move,
    move_actions,
    revise_move,
)


def position_key(board: chess.Board) -> str:
    """Placement, side to move, castling rights, and the e.p. square only where an e.p. capture
    is pseudo-legal (python-chess's ``xfen`` mode)."""
    return " ".join(board.fen(en_passant="xfen").split()[:4])


def has_both_kings(board: chess.Board) -> bool:
    return bool(board.kings & board.occupied_co[chess.WHITE]) and bool(
        board.kings & board.occupied_co[chess.BLACK]
    )


def rbc_castles(board: chess.Board) -> list[chess.Move]:
    """Castles allowed by RBC: the right, and empty squares strictly between king and rook."""
    moves = []
    rank = 0 if board.turn == chess.WHITE else 7
    king = chess.square(4, rank)
    for rook_file, to_file in ((7, 6), (0, 2)):
        rook = chess.square(rook_file, rank)
        if not board.castling_rights & chess.BB_SQUARES[rook]:
            continue
        if not board.clean_castling_rights() & chess.BB_SQUARES[rook]:
            continue
        if any(board.piece_at(sq) for sq in chess.SquareSet(chess.between(king, rook))):
            continue
        moves.append(chess.Move(king, chess.square(to_file, rank)))
    return moves


def rbc_pseudo_legal_moves(board: chess.Board) -> list[chess.Move]:
    """python-chess pseudo-legal moves without its castles, plus RBC castles; none without both kings."""
    if not has_both_kings(board):
        return []
    moves = [m for m in board.generate_pseudo_legal_moves() if not board.is_castling(m)]
    return moves + rbc_castles(board)


def reference_perft(board: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in rbc_pseudo_legal_moves(board):
        board.push(move)
        total += reference_perft(board, depth - 1)
        board.pop()
    return total


class ReferenceTracker:
    """The set of boards consistent with one player's observations, as python-chess boards."""

    def __init__(self, color: chess.Color, boards: list[chess.Board] | None = None):
        self.color = color
        self.boards = {position_key(b): b for b in (boards or [chess.Board()])}

    def keys(self) -> set[str]:
        return set(self.boards)

    def handle_opponent_move_result(self, captured_my_piece, capture_square):
        if next(iter(self.boards.values())).turn == self.color:
            return
        new = {}
        for board in self.boards.values():
            if not has_both_kings(board):
                continue  # our move took the king there: the game would be over
            for move in [None, *rbc_pseudo_legal_moves(board)]:
                square = capture_square_of_move(board, move)
                if square != capture_square:
                    continue
                child = board.copy(stack=False)
                child.push(move if move is not None else chess.Move.null())
                if child.king(self.color) is None:
                    continue
                new.setdefault(position_key(child), child)
        self.boards = new

    def handle_sense_result(self, sense_result):
        self.boards = {
            k: b
            for k, b in self.boards.items()
            if all(b.piece_at(sq) == p for sq, p in sense_result)
        }

    def handle_move_result(
        self, requested_move, taken_move, captured_opponent_piece, capture_square
    ):
        new = {}
        for board in self.boards.values():
            if requested_move is None:
                taken, square = None, None
            else:
                request = add_pawn_queen_promotion(board, requested_move)
                if request not in move_actions(board):
                    continue
                taken = revise_move(board, request)
                square = capture_square_of_move(board, taken)
            if taken != taken_move or square != capture_square:
                continue
            child = board.copy(stack=False)
            child.push(taken if taken is not None else chess.Move.null())
            new.setdefault(position_key(child), child)
        self.boards = new
