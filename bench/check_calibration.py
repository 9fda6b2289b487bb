"""Is the board set's share of boards with our king in check a calibrated belief?

Replays every game of a player in a tournament database (``fogsearch.tracking``) and, at each of
its moves where the set disagrees on whether our king is in check, records the share of boards in
check and whether the true board was. Printed per band of that share: how many such moves, and
in how many the truth was in check, against the share's mean. Weighting the boards in check more
(``FogsearchBotConfig.check_weight``) would be right if the truth were in check more often than
the share says.

    python bench/check_calibration.py trout.sqlite fogsearch
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import chess

from fogsearch.rbc import BoardSet, BoardSetTooLargeError
from fogsearch.tracking import observations

sys.path.insert(0, str(Path(__file__).parent))

from loss_replay import player_games  # noqa: E402


@dataclass(frozen=True)
class Move:
    """One move of the player where its set disagreed on check."""

    turn: int
    boards: int
    share_in_check: float
    truth_in_check: bool


def disputed_checks(history, color: chess.Color, max_boards: int) -> Iterator[Move]:
    """The player's moves at which some but not all boards of its set had our king in check. A
    set that would grow past ``max_boards`` ends the game's replay."""
    board_set = BoardSet(color, max_boards=max_boards)
    truth = None
    try:
        for obs in observations(history, color):
            if obs.method == "handle_move_result":
                boards, in_check = len(board_set), board_set.boards_in_check()
                if 0 < in_check < boards:
                    is_check = chess.Board(truth).is_check()
                    yield Move(obs.turn_number, boards, in_check / boards, is_check)
            obs.apply(board_set)
            truth = obs.truth_fen
    except BoardSetTooLargeError:
        return


BANDS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0)


def table(moves: list[Move]) -> list[str]:
    """Markdown rows: per band of the share in check, the moves, the truth in check, the share's
    mean; and a total."""
    rows = [
        "| share of boards in check | moves | true board in check | mean share |",
        "|---|---|---|---|",
    ]
    for low, high in zip(BANDS, BANDS[1:], strict=False):
        band = [m for m in moves if low <= m.share_in_check < high]
        if band:
            truth = sum(m.truth_in_check for m in band)
            mean = sum(m.share_in_check for m in band) / len(band)
            rows.append(
                f"| {low:.2f}-{high:.2f} | {len(band)} | {truth} ({truth / len(band):.1%}) "
                f"| {mean:.1%} |"
            )
    truth = sum(m.truth_in_check for m in moves)
    expected = sum(m.share_in_check for m in moves)
    rows.append(f"| all | {len(moves)} | {truth} | {expected:.1f} expected from the shares |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db", help="tournament SQLite file")
    parser.add_argument("player", help="the player's name in the database")
    parser.add_argument("--max-boards", type=int, default=1_000_000)
    args = parser.parse_args()
    db = sqlite3.connect(args.db)
    moves = [
        move
        for _, color, _, history in player_games(db, args.player)
        for move in disputed_checks(history, color, args.max_boards)
    ]
    print("\n".join(table(moves)))


if __name__ == "__main__":
    main()
