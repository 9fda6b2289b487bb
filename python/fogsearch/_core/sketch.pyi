"""Type stubs for ``fogsearch._core.sketch``: CountSketch, TopK, MinHash and set ids.

The user-facing names are re-exported by :mod:`fogsearch.sketch`.
"""

from typing import final

import numpy as np
import numpy.typing as npt

from fogsearch._core import FogsearchError

__all__ = [
    "SketchError",
    "CountSketch",
    "TopK",
    "MinHash",
    "set_id",
    "mix64",
    "intersection_from_jaccard",
]

_Keys = int | np.integer | npt.NDArray[np.integer] | list[int] | tuple[int, ...]
"""Keys: an int or numpy integer scalar, a 1-D numpy ``uint64`` array (borrowed without copying),
or another 1-D integer array / sequence of ints with values in ``[0, 2**64)``. Floats, bools,
strings, negative values and arrays that are not 1-D are refused (``TypeError``/``ValueError``);
the sketch is left unchanged.
"""

_Weights = _Keys | None

class SketchError(FogsearchError):
    """An invalid sketch parameter (``k``, ``width`` or ``depth`` below 1, or beyond its limit: the
    message names the limit and the memory the value would need), a merge or comparison of
    sketches built with different parameters or kinds, or undecodable bytes. Also importable from
    ``fogsearch._core``."""

@final
class CountSketch:
    """CountSketch (Charikar, Chen, Farach-Colton): ``depth`` rows of ``width`` signed counters.

    Keys pass through a seeded 64-bit finaliser; each row hashes a key to a bucket and a sign.
    ``estimate`` returns the median over rows, whose error is at most about
    ``3 * ||f_tail||_2 / sqrt(width)`` except with probability falling exponentially in ``depth``.

    Counters **saturate**: every sum is clamped to ``[-(2**63 - 1), 2**63 - 1]`` (they never wrap
    around), so an estimate at a limit means "at least this much". Below the limits updates and
    merges are exact integer sums; a lone key always reads its running sum, clamped after each
    update. Limits: ``depth <= 64`` and ``width * depth <= 2**28`` counters (2 GiB).

    Not locked: a call on a sketch that another thread is using (an ``update`` runs without the
    GIL) raises ``ConcurrentUseError``.

    ```py
    from fogsearch.sketch import CountSketch
    cs = CountSketch(width=2048, depth=5, seed=0)
    cs.update(np.array([1, 2, 2], dtype=np.uint64))
    assert cs.estimate(2) == 2
    ```
    """

    def __new__(cls, width: int, depth: int, seed: int | None = None) -> CountSketch: ...
    def update(self, keys: _Keys, weights: _Weights = None) -> None:
        """Adds ``weights[i]`` (default 1; negative removes) occurrences of ``keys[i]``,
        saturating. The GIL is released; keys and weights of different lengths raise
        ``SketchError``."""
    def estimate(self, keys: _Keys) -> int | npt.NDArray[np.int64]:
        """Median-of-rows estimates: an int for an int, an int64 array otherwise."""
    def merge(self, other: CountSketch) -> None:
        """Adds ``other``'s counters, saturating (same width, depth and seed, else
        ``SketchError``); below the limits the result equals the sketch of both streams
        concatenated."""
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
    def __eq__(self, value: object, /) -> bool: ...
    def __reduce__(self) -> tuple[object, tuple[bytes]]: ...

