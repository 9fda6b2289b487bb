"""bench/king_danger.py on recorded TroutBot games: one entry per move, both kings scored."""

import chess
import king_danger as king_danger_bench
from rbc_data import trout_games
from test_search_bruteforce import king_danger


def test_dangers_follow_the_true_board_before_each_move_from_our_side():
    exposed = 0
    for history in trout_games()[:6]:
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
