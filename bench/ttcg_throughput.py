"""TTCG Gibbs sampler throughput: Metropolis-Hastings transitions per second per core on the paper's
three public-state sizes and on a 52-card, 4-player mid-game, and thread scaling from 1 to the
machine's core count (one chain per thread). Each chain runs about --seconds (at most
--transitions transitions), so thread start-up is a small part of every measurement.

Every transition evaluates the proposal's reach probability (the whole public history replayed
under the policy); the "reach evals/s" column times that evaluation alone on uniform deals, to show
how much of a transition it is. The uniform policy still computes reach (legal-action counts vary).

With the ``pairs`` kernel (``--kernels``) a transition is a pair-block update (a reach evaluation
per allowed re-split of the block, up to 20) nine times in ten, so it costs several reach
evaluations; "acceptance" is then the share of transitions that moved the chain.

Run: ``.venv/bin/python bench/ttcg_throughput.py`` (after ``maturin develop --release``).
"""

from __future__ import annotations

import argparse
import os
import resource
import time

import numpy as np

from fogsearch import _core
from fogsearch.arguments import cores as available
from fogsearch.ttcg import JointRange, SoftmaxPolicy, UniformPolicy

STATES = {
    "192 (3p, 2x4, after trick 1 of 2)": (
        {"players": 3, "num_suits": 2, "num_cards_per_suit": 4, "num_tricks_fixed": 2},
        1,
    ),
    "12,960 (3p, 3x4, after trick 2 of 3)": (
        {"players": 3, "num_suits": 3, "num_cards_per_suit": 4, "num_tricks_fixed": 3},
        2,
    ),
    "544,320 (3p, 3x4, after trick 1 of 3)": (
        {"players": 3, "num_suits": 3, "num_cards_per_suit": 4, "num_tricks_fixed": 3},
        1,
    ),
    "52 cards, 4p, 12 tricks, after trick 6": (
        {"players": 4, "num_suits": 4, "num_cards_per_suit": 13, "num_tricks_fixed": 12},
        6,
    ),
}


def random_public_state(params, tricks_played, seed):
    rng = np.random.default_rng(seed)
    players = params["players"]
    public_actions = players + players * tricks_played
    s = _core.ttcg.OhHellState(params)
    public = 0
    while public < public_actions:
        if not s.is_chance_node():
            public += 1
        legal = s.legal_actions()
        s.apply_action(int(legal[rng.integers(len(legal))]))
    return s.history()


def _cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def transitions_per_second(r, chains, transitions, kernel, seed=0):
    """(transitions per wall second, acceptance rate, transitions per CPU second of this
    process, all threads together)."""
    t0, c0 = time.perf_counter(), _cpu_seconds()
    out = r.gibbs(chains, 1, burn_in=transitions - 1, thin=1, seed=seed, kernel=kernel)
    wall, cpu = time.perf_counter() - t0, _cpu_seconds() - c0
    total = int(out.transitions.sum())
    return total / wall, out.acceptance_rate, total / cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument(
        "--transitions", type=int, default=2_000_000, help="at most this many per chain"
    )
    ap.add_argument("--seconds", type=float, default=1.0, help="aim for chains of about this long")
    ap.add_argument(
        "--threads",
        default=None,
        help="comma-separated thread counts beyond 1 (default: 2 .. all cores)",
    )
    ap.add_argument("--kernels", default="ringswap,pairs", help="comma-separated Gibbs kernels")
    args = ap.parse_args()
    cores = available()
    counts = (
        [int(k) for k in args.threads.split(",") if int(k) > 1]
        if args.threads
        else list(range(2, cores + 1))
    )
    print(f"machine: {cores} cores; one chain per thread; load average {os.getloadavg()}\n")
    print("k threads: wall-clock throughput (parallel efficiency = k-thread / (k x 1-thread);")
    print("per CPU s = transitions per CPU-second relative to 1 thread, which separates parallel")
    print("overhead from cores taken by other processes)\n")
    print(
        "| state | policy | kernel | transitions/s/core | reach evals/s/core | acceptance | "
        + " | ".join(f"{k} threads (eff.)" for k in counts)
        + " |"
    )
    print("|---|---|---|---|---|---|" + "---|" * len(counts))
    for name, (params, played) in STATES.items():
        actions = random_public_state(params, played, seed=1)
        for label, policy in [("uniform", UniformPolicy()), ("softmax b=5", SoftmaxPolicy(1, 5.0))]:
            r = JointRange(params, actions, None, policy)
            deals = r.uniform(100_000, seed=0)
            t0 = time.perf_counter()
            r.log_reach(deals)
            reach = len(deals) / (time.perf_counter() - t0)
            for kernel in args.kernels.split(","):
                print(row_of(r, name, label, kernel, reach, counts, args), flush=True)


def row_of(r, name, label, kernel, reach, counts, args):
    # Warm-up (fills the neighbourhood caches), which also sizes the runs: each chain runs about
    # --seconds, capped at --transitions, so slow states do not take minutes.
    rate, _, _ = transitions_per_second(r, 1, 5000, kernel)
    n = int(min(args.transitions, max(20_000, rate * args.seconds)))
    one, acc, one_cpu = transitions_per_second(r, 1, n, kernel)
    cells = []
    for k in counts:
        many, _, many_cpu = transitions_per_second(r, k, n, kernel)
        efficiency = many / (k * one)
        cells.append(f"{many / 1e3:.0f}k ({efficiency:.2f}; {many_cpu / one_cpu:.2f})")
    row = f"| {name} | {label} | {kernel} | {one / 1e3:.0f}k | {reach / 1e3:.0f}k | {acc:.2f} | "
    return row + " | ".join(cells) + " |"


if __name__ == "__main__":
    main()
