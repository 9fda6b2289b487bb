"""CountSketch and TopK specification: error bounds on Zipf streams, heavy-hitter recall, seeds,
merge, pickling and refusal of bad input."""

import pickle

import numpy as np
import pytest

from fogsearch.sketch import CountSketch, SketchError, TopK


def zipf_stream(seed, length=200_000, universe=50_000, exponent=1.1):
    """A stream of Zipf-distributed keys (rank r has weight r^-exponent), spread over u64 by a
    random key per rank, and its exact counts."""
    rng = np.random.default_rng(seed)
    weights = np.arange(1, universe + 1, dtype=np.float64) ** -exponent
    ranks = rng.choice(universe, size=length, p=weights / weights.sum())
    rank_keys = np.unique(rng.integers(0, 2**64, size=universe + 100, dtype=np.uint64))[:universe]
    stream = rank_keys[ranks]
    keys, counts = np.unique(stream, return_counts=True)
    return stream, keys, counts


def test_estimates_meet_the_chebyshev_median_bound_on_a_zipf_stream():
    # Row r's error for key i has mean 0 and variance at most sum_{j != i} f_j^2 / width, so it
    # exceeds 3 of those standard deviations with probability <= 1/9 (Chebyshev); the median of
    # 5 rows does so only if 3 rows do: probability <= C(5,3)/9^3 < 1.4%. Allow 3% of keys.
    width, depth = 2048, 5
    stream, keys, counts = zipf_stream(seed=1)
    sketch = CountSketch(width, depth, seed=3)
    sketch.update(stream)
    errors = np.abs(sketch.estimate(keys) - counts)
    squares = counts.astype(np.float64) ** 2
    sigma = np.sqrt((squares.sum() - squares) / width)
    violating = np.mean(errors > 3 * sigma)
    assert violating <= 0.03, violating
    # The tail bound: with the top `width/8` keys removed, the residual l2 norm bounds the heavy
    # keys' errors far more tightly; all of the 50 heaviest stay within 3 of it.
    order = np.argsort(-counts)
    tail = np.sqrt(np.sum(counts[order[width // 8 :]].astype(np.float64) ** 2) / width)
    assert np.all(errors[order[:50]] <= 3 * tail), (errors[order[:50]].max(), tail)


def test_weighted_updates_and_batches_match_unit_updates():
    stream, keys, counts = zipf_stream(seed=2, length=20_000, universe=2000)
    unit = CountSketch(256, 5, seed=1)
    unit.update(stream)
    weighted = CountSketch(256, 5, seed=1)
    weighted.update(keys, counts)
    assert weighted == unit
    assert np.array_equal(weighted.counters, unit.counters)
    # Negative weights remove again.
    weighted.update(keys, -counts)
    assert not weighted.counters.any()


def test_a_single_int_key_gives_an_int_and_lists_give_arrays():
    sketch = CountSketch(64, 3)
    sketch.update(7, 5)
    sketch.update([7, 7, 8])
    assert sketch.estimate(7) == 7 and isinstance(sketch.estimate(7), int)
    estimates = sketch.estimate([7, 8])
    assert estimates.dtype == np.int64 and list(estimates) == [7, 1]


def test_merge_equals_sketching_the_concatenated_stream():
    stream, _, _ = zipf_stream(seed=4, length=30_000, universe=5000)
    left, right, whole = (CountSketch(512, 5, seed=9) for _ in range(3))
    left.update(stream[:12_000])
    right.update(stream[12_000:])
    whole.update(stream)
    left.merge(right)
    assert left == whole


def test_same_seed_same_counters_and_different_seeds_have_uncorrelated_errors():
    stream, keys, counts = zipf_stream(seed=5, length=50_000, universe=20_000)
    one, again, other = (CountSketch(256, 5, seed=s) for s in (1, 1, 2))
    for sketch in (one, again, other):
        sketch.update(stream)
    assert np.array_equal(one.counters, again.counters)
    assert not np.array_equal(one.counters, other.counters)
    err_one = one.estimate(keys) - counts
    err_other = other.estimate(keys) - counts
    assert abs(np.corrcoef(err_one, err_other)[0, 1]) < 0.1


def test_pickle_round_trip_and_repr():
    sketch = CountSketch(32, 3, seed=5)
    sketch.update([1, 2, 3], [4, -5, 6])
    back = pickle.loads(pickle.dumps(sketch))
    assert back == sketch and (back.width, back.depth, back.seed) == (32, 3, 5)
    assert repr(sketch) == "CountSketch(width=32, depth=3, seed=5)"
    with pytest.raises(SketchError, match="not a serialised CountSketch"):
        CountSketch.from_bytes(b"garbage bytes")


def test_bad_input_is_refused_and_leaves_the_sketch_unchanged():
    sketch = CountSketch(16, 3, seed=1)
    sketch.update([1, 2, 3])
    before = sketch.counters.copy()
    bad_calls = [
        (TypeError, "dtype float64", lambda: sketch.update(np.array([1.0]))),
        (
            ValueError,
            r"1-D array, got an array of shape \(2, 2\)",
            lambda: sketch.update(np.ones((2, 2), dtype=np.uint64)),
        ),
        (SketchError, "same length", lambda: sketch.update([1, 2], [1])),
        (
            TypeError,
            "weights must be an integer array",
            lambda: sketch.update([1], np.array([0.5])),
        ),
        (ValueError, "non-negative", lambda: sketch.update(np.array([-3], dtype=np.int8))),
        (SketchError, "differ in width", lambda: sketch.merge(CountSketch(32, 3, seed=1))),
        (SketchError, "differ in depth", lambda: sketch.merge(CountSketch(16, 4, seed=1))),
        (SketchError, "differ in seed", lambda: sketch.merge(CountSketch(16, 3, seed=2))),
        (TypeError, "CountSketch", lambda: sketch.merge(TopK(2, 16, 3, seed=1))),
    ]
    for error, message, call in bad_calls:
        with pytest.raises(error, match=message):
            call()
        assert np.array_equal(sketch.counters, before)
    with pytest.raises(SketchError, match="width must be at least 1"):
        CountSketch(0, 3)
    with pytest.raises(SketchError, match="depth must be at least 1"):
        CountSketch(8, 0)
    with pytest.raises(SketchError, match="width must be at least 1, got -4"):
        CountSketch(-4, 3)
    with pytest.raises(SketchError, match="too large"):
        CountSketch(2**31, 64)


def test_counters_saturate_instead_of_wrapping():
    # The reproducer: two updates of 2**63 - 1 gave -2.
    limit = 2**63 - 1
    sketch = CountSketch(8, 3)
    sketch.update(5, limit)
    sketch.update(5, limit)
    assert sketch.estimate(5) == limit
    # Negative weights saturate at -(2**63 - 1), including the most negative int64.
    down = CountSketch(8, 3)
    down.update([5, 5], np.array([-(2**63), -(2**63)], dtype=np.int64))
    assert down.estimate(5) == -limit
    assert down.counters.min() == -limit
    # Merges saturate too, and a saturated counter moves back when the other side is opposite.
    doubled = CountSketch(8, 3)
    doubled.merge(sketch)
    doubled.merge(sketch)
    assert doubled.estimate(5) == limit
    doubled.merge(down)
    assert doubled.estimate(5) == 0
    # Bytes holding a counter outside the saturating range are refused.
    forged = bytearray(CountSketch(1, 1).to_bytes())
    forged[-8:] = (2**63).to_bytes(8, "little")
    with pytest.raises(SketchError, match="outside the saturating range"):
        CountSketch.from_bytes(bytes(forged))


def test_top_k_recalls_every_key_with_twice_the_kth_count():
    k = 50
    stream, keys, counts = zipf_stream(seed=7)
    top = TopK(k, 2048, 5, seed=1)
    top.update(stream)
    kth = np.sort(counts)[::-1][k - 1]
    heavy = set(keys[counts >= 2 * kth].tolist())
    reported = [key for key, _ in top.items()]
    recall = len(heavy & set(reported)) / len(heavy)
    assert len(heavy) >= 10 and recall >= 0.95, (len(heavy), recall)
    # Reported estimates are sorted and close to the true counts of the heavy keys.
    estimates = [estimate for _, estimate in top.items()]
    assert estimates == sorted(estimates, reverse=True) and len(top) == k
    exact = dict(zip(keys.tolist(), counts.tolist(), strict=True))
    for key, estimate in top.items()[:10]:
        assert abs(estimate - exact[key]) <= 0.05 * exact[key]


def test_top_k_single_updates_match_batches_and_pickle():
    stream, _, _ = zipf_stream(seed=8, length=5000, universe=500)
    batch, single = TopK(10, 256, 5, seed=2), TopK(10, 256, 5, seed=2)
    batch.update(stream)
    for key in stream.tolist():
        single.update(key)
    assert batch.items() == single.items()
    back = pickle.loads(pickle.dumps(batch))
    assert back == batch and back.items() == batch.items()
    assert repr(batch) == "TopK(k=10, width=256, depth=5, seed=2, tracked=10)"
    assert batch.items()[0][0] in batch


def test_top_k_items_always_report_the_current_estimate():
    # The reproducer: key 1 shares key 0's only counter; items() kept key 0's stale 1.
    top = TopK(1, 1, 1)
    top.update(0)
    top.update(1)
    assert [(key, top.estimate(key)) for key, _ in top.items()] == top.items()
    # On a stream with many collisions every reported estimate is the current one.
    stream, _, _ = zipf_stream(seed=9, length=20_000, universe=3000)
    top = TopK(32, 64, 3, seed=4)
    top.update(stream)
    items = top.items()
    assert [estimate for _, estimate in items] == list(top.estimate([key for key, _ in items]))


def test_top_k_bad_input():
    top = TopK(3, 16, 3)
    top.update([1, 1, 2])
    before = top.items()
    with pytest.raises(SketchError, match="k must be at least 1"):
        TopK(0, 16, 3)
    with pytest.raises(TypeError):
        top.update(np.array([1.5]))
    with pytest.raises(SketchError, match="same length"):
        top.update([1, 2, 3], [1, 1])
    assert top.items() == before


def test_merging_a_sketch_with_itself_doubles_it():
    sketch = CountSketch(64, 3, seed=1)
    sketch.update([1, 2, 2])
    sketch.merge(sketch)
    assert list(sketch.estimate([1, 2])) == [2, 4]
