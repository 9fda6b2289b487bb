"""A RandomBot that takes 0.3 s over each move, so that the other side waits a measurable time."""

import time

from reconchess.bots.random_bot import RandomBot


class SlowRandomBot(RandomBot):
    def choose_move(self, move_actions, seconds_left):
        time.sleep(0.3)
        return super().choose_move(move_actions, seconds_left)


def get_player():
    """RandomBot is a Player subclass in this module too; reconchess asks which one is the bot."""
    return SlowRandomBot
