"""The samplers behind one interface, each checked against exact enumeration on small endgames:
US and SS (self-normalised stratum weights) against the uniform range, IEC on either against the
enumerated IEC scores, and the TTCG Gibbs sampler (both kernels) against the enumerated reach of
its model of play (Gongzhu: the Greed model; Oh Hell: uniform players); for both games."""

import math
import random

import numpy as np
import pytest

from fogsearch._core import ttcg as native
from fogsearch.ttcg import JointRange, UniformPolicy
from fogsearch.ttcg.gongzhu import deal, new_state

BETA = 0.05  # firmer than the paper's 0.015, so the weights differ visibly from uniform


def gongzhu_endgame(seed: int, tricks: int = 10):
    """A Gongzhu game played at random to ``tricks`` tricks: the seat to act sees 9 hidden cards."""
    rng = random.Random(seed)
    state = new_state(deal(seed))
    while len(state.history()) < 52 + 4 * tricks:
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def ohhell_endgame(seed: int):
    params = {"players": 3, "num_suits": 3, "num_cards_per_suit": 4, "num_tricks_fixed": 3}
    rng = random.Random(seed)
    state = native.OhHellState(params)
    while len(state.history()) < 2 + 9 + 1 + 3 + 3:
        state.apply_action(rng.choice(state.legal_actions()))
    return params, state


def exact_range(state, policy=None):
    """Every deal consistent with the seat to act's view, with its normalised weight: its reach
    under ``policy``, or (``policy`` None) the same for every deal."""
    if isinstance(state, native.GongzhuState):
        r = JointRange({}, state.history(), state.current_player(), policy, game="gongzhu")
    else:
        r = JointRange(state_params[0], state.history(), state.current_player(), policy)
    deals, log_w = r.exact()
    if policy is None:
        log_w = np.zeros(len(deals))
    p = np.exp(log_w - log_w.max())
    return {bytes(d): q for d, q in zip(deals, p / p.sum(), strict=True)}


state_params: list = []


def weighted_tvd(deals, log_weights, exact):
    w = np.exp(log_weights - log_weights.max())
    w /= w.sum()
    got: dict[bytes, float] = {}
    for d, x in zip(deals, w, strict=True):
        got[bytes(d)] = got.get(bytes(d), 0.0) + x
    assert set(got) <= set(exact), "a sampled deal is inconsistent with the observation"
    return 0.5 * sum(abs(got.get(k, 0.0) - q) for k, q in exact.items()), 1 / np.sum(w**2)


def iid_band(n_deals: int, effective_n: float) -> float:
    """The TVD an exact iid sampler of ``effective_n`` = n draws has, in expectation: a frequency
    of probability p errs by sqrt(2 p / (pi n)) in absolute value (half-normal, variance p / n),
    and half the sum over ``n_deals`` equal p = 1 / n_deals is sqrt(n_deals / (2 pi n))."""
    return math.sqrt(n_deals / (2 * math.pi * effective_n))


@pytest.mark.parametrize("sampler", ["us", "ss"])
@pytest.mark.parametrize("game", ["gongzhu", "oh_hell"])
def test_us_and_ss_draw_the_uniform_range(game, sampler):
    if game == "gongzhu":
        state = gongzhu_endgame(1)
    else:
        params, state = ohhell_endgame(2)
        state_params[:] = [params]
    exact = exact_range(state)
    deals, log_w = native.sample_deals(state, sampler, n=20_000, seed=3)
    assert deals.shape[1] == (52 if game == "gongzhu" else 12)
    tvd, ess = weighted_tvd(deals, log_w, exact)
    assert tvd < 1.5 * iid_band(len(exact), ess), (tvd, ess, len(exact))
    if sampler == "ss":
        # Strata of unequal size carry unequal weights: SS is not uniform draw by draw.
        assert len(set(np.round(log_w, 9))) > 1


@pytest.mark.parametrize("sampler", ["us+iec", "ss+iec"])
def test_iec_weights_reproduce_the_enumerated_iec_scores(sampler):
    state = gongzhu_endgame(4)
    exact = exact_range(state, native.GongzhuModel.iec(BETA))
    assert len(set(np.round(list(exact.values()), 12))) > 1, "IEC must weigh this state"
    deals, log_w = native.sample_deals(state, sampler, n=30_000, seed=5, iec_beta=BETA)
    tvd, ess = weighted_tvd(deals, log_w, exact)
    assert tvd < 1.5 * iid_band(len(exact), ess), (tvd, ess, len(exact))
    # Without IEC the same draws estimate the uniform range instead, which is measurably off.
    plain, _ = weighted_tvd(deals, np.zeros(len(deals)), exact)
    assert plain > 2 * tvd


