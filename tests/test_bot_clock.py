"""Time per turn (``fogsearch.bot.clock.turn_budget``): the clock beyond the reserve spread over the
turns the game still has, more on hard turns, clamped to the plan's floor and ceiling, and never
more than the clock allows; simulated games that spend every budget in full."""

import itertools
import random

import pytest

from fogsearch.bot import ClockPlan
from fogsearch.bot.clock import (
    decision_hardness,
    move_budget,
    part_budget,
    set_hardness,
    tracking_budget,
    turn_budget,
)

PLANS = [
    ClockPlan(),
    ClockPlan(plan_turns=1, min_turn_seconds=0.0, max_turn_seconds=1000.0, reserve_seconds=0.0),
    ClockPlan(plan_turns=10, min_turn_seconds=0.5, max_turn_seconds=0.5, reserve_seconds=10.0),
    ClockPlan(plan_turns=40, min_turn_seconds=2.0, max_turn_seconds=30.0, reserve_seconds=2.0),
    ClockPlan(increment_seconds=0.0),
    ClockPlan(increment_seconds=30.0, hard_turn_factor=3.0),
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
    plan = ClockPlan(
        plan_turns=10,
        min_turn_seconds=0.2,
        max_turn_seconds=20.0,
        reserve_seconds=15,
        increment_seconds=0.0,
    )
    assert turn_budget(plan, 115.0) == pytest.approx(10.0)
    assert turn_budget(plan, 35.0) == pytest.approx(2.0)


def test_the_reserve_is_never_planned_for():
    plan = ClockPlan(reserve_seconds=10, min_turn_seconds=0.5, increment_seconds=0)
    assert turn_budget(plan, 5.0) == 0.0
    assert turn_budget(plan, 10.0) == 0.0
    assert turn_budget(plan, 10.3) == pytest.approx(0.3)  # below the floor: all that is usable
    assert turn_budget(plan, 10.5) == pytest.approx(0.5)


def test_a_full_clock_is_capped_at_the_longest_turn():
    plan = ClockPlan(plan_turns=10, max_turn_seconds=20.0, reserve_seconds=0.0)
    assert turn_budget(plan, 900.0) == 20.0


def test_later_and_harder_turns_get_more_of_what_is_left():
    plan = ClockPlan(
        plan_turns=40,
        min_turns_left=10,
        reserve_seconds=0.0,
        max_turn_seconds=1e3,
        increment_seconds=0.0,
    )
    assert turn_budget(plan, 400.0, turn=0) == pytest.approx(10.0)
    assert turn_budget(plan, 400.0, turn=20) == pytest.approx(20.0)
    assert turn_budget(plan, 400.0, turn=35) == pytest.approx(40.0)  # at least 10 turns left
    assert turn_budget(plan, 400.0, turn=80) == pytest.approx(40.0)
    assert turn_budget(plan, 400.0, turn=0, hardness=1.0) == pytest.approx(20.0)
    assert turn_budget(plan, 400.0, turn=0, hardness=0.5) == pytest.approx(15.0)
    assert turn_budget(plan, 400.0, turn=0, hardness=7.0) == pytest.approx(20.0)  # clamped


def test_hardness_grows_with_the_set_and_with_a_close_decision():
    assert set_hardness(1) == 0.0 and set_hardness(10**6) == 1.0
    assert 0 < set_hardness(30) < set_hardness(300) < 1
    assert decision_hardness([5.0], 50.0) == 0.0
    assert decision_hardness([5.0, 5.0, -3.0], 50.0) == 1.0
    assert decision_hardness([40.0, 15.0], 50.0) == pytest.approx(0.5)
    assert decision_hardness([100.0, 0.0], 50.0) == 0.0


def test_most_of_the_planned_increment_is_spent_on_its_turn():
    plan = ClockPlan(plan_turns=10, reserve_seconds=0.0, increment_seconds=5.0)
    assert turn_budget(plan, 100.0) == pytest.approx(10.0 + 0.8 * 5.0)


# The reserve pays for a turn's time outside its budget (a set update longer than the whole
# budget): plans with a reserve shorter than such a turn are not simulated.
SIMULATED = [
    (plan, increment) for plan in PLANS for increment in (0.0, 5.0) if plan.reserve_seconds >= 5
]


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize(("plan", "increment"), SIMULATED)
def test_a_simulated_game_never_runs_out_of_clock_nor_below_the_floor(plan, increment, seed):
    """Each turn spends time on the set before its sense (with the 5 s increment up to 0.5 s, and
    2 s on one turn in ten: a large expansion; without it up to 0.1 s, since then only the reserve
    pays for what the plan does not), its sense and move budgets in full, and up to 50 ms after
    the move, at random hardness, on a 900 s clock; the budgets come from the clock as the turn
    started, less what the turn has spent, as the bot's do. The clock never runs out, each turn's
    budget is at least the floor while the reserve allows, a turn overspends its budget only by
    what came before its sense and after its move, and a long game uses most of the clock."""
    rng = random.Random(seed)
    longest_before = 0.5 if increment else 0.1
    clock, used, after_estimate = 900.0, 0.0, 0.0
    for turn in range(120):
        hardness = rng.random()
        whole = turn_budget(plan, clock, turn, hardness)
        if clock - plan.reserve_seconds >= plan.min_turn_seconds:
            assert whole >= plan.min_turn_seconds
        spike = increment and rng.random() < 0.1
        before = rng.random() * (2.0 if spike else longest_before)
        elapsed = before
        elapsed += part_budget(whole, plan.sense_share, elapsed, after_estimate)
        elapsed += part_budget(whole, 1 - plan.sense_share, elapsed, after_estimate)
        after = rng.random() * 0.05
        assert elapsed <= max(whole, before) + 1e-9
        elapsed += after
        after_estimate += 0.5 * (after - after_estimate)
        assert clock - elapsed > 0.0, turn
        clock -= elapsed
        used += elapsed
        clock += increment
    if plan.max_turn_seconds >= 20:
        assert used > 0.8 * (900 + increment * 120)


def test_a_part_of_a_turn_gets_its_share_less_what_the_turn_has_already_spent():
    assert part_budget(4.0, 0.25, 0.0, 0.0) == 1.0
    assert part_budget(4.0, 0.75, 0.5, 0.2) == 3.0  # the share still fits
    assert part_budget(4.0, 0.75, 2.0, 0.5) == pytest.approx(1.5)  # the set update took 2 s
    assert part_budget(4.0, 0.75, 5.0, 0.0) == 0.0  # overspent already: nothing, never negative


def test_the_turns_earlier_work_leaves_the_move_its_floor():
    plan = ClockPlan()  # a 1 s floor, a 15 s reserve
    # move_budget(plan, clock now, the move's planned share, its budget after the turn's work,
    # the work expected after the search)
    assert move_budget(plan, 30.0, 2.0, 0.0, 0.0) == 1.0  # the set's updates left it nothing
    assert move_budget(plan, 30.0, 2.0, 0.4, 0.0) == 1.0
    assert move_budget(plan, 30.0, 3.0, 3.0, 0.0) == 3.0  # a budget above the floor is kept
    assert move_budget(plan, 30.0, 0.6, 0.2, 0.0) == pytest.approx(0.6)  # its share, if less
    assert move_budget(plan, 30.0, 0.6, 0.6, 0.0) == pytest.approx(0.6)  # the plan's own kept
    assert move_budget(plan, 15.5, 2.0, 0.0, 0.0) == pytest.approx(0.5)  # what the reserve spares
    assert move_budget(plan, 15.8, 2.0, 0.0, 0.5) == pytest.approx(0.3)  # less the work after it
    assert move_budget(plan, 10.0, 2.0, 0.0, 0.0) == 0.0  # inside the reserve: none
    assert move_budget(plan, 10.0, 2.0, 0.2, 0.0) == 0.2  # the plan's own budget is not cut
    assert move_budget(ClockPlan(min_move_seconds=0.0), 30.0, 2.0, 0.0, 0.0) == 0.0  # off


@pytest.mark.parametrize(("plan", "seconds_left"), list(itertools.product(PLANS, CLOCKS)))
def test_the_move_floor_never_spends_the_reserve_nor_lifts_a_planned_turn(plan, seconds_left):
    beyond = max(0.0, seconds_left - plan.reserve_seconds)
    planned = (1 - plan.sense_share) * turn_budget(plan, seconds_left)
    assert move_budget(plan, seconds_left, planned, 0.0, 0.0) <= beyond
    # A turn whose earlier work took nothing is left as the plan made it.
    assert move_budget(plan, seconds_left, planned, planned, 0.0) == planned
    for budget in (0.0, 0.1, 2.0):
        assert move_budget(plan, seconds_left, planned, budget, 0.0) >= budget


@pytest.mark.parametrize(("plan", "seconds_left"), list(itertools.product(PLANS, CLOCKS)))
def test_the_expansion_may_take_its_share_of_the_clock(plan, seconds_left):
    assert tracking_budget(plan, seconds_left) == pytest.approx(plan.tracking_share * seconds_left)
    # Each expansion leaves most of the clock: a run of them never empties it.
    assert seconds_left - tracking_budget(plan, seconds_left) >= 0.75 * seconds_left


def test_the_expansion_share_is_a_plan_setting():
    plan = ClockPlan(tracking_share=0.5, reserve_seconds=15.0)
    assert tracking_budget(plan, 35.0) == pytest.approx(17.5)
    # Inside the reserve too: the plan spends nothing of it, but the set must still be tracked.
    assert tracking_budget(plan, 10.0) == pytest.approx(5.0)
    assert tracking_budget(plan, -1.0) == 0.0  # a clock already overrun: the least sample
