"""Joint Policy Search through the Python API: Theorem 1 (the information-set decomposition)
against naive recomputation on every game of Table 1, Theorem 2 (JPS never lowers the value),
one iteration against brute-force search, sample-based JPS, and many seeds in parallel."""

from __future__ import annotations

import numpy as np
import pytest

from fogsearch.jps import (
    JpsError,
    Policy,
    brute_force_step,
    cfr,
    expected_reward,
    jps,
    jps_step,
    load_game,
    policy_change_density,
    run_seeds,
    run_seeds_many,
    start_infosets,
    value_change,
)

GAMES = [
    "comm:l=3",
    "comm:l=5",
    "comm:l=6",
    "comm:l=7",
    "mini_hanabi",
    "simple_bidding:n=4",
    "simple_bidding:n=8",
    "simple_bidding:n=16",
    "mini_bridge:n=3",
    "mini_bridge:n=4",
    "mini_bridge:n=5",
]


def _changed(policy: Policy, count: int, rng: np.random.Generator) -> Policy:
    """``policy`` with ``count`` random information sets given new random policies, half of
    them pure (the one-hot changes JPS makes) and half mixed."""
    probs = policy.probs.copy()
    infosets = policy.game.infosets()
    for k, i in enumerate(rng.choice(len(infosets), size=count, replace=False)):
        _, _, offset, n = infosets[i]
        new = np.zeros(n)
        if k % 2:
            new[rng.integers(n)] = 1.0
        else:
            new = rng.random(n)
            new /= new.sum()
        probs[offset : offset + n] = new
    return Policy(policy.game, probs)


