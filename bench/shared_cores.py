"""Whether two games at once, each pinned to a core of its own that its two players share
(`fogsearch tournament --cores-per-game 1 --no-ponder --workers 2`), search as fast as one game
at a time with a core per player (`--cores-per-player 1 --workers 1`).

A player that does not ponder computes only on its own turn, so in either setting the mover has
its core to itself; what differs is that with two games at once two movers search at the same
time on two cores, sharing the caches and memory (and, where the machine's cores are hardware
threads of one physical core, the core itself). This measures that directly: the same
single-threaded search is timed alone on the first core, then as two copies at the same time on
the first two, alternating, so that a busy machine's load falls on both sides of the ratio.

    python bench/shared_cores.py --workload recorded-d2 --repeats 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from multiprocessing import get_context
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from search_threads import WORKLOADS, timed_searches  # noqa: E402

from fogsearch.search import SearchConfig  # noqa: E402


def one_search(core: int, workload: str, start, ready) -> float:
    """Wall seconds of ``workload``'s searches on ``core``, started together with the others."""
    os.sched_setaffinity(0, [core])
    depth, sense_mode, sets = WORKLOADS[workload]
    fens = sets()
    config = SearchConfig(mode="exact", sense_mode=sense_mode, threads=1)
    ready.wait()
    start.wait()
    wall, _, _, _ = timed_searches(fens, depth, config)
    return wall


def timed(cores: list[int], workload: str) -> list[float]:
    """Each copy's wall seconds, one copy a core, all started at once."""
    ctx = get_context("spawn")
    with ctx.Manager() as manager:
        ready, start = manager.Barrier(len(cores) + 1), manager.Event()
        with ctx.Pool(len(cores)) as pool:
            jobs = [pool.apply_async(one_search, (c, workload, start, ready)) for c in cores]
            ready.wait()
            start.set()
            return [job.get() for job in jobs]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workload", default="recorded-d2", choices=sorted(WORKLOADS))
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    mine = sorted(os.sched_getaffinity(0))
    if len(mine) < 2:
        raise SystemExit("needs two cores")
    print(f"cores {mine[:2]}; load average before: {os.getloadavg()}")
    alone, together = [], []
    for _ in range(args.repeats):
        alone.extend(timed(mine[:1], args.workload))
        together.extend(timed(mine[:2], args.workload))
    ratio = statistics.median(together) / statistics.median(alone)
    print(f"{args.workload}, {args.repeats} repeats, wall seconds min / median / max:")
    print(f"  one search alone on core {mine[0]}:   {spread(alone)}")
    print(f"  two at once on cores {mine[:2]}: {spread(together)}")
    print(f"  two at once / alone (medians): {ratio:.3f}")
    print(f"load average after: {os.getloadavg()}")


def spread(values: list[float]) -> str:
    return f"{min(values):.2f} / {statistics.median(values):.2f} / {max(values):.2f}"


if __name__ == "__main__":
    main()
