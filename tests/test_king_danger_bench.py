"""bench/king_danger.py on recorded TroutBot games: one entry per move, both kings scored."""

import gzip
import importlib.util
import json
import sys
from pathlib import Path

import chess
from reconchess.history import GameHistoryDecoder
from test_search_bruteforce import king_danger

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT / "bench"))  # the script imports its neighbour loss_replay
spec = importlib.util.spec_from_file_location("king_danger", ROOT / "bench" / "king_danger.py")
king_danger_bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(king_danger_bench)


def test_dangers_follow_the_true_board_before_each_move_from_our_side():
    with gzip.open(ROOT / "bench" / "data" / "fogsearch_trout_games.jsonl.gz", "rt") as lines:
        histories = [json.loads(line, cls=GameHistoryDecoder) for line in lines][:6]
    exposed = 0
    for history in histories:
        for color in chess.COLORS:
            turns = list(history.turns(color))
            trail = king_danger_bench.dangers_before_moves(history, color)
            assert len(trail) == len(turns)
            for turn, (ours, theirs) in zip(turns, trail, strict=True):
                board = history.truth_board_before_move(turn)
                assert ours == king_danger(board, color)
                assert theirs == king_danger(board, not color)
                exposed += ours > 0
    assert exposed > 10
