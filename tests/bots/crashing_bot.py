"""A reconchess bot that raises on its third move: the tournament must pin the crash on it."""

from reconchess.bots.random_bot import RandomBot


class CrashingBot(RandomBot):
    def handle_game_start(self, color, board, opponent_name):
        self.moves = 0

    def choose_move(self, move_actions, seconds_left):
        self.moves += 1
        if self.moves == 3:
            raise RuntimeError("deliberate crash on move 3")
        return super().choose_move(move_actions, seconds_left)


def get_player():
    """RandomBot is a Player subclass in this module too; reconchess asks which one is the bot."""
    return CrashingBot
