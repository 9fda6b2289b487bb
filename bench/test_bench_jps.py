"""pytest-benchmark timings of CFR and one JPS iteration. Run with ``pytest
bench/test_bench_jps.py --benchmark-enable``; in the default suite each runs once as a smoke
test."""

import pytest

from fogsearch.jps import brute_force_step, cfr, jps_step, load_game, start_infosets


@pytest.fixture(scope="module")
def bidding():
    game = load_game("simple_bidding:n=8")
    return game, cfr(game, 1000, seed=0).current


def test_bench_cfr_100_iterations_mini_bridge_3(benchmark):
    game = load_game("mini_bridge:n=3")
    result = benchmark(cfr, game, 100, seed=0)
    assert result.current.purified().value() > -1.0


def test_bench_one_jps_iteration_simple_bidding_8(benchmark, bidding):
    game, policy = bidding
    step = benchmark(jps_step, game, policy, start_infosets(game), None)
    assert step.gain >= 0.0


def test_bench_one_brute_force_iteration_simple_bidding_8_depth_2(benchmark, bidding):
    game, policy = bidding
    step = benchmark(brute_force_step, game, policy, start_infosets(game), 2)
    assert step.gain == pytest.approx(jps_step(game, policy, start_infosets(game), 2).gain)
