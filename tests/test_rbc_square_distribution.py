"""BoardSet.square_distribution against python-chess counting over the set's boards."""

import chess
import numpy as np
import pytest

from fogsearch.rbc import SQUARE_STATES, BoardSet


def counted(board_set: BoardSet, weights=None) -> np.ndarray:
    """The reference: python-chess reads every board of the set and adds up what each square holds."""
    boards = board_set.to_boards()
    weights = np.ones(len(boards)) if weights is None else np.asarray(weights, dtype=float)
    table = np.zeros((64, 13))
    for board, w in zip(boards, weights, strict=True):
        for square in chess.SQUARES:
            piece = board.piece_at(square)
            table[square, 0 if piece is None else SQUARE_STATES.index(piece.symbol())] += w
    return table / weights.sum()


def middle_game_set(model: tuple[float, float] | None = None) -> BoardSet:
    """Black's set two moves in, never sensing: hundreds of boards, on some a capture on e5."""
    s = BoardSet(chess.BLACK)
    s.handle_opponent_move_result(False, None)
    s.handle_sense_result([])
    s.handle_move_result(chess.Move.from_uci("e7e5"), chess.Move.from_uci("e7e5"), False, None)
    if model is not None:
        s.set_opponent_model(*model)
    s.handle_opponent_move_result(False, None)
    return s


def test_uniform_shares_equal_python_chess_counts():
    s = middle_game_set()
    assert len(s) > 200
    d = s.square_distribution()
    assert d.shape == (64, 13) and d.dtype == np.float64
    np.testing.assert_allclose(d, counted(s), atol=1e-12)
    np.testing.assert_allclose(d.sum(axis=1), 1.0)


def test_weighted_shares_equal_python_chess_counts():
    s = middle_game_set()
    rng = np.random.default_rng(7)
    w = rng.random(len(s))
    w[::3] = 0.0
    np.testing.assert_allclose(s.square_distribution(w), counted(s, w), atol=1e-12)


def test_the_opponent_models_weights_are_accepted():
    s = middle_game_set(model=(200.0, 0.1))
    w = s.weights()
    assert not np.allclose(w, w[0])  # the model tells the moves apart (captures on e5)
    np.testing.assert_allclose(s.square_distribution(w), counted(s, w), atol=1e-12)


@pytest.mark.parametrize(
    "weights", [[1.0], [[1.0] * 21], [-1.0] + [1.0] * 20, [0.0] * 21, [float("nan")] * 21]
)
def test_bad_weights_are_refused(weights):
    s = BoardSet(chess.BLACK)
    s.handle_opponent_move_result(False, None)
    with pytest.raises(ValueError):
        s.square_distribution(weights)
