"""pytest-benchmark: exact enumeration of the paper's 544,320-history public state."""

from ttcg_states import paper_params, public_state_without_voids

from fogsearch import _core


def test_bench_fogsearch_enumerates_544320_histories(benchmark):
    _, state, _ = public_state_without_voids(paper_params(3, 4, 3), 1, seed=1)
    count, _ = benchmark(_core.ttcg.walk_histories, paper_params(3, 4, 3), state.history())
    assert count == 544_320
