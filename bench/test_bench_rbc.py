"""pytest-benchmark timings for RBC board sets and perft (run with ``pytest bench
--benchmark-enable``; in the normal suite each runs once, untimed)."""

import sys
from pathlib import Path

import chess
import pytest

sys.path.insert(0, str(Path(__file__).parent))

from rbc_data import cases  # noqa: E402
from rbc_reference import ReferenceTracker  # noqa: E402

from fogsearch.rbc import BoardSet, perft  # noqa: E402


@pytest.fixture(scope="module")
def expansion_case():
    found = [
        c
        for c in cases(min_boards=100, max_boards=2000)
        if c.method == "handle_opponent_move_result"
    ]
    return max(found, key=lambda c: len(c.fens))


def test_fogsearch_expansion(benchmark, expansion_case):
    case = expansion_case

    def expand():
        s = BoardSet(case.color, case.fens, threads=1)
        s.handle_opponent_move_result(*case.args)
        return len(s)

    assert benchmark(expand) > 0


def test_reference_expansion(benchmark, expansion_case):
    case = expansion_case
    boards = [chess.Board(f) for f in case.fens]

    def expand():
        r = ReferenceTracker(case.color, [b.copy() for b in boards])
        r.handle_opponent_move_result(*case.args)
        return len(r.boards)

    assert benchmark.pedantic(expand, rounds=1, iterations=1) > 0


def test_fogsearch_perft_4(benchmark):
    assert benchmark(perft, chess.STARTING_FEN, 4) == 197_742
