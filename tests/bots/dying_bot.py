"""A reconchess bot whose process is killed on its second move, as the kernel kills one that runs
out of memory: the tournament must lose only that game."""

import os
import signal

from reconchess.bots.random_bot import RandomBot


class DyingBot(RandomBot):
    def handle_game_start(self, color, board, opponent_name):
        self.moves = 0

    def choose_move(self, move_actions, seconds_left):
        self.moves += 1
        if self.moves == 2:
            os.kill(os.getpid(), signal.SIGKILL)
        return super().choose_move(move_actions, seconds_left)


def get_player():
    """RandomBot is a Player subclass in this module too; reconchess asks which one is the bot."""
    return DyingBot
