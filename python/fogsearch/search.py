"""Information-set alpha-beta search for Reconnaissance Blind Chess.

A node is an information set: the boards consistent with what we know, ours to move. Its value is
the worst case over its boards (centipawns, from our point of view). Depth counts our moves. The
search can reuse values with an exact transposition table (``mode="exact"``), with the CountSketch
and MinHash bounds of Bernardoni (2019) (``mode="sketch"``), or both (``"exact+sketch"``).

What is the paper's and what is ours. The paper's: the information-set search with the worst case
over boards and the full sense search (``sense_mode="search"``); the CountSketch / MinHash bounds
with the point-estimate rule (``bound_rule="point"``, with the erratum's corrected intersection
formula); a chess-engine leaf (``leaf="uci"``). Ours: the Wilson bound rule (the default, which
uses only proven containments at threshold 1), using a set's own sketch entry exactly, the exact
tables, tables kept across searches (:class:`Searcher`), parallel root splitting with shared
tables, iterative deepening under a time limit, alpha-beta at the root (``root_margin``), the
``min_size`` sense, the static, exchange and
king-safety leaves, and the per-board values (:func:`mean_reply_values`, :func:`sense_values`,
:func:`board_values`).

>>> from fogsearch.search import SearchConfig, search
>>> result = search(["4k3/8/8/8/8/8/8/3KR3 w - - 0 1"], depth=1)
>>> result.best_move.uci(), result.value
('e1e8', 99999)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import chess

from fogsearch._core import search as _native
from fogsearch._python_chess import move_of
from fogsearch.board_search import (
    BoardTable,
    EngineJudge,
    _boards,
    board_table,
    board_values,
    decision_sense_values,
    mean_reply_values,
    sense_values,
)

__all__ = [
    "MATE",
    "MATE_BOUND",
    "MATED",
    "KING_LOST_IN_SEARCH",
    "MAX_BOARD_PLIES",
    "MAX_DEPTH",
    "MATERIAL_POINTS",
    "PIECE_VALUES",
    "SearchConfig",
    "SearchError",
    "RequestCompletion",
    "SearchResult",
    "SearchStats",
    "Searcher",
    "BoardTable",
    "EngineJudge",
    "board_table",
    "board_values",
    "decision_sense_values",
    "mean_reply_values",
    "search",
    "sense_values",
]

SearchError = _native.SearchError

MATE: int = _native.MATE
"""Capturing the opponent's king scores ``MATE - ply``; losing ours ``-MATE + ply``."""
MATE_BOUND: int = _native.MATE_BOUND
"""Values beyond this magnitude are king captures within a search (``±(MATE - ply)``)."""
MATED: int = _native.MATED
"""The one-reply outcome of a board where the opponent forces our king's capture next move
(:func:`mean_reply_values` with ``mate_threats``) is ``-MATED``: below any evaluation, above a
capture within the search."""
KING_LOST_IN_SEARCH: int = _native.KING_LOST_IN_SEARCH
"""A set-search value at or below ``-KING_LOST_IN_SEARCH`` loses our king on some board whatever
we request (the core's threshold; see its doc for why it is not ``MATE_BOUND``)."""
MAX_DEPTH: int = _native.MAX_DEPTH
"""The deepest :func:`search`: deeper ones never finish."""
MAX_BOARD_PLIES: int = _native.MAX_BOARD_PLIES
"""The deepest :func:`board_values` search: deeper ones take minutes per board."""
PIECE_VALUES: tuple[int, ...] = tuple(_native.PIECE_VALUES)
"""The evaluation's material values in centipawns, pawn .. king (tuned: a bishop above a knight)."""
MATERIAL_POINTS: tuple[int, ...] = tuple(_native.MATERIAL_POINTS)
"""The conventional material count in centipawns, pawn .. king (1 / 3 / 3 / 5 / 9 pawns, the king
not counted): the opponent model's capture weights and the bot's material lead."""

# Every default is written once, in the core (`search::SearchConfig::default`).
_DEFAULTS = _native.default_config()


