"""BoardSet: tracking of real reconchess games against a plain python-chess reference tracker,
the accessors, and bad input."""

import copy
import gzip
import json
import pickle
import threading
import time
from pathlib import Path

import chess
import numpy as np
import pytest
from rbc_reference import ReferenceTracker, position_key
from reconchess.history import GameHistoryDecoder

from fogsearch.rbc import (
    SENSE_SQUARES,
    BoardSet,
    BoardSetTooLargeError,
    FogsearchError,
    IllegalRequestError,
    InconsistentObservationError,
    InvalidFenError,
    MalformedObservationError,
)
from fogsearch.tracking import observations, play_baseline_game, replay

# 50 games, alternating pairings and sensing mixes (greedy set-shrinking senses, with 0-40% random
# ones), capped at 6 full turns. The python-chess reference expands ~50k children/s, so it follows a
# side only while the parent set has at most REFERENCE_LIMIT boards; fogsearch keeps tracking (and
# the true board is checked) to the end.
GAMES = [
    (white, black, seed, rate)
    for seed in range(25)
    for white, black, rate in [
        ("random", "attacker", (0.0, 0.1, 0.25)[seed % 3]),
        ("attacker", "random", (0.25, 0.0, 0.1)[seed % 3]),
    ]
]
REFERENCE_LIMIT = 1000


def _keys(board_set: BoardSet) -> set[str]:
    return {position_key(b) for b in board_set.to_boards()}


@pytest.mark.slow
def test_fifty_games_tracked_exactly_for_both_colours():
    compared = truth_checks = 0
    for white, black, seed, rate in GAMES:
        history = play_baseline_game(white, black, seed, max_turns=6, random_sense_rate=rate)
        for color in (chess.WHITE, chess.BLACK):
            board_set, reference = BoardSet(color), ReferenceTracker(color)
            for obs in observations(history, color):
                if reference is not None and len(board_set) > REFERENCE_LIMIT:
                    reference = None
                obs.apply(board_set)
                assert obs.truth_fen in board_set, (white, black, seed, obs)
                truth_checks += 1
                if reference is not None:
                    obs.apply(reference)
                    assert _keys(board_set) == reference.keys(), (
                        white,
                        black,
                        seed,
                        obs.observation,
                    )
                    compared += 1
    assert truth_checks > 1000 and compared > 0.55 * truth_checks


TROUT_GAMES = Path(__file__).parents[1] / "bench" / "data" / "fogsearch_trout_games.jsonl.gz"


def test_recorded_games_against_troutbot_are_tracked_exactly_on_the_bots_side():
    """27 full-length games of the default bot against TroutBot (the search speed-up runs take
    their sets from them): replayed through a fresh set, the true board is in it after every
    observation, and the sets stay small enough to replay (the bot senses to shrink them)."""
    with gzip.open(TROUT_GAMES, "rt") as lines:
        histories = [json.loads(line, cls=GameHistoryDecoder) for line in lines]
    turns = 0
    for history in histories:
        white = history.get_white_player_name() == "fog_base"
        rows = replay(history, chess.WHITE if white else chess.BLACK)
        assert all(row.truth_in_set and row.stopped is None for row in rows)
        turns += len(rows)
    assert len(histories) == 27 and turns > 750


def test_start_sets_and_accessors():
    white = BoardSet(chess.WHITE)
    assert len(white) == 1 and chess.Board() in white and chess.STARTING_FEN in white
    black = BoardSet(chess.BLACK)
    black.handle_opponent_move_result(False, None)
    assert len(black) == 21
    keys = black.zobrist_keys()
    assert keys.dtype == np.uint64 and len(np.unique(keys)) == 21
    assert all(isinstance(b, chess.Board) for b in black.to_boards())
    stats = black.sense_stats()
    assert len(stats) == 36 and set(stats) == {r * 8 + f for r in range(1, 7) for f in range(1, 7)}
    assert all(1.0 <= v <= 21.0 for v in stats.values())
    assert "21 boards" in repr(black)


def _random_positions(seed, count, plies):
    """``count`` positions after ``plies`` random legal half-moves (White to move when even)."""
    import random

    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = chess.Board()
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if board.ply() == plies:
            out.append(board.fen())
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_sense_stats_and_checks_match_python_chess(seed):
    # Black's set after White's unseen moves from several positions: some replies give check.
    board_set = BoardSet(chess.BLACK, _random_positions(seed, 6, 16))
    board_set.handle_opponent_move_result(False, None)
    boards = board_set.to_boards()
    in_check = [b.is_check() for b in boards]  # Black to move: Black's king attacked
    assert board_set.boards_in_check() == sum(in_check)
    assert 0 < sum(in_check) < len(boards), "the sets should hold boards both in and out of check"
    stats = board_set.sense_stats()
    assert sorted(stats) == sorted(SENSE_SQUARES)
    for square, size in stats.items():
        cells: dict[tuple, int] = {}
        for board in boards:
            window = tuple(
                board.piece_at(sq) for sq in chess.SQUARES if chess.square_distance(sq, square) <= 1
            )
            cells[window] = cells.get(window, 0) + 1
        assert size == pytest.approx(sum(n * n for n in cells.values()) / len(boards))


