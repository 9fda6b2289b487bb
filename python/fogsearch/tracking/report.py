"""Formatting a tracked game: the per-turn table of set sizes, the result and the verdict."""

from __future__ import annotations

import chess
from reconchess import GameHistory

from fogsearch.tracking.replay import TurnSizes, interleave


def format_rows(rows: list[TurnSizes]) -> str:
    lines = [
        f"{'turn':>4} {'side':<5} {'after opp. move':>15} {'after sense':>11} {'after move':>10}  truth in set"
    ]
    for r in rows:
        lines.append(
            f"{r.turn_number:>4} {chess.COLOR_NAMES[r.color]:<5} {r.after_opponent_move:>15} "
            f"{r.after_sense:>11} {r.after_move:>10}  {'yes' if r.truth_in_set else 'NO'}"
            + (f"  (tracking stopped: {r.stopped})" if r.stopped else "")
        )
    return "\n".join(lines)


def print_report(history: GameHistory, max_boards: int) -> int:
    """Prints both sides' set sizes per turn and the game's result; 1 if the true board was ever
    missing from a set, else 0."""
    rows = interleave(history, max_boards)
    print(format_rows(rows))
    winner = history.get_winner_color()
    print(
        f"result: {'draw' if winner is None else chess.COLOR_NAMES[winner]} "
        f"({history.get_win_reason().name if history.get_win_reason() else 'no reason'}), "
        f"{history.num_turns()} turns"
    )
    missing = [r for r in rows if not r.truth_in_set]
    if missing:
        print(f"ERROR: the true board was missing from the set on {len(missing)} turns")
        return 1
    stopped = [r for r in rows if r.stopped]
    for r in stopped:
        print(
            f"{chess.COLOR_NAMES[r.color]}: tracking stopped at turn {r.turn_number}, its set "
            f"would pass {max_boards} boards (--max-boards)"
        )
    tracked = "while tracked" if stopped else "at every step"
    print(f"the true board was in both sides' sets {tracked}")
    return 0