@final
class TopK:
    """The ``k`` keys with the highest CountSketch estimates (the paper's "queue of the k most
    seen" sets), in an indexed min-heap (O(log k) per update).

    What is guaranteed:

    1. ``items()`` reports each tracked key with its current ``estimate(key)``, always: an update
       refreshes every tracked key whose counters it changed.
    2. After ``update(key, w)``, the tracked keys are the top ``k``, by current estimate (ties:
       the smaller key), of the keys tracked before and ``key``. So a seen key that is not
       tracked ranked below all ``k`` tracked keys when it was last updated or evicted.
    3. With non-negative weights and exact estimates (a sketch wide enough that no key's median
       is moved by another's counters), the tracked keys are exactly the top ``k`` by estimate
       among all keys seen.

    No more can be promised in bounded memory: an untracked key's estimate moves when keys that
    share its counters are updated (and a tracked key's can fall by a negative weight), and
    noticing that it overtook a tracked key would mean remembering every key seen.
    Limits: ``k <= 2**22`` tracked keys, and those of :class:`CountSketch`.

    ```py
    top = TopK(k=10, width=2048, depth=5)
    top.update(stream)            # numpy uint64 array
    top.items()                   # [(key, estimate), ...] highest first
    ```
    """

    def __new__(cls, k: int, width: int, depth: int, seed: int | None = None) -> TopK: ...
    def update(self, keys: _Keys, weights: _Weights = None) -> int | None:
        """Adds occurrences; returns the key's new estimate when ``keys`` is a single int."""
    def items(self) -> list[tuple[int, int]]:
        """Tracked ``(key, estimate)`` pairs, highest estimate first (ties: smaller key first);
        each estimate equals ``estimate(key)``."""
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
    def __contains__(self, key: object, /) -> bool:
        """Whether ``key`` (an int or numpy integer) is tracked."""
    def to_bytes(self) -> bytes: ...
    @staticmethod
    def from_bytes(data: bytes) -> TopK:
        """Inverse of ``to_bytes``; ``SketchError`` for foreign, truncated or inconsistent bytes
        (a stored estimate that is not the sketch's)."""
    def __eq__(self, value: object, /) -> bool: ...
    def __reduce__(self) -> tuple[object, tuple[bytes]]: ...

@final
class MinHash:
    """A MinHash signature of a set of 64-bit keys.

    ``kind="bottom_k"`` keeps the k smallest hashes under one seeded hash (exact while the set has
    fewer than k keys; Jaccard from the k smallest of the *union* of two signatures).
    ``kind="k_hash"`` keeps the minimum under each of k seeded hashes, as datasketch does (Jaccard
    = fraction of equal slots). Standard error of Jaccard: about ``sqrt(J(1-J)/k)``.
    Limits: ``k <= 2**24`` for bottom-k (128 MiB), ``k <= 2**20`` for k-hash (24 MiB).

    Sizes for ``intersection_size``/``containment``: pass ``size_self`` and ``size_other`` when the
    set sizes are known; otherwise ``cardinality()`` is used (exact for a bottom-k signature with
    fewer than k keys, else an estimate). Both use ``|A∩B| = J(|A|+|B|)/(1+J)``.

    ```py
    a, b = MinHash(128), MinHash(128)
    a.update(keys_a); b.update(keys_b)
    a.jaccard(b), a.containment(b, size_self=len(keys_a), size_other=len(keys_b))
    ```
    """

    def __new__(cls, k: int, seed: int | None = None, kind: str = "bottom_k") -> MinHash:
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
    def __eq__(self, value: object, /) -> bool: ...
    def __reduce__(self) -> tuple[object, tuple[bytes]]: ...

def set_id(keys: _Keys) -> int:
    """An order-independent 64-bit id of a collection of keys: equal collections get equal ids
    whatever the order. A multiset id: a key given twice counts twice (board sets hold each key
    once); distinct collections collide with probability about 2**-64."""

def mix64(key: int | np.integer) -> int:
    """The 64-bit finaliser (SplitMix64) every sketch applies to keys first; it breaks the XOR
    linearity of Zobrist keys. Takes an int or numpy integer in ``[0, 2**64)``."""

def intersection_from_jaccard(jaccard: float, size_a: float, size_b: float) -> float:
    """|A∩B| = J(|A|+|B|)/(1+J), clamped to [0, min(|A|, |B|)] (the paper's (1-J) is an erratum).
    A ``jaccard`` outside [0, 1] or a negative or non-finite size raises ``SketchError``, as in
    the core."""
