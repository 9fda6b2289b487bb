"""Per-board perfect-information values (`fogsearch.search.board_values`) against a plain negamax
written here with python-chess: requests resolved by reconchess, then pseudo-legal moves (RBC has no check rule), a pass as a move,
taking the king wins (MATE less the ply), and a capture search at the leaves that stands pat or
captures, never leaving its own king en prise."""

from __future__ import annotations

import chess
import pytest
from reconchess.utilities import move_actions, revise_move

from fogsearch import _core
from fogsearch.search import MATE, SearchError, board_values


def _moves(board: chess.Board) -> list[chess.Move]:
    return list(board.generate_pseudo_legal_moves())


def _takes_king(board: chess.Board, moves: list[chess.Move]) -> bool:
    king = board.king(not board.turn)
    return any(m.to_square == king for m in moves)


def _pushed(board: chess.Board, move: chess.Move | None) -> chess.Board:
    child = board.copy(stack=False)
    child.push(move if move is not None else chess.Move.null())
    return child


def _captures(board: chess.Board) -> float:
    best = _core.evaluate_fen(board.fen())
    for move in _moves(board):
        if board.color_at(move.to_square) != (not board.turn):
            continue
        child = _pushed(board, move)
        replies = _moves(child)
        if _takes_king(child, replies):
            continue
        best = max(best, -_captures(child))
    return best


def negamax(board: chess.Board, depth: int, ply: int) -> float:
    moves = _moves(board)
    if _takes_king(board, moves):
        return MATE - ply - 1
    if depth == 0:
        return _captures(board)
    return max(-negamax(_pushed(board, m), depth - 1, ply + 1) for m in [*moves, None])


@pytest.mark.parametrize(
    "fen, plies",
    [
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 2),
        ("3qk3/8/8/8/3N4/4P3/8/4K3 w - - 0 1", 2),
        ("4k3/8/2b5/3n4/4P3/8/8/3QK3 w - - 0 1", 1),
        ("r3k3/8/8/3p4/4P3/8/8/R3K2R b - - 0 1", 1),
    ],
)
def test_board_values_equal_plain_negamax(fen, plies):
    board = chess.Board(fen)
    values = board_values([fen], plies=plies)
    assert set(values) == {m.uci() for m in move_actions(board)} | {"0000"}
    for uci, (value,) in values.items():
        request = None if uci == "0000" else chess.Move.from_uci(uci)
        taken = None if request is None else revise_move(board, request)
        assert value == -negamax(_pushed(board, taken), plies, 1), uci


def test_a_back_rank_mate_is_seen_on_every_board():
    fens = ["6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "6k1/5ppp/8/8/8/8/5PPP/3R3K w - - 0 1"]
    values = board_values(fens, [chess.Move.from_uci("d1d8"), None], plies=2)
    assert values["d1d8"] == [MATE - 3, MATE - 3]
    assert max(values["0000"]) < MATE // 2


def test_a_short_time_limit_gives_no_values():
    assert board_values([chess.STARTING_FEN], plies=8, time_limit=0.01) is None


def test_bad_requests_raise_clear_errors():
    with pytest.raises(ValueError, match="plies"):
        board_values([chess.STARTING_FEN], plies=9)
    with pytest.raises(ValueError, match="plies"):
        board_values([chess.STARTING_FEN], plies=-1)
    with pytest.raises(ValueError, match="time_limit"):
        board_values([chess.STARTING_FEN], time_limit=0)
    with pytest.raises(SearchError, match="empty"):
        board_values([])
    with pytest.raises(SearchError, match="e2e5 is not a move action"):
        board_values([chess.STARTING_FEN], [chess.Move.from_uci("e2e5")])
