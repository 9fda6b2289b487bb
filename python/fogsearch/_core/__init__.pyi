"""Type stubs for the native module ``fogsearch._core``: its version and every error class; each
area's functions and classes are in its submodule's stub (``rbc.pyi``, ``search.pyi``, ...). The
user-facing API lives in the Python modules."""

from typing import Literal

import numpy as np
import numpy.typing as npt

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

_Keys = int | npt.NDArray[np.integer] | list[int] | tuple[int, ...]
"""Keys: an int, a 1-D numpy ``uint64`` array (borrowed without copying), or another 1-D integer
array / sequence of ints with values in ``[0, 2**64)``. Floats, bools, strings, negative values and
arrays that are not 1-D are refused (``TypeError``/``ValueError``); the sketch is left unchanged.
"""

_Weights = _Keys | None

class SketchError(FogsearchError):
    """An invalid sketch parameter (``k``, ``width`` or ``depth`` of 0, or too large), a merge or
    comparison of sketches built with different parameters or kinds, or undecodable bytes."""

class CountSketch:
    """CountSketch (Charikar, Chen, Farach-Colton): ``depth`` rows of ``width`` signed counters.

    Keys pass through a seeded 64-bit finaliser; each row hashes a key to a bucket and a sign.
    ``estimate`` returns the median over rows, whose error is at most about
    ``3 * ||f_tail||_2 / sqrt(width)`` except with probability falling exponentially in ``depth``.

    ```py
    from fogsearch.sketch import CountSketch
    cs = CountSketch(width=2048, depth=5, seed=0)
    cs.update(np.array([1, 2, 2], dtype=np.uint64))
    assert cs.estimate(2) == 2
    ```
    """

    def __init__(self, width: int, depth: int, seed: int = 0) -> None: ...
    def update(self, keys: _Keys, weights: _Weights = None) -> None:
        """Adds ``weights[i]`` (default 1; negative removes) occurrences of ``keys[i]``.
        The GIL is released; keys and weights of different lengths raise ``SketchError``."""
    def estimate(self, keys: _Keys) -> int | npt.NDArray[np.int64]:
        """Median-of-rows estimates: an int for an int, an int64 array otherwise."""
    def merge(self, other: CountSketch) -> None:
        """Adds ``other``'s counters (same width, depth and seed, else ``SketchError``); the result
        equals the sketch of both streams concatenated."""
    def clear(self) -> None:
        """Zeroes the counters."""
    @property
    def width(self) -> int: ...
    @property
    def depth(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def counters(self) -> npt.NDArray[np.int64]:
        """A ``(depth, width)`` copy of the counters."""
    def to_bytes(self) -> bytes:
        """Compact little-endian serialisation (used by pickle)."""
    @staticmethod
    def from_bytes(data: bytes) -> CountSketch:
        """Inverse of ``to_bytes``; ``SketchError`` for foreign or truncated bytes."""
    def __eq__(self, other: object) -> bool: ...
    def __reduce__(self) -> tuple[object, tuple[bytes]]: ...

class TopK:
    """The ``k`` keys with the highest CountSketch estimates (the paper's "queue of the k most
    seen" sets). An indexed min-heap keeps each update at O(log k).

    ```py
    top = TopK(k=10, width=2048, depth=5)
    top.update(stream)            # numpy uint64 array
    top.items()                   # [(key, estimate), ...] highest first
    ```
    """

    def __init__(self, k: int, width: int, depth: int, seed: int = 0) -> None: ...
    def update(self, keys: _Keys, weights: _Weights = None) -> int | None:
        """Adds occurrences; returns the key's new estimate when ``keys`` is a single int."""
    def items(self) -> list[tuple[int, int]]:
        """Tracked ``(key, estimate)`` pairs, highest estimate first (ties: smaller key first)."""
    def estimate(self, keys: _Keys) -> int | npt.NDArray[np.int64]:
        """Estimates of any keys, tracked or not."""
    def clear(self) -> None: ...
    @property
    def k(self) -> int: ...
    @property
    def width(self) -> int: ...
    @property
    def depth(self) -> int: ...
    @property
    def seed(self) -> int: ...
    def __len__(self) -> int:
        """The number of tracked keys (at most k)."""
    def __contains__(self, key: object) -> bool: ...
    def to_bytes(self) -> bytes: ...
    @staticmethod
    def from_bytes(data: bytes) -> TopK: ...
    def __eq__(self, other: object) -> bool: ...
    def __reduce__(self) -> tuple[object, tuple[bytes]]: ...

class MinHash:
    """A MinHash signature of a set of 64-bit keys.

    ``kind="bottom_k"`` keeps the k smallest hashes under one seeded hash (exact while the set has
    fewer than k keys; Jaccard from the k smallest of the *union* of two signatures).
    ``kind="k_hash"`` keeps the minimum under each of k seeded hashes, as datasketch does (Jaccard
    = fraction of equal slots). Standard error of Jaccard: about ``sqrt(J(1-J)/k)``.

    Sizes for ``intersection_size``/``containment``: pass ``size_self`` and ``size_other`` when the
    set sizes are known; otherwise ``cardinality()`` is used (exact for a bottom-k signature with
    fewer than k keys, else an estimate). Both use ``|A∩B| = J(|A|+|B|)/(1+J)``.

    ```py
    a, b = MinHash(128), MinHash(128)
    a.update(keys_a); b.update(keys_b)
    a.jaccard(b), a.containment(b, size_self=len(keys_a), size_other=len(keys_b))
    ```
    """

    def __init__(self, k: int, seed: int = 0, kind: str = "bottom_k") -> None:
        """``kind`` is ``"bottom_k"`` or ``"k_hash"`` (anything else: ``ValueError``)."""
    def update(self, keys: _Keys) -> None:
        """Adds keys to the set (duplicates and order do not matter). The GIL is released."""
    def jaccard(self, other: MinHash) -> float:
        """Estimated |A∩B|/|A∪B|; ``SketchError`` if k, seed or kind differ."""
    def intersection_size(
        self, other: MinHash, size_self: float | None = None, size_other: float | None = None
    ) -> float:
        """Estimated |A∩B| = J(|A|+|B|)/(1+J), clamped to [0, min(|A|, |B|)]."""
    def containment(
        self, other: MinHash, size_self: float | None = None, size_other: float | None = None
    ) -> float:
        """Estimated |A∩B|/|A| of this set in ``other`` (1.0 for an empty set)."""
    def cardinality(self) -> float:
        """The number of distinct keys: exact for bottom-k below k keys, else an estimate."""
    def merge(self, other: MinHash) -> None:
        """Becomes the signature of the union of both sets."""
    def clear(self) -> None: ...
    def copy(self) -> MinHash: ...
    @property
    def k(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def kind(self) -> str:
        """``"bottom_k"`` or ``"k_hash"``."""
    @property
    def signature(self) -> npt.NDArray[np.uint64]:
        """A copy of the signature: ascending bottom-k values, or the k slot minima."""
    def to_bytes(self) -> bytes: ...
    @staticmethod
    def from_bytes(data: bytes) -> MinHash: ...
    def __eq__(self, other: object) -> bool: ...
    def __reduce__(self) -> tuple[object, tuple[bytes]]: ...

def set_id(keys: _Keys) -> int:
    """An order-independent 64-bit id of a collection of keys: equal collections get equal ids
    whatever the order. A multiset id: a key given twice counts twice (board sets hold each key
    once); distinct collections collide with probability about 2**-64."""

def mix64(key: int) -> int:
    """The 64-bit finaliser (SplitMix64) every sketch applies to keys first; it breaks the XOR
    linearity of Zobrist keys."""

def intersection_from_jaccard(jaccard: float, size_a: float, size_b: float) -> float:
    """|A∩B| = J(|A|+|B|)/(1+J), clamped to [0, min(|A|, |B|)] (the paper's (1-J) is an erratum)."""

# ---- end sketch --------------------------------------------------------------------------------

# ---- search errors (fogsearch._core.search) ---------------------------------------------------

class SearchError(FogsearchError):
    """A search could not run: a bad configuration or an unsearchable board set."""

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
