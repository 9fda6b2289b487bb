"""A RandomBot whose ``while_we_wait`` takes an hour: its next call waits for it, on its own
clock, so it must lose on time without the opponent's clock paying for it."""

import time

from reconchess.bots.random_bot import RandomBot


class SlowPonderBot(RandomBot):
    def while_we_wait(self):
        time.sleep(3600)


def get_player():
    """RandomBot is a Player subclass in this module too; reconchess asks which one is the bot."""
    return SlowPonderBot
