"""How much of the clock a turn may take."""

from __future__ import annotations

from fogsearch.bot.config import ClockPlan


def turn_budget(plan: ClockPlan, seconds_left: float) -> float:
    """Seconds for this turn's search: the usable clock (beyond the reserve) spread over the
    planned turns, clamped to the plan's floor and ceiling, and never more than what is usable."""
    usable = max(0.0, seconds_left - plan.reserve_seconds)
    share = usable / max(1, plan.plan_turns)
    return min(usable, max(plan.min_turn_seconds, min(plan.max_turn_seconds, share)))
