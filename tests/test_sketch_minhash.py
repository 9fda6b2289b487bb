"""MinHash specification: accuracy against exact Jaccard, agreement with datasketch, seeds, merge,
pickling and refusal of bad input."""

import pickle

import numpy as np
import pytest

from fogsearch.sketch import MinHash, SketchError, intersection_from_jaccard

KINDS = ["bottom_k", "k_hash"]


def distinct_keys(rng, n, high=2**64):
    """`n` distinct uniform keys below `high`, in random order."""
    keys = np.unique(rng.integers(0, high, size=n + n // 10 + 10, dtype=np.uint64))
    rng.shuffle(keys)
    assert len(keys) >= n
    return keys[:n]


def overlapping_sets(rng, jaccard, union_size):
    """Two disjointly drawn key sets whose true Jaccard similarity is as close to `jaccard` as the
    sizes allow; returns the sets and the exact value."""
    keys = distinct_keys(rng, union_size)
    shared = max(1, round(jaccard * union_size))
    only_a = (union_size - shared) // 2
    a = keys[: shared + only_a]
    b = np.concatenate([keys[:shared], keys[shared + only_a :]])
    return a, b, shared / union_size


def standard_error(j, k):
    return np.sqrt(j * (1 - j) / k)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("target", [0.01, 0.05, 0.2, 0.5, 0.8, 0.95, 0.99])
def test_jaccard_within_four_standard_errors(kind, target):
    rng = np.random.default_rng(int(target * 1000))
    k = 256
    a, b, truth = overlapping_sets(rng, target, 4000)
    ma, mb = MinHash(k, seed=7, kind=kind), MinHash(k, seed=7, kind=kind)
    ma.update(a)
    mb.update(b)
    estimate = ma.jaccard(mb)
    assert abs(estimate - truth) <= 4 * standard_error(truth, k) + 1 / k, (estimate, truth)


@pytest.mark.parametrize("kind", KINDS)
def test_estimates_are_unbiased_over_many_seeds(kind):
    # The mean of 40 independent estimates has standard error SE/sqrt(40).
    rng = np.random.default_rng(3)
    a, b, truth = overlapping_sets(rng, 0.3, 3000)
    estimates = []
    for seed in range(40):
        ma, mb = MinHash(64, seed=seed, kind=kind), MinHash(64, seed=seed, kind=kind)
        ma.update(a)
        mb.update(b)
        estimates.append(ma.jaccard(mb))
    assert abs(np.mean(estimates) - truth) <= 4 * standard_error(truth, 64) / np.sqrt(40)


def test_bottom_k_is_exact_for_sets_smaller_than_k():
    a = np.arange(0, 90, dtype=np.uint64)
    b = np.arange(60, 160, dtype=np.uint64)  # |A∩B| = 30, |A∪B| = 160
    ma, mb = MinHash(256), MinHash(256)
    ma.update(a)
    mb.update(b)
    assert ma.jaccard(mb) == 30 / 160
    assert ma.cardinality() == 90 and mb.cardinality() == 100
    assert ma.intersection_size(mb) == pytest.approx(30)
    assert ma.containment(mb) == pytest.approx(30 / 90)
    assert mb.containment(ma) == pytest.approx(30 / 100)


@pytest.mark.parametrize("kind", KINDS)
def test_containment_and_intersection_with_known_sizes(kind):
    rng = np.random.default_rng(11)
    keys = distinct_keys(rng, 30_000, 2**63)
    small, large = keys[:5000], keys[2000:30_000]  # |small ∩ large| = 3000
    k = 512
    ms, ml = MinHash(k, seed=1, kind=kind), MinHash(k, seed=1, kind=kind)
    ms.update(small)
    ml.update(large)
    inter = ms.intersection_size(ml, size_self=5000, size_other=28_000)
    contained = ms.containment(ml, size_self=5000, size_other=28_000)
    # J = 3000/30000 = 0.1; dI/dJ = (|A|+|B|)/(1+J)^2 ≈ 27 300, so 4 SE of J is ≈ 1440 boards.
    bound = 4 * standard_error(0.1, k) * 33_000 / 1.1**2
    assert abs(inter - 3000) <= bound
    assert abs(contained - 0.6) <= bound / 5000
    # Estimated sizes are only a little worse.
    assert abs(ms.intersection_size(ml) - 3000) <= 1.5 * bound


def test_intersection_formula_is_j_times_sum_over_one_plus_j():
    # |A| = 60, |B| = 70, |A∩B| = 30 -> J = 0.3; the paper's (1 - J) would give 55.7.
    assert intersection_from_jaccard(0.3, 60, 70) == pytest.approx(30)
    with pytest.raises(ValueError, match="size_a"):
        intersection_from_jaccard(0.3, -1, 70)


@pytest.mark.parametrize("jaccard", [-0.1, 1.1, float("nan"), float("inf")])
def test_a_jaccard_outside_zero_one_is_an_error_not_clamped(jaccard):
    # One contract in Rust and Python: no estimator returns such a value, so it is a caller's
    # mistake; clamping it would hide the mistake behind a plausible size.
    with pytest.raises(SketchError, match=r"jaccard must lie in \[0, 1\]"):
        intersection_from_jaccard(jaccard, 60, 70)
    assert intersection_from_jaccard(1.0, 60, 70) == 60


def test_k_hash_agrees_with_datasketch_within_statistical_error():
    datasketch = pytest.importorskip("datasketch")
    rng = np.random.default_rng(5)
    k = 256
    differences, truths = [], []
    for target in [0.1, 0.3, 0.5, 0.7, 0.9]:
        # datasketch's cheap integer path: hashfunc=identity on uint32-range ints.
        keys = distinct_keys(rng, 3000, 2**32)
        shared = round(target * 3000)
        half = (3000 - shared) // 2
        a, b = keys[: shared + half], np.concatenate([keys[:shared], keys[shared + half :]])
        truth = shared / 3000
        ds_a = datasketch.MinHash(num_perm=k, seed=1, hashfunc=lambda x: x)
        ds_b = datasketch.MinHash(num_perm=k, seed=1, hashfunc=lambda x: x)
        ds_a.update_batch(a.tolist())
        ds_b.update_batch(b.tolist())
        ours_a, ours_b = MinHash(k, seed=1, kind="k_hash"), MinHash(k, seed=1, kind="k_hash")
        ours_a.update(a)
        ours_b.update(b)
        ds, ours = ds_a.jaccard(ds_b), ours_a.jaccard(ours_b)
        # Two independent estimators of the same J: their difference has SE sqrt(2)·SE.
        assert abs(ours - ds) <= 4 * np.sqrt(2) * standard_error(truth, k)
        assert abs(ds - truth) <= 4 * standard_error(truth, k)
        differences.append(ours - ds)
        truths.append(truth)
    assert abs(np.mean(differences)) <= 4 * np.sqrt(2) * 0.031 / np.sqrt(5)
    # Cardinality estimates use the same formula as datasketch's count().
    assert abs(ours_a.cardinality() / len(a) - 1) < 4 / np.sqrt(k)


def test_bottom_k_agrees_with_datasketches_theta_oracle():
    theta = pytest.importorskip("datasketches")
    rng = np.random.default_rng(9)
    k = 1024
    keys = distinct_keys(rng, 40_000, 2**62)
    a, b = keys[:25_000], keys[15_000:]  # |A∩B| = 10 000, J = 0.25
    sa, sb = theta.update_theta_sketch(10), theta.update_theta_sketch(10)  # 2**10 = k entries
    for key in a.tolist():
        sa.update(key)
    for key in b.tolist():
        sb.update(key)
    oracle = theta.theta_jaccard_similarity.jaccard(sa, sb)[1]
    ma, mb = MinHash(k, seed=2), MinHash(k, seed=2)
    ma.update(a)
    mb.update(b)
    se = standard_error(0.25, k)
    assert abs(ma.jaccard(mb) - 0.25) <= 4 * se
    assert abs(ma.jaccard(mb) - oracle) <= 4 * np.sqrt(2) * se


@pytest.mark.parametrize("kind", KINDS)
def test_same_seed_same_signature_and_different_seeds_are_independent(kind):
    rng = np.random.default_rng(21)
    keys = distinct_keys(rng, 2000, 2**63)
    one, again, other = (MinHash(128, seed=s, kind=kind) for s in (4, 4, 5))
    for sketch in (one, again, other):
        sketch.update(keys)
    assert one == again and np.array_equal(one.signature, again.signature)
    assert len(np.intersect1d(one.signature, other.signature)) <= 2
    # Estimation errors under two seeds are uncorrelated across 40 set pairs.
    errors = {4: [], 5: []}
    for _ in range(40):
        a, b, truth = overlapping_sets(rng, 0.5, 1000)
        for seed in errors:
            ma, mb = MinHash(64, seed=seed, kind=kind), MinHash(64, seed=seed, kind=kind)
            ma.update(a)
            mb.update(b)
            errors[seed].append(ma.jaccard(mb) - truth)
    assert abs(np.corrcoef(errors[4], errors[5])[0, 1]) < 0.5


@pytest.mark.parametrize("kind", KINDS)
def test_merge_equals_sketching_the_union_and_order_is_irrelevant(kind):
    rng = np.random.default_rng(1)
    keys = distinct_keys(rng, 5000, 2**63)
    left, right, whole = (MinHash(64, seed=3, kind=kind) for _ in range(3))
    left.update(keys[:3000])
    right.update(keys[2000:])
    whole.update(keys[::-1])
    left.merge(right)
    assert left == whole


@pytest.mark.parametrize("kind", KINDS)
def test_pickle_round_trip_and_repr(kind):
    sketch = MinHash(32, seed=8, kind=kind)
    sketch.update([1, 2, 3, 2**64 - 1])
    back = pickle.loads(pickle.dumps(sketch))
    assert back == sketch and back.kind == kind and back.k == 32 and back.seed == 8
    assert repr(sketch) == f"MinHash(k=32, seed=8, kind='{kind}')"


def test_keys_in_every_accepted_form_give_the_same_signature():
    reference = MinHash(16)
    reference.update(np.array([1, 5, 9], dtype=np.uint64))
    for form in (
        [1, 5, 9],
        (9, 5, 1),
        np.array([1, 5, 9], dtype=np.int32),
        np.array([1, 0, 5, 0, 9], dtype=np.uint64)[::2],
    ):
        sketch = MinHash(16)
        sketch.update(form)
        assert sketch == reference, form
    single = MinHash(16)
    for key in (1, np.uint64(5), np.int16(9)):
        single.update(key)
    assert single == reference
    numpy_scalars = MinHash(16)
    numpy_scalars.update(list(np.array([9, 1, 5], dtype=np.uint64)))
    assert numpy_scalars == reference


@pytest.mark.parametrize("kind", KINDS)
def test_bad_input_is_refused_and_leaves_the_sketch_unchanged(kind):
    sketch = MinHash(16, seed=1, kind=kind)
    sketch.update([10, 20, 30])
    before = sketch.signature.copy()
    bad_calls = [
        (TypeError, "dtype float64", lambda: sketch.update(np.array([1.0, 2.0]))),
        (ValueError, "1-D", lambda: sketch.update(np.zeros((2, 2), dtype=np.uint64))),
        (ValueError, "non-negative", lambda: sketch.update(np.array([5, -1], dtype=np.int64))),
        (ValueError, r"\[0, 2\*\*64\)", lambda: sketch.update([4, 2**64])),
        (TypeError, "bool", lambda: sketch.update(True)),
        (TypeError, "string", lambda: sketch.update("abc")),
        (TypeError, "float", lambda: sketch.update([1, 2.5])),
        (SketchError, "differ in k", lambda: sketch.jaccard(MinHash(32, seed=1, kind=kind))),
        (SketchError, "differ in seed", lambda: sketch.merge(MinHash(16, seed=2, kind=kind))),
        (
            SketchError,
            "cannot combine",
            lambda: sketch.containment(
                MinHash(16, seed=1, kind="k_hash" if kind == "bottom_k" else "bottom_k")
            ),
        ),
        (
            ValueError,
            "both size_self and size_other",
            lambda: sketch.containment(sketch, size_self=3),
        ),
        (SketchError, "non-negative set size", lambda: sketch.containment(sketch, -1, 3)),
    ]
    for error, message, call in bad_calls:
        with pytest.raises(error, match=message):
            call()
        assert np.array_equal(sketch.signature, before)
    with pytest.raises(SketchError, match="k must be at least 1"):
        MinHash(0, kind=kind)
    with pytest.raises(ValueError, match="kind must be"):
        MinHash(8, kind="bottom-k")
    with pytest.raises(ValueError, match="seed"):
        MinHash(8, seed=-1)
    assert issubclass(SketchError, ValueError)


def test_merging_a_signature_with_itself_changes_nothing():
    sketch = MinHash(8)
    sketch.update(range(100))
    before = sketch.copy()
    sketch.merge(sketch)
    assert sketch == before and sketch.jaccard(sketch) == 1.0
