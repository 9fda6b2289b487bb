"""Where OpenSpiel's ISMCTS gets its edge in Oh Hell: the same ISMCTS (OpenSpiel's Python
``ISMCTSBot``, the same number of simulations a move) resampling with OpenSpiel's own resampler,
which never re-deals the undealt cards (so it keeps the true undealt pile, information no player
has), against resampling with fogsearch's exact one (``resample_from_infostate``: the undealt pile
re-dealt, uniform players' reach), with Mr. Random in the third seat.

Three players, every deal played three times with the players rotated through the seats; mean
return per game with 95% intervals over deals, and the paired difference of the two ISMCTS.

    .venv/bin/python bench/ttcg_ohhell_ismcts_resamplers.py --deals 40 --simulations 200
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from fogsearch.ttcg import resample_from_infostate
from fogsearch.ttcg.match.report import interval
from fogsearch.ttcg.match.runner import deal_actions, deal_seed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--tricks", type=int, default=5, help="num_tricks_fixed")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    params = {"num_tricks_fixed": args.tricks}
    game = pyspiel.load_game("oh_hell", params)
    names = ["ISMCTS, OpenSpiel's resampler", "ISMCTS, fogsearch's exact resampler", "random"]

    def bot(kind: int, seed: int):
        rng = np.random.RandomState(seed)
        b = ismcts.ISMCTSBot(
            game, mcts.RandomRolloutEvaluator(1, rng), 2.0, args.simulations, random_state=rng
        )
        if kind == 1:
            draws = iter(range(seed * 1_000_000, (seed + 1) * 1_000_000))
            b.set_resampler(lambda s, p: resample_from_infostate(s, p, next(draws)))
        return b

    per_deal = []
    t = time.perf_counter()
    for d in range(args.deals):
        chance = deal_actions("oh_hell", params, deal_seed(args.seed, d))
        results = [[], [], []]
        for r in range(3):
            seats = [(s - r) % 3 for s in range(3)]
            bots = {p: bot(p, d * 10 + p) for p in (0, 1)}
            rng = np.random.default_rng(d)
            state = game.new_initial_state()
            for a in chance:
                state.apply_action(a)
            while not state.is_terminal():
                player = seats[state.current_player()]
                if player == 2:
                    legal = state.legal_actions()
                    action = legal[rng.integers(len(legal))]
                else:
                    action = bots[player].step(state)
                state.apply_action(action)
            for seat, player in enumerate(seats):
                results[player].append(state.returns()[seat])
        per_deal.append([float(np.mean(x)) for x in results])
    print(
        f"{args.deals} deals x 3 rotations, {args.tricks} tricks, {args.simulations} "
        f"simulations a move, {time.perf_counter() - t:.0f} s\n"
    )
    print("| player | mean return | 95% interval |")
    print("|---|---|---|")
    for p, name in enumerate(names):
        mean, low, high = interval([row[p] for row in per_deal])
        print(f"| {name} | {mean:.2f} | [{low:.2f}, {high:.2f}] |")
    mean, low, high = interval([row[0] - row[1] for row in per_deal])
    print(
        f"| OpenSpiel's - fogsearch's (paired by deal) | {mean:+.2f} | [{low:+.2f}, {high:+.2f}] |"
    )


if __name__ == "__main__":
    main()