def test_duplicate_fens_are_one_position():
    fens = [chess.STARTING_FEN, chess.STARTING_FEN.replace(" 0 1", " 5 9")]
    assert len(BoardSet(chess.WHITE, fens)) == 1


def _snapshot(board_set):
    return board_set.fens()


@pytest.fixture
def black_after_e4():
    s = BoardSet(chess.BLACK)
    s.handle_opponent_move_result(False, None)
    return s


def test_invalid_fen_is_a_clear_error():
    with pytest.raises(InvalidFenError, match="8 ranks"):
        BoardSet(chess.WHITE, ["rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"])
    with pytest.raises(InvalidFenError, match="unknown piece"):
        BoardSet(chess.WHITE, ["xnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"])
    with pytest.raises(ValueError):
        BoardSet(chess.WHITE, [])
    assert issubclass(InvalidFenError, FogsearchError) and issubclass(FogsearchError, ValueError)


def test_request_not_in_move_actions_leaves_the_set(black_after_e4):
    before = _snapshot(black_after_e4)
    with pytest.raises(IllegalRequestError, match="e7e3"):
        black_after_e4.handle_move_result(chess.Move.from_uci("e7e3"), None, False, None)
    assert _snapshot(black_after_e4) == before


def test_malformed_sense_results_leave_the_set(black_after_e4):
    before = _snapshot(black_after_e4)
    bad_results = [
        [(64, None)],
        [(chess.E4, "P")],
        [(chess.E4,)],
        "e4",
        [("e4", None)],
    ]
    for bad in bad_results:
        with pytest.raises((MalformedObservationError, TypeError)):
            black_after_e4.handle_sense_result(bad)
        assert _snapshot(black_after_e4) == before


def test_inconsistent_observations_leave_the_set(black_after_e4):
    before = _snapshot(black_after_e4)
    with pytest.raises(InconsistentObservationError, match="sense result"):
        black_after_e4.handle_sense_result([(chess.E5, chess.Piece(chess.QUEEN, chess.WHITE))])
    assert _snapshot(black_after_e4) == before
    with pytest.raises(InconsistentObservationError):
        # e7e5 cannot capture anything on the first move.
        black_after_e4.handle_move_result(
            chess.Move.from_uci("e7e5"), chess.Move.from_uci("e7e5"), True, chess.E5
        )
    assert _snapshot(black_after_e4) == before


def test_contradictory_capture_flags_are_malformed(black_after_e4):
    before = _snapshot(black_after_e4)
    with pytest.raises(MalformedObservationError, match="capture_square is None"):
        black_after_e4.handle_move_result(None, None, True, None)
    with pytest.raises(TypeError):
        black_after_e4.handle_move_result("e7e5", None, False, None)
    with pytest.raises(TypeError):
        black_after_e4.handle_opponent_move_result("no", None)
    assert _snapshot(black_after_e4) == before


def test_max_boards_refuses_growth_and_keeps_the_set():
    s = BoardSet(chess.BLACK, max_boards=10)
    with pytest.raises(BoardSetTooLargeError, match="max_boards"):
        s.handle_opponent_move_result(False, None)
    assert len(s) == 1


def test_results_do_not_depend_on_the_thread_count():
    history = play_baseline_game("random", "attacker", seed=3, max_turns=6, random_sense_rate=1.0)
    fens = []
    for threads in (1, 2, 3):
        s = BoardSet(chess.BLACK, threads=threads)
        for obs in observations(history, chess.BLACK):
            obs.apply(s)
        fens.append(s.fens())
    assert fens[0] == fens[1] == fens[2]


def _grown_white_set(unseen_moves: int, threads: int = 1) -> BoardSet:
    """White's set after ``unseen_moves`` opponent moves it never sensed, passing each turn."""
    boards = BoardSet(chess.WHITE, threads=threads)
    boards.handle_opponent_move_result(False, None)
    for _ in range(unseen_moves):
        boards.handle_move_result(None, None, False, None)
        boards.handle_opponent_move_result(False, None)
    return boards


def test_copies_and_pickles_are_independent_and_equal():
    original = _grown_white_set(2)
    for clone in (
        copy.copy(original),
        copy.deepcopy(original),
        pickle.loads(pickle.dumps(original)),
        original.copy(),
    ):
        assert clone == original and clone is not original
        assert clone.color == original.color and clone.max_boards == original.max_boards
        clone.handle_move_result(None, None, False, None)
        clone.handle_opponent_move_result(False, None)
        assert len(clone) > len(original)
        assert clone != original


