"""Where the bot senses: where the coming move decision gains most, or where the set shrinks most.

The decision criterion values a sense by what knowing its result is worth to the move chosen
next: each result leaves a part of the boards, on which the best request is chosen by the bot's
own compound score (:mod:`fogsearch.bot.judgement`), and the expected best score over the
results is compared with the best score without sensing. The request values come from a shallow
board table; a sense that helps no decision (one board left, or every part choosing alike) gains
nothing, and the set-size criterion then decides.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess
import numpy as np

from fogsearch.bot.judgement import UTILITY_SCALE_CP, compound_scores, utility
from fogsearch.rbc import BoardSet
from fogsearch.search import board_table, decision_sense_values

GAIN_EPSILON_CP = 1e-6
"""Gains below this are ties (sums of floats in another order)."""


@dataclass(frozen=True)
class SenseChoice:
    """The square, how it was chosen (``"decision"`` or ``"size"``), what it gains to the move
    decision (centipawn-like units, 0 for ``"size"``), and the decision's scores without a sense
    (best first; empty for ``"size"``), which tell how close the decision is."""

    square: chess.Square | None
    criterion: str
    gain: float = 0.0
    unsensed_scores: tuple[float, ...] = ()


def smallest_expected_set(
    expected: dict[chess.Square, float], squares: list[chess.Square]
) -> chess.Square | None:
    """The square leaving the fewest boards in ``expected`` (the set's
    :meth:`~fogsearch.rbc.BoardSet.sense_stats`; the lowest square on ties)."""
    candidates = [sq for sq in squares if sq in expected] or squares
    if not candidates:
        return None
    return min(candidates, key=lambda sq: (expected.get(sq, float("inf")), sq))


def decision_sense(
    boards: BoardSet,
    weights: np.ndarray,
    squares: list[chess.Square],
    expected: dict[chess.Square, float],
    mean_weight: float,
    plies: int,
    threads: int,
    time_limit: float,
    king_loss_cp: float = UTILITY_SCALE_CP,
) -> SenseChoice:
    """The sense among ``squares`` that most raises the expected best compound score of the
    coming move on ``boards`` (weighted by ``weights``), from a board table of at most ``plies``
    plies within ``time_limit`` seconds, a lost king worth ``-king_loss_cp``; ties (including
    no gain at all) go to the smallest expected set by ``expected`` (the whole set's sense
    statistics)."""
    by_size = smallest_expected_set(expected, squares)
    if len(boards) < 2:
        return SenseChoice(by_size, "size")
    table = board_table(
        boards, least_plies=None, most_plies=plies, threads=threads, time_limit=time_limit
    )
    utilities = utility(table.values, king_loss_cp)
    unsensed, by_square = decision_sense_values(boards, utilities, weights, mean_weight)
    scores = tuple(sorted(compound_scores(utilities, weights, mean_weight).tolist(), reverse=True))
    gains = {sq: by_square[sq] - unsensed for sq in squares if sq in by_square}
    best_gain = max(gains.values(), default=0.0)
    if best_gain <= GAIN_EPSILON_CP:
        return SenseChoice(by_size, "size", 0.0, scores)
    square = min(
        (sq for sq, gain in gains.items() if gain >= best_gain - GAIN_EPSILON_CP),
        key=lambda sq: (expected.get(sq, float("inf")), sq),
    )
    return SenseChoice(square, "decision", best_gain, scores)
