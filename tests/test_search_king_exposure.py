"""``fogsearch.search.king_exposure``: per request, the share of a set's boards on which it leaves
our king where a reply takes it, against python-chess with reconchess resolving each request."""

from __future__ import annotations

import chess
import pytest
from reconchess.utilities import move_actions, revise_move

from fogsearch.rbc import BoardSet
from fogsearch.search import SearchError, king_exposure


def _exposed(board: chess.Board, request: chess.Move | None) -> bool:
    """python-chess and reconchess as the oracle: the request as the referee takes it on this
    board, then whether the opponent attacks our king (a capture of theirs wins instead)."""
    us = board.turn
    taken = revise_move(board, request) if request is not None else None
    if taken is not None and board.piece_type_at(taken.to_square) == chess.KING:
        return False
    child = board.copy(stack=False)
    child.push(taken or chess.Move.null())
    king = child.king(us)
    return king is not None and child.is_attacked_by(not us, king)


def _set_after_an_unseen_reply(fen: str) -> BoardSet:
    """White's set after one unseen Black move from ``fen`` (Black to move)."""
    boards = BoardSet(chess.WHITE, [fen])
    boards.handle_opponent_move_result(False, None)
    return boards


SETS = [
    # Black's queen, rook and bishop can check the king on e1 in many ways.
    "r3k3/8/8/3q4/8/8/2b5/4K2R b K - 0 1",
    # A middle game: bishops and a queen on open diagonals, White's king not yet castled.
    "r1b1kb1r/ppp2ppp/2n2n2/3qp3/8/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 0 1",
]


@pytest.mark.parametrize("fen", SETS)
def test_king_exposure_equals_the_referees_outcome_on_every_board(fen):
    boards = _set_after_an_unseen_reply(fen)
    assert len(boards) > 10
    shares = king_exposure(boards)
    requests = [None, *move_actions(boards.to_boards()[0])]
    assert set(shares) == {"0000" if r is None else r.uci() for r in requests}
    for request in requests:
        expected = sum(_exposed(b, request) for b in boards.to_boards()) / len(boards)
        assert shares["0000" if request is None else request.uci()] == pytest.approx(expected)
    assert 0.0 < shares["0000"] < 1.0


def test_a_slide_cut_short_and_a_king_taken_are_resolved_board_by_board():
    # Ra1-a8 takes the king on a8 on the first board; on the second the knight on a4 stops the
    # rook there, and the rook on e8 then takes our king.
    fens = ["k3r3/8/8/8/8/8/8/R3K3 w - - 0 1", "4r2k/8/8/8/n7/8/8/R3K3 w - - 0 1"]
    assert king_exposure(fens, [chess.Move.from_uci("a1a8")]) == {"a1a8": 0.5}
    assert king_exposure(fens, [None])["0000"] == 1.0


def test_bad_sets_and_requests_raise_clear_errors():
    with pytest.raises(SearchError, match="empty"):
        king_exposure([])
    with pytest.raises(SearchError, match="e1e3 is not a move action"):
        king_exposure(["4k3/8/8/8/8/8/8/4K3 w - - 0 1"], [chess.Move.from_uci("e1e3")])
    with pytest.raises(TypeError):
        king_exposure(["4k3/8/8/8/8/8/8/4K3 w - - 0 1"], ["e1e2"])
