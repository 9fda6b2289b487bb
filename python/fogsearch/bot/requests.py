"""Which request to play, given the search's values: pure functions of the values, the set and
what the bot played before.

The search scores a set by its worst board, so many requests tie; ties go to the best mean
one-reply outcome over the boards (:func:`fogsearch.search.mean_reply_values`), a takeback is
avoided while another request ties, and near reconchess's 100-half-move draw a request that resets
the clock is preferred.
"""

from __future__ import annotations

from collections.abc import Callable

import chess

from fogsearch.rbc import BoardSet, revise_move
from fogsearch.search import KING_LOST_IN_SEARCH, MATE, MATERIAL_POINTS

LOST = -KING_LOST_IN_SEARCH
"""Values at or below this lose our king on some board whatever we do (the core's
``KING_LOST_IN_SEARCH``, which says why it is not ``-MATE_BOUND``)."""

MeansOf = Callable[[list[chess.Move | None]], dict[str, float]]
"""Per candidate request, its mean outcome over the boards (UCI keys, ``"0000"`` for a pass)."""

MATERIAL_CP = {kind: MATERIAL_POINTS[kind - 1] for kind in chess.PIECE_TYPES if kind != chess.KING}
"""The conventional material count (the core's ``MATERIAL_POINTS``, as the opponent model counts
captures), not the evaluation's tuned piece values."""


def uci(move: chess.Move | None) -> str:
    return "0000" if move is None else move.uci()


def request(uci_text: str) -> chess.Move | None:
    return None if uci_text == "0000" else chess.Move.from_uci(uci_text)


def undoes(move: chess.Move | None, previous: chess.Move | None) -> bool:
    """Whether ``move`` takes ``previous`` back (the same piece straight back to where it was)."""
    return (
        move is not None
        and previous is not None
        and move.from_square == previous.to_square
        and move.to_square == previous.from_square
    )


def tied_requests(move_values: dict[str, int], margin_cp: float) -> list[chess.Move | None]:
    """The requests that tie with the best one, in the search's order: within ``margin_cp`` of
    it, every request when the best one still loses, only the best value when it wins."""
    best = max(move_values.values())
    if best <= LOST:
        floor = -MATE - 1
    elif best >= -LOST:
        floor = best
    else:
        floor = best - margin_cp
    return [request(text) for text, value in move_values.items() if value >= floor]


def opening_candidates(
    move_values: dict[str, int],
    margin_cp: float,
    worst_values: dict[str, int] | None = None,
    safety_cp: float | None = None,
) -> list[chess.Move | None]:
    """The requests an opening line may play: within ``margin_cp`` of the best one, not losing,
    and :func:`safe_requests`."""
    if max(move_values.values()) <= LOST:
        return []
    safe = set(safe_requests(move_values, worst_values, safety_cp))
    return [m for m in tied_requests(move_values, margin_cp) if m in safe]


def safe_requests(
    move_values: dict[str, int], worst_values: dict[str, int] | None, safety_cp: float | None
) -> list[chess.Move | None]:
    """The requests whose worst value over the boards (``worst_values``) is within ``safety_cp``
    of the best worst value, in the search's order (every request without ``worst_values`` or
    ``safety_cp``)."""
    if not worst_values or safety_cp is None:
        return [request(text) for text in move_values]
    floor = max(worst_values.values()) - safety_cp
    return [request(text) for text in move_values if worst_values.get(text, floor) >= floor]


def best_mean(candidates: list[chess.Move | None], means_of: MeansOf) -> chess.Move | None:
    """The candidate with the best mean from ``means_of``; the first listed on equal means."""
    means = means_of(candidates)
    return max(candidates, key=lambda m: means[uci(m)])


def choose_request(
    move_values: dict[str, int],
    previous: chess.Move | None,
    margin_cp: int,
    means_of: MeansOf,
) -> chess.Move | None:
    """Among the :func:`tied_requests`, leaving out one that takes back ``previous`` while another
    ties, the request with the best mean from ``means_of``; the first in search order on equal
    means."""
    candidates = tied_requests(move_values, margin_cp)
    candidates = [m for m in candidates if not undoes(m, previous)] or candidates
    if len(candidates) == 1:
        return candidates[0]
    return best_mean(candidates, means_of)


def progress_requests(
    board_set: BoardSet, move_values: dict[str, int], margin_cp: float
) -> list[chess.Move]:
    """Among the requests within ``margin_cp`` of the best value (every one when the best still
    loses), those that reset the half-move clock on the most boards of the set, if that is more
    than half of them: a pawn move or a capture as reconchess revises the request on a board. A
    blocked push or a pawn capture onto an empty square is a pass there; a slide stopped short
    by an opponent's piece captures it."""
    boards = [(fen, chess.Board(fen)) for fen in board_set.fens()]
    resetting: dict[chess.Move, int] = {}
    for move in tied_requests(move_values, margin_cp):
        if move is not None:
            count = sum(_resets_clock(fen, board, move) for fen, board in boards)
            if 2 * count > len(boards):
                resetting[move] = count
    most = max(resetting.values(), default=0)
    return [move for move, count in resetting.items() if count == most]


def _resets_clock(fen: str, board: chess.Board, move: chess.Move) -> bool:
    taken = revise_move(fen, move)
    return taken is not None and (
        board.piece_type_at(taken.from_square) == chess.PAWN or board.is_capture(taken)
    )


def own_pawns(board_set: BoardSet) -> frozenset[chess.Square]:
    """The squares of our pawns (our pieces are the same on every board of a set, which is never
    empty)."""
    board = chess.Board(board_set.fen(0))
    return frozenset(board.pieces(chess.PAWN, board.turn))


def material_lead(board: chess.Board) -> int:
    """Our material minus the opponent's in centipawns, for the side to move."""
    return sum(
        value * (len(board.pieces(kind, board.turn)) - len(board.pieces(kind, not board.turn)))
        for kind, value in MATERIAL_CP.items()
    )


def progress_margin(boards: BoardSet, quiet: int, rule) -> float:
    """How far below the best request a clock-resetting one may be valued (``rule``: the bot's
    :class:`~fogsearch.bot.config.ProgressRule`): unbounded once the draw is near and we are not
    behind on any board (a draw is welcome only from behind)."""
    if rule.progress_force_halfmoves and quiet >= rule.progress_force_halfmoves:
        if min(material_lead(board) for board in boards.to_boards()) >= 0:
            return float("inf")
    return rule.progress_margin_cp
