"""The opponent model's engine scoring (``fogsearch.rbc.EngineMoveScorer`` and the bot's
``opponent_engine_*`` settings): the likeliest boards' moves weighed by Stockfish's scores instead
of the one-ply score, through the set, the tracker and a whole game."""

import dataclasses
import math
import random
import shutil
from pathlib import Path

import chess
import pytest
import reconchess
from reconchess.bots.random_bot import RandomBot

from fogsearch._core.rbc import pseudo_legal_moves
from fogsearch.bot import FogsearchBot, OpponentModel
from fogsearch.bot.tracker import EngineScoring, Tracker
from fogsearch.observations import OpponentMoveResult
from fogsearch.rbc import (
    BoardSet,
    EngineMoveScorer,
    FogsearchError,
    MalformedObservationError,
    normalize_fen,
)

from .test_bot_tracker import FAST

pytestmark = pytest.mark.skipif(
    shutil.which("stockfish") is None and not Path("/usr/games/stockfish").exists(),
    reason="no Stockfish (scripts/install.sh installs it)",
)

HANGING = "4k3/8/8/3q4/8/1P6/3R1PP1/6K1 b - - 0 1"
"""Black's queen may take White's undefended rook on d2 (or lose itself to b3xc4)."""


def _weighted(fens: list[str]) -> BoardSet:
    board_set = BoardSet(chess.WHITE, fens=fens)
    board_set.set_opponent_model(200.0, 0.1)
    return board_set


def _weight_of(board_set: BoardSet, fen: str) -> float:
    fens = [normalize_fen(f) for f in board_set.fens()]
    return float(board_set.weights()[fens.index(normalize_fen(fen))])


def _after(fen: str, uci: str) -> str:
    board = chess.Board(fen)
    board.push(chess.Move.from_uci(uci))
    return board.fen()


def test_searched_scores_weigh_the_children_as_the_softmax_over_them():
    board_set = _weighted([HANGING])
    board = chess.Board(HANGING)
    # Every legal move at 0 but Qa5 at +100: e^(100/50) times as likely, before the uniform
    # share. The pass, which chess does not allow, scores the best (100) less what it loses in
    # one ply against Qxd2 (500): -400.
    scores = {move: (100.0 if move.uci() == "d5a5" else 0.0) for move in board.legal_moves}
    board_set.set_searched_moves({0: scores}, 50.0)
    assert board_set.searched_boards == 1
    board_set.handle_opponent_move_result(False, None)
    assert board_set.searched_boards == 0, "the scores serve one expansion"
    n = len(pseudo_legal_moves(HANGING)) + 1
    z = sum(math.exp(cp / 50.0) for cp in scores.values()) + math.exp(-400.0 / 50.0)
    a5, b5 = (0.1 / n + 0.9 * math.exp(2.0) / z), (0.1 / n + 0.9 / z)
    assert _weight_of(board_set, _after(HANGING, "d5a5")) / _weight_of(
        board_set, _after(HANGING, "d5b5")
    ) == pytest.approx(a5 / b5, rel=1e-9)
    passed = 0.1 / n + 0.9 * math.exp(-8.0) / z
    assert _weight_of(board_set, _after(HANGING, "0000")) / _weight_of(
        board_set, _after(HANGING, "d5a5")
    ) == pytest.approx(passed / a5, rel=1e-9)


def test_the_scorer_picks_the_likeliest_boards_and_an_observation_filters_them():
    scorer = EngineMoveScorer("stockfish", depth=1)
    quiet = "4k3/8/8/3q4/8/1P6/5PP1/3R2K1 b - - 0 1"
    board_set = _weighted([HANGING, quiet])
    assert scorer.score_likeliest(board_set, 1, 50.0) == 1
    assert board_set.searched_boards == 1
    # The queen took on d2: only the first board's Qxd2 fits, whatever the weights.
    board_set.handle_opponent_move_result(True, chess.D2)
    assert board_set.fens() == [normalize_fen(_after(HANGING, "d5d2"))]


