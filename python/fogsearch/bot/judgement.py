"""How the bot values a request from per-board values: a compound of the weighted mean and the
minimum over the boards, in bounded utilities.

Perfect-information values in centipawns are squashed (:func:`utility`) before they are
averaged: a mate on one board of a hundred should outweigh a pawn on every board, but not by the
20,000 centipawns of its raw score, and a king lost on one board should not hide every other
difference. Scores stay in centipawn-like units, so margins written in centipawns keep their
meaning near zero.

A lost king is the one value kept outside the squash (``king_loss_cp``): it loses the game, where
a lost queen does not, and under the squash alone a king lost on one board in 160 weighed 6
centipawns, which let AttackerBot's unseen knight check through (bench/RESULTS.md, "A lost king
outside the squash").
"""

from __future__ import annotations

import numpy as np

from fogsearch.rbc import BoardSet
from fogsearch.search import MATED, BoardTable, EngineJudge

UTILITY_SCALE_CP = 1000.0
"""Utilities are ``UTILITY_SCALE_CP * tanh(cp / UTILITY_SCALE_CP)``: linear for ordinary
material, saturating at ±1000 for a king taken or lost."""


KING_LOST_BELOW = -MATED
"""Values at or below this lose our king: within the search (``-(MATE - ply)``) or, in the
one-reply outcomes, to a capture the opponent forces next move (``-MATED``); the core's
threshold, read from it."""


def utility(values_cp: np.ndarray, king_loss_cp: float = UTILITY_SCALE_CP) -> np.ndarray:
    """Centipawn values squashed into (-UTILITY_SCALE_CP, UTILITY_SCALE_CP), as floats, except
    that a lost king is worth ``-king_loss_cp``."""
    values = np.asarray(values_cp, dtype=np.float64)
    squashed = UTILITY_SCALE_CP * np.tanh(values / UTILITY_SCALE_CP)
    return np.where(values <= KING_LOST_BELOW, -float(king_loss_cp), squashed)


def compound_scores(
    utilities: np.ndarray,
    weights: np.ndarray,
    mean_weight: float,
    minimums: np.ndarray | None = None,
) -> np.ndarray:
    """Per request (a row of ``utilities``, one column per board): ``mean_weight`` times the
    ``weights``-weighted mean plus ``1 - mean_weight`` times the minimum over the boards, or
    times ``minimums`` (one per request, such as the information-set search's worst case) when
    given."""
    weights = np.asarray(weights, dtype=np.float64)
    mean = utilities @ (weights / weights.sum())
    low = utilities.min(axis=1) if minimums is None else np.asarray(minimums, dtype=np.float64)
    return mean_weight * mean + (1.0 - mean_weight) * low


def request_scores(
    table: BoardTable,
    weights: np.ndarray,
    mean_weight: float,
    set_values: dict[str, int] | None = None,
    king_loss_cp: float = UTILITY_SCALE_CP,
) -> dict[str, float]:
    """Each request of ``table`` scored by :func:`compound_scores` (UCI keys, ``"0000"`` for a
    pass), a lost king worth ``-king_loss_cp``. With ``set_values`` (the information-set search's
    value per request), the minimum is that value's utility for the requests it has."""
    utilities = utility(table.values, king_loss_cp)
    keys = _request_keys(table)
    minimums = None
    if set_values is not None:
        lows = utilities.min(axis=1)
        minimums = np.array(
            [
                utility(np.array(set_values[key]), king_loss_cp) if key in set_values else low
                for key, low in zip(keys, lows, strict=True)
            ]
        )
    scores = compound_scores(utilities, weights, mean_weight, minimums)
    return dict(zip(keys, scores.tolist(), strict=True))


def _request_keys(table: BoardTable) -> list[str]:
    """The table's requests as UCI keys, ``"0000"`` for a pass."""
    return ["0000" if move is None else move.uci() for move in table.requests]


def worst_values(table: BoardTable) -> dict[str, int]:
    """Each request's lowest value over the boards of ``table``, in centipawns (UCI keys,
    ``"0000"`` for a pass)."""
    return dict(zip(_request_keys(table), table.values.min(axis=1).tolist(), strict=True))


def likeliest_first_table(
    judge: EngineJudge, boards: BoardSet, weights: np.ndarray, threads: int, seconds: float
) -> BoardTable:
    """The engine's table, the likeliest boards judged first within ``seconds``. The boards
    the deadline cut stay in, with static values: what the rules decide on them (a king
    taken or lost) still counts, and dropping them let AttackerBot's unlikely check through
    in 4 of 20 games (bench/RESULTS.md)."""
    order = np.argsort(-np.asarray(weights), kind="stable")
    # The table's columns follow the set's own order again.
    table = judge.table(boards.subset(order.tolist()), threads=threads, time_limit=seconds)
    columns = np.empty_like(order)
    columns[order] = np.arange(len(order))
    return BoardTable(table.requests, table.values[:, columns], table.plies[columns], table.nodes)
