"""The bot's per-board judgement and decision sensing (``fogsearch.search``): ``board_table`` (each
request's perfect-information value on each board, deepened within a time limit) against
``board_values`` (itself checked against a plain negamax), and ``decision_sense_values`` against a
brute force written here: the boards split by what a sense's 3x3 window shows (python-chess),
each part's best compound score weighted by the part's weight."""

from __future__ import annotations

import chess
import numpy as np
import pytest

from fogsearch.rbc import BoardSet
from fogsearch.search import SearchError, board_table, board_values, decision_sense_values

FENS = [
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 1 2",
    "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
]


def _set(fens=FENS) -> BoardSet:
    return BoardSet(chess.WHITE, fens)


@pytest.mark.parametrize("plies", [0, 1, 2])
def test_board_table_equals_board_values_at_a_fixed_depth(plies):
    table = board_table(_set(), least_plies=plies, most_plies=plies, threads=1)
    expected = board_values(_set(), plies=plies)
    assert table.values.shape == (len(expected), len(FENS))
    assert table.values.dtype == np.int32
    assert list(table.plies) == [plies] * len(FENS)
    for move, row in zip(table.requests, table.values, strict=True):
        assert list(row) == expected["0000" if move is None else move.uci()]


def test_board_table_values_do_not_depend_on_threads_or_the_request_list():
    one = board_table(_set(), least_plies=2, most_plies=2, threads=1)
    two = board_table(_set(), least_plies=2, most_plies=2, threads=2)
    assert one.requests == two.requests
    assert np.array_equal(one.values, two.values)
    chosen = [chess.Move.from_uci("f3e5"), None]
    part = board_table(_set(), chosen, least_plies=2, most_plies=2, threads=2)
    assert part.requests == chosen
    for move, row in zip(part.requests, part.values, strict=True):
        assert np.array_equal(row, one.values[one.requests.index(move)])


def test_a_spent_time_limit_keeps_the_plies_always_searched():
    table = board_table(_set(), least_plies=1, most_plies=8, threads=1, time_limit=1e-6)
    assert list(table.plies) == [1] * len(FENS)
    assert np.array_equal(table.values, board_table(_set(), least_plies=1, most_plies=1).values)


def test_with_nothing_certain_a_spent_time_limit_leaves_only_static_values():
    table = board_table(_set(), least_plies=None, most_plies=8, threads=1, time_limit=1e-6)
    assert table.plies.dtype == np.int32 and list(table.plies) == [-1] * len(FENS)
    assert table.values.shape == (len(table.requests), len(FENS))
    # Without a deadline nothing is cut: the same values as with the capture search certain.
    full = board_table(_set(), least_plies=None, most_plies=1, threads=1)
    assert list(full.plies) == [1] * len(FENS)
    assert np.array_equal(full.values, board_table(_set(), least_plies=0, most_plies=1).values)


def test_board_table_refuses_bad_plies_and_threads():
    with pytest.raises(ValueError, match="most_plies"):
        board_table(_set(), most_plies=9)
    with pytest.raises(ValueError, match="least_plies"):
        board_table(_set(), least_plies=-1)
    with pytest.raises(SearchError, match="least_plies <= most_plies"):
        board_table(_set(), least_plies=3, most_plies=2)
    with pytest.raises(ValueError, match="threads"):
        board_table(_set(), threads=0)


# -- decision_sense_values -------------------------------------------------------------------


def _window(board: chess.Board, square: chess.Square) -> tuple:
    rank, file = chess.square_rank(square), chess.square_file(square)
    return tuple(
        board.piece_at(chess.square(f, r))
        for r in (rank - 1, rank, rank + 1)
        for f in (file - 1, file, file + 1)
    )


def _compound(utilities, weights, boards, mean_weight) -> float:
    """The best request's score over ``boards`` (indices)."""
    w = weights[boards]
    return max(
        mean_weight * float(np.dot(w, row[boards]) / w.sum())
        + (1 - mean_weight) * float(row[boards].min())
        for row in utilities
    )


def _brute_force(fens, utilities, weights, mean_weight):
    boards = [chess.Board(f) for f in fens]
    everything = np.arange(len(fens))
    unsensed = _compound(utilities, weights, everything, mean_weight)
    by_square = {}
    for square in chess.SQUARES:
        if chess.square_file(square) in (0, 7) or chess.square_rank(square) in (0, 7):
            continue
        cells: dict[tuple, list[int]] = {}
        for i, board in enumerate(boards):
            cells.setdefault(_window(board, square), []).append(i)
        total = sum(
            weights[cell].sum() * _compound(utilities, weights, np.array(cell), mean_weight)
            for cell in cells.values()
            if weights[cell].sum() > 0
        )
        by_square[square] = total / weights.sum()
    return unsensed, by_square


@pytest.mark.parametrize("mean_weight", [0.0, 0.3, 1.0])
def test_decision_sense_values_equal_a_brute_force_over_the_sense_cells(mean_weight):
    rng = np.random.default_rng(7)
    fens = [
        chess.Board(f).fen()
        for f in [
            *FENS,
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 1 2".replace(
                "pppp1ppp/8/4p3", "ppp2ppp/3p4/4p3"
            ),
        ]
    ]
    utilities = rng.normal(size=(5, len(fens)))
    weights = np.array([0.5, 2.0, 0.0, 1.0])
    unsensed, by_square = decision_sense_values(_set(fens), utilities, weights, mean_weight)
    want_unsensed, want = _brute_force(fens, utilities, weights, mean_weight)
    assert unsensed == pytest.approx(want_unsensed)
    assert set(by_square) == set(want)
    for square, value in by_square.items():
        assert value == pytest.approx(want[square]), chess.square_name(square)
        assert value >= unsensed - 1e-9


def test_decision_sense_values_refuse_bad_shapes_and_weights():
    board_set = _set()
    with pytest.raises(SearchError, match="one column per board"):
        decision_sense_values(board_set, np.zeros((2, 2)))
    with pytest.raises(ValueError, match="2-d"):
        decision_sense_values(board_set, np.zeros(3))
    with pytest.raises(SearchError, match="weights"):
        decision_sense_values(board_set, np.zeros((2, 3)), np.zeros(3))
    with pytest.raises(SearchError, match="finite"):
        decision_sense_values(board_set, np.full((2, 3), np.nan))
    with pytest.raises(SearchError, match="mean_weight"):
        decision_sense_values(board_set, np.zeros((2, 3)), mean_weight=1.5)
