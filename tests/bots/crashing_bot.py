"""A reconchess bot that raises on its third move: the tournament must pin the crash on it."""

import random

from reconchess import Player


class CrashingBot(Player):
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
        if self.moves == 3:
            raise RuntimeError("deliberate crash on move 3")
        return random.choice(move_actions + [None])

    def handle_move_result(
        self, requested_move, taken_move, captured_opponent_piece, capture_square
    ):
        pass

    def handle_game_end(self, winner_color, win_reason, game_history):
        pass
