"""The searching player: deterministic under a node budget whatever the thread count, values
averaged over deals with the sampler's weights, bounded settings, and strength against Mr. Random
on a handful of duplicate deals (the measured WPG table is bench/ttcg_gongzhu_wpg.py)."""

import random

import pytest

from fogsearch import FogsearchError
from fogsearch._core import ttcg as native
from fogsearch.ttcg import LimitExceededError
from fogsearch.ttcg.gongzhu import deal, new_state


def midgame(seed: int, plays: int = 21):
    rng = random.Random(seed)
    state = new_state(deal(seed))
    while len(state.history()) < 52 + plays:
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def oh_hell_dealt(tricks: int, seed: int):
    """Oh Hell's parameters with ``tricks`` fixed, and a state just after a random deal."""
    params = {"players": 3, "num_suits": 4, "num_cards_per_suit": 13, "num_tricks_fixed": tricks}
    state = native.OhHellState(params)
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    return params, state


@pytest.mark.parametrize("sampler", ["us", "ss+iec", "pairs"])
def test_a_move_under_a_node_budget_does_not_depend_on_the_thread_count(sampler):
    state = midgame(3)
    moves = {}
    for threads in (1, 2):
        player = native.Player.search(sampler=sampler, deals=6, iterations=150, threads=threads)
        moves[threads] = player.explain(state, seed=11)
    assert moves[1] == moves[2]
    explained = moves[1]
    legal = state.legal_actions()
    assert [a for a, _ in explained["values"]] == legal
    best = max(explained["values"], key=lambda av: av[1])
    assert explained["action"] == best[0] and explained["action"] in legal
    assert explained["iterations"] == explained["deals"] * 150
    assert 1 <= explained["effective_deals"] <= explained["deals"]


def test_the_shared_tree_search_is_seeded_and_plays_legal_moves_in_oh_hell():
    params, state = oh_hell_dealt(tricks=4, seed=5)
    player = native.Player.search(game="oh_hell", params=params, sampler="gibbs", deals=8,
                                  iterations=40, threads=1, shared_tree=True)  # fmt: skip
    first = player.explain(state, seed=3)
    assert player.explain(state, seed=3) == first
    assert first["iterations"] == 8 * 40
    while not state.is_terminal():
        a = player.act(state, seed=len(state.history()))
        assert a in state.legal_actions()
        state.apply_action(a)


def test_the_searching_player_plays_legal_moves_in_oh_hell_bids_included():
    params, state = oh_hell_dealt(tricks=3, seed=2)
    player = native.Player.search(game="oh_hell", params=params, sampler="gibbs", deals=4,
                                  iterations=50, threads=1)  # fmt: skip
    while not state.is_terminal():
        a = player.act(state, seed=len(state.history()))
        assert a in state.legal_actions()
        state.apply_action(a)


def test_oh_hells_default_is_one_information_set_tree_over_many_deals():
    params, state = oh_hell_dealt(tricks=3, seed=6)
    default = native.Player.search(game="oh_hell", params=params, iterations=2, threads=1)
    shared = native.Player.search(game="oh_hell", params=params, deals=256, iterations=2,
                                  threads=1, shared_tree=True)  # fmt: skip
    explained = default.explain(state, seed=4)
    assert explained["deals"] == 256 and explained["iterations"] == 512
    assert shared.explain(state, seed=4) == explained
    per_deal = native.Player.search(game="oh_hell", params=params, deals=256, iterations=2,
                                    threads=1, shared_tree=False)  # fmt: skip
    assert per_deal.explain(state, seed=4) != explained


def test_search_beats_random_on_duplicate_deals():
    """Eight duplicate deals are enough to see a searching team beat a random one by far: the
    searching side's mean return is above 100 points (Mr. If's edge over Random is ~200)."""
    search = native.Player.search(sampler="us", deals=4, iterations=100, threads=1)
    rnd = native.Player.random()
    total = 0.0
    for d in range(8):
        for swap in (False, True):
            seats = [search, rnd, search, rnd] if not swap else [rnd, search, rnd, search]
            state = new_state(deal(100 + d))
            _, _, returns = native.play_deal(state, seats, seed=d)
            total += returns[1 if swap else 0]
    assert total / 16 > 100


@pytest.mark.parametrize(
    ("settings", "error", "needle"),
    [
        ({"deals": 0}, LimitExceededError, "deals"),
        ({"deals": 10**6}, LimitExceededError, "deals"),
        ({"iterations": 0}, LimitExceededError, "iterations"),
        ({"iterations": 2**40}, LimitExceededError, "iterations"),
        ({"seconds": -1.0}, LimitExceededError, "seconds"),
        ({"seconds": float("nan")}, LimitExceededError, "seconds"),
        ({"seconds": 1e9}, LimitExceededError, "seconds"),
        ({"threads": 0}, LimitExceededError, "threads"),
        ({"threads": 10**6}, LimitExceededError, "threads"),
        ({"exploration": float("inf")}, FogsearchError, "exploration"),
        ({"sampler": "oracle"}, FogsearchError, "sampler must be"),
        ({"chains": 0, "sampler": "gibbs"}, FogsearchError, "chain"),
        ({"game": "bridge"}, ValueError, "game must be"),
    ],
)
def test_search_settings_are_bounded_where_they_enter(settings, error, needle):
    with pytest.raises(error, match=needle):
        native.Player.search(**settings)


def test_rule_based_players_know_their_games():
    params = {"players": 3, "num_suits": 2, "num_cards_per_suit": 4, "num_tricks_fixed": 2}
    state = native.OhHellState(params)
    for a in [2, 0, 0, 1, 2, 3, 4, 5, 6]:
        state.apply_action(a)
    with pytest.raises(FogsearchError, match="Gongzhu only"):
        native.Player.greed().act(state, seed=0)
    assert native.Player.random().act(state, seed=0) in state.legal_actions()
    with pytest.raises(ValueError, match="being dealt"):
        native.Player.random().act(native.GongzhuState(), seed=0)
    with pytest.raises(TypeError, match="OhHellState or GongzhuState"):
        native.Player.random().act("not a state", seed=0)
