"""Time per turn (``fogsearch.bot.clock.turn_budget``): the clock beyond the reserve spread over the
planned turns, clamped to the plan's floor and ceiling, and never more than the clock allows."""

import itertools

import pytest

from fogsearch.bot import ClockPlan
from fogsearch.bot.clock import turn_budget

PLANS = [
    ClockPlan(),
    ClockPlan(plan_turns=1, min_turn_seconds=0.0, max_turn_seconds=1000.0, reserve_seconds=0.0),
    ClockPlan(plan_turns=10, min_turn_seconds=0.5, max_turn_seconds=0.5, reserve_seconds=10.0),
    ClockPlan(plan_turns=40, min_turn_seconds=2.0, max_turn_seconds=30.0, reserve_seconds=2.0),
]
CLOCKS = [0.0, 0.1, 1.0, 2.5, 10.0, 10.4, 15.0, 15.2, 60.0, 115.0, 900.0, 1e6]


@pytest.mark.parametrize(("plan", "seconds_left"), list(itertools.product(PLANS, CLOCKS)))
def test_a_budget_stays_within_the_usable_clock_and_the_plan(plan, seconds_left):
    budget = turn_budget(plan, seconds_left)
    usable = max(0.0, seconds_left - plan.reserve_seconds)
    assert 0.0 <= budget <= usable
    assert budget <= plan.max_turn_seconds
    # The floor holds whenever the clock beyond the reserve allows it.
    if usable >= plan.min_turn_seconds:
        assert budget >= plan.min_turn_seconds
    else:
        assert budget == usable


def test_the_usable_clock_is_spread_over_the_planned_turns():
    plan = ClockPlan(plan_turns=10, min_turn_seconds=0.2, max_turn_seconds=20.0, reserve_seconds=15)
    assert turn_budget(plan, 115.0) == pytest.approx(10.0)
    assert turn_budget(plan, 35.0) == pytest.approx(2.0)


def test_the_reserve_is_never_planned_for():
    plan = ClockPlan(reserve_seconds=10, min_turn_seconds=0.5)
    assert turn_budget(plan, 5.0) == 0.0
    assert turn_budget(plan, 10.0) == 0.0
    assert turn_budget(plan, 10.3) == pytest.approx(0.3)  # below the floor: all that is usable
    assert turn_budget(plan, 10.5) == pytest.approx(0.5)


def test_a_full_clock_is_capped_at_the_longest_turn():
    # The default plan at reconchess's 15-minute clock: 885 s / 25 turns would be 35 s a turn.
    assert turn_budget(ClockPlan(), 900.0) == ClockPlan().max_turn_seconds == 20.0
