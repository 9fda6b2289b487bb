"""Exact enumeration and reach: the paper's public-state sizes as OpenSpiel histories, agreement
with brute force through pyspiel, reach probabilities recomputed by replaying pyspiel, and the
exact policy-aware resample_from_infostate."""

import itertools
import math
import random
from collections import Counter

import numpy as np
import pyspiel
import pytest
from ttcg_states import paper_params, public_state_without_voids

from fogsearch.ttcg import (
    BiasPolicy,
    OhHellGame,
    SoftmaxPolicy,
    UniformPolicy,
    ZeroReachError,
    enumerate_deals,
    log_reach,
    observe,
    resample_from_infostate,
    resample_many_from_infostate,
)


@pytest.mark.parametrize(
    ("game", "tricks_played", "assignments", "histories"),
    [
        ((2, 4, 2), 1, 24, 192),
        ((3, 4, 3), 2, 60, 12_960),
        ((3, 4, 3), 1, 2_520, 544_320),
    ],
)
def test_paper_public_states_count_as_openspiel_histories(
    game, tricks_played, assignments, histories
):
    _, _, obs = public_state_without_voids(paper_params(*game), tricks_played, seed=1)
    deals, reach = enumerate_deals(obs)
    assert deals.shape[0] == assignments
    assert deals.shape[0] * obs.orders_per_assignment == histories
    assert np.all(np.isfinite(reach))


def _pyspiel_brute_force(game, history, num_tricks):
    """Every deal order (with the true trump card and public actions) that pyspiel accepts as a
    legal history: all arrangements of the other cards into the dealing slots."""
    players = game.num_players()
    deal_end = 2 + players * num_tricks
    trump, public = history[deal_end], history[deal_end + 1 :]
    params = game.get_parameters()
    cards = [c for c in range(params["num_suits"] * params["num_cards_per_suit"]) if c != trump]
    found = set()
    for slots in itertools.permutations(cards, players * num_tricks):
        state = game.new_initial_state()
        candidate = [*history[:2], *slots, trump, *public]
        ok = True
        for a in candidate:
            if a not in state.legal_actions():
                ok = False
                break
            state.apply_action(a)
        if ok:
            found.add(tuple(candidate))
    return found


