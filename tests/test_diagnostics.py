"""Diagnostics on synthetic chains whose answers are known (Vehtari et al. 2021 definitions)."""

import numpy as np
import pytest

from fogsearch.diagnostics import acceptance_rate, ess_bulk, rhat


def ar1_chains(phi: float, chains: int, draws: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    noise = rng.normal(size=(chains, draws)) * np.sqrt(1 - phi**2)
    x = np.empty((chains, draws))
    x[:, 0] = rng.normal(size=chains)
    for t in range(1, draws):
        x[:, t] = phi * x[:, t - 1] + noise[:, t]
    return x


def test_iid_normal_chains_have_rhat_near_one_and_ess_near_draws():
    x = np.random.default_rng(0).normal(size=(4, 2000))
    assert abs(rhat(x) - 1.0) < 0.01
    assert 0.85 * x.size < ess_bulk(x) < 1.15 * x.size


def test_shifted_chains_have_large_rhat():
    x = np.random.default_rng(1).normal(size=(4, 1000))
    x[0] += 3.0
    assert rhat(x) > 1.3


def test_a_drifting_chain_is_caught_by_splitting():
    # Every chain drifts the same way: whole-chain R-hat would not see it, split R-hat does.
    x = np.random.default_rng(2).normal(size=(4, 1000)) + np.linspace(0, 4, 1000)
    assert rhat(x) > 1.2


def test_scale_differences_are_caught_by_the_folded_tail_rhat():
    x = np.random.default_rng(3).normal(size=(4, 2000))
    x[0] *= 4.0
    assert rhat(x) > 1.05


@pytest.mark.parametrize("phi", [0.5, 0.9])
def test_ar1_chains_have_the_known_ess(phi):
    # ESS of a stationary AR(1) is n (1 - phi) / (1 + phi).
    x = ar1_chains(phi, chains=4, draws=20_000, seed=4)
    expected = x.size * (1 - phi) / (1 + phi)
    assert 0.8 * expected < ess_bulk(x) < 1.2 * expected


def test_diagnostics_are_invariant_to_monotone_transforms():
    x = ar1_chains(0.5, chains=4, draws=2000, seed=5)
    assert ess_bulk(x) == pytest.approx(ess_bulk(np.exp(x)))
    assert rhat(x) == pytest.approx(rhat(np.exp(x)))


def test_discrete_statistics_with_ties_are_handled():
    x = np.random.default_rng(6).integers(0, 3, size=(4, 1000)).astype(float)
    assert abs(rhat(x) - 1.0) < 0.01
    assert ess_bulk(x) > 0.8 * x.size


def test_bad_shapes_and_values_are_rejected():
    with pytest.raises(ValueError, match="chain, draw"):
        rhat(np.zeros((2, 3, 4)))
    with pytest.raises(ValueError, match="at least 4 draws"):
        ess_bulk(np.zeros((4, 2)))
    with pytest.raises(ValueError, match="finite"):
        rhat(np.array([[0.0, 1.0, np.nan, 2.0, 3.0]]))
    with pytest.raises(ValueError, match="no transitions"):
        acceptance_rate(np.zeros(2), np.zeros(2))


def test_acceptance_rate_pools_chains():
    assert acceptance_rate(np.array([1, 3]), np.array([10, 10])) == pytest.approx(0.2)
