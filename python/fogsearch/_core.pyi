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

# ---- end search --------------------------------------------------------------------------------

# ---- ttcg --------------------------------------------------------------------------------------

# H4b: the TTCG Gibbs sampler and its baselines (user API: fogsearch.ttcg.JointRange).

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
    ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
        """TTCG Gibbs chains in parallel with the GIL released: ``(draws (chain, draw, card),
        transitions per chain, accepted per chain)``. Identical for a seed on any thread count."""
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
    def true_samples(
        self, n: int, seed: int, limit: int = 1_000_000
    ) -> npt.NDArray[np.uint8]:
        """``n`` iid draws from the exactly enumerated joint range."""
    def log_target(self, assignments: npt.NDArray[np.uint8]) -> npt.NDArray[np.float64]:
        """Unnormalised log reach of each row."""
    def count_violations(self, assignments: npt.NDArray[np.uint8]) -> int:
        """Rows that break a constraint (known cards, voids, hand sizes)."""

# ---- end ttcg ----------------------------------------------------------------------------------
