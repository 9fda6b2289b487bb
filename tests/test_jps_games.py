"""The four game families of paper 002: Table 1's state and information-set counts, OpenSpiel's
``tiny_hanabi`` as the reference for Mini-Hanabi, and each game as a ``pyspiel`` game whose
states, moves and payoffs are the core's."""

from __future__ import annotations

import itertools

import numpy as np
import pyspiel
import pytest

from fogsearch import FogsearchError
from fogsearch.jps import JpsError, Policy, expected_reward, load_game
from fogsearch.jps import openspiel as fos

#: Table 1: game -> (#States, #Infosets).
TABLE1 = {
    "comm:l=3": (633, 129),
    "comm:l=5": (34785, 2049),
    "comm:l=6": (270273, 8193),
    "comm:l=7": (2129793, 32769),
    "mini_hanabi": (53, 45),
    "simple_bidding:n=4": (241, 61),
    "simple_bidding:n=8": (1985, 249),
    "simple_bidding:n=16": (16129, 1009),
    "mini_bridge:n=3": (4081, 1021),
    "mini_bridge:n=4": (25576, 5116),
    "mini_bridge:n=5": (147421, 24571),
}


@pytest.mark.parametrize("name", TABLE1)
def test_every_game_has_table_1s_states_and_infosets(name):
    game = load_game(name)
    assert (game.num_states, game.num_infosets) == TABLE1[name]
    assert game.name == name


def test_bad_names_and_parameters_say_what_is_allowed():
    for name, fragment in [
        ("poker", "the games are comm:l=L, mini_hanabi"),
        ("comm:l=9", "between 1 and 7"),
        ("simple_bidding", "simple_bidding:n=VALUE"),
        ("mini_bridge:n=x", "non-negative integer"),
        ("mini_hanabi:n=2", "no parameters"),
    ]:
        with pytest.raises(JpsError, match=fragment):
            load_game(name)
    assert issubclass(JpsError, FogsearchError) and issubclass(JpsError, ValueError)


def _views(state) -> list[str]:
    return [state.information_state_string(p) for p in (0, 1)]


def _tiny_hanabi_outcomes():
    """Every deal and pair of actions of OpenSpiel's tiny_hanabi: both players' information
    states after the deal, after P1's action and at the end, and the payoff."""
    game = pyspiel.load_game("tiny_hanabi")
    out = {}
    for c1, c2, a1, a2 in itertools.product(range(2), range(2), range(3), range(3)):
        state = game.new_initial_state()
        state.apply_action(c1)
        state.apply_action(c2)
        views = [_views(state)]
        state.apply_action(a1)
        views.append(_views(state))
        state.apply_action(a2)
        views.append(_views(state))
        out[c1, c2, a1, a2] = (state.returns(), views)
    return out


def _count_states(state) -> int:
    return 1 + sum(_count_states(state.child(a)) for a in state.legal_actions())


def test_mini_hanabi_is_openspiel_tiny_hanabi_with_one_joint_deal():
    reference = _tiny_hanabi_outcomes()
    game = fos.pyspiel_game("mini_hanabi")
    for (c1, c2, a1, a2), (returns, views) in reference.items():
        state = game.new_initial_state()
        assert dict(state.chance_outcomes())[2 * c1 + c2] == 0.25
        state.apply_action(2 * c1 + c2)
        assert _views(state) == views[0]
        state.apply_action(a1)
        assert _views(state) == views[1]
        state.apply_action(a2)
        assert _views(state) == views[2]
        assert state.returns() == returns
    # OpenSpiel deals the two cards at two chance nodes: two states more than Table 1's 53.
    assert _count_states(pyspiel.load_game("tiny_hanabi").new_initial_state()) == 55
    assert _count_states(game.new_initial_state()) == load_game("mini_hanabi").num_states


@pytest.mark.parametrize("name", ["comm:l=3", "simple_bidding:n=4", "mini_bridge:n=3"])
def test_pyspiel_games_walk_the_cores_tree(name):
    game = load_game(name)
    spiel = fos.pyspiel_game(name)
    assert spiel.num_players() == 2
    assert spiel.get_type().utility == pyspiel.GameType.Utility.IDENTICAL
    assert _count_states(spiel.new_initial_state()) == game.num_states
    # Playing a random pure policy through pyspiel pays what the core says it is worth.
    policy = Policy.random(game, seed=8).purified()
    total = 0.0
    deals = spiel.new_initial_state().chance_outcomes()
    for deal, p in deals:
        state = spiel.new_initial_state()
        state.apply_action(deal)
        while not state.is_terminal():
            probs = policy.at(fos.infoset_of(state))
            state.apply_action(state.legal_actions()[int(np.argmax(probs))])
        assert state.returns()[0] == state.returns()[1]
        total += p * state.returns()[0]
    assert total == pytest.approx(expected_reward(game, policy), abs=1e-12)
    pyspiel.random_sim_test(spiel, num_sims=20, serialize=False, verbose=False)


def test_information_states_are_perfect_recall_and_match_the_cores_sets():
    """Two deciding states share a pyspiel information state exactly when they share the core's
    information set; every state gives every player a string."""
    game = load_game("simple_bidding:n=4")
    spiel = fos.pyspiel_game(game)
    seen: dict[tuple[int, str], int] = {}

    def walk(state):
        views = _views(state)
        if not state.is_terminal() and not state.is_chance_node():
            player = state.current_player()
            key = (player, views[player])
            assert seen.setdefault(key, fos.infoset_of(state)) == fos.infoset_of(state)
        for action in state.legal_actions():
            walk(state.child(action))

    walk(spiel.new_initial_state())
    assert len(seen) == game.num_decision_infosets
