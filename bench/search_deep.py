"""How far a deep search gets within a time budget: by default depth 4 from the start with the
full sense search in the exact modes, single-threaded. Iterative deepening runs depths 1, 2, 3, 4
in turn; the report gives the deepest depth completed, each root request finished at every depth
(when and with how many nodes), and the nodes and table sizes in all.

    python bench/search_deep.py --depth 4 --modes exact --seconds 3600
    python bench/search_deep.py --depth 4 --modes exact --sense-mode finest --seconds 4000
    python bench/search_deep.py --depth 4 --modes exact --sense-mode finest --root-margin 0

`--sense-mode finest` is the same full sense search, pruned (the same values; RESULTS.md).
`--root-margin M` asks only for the best request and every request within M centipawns of it
(alpha-beta at the root; the others are proven to lie further below).
"""

from __future__ import annotations

import argparse
import os
import time

import chess

from fogsearch.search import SearchConfig, Searcher


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--modes", nargs="+", default=["exact"])
    parser.add_argument("--seconds", type=float, default=600.0, help="time budget per mode")
    parser.add_argument("--sense-mode", default="search", choices=["search", "finest", "min_size"])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--root-margin", type=int, default=None)
    parser.add_argument("--fen", default=chess.STARTING_FEN)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}")
    for mode in args.modes:
        config = SearchConfig(
            mode=mode,
            sense_mode=args.sense_mode,
            threads=args.threads,
            root_margin=args.root_margin,
        )
        searcher = Searcher(config)
        started = time.perf_counter()
        result = searcher.search([args.fen], args.depth, time_limit=args.seconds)
        wall = time.perf_counter() - started
        print(
            f"\n{mode}: depth {args.depth} asked, depth {result.depth} completed in {wall:.1f} s"
            f" (budget {args.seconds:.0f} s); {result.stats.nodes:,} nodes,"
            f" {result.stats.leaf_evaluations:,} leaf evaluations; tables {searcher.table_sizes()}"
        )
        for depth in sorted({c.depth for c in result.timeline}):
            done = [c for c in result.timeline if c.depth == depth]
            first = min(c.seconds for c in done)
            last = max(c.seconds for c in done)
            print(
                f"  depth {depth}: {len(done)} of {len(result.move_values)} root requests finished"
                f" ({first:.1f}-{last:.1f} s), {sum(c.nodes for c in done):,} nodes"
            )
            if depth == max(c.depth for c in result.timeline):
                for c in done:
                    bound = "" if c.exact else " (upper bound)"
                    print(
                        f"    {c.request} {c.value}{bound} at {c.seconds:.1f} s, {c.nodes:,} nodes"
                    )
        print(f"  best at depth {result.depth}: {result.best_move} {result.value}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
