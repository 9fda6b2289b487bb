"""MCMC diagnostics over ``(chain, draw)`` arrays: rank-normalised split R-hat and bulk ESS.

Plain functions over arrays, as ArviZ offers them, following Vehtari, Gelman, Simpson, Carpenter and
Bürkner (2021), "Rank-normalization, folding, and localization: an improved R-hat for assessing
convergence of MCMC". Chains are split in half (so a drifting chain disagrees with itself), draws
are replaced by normal scores of their pooled ranks (so heavy tails and discrete statistics behave),
and the effective sample size uses Geyer's initial monotone sequence over autocorrelations pooled
across chains.
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np

__all__ = ["acceptance_rate", "ess_bulk", "rhat"]

_STANDARD_NORMAL = NormalDist()


def _as_chains(x: np.ndarray) -> np.ndarray:
    a = np.asarray(x, dtype=float)
    if a.ndim == 1:
        a = a[np.newaxis, :]
    if a.ndim != 2:
        raise ValueError(f"diagnostics take a (chain, draw) array, got shape {a.shape}")
    if a.shape[1] < 4:
        raise ValueError(f"need at least 4 draws per chain, got {a.shape[1]}")
    if not np.all(np.isfinite(a)):
        raise ValueError("draws must be finite")
    return a


def _split_chains(a: np.ndarray) -> np.ndarray:
    """Each chain's first and last halves as separate chains (the middle draw of an odd chain is
    dropped)."""
    half = a.shape[1] // 2
    return np.concatenate([a[:, :half], a[:, -half:]], axis=0)


def _average_ranks(a: np.ndarray) -> np.ndarray:
    """1-based ranks over the whole array, ties sharing their average rank."""
    flat = a.ravel()
    order = np.argsort(flat, kind="mergesort")
    ordered = flat[order]
    starts_group = np.r_[True, ordered[1:] != ordered[:-1]]
    group = np.cumsum(starts_group) - 1
    first = np.flatnonzero(starts_group)
    last = np.r_[first[1:], flat.size] - 1
    ranks = np.empty(flat.size)
    ranks[order] = ((first + last) / 2.0 + 1.0)[group]
    return ranks.reshape(a.shape)


def _normal_scores(a: np.ndarray) -> np.ndarray:
    """Rank normalisation: Blom's fractional ranks (r - 3/8) / (S + 1/4) mapped through the
    standard normal quantile."""
    ranks = _average_ranks(a)
    fractional = (ranks - 0.375) / (a.size + 0.25)
    values, inverse = np.unique(fractional, return_inverse=True)
    quantiles = np.array([_STANDARD_NORMAL.inv_cdf(p) for p in values])
    return quantiles[inverse].reshape(a.shape)


def _potential_scale_reduction(a: np.ndarray) -> float:
    n = a.shape[1]
    within = np.mean(np.var(a, axis=1, ddof=1))
    between = n * np.var(np.mean(a, axis=1), ddof=1)
    if within == 0.0:
        return float("nan")
    return float(np.sqrt((between / within + n - 1) / n))


def rhat(x: np.ndarray) -> float:
    """Rank-normalised split R-hat of draws shaped ``(chain, draw)``: the larger of the bulk R-hat
    (normal scores of the split chains) and the tail R-hat (the same on draws folded about their
    median). Values below 1.01 are the usual bar for mixed chains."""
    a = _as_chains(x)
    bulk = _potential_scale_reduction(_normal_scores(_split_chains(a)))
    folded = np.abs(a - np.median(a))
    tail = _potential_scale_reduction(_normal_scores(_split_chains(folded)))
    return float(max(bulk, tail))


def _autocovariance(a: np.ndarray) -> np.ndarray:
    """Biased autocovariance of each chain at every lag, by FFT."""
    n = a.shape[1]
    centred = a - a.mean(axis=1, keepdims=True)
    size = 1 << (2 * n - 1).bit_length()
    spectrum = np.fft.rfft(centred, n=size, axis=1)
    return np.fft.irfft(spectrum * np.conjugate(spectrum), n=size, axis=1)[:, :n] / n


def _effective_sample_size(a: np.ndarray) -> float:
    chains, n = a.shape
    acov = _autocovariance(a)
    mean_var = np.mean(acov[:, 0]) * n / (n - 1.0)
    var_plus = mean_var * (n - 1.0) / n
    if chains > 1:
        var_plus += np.var(a.mean(axis=1), ddof=1)
    if var_plus == 0.0:
        return float("nan")

    def rho(lag: int) -> float:
        return 1.0 - (mean_var - np.mean(acov[:, lag])) / var_plus

    # Geyer's initial positive sequence: sum pairs of autocorrelations while their sum is positive.
    rho_hat = np.zeros(n)
    rho_hat[0] = 1.0
    even, odd = 1.0, rho(1)
    rho_hat[1] = odd
    t = 1
    while t < n - 3 and even + odd > 0.0:
        even, odd = rho(t + 1), rho(t + 2)
        if even + odd >= 0.0:
            rho_hat[t + 1], rho_hat[t + 2] = even, odd
        t += 2
    last = t - 2
    if even > 0.0:
        rho_hat[last + 1] = even
    # Geyer's initial monotone sequence: pair sums may not increase.
    t = 1
    while t <= last - 2:
        if rho_hat[t + 1] + rho_hat[t + 2] > rho_hat[t - 1] + rho_hat[t]:
            rho_hat[t + 1] = rho_hat[t + 2] = (rho_hat[t - 1] + rho_hat[t]) / 2.0
        t += 2
    draws = chains * n
    tau = -1.0 + 2.0 * np.sum(rho_hat[: last + 1]) + np.sum(rho_hat[last + 1 : last + 2])
    tau = max(tau, 1.0 / np.log10(draws))
    return float(draws / tau)


def ess_bulk(x: np.ndarray) -> float:
    """Bulk effective sample size of draws shaped ``(chain, draw)``: the ESS of the normal scores
    of the split chains. About ``chains * draws`` for independent draws."""
    return _effective_sample_size(_normal_scores(_split_chains(_as_chains(x))))


def acceptance_rate(accepted: np.ndarray, transitions: np.ndarray) -> float:
    """Pooled Metropolis-Hastings acceptance rate of chains."""
    total = int(np.sum(transitions))
    if total == 0:
        raise ValueError("no transitions were run")
    return float(np.sum(accepted)) / total
