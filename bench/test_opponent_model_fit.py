"""bench/opponent_model_fit.py: its likelihoods against hand counts, its Python re-scoring against
the core, and a run on the stored StrangeFish2 games."""

import math
import shutil
from pathlib import Path

import chess
import chess.engine
import opponent_model_fit as fit
import pytest

from fogsearch.rbc import normalize_fen

DATA = Path(__file__).parent / "data"


def _move(fen: str, uci: str | None) -> fit.OpponentMove:
    board = chess.Board(fen)
    taken = None if uci is None else chess.Move.from_uci(uci)
    after = board.copy()
    if taken is None:
        after.push(chess.Move.null())
    else:
        after.push(taken)
    capture = None
    if taken is not None and board.piece_at(taken.to_square):
        capture = taken.to_square
    return fit.OpponentMove(board, taken, capture, normalize_fen(after.fen()))


AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


def test_a_uniform_model_gives_each_of_the_moves_and_the_pass_an_equal_share():
    # Black after 1. e4: 20 moves and the pass, none a capture, so none is ruled out.
    move = _move(AFTER_E4, "e7e5")
    assert fit.core_log_likelihood(move, (200.0, 1.0)) == pytest.approx(-math.log(21))
    assert fit.what_if_log_likelihood(move, fit.what_if_score, (200.0, 1.0)) == pytest.approx(
        -math.log(21)
    )