def _histories_from_assignments(obs, deals):
    players, tricks = obs.constraints.num_players, obs.num_tricks
    out = set()
    for deal in deals:
        hands = [[c for c, o in enumerate(deal) if o == p] for p in range(players)]
        for orders in itertools.product(*(itertools.permutations(h) for h in hands)):
            dealt = [orders[i % players][i // players] for i in range(players * tricks)]
            out.add((*obs.actions[:2], *dealt, obs.trump_card, *(a for _, a in obs.events)))
    return out


def test_192_history_state_matches_pyspiel_brute_force_over_all_deal_orders():
    game, state, obs = public_state_without_voids(paper_params(2, 4, 2), 1, seed=3)
    deals, _ = enumerate_deals(obs)
    ours = _histories_from_assignments(obs, deals)
    assert len(ours) == 192
    assert ours == _pyspiel_brute_force(game, state.history(), obs.num_tricks)


def _utility_policy(beta):
    """A Python callable policy: softmax over utilities hashed from the information state."""

    def policy(player, info, legal):
        key = (player, tuple(info["dealt_hand"]), info["trump_card"], tuple(info["public_actions"]))
        u = [(hash((key, a)) % 1009) / 1009 for a in legal]
        w = [math.exp(beta * x) for x in u]
        return [x / sum(w) for x in w]

    return policy


def _pyspiel_log_reach(game, history, policy):
    """Reach of a full history by replaying it through pyspiel, asking `policy` at each decision."""
    players = game.num_players()
    state = game.new_initial_state()
    num_tricks = history[0]
    deal = history[2 : 2 + players * num_tricks]
    public, log_p = [], 0.0
    for a in history:
        if not state.is_chance_node():
            p = state.current_player()
            dealt = sorted(c for i, c in enumerate(deal) if i % players == p)
            info = {
                "num_tricks": num_tricks,
                "dealer": history[1],
                "trump_card": history[2 + players * num_tricks],
                "dealt_hand": dealt,
                "current_hand": [c for c in dealt if c not in public],
                "public_actions": list(public),
            }
            legal = state.legal_actions()
            log_p += math.log(policy(p, info, legal)[legal.index(a)])
            public.append(a)
        state.apply_action(a)
    return log_p


def test_reach_of_every_deal_matches_a_pyspiel_replay():
    game, _, obs = public_state_without_voids(paper_params(3, 4, 3), 2, seed=5)
    uniform = lambda p, info, legal: [1 / len(legal)] * len(legal)  # noqa: E731
    for policy, builtin in [(uniform, UniformPolicy()), (_utility_policy(5.0), None)]:
        deals, reach = enumerate_deals(obs, policy=builtin or policy)
        assert deals.shape[0] == 60
        for deal, r in zip(deals, reach, strict=True):
            history = next(iter(_histories_from_assignments(obs, [deal])))
            assert r == pytest.approx(_pyspiel_log_reach(game, history, policy), abs=1e-9)
    # Built-in policies: log_reach on given deals agrees with the enumeration's.
    for policy in [BiasPolicy(seed=2, bias=0.8), SoftmaxPolicy(seed=2, beta=10.0)]:
        deals, reach = enumerate_deals(obs, policy=policy)
        assert np.allclose(log_reach(obs, deals, policy), reach)
        assert reach.std() > 0.1  # the policy is not uniform over these deals


def _owner_key(state, players):
    history = state.history()
    tricks = history[0]
    owners = {}
    for i, c in enumerate(history[2 : 2 + players * tricks]):
        owners[c] = i % players
    return tuple(sorted(owners.items()))


@pytest.mark.parametrize(("policy_name", "n"), [("uniform", 6000), ("callable_beta5", 2000)])
def test_resample_from_infostate_keeps_the_infostate_and_matches_the_exact_range(policy_name, n):
    params = paper_params(3, 4, 3)
    game, state, obs = public_state_without_voids(params, 1, seed=8)
    player = 1
    policy = None if policy_name == "uniform" else _utility_policy(5.0)
    python_policy = policy or (lambda p, info, legal: [1 / len(legal)] * len(legal))
    info_obs = observe(OhHellGame(**params), state.history(), observer=player)
    deals, _ = enumerate_deals(info_obs)
    expected = {}
    for deal in deals:
        history = next(iter(_histories_from_assignments(info_obs, [deal])))
        replay = game.new_initial_state()
        for a in history:
            replay.apply_action(a)
        expected[_owner_key(replay, 3), tuple(int(c) for c in np.nonzero(deal == 3)[0])] = math.exp(
            _pyspiel_log_reach(game, history, python_policy)
        )
    z = sum(expected.values())
    expected = {k: v / z for k, v in expected.items()}
    assert len(expected) == 90  # p1 knows its 2 cards: 6 hidden cards, 2 each to p0, p2, the pile

    infostate = state.information_state_string(player)
    before = state.history()
    counts = Counter()
    for seed in range(n):
        new = resample_from_infostate(state, player, seed, policy=policy)
        assert new.information_state_string(player) == infostate
        dealt = {c for c, _ in _owner_key(new, 3)}
        undealt = tuple(c for c in range(12) if c not in dealt and c != obs.trump_card)
        counts[_owner_key(new, 3), undealt] += 1
    assert state.history() == before
    assert set(counts) <= set(expected)
    chi2 = sum((counts[k] - n * p) ** 2 / (n * p) for k, p in expected.items())
    # 89 degrees of freedom: mean 89, sd 13.3; fixed seeds make this deterministic.
    assert chi2 < 89 + 5 * 13.3, chi2
    tvd = 0.5 * sum(abs(counts[k] / n - p) for k, p in expected.items())
    assert tvd < 2 * math.sqrt(90 / (2 * math.pi * n)), tvd


def test_resample_refuses_states_before_the_deal_and_too_large_ranges():
    game = pyspiel.load_game("oh_hell", paper_params(3, 4, 3))
    state = game.new_initial_state()
    state.apply_action(3)
    with pytest.raises(ValueError, match="whole deal"):
        resample_from_infostate(state, 0, seed=1)
    _, big, _ = public_state_without_voids(paper_params(3, 4, 3), 0, seed=2)
    with pytest.raises(NotImplementedError, match="limited to 10"):
        resample_from_infostate(big, 0, seed=1, method="exact", limit=10)
    with pytest.raises(ValueError, match="method"):
        resample_from_infostate(big, 0, seed=1, method="best")


def test_bad_policies_raise_clear_errors():
    _, _, obs = public_state_without_voids(paper_params(2, 4, 2), 1, seed=3)
    with pytest.raises(TypeError, match="policy must be"):
        enumerate_deals(obs, policy=3)
    with pytest.raises(ValueError, match="summing to 1"):
        enumerate_deals(obs, policy=lambda p, info, legal: [0.9] * len(legal))
    with pytest.raises(ZeroDivisionError):
        enumerate_deals(obs, policy=lambda p, info, legal: [1 / 0])
    with pytest.raises(ValueError, match="bias"):
        BiasPolicy(seed=1, bias=1.5)
    with pytest.raises(ValueError, match="beta"):
        SoftmaxPolicy(seed=1, beta=-1.0)


def test_resample_falls_back_to_gibbs_on_large_states_keeping_the_infostate():
    params = {"players": 4, "num_suits": 4, "num_cards_per_suit": 13, "num_tricks_fixed": 8}
    game = pyspiel.load_game("oh_hell", params)
    rng = random.Random(12)
    state = game.new_initial_state()
    public = 0
    while public < 4 + 4 * 3 + 2:  # bids, three tricks, two cards of the fourth
        if not state.is_chance_node():
            public += 1
        state.apply_action(rng.choice(state.legal_actions()))
    with pytest.raises(NotImplementedError, match="limited to"):
        resample_from_infostate(state, 2, seed=0, method="exact")
    infostate = state.information_state_string(2)
    hands = set()
    for seed in range(15):
        new = resample_from_infostate(state, 2, seed, policy=SoftmaxPolicy(seed=1, beta=2.0))
        assert new.information_state_string(2) == infostate
        hands.add(tuple(new.history()))
    assert len(hands) == 15


def test_gibbs_resampling_matches_the_exact_range_on_a_small_state():
    params = paper_params(3, 4, 3)
    game, state, _ = public_state_without_voids(params, 1, seed=8)
    n = 1500
    gibbs_deals = Counter()
    exact_deals = Counter()
    for seed in range(n):
        g = resample_from_infostate(state, 1, seed, method="gibbs", burn_in=100)
        e = resample_from_infostate(state, 1, seed, method="exact")
        gibbs_deals[_owner_key(g, 3)] += 1
        exact_deals[_owner_key(e, 3)] += 1
        assert g.information_state_string(1) == state.information_state_string(1)
    keys = set(gibbs_deals) | set(exact_deals)
    tvd = 0.5 * sum(abs(gibbs_deals[k] - exact_deals[k]) / n for k in keys)
    # Two independent samples of 1500 over 90 equiprobable deals differ by about 0.17 in TVD.
    assert tvd < 0.25, tvd


def test_batched_resampling_matches_the_exact_range_and_keeps_the_infostate():
    game, state, obs = public_state_without_voids(paper_params(3, 4, 3), 1, seed=8)
    info_obs = observe(OhHellGame(**paper_params(3, 4, 3)), state.history(), observer=0)
    deals, log_r = enumerate_deals(info_obs, SoftmaxPolicy(seed=4, beta=5.0))
    p = np.exp(log_r - log_r.max())
    exact = {}
    for deal, q in zip(deals, p / p.sum(), strict=True):
        history = next(iter(_histories_from_assignments(info_obs, [deal])))
        replay = game.new_initial_state()
        for a in history:
            replay.apply_action(a)
        exact[_owner_key(replay, 3)] = q
    n = 8000
    states = resample_many_from_infostate(state, 0, n, seed=5, policy=SoftmaxPolicy(4, 5.0))
    infostate = state.information_state_string(0)
    assert all(s.information_state_string(0) == infostate for s in states)
    counts = Counter(_owner_key(s, 3) for s in states)
    assert set(counts) <= set(exact)
    tvd = 0.5 * sum(abs(counts[k] / n - q) for k, q in exact.items())
    assert tvd < 2 * math.sqrt(len(exact) / (2 * math.pi * n)), tvd
    bid_of_2 = next(a for p, a in obs.events if p == 2)

    def never_bids_as_observed(player, info, legal):
        if player == 2 and bid_of_2 in legal:
            return [0.0 if a == bid_of_2 else 1 / (len(legal) - 1) for a in legal]
        return [1 / len(legal)] * len(legal)

    with pytest.raises(ZeroReachError, match="probability zero"):
        resample_many_from_infostate(state, 0, 3, seed=1, policy=never_bids_as_observed)
