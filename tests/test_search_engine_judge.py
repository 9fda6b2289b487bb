"""The per-board judgement by a UCI engine (``fogsearch.search.EngineJudge``): the rules before the
engine, its scores checked against python-chess's own UCI client on the same Stockfish, its mates
as king captures, the deadline, the cache and bad input."""

import chess
import chess.engine
import numpy as np
import pytest

from fogsearch import _core
from fogsearch.opponents.stockfish import find_stockfish
from fogsearch.rbc import BoardSet
from fogsearch.search import MATE, EngineJudge, SearchError

pytestmark = pytest.mark.skipif(
    find_stockfish() is None, reason="needs Stockfish (scripts/install.sh installs Debian's)"
)

CHECKED = "r1bqkbnr/pppppppp/8/8/4P3/2Nn1N2/PPPP1PPP/R1BQKB1R w KQkq - 5 4"
"""White in check from the knight on d3: every request but a capture on d3 or a king move loses."""
BACK_RANK = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"
"""Ra8 mates."""


def _column(table, board: int) -> dict[str, int]:
    return {
        "0000" if move is None else move.uci(): int(table.values[r, board])
        for r, move in enumerate(table.requests)
    }


def test_the_rules_decide_king_captures_and_the_engine_scores_the_rest_as_stockfish_does():
    boards = BoardSet(chess.WHITE, fens=[CHECKED, chess.STARTING_FEN])
    judge = EngineJudge(find_stockfish(), depth=1)
    table = judge.table(boards, threads=2)
    assert list(table.plies) == [1, 1]
    checked = _column(table, 0)
    assert checked["d2d4"] == checked["0000"] == -(MATE - 2)  # the knight then takes our king
    assert -MATE // 2 < checked["c2d3"] < MATE // 2
    engine = chess.engine.SimpleEngine.popen_uci(find_stockfish())
    try:
        for fen, column in ((CHECKED, checked), (chess.STARTING_FEN, _column(table, 1))):
            for uci in ("c2d3", "f1d3", "e1e2") if fen == CHECKED else ("e2e4", "g1f3"):
                board = chess.Board(fen)
                board.push(chess.Move.from_uci(uci))
                board.halfmove_clock, board.fullmove_number = 0, 1
                info = engine.analyse(board, chess.engine.Limit(depth=1))
                # The opponent is to move: our value is its score negated.
                assert column[uci] == -info["score"].relative.score(), (fen, uci)
    finally:
        engine.quit()


def test_an_engine_mate_is_a_king_capture_at_its_ply():
    table = EngineJudge(find_stockfish(), depth=4).table(
        BoardSet(chess.WHITE, fens=[BACK_RANK]), requests=[chess.Move.from_uci("a1a8")]
    )
    # Mated now: their king falls on the ply after their move.
    assert int(table.values[0, 0]) == MATE - 2


def test_a_second_call_reads_the_cache_and_threads_do_not_change_values():
    boards = BoardSet(chess.WHITE, fens=[CHECKED, chess.STARTING_FEN])
    judge = EngineJudge(find_stockfish(), depth=1)
    first = judge.table(boards, threads=1)
    again = judge.table(boards, threads=2)
    assert first.nodes > 0 and again.nodes == 0
    assert np.array_equal(first.values, again.values)
    fresh = EngineJudge(find_stockfish(), depth=1).table(boards, threads=2)
    assert np.array_equal(first.values, fresh.values)


def test_boards_past_the_deadline_keep_static_values():
    fens = [chess.STARTING_FEN]
    board = chess.Board()
    for move in list(board.legal_moves)[:12]:
        after = board.copy()
        after.push(move)
        after.push(chess.Move.null())
        fens.append(after.fen())
    table = EngineJudge(find_stockfish(), depth=12).table(
        BoardSet(chess.WHITE, fens=fens), threads=1, time_limit=0.05
    )
    assert (table.plies == -1).any()
    assert set(np.unique(table.plies)) <= {-1, 1}


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"depth": 0}, "depth"),
        ({"depth": 41}, "depth"),
        ({"nodes": -1}, "nodes"),
        ({"nodes": 10**9}, "nodes"),
        ({"engine": ""}, "engine"),
    ],
)
def test_bad_limits_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        EngineJudge(**kwargs)


def test_a_missing_engine_is_a_search_error():
    with pytest.raises(SearchError, match="not found"):
        EngineJudge("no-such-engine-fogsearch")


FAKE_ENGINE = """#!/bin/sh
# A UCI engine that scores every position 7 cp for the side to move, and dies on {dies}.
while read -r line; do
  case "$line" in
    uci) echo "id name fake"; echo uciok ;;
    isready) echo readyok ;;
    "position fen "*) position="$line" ;;
    go*) case "$position" in *{dies}*) exit 1 ;; esac
         echo "info depth 1 score cp 7"; echo "bestmove 0000" ;;
    quit) exit 0 ;;
  esac
done
"""


def _fake_engine(tmp_path, dies: str) -> str:
    path = tmp_path / "engine.sh"
    path.write_text(FAKE_ENGINE.replace("{dies}", dies))
    path.chmod(0o755)
    return str(path)


def test_a_position_the_engine_dies_on_keeps_its_static_value_and_the_rest_are_scored(tmp_path):
    requests = [chess.Move.from_uci(u) for u in ("e2e4", "g1f3", "d2d4")]
    # Only 1. e4 puts a pawn on e4 and nothing else on rank 4.
    judge = EngineJudge(_fake_engine(tmp_path, '"/4P3/"'), depth=1)
    start = BoardSet(chess.WHITE, fens=[chess.STARTING_FEN])
    table = judge.table(start, requests=requests, threads=1)
    after_e4 = chess.Board()
    after_e4.push_uci("e2e4")
    static = -_core.search.evaluate_fen(after_e4.fen())  # Black to move: ours is its negation
    values = dict(zip([m.uci() for m in table.requests], table.values[:, 0].tolist(), strict=True))
    assert values["g1f3"] == values["d2d4"] == -7
    assert values["e2e4"] == static != -7
    assert list(table.plies) == [1] and table.nodes == 2


def test_an_engine_that_dies_on_every_position_is_a_search_error(tmp_path):
    judge = EngineJudge(_fake_engine(tmp_path, '"fen "'), depth=1)
    with pytest.raises(SearchError, match="stopped answering"):
        judge.table(BoardSet(chess.WHITE, fens=[chess.STARTING_FEN]), threads=2)
