"""What the bot's two board judgements cost on the boards it judges: the engine judge
(``fogsearch.search.EngineJudge``, Stockfish scoring the position after each request on each
board) at several engine depths against the core's own alpha-beta (``board_table``) at several
plies, on the likeliest 256 boards (or all) of recorded mid-game sets, one and two threads; each
engine judge is new (no cached scores) with its engines started outside the timing.

    python bench/engine_judge.py --sets 4 --depths 1 4 8 --plies 2 4 6
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import chess

from fogsearch.opponents.stockfish import require_stockfish
from fogsearch.rbc import BoardSet
from fogsearch.search import EngineJudge, board_table

sys.path.insert(0, str(Path(__file__).parent))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", type=int, default=4, help="recorded sets")
    parser.add_argument("--boards", type=int, default=256, help="boards per set, at most")
    parser.add_argument("--depths", type=int, nargs="+", default=[1, 4, 8])
    parser.add_argument("--plies", type=int, nargs="+", default=[2, 4, 6])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    from search_speedup import recorded_sets

    engine = require_stockfish("bench/engine_judge.py")
    sets = []
    for fens in recorded_sets(args.sets, args.boards):
        color = chess.Board(fens[0]).turn
        sets.append(BoardSet(color, fens=fens[: args.boards]))
    sizes = ", ".join(str(len(s)) for s in sets)
    print(f"{len(sets)} recorded sets of {sizes} boards; median over the sets\n")
    print("| judge | threads | seconds a set | positions a set | ms a position | boards a second |")
    print("|---|---|---|---|---|---|")
    for threads in args.threads:
        for depth in args.depths:
            seconds, positions = [], []
            for boards in sets:
                judge = EngineJudge(engine, depth=depth)
                judge.table(BoardSet(chess.WHITE, fens=[chess.STARTING_FEN]), threads=threads)
                started = time.perf_counter()
                table = judge.table(boards, threads=threads)
                seconds.append(time.perf_counter() - started)
                positions.append(table.nodes)
            _row(f"engine, depth {depth}", threads, seconds, positions, sets)
        for plies in args.plies:
            seconds = []
            for boards in sets:
                started = time.perf_counter()
                board_table(boards, least_plies=plies, most_plies=plies, threads=threads)
                seconds.append(time.perf_counter() - started)
            _row(f"alpha-beta, {plies} plies", threads, seconds, None, sets)


def _row(label, threads, seconds, positions, sets) -> None:
    s = statistics.median(seconds)
    boards = statistics.median(len(b) for b in sets)
    if positions is None:
        print(f"| {label} | {threads} | {s:.3f} | | | {boards / s:,.0f} |")
        return
    p = statistics.median(positions)
    print(f"| {label} | {threads} | {s:.3f} | {p:,.0f} | {s / p * 1e3:.2f} | {boards / s:,.0f} |")


if __name__ == "__main__":
    main()
