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

from collections.abc import Iterable
from dataclasses import asdict, dataclass

import chess
import numpy as np

from fogsearch._core import search as _native
from fogsearch._core.rbc import BoardSet as _NativeBoardSet
from fogsearch._python_chess import fen_of, move_of, ucis_of
from fogsearch.arguments import cores

__all__ = [
    "MATE",
    "MAX_BOARD_PLIES",
    "MAX_DEPTH",
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
MAX_DEPTH: int = _native.MAX_DEPTH
"""The deepest :func:`search`: deeper ones never finish."""
MAX_BOARD_PLIES: int = _native.MAX_BOARD_PLIES
"""The deepest :func:`board_values` search: deeper ones take minutes per board."""

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
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
        raise ValueError(f"depth must be an integer in 1..{MAX_DEPTH}, got {depth!r}")


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
    if isinstance(plies, bool) or not isinstance(plies, int) or not 0 <= plies <= MAX_BOARD_PLIES:
        raise ValueError(f"plies must be an integer in 0..{MAX_BOARD_PLIES}, got {plies!r}")
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


def _threads(threads: int | None) -> int:
    if threads is None:
        return cores()
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 256:
        raise ValueError(
            f"threads must be an integer in 1..256 (or None: every core), got {threads!r}"
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
        if (
            isinstance(plies, bool)
            or not isinstance(plies, int)
            or not 0 <= plies <= MAX_BOARD_PLIES
        ):
            raise ValueError(f"{name} must be an integer in 0..{MAX_BOARD_PLIES}, got {plies!r}")
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
        for name, value, most in (("depth", depth, 40), ("nodes", nodes, 10**8)):
            least = 1 if name == "depth" else 0
            if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
                raise ValueError(f"{name} must be an integer in {least}..{most}, got {value!r}")
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
