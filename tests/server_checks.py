"""Checks shared by the RBC server's tests: a stored game's history replayed with reconchess's own
rules, and a started ``fogsearch serve`` read for the address it listens on."""

from __future__ import annotations

import queue
import re
import subprocess
import threading

import chess
from reconchess import GameHistory, WinReason
from reconchess.utilities import add_pawn_queen_promotion, capture_square_of_move, revise_move


def replay_history(history: GameHistory, white: str, black: str) -> chess.Board:
    """Replays every turn from the starting board with reconchess's referee functions and checks
    each recorded sense result, taken move, capture square and board against it; returns the
    final true board. A history the server made up or mangled fails here."""
    assert history.get_white_player_name() == white
    assert history.get_black_player_name() == black
    assert not history.is_empty()
    board = chess.Board()
    turns = list(history.turns())
    for i, turn in enumerate(turns):
        assert history.truth_fen_before_move(turn) == board.fen(en_passant="fen")
        if history.has_sense(turn) and history.sense(turn) is not None:
            square = history.sense(turn)
            expected = [
                (s, board.piece_at(s))
                for s in chess.SQUARES
                if abs(chess.square_rank(s) - chess.square_rank(square)) <= 1
                and abs(chess.square_file(s) - chess.square_file(square)) <= 1
            ]
            got = sorted((tuple(r) for r in history.sense_result(turn)), key=lambda r: r[0])
            assert got == expected
        if not history.has_move(turn):
            assert i == len(turns) - 1, "only the last turn may end before its move"
            break
        requested = history.requested_move(turn)
        taken = (
            None
            if requested is None
            else revise_move(board, add_pawn_queen_promotion(board, requested))
        )
        assert history.taken_move(turn) == taken
        assert history.capture_square(turn) == capture_square_of_move(board, taken)
        board.push(taken if taken is not None else chess.Move.null())
        assert history.truth_fen_after_move(turn) == board.fen(en_passant="fen")
    if history.get_win_reason() == WinReason.KING_CAPTURE:
        assert board.king(not history.get_winner_color()) is None
        assert board.king(history.get_winner_color()) is not None
    return board


def listening_url(proc: subprocess.Popen, timeout: float = 60.0) -> str:
    """The URL ``fogsearch serve`` prints on its first line (it may listen on a free port)."""
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: lines.put(proc.stdout.readline()), daemon=True).start()
    try:
        line = lines.get(timeout=timeout)
    except queue.Empty:
        raise AssertionError(f"fogsearch serve printed nothing in {timeout} s") from None
    found = re.search(r"listening on (http://\S+)", line)
    assert found, f"unexpected first line from fogsearch serve: {line!r}"
    return found.group(1)
