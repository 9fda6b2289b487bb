"""A reconchess bot that takes an hour over its first move: a game that only ends when the
tournament running it terminates its process."""

import time

from reconchess.bots.random_bot import RandomBot


class SleepyBot(RandomBot):
    def choose_move(self, move_actions, seconds_left):
        time.sleep(3600)
        return super().choose_move(move_actions, seconds_left)


def get_player():
    """RandomBot is a Player subclass in this module too; reconchess asks which one is the bot."""
    return SleepyBot
