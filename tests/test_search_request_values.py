"""Values of requests beyond the search's own (``fogsearch.search``): ``mean_reply_values`` (the
bot's tie-break: the mean over the boards of the one-reply outcome), ``sense_values`` (what a sense
is worth to the next move) and ``board_values`` (per-board perfect-information values, against a
plain negamax written here with python-chess: requests resolved by reconchess, then pseudo-legal
moves (RBC has no check rule), a pass as a move, taking the king wins (MATE less the ply), and a
capture search at the leaves that stands pat or captures, and answers a check with every move)."""

from __future__ import annotations

import math

import chess
import pytest
from reconchess.utilities import move_actions, revise_move

from fogsearch import _core
from fogsearch.search import (
    MATE,
    SearchConfig,
    SearchError,
    board_values,
    mean_reply_values,
    search,
    sense_values,
)

# -- mean_reply_values -----------------------------------------------------------------------


def _worst_reply_value(fen: str) -> float:
    """python-chess as the move oracle: the lowest evaluation (ours) over every reply and a pass."""
    board = chess.Board(fen)
    children = []
    for reply in [chess.Move.null(), *board.pseudo_legal_moves]:
        child = board.copy(stack=False)
        child.push(reply)
        children.append(_core.search.evaluate_fen(child.fen()))
    return float(min(children))


def test_mean_reply_values_prefer_keeping_the_king_on_more_boards():
    # After a pass the rook takes our king on two of three boards; Kf2 is safe on all of them.
    fens = [
        "4r2k/8/8/8/8/8/8/4K3 w - - 0 1",
        "7k/8/8/8/8/8/8/r3K3 w - - 0 1",
        "7k/8/8/8/8/8/8/4K3 w - - 0 1",
    ]
    means = mean_reply_values(fens)
    passed = "7k/8/8/8/8/8/8/4K3 b - - 1 1"
    assert means["0000"] == pytest.approx((-2 * MATE + _worst_reply_value(passed)) / 3)
    assert means["e1f2"] > -MATE / 3
    assert mean_reply_values(fens, [None]) == {"0000": means["0000"]}
    with pytest.raises(SearchError, match="empty"):
        mean_reply_values([])
    with pytest.raises(TypeError):
        mean_reply_values(fens, ["e1f2"])
    with pytest.raises(SearchError, match="e1e3 is not a move action"):
        mean_reply_values(fens, [chess.Move.from_uci("e1e3")])


def test_the_exchange_leaf_reaches_the_tie_break_and_the_sense_values():
    # Black's queen can take our knight on d4, which the e3 pawn guards.
    fens = ["3qk3/8/8/8/3N4/4P3/8/4K3 w - - 0 1", "3qk3/8/8/8/3N4/4P3/8/5K2 w - - 0 1"]
    static = mean_reply_values(fens)
    exchange = mean_reply_values(fens, leaf="exchange")
    assert all(exchange[r] >= static[r] for r in static)
    assert exchange["0000"] - static["0000"] >= 300  # Qxd4 exd4 no longer wins the knight
    unsensed, _ = sense_values(fens, leaf="exchange")
    assert unsensed == pytest.approx(max(exchange.values()))
    with pytest.raises(ValueError, match="leaf"):
        mean_reply_values(fens, leaf="qsearch")
    with pytest.raises(ValueError, match="leaf"):
        sense_values(fens, leaf="qsearch")


def test_the_king_safety_leaf_reaches_the_tie_break_as_in_the_search():
    # One board each: the mean over the set is that board's one-reply value, which the depth-1
    # search (checked against a brute force in test_search_bruteforce.py) also computes.
    for fen in [
        "r4rk1/ppp2p1p/6p1/8/6Q1/8/PPP1qPPP/R4RK1 w - - 0 1",
        "r4rk1/ppp2ppp/8/8/6Q1/5q2/PPP2P1P/R4RK1 w - - 0 1",
    ]:
        means = mean_reply_values([fen], leaf="king_safety")
        config = SearchConfig(sense_mode="min_size", leaf="king_safety")
        values = search([fen], 1, config).move_values
        assert means.keys() == values.keys()
        for request, value in values.items():
            if abs(value) > MATE - 100:  # the search moves king captures by their ply
                assert means[request] == math.copysign(MATE, value)
            else:
                assert means[request] == value
        assert means != mean_reply_values([fen])


# -- sense_values ----------------------------------------------------------------------------


