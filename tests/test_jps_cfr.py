"""fogsearch's CFR against OpenSpiel's: the same games, the same number of iterations, the same
current and average policies (OpenSpiel's CFRSolver and CFRPlusSolver update the players in turn
from the uniform policy; fogsearch's ``schedule="openspiel"`` does the same)."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import cfr as openspiel_cfr

from fogsearch.jps import Policy, cfr, expected_reward, load_game
from fogsearch.jps import openspiel as fos


def _solve(spiel_game, iterations: int, plus: bool):
    """OpenSpiel's Python CFRSolver or CFRPlusSolver after ``iterations``."""
    solver = (openspiel_cfr.CFRPlusSolver if plus else openspiel_cfr.CFRSolver)(spiel_game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    return solver


def _tabular(pyspiel_policy):
    """A C++ pyspiel.TabularPolicy viewed as the Python one (state_lookup,
    action_probability_array)."""
    table = pyspiel_policy.policy_table()

    class View:
        def __init__(self):
            keys = sorted(table)
            self.state_lookup = {k: i for i, k in enumerate(keys)}
            width = 1 + max(a for k in keys for a, _ in table[k])
            self.action_probability_array = np.zeros((len(keys), width))
            for k, row in self.state_lookup.items():
                for a, p in table[k]:
                    self.action_probability_array[row, a] = p

    return View()


@pytest.mark.parametrize("plus", [False, True])
def test_cfr_matches_openspiel_on_openspiels_own_tiny_hanabi(plus):
    game = load_game("mini_hanabi")
    solver = _solve(pyspiel.load_game("tiny_hanabi"), 200, plus)
    ours = cfr(game, 200, schedule="openspiel", plus=plus)
    current = fos.from_tabular_policy(game, solver.current_policy())
    average = fos.from_tabular_policy(game, solver.average_policy())
    np.testing.assert_allclose(ours.current.probs, current.probs, atol=1e-9)
    np.testing.assert_allclose(ours.average.probs, average.probs, atol=1e-9)
    if not plus:  # OpenSpiel's C++ solver too
        native = pyspiel.CFRSolver(pyspiel.load_game("tiny_hanabi"))
        for _ in range(200):
            native.evaluate_and_update_policy()
        table = _tabular(native.tabular_average_policy())
        np.testing.assert_allclose(
            ours.average.probs, fos.from_tabular_policy(game, table).probs, atol=1e-9
        )


@pytest.mark.parametrize(
    "name, iterations",
    [("comm:l=3", 10), ("simple_bidding:n=4", 20), ("mini_bridge:n=3", 5)],
)
@pytest.mark.parametrize("plus", [False, True])
def test_cfr_matches_openspiel_on_the_pyspiel_games(name, iterations, plus):
    game = load_game(name)
    solver = _solve(fos.pyspiel_game(name), iterations, plus)
    ours = cfr(game, iterations, schedule="openspiel", plus=plus)
    current = fos.from_tabular_policy(game, solver.current_policy())
    average = fos.from_tabular_policy(game, solver.average_policy())
    np.testing.assert_allclose(ours.current.probs, current.probs, atol=1e-9)
    np.testing.assert_allclose(ours.average.probs, average.probs, atol=1e-9)
    assert expected_reward(game, ours.average) == pytest.approx(
        expected_reward(game, average), abs=1e-9
    )


def test_the_papers_cfr_is_seeded_and_its_purified_policy_beats_a_random_one():
    game = load_game("simple_bidding:n=8")
    a, b, c = (cfr(game, 300, seed=s) for s in (1, 1, 2))
    np.testing.assert_array_equal(a.current.probs, b.current.probs)
    assert not np.array_equal(a.current.probs, c.current.probs)
    pure = a.current.purified()
    assert set(np.unique(pure.probs)) == {0.0, 1.0}
    assert pure.value() > Policy.random(game, seed=1).value() + 1.0
