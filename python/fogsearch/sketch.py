"""Streaming sketches over 64-bit keys (Zobrist keys, ids): CountSketch, top-k and MinHash.

- :class:`CountSketch` ``(width, depth, seed=0)``: signed counters with median-of-rows estimates;
- :class:`TopK` ``(k, width, depth, seed=0)``: the k keys with the highest estimated counts;
- :class:`MinHash` ``(k, seed=0, kind="bottom_k" | "k_hash")``: Jaccard, containment and
  intersection-size estimates between sets;
- :func:`set_id`: an order-independent 64-bit id of a collection of keys.

Keys may be a numpy ``uint64`` array (borrowed without copying; the GIL is released while the
sketch works), any other integer array or sequence of ints with values in ``[0, 2**64)``
(converted; negative values raise ``ValueError``), or a single Python or numpy integer. Floats,
bools, strings and arrays that are not 1-D are refused. Invalid parameters and comparisons of
sketches built with different parameters raise :class:`SketchError` (a ``ValueError``); a refused
call leaves the sketch unchanged.
"""

from fogsearch._core import (
    CountSketch,
    MinHash,
    SketchError,
    TopK,
    intersection_from_jaccard,
    mix64,
    set_id,
)

__all__ = [
    "CountSketch",
    "MinHash",
    "SketchError",
    "TopK",
    "intersection_from_jaccard",
    "mix64",
    "set_id",
]
