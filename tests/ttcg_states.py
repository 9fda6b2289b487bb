"""Oh Hell public states of the paper's sizes, shared by the TTCG tests and benchmarks."""

from __future__ import annotations

import random

import pyspiel

from fogsearch.ttcg import OhHellGame, observe


def paper_params(suits: int, ranks: int, tricks: int) -> dict:
    """3 players, as in the paper's experiments."""
    return {
        "players": 3,
        "num_suits": suits,
        "num_cards_per_suit": ranks,
        "num_tricks_fixed": tricks,
    }


def public_state_without_voids(params: dict, tricks_played: int, seed: int):
    """A random pyspiel history stopped after ``tricks_played`` tricks with no void revealed (the
    paper's sizes assume none): ``(game, state, observation)``."""
    game = pyspiel.load_game("oh_hell", params)
    rng = random.Random(seed)
    while True:
        state = game.new_initial_state()
        public = 0
        while public < 3 + 3 * tricks_played:
            if not state.is_chance_node():
                public += 1
            state.apply_action(rng.choice(state.legal_actions()))
        obs = observe(OhHellGame(**params), state.history())
        if not any(any(v) for v in obs.constraints.voids):
            return game, state, obs
