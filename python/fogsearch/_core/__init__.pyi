"""Type stubs for the native module ``fogsearch._core``: its version and every error class; each
area's functions and classes are in its submodule's stub (``rbc.pyi``, ``search.pyi``, ...). The
user-facing API lives in the Python modules."""

from typing import Literal

import numpy as np
import numpy.typing as npt

from fogsearch._core import sketch as sketch
from fogsearch._core.sketch import SketchError as SketchError

__version__: str

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

# Oh Hell (OpenSpiel rules and action ids), observation, construction, enumeration, policies.
# ``params`` is a dict with OpenSpiel's oh_hell parameter names (as ``game.get_parameters()``).

class InfeasibleConstraints(FogsearchError):
    """No deal is consistent with the constraints; the message names the binding constraint
    (which players, how many hidden cards they need, which suits they are void in)."""

class OhHellState:
    """An Oh Hell state with OpenSpiel's action ids, player ids (-1 chance, -4 terminal) and
    returns. ``ValueError`` for invalid parameters or an illegal action (state unchanged)."""

    def __init__(self, params: dict[str, int | bool]) -> None: ...
    def legal_actions(self) -> list[int]:
        """Legal actions (chance outcomes at chance nodes, all equiprobable), ascending."""
    def apply_action(self, action: int) -> None: ...
    def current_player(self) -> int: ...
    def is_chance_node(self) -> bool: ...
    def is_terminal(self) -> bool: ...
    def returns(self) -> list[float]: ...
    def history(self) -> list[int]: ...
    def clone(self) -> OhHellState: ...

class BuiltinPolicy:
    """A joint policy computed in Rust (see ``fogsearch.ttcg.policy``)."""

    @staticmethod
    def uniform() -> BuiltinPolicy: ...
    @staticmethod
    def bias(seed: int, bias: float) -> BuiltinPolicy:
        """Probability ``bias`` on one hashed action per information state, rest uniform."""
    @staticmethod
    def softmax(seed: int, beta: float) -> BuiltinPolicy:
        """pi(a|I) proportional to exp(beta * u(I, a)), u ~ U(0, 1) hashed from (I, a)."""

def ohhell_trace(
    params: dict[str, int | bool], histories: list[list[int]]
) -> list[tuple[list[list[int]], list[int], list[float]]]:
    """Per history: legal actions at every state along it, player to act at each, returns."""

def ohhell_observe(
    params: dict[str, int | bool], actions: list[int], observer: int | None = None
) -> dict[str, object]:
    """The observer's constraints (known_owner with -1 for hidden, hidden_counts, voids) and the
    public template (num_tricks, dealer, trump_card, events, orders_per_assignment)."""

def ttcg_construct_deal(
    num_players: int,
    num_suits: int,
    num_ranks: int,
    known_owner: list[int],
    hidden_counts: list[int],
    voids: list[list[bool]],
) -> npt.NDArray[np.uint8]:
    """A consistent deal by max flow (Lemma 2); ``InfeasibleConstraints`` when none exists."""

def ttcg_enumerate_consistent(
    num_players: int,
    num_suits: int,
    num_ranks: int,
    known_owner: list[int],
    hidden_counts: list[int],
    voids: list[list[bool]],
    limit: int = 1_000_000,
) -> npt.NDArray[np.uint8]:
    """Every consistent deal; ``NotImplementedError`` above ``limit``."""

def ttcg_enumerate_deals(
    params: dict[str, int | bool],
    actions: list[int],
    observer: int | None = None,
    policy: object | None = None,
    limit: int = 1_000_000,
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64], float]:
    """Consistent deals of positive reach, their log reach, and deal orders per deal."""

def ttcg_walk_histories(
    params: dict[str, int | bool],
    actions: list[int],
    observer: int | None = None,
    policy: object | None = None,
    limit: int = 1_000_000,
) -> tuple[int, float]:
    """Visit every OpenSpiel history in Rust: (count, summed reach relative to the likeliest)."""

