"""Why a bot lost: each lost game of a tournament database replayed up to its last sense.

For every game the named player lost, replays its observations (``fogsearch.tracking``) through
a board set up to the sense of its last turn and prints: the set's size then, the share of it
with our king in check (``BoardSet.boards_in_check``), whether the true board had our king in
check, and the sense the bot chose with its expected boards left (``BoardSet.sense_stats``).
With ``--at move`` it replays up to the last move instead and prints the set then, the share
in check, the true board's check and material (ours minus the opponent's, 100/300/300/500/900),
and the move requested: a loss many pawns down was lost on the board, one with the truth in
check on a few boards of many was a bet on the set. Sets that grow past ``--max-boards`` on the
way are skipped.

    python bench/loss_replay.py trout.sqlite fogsearch
    python bench/loss_replay.py trout.sqlite fogsearch --at move
"""

from __future__ import annotations

import argparse
import json
import sqlite3
from pathlib import Path

import chess
from reconchess.history import GameHistoryDecoder

from fogsearch.bot.requests import material_lead
from fogsearch.observations import MoveResult, OpponentMoveResult
from fogsearch.rbc import BoardSet, BoardSetTooLargeError
from fogsearch.tracking import Seen, observations


def read_only(path: str) -> sqlite3.Connection:
    """The tournament database at ``path``, opened read-only: a mistyped path must not leave an
    empty database behind (one line and exit when there is no such file)."""
    if not Path(path).is_file():
        raise SystemExit(f"no such database: {path}")
    return sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)


def player_games(db: sqlite3.Connection, player: str):
    """``(task index, our colour, winner, GameHistory)`` of every stored game ``player`` played."""
    names = dict(db.execute("select id, name from players"))
    if player not in names.values():
        raise SystemExit(
            f"no player {player!r} in the database (players: {sorted(names.values())})"
        )
    query = (
        "select white_id, black_id, winner, history_json, task_index from games"
        " where history_json is not null order by task_index"
    )
    for white_id, black_id, winner, history_json, index in db.execute(query):
        if player in (names[white_id], names[black_id]):
            color = chess.WHITE if names[white_id] == player else chess.BLACK
            yield index, color, winner, json.loads(history_json, cls=GameHistoryDecoder)


def lost_games(db: sqlite3.Connection, player: str):
    """``(task index, our colour, GameHistory)`` of every game ``player`` lost."""
    for index, color, winner, history in player_games(db, player):
        if winner != "draw" and (winner == "white") != color:
            yield index, color, history


def _replay_to_last_turn(history, color, max_boards: int, kind: type) -> tuple[BoardSet, Seen]:
    """The set the player held just before the observation of type ``kind`` of its last turn,
    and that observation."""
    observed = list(observations(history, color))
    last_turn = max(o.turn_number for o in observed)
    board_set = BoardSet(color, max_boards=max_boards)
    for o in observed:
        if o.turn_number == last_turn and isinstance(o.observation, kind):
            return board_set, o
        o.apply(board_set)
    raise ValueError(f"the player's last turn has no {kind.__name__}")


def set_before_last_sense(history, color, max_boards: int) -> tuple[BoardSet, chess.Board]:
    """The set the player held when choosing its last sense, and the true board then."""
    board_set, opponent_move = _replay_to_last_turn(history, color, max_boards, OpponentMoveResult)
    opponent_move.apply(board_set)
    return board_set, chess.Board(opponent_move.truth_fen)


def set_before_last_move(
    history, color, max_boards: int
) -> tuple[BoardSet, chess.Board, chess.Move | None]:
    """The set the player held when choosing its last move, the true board then, and the move it
    requested."""
    board_set, move = _replay_to_last_turn(history, color, max_boards, MoveResult)
    truth = history.truth_fen_before_move(list(history.turns(color))[-1])
    return board_set, chess.Board(truth), move.observation.requested


def describe_last_move(index, color, history, max_boards: int) -> str:
    side = "W" if color == chess.WHITE else "B"
    try:
        board_set, truth, requested = set_before_last_move(history, color, max_boards)
    except BoardSetTooLargeError:
        return f"| {index} | {side} | | > {max_boards} | | | | |"
    boards = len(board_set)
    return (
        f"| {index} | {side} | {truth.fullmove_number} | {boards} | "
        f"{100 * board_set.boards_in_check() / boards:.0f} % | "
        f"{'yes' if truth.is_check() else 'no'} | {material_lead(truth):+d} | "
        f"{requested.uci() if requested else 'pass'} |"
    )


def describe(index, color, history, max_boards: int) -> str:
    side = "W" if color == chess.WHITE else "B"
    try:
        board_set, truth = set_before_last_sense(history, color, max_boards)
    except BoardSetTooLargeError:
        return f"| {index} | {side} | > {max_boards} | | | |"
    boards = len(board_set)
    expected = board_set.sense_stats()
    sensed = history.sense(list(history.turns(color))[-1])
    chosen = "none"
    if sensed in expected:
        chosen = f"{chess.square_name(sensed)}: {expected[sensed]:.1f} boards"
    elif sensed is not None:
        chosen = f"{chess.square_name(sensed)} (an edge square)"
    king = truth.king(color)
    truth_in_check = king is not None and truth.is_attacked_by(not color, king)
    return (
        f"| {index} | {side} | {boards} | {100 * board_set.boards_in_check() / boards:.0f} % | "
        f"{'yes' if truth_in_check else 'no'} | {chosen} |"
    )


TABLES = {
    "sense": (
        (
            "game",
            "colour",
            "boards before the last sense",
            "in check",
            "true board in check",
            "sense chosen",
        ),
        describe,
    ),
    "move": (
        (
            "game",
            "colour",
            "move number",
            "boards",
            "in check",
            "true board in check",
            "material",
            "request",
        ),
        describe_last_move,
    ),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db", help="tournament SQLite file")
    parser.add_argument("player", help="the player's name in the database")
    parser.add_argument("--max-boards", type=int, default=1_000_000)
    parser.add_argument("--at", choices=("sense", "move"), default="sense")
    args = parser.parse_args()
    columns, describe_loss = TABLES[args.at]
    print(f"| {' | '.join(columns)} |")
    print("|---" * len(columns) + "|")
    for index, color, history in lost_games(sqlite3.connect(args.db), args.player):
        print(describe_loss(index, color, history, args.max_boards))


if __name__ == "__main__":
    main()
