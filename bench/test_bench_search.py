"""pytest-benchmark: the information-set search from the start position, baseline vs accelerated
(depth 2, full sense search). Run with --benchmark-enable for timings; the suite runs it once."""

import chess
import pytest

from fogsearch.search import SearchConfig, search


@pytest.mark.parametrize("mode", ["none", "exact", "sketch", "exact+sketch"])
def test_bench_search_start_depth_2(benchmark, mode):
    config = SearchConfig(mode=mode, sense_mode="search")
    result = benchmark(search, [chess.STARTING_FEN], 2, config)
    assert result.depth == 2 and result.best_move is not None
