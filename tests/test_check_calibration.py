"""bench/check_calibration.py on the recorded games of the bot against TroutBot."""

import gzip
import importlib.util
import json
import sys
from pathlib import Path

import chess
from reconchess.history import GameHistoryDecoder

from fogsearch.rbc import BoardSet
from fogsearch.tracking import observations

ROOT = Path(__file__).parents[1]
spec = importlib.util.spec_from_file_location(
    "check_calibration", ROOT / "bench" / "check_calibration.py"
)
check_calibration = importlib.util.module_from_spec(spec)
# Its dataclass looks its module up by name.
sys.modules[spec.name] = check_calibration
spec.loader.exec_module(check_calibration)
Move = check_calibration.Move


def _recorded_games(count: int):
    with gzip.open(ROOT / "bench" / "data" / "fogsearch_trout_games.jsonl.gz", "rt") as lines:
        for line, _ in zip(lines, range(count), strict=False):
            history = json.loads(line, cls=GameHistoryDecoder)
            white = history.get_white_player_name() == "fog_base"
            yield (chess.WHITE if white else chess.BLACK), history


def _sets_at_moves(history, color):
    """``(turn, boards, true board)`` at each of the player's moves, rebuilt independently."""
    board_set = BoardSet(color)
    for obs in observations(history, color):
        if obs.method == "handle_move_result":
            turn = next(t for t in history.turns(color) if t.turn_number == obs.turn_number)
            yield (
                obs.turn_number,
                board_set.to_boards(),
                chess.Board(history.truth_fen_before_move(turn)),
            )
        obs.apply(board_set)


def test_disputed_checks_are_the_moves_where_the_boards_disagree_with_their_true_board():
    found = 0
    for color, history in _recorded_games(6):
        expected = []
        for turn, boards, truth in _sets_at_moves(history, color):
            in_check = sum(board.is_check() for board in boards)
            if 0 < in_check < len(boards):
                expected.append(Move(turn, len(boards), in_check / len(boards), truth.is_check()))
        got = list(check_calibration.disputed_checks(history, color, max_boards=1_000_000))
        assert got == expected
        found += len(got)
    assert found > 0  # the recorded games do have such moves


def test_the_table_bands_the_shares_and_counts_the_truth():
    moves = [
        Move(1, 100, 0.01, False),
        Move(2, 100, 0.02, True),
        Move(3, 10, 0.5, True),
        Move(4, 10, 0.6, False),
    ]
    rows = check_calibration.table(moves)
    assert "| 0.00-0.05 | 2 | 1 (50.0%) | 1.5% |" in rows
    assert "| 0.50-0.70 | 2 | 1 (50.0%) | 55.0% |" in rows
    assert rows[-1] == "| all | 4 | 2 | 1.1 expected from the shares |"
    assert not any(row.startswith("| 0.05-0.10") for row in rows)  # empty bands are left out
