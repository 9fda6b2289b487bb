"""Exact enumeration of the paper's public states: fogsearch (Rust) vs a pyspiel-in-Python
enumeration of the same OpenSpiel histories.

    .venv/bin/python bench/ttcg_enumeration.py [--full]

The pyspiel enumeration deals every arrangement of the non-trump cards that does not hand a
publicly played card to the wrong player, then replays the public actions, keeping the legal ones.
Without --full it runs pyspiel on the 192 and 12,960 cases only and reports per-history rates.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))

from ttcg_states import paper_params, public_state_without_voids  # noqa: E402

from fogsearch import _core  # noqa: E402

CASES = [
    ("3p, 2x4, 2 tricks, after trick 1", (2, 4, 2), 1, 192),
    ("3p, 3x4, 3 tricks, after trick 2", (3, 4, 3), 2, 12_960),
    ("3p, 3x4, 3 tricks, after trick 1", (3, 4, 3), 1, 544_320),
]


def params(suits, ranks, tricks):
    return paper_params(suits, ranks, tricks)


def public_state(p, tricks_played, seed=1):
    game, state, obs = public_state_without_voids(p, tricks_played, seed)
    return game, state.history(), obs


def pyspiel_enumerate(game, history, obs):
    """Depth-first over pyspiel's deal chance nodes, never dealing a publicly played card to
    another player (nor more of them than a hand has room for), then replaying the trump card and
    the public actions and keeping the histories where each is legal."""
    players, tricks = 3, obs.num_tricks
    played_by = {a: p for p, a in obs.events if a < len(obs.constraints.known_owner)}
    tail = [obs.trump_card, *(a for _, a in obs.events)]
    count = 0

    def deal(state, slot, pending):
        nonlocal count
        if slot == players * tricks:
            for a in tail:
                if a not in state.legal_actions():
                    return
                state.apply_action(a)
            count += 1
            return
        p = slot % players
        room = tricks - slot // players
        for c in state.legal_actions():
            if c == obs.trump_card or played_by.get(c, p) != p:
                continue
            if c not in played_by and pending[p] >= room:
                continue
            child = state.clone()
            child.apply_action(c)
            left = list(pending)
            if c in played_by:
                left[p] -= 1
            deal(child, slot + 1, left)

    root = game.new_initial_state()
    root.apply_action(history[0])
    root.apply_action(history[1])
    pending = [sum(1 for q in played_by.values() if q == p) for p in range(players)]
    deal(root, 0, pending)
    return count


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--full", action="store_true", help="run pyspiel on the 544,320 case too")
    args = ap.parse_args()
    print(
        "| public state | histories | fogsearch s | fogsearch histories/s | pyspiel s | "
        "pyspiel histories/s | speed-up |"
    )
    print("|---|---|---|---|---|---|---|")
    for name, game_args, tricks_played, expected in CASES:
        p = params(*game_args)
        game, history, obs = public_state(p, tricks_played)
        best = float("inf")
        for _ in range(5):
            t = time.perf_counter()
            count, _ = _core.ttcg.walk_histories(p, list(history))
            best = min(best, time.perf_counter() - t)
        assert count == expected, (count, expected)
        if expected < 100_000 or args.full:
            t = time.perf_counter()
            theirs = pyspiel_enumerate(game, history, obs)
            spiel = time.perf_counter() - t
            assert theirs == expected, (theirs, expected)
            spiel_cell = f"{spiel:.2f}"
            rate = expected / spiel
        else:
            spiel_cell, rate = "not run", None
        ratio = f"{(expected / best) / rate:,.0f}x" if rate else "-"
        rate_cell = f"{rate:,.0f}" if rate else "-"
        print(
            f"| {name} | {expected:,} | {best:.4f} | {expected / best:,.0f} | {spiel_cell} | "
            f"{rate_cell} | {ratio} |"
        )


if __name__ == "__main__":
    main()
