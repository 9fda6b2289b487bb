"""The sampler paper's value-estimation task (§5.4, Figures 4 and 6), on the paper's three sizes.

For each of ``--states`` random public states (no void revealed, as in Table 1) of each size, the
exact value V(S) = sum_h P(h|S) V(h) is computed by enumeration, where V(h) is player 0's expected
return from h under the joint policy (the remaining play is enumerated to the end of the hand). Then
each estimator averages V over n sampled deals:

- ``true``: iid draws from the exact joint range;
- ``gibbs b``: one TTCG Gibbs chain started from a uniformly drawn deal, recording a deal every
  ``max(b, 1)`` transitions after ``b`` burn-in transitions (the paper's "burn-in" b; b = 0 records
  every transition);
- ``pairs b`` (with ``--kernels ringswap,pairs``): the same with the chain's optional pair-block
  kernel (``JointRange.gibbs(kernel="pairs")``) instead of the paper's RingSwap kernel;
- ``importance``: self-normalised importance sampling with the exact uniform proposal.

The joint policy is the supplement's random "policy bias" policy (``--policy bias``: bias 0.9 on
one random action per information state; Figure 6), or (``--policy qlearning``, Figure 4) one learnt
by independent Q-learning: per size, every seat learns a table of action values over its own
information states by self-play (``--episodes`` hands, every-visit Monte Carlo, learning rate 0.05)
and plays them epsilon-greedily (epsilon 0.1), as ``TabularPolicy.q_learning`` does. The paper's
own hyperparameters are not in its text.

Each size's header also gives the range's entropy over histories and the variance of the history
values V(h) under it (the supplement's Table 2). With ``--equal-transitions`` the Gibbs rows are
also printed against the number of transitions instead of samples (Figure 5): with burn-in b a
chain records every max(b, 1) transitions, so T transitions give (T - b) / max(b, 1) samples.

Run: ``.venv/bin/python bench/ttcg_value_estimation.py --states 100`` (writes
``bench/plots/ttcg_value_estimation.png`` and prints the error table).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from fogsearch import _core
from fogsearch._core.ttcg import TabularPolicy
from fogsearch.ttcg import BiasPolicy, JointRange

SIZES = {
    "192": ({"players": 3, "num_suits": 2, "num_cards_per_suit": 4, "num_tricks_fixed": 2}, 1),
    "12960": ({"players": 3, "num_suits": 3, "num_cards_per_suit": 4, "num_tricks_fixed": 3}, 2),
    "544320": ({"players": 3, "num_suits": 3, "num_cards_per_suit": 4, "num_tricks_fixed": 3}, 1),
}
SAMPLE_SIZES = [10, 20, 50, 100, 200, 400, 1000]
BURN_INS = [0, 5, 20, 100]
TRANSITIONS = [100, 200, 500, 1000, 2000, 5000, 10000, 20000]


def random_public_state(params, tricks_played, rng):
    public_actions = 3 + 3 * tricks_played
    while True:
        s = _core.ttcg.OhHellState(params)
        public = 0
        while public < public_actions:
            if not s.is_chance_node():
                public += 1
            legal = s.legal_actions()
            s.apply_action(int(legal[rng.integers(len(legal))]))
        obs = _core.ttcg.observe_ohhell(params, s.history(), None)
        if not any(any(row) for row in obs["voids"]):
            return s.history()


def policy_public_state(params, tricks_played, rng, policy):
    """Like ``random_public_state``, but the players act by ``policy`` (chance stays uniform), so
    the observed bids and plays are typical of the joint policy whose range is then sampled."""
    public_actions = 3 + 3 * tricks_played
    while True:
        s = _core.ttcg.OhHellState(params)
        public = 0
        while public < public_actions:
            legal = [int(a) for a in s.legal_actions()]
            if s.is_chance_node():
                s.apply_action(legal[rng.integers(len(legal))])
                continue
            history = [int(a) for a in s.history()]
            deal = _deal_of(params, history)
            log_p = np.array(
                [_core.ttcg.log_reach(params, history + [a], deal, policy)[0] for a in legal]
            )
            p = np.exp(log_p - log_p.max())
            s.apply_action(legal[rng.choice(len(legal), p=p / p.sum())])
            public += 1
        obs = _core.ttcg.observe_ohhell(params, s.history(), None)
        if not any(any(row) for row in obs["voids"]):
            return s.history()


def history_with_deal(params, actions, assignment):
    """The OpenSpiel history with the observed public actions and this deal (one deal order)."""
    players, tricks = params["players"], params["num_tricks_fixed"]
    hands = [np.flatnonzero(assignment == p) for p in range(players)]
    deal = [int(hands[p][i]) for i in range(tricks) for p in range(players)]
    return list(actions[:2]) + deal + list(actions[2 + players * tricks :])


def deal_value(params, history, policy):
    """Player 0's expected return from `history` to the end of the hand under `policy`: every
    continuation is enumerated and weighted by its reach relative to the history's."""
    terminals = []

    def walk(state):
        if state.is_terminal():
            terminals.append((state.history(), state.returns()[0]))
            return
        for a in state.legal_actions():
            child = state.clone()
            child.apply_action(a)
            walk(child)

    start = _core.ttcg.OhHellState(params)
    for a in history:
        start.apply_action(a)
    walk(start)
    # Reach of every player's actions along each terminal, relative to the shared prefix.
    full = _deal_of(params, history)
    base = _core.ttcg.log_reach(params, history, full, policy)[0]
    value = 0.0
    for z, ret in terminals:
        value += np.exp(_core.ttcg.log_reach(params, z, full, policy)[0] - base) * ret
    return value


