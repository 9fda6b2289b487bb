"""pytest-benchmark: exact enumeration of the paper's 544,320-history public state."""

import random

import pyspiel

from fogsearch import _core
from fogsearch.ttcg import OhHellGame, observe


def _public_state(suits, ranks, tricks, tricks_played, seed=1):
    p = {"players": 3, "num_suits": suits, "num_cards_per_suit": ranks, "num_tricks_fixed": tricks}
    game = pyspiel.load_game("oh_hell", p)
    rng = random.Random(seed)
    while True:
        state = game.new_initial_state()
        public = 0
        while public < 3 + 3 * tricks_played:
            if not state.is_chance_node():
                public += 1
            state.apply_action(rng.choice(state.legal_actions()))
        obs = observe(OhHellGame(**p), state.history())
        if not any(any(v) for v in obs.constraints.voids):
            return p, state


def test_bench_fogsearch_enumerates_544320_histories(benchmark):
    p, state = _public_state(3, 4, 3, 1)
    count, _ = benchmark(_core.ttcg_walk_histories, p, state.history())
    assert count == 544_320
