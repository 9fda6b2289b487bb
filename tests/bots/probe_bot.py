"""A RandomBot that reports where it runs: its process id, its CPU affinity and that of a child
it starts, whether fogsearch is imported, its interpreter, and how often ``while_we_wait`` ran
(which sleeps ``PONDER_SLEEP`` seconds a call) by its turn. Rows go to ``turn_log``, which the
referee keeps for each player."""

import os
import subprocess
import sys
import time

from reconchess.bots.random_bot import RandomBot

PONDER_SLEEP = 0.02


class ProbeBot(RandomBot):
    def __init__(self):
        super().__init__()
        self.turn_log = []
        self.ponders = 0

    def handle_game_start(self, color, board, opponent_name):
        child = subprocess.run(
            [sys.executable, "-c", "import os; print(sorted(os.sched_getaffinity(0)))"],
            capture_output=True,
            text=True,
            check=True,
        )
        self.turn_log.append(
            {
                "pid": os.getpid(),
                "affinity": sorted(os.sched_getaffinity(0)),
                "child_affinity": child.stdout.strip(),
                "fogsearch_imported": "fogsearch" in sys.modules,
                "executable": sys.executable,
            }
        )
        super().handle_game_start(color, board, opponent_name)

    def while_we_wait(self):
        self.ponders += 1
        time.sleep(PONDER_SLEEP)

    def choose_move(self, move_actions, seconds_left):
        self.turn_log.append({"ponders": self.ponders})
        return super().choose_move(move_actions, seconds_left)


def get_player():
    """RandomBot is a Player subclass in this module too; reconchess asks which one is the bot."""
    return ProbeBot
