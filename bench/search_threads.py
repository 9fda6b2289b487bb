"""Thread scaling of the information-set search (root splitting with shared tables) and of
board-set expansion, each thread count measured back-to-back with one thread in the same run and
repeated, so that a shared machine's load falls on both sides of each ratio.

For every workload, mode and repeat, the search runs with each thread count in turn; the table
gives the wall-clock speed-up over one thread (min / median / max over the repeats), the
efficiency (speed-up per thread), the CPU seconds (all threads; more CPU than one thread spent is
work the split added or time spent waiting on locks) and the nodes. Root values in modes none
and exact must equal the single-threaded search's (checked here too; the tests check it on many
sets). The machine's load average is printed before and after.

Workloads: `start-d3` (White's first move, depth 3, full sense search), `recorded-d2` (the 20
recorded mid-game sets and the start, depth 2, full sense search), `start-d4-min` (the start,
depth 4, min_size senses; `start-d3-min` for a quick check). Expansion: the two large parent sets of `bench/rbc_speed.py`.

    python bench/search_threads.py --threads 1,2 --repeats 3 --workloads start-d3 recorded-d2
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import chess

from fogsearch.arguments import cores
from fogsearch.rbc import BoardSet
from fogsearch.search import SearchConfig, search

sys.path.insert(0, str(Path(__file__).parent))

WORKLOADS = {
    "start-d3": (3, "search", lambda: [[chess.STARTING_FEN]]),
    "recorded-d2": (2, "search", lambda: recorded()),
    "start-d4-min": (4, "min_size", lambda: [[chess.STARTING_FEN]]),
    "start-d3-min": (3, "min_size", lambda: [[chess.STARTING_FEN]]),
}


def recorded() -> list[list[str]]:
    from search_speedup import recorded_sets

    return [[chess.STARTING_FEN], *recorded_sets(20, 200)]


def timed_searches(sets, depth, config) -> tuple[float, float, int, list[dict]]:
    """(wall seconds, CPU seconds, nodes, root values per set) of searching every set."""
    wall, cpu = time.perf_counter(), time.process_time()
    results = [search(fens, depth, config) for fens in sets]
    return (
        time.perf_counter() - wall,
        time.process_time() - cpu,
        sum(r.stats.nodes for r in results),
        [r.move_values for r in results],
    )


def spread(values: list[float]) -> str:
    return f"{min(values):.2f} / {statistics.median(values):.2f} / {max(values):.2f}"


def search_scaling(workloads, modes, thread_counts, repeats) -> None:
    print(
        "| workload | mode | threads | wall s (median) | speed-up min / median / max"
        " | efficiency (median) | CPU s (median) | nodes (median) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name in workloads:
        depth, sense_mode, make_sets = WORKLOADS[name]
        sets = make_sets()
        for mode in modes:
            runs: dict[int, list[tuple[float, float, int]]] = {t: [] for t in thread_counts}
            for _ in range(repeats):
                serial_values = None
                for threads in thread_counts:
                    config = SearchConfig(mode=mode, sense_mode=sense_mode, threads=threads)
                    wall, cpu, nodes, values = timed_searches(sets, depth, config)
                    runs[threads].append((wall, cpu, nodes))
                    if threads == 1:
                        serial_values = values
                    elif mode in ("none", "exact") and values != serial_values:
                        raise SystemExit(f"{name} {mode}: {threads} threads changed a root value")
            serial = [w for w, _, _ in runs[1]]
            for threads in thread_counts:
                walls = [w for w, _, _ in runs[threads]]
                ups = [s / w for s, w in zip(serial, walls, strict=True)]
                print(
                    f"| {name} | {mode} | {threads} | {statistics.median(walls):.2f}"
                    f" | {spread(ups)} | {statistics.median(ups) / threads:.2f}"
                    f" | {statistics.median(c for _, c, _ in runs[threads]):.2f}"
                    f" | {int(statistics.median(n for _, _, n in runs[threads])):,} |",
                    flush=True,
                )


def expansion_scaling(thread_counts, repeats) -> None:
    from rbc_speed import large_parent_sets

    print("\n| expansion: parent boards | threads | ms (median) | speed-up min / median / max |")
    print("|---|---|---|---|")
    for color, fens in large_parent_sets():
        times: dict[int, list[float]] = {t: [] for t in thread_counts}
        for _ in range(repeats):
            for threads in thread_counts:
                board_set = BoardSet(color, fens, threads=threads)
                started = time.perf_counter()
                board_set.handle_opponent_move_result(False, None)
                times[threads].append(time.perf_counter() - started)
        for threads in thread_counts:
            ups = [s / t for s, t in zip(times[1], times[threads], strict=True)]
            print(
                f"| {len(fens):,} | {threads} | {statistics.median(times[threads]) * 1e3:.0f}"
                f" | {spread(ups)} |",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", default="1,2", help="comma-separated; 1 is always included")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--workloads", nargs="+", default=["recorded-d2"], choices=sorted(WORKLOADS)
    )
    parser.add_argument("--modes", nargs="+", default=["none", "exact", "sketch", "exact+sketch"])
    parser.add_argument("--no-expansion", action="store_true")
    args = parser.parse_args()
    counts = sorted({1, *(int(t) for t in args.threads.split(","))})
    print(f"cores: {cores()}; load average before: {os.getloadavg()}")
    search([chess.STARTING_FEN], 1)
    search_scaling(args.workloads, args.modes, counts, args.repeats)
    if not args.no_expansion:
        expansion_scaling(counts, args.repeats)
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
