"""reconchess 1.6.9 rules: the rule vectors measured on it, and a differential test against
``reconchess.utilities`` on 100,000 (position, request) pairs from random games."""

import random

import chess
import pytest
from reconchess.utilities import (
    add_pawn_queen_promotion,
    capture_square_of_move,
    revise_move,
)
from reconchess.utilities import move_actions as rc_move_actions

from fogsearch import _core
from fogsearch.rbc import IllegalRequestError, capture_square, move_actions

RULE_VECTORS = [
    ("4k3/8/8/8/4p3/8/4P3/4K3 w - - 0 1", "e2e4", "e2e3", None),
    ("4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1", "e2e4", None, None),
    ("4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1", "e2e3", None, None),
    ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2d3", None, None),
    ("4k3/8/8/8/8/3p4/4P3/4K3 w - - 0 1", "e2d3", "e2d3", "d3"),
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", "e5d6", "d5"),
    ("4k3/8/8/8/8/8/8/R1n1n2K w - - 0 1", "a1g1", "a1c1", "c1"),
    ("4k3/8/8/8/3p4/8/8/B6K w - - 0 1", "a1h8", "a1d4", "d4"),
    ("4k3/8/8/8/8/8/5r2/4K2R w K - 0 1", "e1g1", "e1g1", None),
    ("4k3/8/8/8/8/8/4r3/4K2R w K - 0 1", "e1g1", "e1g1", None),
    ("4k3/8/8/8/8/8/8/4K1nR w K - 0 1", "e1g1", None, None),
    ("4k3/8/8/8/8/8/8/Rn2K3 w Q - 0 1", "e1c1", None, None),
    ("8/P3k3/8/8/8/8/8/4K3 w - - 0 1", "a7a8", "a7a8q", None),
    ("n7/P3k3/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", None, None),
    ("8/1P2k3/8/8/8/8/8/4K3 w - - 0 1", "b7a8n", None, None),
    ("n7/1P2k3/8/8/8/8/8/4K3 w - - 0 1", "b7a8n", "b7a8n", "a8"),
    ("8/8/8/8/8/8/3k4/4K3 w - - 0 1", "e1d2", "e1d2", "d2"),
]


@pytest.mark.parametrize(
    "fen,requested,taken,capture", RULE_VECTORS, ids=[f"{v[0]} {v[1]}" for v in RULE_VECTORS]
)
def test_rule_vector(fen, requested, taken, capture):
    got_taken, got_capture = capture_square(fen, chess.Move.from_uci(requested))
    assert (got_taken.uci() if got_taken else None) == taken
    assert got_capture == (chess.parse_square(capture) if capture else None)
    # The vector itself is reconchess's answer.
    board = chess.Board(fen)
    rc_taken = revise_move(board, add_pawn_queen_promotion(board, chess.Move.from_uci(requested)))
    assert (rc_taken.uci() if rc_taken else None) == taken


def test_start_position_has_34_move_actions():
    assert len(move_actions(chess.Board())) == 34


def _reference(board: chess.Board, request: chess.Move | None):
    """reconchess's referee on ``board``: (taken uci, capture square, FEN after) or None if the
    request is refused."""
    if request is None:
        taken, square = None, None
    else:
        request = add_pawn_queen_promotion(board, request)
        if request not in rc_move_actions(board):
            return None
        taken = revise_move(board, request)
        square = capture_square_of_move(board, taken)
    after = board.copy(stack=False)
    after.push(taken if taken is not None else chess.Move.null())
    return (taken.uci() if taken else None), square, after.fen(en_passant="xfen")


def _random_requests(board: chess.Board, actions: list[chess.Move], rng: random.Random, k: int):
    """Requests to check: move actions (what a player may ask), a pass, and a few own-piece moves
    that are not move actions (which the referee refuses)."""
    chosen = rng.sample(actions, min(k, len(actions))) + [None]
    own = list(chess.SquareSet(board.occupied_co[board.turn]))
    for _ in range(2):
        chosen.append(chess.Move(rng.choice(own), rng.randrange(64)))
    return [m for m in chosen if m is None or m.from_square != m.to_square]


@pytest.mark.slow
def test_differential_against_reconchess_on_100k_pairs():
    rng = random.Random(20261122)
    pairs = positions = 0
    while pairs < 100_000:
        board = chess.Board()
        for _ply in range(200):
            fen = board.fen(en_passant="fen")
            actions = rc_move_actions(board)
            assert set(move_actions(fen)) == set(actions), fen
            positions += 1
            for request in _random_requests(board, actions, rng, k=6):
                expected = _reference(board, request)
                uci = request.uci() if request is not None else None
                if expected is None:
                    with pytest.raises(IllegalRequestError):
                        _core.rbc.resolve_request(fen, uci)
                    pairs += 1
                    continue
                taken, square = _core.rbc.resolve_request(fen, uci)
                after = _core.rbc.push_move(fen, taken)
                assert (taken, square, after) == expected, (fen, uci)
                pairs += 1
            # Play on like a reconchess game: a random request (or a pass), resolved by the referee.
            request = rng.choice(actions + [None])
            if request is not None:
                request = add_pawn_queen_promotion(board, request)
                taken = revise_move(board, request)
            else:
                taken = None
            board.push(taken if taken is not None else chess.Move.null())
            if board.king(chess.WHITE) is None or board.king(chess.BLACK) is None:
                break
            if board.halfmove_clock >= 100:
                break
    assert positions > 10_000
