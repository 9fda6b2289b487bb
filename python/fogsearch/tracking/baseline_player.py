"""The baseline player of tracked games: a reconchess bot whose senses shrink its own board set."""

from __future__ import annotations

import random

import reconchess

from fogsearch.rbc import BoardSet

BASELINE_BOTS = {
    "random": "reconchess.bots.random_bot",
    "attacker": "reconchess.bots.attacker_bot",
    "trout": "reconchess.bots.trout_bot",
}


class GreedySensing(reconchess.Player):
    """A baseline bot whose senses are chosen to shrink its own board set (with an optional share
    of random senses), and whose moves stay the bot's own. Baseline bots sense at random, which
    lets exact sets grow without bound; this keeps tracked games tractable."""

    def __init__(self, inner: reconchess.Player, random_sense_rate: float, rng: random.Random):
        self.inner = inner
        self.random_sense_rate = random_sense_rate
        self.rng = rng
        self.board_set: BoardSet | None = None

    def handle_game_start(self, color, board, opponent_name):
        self.board_set = BoardSet(color)
        self.inner.handle_game_start(color, board, opponent_name)

    def handle_opponent_move_result(self, captured_my_piece, capture_square):
        self.board_set.handle_opponent_move_result(captured_my_piece, capture_square)
        self.inner.handle_opponent_move_result(captured_my_piece, capture_square)

    def choose_sense(self, sense_actions, move_actions, seconds_left):
        if self.rng.random() < self.random_sense_rate:
            return self.rng.choice(sense_actions)
        stats = self.board_set.sense_stats()
        return min(stats, key=lambda sq: (stats[sq], sq))

    def handle_sense_result(self, sense_result):
        self.board_set.handle_sense_result(sense_result)
        self.inner.handle_sense_result(sense_result)

    def choose_move(self, move_actions, seconds_left):
        return self.inner.choose_move(move_actions, seconds_left)

    def handle_move_result(
        self, requested_move, taken_move, captured_opponent_piece, capture_square
    ):
        self.board_set.handle_move_result(
            requested_move, taken_move, captured_opponent_piece, capture_square
        )
        self.inner.handle_move_result(
            requested_move, taken_move, captured_opponent_piece, capture_square
        )

    def handle_game_end(self, winner_color, win_reason, game_history):
        self.inner.handle_game_end(winner_color, win_reason, game_history)
