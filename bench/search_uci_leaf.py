"""What the engine leaf (``leaf="uci"``, the paper's kind of leaf) costs: per position the engine
scores, at several engine depths and node budgets, measured through the search itself (a depth-1
search asks the engine once per distinct board after each request, and the search around it costs
microseconds); and the search with the engine leaf against the static leaf on the start and on
recorded sets (time, engine calls, cache hits, best move).

    python bench/search_uci_leaf.py --depths 1 4 8 --nodes 1000 10000
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import chess

from fogsearch.search import SearchConfig, Searcher, search

sys.path.insert(0, str(Path(__file__).parent))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depths", type=int, nargs="+", default=[1, 4, 8])
    parser.add_argument("--nodes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--sets", type=int, default=4, help="recorded sets (besides the start)")
    parser.add_argument("--engine", default="stockfish")
    parser.add_argument("--compare-depths", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    from search_speedup import recorded_sets

    sets = [[chess.STARTING_FEN], *recorded_sets(args.sets, 12)]
    limits = [(d, 0) for d in args.depths] + [(30, n) for n in args.nodes]
    print("per engine leaf, depth-1 searches (fresh searcher each: no cached scores):")
    print("| engine limit | positions scored | seconds | ms per leaf (median over sets) |")
    print("|---|---|---|---|")
    for depth, nodes in limits:
        config = SearchConfig(leaf="uci", uci_engine=args.engine, uci_depth=depth, uci_nodes=nodes)
        Searcher(config).search(sets[0], 1)  # start the engine once (loading its network)
        per_leaf, scored, seconds = [], 0, 0.0
        for fens in sets:
            searcher = Searcher(config)
            searcher.search([chess.STARTING_FEN], 1)  # the engine starts outside the timing
            searcher.clear()
            started = time.perf_counter()
            result = searcher.search(fens, 1)
            elapsed = time.perf_counter() - started
            calls = result.stats.leaf_evaluations
            scored, seconds = scored + calls, seconds + elapsed
            per_leaf.append(elapsed / max(calls, 1) * 1e3)
        label = f"depth {depth}" if not nodes else f"nodes {nodes}"
        print(f"| {label} | {scored:,} | {seconds:.2f} | {statistics.median(per_leaf):.2f} |")
    print("\nsearch, engine leaf (depth 4) against the static leaf, min_size senses:")
    print("| set | depth | leaf | seconds | leaves scored | cache hits | best move | value |")
    print("|---|---|---|---|---|---|---|---|")
    for index, fens in enumerate(sets[: 1 + args.sets]):
        for depth in args.compare_depths:
            for leaf in ("static", "uci"):
                config = SearchConfig(
                    mode="exact",
                    leaf=leaf,
                    uci_engine=args.engine,
                    uci_depth=4,
                    sense_mode="min_size",
                )
                started = time.perf_counter()
                result = search(fens, depth, config)
                elapsed = time.perf_counter() - started
                print(
                    f"| {index} ({len(fens)} boards) | {depth} | {leaf} | {elapsed:.2f}"
                    f" | {result.stats.leaf_evaluations:,} | {result.stats.reply_table_hits:,}"
                    f" | {result.best_move} | {result.value} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
