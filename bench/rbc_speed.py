"""RBC speed: board-set updates against the python-chess reference tracker, perft against Stockfish,
and thread scaling of expansion. Prints markdown tables for bench/RESULTS.md.

    python bench/rbc_speed.py            # build with `maturin develop --release` first
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))

from rbc_data import cases  # noqa: E402
from rbc_reference import ReferenceTracker  # noqa: E402

from fogsearch.arguments import cores  # noqa: E402
from fogsearch.observations import (  # noqa: E402
    MoveResult,
    OpponentMoveResult,
    SenseResult,
)
from fogsearch.rbc import BoardSet, perft  # noqa: E402
from fogsearch.tournament.players import find_stockfish  # noqa: E402

OPERATIONS = {
    OpponentMoveResult: "expansion",
    SenseResult: "sense filtering",
    MoveResult: "move filtering",
}


def _timed(fn, min_seconds: float = 0.2) -> float:
    """Seconds per call: repeats until ``min_seconds`` have passed, at least once."""
    runs, start = 0, time.perf_counter()
    while True:
        fn()
        runs += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return elapsed / runs


def board_set_updates(min_boards: int = 20) -> list[str]:
    rows = []
    for kind, label in OPERATIONS.items():
        parents = fog_s = ref_s = children = 0
        for case in cases(min_boards=min_boards, max_boards=3000):
            if not isinstance(case.observation, kind):
                continue
            boards = [chess.Board(f) for f in case.fens]

            base = BoardSet(case.color, case.fens, threads=1)

            def fog(base=base, case=case):
                s = base.copy()
                case.observation.apply(s)
                return s

            def ref(case=case, boards=boards):
                # The reference tracker has the same callbacks, so an observation applies to it.
                r = ReferenceTracker(case.color, [b.copy() for b in boards])
                case.observation.apply(r)

            fog_setup = _timed(base.copy)
            fog_s += max(_timed(fog) - fog_setup, 1e-9)
            ref_setup = _timed(
                lambda boards=boards, case=case: ReferenceTracker(
                    case.color, [b.copy() for b in boards]
                )
            )
            ref_s += max(_timed(ref, min_seconds=0.05) - ref_setup, 1e-9)
            parents += len(case.fens)
            children += len(fog())
        rows.append(
            f"| {label} | {parents:,} | {children:,} | {parents / ref_s:,.0f} | "
            f"{parents / fog_s:,.0f} | {ref_s / fog_s:,.0f}x |"
        )
    return rows


def stockfish_perft(depth: int) -> tuple[int, float, str]:
    path = find_stockfish()
    if path is None:
        raise RuntimeError("Stockfish not found: run scripts/install.sh")
    proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    version = proc.stdout.readline().strip()
    proc.stdin.write("uci\nsetoption name Threads value 1\nisready\n")
    proc.stdin.flush()
    while proc.stdout.readline().strip() != "readyok":
        pass
    start = time.perf_counter()
    proc.stdin.write(f"position startpos\ngo perft {depth}\n")
    proc.stdin.flush()
    nodes = None
    while nodes is None:
        match = re.match(r"Nodes searched: (\d+)", proc.stdout.readline().strip())
        if match:
            nodes = int(match.group(1))
    elapsed = time.perf_counter() - start
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait()
    return nodes, elapsed, version


def perft_rows(depth: int = 6) -> list[str]:
    sf_nodes, sf_s, version = stockfish_perft(depth)
    start = time.perf_counter()
    fog_nodes = perft(chess.STARTING_FEN, depth)
    fog_s = time.perf_counter() - start
    return [
        f"| Stockfish `go perft {depth}` ({version.split(' by ')[0]}, legal moves) | {sf_nodes:,} | "
        f"{sf_s:.2f} | {sf_nodes / sf_s / 1e6:.0f} |",
        f"| fogsearch `perft({depth})` (RBC pseudo-legal) | {fog_nodes:,} | {fog_s:.2f} | "
        f"{fog_nodes / fog_s / 1e6:.0f} |",
        f"| ratio (nodes/s) | | | {(fog_nodes / fog_s) / (sf_nodes / sf_s):.2f}x |",
    ]


def large_parent_sets() -> list[tuple[chess.Color, list[str]]]:
    """Large sets with the opponent to move: the largest recorded expansion, expanded, then passed
    back (our pass), so the next expansion starts from tens of thousands of boards; and the same
    once more, for hundreds of thousands."""
    largest = max(
        (c for c in cases(max_boards=10**7) if isinstance(c.observation, OpponentMoveResult)),
        key=lambda c: len(c.fens),
    )
    s = BoardSet(largest.color, largest.fens)
    sets, observation = [], largest.observation
    for _ in range(2):
        observation.apply(s)
        MoveResult(None, None, False, None).apply(s)
        sets.append((largest.color, s.fens()))
        observation = OpponentMoveResult(False, None)
    return sets


def thread_scaling(thread_counts: list[int]) -> list[str]:
    rows = []
    for color, fens in large_parent_sets():
        base = None
        for threads in sorted(set(thread_counts) | {1}):

            def run(threads=threads, fens=fens, color=color):
                s = BoardSet(color, fens, threads=threads)
                s.handle_opponent_move_result(False, None)

            def build(threads=threads, fens=fens, color=color):
                return BoardSet(color, fens, threads=threads)

            setup = _timed(build, 0.5)
            seconds = _timed(run, 2.0) - setup
            base = base or seconds
            rows.append(
                f"| {threads} | {len(fens):,} | {seconds * 1e3:.0f} | {base / seconds:.2f}x | "
                f"{base / seconds / threads:.2f} |"
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--only-scaling", action="store_true", help="only the thread-scaling table (no Stockfish)"
    )
    parser.add_argument(
        "--threads",
        default=f"1,2,{cores()}",
        help="comma-separated thread counts for the scaling table (default: 1, 2, all cores)",
    )
    args = parser.parse_args()
    print(f"machine: {cores()} cores; python {sys.version.split()[0]}\n")
    if not args.only_scaling:
        print(
            "| update | parent boards | boards after | python-chess reference (boards/s) | fogsearch, 1 thread (boards/s) | speed-up |"
        )
        print("|---|---:|---:|---:|---:|---:|")
        print("\n".join(board_set_updates()))
        print("\n| perft from the start | nodes | seconds | M nodes/s |")
        print("|---|---:|---:|---:|")
        print("\n".join(perft_rows()))
    print("\n| threads | parent boards | expansion (ms) | speed-up | efficiency |")
    print("|---:|---:|---:|---:|---:|")
    print("\n".join(thread_scaling([int(t) for t in args.threads.split(",")])))


if __name__ == "__main__":
    main()