def _deal_of(params, history):
    players, tricks = params["players"], params["num_tricks_fixed"]
    cards = params["num_suits"] * params["num_cards_per_suit"]
    a = np.full((1, cards), players, dtype=np.uint8)
    for i in range(tricks * players):
        a[0, history[2 + i]] = i % players
    a[0, history[2 + players * tricks]] = players + 1
    return a


def range_entropy_bits(params, p):
    """Entropy of the joint range over histories, in bits: each deal (assignment) stands for
    (tricks!)^players equally likely histories (the order of the cards dealt into each hand)."""
    orderings = np.log2(float(np.prod(np.arange(1, params["num_tricks_fixed"] + 1))))
    nz = p[p > 0]
    return float(-(nz * np.log2(nz)).sum() + params["players"] * orderings)


def exact_state(params, actions, policy):
    """The joint range of the public state, its deals, their exact probabilities and values, and
    V(S)."""
    r = JointRange(params, actions, None, policy)
    deals, log_reach = r.exact()
    p = np.exp(log_reach - log_reach.max())
    p /= p.sum()
    values = np.array(
        [deal_value(params, history_with_deal(params, actions, d), policy) for d in deals]
    )
    return r, deals, p, values, float(p @ values)


KERNEL_ROWS = {"ringswap": "gibbs", "pairs": "pairs"}


