"""Speed of BoardSet.square_distribution (the replay page's belief heatmap) on a large set.

    python bench/square_distribution.py [--boards 1000000] [--threads N]

The set: Black's boards after five unseen White moves (Black moving its a- and h-pawns in
between, then passing), cut to the first ``--boards`` boards with ``subset``. Prints the time of
the uniform and of the weighted form (best of five runs each).
"""

from __future__ import annotations

import argparse
import time

import chess
import numpy as np

from fogsearch.rbc import BoardSet

MOST_BOARDS = 5_000_000
"""A board set takes about 420 bytes a board at an expansion's peak: 2 GiB here."""


def large_set(boards: int, threads: int | None) -> BoardSet:
    s = BoardSet(chess.BLACK, threads=threads, max_boards=MOST_BOARDS)
    for uci in ("a7a6", "h7h6", "a6a5", "h6h5"):
        s.handle_opponent_move_result(False, None)
        s.handle_move_result(chess.Move.from_uci(uci), chess.Move.from_uci(uci), False, None)
    s.handle_opponent_move_result(False, None)  # 216,744 boards
    # Expanding all of them again would pass 6 M boards; a part of them reaches the size asked.
    s = s.subset(range(min(len(s), boards // 7 + 1)))
    s.handle_move_result(None, None, False, None)
    s.handle_opponent_move_result(False, None)
    if len(s) < boards:
        raise SystemExit(f"the set reached only {len(s)} boards")
    return s.subset(range(boards))


def best_of(runs: int, fn) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--boards", type=int, default=1_000_000)
    p.add_argument("--threads", type=int, default=None, help="default: all cores")
    args = p.parse_args()
    if not 1 <= args.boards <= MOST_BOARDS:
        raise SystemExit(f"--boards must be in 1..{MOST_BOARDS}")
    s = large_set(args.boards, args.threads)
    weights = np.random.default_rng(0).random(len(s))
    uniform = best_of(5, s.square_distribution)
    weighted = best_of(5, lambda: s.square_distribution(weights))
    print(f"{len(s):,} boards, threads {args.threads or 'all cores'}:")
    print(f"  square_distribution()         {uniform * 1000:8.1f} ms")
    print(f"  square_distribution(weights)  {weighted * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
