"""Observation and max-flow construction (Lemma 2): constructed deals satisfy every constraint;
infeasible constraints raise InfeasibleConstraints naming the binding constraint; malformed
constraints raise ValueError; nothing the caller passed is changed."""

import dataclasses
import random

import pytest

from fogsearch import FogsearchError
from fogsearch.ttcg import InfeasibleConstraints, OhHellGame, construct_deal, observe


def _random_history(game, rng, public_actions):
    state = game.new_initial_state()
    done = 0
    while not state.is_terminal():
        if not state.is_chance_node():
            if done == public_actions:
                break
            done += 1
        state.apply_action(rng.choice(state.legal_actions()))
    return state.history()


def _true_owners(game, history, num_tricks):
    players = game.params["players"]
    cards = game.params["num_suits"] * game.params["num_cards_per_suit"]
    owner = [players] * cards
    deal = history[2 : 2 + players * num_tricks]
    for i, c in enumerate(deal):
        owner[c] = i % players
    owner[history[2 + players * num_tricks]] = players + 1
    return owner


def _is_consistent(c, assignment):
    counts = [0] * (c.num_players + 1)
    for card, owner in enumerate(assignment):
        owner = int(owner)
        if c.known_owner[card] >= 0:
            if owner != c.known_owner[card]:
                return False
            continue
        if owner > c.num_players:
            return False
        if owner < c.num_players and c.voids[owner][card % c.num_suits]:
            return False
        counts[owner] += 1
    return tuple(counts) == c.hidden_counts


def test_observation_records_hand_plays_voids_and_counts():
    # 3 players, C/D x 4 ranks (card = rank * 2 + suit), 2 tricks, dealer 2: p0 {C2, C4},
    # p1 {D2, D3}, p2 {C3, D4}, trump card 7 (D5); bids 1, 0, 0; trick 1: C4, D2 (p1 trumps), C3.
    game = OhHellGame(num_suits=2, num_cards_per_suit=4, num_tricks_fixed=2)
    history = [2, 2, 0, 1, 2, 4, 3, 5, 7, 9, 8, 8, 4, 1, 2]
    obs = observe(game, history, observer=2)
    c = obs.constraints
    assert c.known_owner[2] == 2 and c.known_owner[5] == 2  # p2's hand
    assert c.known_owner[4] == 0 and c.known_owner[1] == 1  # cards played
    assert c.known_owner[7] == 4  # trump card: owner code players + 1
    assert [i for i, o in enumerate(c.known_owner) if o < 0] == [0, 3, 6]
    assert c.hidden_counts == (1, 1, 0, 1)  # one card left in p0's and p1's hands, one undealt
    assert c.voids == ((False, False), (True, False), (False, False))  # p1 did not follow clubs
    assert obs.events == ((0, 9), (1, 8), (2, 8), (0, 4), (1, 1), (2, 2))
    assert (obs.num_tricks, obs.dealer, obs.trump_card, obs.orders_per_assignment) == (2, 2, 7, 8)
    public = observe(game, history).constraints
    assert public.known_owner[5] == -1 and public.hidden_counts == (1, 1, 1, 1)


def test_constructed_deals_satisfy_constraints_and_the_true_deal_does_too():
    rng = random.Random(1)
    for _ in range(300):
        players = rng.randint(3, 6)
        params = {
            "players": players,
            "num_suits": rng.randint(1, 4),
            "num_cards_per_suit": rng.randint(3, 13),
        }
        if params["num_suits"] * params["num_cards_per_suit"] <= players + 1:
            continue
        game = OhHellGame(**params)
        history = _random_history(game, rng, rng.randint(0, 40))
        observer = rng.choice([None, *range(players)])
        obs = observe(game, history, observer)
        deal = construct_deal(obs.constraints)
        assert deal.dtype.name == "uint8" and deal.shape == (len(obs.constraints.known_owner),)
        assert _is_consistent(obs.constraints, deal)
        assert _is_consistent(obs.constraints, _true_owners(game, history, obs.num_tricks))


def test_infeasible_constraints_name_the_binding_players_and_suits():
    game = OhHellGame(num_suits=3, num_cards_per_suit=4, num_tricks_fixed=3)
    history = _random_history(game, random.Random(4), 3)  # bids only: everyone hides 3 cards
    c = observe(game, history).constraints
    voids = (c.voids[0], (False, True, True), (False, True, True))
    bad = dataclasses.replace(c, voids=voids)
    snapshot = dataclasses.replace(bad)
    with pytest.raises(InfeasibleConstraints, match="players 1 and 2 need 6 hidden cards") as err:
        construct_deal(bad)
    assert "no deal is consistent" in str(err.value)
    assert "void in D, S" in str(err.value) and "of C remain" in str(err.value)
    assert isinstance(err.value, FogsearchError) and isinstance(err.value, ValueError)
    assert bad == snapshot
    # A single player void in every suit.
    lone = dataclasses.replace(c, voids=(c.voids[0], c.voids[1], (True, True, True)))
    with pytest.raises(InfeasibleConstraints, match="player 2 needs 3 hidden cards"):
        construct_deal(lone)


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        (lambda c: {"hidden_counts": (c.hidden_counts[0] + 1, *c.hidden_counts[1:])}, "sum to"),
        (lambda c: {"hidden_counts": c.hidden_counts[:-1]}, "hidden_counts needs"),
        (lambda c: {"known_owner": (9, *c.known_owner[1:])}, "owner code 9"),
        (lambda c: {"known_owner": (-5, *c.known_owner[1:])}, "known_owner"),
        (lambda c: {"known_owner": c.known_owner[:-1]}, "known_owner has"),
        (lambda c: {"voids": c.voids[:-1]}, "voids"),
        (lambda c: {"num_suits": 5}, "suits"),
    ],
)
def test_malformed_constraints_raise_value_error(change, needle):
    game = OhHellGame(num_suits=2, num_cards_per_suit=4, num_tricks_fixed=2)
    c = observe(game, _random_history(game, random.Random(2), 2), observer=0).constraints
    with pytest.raises(ValueError, match=needle):
        construct_deal(dataclasses.replace(c, **change(c)))


def test_observing_needs_a_complete_deal_and_a_valid_observer():
    game = OhHellGame(num_tricks_fixed=2)
    with pytest.raises(ValueError, match="whole deal"):
        observe(game, [2, 0, 5])
    history = _random_history(game, random.Random(0), 0)
    with pytest.raises(ValueError, match="observer"):
        observe(game, history, observer=3)
