"""StrangeFish2 (ginoperrotta/reconchess-strangefish2, BSD-3-Clause) as a reconchess player for
`fogsearch tournament` and `rc-bot-match`, outside its author's setup.

This file is ours; StrangeFish2's code is not in this repository. Clone it, make a Python 3.10
environment for it, and name this file with that interpreter in a player spec (README, "StrangeFish2
as a sparring partner"). It runs under that interpreter only, so it imports nothing of fogsearch.
"""

import os
import sys

# Where the clone is (STRANGEFISH2_DIR), and the engine it needs (Debian's Stockfish by default).
sys.path.insert(0, os.environ.get("STRANGEFISH2_DIR", os.path.expanduser("~/strangefish2")))
os.environ.setdefault("STOCKFISH_EXECUTABLE", "/usr/games/stockfish")

from strangefish.strangefish_strategy import StrangeFish2  # noqa: E402


class StrangeFish2Player(StrangeFish2):
    """StrangeFish2 with what its repository lacks turned off, and its first move made safe."""

    def __init__(self):
        # Its score cache and opening books are files its repository does not contain.
        super().__init__(
            load_score_cache=False, load_opening_book=False, log_to_file=False, rc_disable_pbar=True
        )

    def handle_game_start(self, color, board, opponent_name):
        super().handle_game_start(color, board, opponent_name)
        # The known start board has no sampling priority, so White's first move can raise
        # "This can only be reached if a move eval is requested when already completed".
        for start_board in self.boards:
            self.board_sample_priority[0].add(start_board)


def get_player():
    """The class reconchess's load_player takes from this file (it also sees StrangeFish2)."""
    return StrangeFish2Player
