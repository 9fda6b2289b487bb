"""Type stubs for the native module ``fogsearch._core``.

Each section belongs to one core module; the user-facing API lives in the Python submodules.
"""

import numpy as np
import numpy.typing as npt

__version__: str

class FogsearchError(ValueError):
    """Base class of fogsearch's errors."""

# ---- rbc ---------------------------------------------------------------------------------------

# ---- end rbc -----------------------------------------------------------------------------------

# ---- sketch ------------------------------------------------------------------------------------

# ---- end sketch --------------------------------------------------------------------------------

# ---- search ------------------------------------------------------------------------------------

class SearchError(FogsearchError):
    """A search could not run: a bad configuration or an unsearchable board set."""

def search_information_set(
    fens: list[str],
    depth: int,
    mode: str,
    threshold: float,
    k: int,
    sketch_width: int,
    sketch_depth: int,
    table_size: int,
    sense_mode: str,
    threads: int,
    time_limit: float | None,
    seed: int,
) -> dict[str, object]:
    """Searches the information set ``fens`` (all ours to move) ``depth`` of our moves deep, with
    the GIL released. Returns ``best_move`` (UCI, or None for a pass), ``value`` (centipawns),
    ``move_values`` (list of (UCI or ``"0000"`` for the pass, centipawns)), ``depth`` (deepest
    completed) and ``stats`` (nodes, leaf_evaluations, bounds_used, bound_cutoffs, table_hits,
    elapsed_seconds). Use :func:`fogsearch.search.search` instead.

    Raises:
        SearchError: bad mode/sense mode/parameters, empty set, mixed sides to move, missing king.
        ValueError: an unparsable FEN (the message names the board's index).
    """

def evaluate_fen(fen: str) -> int:
    """The leaf evaluation (material + piece-square tables) of one board, from the side to move's
    point of view, in centipawns."""

def piece_square_tables() -> tuple[list[int], list[list[int]]]:
    """``(piece_values, tables)``: material by piece type (pawn .. king) and, per piece type, the 64
    placement bonuses of a White piece (a1 = 0); Black's are mirrored (``square ^ 56``)."""

# ---- end search --------------------------------------------------------------------------------

# ---- ttcg --------------------------------------------------------------------------------------

# ---- end ttcg ----------------------------------------------------------------------------------
