"""Trick-taking card games: Oh Hell with OpenSpiel's rules, public and information states,
max-flow deal construction, exact enumeration with reach probabilities, policies, and the TTCG
Gibbs sampler with its baselines."""

from fogsearch._core import InfeasibleConstraints
from fogsearch.ttcg.diagnostics import acceptance_rate, ess_bulk, rhat
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
    "InfeasibleConstraints",
    "Observation",
    "OhHellGame",
    "SoftmaxPolicy",
    "UniformPolicy",
    "construct_deal",
    "enumerate_consistent",
    "enumerate_deals",
    "log_reach",
    "observe",
    "resample_from_infostate",
    "resample_many_from_infostate",
    "GibbsDraws",
    "JointRange",
    "acceptance_rate",
    "ess_bulk",
    "rhat",
]
