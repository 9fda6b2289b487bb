"""The game-generic history filtering on Gongzhu, checked against a reference that shares none of
its code: the consistent deals of a Gongzhu endgame listed by brute force in Python (every split
of the hidden cards among the other seats, with the voids read off the tricks here) equal the
core's constraints and enumeration; max-flow construction gives distinct consistent deals; the
uniform and importance baselines and both Gibbs kernels draw the enumerated range."""

import itertools
import random

import numpy as np
import pytest
from test_ttcg_samplers import iid_band, weighted_tvd

from fogsearch._core import ttcg as native
from fogsearch.ttcg import JointRange
from fogsearch.ttcg.gongzhu import deal, new_state

SEATS = 4


def endgame(seed: int, tricks: int):
    rng = random.Random(seed)
    state = new_state(deal(seed))
    while len(state.history()) < 52 + SEATS * tricks:
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def read_tricks(plays: list[int]) -> tuple[dict[int, int], list[set[int]]]:
    """Who played each card and which suits each seat has shown void in, by the rules as
    written (seat 0 leads first; follow suit; the highest card of the led suit wins and leads)."""
    owner: dict[int, int] = {}
    voids: list[set[int]] = [set() for _ in range(SEATS)]
    leader = 0
    for t in range(0, len(plays), SEATS):
        trick = plays[t : t + SEATS]
        led = trick[0] % 4
        seats = [(leader + i) % SEATS for i in range(len(trick))]
        for seat, card in zip(seats, trick, strict=True):
            owner[card] = seat
            if card % 4 != led:
                voids[seat].add(led)
        if len(trick) == SEATS:
            following = [(card // 4, seat) for card, seat in zip(trick, seats, strict=True)
                         if card % 4 == led]  # fmt: skip
            leader = max(following)[1]
    return owner, voids


def brute_force_deals(state) -> set[tuple[int, ...]]:
    """Every full deal (owner of each of the 52 cards) the seat to act cannot rule out."""
    history = state.history()
    me = state.current_player()
    mine = set(history[me:52:SEATS])
    owner, voids = read_tricks(list(history[52:]))
    played_by = [sum(1 for s in owner.values() if s == seat) for seat in range(SEATS)]
    hidden = sorted(set(range(52)) - mine - set(owner))
    others = [s for s in range(SEATS) if s != me]
    base = [-1] * 52
    for c in mine:
        base[c] = me
    for c, s in owner.items():
        base[c] = s
    deals = set()
    sizes = [13 - played_by[s] for s in others]
    assert sum(sizes) == len(hidden)
    for first in itertools.combinations(hidden, sizes[0]):
        rest = [c for c in hidden if c not in first]
        for second in itertools.combinations(rest, sizes[1]):
            third = [c for c in rest if c not in second]
            hands = (first, second, third)
            if any(c % 4 in voids[s] for s, hand in zip(others, hands, strict=True) for c in hand):
                continue
            row = list(base)
            for s, hand in zip(others, hands, strict=True):
                for c in hand:
                    row[c] = s
            deals.add(tuple(row))
    return deals


def with_a_void(tricks: int) -> object:
    """The first seeded endgame in which some seat has shown a void (so the constraints bite)."""
    for seed in range(100):
        state = endgame(seed, tricks)
        _, voids = read_tricks(list(state.history()[52:]))
        if any(voids[s] for s in range(SEATS) if s != state.current_player()):
            return state
    raise AssertionError("no seeded endgame with a void")


def exact_distribution(r: JointRange) -> dict[bytes, float]:
    deals, log_w = r.exact()
    p = np.exp(log_w - log_w.max())
    return {bytes(d): q for d, q in zip(deals, p / p.sum(), strict=True)}


@pytest.mark.parametrize("tricks", [9, 10, 11])
def test_the_cores_consistent_deals_are_the_brute_force_ones(tricks):
    state = with_a_void(tricks)
    expected = brute_force_deals(state)
    r = JointRange({}, state.history(), state.current_player(), game="gongzhu")
    deals, log_reach = r.exact()
    got = {tuple(int(x) for x in d) for d in deals}
    assert len(got) == len(deals), "a deal enumerated twice"
    assert got == expected
    # Uniform play reaches every consistent deal, with a reach that depends on the hands.
    assert np.all(np.isfinite(log_reach))
    assert r.count_violations(deals) == 0


def test_a_deal_that_breaks_a_void_or_a_hand_size_is_counted_as_a_violation():
    state = with_a_void(10)
    me = state.current_player()
    _, voids = read_tricks(list(state.history()[52:]))
    r = JointRange({}, state.history(), me, game="gongzhu")
    deals, _ = r.exact()
    row = deals[0].copy()
    seat = next(s for s in range(SEATS) if s != me and voids[s])
    hidden = [c for c in range(52) if row[c] not in (seat, me) and c not in state.history()[52:]]
    # Hand one card of a suit the seat showed void in to that seat: void broken, sizes broken.
    card = next(c for c in hidden if c % 4 in voids[seat])
    row[card] = seat
    assert r.count_violations(row[None, :]) == 1
    assert r.count_violations(np.vstack([deals[:3], row[None, :]])) == 1


def test_max_flow_constructions_are_distinct_consistent_deals():
    state = with_a_void(9)
    r = JointRange({}, state.history(), state.current_player(), game="gongzhu")
    consistent = {bytes(d) for d in r.exact()[0]}
    starts = r.starts(20, seed=3)
    assert starts.shape == (20, 52)
    assert r.count_violations(starts) == 0
    assert all(bytes(s) in consistent for s in starts)
    assert len({bytes(s) for s in starts}) == 20
    # The same seed constructs the same deals.
    assert np.array_equal(starts, r.starts(20, seed=3))


def test_the_uniform_and_importance_baselines_draw_the_enumerated_ranges():
    state = with_a_void(10)
    me = state.current_player()
    r = JointRange({}, state.history(), me, native.GongzhuModel.greed(0.05), game="gongzhu")
    reach = exact_distribution(r)
    support = len(reach)
    uniform = r.uniform(20_000, seed=1)
    tvd, n = weighted_tvd(uniform, np.zeros(len(uniform)), {k: 1 / support for k in reach})
    assert tvd < 1.5 * iid_band(support, n), (tvd, support)
    deals, log_w = r.importance(20_000, seed=2)
    tvd, ess = weighted_tvd(deals, log_w, reach)
    assert tvd < 1.5 * iid_band(support, ess), (tvd, ess, support)
    # The Greed model's reach is far from uniform: unweighted draws would fail the same check.
    plain, _ = weighted_tvd(deals, np.zeros(len(deals)), reach)
    assert plain > 3 * iid_band(support, ess), plain


@pytest.mark.parametrize("kernel", ["ringswap", "pairs"])
def test_both_gibbs_kernels_draw_the_enumerated_reach(kernel):
    state = with_a_void(10)
    r = JointRange(
        {}, state.history(), state.current_player(), native.GongzhuModel.greed(0.05), game="gongzhu"
    )
    reach = exact_distribution(r)
    draws = r.gibbs(4, 2_000, burn_in=50, thin=5, seed=7, kernel=kernel)
    flat = draws.flat()
    assert flat.shape == (8_000, 52)
    tvd, _ = weighted_tvd(flat, np.zeros(len(flat)), reach)
    # Chains draw correlated deals: the band of an iid sampler with a quarter of the draws.
    assert tvd < 1.5 * iid_band(len(reach), len(flat) / 4), (tvd, len(reach))