@pytest.mark.parametrize("name", GAMES)
def test_theorem_1_value_change_equals_naive_recomputation(name):
    game = load_game(name)
    rng = np.random.default_rng(17)
    for trial in range(3):
        old = Policy.random(game, seed=trial)
        new = _changed(old, [1, 4, game.num_decision_infosets // 20 + 1][trial], rng)
        predicted, terms = value_change(game, old, new)
        naive = expected_reward(game, new) - expected_reward(game, old)
        assert predicted == pytest.approx(naive, abs=1e-9 * (1 + abs(naive)))
        assert sum(terms.values()) == pytest.approx(predicted, abs=1e-12)


def test_the_density_vanishes_where_nothing_changed():
    game = load_game("mini_bridge:n=3")
    old = Policy.random(game, seed=3)
    new = _changed(old, 10, np.random.default_rng(1))
    rho = policy_change_density(game, old, new)
    changed = {i for i in value_change(game, old, new)[1]}
    infoset = game.arrays()["infoset"]
    assert np.all(rho[~np.isin(infoset, list(changed))] == 0.0)
    assert rho.sum() == pytest.approx(expected_reward(game, new) - expected_reward(game, old))


@pytest.mark.parametrize("name", GAMES)
def test_theorem_2_jps_never_lowers_the_value(name):
    game = load_game(name)
    start = Policy.random(game, seed=4)
    big = game.num_states > 100_000
    out = jps(game, start, iterations=2 if big else 20, seed=1)
    assert out.initial_value == pytest.approx(expected_reward(game, start))
    steps = np.diff(out.history)
    assert np.all(steps >= 0), f"{name}: a step lost value: {steps.min()}"
    gains = np.where(np.array(out.predicted) > 1e-10, out.predicted, 0.0)
    np.testing.assert_allclose(steps, gains, atol=1e-9)
    assert out.value == pytest.approx(expected_reward(game, out.policy), abs=1e-12)
    assert out.improvements >= 1


@pytest.mark.parametrize(
    "name, depth, at",
    [
        ("comm:l=3", None, None),
        ("mini_hanabi", None, None),
        ("simple_bidding:n=4", None, None),
        ("simple_bidding:n=8", 3, 2),
        ("mini_bridge:n=3", 3, 1),
    ],
)
def test_one_jps_iteration_finds_what_brute_force_search_finds(name, depth, at):
    game = load_game(name)
    policy = cfr(game, 50, seed=2).current
    starts = start_infosets(game, at)
    fast = jps_step(game, policy, starts, depth)
    slow = brute_force_step(game, policy, starts, depth)
    assert fast.gain == pytest.approx(slow.gain, abs=1e-10)
    assert slow.stats["evaluations"] > 10 * fast.stats["evaluations"]
    better = policy.probs.copy()
    for i, a in fast.chain:
        _, _, offset, n = game.infosets()[i]
        better[offset : offset + n] = np.eye(n)[a]
    assert expected_reward(game, better) - expected_reward(game, policy) == pytest.approx(
        fast.gain, abs=1e-10
    )


def test_sample_based_jps_reports_its_best_iterate():
    game = load_game("mini_hanabi")
    start = cfr(game, 1000, seed=5).current
    out = jps(game, start, samples=1, iterations=100, seed=3)
    assert out.iterations == 100
    assert out.value == max(out.history)
    assert out.value == pytest.approx(expected_reward(game, out.policy))
    again = jps(game, start, samples=1, iterations=100, seed=3)
    assert again.history == out.history


def test_seeds_do_not_depend_on_the_thread_count_and_share_their_start():
    kwargs = dict(init="cfr200", seeds=6, first_seed=10)
    one = run_seeds("mini_bridge:n=3", threads=1, **kwargs)
    two = run_seeds("mini_bridge:n=3", threads=2, **kwargs)
    np.testing.assert_array_equal(one.values, two.values)
    np.testing.assert_array_equal(one.seeds, np.arange(10, 16))
    assert np.all(one.values >= one.start_values)
    raw, pure, sampled = run_seeds_many(
        "simple_bidding:n=4",
        "cfr1k",
        4,
        [{}, {"purify_start": True}, {"samples": 2, "iterations": 30}],
        threads=2,
    )
    np.testing.assert_array_equal(pure.start_values, raw.init_values)  # CFR1k, purified
    np.testing.assert_array_equal(sampled.start_values, raw.start_values)  # the same CFR run
    assert np.all(sampled.iterations == 30)
    summary = raw.summary()
    assert set(summary) == {"mean", "best", "states", "infosets", "seconds_per_iteration"}
    assert summary["best"] == raw.values.max() and summary["states"] == 241


def test_bad_requests_raise_jps_errors():
    game = load_game("mini_hanabi")
    with pytest.raises(JpsError, match="needs 24 action probabilities"):
        expected_reward(game, np.ones(3))
    with pytest.raises(JpsError, match="sum to 1"):
        expected_reward(game, np.full(24, 0.5))
    with pytest.raises(JpsError, match="belongs to comm:l=3"):
        expected_reward(game, Policy.uniform(load_game("comm:l=3")))
    with pytest.raises(JpsError, match="jps iterations must be between 1 and 100000"):
        jps(game, Policy.uniform(game), iterations=0)
    with pytest.raises(JpsError, match="samples per information set"):
        jps(game, Policy.uniform(game), samples=0)
    with pytest.raises(JpsError, match="init must be 'random' or 'cfr<iterations>'"):
        run_seeds(game, "cfr", 2)
    with pytest.raises(JpsError, match="threads must be between 1 and 256"):
        run_seeds(game, "uniform", 2, threads=0)
    with pytest.raises(JpsError, match="does not exist"):
        jps_step(game, Policy.uniform(game), [99])
    with pytest.raises(KeyError, match="no information set"):
        Policy.uniform(game).at("p2:d0")


def test_init_random_is_the_new_name_of_the_deprecated_uniform():
    # JPS's "uniform" start was a random policy (unlike CFR's start="uniform"): now "random", the
    # old spelling kept with a DeprecationWarning because the CLI offered it.
    game = load_game("comm:l=3")
    new = run_seeds(game, "random", 3, threads=1)
    with pytest.warns(DeprecationWarning, match="call it 'random'"):
        old = run_seeds(game, "uniform", 3, threads=1)
    np.testing.assert_array_equal(new.init_values, old.init_values)
    np.testing.assert_array_equal(new.values, old.values)
