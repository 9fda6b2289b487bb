"""pytest-benchmark timings of the TTCG samplers on the paper's 544,320-history public state.
Run with ``pytest bench/test_bench_ttcg.py --benchmark-enable``; in the default suite each runs
once as a smoke test."""

import numpy as np
import pytest

from fogsearch import _core
from fogsearch.ttcg import JointRange, SoftmaxPolicy

PARAMS = {"players": 3, "num_suits": 3, "num_cards_per_suit": 4, "num_tricks_fixed": 3}


@pytest.fixture(scope="module")
def joint_range():
    rng = np.random.default_rng(0)
    while True:  # three bids and trick 1, no void revealed (the paper's state)
        s = _core.ttcg.OhHellState(PARAMS)
        public = 0
        while public < 6:
            if not s.is_chance_node():
                public += 1
            legal = s.legal_actions()
            s.apply_action(int(legal[rng.integers(len(legal))]))
        if not any(any(v) for v in _core.ttcg.observe_ohhell(PARAMS, s.history(), None)["voids"]):
            break
    return JointRange(PARAMS, s.history(), None, SoftmaxPolicy(1, 5.0))


@pytest.mark.parametrize("kernel", ["ringswap", "pairs"])
def test_bench_gibbs_10k_transitions_one_chain(benchmark, joint_range, kernel):
    out = benchmark(joint_range.gibbs, 1, 1, burn_in=9_999, thin=1, seed=0, kernel=kernel)
    assert out.transitions.sum() == 10_000


def test_bench_gibbs_two_chains_10k_each(benchmark, joint_range):
    out = benchmark(joint_range.gibbs, 2, 1, burn_in=9_999, thin=1, seed=0)
    assert out.transitions.sum() == 20_000


def test_bench_uniform_10k_deals(benchmark, joint_range):
    out = benchmark(joint_range.uniform, 10_000, 0)
    assert out.shape == (10_000, 12)


def test_bench_exact_enumeration_with_reach(benchmark, joint_range):
    deals, _ = benchmark(joint_range.exact)
    assert len(deals) == 2_520