@dataclass(frozen=True)
class SearchConfig:
    """How to search. Built once, checked at once (:class:`SearchError` names the setting and its
    bound), and handed to the core whole.

    mode: which tables the search keeps: ``"none"`` (the paper's baseline), ``"exact"`` (exact
        tables keyed by set id; ours, not the paper's), ``"sketch"`` (the paper's CountSketch and
        MinHash bounds) or ``"exact+sketch"``.
    threshold: minimum probability that a cached set bounds the current one before its value is
        used as a bound (sketch modes), in (0, 1]. With the default ``bound_rule`` 1.0 uses only
        containments the signatures prove; the paper used thresholds below 1 with its rule.
    bound_rule: how a sketch entry's Jaccard estimate becomes that probability: ``"wilson"``
        (ours, the default: a sampled Jaccard index counts at its 95 % lower confidence bound,
        capped by the share of sampled boards found in the other set) or ``"point"`` (the
        paper's: the point estimate of J, |X∩q| = J(|X|+|q|)/(1+J)). Either way a set met again
        uses its own entry exactly.
    k: MinHash (bottom-k) signature size, at most 4096.
    sketch_width, sketch_depth: CountSketch shape counting how often each set is searched or used
        (at most 2**24 counters).
    table_size: how many of the most frequent sets are kept with their values (the paper's queue;
        at most 65536; the default 4096 held every set looked up at depth 3 from the start).
    sketch_min_depth: the sketch bounds are looked up and recorded at every node (our move, its
        resolution's reply node, our sense) with at least this many of our moves left (1 to 32;
        ours: with one move left a subtree costs about what comparing its set with the table
        does, and the paper found depth 3 the least its algorithm could be used at).
    table_entries: capacity of the exact set table in sets (exact modes; about 64 bytes a set at
        worst, at most 2**27). Bounds the memory of a search and of a :class:`Searcher`.
    reply_entries: capacity of the exact reply tables in boards, all worker threads' together
        (exact modes: one table per thread, each ``reply_entries / threads``; and the ``uci``
        leaf's shared cache of engine scores; about 32 bytes a board at worst, at most 2**28).
    sense_mode: ``"search"`` (max over every distinct sense; the paper's), ``"finest"`` (the same
        max, pruned: a sense another refines is skipped, the cell likeliest to refute a sense is
        searched first, and a sense node is settled once one board's own value is reached; the
        same values, a fraction of the nodes; ours) or ``"min_size"`` (only the sense that
        minimises the expected set size; much cheaper, other values).
    leaf: how a board is scored after the opponent's last reply: ``"static"`` (material plus
        piece-square tables; the paper used a chess engine) or ``"exchange"`` (plus what we win
        back by recapturing on the square where that reply captured, by static exchange: RBC tells
        us that square). Never lower than ``"static"``; a few times slower per leaf.
        ``"king_safety"``: the static evaluation plus how much more exposed their king stands than
        ours on the board before that reply. ``"uci"``: the paper's kind of leaf, a UCI chess
        engine's score of the board after our last request (its search stands in for the reply),
        ``uci_depth`` plies or ``uci_nodes`` nodes per position, cached by position. These three
        are ours except ``"uci"``.
    uci_engine: the ``uci`` leaf's engine: a name on ``PATH`` (or in ``/usr/games``, where
        Debian puts Stockfish) or a path. Checked here: a missing engine is a
        :class:`SearchError` that says so.
    uci_depth: the engine's depth per leaf, 1 to 40.
    uci_nodes: the engine's node budget per leaf (0: none), at most 10**8.
    threads: worker threads, 1 to 256: root requests are split over them; the set and sketch
        tables are shared, and each thread has its own reply table. Values in modes none/exact
        do not depend on it (tested); in sketch modes which entries a worker finds depends on
        timing, so values may differ from 1 thread.
    time_limit: seconds (at most a day); iterative deepening then returns the deepest completed
        depth (depth 1 always completes). ``None``: search exactly ``depth``.
    root_margin: ``None`` (the default): every root request gets its exact value (the paper's
        anytime view). An integer ``m`` (centipawns, 0 to ``MATE``): alpha-beta at the root as
        well (ours): only the requests within ``m`` of the best get exact values; the others are
        only proven to lie further below, are listed in :attr:`SearchResult.below_margin` and
        report ``value - m - 1``. The best request, its value and every value within the margin
        are the full search's, and the result does not depend on ``threads``; the search takes
        a fraction of the time (3x fewer nodes from the start at depth 3 with ``m = 0``).
    seed: seeds the sketches' hash functions, in [0, 2**64).
    """

    mode: str = _DEFAULTS["mode"]
    threshold: float = _DEFAULTS["threshold"]
    bound_rule: str = _DEFAULTS["bound_rule"]
    k: int = _DEFAULTS["k"]
    sketch_width: int = _DEFAULTS["sketch_width"]
    sketch_depth: int = _DEFAULTS["sketch_depth"]
    table_size: int = _DEFAULTS["table_size"]
    sketch_min_depth: int = _DEFAULTS["sketch_min_depth"]
    table_entries: int = _DEFAULTS["table_entries"]
    reply_entries: int = _DEFAULTS["reply_entries"]
    sense_mode: str = _DEFAULTS["sense_mode"]
    leaf: str = _DEFAULTS["leaf"]
    uci_engine: str = _DEFAULTS["uci_engine"]
    uci_depth: int = _DEFAULTS["uci_depth"]
    uci_nodes: int = _DEFAULTS["uci_nodes"]
    threads: int = _DEFAULTS["threads"]
    time_limit: float | None = _DEFAULTS["time_limit"]
    root_margin: int | None = _DEFAULTS["root_margin"]
    seed: int = _DEFAULTS["seed"]

    def __post_init__(self) -> None:
        _native.check_config(self)


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
class RequestCompletion:
    """One root request fully evaluated at one depth: its value (an upper bound where ``exact`` is
    false: with a root margin, a null-window search proved it below the best less the margin),
    the nodes its search visited and the seconds since the search started when it finished."""

    depth: int
    request: str
    value: int
    exact: bool
    nodes: int
    seconds: float