def test_an_observed_capture_leaves_only_the_moves_that_make_it():
    # 1. e4 d5: White's exd5 is the only move that takes on d5; with the capture observed, its
    # probability given the observation is 1 under any model.
    move = _move("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "e4d5")
    assert move.capture_square == chess.D5
    for model in [(200.0, 0.1), (100.0, 0.3)]:
        assert fit.core_log_likelihood(move, model) == pytest.approx(0.0, abs=1e-12)
        assert fit.what_if_log_likelihood(move, fit.what_if_score, model) == pytest.approx(0.0)


def test_the_re_scoring_has_the_core_s_terms():
    rush = chess.Board("rnbqkb1r/pppppppp/8/8/7n/2N1P3/PPPPNPPP/R1BQKB1R b KQkq - 5 4")
    # A knight check into a pawn's attack: the check's bonus less the knight.
    assert fit.what_if_score(rush, chess.Move.from_uci("h4f3")) == fit.KING_ATTACKED - 300
    assert fit.what_if_score(rush, chess.Move.from_uci("h4f3"), check_loss=0.0) == 500
    assert fit.what_if_score(rush, chess.Move.from_uci("h4f3"), check_loss=0.5) == 350
    # 1. e4 Nf6 2. e5 attacks the knight (guarded by g7): a threat of 300 - 100.
    line = chess.Board("rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2")
    assert fit.what_if_score(line, chess.Move.from_uci("e4e5")) == 0
    assert fit.what_if_score(line, chess.Move.from_uci("e4e5"), threat_weight=1.0) == 200
    # A knight that lands where a pawn takes it scores its loss, not its threat.
    hung = chess.Board("4k3/8/8/3r4/3p4/8/8/1N2K3 w - - 0 1")
    assert fit.what_if_score(hung, chess.Move.from_uci("b1c3"), threat_weight=1.0) == -300


def test_the_stored_strangefish2_games_fit_and_the_re_scoring_agrees_with_the_core():
    moves = list(fit.opponent_moves([str(DATA / "strangefish2_v2.sqlite")], "strangefish2"))
    assert len(moves) > 300
    sample = moves[::10]
    core = [fit.core_log_likelihood(m, fit.DEFAULT_MODEL) for m in sample]
    again = [fit.what_if_log_likelihood(m, fit.what_if_score, fit.DEFAULT_MODEL) for m in sample]
    assert again == pytest.approx(core, abs=1e-9)
    # The model predicts StrangeFish2 better than no model at all.
    uniform = [fit.core_log_likelihood(m, (200.0, 1.0)) for m in sample]
    assert sum(core) > sum(uniform)


def test_an_unknown_player_or_database_is_one_line_and_creates_nothing(tmp_path):
    with pytest.raises(SystemExit, match="no player"):
        fit.main([str(DATA / "strangefish2_v2.sqlite"), "--player", "nobody"])
    missing = tmp_path / "missing.sqlite"
    with pytest.raises(SystemExit, match="no such database"):
        fit.main([str(missing), "--player", "strangefish2"])
    assert not missing.exists()


def _classes(fen: str, *ucis: str | None) -> list[str]:
    board = chess.Board(fen)
    return [fit.move_class(board, None if u is None else chess.Move.from_uci(u)) for u in ucis]


def test_each_move_falls_in_the_first_class_that_fits():
    rush = "rnbqkb1r/pppppppp/8/8/7n/2N1P3/PPPPNPPP/R1BQKB1R b KQkq - 5 4"
    # Nh4-f3+ lands where the g2 pawn takes it; a6 is quiet.
    assert _classes(rush, None, "h4f3", "a7a6") == ["pass", "check, checker attacked", "quiet"]
    assert _classes("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "e4d5") == [
        "capture"
    ]
    # White's rook check from a8 is safe; Ke2-d3 walks into the rook on the d-file.
    assert _classes("7k/3r4/8/8/8/8/4K3/R7 w - - 0 1", "a1a8", "e2d3") == [
        "check, checker safe",
        "own king left en prise",
    ]
    # En passant takes a pawn that is not on the target square.
    assert _classes("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6") == ["capture"]


def test_the_pass_can_be_scored_and_the_class_masses_sum_to_the_moves():
    move = _move(chess.STARTING_FEN, None)
    assert fit.what_if_score(move.board, None) == 0
    assert fit.what_if_score(move.board, None, pass_cp=200.0) == 200
    # White's 20 first moves and the pass all score 0 in the core's score: equal shares.
    plain = fit.class_masses([move], fit.what_if_score)
    assert plain["pass"] == pytest.approx(1 / 21)
    assert plain["quiet"] == pytest.approx(20 / 21)
    assert sum(plain.values()) == pytest.approx(1.0)
    # Scored +200 cp at the 200 cp temperature, the pass is e times as likely as each move,
    # less the uniform share's part.
    raised = fit.class_masses([move], lambda b, m: fit.what_if_score(b, m, pass_cp=200.0))
    temperature, uniform = fit.DEFAULT_MODEL
    e = math.exp(200.0 / temperature)
    assert raised["pass"] == pytest.approx(uniform / 21 + (1 - uniform) * e / (e + 20))
    assert fit.what_if_log_likelihood(move, fit.what_if_score, fit.DEFAULT_MODEL) == (
        pytest.approx(fit.core_log_likelihood(move, fit.DEFAULT_MODEL))
    )


def test_two_plies_take_the_best_reply_off_what_a_move_wins():
    board = chess.Board("4k3/8/8/3q4/8/1P6/3R1PP1/6K1 b - - 0 1")
    # Qxd2 wins the rook and nothing of White's takes back; Qc4 loses the queen to bxc4.
    assert fit.two_ply_score(board, chess.Move.from_uci("d5d2")) == 500
    assert fit.two_ply_score(board, chess.Move.from_uci("d5c4")) == -900
    assert fit.what_if_score(board, chess.Move.from_uci("d5c4"), two_ply=True) == -900


def test_a_quiet_move_that_prepares_a_safe_check_is_told_apart():
    board = chess.Board("7k/8/8/8/4N3/8/8/4K3 w - - 0 1")
    # From d6 the knight checks next from f7, which the king on h8 does not reach; from c3 it
    # has no check at all.
    assert fit.threatens_safe_check(board, chess.Move.from_uci("e4d6"))
    assert not fit.threatens_safe_check(board, chess.Move.from_uci("e4c3"))
    assert fit.what_if_score(board, chess.Move.from_uci("e4d6"), check_threat_cp=100.0) == 100
    assert fit.what_if_score(board, chess.Move.from_uci("e4c3"), check_threat_cp=100.0) == 0


def test_the_placement_change_reads_the_core_s_tables_from_the_mover_s_side():
    # Ng1-f3 and its mirror Ng8-f6 both gain 15 cp of centrality.
    assert fit.placement_change(chess.Board(), chess.Move.from_uci("g1f3")) == 15
    assert fit.placement_change(chess.Board(AFTER_E4), chess.Move.from_uci("g8f6")) == 15
    assert fit.what_if_score(chess.Board(), chess.Move.from_uci("g1f3"), placement_weight=2) == 30


def test_the_engine_scores_every_move_and_the_pass():
    engine_path = shutil.which("stockfish") or "/usr/games/stockfish"
    if not Path(engine_path).exists():
        pytest.skip("no Stockfish")
    # Black's queen can take the undefended rook on d2; castling is not on, the pass is.
    board = chess.Board("4k3/8/8/3q4/8/1P6/3R1PP1/6K1 b - - 0 1")
    with chess.engine.SimpleEngine.popen_uci(engine_path) as engine:
        scores = fit.engine_scores(board, engine, 2)
    assert set(scores) == {None, *fit._pseudo_legal(board)}
    assert max(scores, key=lambda m: scores[m]) == chess.Move.from_uci("d5d2")
    # The pass, which chess does not allow, scores the engine's best less its one-ply loss.
    assert scores[None] == max(scores.values()) - 500


def test_an_engine_depth_out_of_bounds_is_a_usage_error():
    with pytest.raises(SystemExit) as exit_info:
        fit.main([str(DATA / "strangefish2_v2.sqlite"), "--player", "x", "--engine-depth", "21"])
    assert exit_info.value.code == 2
