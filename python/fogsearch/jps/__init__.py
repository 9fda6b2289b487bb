"""Joint Policy Search for collaborative imperfect-information games (Tian, Gong and Jiang 2020,
paper 002), on the four tabular games it is evaluated on, with the CFR it starts from.

Games are named ``comm:l=L`` (Simple Communication), ``mini_hanabi`` (OpenSpiel's
``tiny_hanabi``), ``simple_bidding:n=N`` and ``mini_bridge:n=N`` (2-Suit Mini-Bridge).

>>> from fogsearch.jps import load_game, cfr, jps, expected_reward
>>> game = load_game("simple_bidding:n=4")
>>> game.num_states, game.num_infosets          # Table 1's counts
(241, 61)
>>> start = cfr(game, 1000, seed=0).current     # the paper's CFR, last iterate
>>> improved = jps(game, start)                 # Algorithm 1, depth as the paper sets it
>>> improved.value >= expected_reward(game, start)   # Theorem 2
True

:func:`run_seeds` runs CFR (or a random start) and JPS for many seeds in parallel (Table 1 and
Table 2); :mod:`fogsearch.jps.openspiel` exposes each game as a ``pyspiel`` game.
"""

from fogsearch._core.jps import JpsError
from fogsearch.jps.game import Game, Policy, load_game
from fogsearch.jps.seeds import SeedsResult, run_seeds, run_seeds_many
from fogsearch.jps.solve import (
    CfrResult,
    JpsOutcome,
    Step,
    brute_force_step,
    cfr,
    expected_reward,
    jps,
    jps_step,
    policy_change_density,
    start_infosets,
    value_change,
)

__all__ = [
    "CfrResult",
    "Game",
    "JpsError",
    "JpsOutcome",
    "Policy",
    "SeedsResult",
    "Step",
    "brute_force_step",
    "cfr",
    "expected_reward",
    "jps",
    "jps_step",
    "load_game",
    "policy_change_density",
    "run_seeds",
    "run_seeds_many",
    "start_infosets",
    "value_change",
]
