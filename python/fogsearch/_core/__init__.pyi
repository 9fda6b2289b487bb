"""Type stubs for the native module ``fogsearch._core``: its version and every error class; each
area's functions and classes are in its submodule's stub (``rbc.pyi``, ``search.pyi``, ...). The
user-facing API lives in the Python modules."""

import numpy as np
import numpy.typing as npt

from fogsearch._core import ttcg as ttcg

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

# The card games are the submodule fogsearch._core.ttcg (stubs in ttcg.pyi, imported above).

# ---- end ttcg ----------------------------------------------------------------------------------