def test_a_pickle_from_foreign_bytes_is_refused():
    with pytest.raises(FogsearchError, match="not an encoded board set"):
        BoardSet._wrap(_native_from_bytes(b"FSXX" + bytes(40)))


def _native_from_bytes(data: bytes):
    from fogsearch._core.rbc import BoardSet as NativeBoardSet

    return NativeBoardSet.from_bytes(data)


def test_a_set_changed_by_one_thread_while_another_updates_it_raises_concurrent_use():
    from fogsearch import ConcurrentUseError

    boards = _grown_white_set(3)  # about 29,000 boards: the next expansion takes a while
    boards.handle_move_result(None, None, False, None)
    expanding = threading.Thread(target=boards.handle_opponent_move_result, args=(False, None))
    expanding.start()
    refused = 0
    while expanding.is_alive():
        try:
            len(boards)
        except ConcurrentUseError:
            refused += 1
        time.sleep(0.005)
    expanding.join()
    assert refused > 0
    assert len(boards) > 29_000  # the expansion itself went through


def test_bounds_are_checked_where_they_enter():
    with pytest.raises(ValueError, match="threads"):
        BoardSet(chess.WHITE, threads=10**6)
    with pytest.raises(ValueError, match="threads"):
        BoardSet(chess.WHITE, threads=0)
    three = [
        "8/8/8/8/8/8/8/K6k w - - 0 1",
        "8/8/8/8/8/8/8/K5k1 w - - 0 1",
        "8/8/8/8/8/8/8/K4k2 w - - 0 1",
    ]
    with pytest.raises(BoardSetTooLargeError, match="3 boards"):
        BoardSet(chess.WHITE, three, max_boards=2)
    assert len(BoardSet(chess.WHITE, three, max_boards=3)) == 3


def test_subsets_keep_the_order_asked_and_the_limit():
    boards = _grown_white_set(1)
    boards = BoardSet(chess.WHITE, boards.fens(), max_boards=1000)
    sub = boards.subset([7, 3, 7])
    assert sub.fens() == [boards.fen(7), boards.fen(3)]
    assert sub.max_boards == 1000
    with pytest.raises(MalformedObservationError):
        boards.subset([len(boards)])


# -- the opponent model: board weights ---------------------------------------------------------


def test_weights_are_uniform_without_a_model_and_follow_free_captures_with_one():
    # White's rook on d2 hangs to Black's queen; we (White) passed, and Black moved unseen.
    fen = "4k3/8/8/3q4/8/8/3R4/6K1 b - - 0 1"
    plain = BoardSet(chess.WHITE, [fen])
    modelled = BoardSet(chess.WHITE, [fen])
    modelled.set_opponent_model(100.0, 0.1)
    assert modelled.opponent_model == (100.0, 0.1)
    for board_set in (plain, modelled):
        board_set.handle_opponent_move_result(True, chess.D2)
    assert len(plain) == len(modelled) == 1
    assert plain.weights().tolist() == [1.0]
    quiet = BoardSet(chess.WHITE, [fen])
    quiet.set_opponent_model(100.0, 0.0)  # no uniform share: the scores alone
    quiet.handle_opponent_move_result(False, None)
    weights = quiet.weights()
    assert weights.sum() == pytest.approx(1.0)
    # Without the capture, a queen move that walks into nothing is likelier than one the rook
    # takes for free (d5d3: the rook on d2 takes it).
    by_fen = dict(zip(quiet.fens(), weights, strict=True))
    hanging = next(w for f, w in by_fen.items() if f.startswith("4k3/8/8/8/8/3q4/3R4/6K1"))
    safe = next(w for f, w in by_fen.items() if f.startswith("4k3/8/8/q7/8/8/3R4/6K1"))
    assert hanging < safe / 100
    restored = pickle.loads(pickle.dumps(quiet))
    assert np.allclose(restored.weights(), weights, rtol=1e-12, atol=0)
    quiet.set_opponent_model(None)
    assert quiet.opponent_model is None
    assert np.allclose(quiet.weights(), 1 / len(quiet))


def test_a_bad_opponent_model_is_refused():
    board_set = BoardSet(chess.WHITE)
    with pytest.raises(ValueError, match="temperature_cp"):
        board_set.set_opponent_model(0.0)
    with pytest.raises(ValueError, match="uniform_share"):
        board_set.set_opponent_model(100.0, 2.0)
    with pytest.raises(ValueError, match="temperature_cp"):
        board_set.set_opponent_model(True)
    with pytest.raises(ValueError, match="uniform_share must be a number"):
        board_set.set_opponent_model(100.0, None)
    assert board_set.opponent_model is None
