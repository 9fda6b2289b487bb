"""The card-play policies' parameter ranges are the core's (BiasPolicy::new, SoftmaxPolicy::new,
GreedPolicy::new, IecWeight::new): a bad value reaches Python as a ValueError naming it."""

from __future__ import annotations

import math

import pytest

from fogsearch._core import ttcg


@pytest.mark.parametrize(
    ("make", "name"),
    [
        (lambda: ttcg.BuiltinPolicy.bias(1, 1.5), "bias must be in"),
        (lambda: ttcg.BuiltinPolicy.bias(1, math.nan), "bias must be in"),
        (lambda: ttcg.BuiltinPolicy.softmax(1, -1.0), "beta must be finite"),
        (lambda: ttcg.BuiltinPolicy.softmax(1, math.inf), "beta must be finite"),
        (lambda: ttcg.GongzhuModel.greed(math.nan), "beta must be finite"),
        (lambda: ttcg.GongzhuModel.iec(-0.5), "beta must be finite"),
    ],
)
def test_a_parameter_out_of_range_is_a_value_error_naming_it(make, name):
    with pytest.raises(ValueError, match=name):
        make()


def test_the_bounds_themselves_are_allowed():
    assert repr(ttcg.BuiltinPolicy.bias(1, 1.0)) == "BiasPolicy(seed=1, bias=1)"
    assert repr(ttcg.BuiltinPolicy.softmax(1, 0.0)) == "SoftmaxPolicy(seed=1, beta=0)"
    assert repr(ttcg.GongzhuModel.iec(0.0)) == "GongzhuModel.iec(0)"
    # A decoded policy goes through the same checks, so a valid one round-trips.
    policy = ttcg.BuiltinPolicy.softmax(3, 2.5)
    assert ttcg.BuiltinPolicy.from_bytes(policy.to_bytes()) == policy
