"""A seed gives the same Gibbs draws whatever the thread count: chains own RNG streams. Each count
runs in a fresh process, so no pool is shared between the two runs."""

import hashlib
import subprocess
import sys

import pytest

SCRIPT = """
import hashlib, sys
from fogsearch.ttcg import JointRange, SoftmaxPolicy
from fogsearch import _core
import numpy as np
params = {"players": 3, "num_suits": 3, "num_cards_per_suit": 4, "num_tricks_fixed": 3}
rng = np.random.default_rng(0)
s = _core.ttcg.OhHellState(params)
public = 0
while public < 6:
    if not s.is_chance_node():
        public += 1
    legal = s.legal_actions()
    s.apply_action(int(legal[rng.integers(len(legal))]))
r = JointRange(params, s.history(), None, SoftmaxPolicy(2, 5.0))
out = r.gibbs(6, 300, burn_in=10, thin=3, seed=99, kernel=sys.argv[1], threads=int(sys.argv[2]))
sys.stdout.write(hashlib.sha256(out.samples.tobytes() + out.accepted.tobytes()).hexdigest())
"""


def draws_digest(threads: int, kernel: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, kernel, str(threads)],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


@pytest.mark.parametrize("kernel", ["ringswap", "pairs"])
def test_one_and_two_threads_give_identical_draws(kernel):
    one, two = draws_digest(1, kernel), draws_digest(2, kernel)
    assert len(one) == len(hashlib.sha256().hexdigest())
    assert one == two
