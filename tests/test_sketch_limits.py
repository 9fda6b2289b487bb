"""Sizes, key types and extreme values at the sketch API's edge: every size is checked against a
limit that the message names with the memory it stands for, every key API takes Python and numpy
integers alike, and nothing raises a ``BaseException`` that is not an ``Exception`` (a Rust panic)."""

import math
import pickle

import numpy as np
import pytest

import fogsearch._core
from fogsearch import FogsearchError
from fogsearch.sketch import (
    CountSketch,
    MinHash,
    SketchError,
    TopK,
    intersection_from_jaccard,
    mix64,
    set_id,
)

NUMPY_INTEGERS = [np.uint8, np.uint16, np.uint32, np.uint64, np.int8, np.int16, np.int32, np.int64]


def test_sketch_error_is_a_fogsearch_error_reachable_from_both_modules():
    assert issubclass(SketchError, FogsearchError)
    assert fogsearch._core.SketchError is fogsearch._core.sketch.SketchError is SketchError
    assert CountSketch.__module__ == "fogsearch._core.sketch"


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            lambda: CountSketch(2**40, 5),
            r"width \* depth = 5497558138880 is too large: 5497558138880 counters would need "
            r"40\.0 TiB of memory; at most 268435456 counters \(2\.0 GiB\) are allowed",
        ),
        (lambda: CountSketch(8, 65), "depth = 65 is too large: at most 64 rows are allowed"),
        (lambda: CountSketch(2**70, 3), r"width \* depth = 18446744073709551615 or more"),
        (lambda: CountSketch(0, 3), "width must be at least 1, got 0"),
        (lambda: CountSketch(8, -1), "depth must be at least 1, got -1"),
        (
            lambda: TopK(10**9, 64, 3),
            r"k = 1000000000 is too large: 1000000000 tracked keys would need .* GiB of memory; "
            r"at most 4194304 tracked keys",
        ),
        (lambda: TopK(4, 2**30, 4), r"width \* depth = 4294967296 is too large"),
        (
            lambda: MinHash(2**30),
            r"k = 1073741824 is too large: 1073741824 signature values would need 8\.0 GiB",
        ),
        (
            lambda: MinHash(2**21, kind="k_hash"),
            r"k = 2097152 is too large: 2097152 hash slots would need 48\.0 MiB of memory; at "
            r"most 1048576 hash slots \(24\.0 MiB\)",
        ),
        (lambda: MinHash(0), "k must be at least 1, got 0"),
    ],
)
def test_sizes_beyond_their_limits_name_the_limit_and_the_memory(make, message):
    with pytest.raises(SketchError, match=message):
        make()


def test_sizes_at_their_limits_are_accepted():
    assert CountSketch(2**22, 64).depth == 64
    assert MinHash(2**20, kind="k_hash").k == 2**20
    assert TopK(2**22, 8, 1).k == 2**22


@pytest.mark.parametrize("dtype", NUMPY_INTEGERS)
def test_every_key_api_takes_numpy_integer_scalars(dtype):
    key = dtype(37)
    assert mix64(key) == mix64(37)
    assert set_id([key, dtype(5)]) == set_id([37, 5])
    sketch, reference = CountSketch(64, 3, seed=1), CountSketch(64, 3, seed=1)
    sketch.update(key, dtype(4))
    reference.update(37, 4)
    assert sketch == reference and sketch.estimate(key) == 4
    top = TopK(2, 64, 3)
    assert top.update(key) == 1 and key in top and top.estimate(key) == 1
    signature, expected = MinHash(8), MinHash(8)
    signature.update(key)
    expected.update(37)
    assert signature == expected


@pytest.mark.parametrize(
    ("key", "error", "message"),
    [
        (1.0, TypeError, "got float"),
        (np.float64(1.0), TypeError, "got float64"),
        (True, TypeError, "got bool"),
        (np.True_, TypeError, "got bool"),
        ("7", TypeError, "got str"),
        (None, TypeError, "got NoneType"),
        (-1, ValueError, r"key -1 is outside \[0, 2\*\*64\)"),
        (np.int64(-1), ValueError, r"key -1 is outside \[0, 2\*\*64\)"),
        (2**64, ValueError, r"key 18446744073709551616 is outside \[0, 2\*\*64\)"),
    ],
)
def test_bad_scalar_keys_are_refused_clearly_everywhere(key, error, message):
    top = TopK(2, 16, 3)
    top.update([1, 2])
    sketch = CountSketch(16, 3)
    sketch.update([1, 2])
    before = (top.to_bytes(), sketch.to_bytes())
    with pytest.raises(error, match=message):
        mix64(key)
    with pytest.raises(error, match=message):
        _ = key in top
    for call in (top.update, sketch.update, sketch.estimate, top.estimate, MinHash(4).update):
        with pytest.raises(error):
            call(key)
    assert (top.to_bytes(), sketch.to_bytes()) == before


EXTREMES = [0, -1, 1, 2**31, 2**63, 2**64, 2**200, math.nan, math.inf, -math.inf, True, None, "3"]


def no_panic(call):
    """Runs `call` and lets only ordinary exceptions through: a Rust panic arrives as
    ``PanicException``, a ``BaseException`` that ``except Exception`` misses."""
    try:
        call()
    except Exception:
        pass


@pytest.mark.parametrize("value", EXTREMES)
def test_extreme_values_never_panic(value):
    for make in (
        lambda: CountSketch(value, 2),
        lambda: CountSketch(4, value),
        lambda: CountSketch(4, 2, seed=value),
        lambda: TopK(value, 4, 2),
        lambda: MinHash(value),
        lambda: MinHash(value, kind="k_hash"),
        lambda: MinHash(4, seed=value),
    ):
        no_panic(make)
    sketch, top, signature = CountSketch(4, 2), TopK(2, 4, 2), MinHash(4)
    other = MinHash(4)
    other.update([1, 2, 3])
    for call in (
        lambda: sketch.update(1, value),
        lambda: sketch.update([1, 2], [value, value]),
        lambda: sketch.update(value),
        lambda: sketch.estimate(value),
        lambda: top.update(value),
        lambda: top.update(3, value),
        lambda: value in top,
        lambda: signature.update(value),
        lambda: signature.containment(other, value, value),
        lambda: signature.intersection_size(other, size_self=value, size_other=1.0),
        lambda: intersection_from_jaccard(value, 1.0, 2.0),
        lambda: intersection_from_jaccard(0.5, value, value),
        lambda: mix64(value),
        lambda: set_id([value]),
    ):
        no_panic(call)


def test_decoders_refuse_garbage_without_panicking():
    rng = np.random.default_rng(11)
    valid = {
        CountSketch: CountSketch(8, 3).to_bytes(),
        TopK: TopK(3, 8, 3).to_bytes(),
        MinHash: MinHash(8).to_bytes(),
    }
    for cls, data in valid.items():
        for _ in range(200):
            garbage = bytearray(data)
            garbage[rng.integers(len(garbage))] ^= int(rng.integers(1, 256))
            no_panic(lambda cls=cls, garbage=garbage: cls.from_bytes(bytes(garbage)))
            with pytest.raises(SketchError):
                cls.from_bytes(bytes(garbage[: rng.integers(len(garbage))]))
        # A forged CountSketch header asking for 2**40 counters is refused before allocating.
        forged = b"FSCS\x01" + (2**40).to_bytes(8, "little") + (1).to_bytes(8, "little") * 2
        with pytest.raises(SketchError, match="too large"):
            CountSketch.from_bytes(forged)
    assert pickle.loads(pickle.dumps(TopK(3, 8, 3))) == TopK(3, 8, 3)
