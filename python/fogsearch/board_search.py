"""Per-board values for Reconnaissance Blind Chess: each request's value on each board of a set
(:func:`mean_reply_values`, :func:`board_values`, :func:`board_table`, :class:`EngineJudge`) and
what a sense is worth to them (:func:`sense_values`, :func:`decision_sense_values`), where
:mod:`fogsearch.search` values the set as a whole. Every name here is also importable from
:mod:`fogsearch.search`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import chess
import numpy as np

from fogsearch._core import search as _native
from fogsearch._core.rbc import BoardSet as _NativeBoardSet
from fogsearch._python_chess import fen_of, move_of, ucis_of
from fogsearch.arguments import cores
from fogsearch.limits import checked

__all__ = [
    "BoardTable",
    "EngineJudge",
    "board_table",
    "board_values",
    "decision_sense_values",
    "mean_reply_values",
    "sense_values",
]

MATE: int = _native.MATE
MAX_BOARD_PLIES: int = _native.MAX_BOARD_PLIES


def _boards(board_set: object) -> _NativeBoardSet | list[str]:
    """What the core searches: a board set's native set as it is (no FEN round trip), else the
    FENs of the boards given."""
    native = getattr(board_set, "_inner", board_set)
    if isinstance(native, _NativeBoardSet):
        return native
    if isinstance(board_set, str | chess.Board):
        return [fen_of(board_set)]
    if not isinstance(board_set, Iterable):
        raise TypeError(
            "board_set must be a fogsearch.rbc.BoardSet or an iterable of FEN strings /"
            f" chess.Board, got {type(board_set).__name__}"
        )
    fens = []
    for index, board in enumerate(board_set):
        if not isinstance(board, str | chess.Board):
            raise TypeError(
                f"board {index} of the set must be a FEN string or chess.Board,"
                f" got {type(board).__name__}"
            )
        fens.append(fen_of(board))
    return fens


def mean_reply_values(
    board_set: object,
    requests: Iterable[chess.Move | None] | None = None,
    leaf: str = "static",
    mate_threats: bool = False,
) -> dict[str, float]:
    """Per request (default: every root request of :func:`search`, pass as ``"0000"``), the mean
    over the set's boards of what the opponent's best reply leaves it: ``MATE`` where the request
    takes their king, ``-MATE`` where a reply then takes ours, otherwise the evaluation after the
    worst reply (centipawns, our point of view), scored by ``leaf`` as in :class:`SearchConfig`.

    The search scores a set by its worst board, so when some board loses whatever we do, or one
    board fixes every value, many requests tie; this mean breaks such ties, first by how few boards
    lose our king.

    With ``mate_threats`` each board also looks one move further: where some reply leaves our king
    attacked and no move of ours saves it (a mate, with the board known to both sides), the board
    scores ``-MATE / 2``. When every request loses our king on some board, this mean alone chooses
    the move, and without it the king walks into mates that one reply does not show.

    Raises :class:`SearchError` for a set :func:`search` refuses, or for a request that is no move
    action of any board in the set; :class:`TypeError` for a non-bool ``mate_threats``. The GIL
    is released while it runs."""
    if not isinstance(mate_threats, bool):
        raise TypeError(f"mate_threats must be a bool, got {mate_threats!r}")
    return dict(
        _native.mean_reply_values(
            _boards(board_set), ucis_of(requests, "requests"), leaf, mate_threats
        )
    )


def sense_values(
    board_set: object,
    requests: Iterable[chess.Move | None] | None = None,
    leaf: str = "static",
) -> tuple[float, dict[chess.Square, float]]:
    """What a sense is worth to the next move: the best mean one-reply outcome of
    :func:`mean_reply_values` over ``requests`` (default: every root request) without a sense,
    and, per sense square b2..g7, its expected value once the sense's result is known (the best
    request in each cell the sense could leave, weighted by the cell's share of the boards).

    A value never falls below the unsensed one; the gap is the sense's value of information. With
    king captures at ``±MATE`` it is largest where a sense tells the boards that threaten our king
    from those that do not. ``leaf`` scores the board after the reply as in
    :func:`mean_reply_values`. Raises :class:`SearchError` as :func:`mean_reply_values` does, and
    for an empty ``requests``. The GIL is released while it runs."""
    unsensed, by_square = _native.sense_values(
        _boards(board_set), ucis_of(requests, "requests"), leaf
    )
    return unsensed, dict(by_square)


def board_values(
    board_set: object,
    requests: Iterable[chess.Move | None] | None = None,
    plies: int = 4,
    time_limit: float | None = None,
) -> dict[str, list[int]] | None:
    """Per request (default: every root request, pass as ``"0000"``), its value on each of the
    set's boards, in the set's order, if both sides then saw the board: ``plies`` further plies
    of perfect-information alpha-beta after the request (RBC rules: a pass is a move, taking the
    king wins), captures resolved at the leaves. ``None`` when ``time_limit`` seconds ran out
    first.

    The information-set search is exact about what we do not know but shallow; on a small set a
    per-board search sees deeper tactics. The work grows with boards x requests x the branching
    factor to the power ``plies``: keep sets small. Raises :class:`SearchError` as
    :func:`mean_reply_values` does, for ``plies`` outside 0..``MAX_BOARD_PLIES`` or a bad
    ``time_limit``. The GIL is released while it runs; Ctrl-C stops it."""
    _check_plies("plies", plies)
    if isinstance(time_limit, bool):
        raise ValueError(f"time_limit must be a number of seconds or None, got {time_limit!r}")
    raw = _native.board_values(_boards(board_set), ucis_of(requests, "requests"), plies, time_limit)
    return None if raw is None else dict(raw)


@dataclass(frozen=True)
class BoardTable:
    """Each request's perfect-information value on each board (:func:`board_table`).

    requests: the requests, a pass as ``None``. values: ``(requests, boards)`` int32 centipawns,
    our point of view (``MATE - ply`` where the request leads to taking their king within the
    search, ``-(MATE - ply)`` where ours is taken). plies: per board (int32), how many plies
    after the request it was searched (every request of a board alike); -1 where the deadline
    came before its capture search finished (with ``least_plies=None``), the values then being the
    static evaluation after each request. nodes: nodes visited."""

    requests: list[chess.Move | None]
    values: np.ndarray
    plies: np.ndarray
    nodes: int


def _check_plies(name: str, plies: object) -> None:
    """The type only (an int the native u32 holds); the core refuses more than MAX_BOARD_PLIES
    with a SearchError (a ValueError) naming the plies."""
    if isinstance(plies, bool) or not isinstance(plies, int) or not 0 <= plies < 2**32:
        raise ValueError(f"{name} must be a non-negative integer, got {plies!r}")


def _threads(threads: int | None) -> int:
    """The type only (an int the native usize holds); the core's pool refuses 0 and more than
    MAX_THREADS with a ValueError naming the bound."""
    if threads is None:
        return cores()
    if isinstance(threads, bool) or not isinstance(threads, int) or not 0 <= threads < 2**32:
        raise ValueError(
            f"threads must be a non-negative integer (or None: every core), got {threads!r}"
        )
    return threads


def board_table(
    board_set: object,
    requests: Iterable[chess.Move | None] | None = None,
    most_plies: int = 4,
    least_plies: int | None = 0,
    threads: int | None = None,
    time_limit: float | None = None,
) -> BoardTable:
    """Each request's value (default: every root request) on each board of the set if both sides
    then saw the board: perfect-information alpha-beta (transposition table, killer and history
    ordering, a capture search at the leaves that answers checks), deepened one ply at a time over
    all boards together. Plies up to ``least_plies`` are always searched; deeper ones while
    ``time_limit`` seconds allow, up to ``most_plies`` (at most :data:`MAX_BOARD_PLIES`), each
    board keeping the deepest ply it completed. ``least_plies=None``: nothing is certain, so the
    time limit bounds the whole call (a busy board's capture search alone can take a million
    nodes); boards it cut before their capture search finished keep the static evaluation after
    each request (plies -1). Values do not depend on ``threads`` (default: every core). The GIL
    is released; Ctrl-C stops it. Raises :class:`SearchError` as :func:`board_values` does."""
    checked = [("most_plies", most_plies)]
    if least_plies is not None:
        checked.append(("least_plies", least_plies))
    for name, plies in checked:
        _check_plies(name, plies)
    if isinstance(time_limit, bool):
        raise ValueError(f"time_limit must be a number of seconds or None, got {time_limit!r}")
    ucis, values, plies_done, nodes = _native.board_table(
        _boards(board_set),
        ucis_of(requests, "requests"),
        least_plies,
        most_plies,
        _threads(threads),
        time_limit,
    )
    return BoardTable([move_of(u) for u in ucis], values, plies_done, nodes)


class EngineJudge:
    """Each request's value on each board as a UCI chess engine scores the position it leads to
    (the opponent to move), as strong RBC bots judge boards: the alternative to
    :func:`board_table`'s own alpha-beta. ``engine``: a name on ``PATH`` (or in ``/usr/games``,
    where Debian's ``stockfish`` lives) or a path; each position searched to ``depth`` (1 to 40)
    and at most ``nodes`` nodes (0: no budget, at most 10**8). The rules come first: a request
    that takes their king scores ``MATE - 1``, one that leaves ours en prise ``-(MATE - 2)``;
    the engine's mates become king captures at their ply. The engines (one per thread) and a
    cache of scores by position are kept for the judge's life, so a game pays their start once.
    Raises ``ValueError`` for a bad limit or engine name, :class:`SearchError` for an engine
    that is missing or fails."""

    def __init__(self, engine: str = "stockfish", depth: int = 8, nodes: int = 0):
        checked("depth", depth, "uci_depth", 1)
        checked("nodes", nodes, "uci_nodes", 0)
        if not isinstance(engine, str) or not engine:
            raise ValueError(f"engine must be an engine's name or path, got {engine!r}")
        self._native = _native.EngineJudge(engine, depth, nodes)

    def table(
        self,
        board_set: object,
        requests: Iterable[chess.Move | None] | None = None,
        threads: int | None = None,
        time_limit: float | None = None,
    ) -> BoardTable:
        """The :class:`BoardTable` of the set (default requests: every root request), with
        ``threads`` engines at once (default: every core), boards judged in the set's order.
        ``plies`` is 1 for a board whose every request was judged (a position the engine died
        on keeps the static evaluation; four deaths in a call raise :class:`SearchError`), -1
        for one the deadline cut (its unjudged requests keep the static evaluation); ``nodes``
        counts the positions the engine searched (cached ones excluded). The GIL is released;
        Ctrl-C stops it."""
        if isinstance(time_limit, bool):
            raise ValueError(f"time_limit must be a number of seconds or None, got {time_limit!r}")
        ucis, values, plies_done, searched = self._native.table(
            _boards(board_set), ucis_of(requests, "requests"), _threads(threads), time_limit
        )
        return BoardTable([move_of(u) for u in ucis], values, plies_done, searched)


def decision_sense_values(
    board_set: object,
    utilities: np.ndarray,
    weights: np.ndarray | None = None,
    mean_weight: float = 1.0,
) -> tuple[float, dict[chess.Square, float]]:
    """What each sense is worth to a move chosen by a compound score: request ``r`` scores
    ``mean_weight`` x the ``weights``-weighted mean of ``utilities[r]`` over a set's boards plus
    ``1 - mean_weight`` x its minimum, and the best-scored request is played. Returns the best
    score without a sense and, per sense square b2..g7, the expected best score once the sense's
    result is known (each result weighted by its boards' weight); never below the unsensed one.
    ``utilities``: ``(requests, boards)`` finite floats, boards in the set's order; ``weights``:
    one per board (default: equal). The GIL is released."""
    utilities = np.ascontiguousarray(utilities, dtype=np.float64)
    if utilities.ndim != 2:
        raise ValueError(f"utilities must be 2-d (requests, boards), got shape {utilities.shape}")
    native = _boards(board_set)
    count = len(native)
    weights = np.ones(count) if weights is None else np.ascontiguousarray(weights, dtype=np.float64)
    if isinstance(mean_weight, bool) or not isinstance(mean_weight, int | float):
        raise ValueError(f"mean_weight must be a number in [0, 1], got {mean_weight!r}")
    unsensed, by_square = _native.decision_sense_values(
        native, utilities, weights, float(mean_weight)
    )
    return unsensed, dict(by_square)
