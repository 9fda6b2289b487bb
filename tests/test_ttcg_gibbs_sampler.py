"""The TTCG Gibbs sampler through the Python API: reproducibility, constraints, convergence to the
exact joint range, diagnostics over chains, and clear errors on bad input."""

import numpy as np
import pyspiel
import pytest

from fogsearch import _core
from fogsearch.ttcg import JointRange, SoftmaxPolicy, ess_bulk, rhat


def random_state(params, tricks_played, seed, want_voids=False):
    """A pyspiel oh_hell state after `tricks_played` complete tricks of random play, retried until
    voids are (or are not) revealed, as requested."""
    game = pyspiel.load_game("oh_hell", params)
    rng = np.random.default_rng(seed)
    public_actions = 3 + 3 * tricks_played
    while True:
        state = game.new_initial_state()
        public = 0
        while public < public_actions:
            if not state.is_chance_node():
                public += 1
            state.apply_action(int(rng.choice(state.legal_actions())))
        voids = _core.ttcg.observe_ohhell(params, state.history(), None)["voids"]
        if any(any(row) for row in voids) == want_voids:
            return state


SMALL = {"players": 3, "num_suits": 2, "num_cards_per_suit": 4, "num_tricks_fixed": 2}
MEDIUM = {"players": 3, "num_suits": 3, "num_cards_per_suit": 4, "num_tricks_fixed": 3}


def tvd(draws, exact_deals, exact_log_reach):
    p = np.exp(exact_log_reach - exact_log_reach.max())
    p /= p.sum()
    index = {bytes(row): i for i, row in enumerate(exact_deals)}
    counts = np.zeros(len(p))
    for row in draws:
        counts[index[bytes(row)]] += 1
    return 0.5 * np.abs(counts / len(draws) - p).sum()


def test_same_seed_same_draws_and_different_seeds_differ():
    r = JointRange.from_pyspiel(random_state(MEDIUM, 1, seed=0))
    a = r.gibbs(4, 200, burn_in=5, thin=2, seed=7)
    b = r.gibbs(4, 200, burn_in=5, thin=2, seed=7)
    c = r.gibbs(4, 200, burn_in=5, thin=2, seed=8)
    assert np.array_equal(a.samples, b.samples)
    assert not np.array_equal(a.samples, c.samples)
    assert a.samples.shape == (4, 200, 12) and a.samples.dtype == np.uint8
    assert list(a.transitions) == [405] * 4
    assert 0.0 < a.acceptance_rate <= 1.0


