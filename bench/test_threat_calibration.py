"""bench/threat_calibration.py: its events on hand-set boards, its predictions against the set's
boards counted one by one, and a run on stored StrangeFish2 games."""

import math
from pathlib import Path

import chess
import numpy as np
import pytest
import threat_calibration as calibration
from rbc_data import FOGSEARCH_NAME, trout_games

from fogsearch.rbc import BoardSet

DATA = Path(__file__).parent / "data"
AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


def test_a_piece_is_en_prise_to_a_cheaper_attacker_or_when_undefended():
    # White knight on e5 attacked by the pawn on d6 and defended by the pawn on d4.
    board = chess.Board("4k3/8/3p4/4N3/3P4/8/8/4K3 b - - 0 1")
    assert calibration._en_prise(board, chess.E5, chess.WHITE)
    # A rook on e5 defended by the d4 pawn, attacked by a black rook only: an even trade.
    board = chess.Board("4k3/4r3/8/4R3/3P4/8/8/4K3 b - - 0 1")
    assert not calibration._en_prise(board, chess.E5, chess.WHITE)
    board.remove_piece_at(chess.D4)  # now undefended
    assert calibration._en_prise(board, chess.E5, chess.WHITE)
    assert not calibration._en_prise(board, chess.E4, chess.WHITE)  # an empty square


def test_the_events_read_the_moved_piece_our_pieces_and_our_king():
    # Black to move after White's Bc4-f7: the bishop attacked by the king only, so not en prise
    # while defended by the queen on h5; the king on e1 attacked by the rook on e8.
    board = chess.Board("r3r1k1/5B2/8/7Q/8/8/8/4K3 b - - 0 1")
    ours = chess.WHITE
    assert calibration._moved_attacked(board, chess.F7, ours)
    assert not calibration._moved_en_prise(board, chess.F7, ours)
    assert not calibration._moved_attacked(board, None, ours)  # a pass moved nothing
    assert calibration._king_attacked(board, None, ours)
    assert not calibration._piece_en_prise(board, None, ours)
    board.remove_piece_at(chess.H5)
    assert calibration._moved_en_prise(board, chess.F7, ours)
    assert calibration._piece_en_prise(board, None, ours)


def test_a_turn_s_predictions_are_the_set_s_boards_counted_one_by_one():
    # Three boards after White's Nf3-e5, Black to move: the knight attacked on two of them.
    fens = [
        "4k3/8/3p4/4N3/8/8/8/4K3 b - - 0 1",
        "4k3/8/5p2/4N3/8/8/8/4K3 b - - 0 1",
        "4k3/8/8/4N3/8/8/7p/4K3 b - - 0 1",
    ]
    board_set = BoardSet(chess.WHITE, fens=fens)
    truth = chess.Board(fens[2])
    found = calibration.turn_predictions(board_set, truth, chess.E5, share_boards=10)
    attacked = found["moved attacked"]
    assert (attacked.weighted, attacked.share) == pytest.approx((2 / 3, 2 / 3))
    assert not attacked.truth
    # Equal weights stay equal under any power.
    assert attacked.tempered == pytest.approx((2 / 3,) * len(calibration.POWERS))
    assert found["moved en prise"].share == pytest.approx(2 / 3)
    assert found["king attacked"] == calibration.Prediction(0.0, 0.0, False, (0.0, 0.0, 0.0))
    assert attacked.sampled == attacked.weighted  # the search would judge every board
    # Counted on a stride of two boards (the first and the last) the share is one half.
    strided = calibration.turn_predictions(board_set, truth, chess.E5, share_boards=2)
    assert strided["moved attacked"].share == pytest.approx(0.5)
    # A search sample of two boards (equal weights: the set's first two) has it on both.
    sampled = calibration.turn_predictions(board_set, truth, chess.E5, 10, sample_boards=2)
    assert sampled["moved attacked"].sampled == pytest.approx(1.0)
    assert sampled["moved attacked"].weighted == pytest.approx(2 / 3)


def test_the_judged_sample_is_the_likeliest_boards_renormalised():
    board_set = BoardSet(chess.WHITE, fens=[AFTER_E4])
    board_set.set_opponent_model(200.0, 0.1)
    board_set.handle_opponent_move_result(False, None)
    weights = board_set.weights()
    assert weights.min() < weights.max()  # 1... f5 hangs a pawn: the model tells moves apart
    sample = calibration.judged_sample(board_set, 5)
    assert len(sample) == 5
    kept = np.sort(weights)[::-1][:5]
    assert np.sort(sample.weights())[::-1] == pytest.approx(kept / kept.sum())
    assert calibration.judged_sample(board_set, len(board_set)) is board_set


