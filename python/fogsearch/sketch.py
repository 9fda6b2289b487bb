"""Streaming sketches over 64-bit keys (Zobrist keys, ids): CountSketch, top-k and MinHash.

- :class:`CountSketch` ``(width, depth, seed=0)``: signed counters with median-of-rows estimates;
  counters saturate at ``±(2**63 - 1)`` instead of wrapping;
- :class:`TopK` ``(k, width, depth, seed=0)``: the k keys with the highest estimated counts, always
  reported with their current estimates (its docstring says exactly what is guaranteed);
- :class:`MinHash` ``(k, seed=0, kind="bottom_k" | "k_hash")``: Jaccard, containment and
  intersection-size estimates between sets;
- :func:`set_id`: an order-independent 64-bit id of a collection of keys.

Keys may be a numpy ``uint64`` array (borrowed without copying; the GIL is released while the
sketch works), any other integer array or sequence of ints with values in ``[0, 2**64)``
(converted; negative values raise ``ValueError``), or a single Python or numpy integer. Floats,
bools, strings and arrays that are not 1-D are refused. Invalid parameters and comparisons of
sketches built with different parameters raise :class:`SketchError` (a ``ValueError``); a refused
call leaves the sketch unchanged.

Sizes are checked before anything is allocated: ``depth <= 64``, ``width * depth <= 2**28``
counters (2 GiB), ``k <= 2**22`` tracked keys for :class:`TopK`, ``k <= 2**24`` bottom-k or
``2**20`` k-hash values for :class:`MinHash`; the :class:`SketchError` names the limit and the
memory the value would need.

The sketches are not locked: a call on one that another thread is using (an ``update`` releases
the GIL) raises ``fogsearch._core.ConcurrentUseError``, a ``FogsearchError``. Give each thread its
own sketch, and merge them.
"""

from fogsearch._core.sketch import (
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