def ttcg_log_reach(
    params: dict[str, int | bool],
    actions: list[int],
    assignments: npt.NDArray[np.uint8],
    policy: object | None = None,
) -> npt.NDArray[np.float64]:
    """Unnormalised log reach of each deal along the public history of ``actions``."""

def ttcg_resample_history(
    params: dict[str, int | bool],
    actions: list[int],
    player: int,
    seed: int,
    policy: object | None = None,
    limit: int = 200_000,
) -> list[int]:
    """An action list with ``player``'s information state unchanged, hidden cards drawn exactly
    from the joint range under ``policy``, uniform deal order."""

def ttcg_resample_histories(
    params: dict[str, int | bool],
    actions: list[int],
    player: int,
    seed: int,
    n: int,
    policy: object | None = None,
    limit: int = 200_000,
) -> list[list[int]]:
    """``n`` exact resamples of ``player``'s information state, enumerating once."""

def ttcg_history_from_deal(
    params: dict[str, int | bool], actions: list[int], player: int, assignment: list[int], seed: int
) -> list[int]:
    """The history of ``actions`` re-dealt as ``assignment`` (checked against ``player``'s
    information state; ``ValueError`` if inconsistent), deal order uniform by ``seed``."""

# The TTCG Gibbs sampler and its baselines (user API: fogsearch.ttcg.JointRange).

class TtcgRange:
    """Deals consistent with an observer's view of an Oh Hell history (OpenSpiel action ids),
    weighted by reach probability under a joint policy. Every deal is a row of owner codes, one
    per card id: players ``0..P-1``, undealt pile ``P``, trump card ``P+1``.

    Raises ``InfeasibleConstraints`` when no deal is consistent, ``ValueError`` for malformed
    parameters or actions, ``TypeError`` for an unusable policy."""

    def __init__(
        self,
        params: dict[str, int | bool],
        actions: list[int],
        observer: int | None = None,
        policy: object | None = None,
    ) -> None: ...
    @property
    def num_cards(self) -> int: ...
    @property
    def hidden_counts(self) -> list[int]:
        """Hidden cards held by each player, then by the undealt pile."""
    def starts(self, n: int, seed: int) -> npt.NDArray[np.uint8]:
        """``n`` consistent deals from randomised max-flow constructions, shape ``(n, cards)``."""
    def gibbs(
        self,
        num_chains: int,
        draws: int,
        burn_in: int = 0,
        thin: int = 1,
        seed: int = 0,
        starts: npt.NDArray[np.uint8] | None = None,
        kernel: Literal["ringswap", "pairs"] = "ringswap",
    ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
        """TTCG Gibbs chains in parallel with the GIL released: ``(draws (chain, draw, card),
        transitions per chain, moves per chain)``. Identical for a seed on any thread count.
        ``ValueError`` for an unknown ``kernel``."""
    def uniform(self, n: int, seed: int) -> npt.NDArray[np.uint8]:
        """``n`` exact uniform draws over consistent deals, shape ``(n, cards)``."""
    def importance(
        self, n: int, seed: int
    ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]]:
        """Uniform draws and their log importance weights (log reach)."""
    def exact(
        self, limit: int = 1_000_000
    ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]]:
        """Every consistent deal of positive reach and its log reach."""
    def true_samples(self, n: int, seed: int, limit: int = 1_000_000) -> npt.NDArray[np.uint8]:
        """``n`` iid draws from the exactly enumerated joint range."""
    def transition_matrix(
        self, limit: int = 5_000, kernel: Literal["ringswap", "pairs"] = "ringswap"
    ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Every consistent deal, its log reach, and the exact ``n x n`` transition matrix of a
        Gibbs chain with ``kernel`` over them."""
    def log_target(self, assignments: npt.NDArray[np.uint8]) -> npt.NDArray[np.float64]:
        """Unnormalised log reach of each row."""
    def count_violations(self, assignments: npt.NDArray[np.uint8]) -> int:
        """Rows that break a constraint (known cards, voids, hand sizes)."""

# ---- end ttcg ----------------------------------------------------------------------------------
