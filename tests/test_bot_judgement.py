"""The bot's board judgement (``fogsearch.bot.judgement``): the squash, the lost king kept outside
it, and what that changes on the position of AttackerBot's knight rush that the mean let through."""

import chess
import numpy as np
import pytest

from fogsearch.bot.judgement import KING_LOST_BELOW, request_scores, utility
from fogsearch.rbc import BoardSet
from fogsearch.search import MATE, board_table

RUSH = "r1bqkbnr/pppppppp/8/8/1n2P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 3"
"""AttackerBot's knight on b4 after 1. e4 Nc6 2. Nc3 Nb4 3. Nf3: its next move, Nd3+, checks our
king unseen, and was played in both of the mean's losses to it (bench/RESULTS.md)."""


def test_utility_squashes_values_and_prices_a_lost_king_on_its_own():
    values = np.array([0, 300, -300, 3000, -3000, MATE - 3, -(MATE - 3), KING_LOST_BELOW])
    squashed = utility(values)
    assert squashed[0] == 0 and squashed[1] == pytest.approx(1000 * np.tanh(0.3))
    assert squashed[2] == -squashed[1] and squashed[4] == pytest.approx(-1000 * np.tanh(3))
    assert squashed[5] == pytest.approx(1000) and squashed[6] == squashed[7] == -1000
    priced = utility(values, king_loss_cp=5000)
    # Only the lost kings change; a taken king and a large material loss keep the squash.
    assert list(priced[6:]) == [-5000, -5000]
    assert np.array_equal(priced[:6], squashed[:6])


def _after_the_rush() -> tuple[BoardSet, np.ndarray]:
    """Our set as White after the knight's next move from b4 (captures left out: they would be
    seen), the board with Nd3+ weighing one sixth of each other board, as an opponent model that
    ranks it with quiet moves would leave it (under 1 % of the set)."""
    before = chess.Board(RUSH)
    fens = []
    for move in before.legal_moves:
        if not before.is_capture(move):
            after = before.copy()
            after.push(move)
            fens.append(after.fen())
    boards = BoardSet(chess.WHITE, fens=fens)
    weights = np.array([1.0 if board.is_check() else 6.0 for board in boards.to_boards()])
    return boards, weights


@pytest.mark.parametrize("king_loss_cp, answers_the_check", [(1000.0, False), (10_000.0, True)])
def test_a_lost_king_priced_outside_the_squash_answers_the_unlikely_check(
    king_loss_cp, answers_the_check
):
    boards, weights = _after_the_rush()
    table = board_table(boards, least_plies=4, most_plies=4, threads=1)
    scores = request_scores(table, weights, 1.0, king_loss_cp=king_loss_cp)
    best = max(scores, key=lambda key: scores[key])
    checked = next(i for i, board in enumerate(boards.to_boards()) if board.is_check())
    row = [r for r, move in enumerate(table.requests) if move and move.uci() == best][0]
    assert weights[checked] / weights.sum() < 0.01
    # Under the squash alone the check is worth ignoring for a better move on the other boards.
    assert (table.values[row, checked] > KING_LOST_BELOW) == answers_the_check, best
