"""pytest-benchmark cases for the sketches (run once, quickly, under --benchmark-disable)."""

import numpy as np
import pytest

from fogsearch.sketch import CountSketch, MinHash, TopK, set_id

KEYS = np.random.default_rng(0).integers(0, 2**64, size=100_000, dtype=np.uint64)


@pytest.mark.parametrize("kind", ["bottom_k", "k_hash"])
def test_minhash_update_128(benchmark, kind):
    def run():
        sketch = MinHash(128, seed=1, kind=kind)
        sketch.update(KEYS)
        return sketch

    sketch = benchmark(run)
    assert len(sketch.signature) == 128


def test_count_sketch_update(benchmark):
    def run():
        sketch = CountSketch(2048, 5, seed=1)
        sketch.update(KEYS)
        return sketch

    sketch = benchmark(run)
    assert sketch.estimate(int(KEYS[0])) >= 1 - 2 * KEYS.size // 2048


def test_top_k_update(benchmark):
    def run():
        top = TopK(64, 2048, 5, seed=1)
        top.update(KEYS)
        return top

    assert len(benchmark(run)) == 64


def test_minhash_jaccard(benchmark):
    a, b = MinHash(256), MinHash(256)
    a.update(KEYS[:60_000])
    b.update(KEYS[40_000:])
    assert 0 <= benchmark(a.jaccard, b) <= 1


def test_set_id(benchmark):
    assert benchmark(set_id, KEYS) == set_id(KEYS[::-1])
