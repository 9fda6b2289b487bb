"""A reconchess bot whose process is killed on its second move, as the kernel kills one that runs
out of memory: the tournament must lose only that game."""

import os
import random
import signal

from reconchess import Player


class DyingBot(Player):
    def handle_game_start(self, color, board, opponent_name):
        self.moves = 0

    def handle_opponent_move_result(self, captured_my_piece, capture_square):
        pass

    def choose_sense(self, sense_actions, move_actions, seconds_left):
        return random.choice(sense_actions)

    def handle_sense_result(self, sense_result):
        pass

    def choose_move(self, move_actions, seconds_left):
        self.moves += 1
        if self.moves == 2:
            os.kill(os.getpid(), signal.SIGKILL)
        return random.choice(move_actions + [None])

    def handle_move_result(
        self, requested_move, taken_move, captured_opponent_piece, capture_square
    ):
        pass

    def handle_game_end(self, winner_color, win_reason, game_history):
        pass
