"""resample_from_infostate: fogsearch's exact, policy-aware resampler vs OpenSpiel's own
(`state.resample_from_infostate`), on an information state of the 3-player 3x4 game after one
trick: support reached, TVD to the exact joint range under the uniform and softmax (beta=5)
joint policies, and resamples per second (each includes building a new pyspiel state).

    python bench/ttcg_resample.py --plot bench/plots/ttcg_resample.png

``--plot`` draws each resampler's TVD to the exact range (with the iid band) and its rate.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pyspiel

from fogsearch.ttcg import (
    OhHellGame,
    SoftmaxPolicy,
    enumerate_deals,
    observe,
    resample_from_infostate,
    resample_many_from_infostate,
)

PARAMS = {"players": 3, "num_suits": 3, "num_cards_per_suit": 4, "num_tricks_fixed": 3}
PLAYER = 1
N = 5000


def info_state(seed=8):
    game = pyspiel.load_game("oh_hell", PARAMS)
    rng = random.Random(seed)
    while True:
        state = game.new_initial_state()
        public = 0
        while public < 6:
            if not state.is_chance_node():
                public += 1
            state.apply_action(rng.choice(state.legal_actions()))
        obs = observe(OhHellGame(**PARAMS), state.history(), PLAYER)
        if not any(any(v) for v in obs.constraints.voids):
            return game, state, obs


def owners(state):
    h = state.history()
    deal = h[2 : 2 + 3 * h[0]]
    o = [3] * 12
    for i, c in enumerate(deal):
        o[c] = i % 3
    o[h[2 + 3 * h[0]]] = 4
    return tuple(o)


def plot(rows: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (tvd_ax, rate_ax) = plt.subplots(1, 2, figsize=(10, 3.4), sharey=True)
    labels = [f"{r['resampler']}\n{r['policy']}" for r in rows]
    colors = ["tab:gray" if r["resampler"] == "OpenSpiel" else "tab:blue" for r in rows]
    tvd_ax.barh(labels, [r["tvd"] for r in rows], color=colors)
    for i, r in enumerate(rows):
        tvd_ax.plot([r["iid"], r["iid"]], [i - 0.4, i + 0.4], color="black", linewidth=1)
    tvd_ax.invert_yaxis()
    tvd_ax.set_xlabel("TVD to the exact range (black: an exact iid sampler's)")
    rate_ax.barh(labels, [r["rate"] for r in rows], color=colors)
    rate_ax.set_xlabel("resamples per second (each a new pyspiel state)")
    fig.suptitle(f"resample_from_infostate, oh_hell 3x4, player {PLAYER}, {N:,} draws each")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    print(f"wrote {path}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plot", type=Path, help="draw TVD and rate per resampler to this PNG")
    args = parser.parse_args()
    rows = []
    game, state, obs = info_state()
    print("| joint policy | resampler | deals reached / consistent | TVD to exact | resamples/s |")
    print("|---|---|---|---|---|")
    for name, policy in [("uniform", None), ("softmax beta=5", SoftmaxPolicy(seed=3, beta=5.0))]:
        deals, log_reach = enumerate_deals(obs, policy)
        p = np.exp(log_reach - log_reach.max())
        exact = dict(zip((tuple(int(x) for x in d) for d in deals), p / p.sum(), strict=True))
        expected_tvd = math.sqrt(len(exact) / (2 * math.pi * N))
        rng = random.Random(0)
        for label, draw in [
            ("OpenSpiel", lambda seed, r=rng: state.resample_from_infostate(PLAYER, r.random)),
            (
                "fogsearch (exact)",
                lambda seed, pol=policy: resample_from_infostate(state, PLAYER, seed, pol),
            ),
            ("fogsearch (exact, batched)", None),
        ]:
            t = time.perf_counter()
            if draw is None:  # one call for all N draws, timed with them
                batched = iter(resample_many_from_infostate(state, PLAYER, N, 0, policy))
                draw = lambda seed, it=batched: next(it)  # noqa: E731
            counts = Counter(owners(draw(seed)) for seed in range(N))
            rate = N / (time.perf_counter() - t)
            tvd = 0.5 * sum(abs(counts[k] / N - q) for k, q in exact.items())
            tvd += 0.5 * sum(c / N for k, c in counts.items() if k not in exact)
            print(
                f"| {name} | {label} | {len(counts)} / {len(exact)} | {tvd:.3f} "
                f"(iid at this n: ~{expected_tvd:.3f}) | {rate:,.0f} |"
            )
            rows.append(
                {"policy": name, "resampler": label, "tvd": tvd, "iid": expected_tvd, "rate": rate}
            )
    if args.plot:
        plot(rows, args.plot)


if __name__ == "__main__":
    main()
