"""Parallel efficiency of the TTCG Gibbs sampler against the machine's own scaling.

Wall-clock efficiency (k-thread throughput over k times the 1-thread throughput) mixes two things:
overhead in fogsearch (shared state, allocation, scheduling) and the machine giving each core
less when more cores are busy (turbo clocks, SMT siblings on a VM, memory bandwidth). This script
separates them. For each k it runs, at the same time on the same machine:

- **threads**: one process, k chains on k threads (how users run the sampler);
- **processes**: k independent processes with one chain each (no shared anything).

threads / processes is fogsearch's own parallel efficiency: 1.0 means k threads do as well as k
separate programs can on this hardware. processes / (k x one process alone) is the machine's.

Run: ``.venv/bin/python bench/ttcg_scaling_control.py --threads 1,2,4,8,16``
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from ttcg_throughput import STATES, random_public_state  # noqa: E402

from fogsearch.arguments import cores  # noqa: E402
from fogsearch.ttcg import JointRange, SoftmaxPolicy, UniformPolicy  # noqa: E402

POLICIES = {"uniform": UniformPolicy, "softmax b=5": lambda: SoftmaxPolicy(1, 5.0)}


def build(state: str, policy: str) -> JointRange:
    params, played = STATES[state]
    return JointRange(params, random_public_state(params, played, seed=1), None, POLICIES[policy]())


def run_chains(r: JointRange, chains: int, transitions: int, seed: int = 0) -> float:
    """Transitions per wall second of ``chains`` chains run together in this process."""
    t0 = time.perf_counter()
    out = r.gibbs(chains, 1, burn_in=transitions - 1, thin=1, seed=seed)
    return int(out.transitions.sum()) / (time.perf_counter() - t0)


def _process(state, policy, transitions, seed, barrier, results):
    r = build(state, policy)
    run_chains(r, 1, 5000, seed)  # warm-up, like the threaded run's
    barrier.wait()
    # perf_counter is CLOCK_MONOTONIC on Linux: comparable between processes of one machine.
    start = time.perf_counter()
    out = r.gibbs(1, 1, burn_in=transitions - 1, thin=1, seed=seed)
    results.put((start, time.perf_counter(), int(out.transitions.sum())))


def run_processes(state: str, policy: str, k: int, transitions: int) -> float:
    """Transitions per second of k one-chain processes started together: all their transitions
    over the time from the first start to the last finish, as the threaded run is timed (until
    its slowest chain is done)."""
    ctx = mp.get_context("spawn")
    barrier, results = ctx.Barrier(k), ctx.Queue()
    procs = [
        ctx.Process(target=_process, args=(state, policy, transitions, i, barrier, results))
        for i in range(k)
    ]
    for p in procs:
        p.start()
    spans = [results.get() for _ in procs]
    for p in procs:
        p.join()
    wall = max(end for _, end, _ in spans) - min(start for start, _, _ in spans)
    return sum(n for _, _, n in spans) / wall


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", default=f"1,2,{cores()}")
    ap.add_argument("--seconds", type=float, default=1.0, help="about this long per chain")
    args = ap.parse_args()
    counts = sorted({int(k) for k in args.threads.split(",")} | {1})
    print(f"machine: {cores()} cores; each cell: threads (processes) in M transitions/s;")
    print("eff. = threads / processes, fogsearch's parallel efficiency on this machine\n")
    print(
        "| state | policy | "
        + " | ".join(f"k={k}: threads (processes), eff." for k in counts)
        + " | machine's own scaling at k="
        + str(counts[-1])
        + " |"
    )
    print("|---|---|" + "---|" * (len(counts) + 1))
    for state in list(STATES)[:3]:
        for policy in POLICIES:
            r = build(state, policy)
            rate = run_chains(r, 1, 5000)
            n = int(max(20_000, rate * args.seconds))
            cells, alone = [], None
            for k in counts:
                threads = run_chains(r, k, n)
                processes = run_processes(state, policy, k, n)
                alone = alone or processes
                cells.append(
                    f"{threads / 1e6:.2f} ({processes / 1e6:.2f}), {threads / processes:.2f}"
                )
            machine = processes / (counts[-1] * alone)
            print(f"| {state} | {policy} | " + " | ".join(cells) + f" | {machine:.2f} |")


if __name__ == "__main__":
    main()
