"""reconchess's AttackerBot taking 0.3 s over each move, so that the other side waits a measurable
time (and the game ends soon: AttackerBot goes for the king)."""

import time

from reconchess.bots.attacker_bot import AttackerBot


class SlowAttackerBot(AttackerBot):
    def choose_move(self, move_actions, seconds_left):
        time.sleep(0.3)
        return super().choose_move(move_actions, seconds_left)


def get_player():
    """AttackerBot is a Player subclass in this module too; reconchess asks which one is the bot."""
    return SlowAttackerBot
