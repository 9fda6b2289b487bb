"""Why the TTCG Gibbs sampler needs more than 20 burn-in transitions on peaked ranges: its exact
mixing, read from its exact transition matrix, against the errors measured in the value-estimation
task (bench/ttcg_value_estimation.py, same public states and policies).

For each public state, ``JointRange.transition_matrix`` gives the chain's one-step matrix P over
every consistent deal. P is reversible with respect to the exact range pi, so
S = diag(sqrt pi) P diag(1/sqrt pi) is symmetric and its eigenpairs (lambda_k, u_k) give, for the
deal value f (player 0's expected return) with a_k = u_k . (sqrt(pi) (f - V)):

- the stationary autocovariance at lag m: sum_k a_k^2 lambda_k^m, so the variance of the mean of
  n draws taken every t transitions is sum_k a_k^2 [n + 2 sum_{m<n} (n - m) lambda_k^{t m}] / n^2;
- the start's bias after s transitions from the uniform start mu0: sum_k c_k a_k lambda_k^s with
  c_k = (mu0 / sqrt(pi)) . u_k;
- the integrated autocorrelation time of f in transitions: sum_k a_k^2 (1 + lambda_k) /
  (1 - lambda_k) / Var(f); times the measured wall time of a transition, it is the time the chain
  takes per independent draw, the fair comparison between kernels whose transitions cost
  differently.

The predicted root-mean-square error of "gibbs b" (b burn-in transitions, then a draw every
max(b, 1)) is sqrt(bias^2 + variance), averaged over states as a mean square; "true" samples have
variance Var(f) / n. The measured column is the same estimator run by the value-estimation task
(root of the mean squared error over the states). Agreement means the sampler is exactly the
chain the matrix describes and its errors are the chain's mixing, not an implementation fault.

    python bench/ttcg_mixing.py --states 100
    python bench/ttcg_mixing.py --states 100 --kernels pairs   # the optional pair-block kernel
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from ttcg_value_estimation import (  # noqa: E402 - the value-estimation task's own states
    BURN_INS,
    KERNEL_ROWS,
    SAMPLE_SIZES,
    SIZES,
    add_state_arguments,
    exact_state,
    random_public_state,
    run_state,
)

from fogsearch.ttcg import BiasPolicy  # noqa: E402

NEEDED_RATIO = 1.2  # "tracks the true samples": within this factor of their RMSE at n = 1000


def spectral_mixing(p, matrix, values, value):
    """Eigenvalues, the value's coefficients a_k, and the uniform start's c_k (see above)."""
    root = np.sqrt(p)
    sym = root[:, None] * matrix / root[None, :]
    eigenvalues, vectors = np.linalg.eigh((sym + sym.T) / 2)
    a = vectors.T @ (root * (values - value))
    uniform = np.full(len(p), 1.0 / len(p))
    c = vectors.T @ (uniform / root)
    return eigenvalues, a, c


def _geometric_sums(rho, n):
    """For each ratio r: sum_{m=1}^{n-1} (n - m) r^m and sum_{i=1}^{n} r^i, in closed form; within
    1e-6 of r = 1, where the closed form cancels, their first-order expansions in 1 - r."""
    eps = 1 - rho
    near_one = np.abs(eps) < 1e-6
    safe = np.where(near_one, 0.5, rho)
    weighted = safe * (n * (1 - safe) - (1 - safe**n)) / (1 - safe) ** 2
    plain = safe * (1 - safe**n) / (1 - safe)
    return (
        np.where(near_one, n * (n - 1) / 2 - eps * n * (n * n - 1) / 6, weighted),
        np.where(near_one, n - eps * n * (n + 1) / 2, plain),
    )


def mean_variance(eigenvalues, a, thin, n):
    """Stationary variance of the mean of n draws taken every `thin` transitions."""
    weighted, _ = _geometric_sums(eigenvalues**thin, n)
    return float((a**2 * (n + 2 * weighted)).sum() / n**2)


def start_bias(eigenvalues, a, c, burn_in, thin, n):
    """Expected error of the mean of n draws (at burn_in + i * thin, i = 1..n) from the uniform
    start."""
    _, plain = _geometric_sums(eigenvalues**thin, n)
    return float((c * a * eigenvalues**burn_in) @ plain / n)


def integrated_time(eigenvalues, a):
    """Integrated autocorrelation time of the value, in transitions (1 = independent draws)."""
    keep = eigenvalues < 1 - 1e-12  # the stationary mode carries no variance of f - V
    var = (a[keep] ** 2).sum()
    return float((a[keep] ** 2 * (1 + eigenvalues[keep]) / (1 - eigenvalues[keep])).sum() / var)


def predicted_mse(eigenvalues, a, c, burn_in, n):
    thin = max(burn_in, 1)
    bias = start_bias(eigenvalues, a, c, burn_in, thin, n)
    return bias**2 + mean_variance(eigenvalues, a, thin, n)


def burn_in_needed(eigenvalues_a_c, n=1000, ratio=NEEDED_RATIO, limit=2000):
    """Smallest burn-in b whose predicted RMSE over the states is within `ratio` of the true
    samples' at n draws (doubling, then bisection)."""
    true_mse = np.mean([(a**2).sum() / n for _, a, _ in eigenvalues_a_c])

    def ok(b):
        mse = np.mean([predicted_mse(e, a, c, b, n) for e, a, c in eigenvalues_a_c])
        return np.sqrt(mse) <= ratio * np.sqrt(true_mse)

    high = 1
    while not ok(high):
        high *= 2
        if high > limit:
            return None
    low = high // 2
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if ok(mid) else (mid, high)
    return high


