"""The bot's board judgement (``fogsearch.bot.judgement``): the squash, the lost king kept outside
it, and what that changes on the position of AttackerBot's knight rush that the mean let through."""

import chess
import numpy as np
import pytest

from fogsearch.bot.judgement import KING_LOST_BELOW, request_scores, utility
from fogsearch.rbc import BoardSet
from fogsearch.search import MATE, BoardTable, board_table

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


def _table(values: list[list[int]]) -> BoardTable:
    """A board table of three requests (a pass, e2e4, d2d4) over hand-made per-board values."""
    requests = [None, chess.Move.from_uci("e2e4"), chess.Move.from_uci("d2d4")]
    return BoardTable(requests, np.array(values, dtype=np.int32), np.zeros(3, np.int32), 0)


def test_the_mix_weighs_the_weighted_mean_against_the_worst_board():
    # e2e4 is better on the likely boards and loses a rook on the unlikely third; d2d4 is level.
    table = _table([[0, 0, 0], [200, 200, -500], [50, 50, 50]])
    weights = np.array([4.0, 4.0, 1.0])
    u = utility(np.array([200, -500, 50]))
    mean_e4 = (8 * u[0] + u[1]) / 9
    for mean_weight in (1.0, 0.5, 0.0):
        scores = request_scores(table, weights, mean_weight)
        assert scores["0000"] == 0
        assert scores["e2e4"] == pytest.approx(mean_weight * mean_e4 + (1 - mean_weight) * u[1])
        assert scores["d2d4"] == pytest.approx(u[2])
    # The mean alone takes the gamble, the minimum alone refuses it, and half and half refuses it.
    best = {w: max(request_scores(table, weights, w).items(), key=lambda kv: kv[1])[0]
            for w in (1.0, 0.5, 0.0)}  # fmt: skip
    assert best == {1.0: "e2e4", 0.5: "d2d4", 0.0: "d2d4"}
    # Uniform weights give the plain mean.
    plain = request_scores(table, np.ones(3), 1.0)
    assert plain["e2e4"] == pytest.approx((2 * u[0] + u[1]) / 3)


def test_the_set_searchs_values_replace_the_worst_board_where_it_has_them():
    table = _table([[0, 0, 0], [200, 200, -500], [50, 50, 50]])
    weights = np.ones(3)
    # The information-set search found e2e4's worst case is only -100 (it can sense first); it
    # has no value for d2d4, which keeps its worst board.
    scores = request_scores(table, weights, 0.0, set_values={"e2e4": -100, "0000": 0})
    assert scores["e2e4"] == pytest.approx(float(utility(np.array([-100]))[0]))
    assert scores["d2d4"] == pytest.approx(float(utility(np.array([50]))[0]))
    # A lost king in the set search is priced as on a board.
    king = request_scores(table, weights, 0.0, {"e2e4": -(MATE - 2)}, king_loss_cp=3000)
    assert king["e2e4"] == -3000
