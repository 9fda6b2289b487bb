"""bench/loss_replay.py on the recorded games the bot lost to TroutBot."""

import chess
import loss_replay
import pytest
from rbc_data import FOGSEARCH_NAME, trout_games


def _recorded_losses():
    for index, history in enumerate(trout_games()):
        color = chess.WHITE if history.get_white_player_name() == FOGSEARCH_NAME else chess.BLACK
        if history.get_winner_color() == (not color):
            yield index, color, history


LOSSES = {index: (color, history) for index, color, history in _recorded_losses()}


# Losses whose last sets are small enough to check against python-chess board by board.
@pytest.mark.parametrize("index", [0, 3, 5, 7, 10, 11, 13])
def test_the_set_before_the_last_sense_holds_the_truth_and_counts_its_check(index):
    color, history = LOSSES[index]
    board_set, truth = loss_replay.set_before_last_sense(history, color, max_boards=1_000_000)
    assert truth in board_set and truth.turn == color
    in_check = board_set.boards_in_check()
    assert in_check == sum(board.is_check() for board in board_set.to_boards())
    if truth.is_check():
        assert in_check >= 1
    row = loss_replay.describe(index, color, history, max_boards=1_000_000)
    assert row.startswith(f"| {index} | {'W' if color else 'B'} | {len(board_set)} |")
    assert ("| yes |" if truth.is_check() else "| no |") in row
    # The sense the bot chose, with the boards it expected to leave.
    sensed = history.sense(list(history.turns(color))[-1])
    expected = board_set.sense_stats()[sensed]
    assert row.endswith(f"| {chess.square_name(sensed)}: {expected:.1f} boards |")


def test_a_set_past_the_bound_is_reported_not_raised():
    color, history = LOSSES[0]
    assert "| > 1 |" in loss_replay.describe(0, color, history, max_boards=1)
    assert "| > 1 |" in loss_replay.describe_last_move(0, color, history, max_boards=1)


@pytest.mark.parametrize("index", [0, 3, 5])
def test_the_set_before_the_last_move_holds_the_truth_and_the_request_is_the_games(index):
    color, history = LOSSES[index]
    board_set, truth, requested = loss_replay.set_before_last_move(
        history, color, max_boards=1_000_000
    )
    assert truth in board_set and truth.turn == color
    last_turn = list(history.turns(color))[-1]
    assert requested == history.requested_move(last_turn)
    # The move was chosen after the last sense: every board agrees with what it showed.
    for square, piece in history.sense_result(last_turn):
        assert all(board.piece_at(square) == piece for board in board_set.to_boards())
    row = loss_replay.describe_last_move(index, color, history, max_boards=1_000_000)
    assert row.startswith(f"| {index} | {'W' if color else 'B'} | {truth.fullmove_number} |")
    assert ("| yes |" if truth.is_check() else "| no |") in row
