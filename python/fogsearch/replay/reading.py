"""Reading a reconchess ``GameHistory`` and checking that its turns agree with each other."""

from __future__ import annotations

import json
from pathlib import Path

import chess
from reconchess import GameHistory
from reconchess.history import GameHistoryDecoder

from fogsearch.rbc import FogsearchError, capture_square

MAX_HISTORY_BYTES = 64 * 2**20
"""A game of the longest possible length (about 6,300 turns) saves to a few MB."""


class ReplayError(ValueError):
    """A history that cannot be replayed: not a game, unreadable, or self-contradicting. The
    message is one line and names the turn where there is one."""


def read_history(path: str | Path) -> GameHistory:
    path = Path(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise ReplayError(f"{path}: cannot read it ({exc.strerror})") from None
    if size > MAX_HISTORY_BYTES:
        raise ReplayError(f"{path}: {size} bytes, more than a game history's {MAX_HISTORY_BYTES}")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ReplayError(f"{path}: cannot read it ({exc})") from None
    return history_from_json(text, str(path))


def history_from_json(text: str, name: str = "history") -> GameHistory:
    """The history in ``text`` (what ``GameHistory.save`` writes), checked turn by turn."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReplayError(
            f"{name}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
            "a truncated file?"
        ) from None
    if not isinstance(raw, dict) or raw.get("type") != "GameHistory":
        raise ReplayError(
            f"{name}: not a reconchess GameHistory (save one with `fogsearch play --save`, "
            "`fogsearch tournament` or GameHistory.save)"
        )
    try:
        history = json.loads(text, cls=GameHistoryDecoder)
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        first = (str(exc).splitlines() or [type(exc).__name__])[0]
        raise ReplayError(f"{name}: a GameHistory that reconchess cannot read ({first})") from None
    check_turns(history, name)
    return history


def check_turns(history: GameHistory, name: str) -> None:
    """Every turn's lists are present, and every move is what the referee makes of the request on
    the turn's true board, with the next turn's board following from it."""
    try:
        turns = list(history.turns())
        previous_after = None
        for turn in turns:
            where = f"{name}: turn {turn.turn_number + 1} ({chess.COLOR_NAMES[turn.color]})"
            before = history.truth_fen_before_move(turn)
            board = chess.Board(before)
            if board.turn != turn.color:
                raise ReplayError(f"{where}: the true board has the other side to move")
            if previous_after is not None and board.board_fen() != previous_after:
                raise ReplayError(
                    f"{where}: the true board does not follow from the previous turn's move"
                )
            if not history.has_move(turn):
                previous_after = None
                continue
            requested, taken, capture = history.move_result(turn)
            try:
                expected = capture_square(before, requested)
            except FogsearchError as exc:
                raise ReplayError(f"{where}: request {requested}: {exc}") from None
            if expected != (taken, capture):
                raise ReplayError(
                    f"{where}: request {requested} on the true board makes "
                    f"{expected[0] or 'a pass'}, the history says {taken or 'a pass'}"
                )
            after = history.truth_fen_after_move(turn)
            moved = board.copy(stack=False)
            moved.push(taken or chess.Move.null())
            if moved.board_fen() != chess.Board(after).board_fen():
                raise ReplayError(f"{where}: the board after the move is not the move's result")
            previous_after = chess.Board(after).board_fen()
    except ReplayError:
        raise
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
        first = (str(exc).splitlines() or [type(exc).__name__])[0]
        raise ReplayError(f"{name}: a damaged GameHistory ({first})") from None
