"""Sketches shared between threads: a call that would change (or read) a sketch another thread is
using raises the documented ``ConcurrentUseError`` and leaves the sketch as it was; PyO3's bare
``RuntimeError: Already borrowed`` never reaches the user."""

import threading

import numpy as np
import pytest

from fogsearch import FogsearchError
from fogsearch._core import ConcurrentUseError
from fogsearch.sketch import CountSketch, MinHash, TopK

# Big enough that an update runs for a while without the GIL (tens of milliseconds or more).
KEYS = np.random.default_rng(5).integers(0, 2**64, size=4_000_000, dtype=np.uint64)


def collide(long_call, other_call, rounds=50):
    """Runs `long_call` on a thread and `other_call` on this one until `other_call` raises
    ``ConcurrentUseError`` (it succeeds whenever the thread is not inside `long_call`'s GIL-free
    part). Returns the error and how many times `long_call` ran; fails if no round collided."""
    for round_ in range(1, rounds + 1):
        worker = threading.Thread(target=long_call)
        worker.start()
        error = None
        while worker.is_alive() and error is None:
            try:
                other_call()
            except ConcurrentUseError as raised:
                error = raised
        worker.join()
        if error is not None:
            return error, round_
    pytest.fail(f"no call overlapped the other thread's in {rounds} rounds")


def test_a_mutation_during_a_gil_free_update_raises_concurrent_use_error():
    sketch = CountSketch(1024, 5, seed=1)
    # A mutation that changes nothing when it succeeds, so the final state is known exactly.
    zero = CountSketch(1024, 5, seed=1)
    error, rounds = collide(lambda: sketch.update(KEYS), lambda: sketch.merge(zero))
    assert isinstance(error, FogsearchError) and isinstance(error, ValueError)
    assert "CountSketch is in use by another thread" in str(error)
    expected = CountSketch(1024, 5, seed=1)
    expected.update(KEYS, np.full(KEYS.size, rounds, dtype=np.int64))
    assert sketch == expected


def test_reads_during_an_update_and_mutations_during_a_read_raise_too():
    top = TopK(16, 1024, 5, seed=2)
    error, rounds = collide(lambda: top.update(KEYS[:1_000_000]), top.items)
    assert "TopK is in use by another thread" in str(error)
    expected = TopK(16, 1024, 5, seed=2)
    for _ in range(rounds):
        expected.update(KEYS[:1_000_000])
    assert top == expected
    # A mutation (of weight 0: no change when it succeeds) while another thread reads a batch of
    # estimates without the GIL.
    sketch = CountSketch(256, 5, seed=3)
    sketch.update(KEYS[:1000])
    state = sketch.to_bytes()
    error, _ = collide(lambda: sketch.estimate(KEYS), lambda: sketch.update(7, 0))
    assert "CountSketch is in use by another thread" in str(error)
    assert sketch.to_bytes() == state


def test_minhash_update_and_merge_from_two_threads():
    signature, subset = MinHash(64, seed=4), MinHash(64, seed=4)
    subset.update(KEYS[:10])
    error, _ = collide(lambda: signature.update(KEYS), lambda: signature.merge(subset))
    assert isinstance(error, ConcurrentUseError)
    # Every merge that went through added keys the signature holds anyway.
    expected = MinHash(64, seed=4)
    expected.update(KEYS)
    assert signature == expected