def test_a_recorded_game_s_settled_predictions_agree_with_the_truth():
    # The truth is always in the set: an event on no board cannot be on the truth, one on every
    # board must be. Over a recorded game this checks the replay's timing (the set after our
    # move, beside the board our move made).
    history = trout_games()[0]
    color = chess.WHITE if history.get_white_player_name() == FOGSEARCH_NAME else chess.BLACK
    turns = list(calibration.game_predictions(history, color, (200.0, 0.1), 200_000, 5_000))
    assert len(turns) >= 10
    settled = 0
    for turn in turns:
        for prediction in turn.values():
            assert 0.0 <= prediction.weighted <= 1.0 + 1e-9
            assert 0.0 <= prediction.share <= 1.0
            if prediction.share in (0.0, 1.0):
                settled += 1
                assert prediction.truth == (prediction.share == 1.0)
    assert settled > 0


def test_bins_and_log_loss():
    assert [calibration.bin_of(p) for p in (0.0, 0.009, 0.01, 0.3, 0.99, 1.0)] == [
        0,
        0,
        1,
        4,
        5,
        5,
    ]
    assert calibration.log_loss([0.25, 0.5], [True, False]) == pytest.approx(
        -(math.log(0.25) + math.log(0.5)) / 2
    )
    assert calibration.log_loss([0.0], [True]) == pytest.approx(-math.log(calibration.CLAMP))


def test_a_run_on_stored_games_prints_each_event_s_table(capsys):
    # A small bound keeps it short: each game's replay stops once its set would pass it.
    calibration.main(
        [
            str(DATA / "strangefish2_odds.sqlite"),
            "--player",
            "fogsearch",
            "--max-boards",
            "20000",
            "--model",
            "200,0.3",
        ]
    )
    out = capsys.readouterr().out
    # The match there grows as it resumes: every stored game is read.
    with calibration.read_only(str(DATA / "strangefish2_odds.sqlite")) as db:
        games = len(list(calibration.player_games(db, "fogsearch")))
    assert games >= 4
    assert f"### model: 200 cp, uniform share 0.3; {games} games" in out
    for name in calibration.EVENTS:
        assert f"**{name}**" in out
    assert out.count("| all |") == len(calibration.EVENTS)
    assert out.count("Tempered weights (power") == len(calibration.EVENTS)
    assert out.count("| mean sampled |") == len(calibration.EVENTS)
    assert "our king attackable" not in out  # only with --king-events


def test_tempered_weights_lie_between_the_model_s_weight_and_the_plain_share():
    # Two boards weighted 0.9 and 0.1 by the model, the event on the unlikely one: 0.1 by the
    # weight, 0.5 by the plain share, and in between when tempered, nearer the share as the
    # power falls.
    weighted, tempered = calibration.weighted_shares(np.array([0.9, 0.1]), np.array([False, True]))
    assert weighted == pytest.approx(0.1)
    expected = [0.1**p / (0.1**p + 0.9**p) for p in calibration.POWERS]
    assert tempered == pytest.approx(tuple(expected))
    assert 0.1 < tempered[-1] < tempered[0] < 0.5  # POWERS rise: 0.25 is nearest the share
    # Weights that do not sum to 1 are normalised first.
    assert calibration.weighted_shares(np.array([9.0, 1.0]), np.array([False, True]))[0] == (
        pytest.approx(0.1)
    )


def _after(faced_fen: str, uci: str, others: list[str]) -> calibration.AfterOurMove:
    faced = chess.Board(faced_fen)
    move = chess.Move.from_uci(uci)
    truth = faced.copy()
    truth.push(move)
    board_set = BoardSet(chess.WHITE, fens=[*others, truth.fen()])
    return calibration.AfterOurMove(board_set, faced, truth, move, 30)


def _king_event(after: calibration.AfterOurMove) -> calibration.KingEvent | None:
    found = calibration.turn_predictions(after.board_set, after.truth, after.moved_to, 100)
    return calibration.king_event(after, found["king attacked"])


def test_a_king_event_says_how_our_king_came_to_be_attackable():
    safe = "4k3/8/8/8/8/P7/8/4K3 b - - 0 1"  # another board of the set, no rook
    # The rook on e8 already checks; a2-a3 does not answer it. One board of two has the rook.
    unseen = _after("4r1k1/8/8/8/8/8/P7/4K3 w - - 0 1", "a2a3", [safe])
    event = _king_event(unseen)
    assert event == calibration.KingEvent(30, "unseen check", 2, 0.5, 0.5, 0.5, 0)
    walked = _king_event(_after("3rk3/8/8/8/8/8/8/4K3 w - - 0 1", "e1d1", [safe]))
    assert walked is not None and walked.kind == "king walked in"
    opened = _king_event(_after("4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1", "e2d3", [safe]))
    assert opened is not None and opened.kind == "line opened"
    assert _king_event(_after("4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1", "e1d1", [safe])) is None
    table = calibration.king_events_table([("game 7", event)])
    assert "| game 7 | 30 | unseen check | 2 |" in table
    assert table.endswith("By kind: unseen check 1.")
