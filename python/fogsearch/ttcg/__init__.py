"""Trick-taking card games: a generic layer in the core with Oh Hell (OpenSpiel's rules and action
ids) and Gongzhu on it; public and information states; max-flow deal construction; exact
enumeration with reach probabilities; policies; the TTCG Gibbs sampler with its baselines; the
ScrofaZero samplers; rule-based players and a player that searches sampled deals.

MCMC diagnostics (``ess_bulk``, ``rhat``, ``acceptance_rate``) live in :mod:`fogsearch.diagnostics`
and are re-exported here.
"""

from fogsearch._core.ttcg import InfeasibleConstraints, LimitExceededError, ZeroReachError
from fogsearch.diagnostics import acceptance_rate, ess_bulk, rhat
from fogsearch.ttcg.game import DEFAULT_PARAMS, OhHellGame
from fogsearch.ttcg.observation import (
    DealConstraints,
    Observation,
    construct_deal,
    enumerate_consistent,
    enumerate_deals,
    log_reach,
    observe,
)
from fogsearch.ttcg.openspiel import resample_from_infostate, resample_many_from_infostate
from fogsearch.ttcg.policy import BiasPolicy, SoftmaxPolicy, UniformPolicy
from fogsearch.ttcg.sampling import GibbsDraws, JointRange

__all__ = [
    "DEFAULT_PARAMS",
    "BiasPolicy",
    "DealConstraints",
    "GibbsDraws",
    "InfeasibleConstraints",
    "JointRange",
    "LimitExceededError",
    "Observation",
    "OhHellGame",
    "SoftmaxPolicy",
    "UniformPolicy",
    "ZeroReachError",
    "acceptance_rate",
    "construct_deal",
    "enumerate_consistent",
    "enumerate_deals",
    "ess_bulk",
    "log_reach",
    "observe",
    "resample_from_infostate",
    "resample_many_from_infostate",
    "rhat",
]
