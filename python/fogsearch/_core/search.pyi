"""``fogsearch._core.search``: information-set search on the native board set (or FENs). The
configuration crosses as one object read by attribute (``fogsearch.search.SearchConfig``); the
user-facing API is :mod:`fogsearch.search`."""

from typing import Any, Protocol, final

import numpy as np
import numpy.typing as npt

from fogsearch._core import SearchError as SearchError
from fogsearch._core.rbc import BoardSet

__all__ = [
    "SearchError",
    "MAX_DEPTH",
    "MAX_BOARD_PLIES",
    "MATE",
    "MATE_BOUND",
    "MATED",
    "KING_LOST_IN_SEARCH",
    "PIECE_VALUES",
    "MATERIAL_POINTS",
    "default_config",
    "check_config",
    "search",
    "Searcher",
    "EngineJudge",
    "mean_reply_values",
    "sense_values",
    "board_values",
    "board_table",
    "decision_sense_values",
    "evaluate_fen",
    "king_danger_fen",
    "piece_square_tables",
]

MAX_DEPTH: int
MAX_BOARD_PLIES: int
MATE: int
MATE_BOUND: int
MATED: int
KING_LOST_IN_SEARCH: int
PIECE_VALUES: list[int]
MATERIAL_POINTS: list[int]

class _Config(Protocol):
    mode: str
    threshold: float
    bound_rule: str
    k: int
    sketch_width: int
    sketch_depth: int
    table_size: int
    sketch_min_depth: int
    table_entries: int
    reply_entries: int
    sense_mode: str
    leaf: str
    uci_engine: str
    uci_depth: int
    uci_nodes: int
    threads: int
    time_limit: float | None
    root_margin: int | None
    seed: int

_Boards = BoardSet | list[str]

def default_config() -> dict[str, Any]:
    """Every setting's default, by name (written once, in the core)."""

def check_config(config: _Config) -> None:
    """Raises ``SearchError`` naming the first setting out of its bounds."""

def search(boards: _Boards, depth: int, config: _Config) -> dict[str, Any]:
    """``{"best_move", "value", "move_values", "below_margin", "depth", "stats", "timeline"}`` with a fresh
    searcher; the GIL is released and Ctrl-C stops it (``KeyboardInterrupt``)."""

@final
class Searcher:
    """A search engine that keeps its tables from one search to the next."""

    def __new__(cls, config: _Config) -> Searcher: ...
    def search(
        self, boards: _Boards, depth: int, time_limit: float | None = None
    ) -> dict[str, Any]:
        """As ``search``, with the kept tables; ``time_limit`` None searches exactly ``depth``."""

    def clear(self) -> None:
        """Empties the tables."""

    def table_sizes(self) -> dict[str, int]:
        """``{"sets", "replies", "sketch_entries"}``."""

@final
class EngineJudge:
    """A UCI engine judging each request on each board; engines and cache kept between calls."""

    def __new__(cls, engine: str = "stockfish", depth: int = 8, nodes: int = 0) -> EngineJudge: ...
    def table(
        self,
        boards: _Boards,
        requests: list[str | None] | None = None,
        threads: int = 1,
        time_limit: float | None = None,
    ) -> tuple[list[str], np.ndarray, np.ndarray, int]:
        """As ``board_table``: plies 1 where every request was judged, -1 where the deadline cut;
        the count is the positions the engine searched. Ctrl-C stops it."""

def mean_reply_values(
    boards: _Boards,
    requests: list[str | None] | None = None,
    leaf: str = "static",
    mate_threats: bool = False,
) -> list[tuple[str, float]]:
    """Per request (UCI, ``"0000"`` for a pass), its mean one-reply outcome over the boards."""

def sense_values(
    boards: _Boards, requests: list[str | None] | None = None, leaf: str = "static"
) -> tuple[float, list[tuple[int, float]]]:
    """``(unsensed, [(square, value)])``: the expected best mean after each sense."""

def board_values(
    boards: _Boards,
    requests: list[str | None] | None = None,
    plies: int = 4,
    time_limit: float | None = None,
) -> list[tuple[str, list[int]]] | None:
    """Per request, its perfect-information value on each board; ``None`` when ``time_limit``
    ran out. Ctrl-C stops it."""

def board_table(
    boards: _Boards,
    requests: list[str | None] | None = None,
    least_plies: int | None = 0,
    most_plies: int = 4,
    threads: int = 1,
    time_limit: float | None = None,
) -> tuple[list[str], npt.NDArray[np.int32], npt.NDArray[np.int32], int]:
    """``(requests, values (requests, boards), plies per board (-1: static values only),
    nodes)``; Ctrl-C stops it."""

def decision_sense_values(
    boards: _Boards,
    utilities: npt.NDArray[np.float64],
    weights: npt.NDArray[np.float64],
    mean_weight: float,
) -> tuple[float, list[tuple[int, float]]]:
    """``(unsensed, [(square, value)])``: the expected best compound score after each sense."""

def evaluate_fen(fen: str) -> int:
    """The static evaluation from the side to move's point of view (centipawns)."""

def king_danger_fen(fen: str) -> tuple[int, int]:
    """``(white, black)``: each king's exposure as the ``king_safety`` leaf scores it."""

def piece_square_tables() -> tuple[list[int], list[list[int]]]:
    """``(piece values, per piece type the 64 placement bonuses of a White piece)``."""