@dataclass(frozen=True)
class SearchResult:
    """best_move: ``None`` is a pass. move_values: UCI -> centipawns for every root request, the
    pass as ``"0000"``. below_margin: with ``SearchConfig.root_margin`` ``m``, the requests proven
    to lie more than ``m`` below the best; each holds ``value - m - 1`` in ``move_values``, an upper
    bound (empty without a margin). depth: the deepest completed depth. timeline: every root request
    evaluation that finished, in the order they finished, at every depth tried (the paper's
    anytime view: how many requests a search has valued by a given time); a depth cut short by the
    time limit lists the requests it finished."""

    best_move: chess.Move | None
    value: int
    move_values: dict[str, int]
    depth: int
    stats: SearchStats
    timeline: tuple[RequestCompletion, ...] = ()
    below_margin: frozenset[str] = frozenset()


def _result(raw: dict) -> SearchResult:
    return SearchResult(
        best_move=move_of(raw["best_move"]),
        value=raw["value"],
        move_values=dict(raw["move_values"]),
        depth=raw["depth"],
        stats=SearchStats(**raw["stats"]),
        timeline=tuple(RequestCompletion(*row) for row in raw["timeline"]),
        below_margin=frozenset(raw["below_margin"]),
    )


def _check_depth(depth: object) -> None:
    """The type only (an int the native u32 holds); the core refuses 0 and depths above
    MAX_DEPTH with a SearchError (a ValueError) naming the depth."""
    if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth < 2**32:
        raise ValueError(f"depth must be a non-negative integer, got {depth!r}")


def _config(config: object) -> SearchConfig:
    config = SearchConfig() if config is None else config
    if not isinstance(config, SearchConfig):
        raise TypeError(f"config must be a SearchConfig, got {type(config).__name__}")
    return config


def search(board_set: object, depth: int, config: SearchConfig | None = None) -> SearchResult:
    """Searches ``board_set`` (a ``fogsearch.rbc.BoardSet``, or FEN strings / ``chess.Board``s, all
    with our side to move) ``depth`` of our moves deep (1 to :data:`MAX_DEPTH`), with tables that
    live for this call only (a :class:`Searcher` keeps them). The GIL is released while it
    searches; Ctrl-C stops it with ``KeyboardInterrupt``."""
    config = _config(config)
    _check_depth(depth)
    return _result(_native.search(_boards(board_set), depth, config))


class _Unset:
    def __repr__(self) -> str:
        return "the config's time_limit"


_CONFIG_LIMIT = _Unset()


class Searcher:
    """A search engine that keeps its tables from one search to the next: the exact set and reply
    tables, the CountSketch and its table of frequent sets (and, with the ``uci`` leaf, its
    engines and their cached scores). Entries are keyed by set id and remaining depth, so they
    stay valid as the game moves on; keep one Searcher per game::

        searcher = Searcher(SearchConfig(mode="exact"))
        result = searcher.search(board_set, depth=2, time_limit=3.0)  # each turn

    Memory is bounded by the config (``table_entries``, ``reply_entries``, ``table_size``,
    ``sketch_width`` x ``sketch_depth``); at the start of a search a table more than half full
    forgets what the previous search did not use. In mode ``exact`` a kept table changes only the
    speed, never a value (tested). One searcher serves one thread at a time
    (:class:`fogsearch.ConcurrentUseError` otherwise); it is not picklable."""

    def __init__(self, config: SearchConfig | None = None):
        self.config = _config(config)
        self._native = _native.Searcher(self.config)

    def search(
        self,
        board_set: object,
        depth: int,
        time_limit: float | None | _Unset = _CONFIG_LIMIT,
    ) -> SearchResult:
        """As :func:`search`, with this searcher's tables and config; ``time_limit`` (seconds,
        or ``None`` for none) replaces the config's for this search only."""
        _check_depth(depth)
        limit = self.config.time_limit if isinstance(time_limit, _Unset) else time_limit
        if isinstance(limit, bool) or not (limit is None or isinstance(limit, int | float)):
            raise ValueError(f"time_limit must be a number of seconds or None, got {limit!r}")
        return _result(self._native.search(_boards(board_set), depth, limit))

    def clear(self) -> None:
        """Empties every table (the config stays)."""
        self._native.clear()

    def table_sizes(self) -> dict[str, int]:
        """Entries held: ``{"sets", "replies", "sketch_entries"}`` (exact set table, every
        worker's reply table or the engine-score cache, sketch table)."""
        return dict(self._native.table_sizes())

    def __repr__(self) -> str:
        return f"Searcher({self.config!r}, tables={self.table_sizes()})"
