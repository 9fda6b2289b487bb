"""Oh Hell rules are OpenSpiel's: legal actions at every step, player to act and returns agree with
pyspiel on >= 10,000 random games over many parameter sets."""

import random

import pyspiel
import pytest

from fogsearch.ttcg import OhHellGame

# (players, num_suits, num_cards_per_suit, num_tricks_fixed, off_bid_penalty, points_per_trick,
#  number of games)
CONFIGS = [
    (3, 1, 4, -1, False, 1, 800),
    (3, 2, 4, 2, False, 1, 1200),
    (3, 3, 4, -1, True, 1, 1200),
    (3, 4, 13, 3, False, 2, 600),
    (4, 2, 5, -1, True, 3, 1000),
    (4, 4, 13, 2, False, 1, 600),
    (5, 3, 6, -1, False, 1, 800),
    (5, 4, 7, 1, True, 1, 800),
    (6, 2, 13, -1, True, 2, 700),
    (7, 4, 2, -1, False, 1, 900),
    (7, 3, 13, 3, True, 1, 600),
    (3, 4, 3, -1, True, 5, 800),
]


def _params(players, suits, ranks, tricks, penalty, ppt):
    return {
        "players": players,
        "num_suits": suits,
        "num_cards_per_suit": ranks,
        "num_tricks_fixed": tricks,
        "off_bid_penalty": penalty,
        "points_per_trick": ppt,
    }


def _random_pyspiel_game(game, rng):
    state = game.new_initial_state()
    legal, players = [], []
    while not state.is_terminal():
        actions = state.legal_actions()
        legal.append(actions)
        players.append(state.current_player())
        state.apply_action(rng.choice(actions))
    legal.append(state.legal_actions())
    players.append(state.current_player())
    return state.history(), legal, players, state.returns()


def test_at_least_10000_random_games_match_pyspiel_step_by_step():
    rng = random.Random(20261122)
    total = 0
    for players, suits, ranks, tricks, penalty, ppt, n in CONFIGS:
        params = _params(players, suits, ranks, tricks, penalty, ppt)
        spiel_game = pyspiel.load_game("oh_hell", params)
        ours = OhHellGame(**params)
        games = [_random_pyspiel_game(spiel_game, rng) for _ in range(n)]
        traced = ours.trace([g[0] for g in games])
        for (history, legal, to_act, returns), ours_traced in zip(games, traced, strict=True):
            our_legal, our_to_act, our_returns = ours_traced
            assert our_legal == legal, (params, history)
            assert our_to_act == to_act, (params, history)
            assert our_returns == returns, (params, history)
        total += n
    assert total >= 10_000


def test_state_object_replays_like_pyspiel_with_default_parameters():
    rng = random.Random(3)
    spiel_game = pyspiel.load_game("oh_hell")
    ours = OhHellGame.from_pyspiel(spiel_game)
    assert ours.params == OhHellGame().params
    for _ in range(20):
        s, t = spiel_game.new_initial_state(), ours.new_initial_state()
        while not s.is_terminal():
            assert t.legal_actions() == s.legal_actions()
            assert t.current_player() == s.current_player()
            assert t.is_chance_node() == s.is_chance_node()
            a = rng.choice(s.legal_actions())
            s.apply_action(a)
            t.apply_action(a)
        assert t.is_terminal() and t.returns() == s.returns()
        assert t.history() == s.history()


@pytest.mark.parametrize(
    ("params", "needle"),
    [
        ({"players": 2}, "players"),
        ({"players": 8}, "players"),
        ({"num_suits": 0}, "num_suits"),
        ({"num_suits": 5}, "num_suits"),
        ({"num_cards_per_suit": 1}, "num_cards_per_suit"),
        ({"num_cards_per_suit": 14}, "num_cards_per_suit"),
        ({"num_tricks_fixed": 18}, "num_tricks_fixed"),
        ({"num_tricks_fixed": 0}, "num_tricks_fixed"),
        ({"players": 7, "num_suits": 1, "num_cards_per_suit": 5}, "too small"),
        ({"colour": 1}, "unknown oh_hell parameter"),
    ],
)
def test_invalid_parameters_raise_value_error_naming_the_problem(params, needle):
    with pytest.raises(ValueError, match=needle):
        OhHellGame(**params)


def test_illegal_action_raises_and_leaves_the_state_unchanged():
    game = OhHellGame(num_tricks_fixed=2)
    state = game.replay([2, 0])
    before = state.history()
    with pytest.raises(ValueError, match="not legal"):
        state.apply_action(99)
    assert state.history() == before
    with pytest.raises(ValueError, match="action 2 of the history"):
        game.replay([2, 0, 60])
    with pytest.raises(ValueError, match="history 1"):
        game.trace([[2, 0], [2, 0, 60]])
