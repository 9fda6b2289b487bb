"""pytest-benchmark timings of the card players and samplers on Gongzhu: a Mr. Greed move, a
searching move, uniform deals over 39 hidden cards, and a whole rule-based game in Rust. Run with
``pytest bench/test_bench_ttcg_cards.py --benchmark-enable``; in the default suite each runs once
as a smoke test."""

import pytest

from fogsearch._core import ttcg as native
from fogsearch.ttcg.gongzhu import deal, new_state


@pytest.fixture(scope="module")
def first_move():
    return new_state(deal(1))


def test_bench_greed_move(benchmark, first_move):
    greed = native.Player.greed()
    assert benchmark(greed.act, first_move, 0) in first_move.legal_actions()


@pytest.mark.parametrize("sampler", ["us", "ss+iec", "pairs"])
def test_bench_search_move_9_deals_300_iterations(benchmark, first_move, sampler):
    player = native.Player.search(sampler=sampler, deals=9, iterations=300, threads=1)
    assert benchmark(player.act, first_move, 0) in first_move.legal_actions()


def test_bench_uniform_deals_over_39_hidden_cards(benchmark, first_move):
    deals, _ = benchmark(native.sample_deals, first_move, "us", 1000, 0)
    assert deals.shape == (1000, 52)


def test_bench_rule_based_game_in_rust(benchmark):
    players = [native.Player.greed(), native.Player.mr_if()] * 2
    _, points, returns = benchmark(native.play_deal, new_state(deal(2)), players, 0)
    assert sum(returns) == 0
