"""Information-set alpha-beta search for Reconnaissance Blind Chess.

A node is an information set: the boards consistent with what we know, ours to move. Its value is
the worst case over its boards (centipawns, from our point of view). Depth counts our moves. The
search can reuse values with an exact transposition table (``mode="exact"``), with the CountSketch
and MinHash bounds of Bernardoni (2019) (``mode="sketch"``), or both (``"exact+sketch"``).

>>> from fogsearch.search import SearchConfig, search
>>> result = search(["4k3/8/8/8/8/8/8/3KR3 w - - 0 1"], depth=1)
>>> result.best_move.uci(), result.value
('e1e8', 99999)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass

import chess

from fogsearch import _core

__all__ = [
    "MATE",
    "MAX_BOARD_PLIES",
    "SearchConfig",
    "SearchError",
    "SearchResult",
    "SearchStats",
    "board_values",
    "mean_reply_values",
    "search",
    "sense_values",
]

SearchError = _core.SearchError

#: Capturing the opponent's king scores ``MATE - ply``; losing ours ``-MATE + ply``.
MATE = 100_000

_MODES = ("none", "exact", "sketch", "exact+sketch")
_SENSE_MODES = ("search", "min_size")
_LEAVES = ("static", "exchange", "king_safety")
MAX_BOARD_PLIES = 8
"""The deepest :func:`board_values` search: deeper ones take minutes per board."""


@dataclass(frozen=True)
class SearchConfig:
    """How to search.

    mode: ``"none"`` (the paper's baseline), ``"exact"`` (transposition table keyed by set id),
        ``"sketch"`` (CountSketch/MinHash bounds) or ``"exact+sketch"``.
    threshold: minimum probability that a cached set bounds the current one before its value is
        used as a bound (sketch modes), in (0, 1]. The default 1.0 uses only containments the
        signatures prove (a sampled Jaccard index counts at its 95 % lower confidence bound):
        on recorded mid-game sets at depth 2, 0.95 and 0.9 moved root values by up to 300-670 cp.
    k: MinHash (bottom-k) signature size.
    sketch_width, sketch_depth: CountSketch shape counting how often each set is searched or used.
    table_size: how many of the most frequent sets are kept with their values.
    sense_mode: ``"search"`` (max over every distinct sense) or ``"min_size"`` (only the sense that
        minimises the expected set size; much cheaper).
    leaf: how a board is scored after the opponent's last reply: ``"static"`` (material plus
        piece-square tables, the paper's leaf) or ``"exchange"`` (plus what we win back by
        recapturing on the square where that reply captured, by static exchange: RBC tells us
        that square, and without it a reply that takes a defended piece counts as winning it).
        Never lower than ``"static"``; a few times slower per leaf. ``"king_safety"``: the
        static evaluation plus how much more exposed their king stands than ours on the board
        before that reply (enemy knights, bishops, rooks and queens aimed at the squares around
        the king, scaled by how many take part, and missing pawns in front of a king at home).
    threads: root moves searched in parallel. Values in modes none/exact do not depend on it; in
        sketch modes each root move then has its own sketch, so values may differ from 1 thread.
    time_limit: seconds; iterative deepening then returns the deepest completed depth (depth 1
        always completes). ``None``: search exactly ``depth``.
    seed: seeds the sketches' hash functions.
    """

    mode: str = "none"
    threshold: float = 1.0
    k: int = 64
    sketch_width: int = 1024
    sketch_depth: int = 5
    table_size: int = 64
    sense_mode: str = "search"
    leaf: str = "static"
    threads: int = 1
    time_limit: float | None = None
    seed: int = 0

    def __post_init__(self) -> None:
        if self.mode not in _MODES:
            raise ValueError(f"mode must be one of {_MODES}, got {self.mode!r}")
        if self.sense_mode not in _SENSE_MODES:
            raise ValueError(f"sense_mode must be one of {_SENSE_MODES}, got {self.sense_mode!r}")
        _check_leaf(self.leaf)
        if not isinstance(self.threshold, (int, float)) or not 0.0 < self.threshold <= 1.0:
            raise ValueError(f"threshold must be in (0, 1], got {self.threshold!r}")
        for name in ("k", "sketch_width", "sketch_depth", "table_size", "threads"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
        _check_time_limit(self.time_limit)
        if (
            isinstance(self.seed, bool)
            or not isinstance(self.seed, int)
            or not 0 <= self.seed < 2**64
        ):
            raise ValueError(f"seed must be an integer in [0, 2**64), got {self.seed!r}")


@dataclass(frozen=True)
class SearchStats:
    nodes: int
    leaf_evaluations: int
    bounds_used: int
    bound_cutoffs: int
    table_hits: int
    reply_table_hits: int
    elapsed_seconds: float

    def as_dict(self) -> dict[str, float]:
        return asdict(self)


@dataclass(frozen=True)
class SearchResult:
    """best_move: ``None`` is a pass. move_values: UCI -> centipawns for every root request, the
    pass as ``"0000"``. depth: the deepest completed depth."""

    best_move: chess.Move | None
    value: int
    move_values: dict[str, int]
    depth: int
    stats: SearchStats


def _fens_of(board_set: object) -> list[str]:
    if isinstance(board_set, (str, chess.Board)):
        board_set = [board_set]
    fens_method = getattr(board_set, "fens", None)
    if callable(fens_method):
        return [str(f) for f in fens_method()]
    if not isinstance(board_set, Iterable):
        raise TypeError(
            "board_set must be a fogsearch.rbc.BoardSet or an iterable of FEN strings /"
            f" chess.Board, got {type(board_set).__name__}"
        )
    fens = []
    for index, board in enumerate(board_set):
        if isinstance(board, chess.Board):
            fens.append(board.fen(en_passant="fen"))
        elif isinstance(board, str):
            fens.append(board)
        else:
            raise TypeError(
                f"board {index} of the set must be a FEN string or chess.Board,"
                f" got {type(board).__name__}"
            )
    return fens


def search(board_set: object, depth: int, config: SearchConfig | None = None) -> SearchResult:
    """Searches ``board_set`` (a ``fogsearch.rbc.BoardSet``, or FEN strings / ``chess.Board``s, all
    with our side to move) ``depth`` of our moves deep. The GIL is released while it searches."""
    config = SearchConfig() if config is None else config
    if not isinstance(config, SearchConfig):
        raise TypeError(f"config must be a SearchConfig, got {type(config).__name__}")
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ValueError(f"depth must be an integer >= 1, got {depth!r}")
    raw = _core.search_information_set(
        _fens_of(board_set),
        depth,
        config.mode,
        float(config.threshold),
        config.k,
        config.sketch_width,
        config.sketch_depth,
        config.table_size,
        config.sense_mode,
        config.leaf,
        config.threads,
        None if config.time_limit is None else float(config.time_limit),
        config.seed,
    )
    best = raw["best_move"]
    return SearchResult(
        best_move=None if best is None else chess.Move.from_uci(best),
        value=raw["value"],
        move_values=dict(raw["move_values"]),
        depth=raw["depth"],
        stats=SearchStats(**raw["stats"]),
    )


def _check_time_limit(time_limit: object) -> None:
    if time_limit is not None and (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, (int, float))
        or not math.isfinite(time_limit)
        or time_limit <= 0
    ):
        raise ValueError(
            f"time_limit must be a positive number of seconds or None, got {time_limit!r}"
        )


def _check_leaf(leaf: object) -> None:
    if leaf not in _LEAVES:
        raise ValueError(f"leaf must be one of {_LEAVES}, got {leaf!r}")


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
    from fogsearch.rbc import _uci  # rbc imports this module at its end

    _check_leaf(leaf)
    if not isinstance(mate_threats, bool):
        raise TypeError(f"mate_threats must be a bool, got {mate_threats!r}")
    ucis = None if requests is None else [_uci(request, "requests") for request in requests]
    return dict(_core.mean_reply_values(_fens_of(board_set), ucis, leaf, mate_threats))


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
    from fogsearch.rbc import _uci

    _check_leaf(leaf)
    ucis = None if requests is None else [_uci(request, "requests") for request in requests]
    unsensed, by_square = _core.sense_values(_fens_of(board_set), ucis, leaf)
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
    :func:`mean_reply_values` does; ``ValueError`` for ``plies`` outside 0..``MAX_BOARD_PLIES``
    or a bad ``time_limit``. The GIL is released while it runs."""
    from fogsearch.rbc import _uci

    if isinstance(plies, bool) or not isinstance(plies, int) or not 0 <= plies <= MAX_BOARD_PLIES:
        raise ValueError(f"plies must be an integer in 0..{MAX_BOARD_PLIES}, got {plies!r}")
    _check_time_limit(time_limit)
    ucis = None if requests is None else [_uci(request, "requests") for request in requests]
    fens = _fens_of(board_set)
    raw = _core.board_values(fens, ucis, plies, None if time_limit is None else float(time_limit))
    return None if raw is None else dict(raw)
