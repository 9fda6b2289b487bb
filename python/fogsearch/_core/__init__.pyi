"""Type stubs for the native module ``fogsearch._core``: its version and every error class; each
area's functions and classes are in its submodule's stub (``rbc.pyi``, ``search.pyi``, ...). The
user-facing API lives in the Python modules."""

from fogsearch._core import jps as jps
from fogsearch._core import rbc as rbc
from fogsearch._core import search as search
from fogsearch._core import sketch as sketch
from fogsearch._core import ttcg as ttcg
from fogsearch._core.sketch import SketchError as SketchError

__version__: str
LIMITS: dict[str, int]

def check_limit(setting: str, limit: str, least: int, value: int) -> int:
    """``value`` for ``setting`` checked against ``least..LIMITS[limit]`` (ValueError if not)."""

__all__ = [
    "__version__",
    "LIMITS",
    "check_limit",
    "FogsearchError",
    "ConcurrentUseError",
    "InvalidFenError",
    "IllegalRequestError",
    "InconsistentObservationError",
    "MalformedObservationError",
    "BoardSetTooLargeError",
    "rbc",
    "SketchError",
    "sketch",
    "SearchError",
    "search",
    "ttcg",
    "JpsError",
    "jps",
]

class FogsearchError(ValueError):
    """Base class of fogsearch's errors."""

class ConcurrentUseError(FogsearchError):
    """An object was changed from one thread while another thread was using it."""

# ---- rbc errors (also in fogsearch._core.rbc) ------------------------------------------------

class InvalidFenError(FogsearchError):
    """A FEN string could not be read."""

class IllegalRequestError(FogsearchError):
    """A requested move is not among the move actions."""

class InconsistentObservationError(FogsearchError):
    """No board in the set is consistent with the observation."""

class MalformedObservationError(FogsearchError):
    """An observation is malformed (bad square, contradictory capture flags, ...)."""

class BoardSetTooLargeError(FogsearchError):
    """An update would grow a board set past its ``max_boards`` limit."""

# ---- sketch ------------------------------------------------------------------------------------
# The sketches live in ``fogsearch._core.sketch`` (``sketch.pyi``); their ``SketchError`` is also
# imported here (at the top), beside every other exception class.

# ---- end sketch --------------------------------------------------------------------------------

# ---- search errors (fogsearch._core.search) ---------------------------------------------------

class SearchError(FogsearchError):
    """A search could not run: a bad configuration or an unsearchable board set."""

# ---- jps errors (fogsearch._core.jps) ---------------------------------------------------------

class JpsError(FogsearchError):
    """A Joint Policy Search request could not run: an unknown game name, a parameter out of its
    range, or a policy that does not belong to the game."""

# ---- ttcg --------------------------------------------------------------------------------------

# The card games are the submodule fogsearch._core.ttcg (stubs in ttcg.pyi, imported above).

# ---- end ttcg ----------------------------------------------------------------------------------