def run_state(params, actions, policy, seed, max_n, kernels=("ringswap",), transitions=False):
    r, deals, p, values, exact_value = exact_state(params, actions, policy)
    entropy = range_entropy_bits(params, p)
    variance = float(p @ (values - exact_value) ** 2)
    index = {bytes(d): i for i, d in enumerate(deals)}

    def value_of(draws):
        return values[[index[bytes(d)] for d in draws]]

    errors = {}
    true_v = value_of(r.true_samples(max_n, seed=seed))
    errors["true"] = [abs(true_v[:n].mean() - exact_value) for n in SAMPLE_SIZES]
    start = r.uniform(1, seed=seed + 1)
    for kernel in kernels:
        for b in BURN_INS:
            g = r.gibbs(
                1, max_n, burn_in=b, thin=max(b, 1), seed=seed + 2, starts=start, kernel=kernel
            )
            gv = value_of(g.flat())
            errors[f"{KERNEL_ROWS[kernel]} {b}"] = [
                abs(gv[:n].mean() - exact_value) for n in SAMPLE_SIZES
            ]
    draws, log_w = r.importance(max_n, seed=seed + 3)
    iv = value_of(draws)
    w = np.exp(log_w - log_w.max())
    errors["importance"] = [abs((w[:n] @ iv[:n]) / w[:n].sum() - exact_value) for n in SAMPLE_SIZES]
    by_transitions = {}
    if transitions:
        t_max = max(TRANSITIONS)
        for kernel in kernels:
            for b in BURN_INS:
                step = max(b, 1)
                g = r.gibbs(
                    1,
                    (t_max - b) // step,
                    burn_in=b,
                    thin=step,
                    seed=seed + 2,
                    starts=start,
                    kernel=kernel,
                )
                gv = value_of(g.flat())
                by_transitions[f"{KERNEL_ROWS[kernel]} {b}"] = [
                    abs(gv[: max(1, (t - b) // step)].mean() - exact_value) for t in TRANSITIONS
                ]
    return errors, len(deals), entropy, variance, by_transitions


def add_state_arguments(ap: argparse.ArgumentParser) -> None:
    """The options that choose the public states and policies (shared with ttcg_mixing.py, which
    must draw the same states)."""
    ap.add_argument("--states", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bias", type=float, default=0.9)
    ap.add_argument(
        "--policy",
        choices=["bias", "qlearning"],
        default="bias",
        help="the joint policy: the supplement's random bias policies, or Q-learnt ones",
    )
    ap.add_argument("--episodes", type=int, default=200_000, help="Q-learning hands per size")
    ap.add_argument("--sizes", default=",".join(SIZES))
    ap.add_argument(
        "--kernels",
        default="ringswap",
        help="Gibbs kernels to run, comma-separated: ringswap (the paper's), pairs",
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    add_state_arguments(ap)
    ap.add_argument(
        "--play",
        choices=["uniform", "policy"],
        default="uniform",
        help="how the public states are played out: uniformly at random, or by the joint policy",
    )
    ap.add_argument(
        "--equal-transitions",
        action="store_true",
        help="also print and plot the Gibbs errors against transitions (Figure 5)",
    )
    default_plot = Path(__file__).parent / "plots" / "ttcg_value_estimation.png"
    ap.add_argument("--plot", default=str(default_plot))
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    results = {}
    transition_results: dict = {}
    for size in args.sizes.split(","):
        params, played = SIZES[size]
        t0 = time.perf_counter()
        per_state, entropies, variances, per_state_t = [], [], [], []
        learnt = None
        if args.policy == "qlearning":
            t_learn = time.perf_counter()
            learnt = TabularPolicy.q_learning(params, episodes=args.episodes, seed=args.seed)
            print(
                f"\nQ-learning for {size}: {args.episodes} hands, {len(learnt)} information "
                f"states, {time.perf_counter() - t_learn:.1f} s"
            )
        for i in range(args.states):
            if learnt is not None:
                policy = learnt
            else:
                policy = BiasPolicy(seed=args.seed * 1000 + i, bias=args.bias)
            if args.play == "policy":
                actions = policy_public_state(params, played, rng, policy)
            else:
                actions = random_public_state(params, played, rng)
            errs, n_deals, entropy, variance, by_t = run_state(
                params,
                actions,
                policy,
                seed=i,
                max_n=max(SAMPLE_SIZES),
                kernels=args.kernels.split(","),
                transitions=args.equal_transitions,
            )
            per_state.append(errs)
            entropies.append(entropy)
            variances.append(variance)
            per_state_t.append(by_t)
        keys = list(per_state[0])
        mean = {k: np.mean([e[k] for e in per_state], axis=0) for k in keys}
        sem = {
            k: np.std([e[k] for e in per_state], axis=0, ddof=1) / np.sqrt(len(per_state))
            for k in keys
        }
        results[size] = (mean, sem)
        what = "Q-learnt policy" if learnt is not None else f"policy bias {args.bias}"
        print(
            f"\n## {size} histories ({n_deals} assignments), {args.states} states played "
            f"{'by the policy' if args.play == 'policy' else 'uniformly'}, {what}, "
            f"{time.perf_counter() - t0:.1f} s; range entropy {np.mean(entropies):.2f}"
            f"±{np.std(entropies, ddof=1) / np.sqrt(len(entropies)):.2f} bits, "
            f"value variance {np.mean(variances):.2f}"
            f"±{np.std(variances, ddof=1) / np.sqrt(len(variances)):.2f}"
        )
        print("| estimator | " + " | ".join(f"n={n}" for n in SAMPLE_SIZES) + " |")
        print("|---|" + "---|" * len(SAMPLE_SIZES))
        for k in keys:
            cells = " | ".join(f"{m:.3f}±{s:.3f}" for m, s in zip(mean[k], sem[k], strict=True))
            print(f"| {k} | {cells} |")
        if args.equal_transitions:
            print("\nThe Gibbs rows against transitions (Figure 5):\n")
            print("| estimator | " + " | ".join(f"T={t}" for t in TRANSITIONS) + " |")
            print("|---|" + "---|" * len(TRANSITIONS))
            t_mean = {}
            for k in per_state_t[0]:
                rows = np.array([e[k] for e in per_state_t])
                m, se = rows.mean(axis=0), rows.std(axis=0, ddof=1) / np.sqrt(len(rows))
                t_mean[k] = (m, se)
                cells = " | ".join(f"{a:.3f}±{b:.3f}" for a, b in zip(m, se, strict=True))
                print(f"| {k} | {cells} |")
            transition_results[size] = t_mean
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(results), figsize=(5 * len(results), 4), squeeze=False)
    for ax, (size, (mean, sem)) in zip(axes[0], results.items(), strict=True):
        for k in mean:
            # The optional kernel's lines are dashed, to tell the two chains apart.
            style = "--" if k.startswith("pairs") else "-"
            ax.errorbar(SAMPLE_SIZES, mean[k], yerr=sem[k], label=k, capsize=2, linestyle=style)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(f"{size} histories")
        ax.set_xlabel("samples")
        ax.set_ylabel("|V estimate - V(S)|")
    axes[0][0].legend()
    fig.tight_layout()
    Path(args.plot).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.plot, dpi=110)
    print(f"\nplot: {args.plot}")
    if transition_results:
        fig, axes = plt.subplots(
            1, len(transition_results), figsize=(5 * len(transition_results), 4), squeeze=False
        )
        for ax, (size, rows) in zip(axes[0], transition_results.items(), strict=True):
            for k, (m, se) in rows.items():
                style = "--" if k.startswith("pairs") else "-"
                ax.errorbar(TRANSITIONS, m, yerr=se, label=k, capsize=2, linestyle=style)
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_title(f"{size} histories")
            ax.set_xlabel("transitions")
            ax.set_ylabel("|V estimate - V(S)|")
        axes[0][0].legend()
        fig.tight_layout()
        path = Path(args.plot).with_name(Path(args.plot).stem + "_transitions.png")
        fig.savefig(path, dpi=110)
        print(f"plot: {path}")


if __name__ == "__main__":
    main()