def _threat_set() -> list[str]:
    """White to move. On half the boards Black's queen on h4 checks our king through g3 and f2; on
    the other half she stands on h5 and a knight on g3 hangs to hxg3 but covers e2 and f1, so the
    king step that answers the check loses there. Black's a- and b-pawns vary on every board,
    which matters to nothing but the number of boards."""
    fens = []
    for threat in ("4k3/8/8/8/7q/8/PPPP2PP/4K3", "4k3/8/8/7q/8/6n1/PPPP2PP/4K3"):
        for a_pawn in (chess.A7, chess.A6):
            for b_pawn in (chess.B7, chess.B6):
                board = chess.Board(threat + " w - - 0 1")
                board.set_piece_at(a_pawn, chess.Piece(chess.PAWN, chess.BLACK))
                board.set_piece_at(b_pawn, chess.Piece(chess.PAWN, chess.BLACK))
                fens.append(board.fen())
    return fens


def _window(board: chess.Board, square: chess.Square) -> tuple:
    rank, file = chess.square_rank(square), chess.square_file(square)
    return tuple(
        board.piece_at(chess.square(f, r))
        for r in range(rank - 1, rank + 2)
        for f in range(file - 1, file + 2)
    )


def test_sense_values_are_the_best_mean_per_cell_of_each_sense():
    fens = _threat_set()
    unsensed, values = sense_values(fens)
    assert unsensed == pytest.approx(max(mean_reply_values(fens).values()))
    assert sorted(values) == [chess.square(f, r) for r in range(1, 7) for f in range(1, 7)]
    requests = [
        None if uci == "0000" else chess.Move.from_uci(uci) for uci in mean_reply_values(fens)
    ]
    for square, value in values.items():
        cells: dict[tuple, list[str]] = {}
        for fen in fens:
            cells.setdefault(_window(chess.Board(fen), square), []).append(fen)
        expected = sum(
            len(cell) * max(mean_reply_values(cell, requests).values()) for cell in cells.values()
        ) / len(fens)
        assert value == pytest.approx(expected), chess.square_name(square)
        assert value >= unsensed - 1e-9
    # Telling the check from the hanging knight is worth something; telling pawns apart is not.
    assert max(values.values()) > unsensed + 100
    assert values[chess.B7] == pytest.approx(unsensed)
    with pytest.raises(SearchError, match="at least one request"):
        sense_values(fens, [])


# -- board_values ----------------------------------------------------------------------------


def _moves(board: chess.Board) -> list[chess.Move]:
    return list(board.generate_pseudo_legal_moves())


def _takes_king(board: chess.Board, moves: list[chess.Move]) -> bool:
    king = board.king(not board.turn)
    return any(m.to_square == king for m in moves)


def _pushed(board: chess.Board, move: chess.Move | None) -> chess.Board:
    child = board.copy(stack=False)
    child.push(move if move is not None else chess.Move.null())
    return child


EVASIONS = 2
"""In check, the capture search tries every move this many times in a row at most."""


def _king_attacked(board: chess.Board, color: chess.Color) -> bool:
    return board.is_attacked_by(not color, board.king(color))


def _captures(board: chess.Board, ply: int, evasions: int = EVASIONS) -> float:
    """Stand pat or capture; in check no standing pat (it passes into the king's capture) and,
    ``evasions`` times in a row at most, every move; a move that leaves the king attacked loses
    it on the next ply."""
    mover = board.turn
    in_check = _king_attacked(board, mover)
    evade = in_check and evasions > 0
    best = -(MATE - ply - 2) if in_check else _core.search.evaluate_fen(board.fen())
    for move in _moves(board):
        if not evade and board.color_at(move.to_square) != (not mover):
            continue
        child = _pushed(board, move)
        if _king_attacked(child, mover):
            score = -(MATE - ply - 2)
        else:
            score = -_captures(child, ply + 1, evasions - int(evade))
        best = max(best, score)
    return best


def negamax(board: chess.Board, depth: int, ply: int) -> float:
    moves = _moves(board)
    if _takes_king(board, moves):
        return MATE - ply - 1
    if depth == 0:
        return _captures(board, ply)
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
    # Rd8 mates on both boards two plies on, which the set search at depth 1 cannot see.
    fens = ["6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "6k1/5ppp/8/8/8/8/5PPP/3R3K w - - 0 1"]
    values = board_values(fens, [chess.Move.from_uci("d1d8"), None], plies=2)
    assert values["d1d8"] == [MATE - 3, MATE - 3]
    assert max(values["0000"]) < MATE // 2
    every = board_values(fens, plies=2)
    means = {uci: sum(row) / len(row) for uci, row in every.items()}
    assert max(means, key=means.__getitem__) == "d1d8"
    assert every["d1d8"] == values["d1d8"]


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
