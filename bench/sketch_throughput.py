"""Update throughput of fogsearch's sketches against their Python peers, in one run, same data.

- MinHash (bottom-k and k-hash) against ``datasketch.MinHash.update_batch`` with its cheapest valid
  hash (``hashfunc=lambda x: x`` on uint32-range ints, which its affine32 permutations require),
  both fed the same chunks;
- CountSketch (and TopK) against Apache ``datasketches.frequent_items_sketch``, which takes one item
  per ``update`` call, on the same Zipf stream.

Run: ``python bench/sketch_throughput.py`` after ``maturin develop --release``.
``--stream-only --cpu-time`` times only CountSketch and TopK (single-threaded) by the process's
CPU time, which other jobs on a shared machine disturb far less than the wall clock: the way to
compare two builds (run it once with each on ``PYTHONPATH``, alternating).
"""

import argparse
import time

import numpy as np

from fogsearch.arguments import cores
from fogsearch.sketch import CountSketch, MinHash, TopK

CLOCK = time.perf_counter


def best_seconds(run, repeats):
    best = float("inf")
    for _ in range(repeats):
        start = CLOCK()
        run()
        best = min(best, CLOCK() - start)
    return best


def minhash_rows(items, chunk, repeats):
    import datasketch

    rng = np.random.default_rng(0)
    keys = rng.integers(0, 2**32, size=items, dtype=np.uint64)
    chunks = [keys[i : i + chunk] for i in range(0, items, chunk)]
    chunk_lists = [c.tolist() for c in chunks]
    rows = []
    for k in (128, 256):

        def peer(k=k):
            sketch = datasketch.MinHash(num_perm=k, seed=1, hashfunc=lambda x: x)
            for c in chunk_lists:
                sketch.update_batch(c)

        peer_s = best_seconds(peer, 1)
        for kind in ("bottom_k", "k_hash"):

            def ours(k=k, kind=kind):
                sketch = MinHash(k, seed=1, kind=kind)
                for c in chunks:
                    sketch.update(c)

            ours_s = best_seconds(ours, repeats)
            rows.append((f"MinHash {kind} k={k}", items / ours_s, items / peer_s, "datasketch"))
    return rows


def zipf_stream(items, universe=100_000, exponent=1.1, seed=0):
    rng = np.random.default_rng(seed)
    weights = np.arange(1, universe + 1, dtype=np.float64) ** -exponent
    ranks = rng.choice(universe, size=items, p=weights / weights.sum())
    rank_keys = rng.integers(0, 2**63, size=universe, dtype=np.uint64)
    return rank_keys[ranks]


def count_sketch_rows(items, repeats):
    import datasketches

    stream = zipf_stream(items)
    stream_list = stream.tolist()

    def peer():
        sketch = datasketches.frequent_items_sketch(12)
        update = sketch.update
        for key in stream_list:
            update(key)

    peer_s = best_seconds(peer, 1)
    rows = []
    for name, make in [
        ("CountSketch 2048x5", lambda: CountSketch(2048, 5, seed=1)),
        ("TopK k=64 over 2048x5", lambda: TopK(64, 2048, 5, seed=1)),
    ]:

        def ours(make=make):
            make().update(stream)

        ours_s = best_seconds(ours, repeats)
        rows.append((name, items / ours_s, items / peer_s, "datasketches frequent_items (lg 12)"))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minhash-items", type=int, default=500_000)
    parser.add_argument("--stream-items", type=int, default=2_000_000)
    parser.add_argument("--chunk", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--stream-only", action="store_true", help="only CountSketch and TopK (no MinHash rows)"
    )
    parser.add_argument(
        "--cpu-time",
        action="store_true",
        help="time by process CPU time (for single-threaded updates on a shared machine)",
    )
    args = parser.parse_args()
    global CLOCK
    if args.cpu_time:
        CLOCK = time.process_time
    rows = [] if args.stream_only else minhash_rows(args.minhash_items, args.chunk, args.repeats)
    rows += count_sketch_rows(args.stream_items, args.repeats)
    print(f"cores: {cores()}; clock: {'process CPU' if args.cpu_time else 'wall'}")
    print("| sketch | fogsearch (M items/s) | peer (M items/s) | ratio | peer |")
    print("|---|---:|---:|---:|---|")
    for name, ours, peer, peer_name in rows:
        ratio = ours / peer
        print(f"| {name} | {ours / 1e6:.1f} | {peer / 1e6:.2f} | {ratio:.0f}x | {peer_name} |")


if __name__ == "__main__":
    main()
