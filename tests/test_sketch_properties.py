"""Property-based tests of the sketches' update, merge and query against brute-force models.

Each property runs 2,000 generated cases, derandomised (the same cases on every run). The models
are independent of the implementation except for where a key lands: a CountSketch key's counter
and sign in each row are read off a probe sketch updated with that key alone, and a MinHash key's
hashed value is ``mix64(key ^ salt)``, the documented seeded finaliser.
"""

import functools

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fogsearch.sketch import CountSketch, MinHash, TopK, mix64, set_id

PROPERTY = settings(
    max_examples=2000,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
LIMIT = 2**63 - 1

# Weights that reach the counters' limits within a few updates, mixed with ordinary ones (one
# draw each: hypothesis's own drawing is most of these tests' time).
weights = st.sampled_from(
    [*range(-12, 13), LIMIT, -LIMIT - 1, LIMIT - 1, -LIMIT, 2**62, -(2**62), 3 << 60, -(5 << 59)]
)
shapes = st.tuples(st.integers(1, 9), st.integers(1, 6), st.integers(0, 2**64 - 1))


def clamp(value):
    return max(-LIMIT, min(LIMIT, value))


@functools.cache
def cells(width, depth, seed, key):
    """(row, bucket, sign) of `key` in each row, read off a sketch holding only that key."""
    probe = CountSketch(width, depth, seed)
    probe.update(key, 1)
    counters = probe.counters
    located = []
    for row in range(depth):
        (bucket,) = np.flatnonzero(counters[row])
        located.append((row, int(bucket), int(counters[row, bucket])))
    return tuple(located)


def model_counters(shape, updates, counters=None):
    """Counters as exact Python ints, each clamped after every addition."""
    width, depth, seed = shape
    counters = [[0] * width for _ in range(depth)] if counters is None else counters
    for key, weight in updates:
        for row, bucket, sign in cells(width, depth, seed, key):
            counters[row][bucket] = clamp(counters[row][bucket] + sign * weight)
    return counters


def model_estimate(shape, counters, key):
    """The median over rows of the key's signed counters; the mean of the middle two (rounded
    toward zero) for an even depth."""
    width, depth, seed = shape
    rows = sorted(
        sign * counters[row][bucket] for row, bucket, sign in cells(width, depth, seed, key)
    )
    middle = len(rows) // 2
    if len(rows) % 2:
        return rows[middle]
    total = rows[middle - 1] + rows[middle]
    return total // 2 if total >= 0 else -(-total // 2)


def apply(sketch, updates, batched):
    """Feeds `updates` as one batch of arrays or one call per update (numpy scalars or ints)."""
    if batched and updates:
        keys, values = zip(*updates, strict=True)
        sketch.update(np.array(keys, dtype=np.uint64), np.array(values, dtype=np.int64))
    else:
        for i, (key, weight) in enumerate(updates):
            sketch.update(np.uint64(key) if i % 2 else key, weight)


@PROPERTY
@given(
    shape=shapes,
    updates=st.lists(st.tuples(st.integers(0, 15), weights), max_size=20),
    batched=st.booleans(),
)
def test_count_sketch_counters_and_estimates_match_the_clamped_model(shape, updates, batched):
    sketch = CountSketch(*shape)
    apply(sketch, updates, batched)
    counters = model_counters(shape, updates)
    assert sketch.counters.tolist() == counters
    keys = list(range(16))
    expected = [model_estimate(shape, counters, key) for key in keys]
    assert sketch.estimate(keys).tolist() == expected
    assert [sketch.estimate(key) for key in keys] == expected


@PROPERTY
@given(
    shape=shapes,
    left=st.lists(st.tuples(st.integers(0, 11), weights), max_size=10),
    right=st.lists(st.tuples(st.integers(0, 11), weights), max_size=10),
)
def test_count_sketch_merge_adds_counters_with_saturation(shape, left, right):
    merged, other = CountSketch(*shape), CountSketch(*shape)
    apply(merged, left, batched=True)
    apply(other, right, batched=True)
    merged.merge(other)
    expected = [
        [clamp(a + b) for a, b in zip(row_a, row_b, strict=True)]
        for row_a, row_b in zip(
            model_counters(shape, left), model_counters(shape, right), strict=True
        )
    ]
    assert merged.counters.tolist() == expected
    # Where no sum ever reaches the limit, merging is sketching the concatenated stream.
    running, reached = 0, False
    for _, weight in left + right:
        running += abs(weight)
        reached |= running >= LIMIT
    if not reached:
        both = CountSketch(*shape)
        apply(both, left + right, batched=False)
        assert merged == both


def ranked(pairs):
    return sorted(pairs, key=lambda pair: (-pair[1], pair[0]))


@PROPERTY
@given(
    k=st.integers(1, 5),
    shape=shapes,
    updates=st.lists(st.tuples(st.integers(0, 13), weights), max_size=30),
)
def test_top_k_follows_the_admission_rule_with_current_estimates(k, shape, updates):
    """The documented guarantee, step by step: after each update the tracked keys are the top k,
    by current estimate, of the keys tracked before and the updated key, and ``items()`` reports
    exactly ``estimate(key)`` for each of them."""
    top, reference = TopK(k, *shape), CountSketch(*shape)
    tracked = set()
    for key, weight in updates:
        returned = top.update(key, weight)
        reference.update(key, weight)
        assert returned == reference.estimate(key)
        candidates = ranked((t, reference.estimate(t)) for t in tracked | {key})
        expected = candidates[:k]
        tracked = {t for t, _ in expected}
        assert top.items() == expected
        assert len(top) == len(tracked) and all(t in top for t in tracked)
    assert top.items() == ranked((key, top.estimate(key)) for key, _ in top.items())


@PROPERTY
@given(
    k=st.integers(1, 8),
    seed=st.integers(0, 2**64 - 1),
    updates=st.lists(st.tuples(st.integers(0, 40), st.integers(0, 30)), max_size=40),
)
def test_top_k_with_exact_counts_is_the_top_k_of_all_keys_seen(k, seed, updates):
    """With non-negative weights and a sketch wide enough that estimates are the exact counts,
    the tracked keys are the top k by count of every key seen."""
    top = TopK(k, 2**16, 3, seed)
    counts = {}
    for key, weight in updates:
        top.update(key, weight)
        counts[key] = counts.get(key, 0) + weight
        # The premise, checked rather than assumed (two colliding rows of three: about 1e-7).
        if any(top.estimate(key) != count for key, count in counts.items()):
            return
        assert top.items() == ranked(counts.items())[:k]


def salt(seed):
    return mix64(seed ^ 0x5EED_5EED_5EED_5EED)


key_sets = st.lists(st.integers(0, 2**64 - 1) | st.integers(0, 50), max_size=25)


@PROPERTY
@given(k=st.integers(1, 24), seed=st.integers(0, 2**64 - 1), a=key_sets, b=key_sets)
def test_bottom_k_matches_the_k_smallest_hashes_and_the_union_estimator(k, seed, a, b):
    hashed_a = {mix64(key ^ salt(seed)) for key in a}
    hashed_b = {mix64(key ^ salt(seed)) for key in b}
    sig_a, sig_b = sorted(hashed_a)[:k], sorted(hashed_b)[:k]
    ma, mb = MinHash(k, seed), MinHash(k, seed)
    ma.update(np.array(a, dtype=np.uint64))
    for key in b:
        mb.update(key)
    assert ma.signature.tolist() == sig_a and mb.signature.tolist() == sig_b
    # Jaccard from the k smallest values of the union: the share of them both signatures hold.
    union = sorted(set(sig_a) | set(sig_b))[:k]
    shared = sum(1 for value in union if value in sig_a and value in sig_b)
    assert ma.jaccard(mb) == (shared / len(union) if union else 1.0)
    if len(hashed_a) < k:
        assert ma.cardinality() == len(hashed_a)
    sizes = (len(hashed_a), len(hashed_b))
    intersection = ma.intersection_size(mb, *sizes)
    assert 0.0 <= intersection <= min(sizes)
    assert 0.0 <= ma.containment(mb, *sizes) <= 1.0
    ma.merge(mb)
    assert ma.signature.tolist() == sorted(hashed_a | hashed_b)[:k]


@PROPERTY
@given(k=st.integers(1, 32), seed=st.integers(0, 2**64 - 1), a=key_sets, b=key_sets)
def test_k_hash_merge_is_the_union_and_jaccard_is_the_share_of_equal_slots(k, seed, a, b):
    ma, mb, union = (MinHash(k, seed, kind="k_hash") for _ in range(3))
    ma.update(a)
    mb.update(np.array(b[::-1], dtype=np.uint64))
    union.update(b + a + a)
    equal = int(np.sum(ma.signature == mb.signature))
    assert ma.jaccard(mb) == equal / k == mb.jaccard(ma)
    assert ma.jaccard(ma) == 1.0
    sizes = (len(set(a)), len(set(b)))
    assert 0.0 <= ma.intersection_size(mb, *sizes) <= min(sizes)
    ma.merge(mb)
    assert ma == union


@PROPERTY
@given(
    keys=st.lists(st.integers(0, 2**64 - 1), max_size=20),
    dtype=st.sampled_from([np.uint8, np.uint16, np.uint32, np.uint64, np.int64]),
    turn=st.integers(0, 19),
)
def test_set_id_and_mix64_take_any_integer_form(keys, dtype, turn):
    turned = keys[turn % len(keys) :] + keys[: turn % len(keys)] if keys else []
    assert set_id(keys) == set_id(turned[::-1])
    assert set_id(keys) == set_id(np.array(keys, dtype=np.uint64))
    small = [key % 100 for key in keys]
    as_numpy = [dtype(key) for key in small]
    assert set_id(as_numpy) == set_id(small)
    assert [mix64(key) for key in as_numpy] == [mix64(key) for key in small]
