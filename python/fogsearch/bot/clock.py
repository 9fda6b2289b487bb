"""How much of the clock a turn may take, and how hard a turn is."""

from __future__ import annotations

import math

from fogsearch.bot.config import ClockPlan

INCREMENT_SPENT = 0.8
"""The share of each turn's increment a turn spends: the rest builds a margin over the game."""
HARD_SET_BOARDS = 4096
"""A set this large (or larger) counts as fully hard; one board, not at all."""


def turn_budget(
    plan: ClockPlan, seconds_left: float, turn: int = 0, hardness: float = 0.0
) -> float:
    """Seconds for turn ``turn`` (0-based, ours) with ``seconds_left`` on the clock: the usable
    clock (beyond the reserve) spread over the turns the plan still expects, plus most of the
    planned increment, times
    ``1 + (hard_turn_factor - 1) * hardness`` (hardness in [0, 1]), clamped to the plan's floor
    and ceiling, and never more than what is usable."""
    usable = max(0.0, seconds_left - plan.reserve_seconds)
    turns_left = max(plan.min_turns_left, plan.plan_turns - max(0, turn))
    hardness = min(1.0, max(0.0, hardness))
    even = usable / turns_left + INCREMENT_SPENT * plan.increment_seconds
    share = even * (1.0 + (plan.hard_turn_factor - 1.0) * hardness)
    return min(usable, max(plan.min_turn_seconds, min(plan.max_turn_seconds, share)))


def part_budget(allowance: float, share: float, elapsed: float, still_to_come: float) -> float:
    """Seconds one part of a turn (the sense, the move) may take: its ``share`` of the turn's
    ``allowance``, but no more than the allowance has left once the turn's ``elapsed`` seconds
    (set updates, the sense) and the work still to come after this part are counted. The set's
    updates run on the clock too: a budget that ignored them overspent every turn by their cost,
    which at short clocks and large sets drained the reserve and lost games on time."""
    return max(0.0, min(share * allowance, allowance - elapsed - still_to_come))


def move_budget(
    plan: ClockPlan, seconds_left: float, planned: float, budget: float, after_search: float
) -> float:
    """The move's search budget: ``budget`` (its part of the turn, less what the turn has spent),
    but at least its ``planned`` share of the turn's allowance or ``plan.min_move_seconds``,
    whichever is less, while the clock beyond the reserve holds it (``seconds_left`` now, less the
    ``after_search`` seconds expected after the search). On sets of millions of boards the set's
    updates and the sense can spend the whole turn's allowance: the move then searched for 0-0.3 s
    with 7-17 s beyond the reserve and was chosen on one ply or none. At 60 s + 1 s, 11 of the
    1,076 bot sides in the stored SPRTs and gauntlet had such a turn, and 8 of those 11 lost. Only
    those turns: where the plan itself gives the move less (near the reserve), it is kept."""
    usable = max(0.0, seconds_left - plan.reserve_seconds - after_search)
    return max(budget, min(plan.min_move_seconds, planned, usable))


def tracking_budget(plan: ClockPlan, seconds_left: float) -> float:
    """Seconds the set's expansion by an opponent move may take with ``seconds_left`` on the
    clock: ``plan.tracking_share`` of it, so that no run of expansions can empty the clock. The
    turn's budget counts this work only once it is done (it comes before the turn's first clock
    report) and cannot cut it short, so it is bounded on its own: unbounded, expanding sets of
    millions took 13 s and then 25 s of a 32 s clock at 60 s + 1 s, and the game was lost on
    time. Of the whole clock rather than of what the plan may spend beyond its reserve: at short
    clocks the plan keeps the clock near the reserve for tens of turns, where a share of what lies
    beyond it would sample sets of tens of thousands of boards (and lose the true board) on a
    clock that holds seconds for them."""
    return plan.tracking_share * max(0.0, seconds_left)


def set_hardness(boards: int) -> float:
    """How hard a set of ``boards`` boards is to decide on, in [0, 1]: log-scaled up to
    :data:`HARD_SET_BOARDS`."""
    return min(1.0, math.log(max(1, boards)) / math.log(HARD_SET_BOARDS))


def decision_hardness(scores: list[float], close_cp: float) -> float:
    """How close the best two of a decision's scores are, in [0, 1]: 1 when they tie, 0 when
    they are ``close_cp`` or more apart (or there is one choice)."""
    if len(scores) < 2 or close_cp <= 0:
        return 0.0
    first, second = sorted(scores, reverse=True)[:2]
    return max(0.0, 1.0 - (first - second) / close_cp)