@pytest.mark.parametrize("kernel", ["gibbs", "pairs"])
def test_oh_hell_gibbs_draws_the_enumerated_reach_of_uniform_players(kernel):
    params, state = ohhell_endgame(2)
    state_params[:] = [params]
    exact = exact_range(state, UniformPolicy())
    deals, log_w = native.sample_deals(state, kernel, n=8_000, seed=7, chains=4, burn_in=50, thin=5)
    assert np.all(log_w == 0) and deals.shape[1] == 12
    tvd, _ = weighted_tvd(deals, log_w, exact)
    # Chains draw correlated deals: the band of an iid sampler with a quarter of the draws.
    band = 1.5 * iid_band(len(exact), len(deals) / 4)
    assert tvd < band, (tvd, len(exact))
    # Uniform players' reach differs from a uniform draw over deals by more than the band.
    flat = exact_range(state)
    assert 0.5 * sum(abs(exact[k] - flat[k]) for k in exact) > band


@pytest.mark.parametrize("kernel", ["gibbs", "pairs"])
def test_gibbs_with_the_greed_model_draws_the_enumerated_reach(kernel):
    state = gongzhu_endgame(6)
    exact = exact_range(state, native.GongzhuModel.greed(BETA))
    deals, log_w = native.sample_deals(
        state, kernel, n=8_000, seed=7, model_beta=BETA, chains=4, burn_in=50, thin=5
    )
    assert np.all(log_w == 0)
    tvd, _ = weighted_tvd(deals, log_w, exact)
    # Chains draw correlated deals: the band of an iid sampler with a quarter of the draws.
    band = 1.5 * iid_band(len(exact), len(deals) / 4)
    assert tvd < band, (tvd, len(exact))
    # The model's reach is far enough from uniform that a uniform sampler would fail this.
    uniform = 0.5 * sum(abs(q - 1 / len(exact)) for q in exact.values())
    assert uniform > 2 * band, uniform


KEY_CARDS = [42, 51, 47, 37, 32, 50, 46, 43]
"""Gongzhu's key cards, most important first: SQ, HA, HK, DJ, C10, SA, SK, HQ."""


@pytest.mark.parametrize("strata", ["exact", "equal"])
def test_each_strata_weight_is_its_share_of_deals_or_the_papers_one_over_t(strata):
    state, key = next(
        (state, key)
        for state in (gongzhu_endgame(seed, tricks=9) for seed in range(50))
        for key in KEY_CARDS[:1]
        if key not in set(state.dealt_hands()[state.current_player()]) | set(state.history()[52:])
    )
    seat = state.current_player()
    deals, log_w = native.sample_deals(state, "ss", n=30, seed=2, key_cards=1, strata=strata)
    w = np.exp(log_w - log_w.max())
    w /= w.sum()
    mass: dict[int, float] = {}
    for d, x in zip(deals, w, strict=True):
        mass[int(d[key])] = mass.get(int(d[key]), 0.0) + x
    assert len(mass) >= 2, "the key card must have more than one possible holder"
    if strata == "equal":
        # The paper's zeroth-order p(S_j) = 1/t: every stratum weighs the same.
        assert all(m == pytest.approx(1 / len(mass)) for m in mass.values())
        return
    # Exact: each stratum weighs its share of the consistent deals, counted by enumeration.
    r = JointRange({}, state.history(), seat, None, game="gongzhu")
    holders = r.exact()[0][:, key]
    for holder, m in mass.items():
        assert m == pytest.approx(np.mean(holders == holder), rel=1e-9)
    assert len(set(np.round(list(mass.values()), 9))) > 1, "strata of unequal size here"


def test_strata_are_the_placements_of_the_key_cards():
    state = gongzhu_endgame(8, tricks=6)
    deals, log_w = native.sample_deals(state, "ss", n=9, seed=1, key_cards=2)
    # Two hidden key cards among three holders: at most 9 strata, one draw each.
    assert 1 <= len(deals) <= 9
    seat = state.current_player()
    assert all(d[c] != seat for d in deals for c in range(52) if c not in state.dealt_hands()[seat]
               and c not in state.history()[52:])  # fmt: skip


def test_bad_sampler_settings_are_refused():
    state = gongzhu_endgame(1)
    with pytest.raises(ValueError, match="sampler must be"):
        native.sample_deals(state, "magic")
    with pytest.raises(ValueError, match="at least one deal"):
        native.sample_deals(state, "us", n=0)
    with pytest.raises(native.LimitExceededError):
        native.sample_deals(state, "us", n=2**40)
    with pytest.raises(ValueError, match="key_cards"):
        native.sample_deals(state, "ss", key_cards=9)
    with pytest.raises(ValueError, match="strata must be exact or equal"):
        native.sample_deals(state, "ss", strata="paper")
    params, oh = ohhell_endgame(2)
    with pytest.raises(ValueError, match="Gongzhu"):
        native.sample_deals(oh, "us+iec")