KERNELS = ["ringswap", "pairs"]


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("beta", [0.0, 2.0, 5.0, 10.0])
def test_gibbs_reaches_the_tvd_of_exact_iid_samples(beta, kernel):
    r = JointRange.from_pyspiel(random_state(SMALL, 1, seed=1), policy=SoftmaxPolicy(3, beta))
    deals, log_reach = r.exact()
    assert len(deals) == 24  # the paper's 192-history state: 24 assignments x 2!^3 deal orders
    # Same n for both, each TVD averaged over 4 seeds so that the comparison is not one draw's luck.
    n = 8000
    gibbs = np.mean(
        [
            tvd(
                r.gibbs(4, n // 4, burn_in=20, thin=20, seed=s, kernel=kernel).flat(),
                deals,
                log_reach,
            )
            for s in range(4)
        ]
    )
    iid = np.mean([tvd(r.true_samples(n, seed=s), deals, log_reach) for s in range(4)])
    assert gibbs < 1.3 * iid


def test_chains_from_different_constructions_mix_by_rhat_and_ess():
    r = JointRange.from_pyspiel(random_state(MEDIUM, 1, seed=3), policy=SoftmaxPolicy(5, 5.0))
    draws = r.gibbs(4, 2000, burn_in=50, thin=5, seed=4)
    starts = r.starts(4, seed=4)
    assert len({bytes(s) for s in starts}) > 1
    # Statistic: how many hidden cards of suit 0 player 0 holds.
    deals, _ = r.exact()
    hidden = np.any(deals != deals[0], axis=0)
    suit0 = (np.arange(r.num_cards) % 3 == 0) & hidden
    stat = (draws.samples[:, :, suit0] == 0).sum(axis=2).astype(float)
    assert rhat(stat) < 1.01
    # Vehtari et al.'s bar for trusting R-hat and the mean: bulk ESS above 100 per chain.
    assert ess_bulk(stat) > 400


@pytest.mark.parametrize("kernel", KERNELS)
def test_constraints_hold_in_100000_samples_with_voids(kernel):
    """Every draw must satisfy the observation; a kernel that breaks it does so within a few
    transitions, so 100,000 draws (25,000 a chain) check it with room to spare."""
    state = random_state(MEDIUM, 2, seed=5, want_voids=True)
    r = JointRange.from_pyspiel(state, policy=SoftmaxPolicy(1, 2.0))
    obs = _core.ttcg.observe_ohhell(MEDIUM, state.history(), None)
    draws = r.gibbs(4, 25_000, burn_in=10, thin=1, seed=6, kernel=kernel).flat()
    assert len(draws) == 100_000
    # Independent vectorised check against the observation, not the sampler's own validator.
    known = np.array(obs["known_owner"])
    is_known = known >= 0
    assert np.all(draws[:, is_known] == known[is_known])
    suits = np.arange(len(known)) % obs["num_suits"]
    for player, row in enumerate(obs["voids"]):
        for suit, void in enumerate(row):
            if void:
                assert not np.any(draws[:, (suits == suit) & ~is_known] == player)
    for owner, count in enumerate(obs["hidden_counts"]):
        assert np.all((draws[:, ~is_known] == owner).sum(axis=1) == count)
    assert r.count_violations(draws[:1000]) == 0


def test_bad_input_raises_clear_errors():
    r = JointRange.from_pyspiel(random_state(MEDIUM, 1, seed=7))
    starts = r.starts(2, seed=0)
    bad = starts.copy()
    bad[1, :] = 0
    with pytest.raises(ValueError, match="start of chain 1"):
        r.gibbs(2, 10, starts=bad)
    with pytest.raises(ValueError, match="one column per card"):
        r.gibbs(2, 10, starts=starts[:, :5])
    with pytest.raises(ValueError, match="num_chains"):
        r.gibbs(3, 10, starts=starts)
    with pytest.raises(ValueError, match="thin"):
        r.gibbs(2, 10, thin=0)
    with pytest.raises(ValueError, match='kernel must be "ringswap" or "pairs"'):
        r.gibbs(2, 10, kernel="metropolis")
    with pytest.raises(ValueError, match="kernel must be"):
        r.transition_matrix(kernel="")
    with pytest.raises(ValueError):
        JointRange(MEDIUM, [0, 1, 2])  # not a complete deal
    # The range is unchanged and still samples after the failures.
    assert r.gibbs(2, 10, starts=starts).samples.shape == (2, 10, 12)


def test_a_python_callable_policy_drives_the_same_chain_as_the_builtin_it_mimics():
    state = random_state(MEDIUM, 1, seed=9)

    def uniform(player, info, legal_actions):
        return [1.0 / len(legal_actions)] * len(legal_actions)

    builtin = JointRange.from_pyspiel(state).gibbs(2, 100, burn_in=5, thin=2, seed=3)
    callable_ = JointRange.from_pyspiel(state, policy=uniform).gibbs(
        2, 100, burn_in=5, thin=2, seed=3
    )
    assert np.array_equal(builtin.samples, callable_.samples)


def test_a_callable_policy_error_reaches_python():
    def broken(player, info, legal_actions):
        raise RuntimeError("policy exploded")

    r = JointRange.from_pyspiel(random_state(MEDIUM, 1, seed=10), policy=broken)
    with pytest.raises(RuntimeError, match="policy exploded"):
        r.gibbs(1, 10)


def test_a_52_card_four_player_mid_game_samples_consistent_deals():
    params = {"players": 4, "num_suits": 4, "num_cards_per_suit": 13, "num_tricks_fixed": 12}
    state = random_state(params, 6, seed=11, want_voids=True)
    r = JointRange.from_pyspiel(state)
    draws = r.gibbs(2, 500, burn_in=10, seed=12)
    assert draws.samples.shape == (2, 500, 52)
    assert r.count_violations(draws.flat()) == 0
    # Each proposal re-deals every hidden card within a neighbouring table, so at 52 cards with
    # voids few proposals are accepted (about 2% here); the chain still moves.
    assert draws.acceptance_rate > 0.0
    assert len({bytes(d) for d in draws.flat()}) > 2
    # Pair blocks re-split 3 + 3 cards of two hands (voids respected) and move far more often.
    pairs = r.gibbs(2, 500, burn_in=10, seed=12, kernel="pairs")
    assert r.count_violations(pairs.flat()) == 0
    assert pairs.acceptance_rate > 5 * draws.acceptance_rate
    assert len({bytes(d) for d in pairs.flat()}) > 500


@pytest.mark.parametrize("kernel", KERNELS)
def test_the_exact_transition_matrix_is_the_chain_that_runs(kernel):
    r = JointRange.from_pyspiel(random_state(SMALL, 1, seed=1), policy=SoftmaxPolicy(3, 5.0))
    deals, log_reach, matrix = r.transition_matrix(kernel=kernel)
    exact_deals, exact_log_reach = r.exact()
    assert np.array_equal(deals, exact_deals) and np.allclose(log_reach, exact_log_reach)
    assert matrix.shape == (24, 24) and (matrix >= 0).all()
    assert np.allclose(matrix.sum(axis=1), 1.0, atol=1e-12)
    pi = np.exp(log_reach - log_reach.max())
    pi /= pi.sum()
    assert np.abs(pi @ matrix - pi).max() < 1e-12
    assert np.abs(pi[:, None] * matrix - (pi[:, None] * matrix).T).max() < 1e-12  # reversible
    # 100,000 chains from one deal, one transition each: the next states follow that deal's row.
    start = int(np.argmax(pi))  # the likeliest deal: its row is far from the two-step one
    chains = 100_000
    g = r.gibbs(chains, 1, seed=3, starts=np.repeat(deals[[start]], chains, axis=0), kernel=kernel)
    assert list(g.transitions[:3]) == [1, 1, 1]
    index = {bytes(row): i for i, row in enumerate(deals)}
    counts = np.bincount([index[bytes(row)] for row in g.flat()], minlength=len(deals))
    one_step = 0.5 * np.abs(counts / chains - matrix[start]).sum()
    two_steps = 0.5 * np.abs(counts / chains - (matrix @ matrix)[start]).sum()
    assert one_step < 0.02 < two_steps


def test_the_transition_matrix_refuses_more_deals_than_the_limit():
    r = JointRange.from_pyspiel(random_state(MEDIUM, 1, seed=0))
    with pytest.raises(NotImplementedError, match="limited to 100"):
        r.transition_matrix(limit=100)


@pytest.mark.slow
def test_pair_blocks_mix_faster_than_ringswap_on_a_peaked_range():
    """The reason the pairs kernel exists, read exactly from both matrices: on a 544,320-history
    state under policy bias 0.9 its second eigenvalue is much further from 1."""
    from fogsearch.ttcg import BiasPolicy

    r = JointRange.from_pyspiel(
        random_state(MEDIUM, 1, seed=2), policy=BiasPolicy(seed=3, bias=0.9)
    )
    gaps = {}
    for kernel in KERNELS:
        _, log_reach, matrix = r.transition_matrix(kernel=kernel)
        pi = np.exp(log_reach - log_reach.max())
        pi /= pi.sum()
        root = np.sqrt(pi)
        sym = root[:, None] * matrix / root[None, :]
        eigenvalues = np.linalg.eigvalsh((sym + sym.T) / 2)
        gaps[kernel] = 1 - eigenvalues[-2]
    assert len(log_reach) == 2520
    assert gaps["pairs"] > 3 * gaps["ringswap"], gaps