def seconds_per_transition(r, kernel, transitions=20_000):
    """Wall seconds per transition of one chain on this state (after a warm-up that fills the
    chain's neighbourhood cache), so that kernels can be compared per second, not per transition."""
    r.gibbs(1, 1, burn_in=999, kernel=kernel)
    t0 = time.perf_counter()
    r.gibbs(1, 1, burn_in=transitions - 1, kernel=kernel)
    return (time.perf_counter() - t0) / transitions


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    add_state_arguments(ap)
    args = ap.parse_args()
    kernels = args.kernels.split(",")
    if len(kernels) != 1:
        ap.error("--kernels: give one kernel (its exact matrix is read)")
    kernel = kernels[0]
    row = KERNEL_ROWS[kernel]
    rng = np.random.default_rng(args.seed)  # drawn in the value-estimation task's order
    summary = []
    for size in args.sizes.split(","):
        params, played = SIZES[size]
        t0 = time.perf_counter()
        spectra, measured, gaps, times, moving, costs = [], [], [], [], [], []
        for i in range(args.states):
            policy = BiasPolicy(seed=args.seed * 1000 + i, bias=args.bias)
            actions = random_public_state(params, played, rng)
            r, deals, p, values, value = exact_state(params, actions, policy)
            _, log_reach, matrix = r.transition_matrix(kernel=kernel)
            eigenvalues, a, c = spectral_mixing(p, matrix, values, value)
            spectra.append((eigenvalues, a, c))
            gaps.append(1 - np.sort(eigenvalues)[-2])
            times.append(integrated_time(eigenvalues, a))
            moving.append(float(p @ (1 - np.diag(matrix))))
            costs.append(seconds_per_transition(r, kernel))
            errors, *_ = run_state(
                params, actions, policy, seed=i, max_n=max(SAMPLE_SIZES), kernels=[kernel]
            )
            measured.append(errors)
        needed = burn_in_needed(spectra)
        drawn = np.array(times) * np.array(costs) * 1e6
        summary.append((size, len(p), gaps, times, moving, np.array(costs) * 1e6, drawn, needed))
        print(
            f"\n## {size} histories ({len(p)} assignments), {args.states} states, policy bias "
            f"{args.bias}, kernel {kernel}, {time.perf_counter() - t0:.1f} s"
        )
        print("RMSE over the states, measured (run) / predicted (exact chain):\n")
        print("| estimator | " + " | ".join(f"n={n}" for n in SAMPLE_SIZES) + " |")
        print("|---|" + "---|" * len(SAMPLE_SIZES))
        rows = {"true": None, **{f"{row} {b}": b for b in BURN_INS}}
        for name, b in rows.items():
            cells = []
            for k, n in enumerate(SAMPLE_SIZES):
                run = np.sqrt(np.mean([e[name][k] ** 2 for e in measured]))
                if b is None:
                    mse = [(a**2).sum() / n for _, a, _ in spectra]
                else:
                    mse = [predicted_mse(e, a, c, b, n) for e, a, c in spectra]
                cells.append(f"{run:.3f} / {np.sqrt(np.mean(mse)):.3f}")
            print(f"| {name} | " + " | ".join(cells) + " |")
    print(
        "\n| size | assignments | spectral gap (median) | value's autocorrelation time, "
        "transitions (median / mean) | moves per transition (mean) | µs per transition (median) "
        "| µs per autocorrelation time (median) | burn-in needed |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for size, n, gaps, times, moving, micros, drawn, needed in summary:
        print(
            f"| {size} | {n} | {np.median(gaps):.4f} | {np.median(times):.1f} / "
            f"{np.mean(times):.1f} | {np.mean(moving):.3f} | {np.median(micros):.2f} | "
            f"{np.median(drawn):.1f} | {needed} |"
        )
    print(
        f"\n'burn-in needed': smallest b for which {row} b's predicted RMSE at n=1000 is within "
        f"{NEEDED_RATIO}x of the true samples' (mean square over the states)."
    )


if __name__ == "__main__":
    main()
