"""A RandomBot that ponders: it counts the ``while_we_wait()`` calls it gets while the other side
moves (each wait from the end of its turn, or the game's start, to its next turn or the game's
end) and any call during its own turn, and writes them as a JSON line to ``$PONDER_LOG`` at the
game's end."""

import json
import os
import time

from reconchess.bots.random_bot import RandomBot


class PonderingBot(RandomBot):
    def handle_game_start(self, color, board, opponent_name):
        super().handle_game_start(color, board, opponent_name)
        self.color = color
        self.waits = [0]  # calls in each wait for the opponent
        self.calls_on_my_turn = 0
        self.my_turn = False

    def while_we_wait(self):
        time.sleep(0.005)  # a slice of work: the client calls again until the next poll
        if self.my_turn:
            self.calls_on_my_turn += 1
        else:
            self.waits[-1] += 1

    def handle_opponent_move_result(self, captured_my_piece, capture_square):
        self.my_turn = True  # play_turn's first call: our turn has begun
        super().handle_opponent_move_result(captured_my_piece, capture_square)

    def handle_move_result(
        self, requested_move, taken_move, captured_opponent_piece, capture_square
    ):
        super().handle_move_result(
            requested_move, taken_move, captured_opponent_piece, capture_square
        )
        self.my_turn = False
        self.waits.append(0)

    def handle_game_end(self, winner_color, win_reason, game_history):
        path = os.environ.get("PONDER_LOG")
        if path:
            with open(path, "a") as log:
                record = {
                    "color": self.color,
                    "waits": self.waits,
                    "calls_on_my_turn": self.calls_on_my_turn,
                    "winner_color": winner_color,
                    "win_reason": getattr(win_reason, "name", None),
                }
                log.write(json.dumps(record) + "\n")


def get_player():
    """RandomBot is a Player subclass in this module too; reconchess asks which one is the bot."""
    return PonderingBot
