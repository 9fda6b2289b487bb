"""pytest-benchmark timings for RBC board sets and perft (run with ``pytest bench
--benchmark-enable``; in the normal suite each runs once, untimed)."""

import chess
import pytest
from rbc_data import cases
from rbc_reference import ReferenceTracker

from fogsearch.observations import OpponentMoveResult
from fogsearch.rbc import BoardSet, perft


@pytest.fixture(scope="module")
def expansion_case():
    found = [
        c
        for c in cases(min_boards=100, max_boards=2000)
        if isinstance(c.observation, OpponentMoveResult)
    ]
    return max(found, key=lambda c: len(c.fens))


def test_fogsearch_expansion(benchmark, expansion_case):
    case = expansion_case

    def expand():
        s = BoardSet(case.color, case.fens, threads=1)
        case.observation.apply(s)
        return len(s)

    assert benchmark(expand) > 0


def test_reference_expansion(benchmark, expansion_case):
    case = expansion_case
    boards = [chess.Board(f) for f in case.fens]

    def expand():
        r = ReferenceTracker(case.color, [b.copy() for b in boards])
        case.observation.apply(r)
        return len(r.boards)

    assert benchmark.pedantic(expand, rounds=1, iterations=1) > 0


def test_fogsearch_perft_4(benchmark):
    assert benchmark(perft, chess.STARTING_FEN, 4) == 197_742