def test_the_engine_prefers_the_centre_where_the_one_ply_score_ties_every_first_move():
    scorer = EngineMoveScorer("stockfish", depth=1)
    one_ply, searched = BoardSet(chess.BLACK), BoardSet(chess.BLACK)
    for board_set in (one_ply, searched):
        board_set.set_opponent_model(200.0, 0.1)
    assert scorer.score_likeliest(searched, 8, 50.0) == 1
    for board_set in (one_ply, searched):
        board_set.handle_opponent_move_result(False, None)
    assert one_ply.weights().max() == pytest.approx(one_ply.weights().min())
    start = chess.STARTING_FEN
    assert _weight_of(searched, _after(start, "e2e4")) > 1.5 * _weight_of(
        searched, _after(start, "a2a4")
    )


def test_bad_settings_and_misuse_are_clear_errors():
    with pytest.raises(ValueError, match="engine_depth"):
        EngineMoveScorer("stockfish", depth=0)
    scorer = EngineMoveScorer("stockfish", depth=1)
    board_set = _weighted([HANGING])
    with pytest.raises(ValueError, match="engine_boards"):
        scorer.score_likeliest(board_set, -1, 50.0)
    with pytest.raises(ValueError, match="time_limit"):
        scorer.score_likeliest(board_set, 4, 50.0, time_limit=float("nan"))
    # Without a model, or with our side to move, nothing is scored.
    assert scorer.score_likeliest(BoardSet(chess.WHITE, fens=[HANGING]), 4, 50.0) == 0
    ours = BoardSet(chess.BLACK, fens=[HANGING])
    ours.set_opponent_model(200.0, 0.1)
    assert scorer.score_likeliest(ours, 4, 50.0) == 0
    with pytest.raises(MalformedObservationError, match="our side is to move"):
        ours.set_searched_moves({0: {}}, 50.0)
    with pytest.raises(MalformedObservationError, match="outside"):
        board_set.set_searched_moves({5: {}}, 50.0)
    with pytest.raises(FogsearchError, match="engine scoring"):
        EngineMoveScorer("no-such-engine-fogsearch", depth=1)


def test_the_tracker_scores_before_each_opponent_move_and_keeps_the_truth():
    scoring = EngineScoring(EngineMoveScorer("stockfish", 1), boards=16, temperature_cp=50.0)
    tracker = Tracker(chess.BLACK, 10_000, random.Random(0), None, (200.0, 0.1), scoring)
    tracker.observe(OpponentMoveResult(False, None), seconds=5.0)
    assert tracker.engine_scored == 1
    assert normalize_fen(_after(chess.STARTING_FEN, "e2e4")) in [
        normalize_fen(f) for f in tracker.board_set.fens()
    ]


def test_a_game_with_the_engine_scoring_tracks_exactly_and_scores_every_turn():
    config = dataclasses.replace(FAST, opponent=OpponentModel(opponent_engine_boards=16))
    random.seed(4)
    bot = FogsearchBot(config)
    game = reconchess.LocalGame(seconds_per_player=120)
    reconchess.play_local_game(bot, RandomBot(), game=game)
    assert game.is_over()
    assert bot.recoveries == 0 and bot.fallbacks == 0
    assert bot.tracker.engine_scored >= len(bot.turn_log) - 1


def test_the_engine_scoring_is_off_by_default_and_a_missing_engine_keeps_the_one_ply_model(caplog):
    # Off since it lost to StrangeFish2 (bench/NOTEBOOK.md, "2026-12-07 (morning)").
    assert FogsearchBot().tracker.engine_scoring is None
    assert (
        FogsearchBot(
            dataclasses.replace(FAST, opponent=OpponentModel(opponent_engine_boards=64))
        ).tracker.engine_scoring
        is not None
    )
    missing = dataclasses.replace(
        FAST,
        opponent=OpponentModel(
            opponent_engine_boards=64, opponent_engine="no-such-engine-fogsearch"
        ),
    )
    bot = FogsearchBot(missing)
    assert bot.tracker.engine_scoring is None
    assert "no engine scoring" in caplog.text
